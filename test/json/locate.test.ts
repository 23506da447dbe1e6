import { describe, expect, it } from 'vitest';
import { expectLinear } from '../growth.js';
import { locatePointers, offsetsToPositions } from '../../src/json/locate.js';
import { toPointer } from '../../src/json/pointer.js';

/**
 * Every place of a JSON text the way locatePointers reports it (a member at its name, an item and the root at the
 * value; the first of duplicate names), found by a plain recursive reading: the reference the jumps must agree with.
 */
function allPlaces(text: string): Map<string, number> {
  const places = new Map<string, number>();
  let i = 0;
  const ws = () => {
    while (/\s/.test(text[i] ?? '')) i++;
  };
  const string = (): string => {
    const start = i;
    i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const note = (path: (string | number)[], offset: number) => {
    const pointer = toPointer(path);
    if (!places.has(pointer)) places.set(pointer, offset);
  };
  const value = (path: (string | number)[]): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        const nameAt = i;
        const name = string();
        note([...path, name], nameAt);
        ws();
        i++; // :
        value([...path, name]);
        ws();
        if (text[i++] === '}') return;
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let index = 0; ; index++) {
        ws();
        note([...path, index], i);
        value([...path, index]);
        ws();
        if (text[i++] === ']') return;
      }
    } else if (c === '"') string();
    else while (i < text.length && !/[\s,\]}]/.test(text[i]!)) i++;
  };
  ws();
  note([], i);
  value([]);
  return places;
}

/** A small deterministic generator (mulberry32), so every run checks the same documents. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Strings that look like structure: brackets, quotes, escapes, backslash runs before a quote, non-ASCII text.
const TRICKY = ['{', '}', '[', ']', '"', '\\', '\\"', '"]}', 'a"b[c{', 'é', '日本', '😀', '\u2028', '~', '/', ':', ','];

function document(rnd: () => number, depth: number): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const word = () =>
    Array.from({ length: Math.floor(rnd() * 4) }, () => (rnd() < 0.5 ? pick(TRICKY) : pick(['x', 'name', '0']))).join(
      '',
    );
  const r = rnd();
  if (depth <= 0 || r < 0.25) return pick([word(), 1, -2.5e3, true, false, null, 0]);
  if (r < 0.6) return Array.from({ length: Math.floor(rnd() * 5) }, () => document(rnd, depth - 1));
  const object: Record<string, unknown> = {};
  for (let k = Math.floor(rnd() * 5); k > 0; k--) object[word()] = document(rnd, depth - 1);
  return object;
}

function format(value: unknown, rnd: () => number): string {
  const style = Math.floor(rnd() * 3);
  return style === 0
    ? JSON.stringify(value)
    : style === 1
      ? JSON.stringify(value, null, 2)
      : JSON.stringify(value, null, '\t');
}

function subset(all: readonly string[], rnd: () => number, share: number): string[] {
  return all.filter(() => rnd() < share);
}

/** Both ways: as any text, and with the promise that no object repeats a name (true of JSON.stringify's output). */
function expectAgrees(text: string, requested: readonly string[]): void {
  const reference = allPlaces(text);
  const expected = new Map(
    requested
      .filter((p) => reference.has(p))
      .map((p): [string, number] => [p, reference.get(p)!])
      .sort(),
  );
  expect(new Map([...locatePointers(text, requested)].sort()), requested.join(' ')).toEqual(expected);
  expect(
    new Map([...locatePointers(text, requested, { uniqueMemberNames: true })].sort()),
    `unique names: ${requested.join(' ')}`,
  ).toEqual(expected);
}

