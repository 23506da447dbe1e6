/**
 * JSON Schema `uniqueItems` in linear time. ajv compares every pair with deep equality (quadratic: minutes on a
 * 20,000-component BOM). Here every item gets a cheap 32-bit fingerprint that equal items always share: an
 * object's own string bom-ref when it has one, else its members, where member order cannot change it (member
 * hashes are added, not chained), and only primitive members and the first characters of strings count. Items whose fingerprints collide are then compared by their key-order-independent
 * canonical form, and each item is canonicalized at most once, so even adversarial collisions stay linear.
 * `work`, when given, counts the items that took the slow path, so tests can see that fingerprints tell items
 * apart without timing anything.
 */
export function findDuplicatePair(items: readonly unknown[], work?: UniquenessWork): [number, number] | null {
  if (items.length < 2) return null;
  const firstByFingerprint = new FingerprintTable(items.length);
  let byCanonical: Map<string, number> | undefined;
  let canonicalized: Set<number> | undefined;
  for (let i = 0; i < items.length; i++) {
    const earlier = firstByFingerprint.firstOr(fingerprintOf(items[i]), i);
    if (earlier === i) continue;
    byCanonical ??= new Map();
    canonicalized ??= new Set();
    if (!canonicalized.has(earlier)) {
      canonicalized.add(earlier);
      const key = canonicalKey(items[earlier]);
      if (work) work.canonicalized++;
      if (!byCanonical.has(key)) byCanonical.set(key, earlier);
    }
    const key = canonicalKey(items[i]);
    if (work) work.canonicalized++;
    const match = byCanonical.get(key);
    if (match !== undefined) return [match, i];
    byCanonical.set(key, i);
    canonicalized.add(i);
  }
  return null;
}

/**
 * Fingerprint → the first item that had it: open addressing over two typed arrays, sized once for every item. A
 * Map would box most fingerprints (32-bit values outside the small-integer range) and grow as it fills.
 */
class FingerprintTable {
  private readonly fingerprints: Int32Array;
  /** Item index + 1; 0 is an empty slot. */
  private readonly firsts: Int32Array;
  private readonly mask: number;

  constructor(items: number) {
    let size = 16;
    while (size < items * 2) size *= 2;
    this.fingerprints = new Int32Array(size);
    this.firsts = new Int32Array(size);
    this.mask = size - 1;
  }

  /** The first item with `fingerprint`, or `item` (then recorded as that first item). */
  firstOr(fingerprint: number, item: number): number {
    const key = fingerprint | 0;
    let slot = Math.imul(key ^ (key >>> 16), 0x45d9f3b) & this.mask;
    for (;;) {
      const first = this.firsts[slot]!;
      if (first === 0) {
        this.fingerprints[slot] = key;
        this.firsts[slot] = item + 1;
        return item;
      }
      if (this.fingerprints[slot] === key) return first - 1;
      slot = (slot + 1) & this.mask;
    }
  }
}

/** What {@link findDuplicatePair} did: how many items it compared by canonical form. */
export interface UniquenessWork {
  canonicalized: number;
}

const PREFIX = 48;

/** FNV-1a over a string's length and first characters. */
function hashString(text: string, seed: number): number {
  let h = (seed ^ text.length) >>> 0;
  const n = Math.min(text.length, PREFIX);
  for (let i = 0; i < n; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function primitiveHash(value: unknown): number {
  if (value === null) return 0x9e3779b9;
  switch (typeof value) {
    case 'string':
      return hashString(value, 0x811c9dc5);
    case 'number':
      // -0 and 0 are equal in JSON Schema; String() maps both to "0".
      return hashString(String(value), 0x27d4eb2f);
    case 'boolean':
      return value ? 0x165667b1 : 0xd3a2646c;
    default:
      // Nested containers count by kind and size only; deep equality is settled on collision.
      return Array.isArray(value) ? 0x85ebca6b ^ value.length : 0xc2b2ae35;
  }
}

/**
 * Member names recur in every item: their hashes are kept, for short names (the hash reads only a prefix) and up to
 * a bound, so that what a process keeps across documents stays small whatever the documents hold.
 */
const nameHashes = new Map<string, number>();
const NAME_HASHES_KEPT = 4096;

function nameHash(name: string): number {
  let hash = nameHashes.get(name);
  if (hash === undefined) {
    hash = hashString(name, 0x811c9dc5);
    if (name.length <= PREFIX && nameHashes.size < NAME_HASHES_KEPT) nameHashes.set(name, hash);
  }
  return hash;
}

/** FNV-1a over all of a string (a bom-ref's distinguishing part is often past the prefix: a purl's version). */
function hashWholeString(text: string): number {
  let h = (0x2f8a4d37 ^ text.length) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const BOM_REF = 'bom-ref';

function fingerprintOf(value: unknown): number {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return primitiveHash(value);
  const record = value as Record<string, unknown>;
  // Equal objects have equal bom-refs, and items that carry one (components, services…) nearly always carry
  // distinct ones: that one member tells them apart, so the others need not be read at all.
  const ref = record[BOM_REF];
  if (typeof ref === 'string' && Object.hasOwn(record, BOM_REF)) return hashWholeString(ref);
  let sum = 0x7f4a7c15;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    // Addition is commutative: member order cannot change the result.
    sum = (sum + Math.imul(nameHash(key) ^ primitiveHash(record[key]), 0x2c1b3c6d)) | 0;
  }
  return sum >>> 0;
}

/** Sorted-member JSON: equal for JSON-equal values whatever their member order. */
export function canonicalKey(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return '[' + value.map(canonicalKey).join(',') + ']';
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalKey(record[k])).join(',') + '}';
}

const enumSets = new WeakMap<readonly unknown[], Set<unknown>>();

/**
 * JSON Schema `enum` over primitives, as a hash lookup: ajv compares a value with each of a large enum's entries
 * in turn (the SPDX license list has over 600). Set membership is the same equality for primitives (===, with
 * NaN equal to itself, as ajv's deep equality has it). Each list gets its Set once, on first use.
 */
export function isEnumMember(list: readonly unknown[], value: unknown): boolean {
  let set = enumSets.get(list);
  if (set === undefined) enumSets.set(list, (set = new Set(list)));
  return set.has(value);
}
