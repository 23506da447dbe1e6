/** RFC 6901 JSON pointers. */

export function escapeSegment(segment: string | number): string {
  const s = String(segment);
  return s.includes('~') || s.includes('/') ? s.replaceAll('~', '~0').replaceAll('/', '~1') : s;
}

export function toPointer(path: readonly (string | number)[]): string {
  let out = '';
  for (const segment of path) out += '/' + escapeSegment(segment);
  return out;
}

export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => (s.includes('~') ? s.replaceAll('~1', '/').replaceAll('~0', '~') : s));
}

export function appendPointer(pointer: string, segment: string | number): string {
  return pointer + '/' + escapeSegment(segment);
}

/**
 * The value at `pointer`, or undefined. Only own members are followed, so `__proto__` paths are inert. Walks the
 * pointer in place (no segment array): reports resolve one per finding, tens of thousands of times.
 */
export function resolvePointer(document: unknown, pointer: string): unknown {
  let node: unknown = document;
  for (let start = 1; start <= pointer.length;) {
    let end = pointer.indexOf('/', start);
    if (end < 0) end = pointer.length;
    if (Array.isArray(node)) {
      const index = arrayIndex(pointer, start, end);
      if (index < 0) return undefined;
      node = node[index];
    } else if (node !== null && typeof node === 'object') {
      const raw = pointer.slice(start, end);
      const segment = raw.includes('~') ? raw.replaceAll('~1', '/').replaceAll('~0', '~') : raw;
      if (!Object.hasOwn(node, segment)) return undefined;
      node = (node as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
    start = end + 1;
  }
  return node;
}

/** The array index written from `start` to `end` (`0`, `17`; never `01` or `-1`), or -1. */
function arrayIndex(pointer: string, start: number, end: number): number {
  if (end === start || end - start > 15 || (pointer.charCodeAt(start) === 0x30 && end - start > 1)) return -1;
  let index = 0;
  for (let i = start; i < end; i++) {
    const digit = pointer.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    index = index * 10 + digit;
  }
  return index;
}
