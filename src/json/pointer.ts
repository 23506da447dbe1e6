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

/** The value at `pointer`, or undefined. Only own members are followed, so `__proto__` paths are inert. */
export function resolvePointer(document: unknown, pointer: string): unknown {
  let node: unknown = document;
  for (const segment of parsePointer(pointer)) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(segment)) return undefined;
      node = node[Number(segment)];
    } else if (node !== null && typeof node === 'object') {
      if (!Object.hasOwn(node, segment)) return undefined;
      node = (node as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return node;
}
