/**
 * The one table of arrays whose order carries no meaning: normalize sorts only these, and the version rule and
 * diff compare them as sets (as multisets: a repeated item still counts). Every other array is ordered (licences:
 * 1.5/1.6 give a single expression meaning by position; a signature covers array order everywhere, but a changed
 * order in a signed object fails its signature, not this comparison).
 */
import { canonicalize } from '../jsf/jcs.js';
import { checkDepth } from '../json/walk.js';
import { isRecord, setMember } from '../values.js';

const UNORDERED: ReadonlySet<string> = new Set([
  'components',
  'services',
  'dependencies',
  'dependsOn',
  'provides',
  'hashes',
  'externalReferences',
  'properties',
]);

/** Lists of references whose emptiness is no statement of its own (canonicalize leaves undefined members out). */
const EMPTY_IS_ABSENT: ReadonlySet<string> = new Set(['dependsOn', 'provides']);

/** Whether the array member `name` (at any depth) is a set. */
export function isUnorderedArray(name: string): boolean {
  return UNORDERED.has(name);
}

/**
 * A copy-on-write view of `value` in which every unordered array is sorted by its items' canonical form, so two
 * documents that differ only in the order of such arrays have the same canonical form.
 */
export function setOrderView(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  checkDepth(depth);
  if (Array.isArray(value)) return arrayView(value, false, depth);
  const record = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const member = record[key];
    // An empty dependsOn or provides says what its absence says, and XML can say it only by absence.
    const view = Array.isArray(member)
      ? member.length === 0 && EMPTY_IS_ABSENT.has(key)
        ? undefined
        : arrayView(member, isUnorderedArray(key), depth + 1)
      : setOrderView(member, depth + 1);
    if (view !== member) setMember((out ??= { ...record }), key, view);
  }
  return out ?? record;
}

function arrayView(items: readonly unknown[], unordered: boolean, depth: number): unknown {
  checkDepth(depth);
  let out: unknown[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const view = setOrderView(items[i], depth + 1);
    if (view !== items[i]) (out ??= items.slice())[i] = view;
  }
  const list = out ?? (items as unknown[]);
  if (!unordered || list.length < 2) return list;
  const keyed = list.map((item) => ({
    item,
    key: isRecord(item) || Array.isArray(item) ? canonicalize(item) : (JSON.stringify(item) ?? 'null'),
  }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((k) => k.item);
}
