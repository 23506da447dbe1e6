/**
 * Whether two versions of a document say the same thing: what the version rule calls "changed". Signatures (at
 * any depth), metadata.timestamp, the top-level version and `$schema` are not content, and member order does not
 * matter; nor does the order of the arrays compare/order.ts lists as sets (what normalize may sort).
 */
import { canonicalize } from '../jsf/jcs.js';
import { checkDepth } from '../json/walk.js';
import { isRecord, setMember } from '../values.js';
import { setOrderView } from './order.js';

/** A copy-on-write view without `signature` members at any depth: unsigned subtrees are shared, not copied. */
function unsignedView(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  checkDepth(depth);
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const view = unsignedView(item, depth + 1);
      if (view !== item) (out ??= value.slice())[i] = view;
    }
    return out ?? value;
  }
  const record = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const member = record[key];
    // canonicalize leaves out undefined members, so undefined is as good as deleting.
    const view = key === 'signature' ? undefined : unsignedView(member, depth + 1);
    if (view !== member) setMember((out ??= { ...record }), key, view);
  }
  return out ?? record;
}

/**
 * The canonical content: no signatures, no metadata.timestamp, no version (the counter the rule is about), and no
 * `$schema`, which only JSON can carry (XML names its schema with the namespace): a document and its XML twin
 * are one release.
 */
function contentKey(document: unknown): string {
  const view = setOrderView(unsignedView(document, 0));
  if (!isRecord(view)) return canonicalize(view);
  const metadata = isRecord(view.metadata) ? { ...view.metadata, timestamp: undefined } : view.metadata;
  return canonicalize({ ...view, version: undefined, $schema: undefined, metadata });
}

/**
 * Whether the content differs: signatures (at any depth), metadata.timestamp, the top-level version and
 * `$schema` are ignored, and so is member order (the comparison is on the JCS canonical form). Linear in the document size.
 */
export function contentChanged(baseline: unknown, current: unknown): boolean {
  return contentKey(baseline) !== contentKey(current);
}
