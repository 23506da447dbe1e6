/**
 * Stale signatures. Any change inside a signed object breaks its signature (JSF signs the JCS form of the whole
 * holding object), so an edit either leaves signed objects alone or removes the signatures it breaks and says so.
 */
import { appendPointer, parsePointer, toPointer } from '../json/pointer.js';
import { forEachObject } from '../json/walk.js';
import { isRecord } from '../values.js';

const SIGNATURE = 'signature';

/** Pointers of the `signature` members an edit at `pointer` breaks: those of the object and of its ancestors. */
export function signaturesOnPath(document: Record<string, unknown>, pointer: string): string[] {
  const found: string[] = [];
  const segments = parsePointer(pointer);
  let node: unknown = document;
  for (let n = 0; ; n++) {
    if (isRecord(node) && Object.hasOwn(node, SIGNATURE))
      found.push(appendPointer(toPointer(segments.slice(0, n)), SIGNATURE));
    if (n === segments.length) break;
    const segment = segments[n]!;
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isRecord(node) && Object.hasOwn(node, segment)) node = node[segment];
    else break;
  }
  return found;
}

/** Removes the members at `pointers` from `copy`, which must be the caller's own copy. */
export function removeMembers(copy: Record<string, unknown>, pointers: readonly string[]): void {
  for (const pointer of pointers) {
    const segments = parsePointer(pointer);
    const member = segments.pop();
    let node: unknown = copy;
    for (const segment of segments)
      node = Array.isArray(node) ? node[Number(segment)] : isRecord(node) ? node[segment] : undefined;
    if (isRecord(node) && member !== undefined) delete node[member];
  }
}

/** A copy of `document` without any signature, and the pointers of the signatures removed, in document order. */
export function withoutSignatures(document: Record<string, unknown>): {
  document: Record<string, unknown>;
  removed: string[];
} {
  const copy = structuredClone(document);
  const removed: string[] = [];
  forEachObject(
    copy,
    (record, pointer) => {
      if (!Object.hasOwn(record, SIGNATURE)) return;
      removed.push(appendPointer(pointer(), SIGNATURE));
      delete record[SIGNATURE];
    },
    (key) => key === SIGNATURE,
  );
  return { document: copy, removed };
}
