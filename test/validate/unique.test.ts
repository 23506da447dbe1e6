import { describe, expect, it } from 'vitest';
import { canonicalKey, findDuplicatePair, type UniquenessWork } from '../../src/validate/unique.js';

function pairAndWork(items: unknown[]): [[number, number] | null, number] {
  const work: UniquenessWork = { canonicalized: 0 };
  return [findDuplicatePair(items, work), work.canonicalized];
}

// uniqueItems in linear time: fingerprints tell items apart, and only items whose fingerprints collide are compared
// by canonical form, each at most once.
describe('findDuplicatePair', () => {
  it.each([
    [[], null],
    [[1], null],
    [
      [1, 1],
      [0, 1],
    ],
    [
      [{ a: 1 }, { a: 1 }],
      [0, 1],
    ],
    [
      ['x', 'y', 'x', 'x'],
      [0, 2],
    ],
    [
      [{ a: 1, b: 2 }, { c: 3 }, { b: 2, a: 1 }],
      [0, 2],
    ],
  ])('%j → %j', (items, pair) => {
    expect(findDuplicatePair(items)).toEqual(pair);
  });

  it.each([
    ['strings that differ', ['a', 'b', 'c', 'ab', '']],
    ['numbers that differ', [0, 1, -1, 1.5, 1e21]],
    ['booleans and null', [true, false, null]],
    ['scalars of different types', [1, '1', true, 'true', null, 'null', 0, '0', false]],
    [
      'objects that differ in a primitive member',
      [{ v: 1 }, { v: 2 }, { v: '1' }, { v: true }, { v: false }, { v: null }],
    ],
    ['objects that differ in a member name', [{ a: 1 }, { b: 1 }, { ab: 1 }]],
    ['objects with different numbers of members', [{}, { a: 1 }, { a: 1, b: 1 }]],
    ['arrays of different lengths', [[], [1], [1, 2]]],
    ['an array and an object', [[], {}]],
    ['strings that differ in length only beyond the fingerprinted prefix', ['x'.repeat(60), 'x'.repeat(61)]],
  ])('tells %s apart by fingerprint alone', (_name, items) => {
    expect(pairAndWork(items)).toEqual([null, 0]);
  });

  it('compares colliding items by canonical form, each item once', () => {
    // Nested containers count only by kind and size in the fingerprint, so these all collide.
    const items = [{ n: { id: 1 } }, { n: { id: 2 } }, { n: { id: 3 } }, { n: { id: 4 } }];
    expect(pairAndWork(items)).toEqual([null, 4]);
    expect(pairAndWork([...items, { n: { id: 2 } }])).toEqual([[1, 4], 5]);
    expect(pairAndWork([...items, { n: { id: 1 } }])).toEqual([[0, 4], 5]);
  });

  it('reports the earliest item of a duplicate pair, whichever collides first', () => {
    const items = [{ n: [1] }, { n: [2] }, { n: [2] }];
    expect(findDuplicatePair(items)).toEqual([1, 2]);
    expect(findDuplicatePair([{ n: [2] }, { n: [1] }, { n: [3] }, { n: [2] }])).toEqual([0, 3]);
  });

  it('compares long strings in full after a fingerprint collision', () => {
    const prefix = 'p'.repeat(48);
    expect(pairAndWork([`${prefix}a`, `${prefix}b`])).toEqual([null, 2]);
    expect(findDuplicatePair([`${prefix}a`, `${prefix}b`, `${prefix}a`])).toEqual([0, 2]);
  });

  it('counts -0 and 0 as equal, and ignores inherited members', () => {
    expect(findDuplicatePair([0, -0])).toEqual([0, 1]);
    expect(findDuplicatePair([{ v: 0 }, { v: -0 }])).toEqual([0, 1]);
    const inherited = Object.assign(Object.create({ extra: 1 }) as object, { a: 1 });
    expect(findDuplicatePair([inherited, { a: 1 }])).toEqual([0, 1]);
  });

  it('tells 50,000 distinct components apart by fingerprint alone, and finds a late duplicate of an early one', () => {
    const items = Array.from({ length: 50_000 }, (_, i) => ({
      type: 'library',
      name: `package-${i}`,
      version: '1.0.0',
    }));
    expect(pairAndWork(items)).toEqual([null, 0]);
    expect(findDuplicatePair([...items, { version: '1.0.0', name: 'package-3', type: 'library' }])).toEqual([
      3, 50_000,
    ]);
    expect(findDuplicatePair([...items, { ...items[49_999] }])).toEqual([49_999, 50_000]);
  });

  it('tells objects apart by their whole bom-ref, and by nothing else when they share one', () => {
    const prefix = 'pkg:maven/org.example.some.long.group/artifact-name@'.padEnd(60, 'x');
    const items = ['1.0.0', '1.0.1', '2.0.0'].map((v) => ({ 'bom-ref': `${prefix}${v}`, name: 'same' }));
    expect(pairAndWork(items)).toEqual([null, 0]);
    // The same bom-ref on objects that differ elsewhere: a collision, settled by canonical form.
    expect(
      pairAndWork([
        { 'bom-ref': 'a', name: 'x' },
        { 'bom-ref': 'a', name: 'y' },
      ]),
    ).toEqual([null, 2]);
    expect(
      findDuplicatePair([{ 'bom-ref': 'a', name: 'x' }, { 'bom-ref': 'b' }, { name: 'x', 'bom-ref': 'a' }]),
    ).toEqual([0, 2]);
  });

  it('fingerprints by bom-ref only when it is an own string member', () => {
    // Not a string: the members count, and they differ.
    expect(
      pairAndWork([
        { 'bom-ref': 1, n: 1 },
        { 'bom-ref': 1, n: 2 },
      ]),
    ).toEqual([null, 0]);
    // Inherited: not part of the value, which equals a plain object with the same own members.
    const inherited = Object.assign(Object.create({ 'bom-ref': 'a' }) as object, { name: 'x' });
    expect(findDuplicatePair([inherited, { name: 'x' }])).toEqual([0, 1]);
    expect(findDuplicatePair([{ name: 'x' }, inherited])).toEqual([0, 1]);
  });

  it('finds duplicates among items with more distinct member names than it keeps hashes for', () => {
    const items = Array.from({ length: 6_000 }, (_, i) => ({ [`member-${i}`]: i }));
    expect(findDuplicatePair(items)).toBeNull();
    expect(findDuplicatePair([...items, { 'member-5999': 5999 }, { 'member-1': 1 }])).toEqual([5999, 6000]);
    expect(findDuplicatePair([...items, { 'member-1': 1 }])).toEqual([1, 6000]);
    const long = (i: number) => ({ [`${'n'.repeat(60)}${i}`]: true });
    expect(findDuplicatePair([long(1), long(2), long(3), long(2)])).toEqual([1, 3]);
  });

  it('canonicalizes each of 20,000 adversarially colliding items exactly once', () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ type: 'library', nested: { id: i } }));
    expect(pairAndWork(items)).toEqual([null, 20_000]);
  });
});

describe('canonicalKey', () => {
  it('is the same for JSON-equal values whatever their member order, and differs otherwise', () => {
    expect(canonicalKey({ b: [1, { d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[1,{"c":2,"d":1}]}');
    expect(canonicalKey('x')).toBe('"x"');
    expect(canonicalKey(undefined)).toBe('null');
    expect(canonicalKey([])).toBe('[]');
    expect(canonicalKey({})).toBe('{}');
  });
});