describe('locatePointers against a plain reading of the text', () => {
  it('finds every place, and every requested subset, of documents whose strings hold brackets, quotes and escapes', () => {
    const rnd = random(30);
    for (let round = 0; round < 300; round++) {
      const text = format(document(rnd, 5), rnd);
      const all = [...allPlaces(text).keys()];
      expectAgrees(text, all);
      expectAgrees(text, subset(all, rnd, 0.1));
      expectAgrees(text, subset(all, rnd, 0.5));
      if (all.length > 1) {
        expectAgrees(text, [all[all.length - 1]!]);
        expectAgrees(text, [all[1]!, all[all.length - 1]!]);
      }
    }
  });

  it('skips items before, between and after the requested ones, on both sides of each', () => {
    const items = Array.from({ length: 12 }, (_, i) => ({ name: `c${i}`, note: '] } [ { "\\', list: [i, { i }] }));
    const text = JSON.stringify({ components: items, dependencies: [{ ref: 'x' }] }, null, 2);
    for (const indices of [[0], [11], [0, 11], [4], [3, 4, 5], [5, 7], [10, 11]]) {
      const pointers = indices.flatMap((i) => [`/components/${i}`, `/components/${i}/list/1/i`]);
      expectAgrees(text, [...pointers, '/dependencies']);
      expectAgrees(text, pointers);
      // A member of an item found, and then the item after it, which is never entered otherwise.
      expectAgrees(text, [`/components/${indices[0]}/name`, `/components/${Math.min(indices[0]! + 1, 11)}`]);
    }
  });

  it('finds the last members of the root from the end of the text, and only real members of the root', () => {
    const items = Array.from({ length: 200 }, (_, i) => ({ name: `c${i}`, refs: [`r${i}`], note: '"d": [{}] }' }));
    const tails = [
      { dependencies: [{ ref: 'a', dependsOn: ['b'] }] },
      { dependencies: [], compositions: [{ aggregate: 'complete', dependencies: ['a'] }] },
      { dependencies: 1, 'x"dependencies': 2, s: '"dependencies": 3}', t: 'dependencies' },
      { dependencies: { dependencies: { dependencies: [] } }, z: [{ dependencies: null }] },
    ];
    for (const tail of tails)
      for (const indent of [0, 2]) {
        const text = JSON.stringify({ components: items, ...tail }, null, indent);
        expectAgrees(text, ['/components/0/name', '/dependencies']);
        expectAgrees(text, ['/components/3', '/dependencies', '/compositions', '/z', '/s']);
        expectAgrees(text, ['/components/199/refs/0', '/dependencies']);
        // Something inside a root member is found by the forward scan only.
        expectAgrees(text, ['/components/0', '/dependencies', '/compositions/0/dependencies']);
      }
  });

  // A repeated name tells which way a member was found: the forward scan takes the first, the tail the second.
  const filler = (length: number) => `"${'f'.repeat(length)}"`;
  const viaTail = (text: string) => {
    const first = text.indexOf('"d"');
    const second = text.indexOf('"d"', first + 1);
    expect(locatePointers(text, ['/a/0/x', '/d']).get('/d')).toBe(first);
    const found = locatePointers(text, ['/a/0/x', '/d'], { uniqueMemberNames: true }).get('/d');
    expect([first, second]).toContain(found);
    return found === second;
  };

  it('takes the tail only where it is shorter than the stretch the forward scan would jump over', () => {
    const text = (fill: number, tail: number) => `{"a":[{"x":1},${filler(fill)}],"d":0,"d":${filler(tail)}}`;
    const balance = (fill: number, tail: number) => {
      const t = text(fill, tail);
      const at = t.lastIndexOf('"d"');
      return t.length - at - (at - t.indexOf('}'));
    };
    // The stretch grows by one with each filler character: find where it equals the tail.
    const tail = 50;
    let fill = 0;
    while (balance(fill, tail) > 0) fill++;
    expect(balance(fill, tail)).toBe(0);
    expect(viaTail(text(fill, tail))).toBe(false);
    expect(viaTail(text(fill + 1, tail))).toBe(true);
    expect(viaTail(text(fill, tail - 1))).toBe(true);
  });

  it('gives up on a name after eight occurrences that are not members of the root', () => {
    const text = (nested: number) =>
      `{"a":[{"x":1},${filler(5000)}],"d":0,"d":1,"z":[${Array.from({ length: nested }, () => '{"d":1}').join(',')}]}`;
    expect(viaTail(text(0))).toBe(true);
    expect(viaTail(text(7))).toBe(true);
    expect(viaTail(text(8))).toBe(false);
  });

  it('does not take a quote inside a string for the start of a member name', () => {
    const text = `{"a":[{"x":1},${filler(5000)}],"d":0,"x\\"d":1}`;
    expect(JSON.parse(text)).toEqual({ a: [{ x: 1 }, 'f'.repeat(5000)], d: 0, 'x"d': 1 });
    expect(locatePointers(text, ['/a/0/x', '/d'], { uniqueMemberNames: true }).get('/d')).toBe(text.indexOf('"d"'));
  });

  it('finds nothing for places that do not exist, and still finds the others', () => {
    const text = '{"a": [1, {"b": 2}, [3]], "c": {"01": 4, "1": 5}, "a": {"d": 6}}';
    const found = locatePointers(text, ['/a/01', '/a/3', '/a/-', '/a/1/x', '/c/1', '/c/01', '/a/d', '/e', '/a/2/0']);
    expect(Object.fromEntries(found)).toEqual({
      '/c/1': text.indexOf('"1"'),
      '/c/01': text.indexOf('"01"'),
      '/a/d': text.indexOf('"d"'),
      '/a/2/0': text.indexOf('3'),
    });
  });

  it('takes the first of duplicate names, and looks into a later duplicate for what the first lacks', () => {
    const text = '{"a": {"x": 1}, "a": {"y": 2}}';
    expect(Object.fromEntries(locatePointers(text, ['/a', '/a/x', '/a/y']))).toEqual({
      '/a': 1,
      '/a/x': text.indexOf('"x"'),
      '/a/y': text.indexOf('"y"'),
    });
  });

  it('counts columns in UTF-16 code units after non-ASCII text on the same line', () => {
    const text = '{"é😀": ["日本", "]"], "k": {"v": 1}}';
    const offsets = locatePointers(text, ['/k/v', '/é😀/1']);
    const positions = offsetsToPositions(text, offsets.values());
    expect(positions.get(offsets.get('/k/v')!)).toEqual({ line: 1, column: 28 });
    expect(positions.get(offsets.get('/é😀/1')!)).toEqual({ line: 1, column: 16 });
  });

  it('stops at the end of malformed text without throwing', () => {
    for (const text of [
      '{"a": [1, {"b": "unterminated',
      '{"a": [[[[',
      '{"a": ]]]] "b"',
      '["\\',
      '{"a": {"b": 1}, "c":',
    ]) {
      expect(() => locatePointers(text, ['/a/1/b', '/c', '/a/0', '/z'])).not.toThrow();
    }
  });

  it('grows linearly with the text skipped, however many containers it closes', () => {
    expectLinear((size) => {
      // Many small containers skipped one by one, and no bracket of some kinds after them: each lookup of the
      // next bracket must not rescan the rest of the text.
      const items = Array.from({ length: size }, (_, i) => ({ n: i, s: '{x}' }));
      const text = JSON.stringify({ a: items.map((item, i) => (i % 2 === 0 ? item : [item])), last: 1 });
      const pointers = Array.from({ length: size / 10 }, (_, k) => `/a/${k * 10}/n`).concat('/last');
      return () => locatePointers(text, pointers);
    }, 20_000);
  });
});
