import { describe, expect, it } from 'vitest';
import { BomwrightError } from '../../src/errors.js';
import { MAX_DEPTH } from '../../src/json/scan.js';
import { checkDepth, forEachObject } from '../../src/json/walk.js';

function visited(root: unknown, skip?: (key: string) => boolean): [string, unknown][] {
  const seen: [string, unknown][] = [];
  forEachObject(root, (record, pointer) => seen.push([pointer(), record]), skip);
  return seen;
}

describe('forEachObject', () => {
  it('visits every object depth-first in document order, through arrays of arrays, with its pointer', () => {
    const inner = { c: 1 };
    const root = { a: [[inner, 2, null, 'x'], { 'd/e': {} }], b: null, f: 'g' };
    expect(visited(root).map(([pointer]) => pointer)).toEqual(['', '/a/0/0', '/a/1', '/a/1/d~1e']);
    expect(visited(root)[1]![1]).toBe(inner);
  });

  it('visits nothing for scalars, null and arrays without objects', () => {
    for (const root of [null, 1, 'text', true, undefined, [1, [2, 'x']]]) expect(visited(root)).toEqual([]);
  });

  it('does not enter members the caller skips, nor inherited members', () => {
    const root = Object.assign(Object.create({ inherited: { x: 1 } }) as object, {
      signature: { value: 'v' },
      kept: { value: 'k' },
    });
    expect(visited(root, (key) => key === 'signature').map(([pointer]) => pointer)).toEqual(['', '/kept']);
    expect(visited(root).map(([pointer]) => pointer)).toEqual(['', '/signature', '/kept']);
  });

  it(`visits objects down to depth ${MAX_DEPTH} and stops below it`, () => {
    const chain = (depth: number): Record<string, unknown> => {
      const root: Record<string, unknown> = {};
      let node = root;
      for (let i = 0; i < depth; i++) node = (node.n = {}) as Record<string, unknown>;
      return root;
    };
    expect(visited(chain(MAX_DEPTH))).toHaveLength(MAX_DEPTH + 1);
    expect(visited(chain(MAX_DEPTH + 5))).toHaveLength(MAX_DEPTH + 1);
    const arrays: unknown[] = [];
    let node = arrays;
    for (let i = 0; i < MAX_DEPTH + 5; i++) node.push((node = []));
    node.push({ deep: true });
    expect(visited(arrays)).toEqual([]);
  });
});

describe('checkDepth', () => {
  it(`accepts depth ${MAX_DEPTH} and refuses anything deeper with E_INPUT`, () => {
    expect(() => checkDepth(MAX_DEPTH)).not.toThrow();
    let thrown: unknown;
    try {
      checkDepth(MAX_DEPTH + 1);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(BomwrightError);
    expect(thrown).toMatchObject({ code: 'E_INPUT', message: `Nesting is deeper than ${MAX_DEPTH} levels` });
  });
});
