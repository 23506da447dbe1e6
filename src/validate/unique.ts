/**
 * JSON Schema `uniqueItems` in linear time. ajv compares every pair with deep equality (quadratic: minutes on a
 * 20,000-component BOM). Here each item gets a cheap shallow key; only items whose shallow keys collide are
 * compared by a key-order-independent canonical form, and each item is canonicalized at most once.
 */
export function findDuplicatePair(items: readonly unknown[]): [number, number] | null {
  if (items.length < 2) return null;
  const firstByShallow = new Map<string, number>();
  let byCanonical: Map<string, number> | undefined;
  let canonicalized: Set<number> | undefined;
  for (let i = 0; i < items.length; i++) {
    const shallow = shallowKey(items[i]);
    const earlier = firstByShallow.get(shallow);
    if (earlier === undefined) {
      firstByShallow.set(shallow, i);
      continue;
    }
    byCanonical ??= new Map();
    canonicalized ??= new Set();
    if (!canonicalized.has(earlier)) {
      canonicalized.add(earlier);
      const key = canonicalKey(items[earlier]);
      if (!byCanonical.has(key)) byCanonical.set(key, earlier);
    }
    const key = canonicalKey(items[i]);
    const match = byCanonical.get(key);
    if (match !== undefined) return [match, i];
    byCanonical.set(key, i);
    canonicalized.add(i);
  }
  return null;
}

function primitiveKey(value: unknown): string {
  if (value === null) return 'z';
  switch (typeof value) {
    case 'string':
      return 's' + value;
    case 'number':
      return 'n' + String(value);
    case 'boolean':
      return value ? 't' : 'f';
    default:
      return Array.isArray(value) ? 'a' + value.length : 'o';
  }
}

function shallowKey(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return primitiveKey(value);
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  for (const key of keys) out += JSON.stringify(key) + ':' + JSON.stringify(primitiveKey(record[key])) + ',';
  return out;
}

/** Sorted-member JSON: equal for JSON-equal values whatever their member order. */
export function canonicalKey(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return '[' + value.map(canonicalKey).join(',') + ']';
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalKey(record[k])).join(',') + '}';
}
