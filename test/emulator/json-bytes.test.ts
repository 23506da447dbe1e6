/** The request journal's byte count: the UTF-8 length of JSON.stringify, without building the text. */
import { describe, expect, it } from 'vitest';
import { constantJson, jsonBytes, jsonStringBytes } from '../../src/emulator/json-bytes.js';

const stringified = (value: unknown): number | undefined => {
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? undefined : Buffer.byteLength(text);
};

let deep: unknown = 'leaf';
for (let i = 0; i < 200; i++) deep = i % 2 === 0 ? [deep] : { d: deep };

const NULL_PROTOTYPE = Object.assign(Object.create(null) as object, { a: 'x', ['__proto__']: 'p' });

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

/** Every kind of value and character JSON.stringify writes differently. */
const VALUES: unknown[] = [
  '',
  'plain ascii',
  'quote " and backslash \\',
  'controls \b\f\n\r\t \u0000 \u0001 \u001f and del \u007f',
  'latin é ß, cjk 漢字, euro €',
  'emoji 😀 pair',
  'lone high \ud800 end',
  'lone low \udc00 end',
  'high at the end \ud83d',
  'low then high \udc00\ud800',
  '\u2028\u2029',
  0,
  -0,
  1.5,
  -123.456e-7,
  1e21,
  5e-324,
  Number.MAX_VALUE,
  NaN,
  Infinity,
  -Infinity,
  true,
  false,
  null,
  [],
  {},
  [1, 'two', null, true],
  [undefined, () => 1, Symbol('s')],
  [1, , 3],
  { a: undefined, b: () => 1, c: Symbol('s'), d: 1 },
  { only: undefined },
  { 'key "quoted"': 1, ключ: 'значение', '😀': '' },
  { nested: { list: [{ a: [[]] }, {}], text: 'x' } },
  new Date(0),
  { toJSON: () => 'replaced' },
  { toJSON: () => undefined },
  Object.assign(['not', 'this'], { toJSON: () => 'an array with toJSON' }),
  new Point(1, 2),
  Object.assign(new String('boxed'), { extra: 1 }),
  new Number(3),
  new Map([['a', 1]]),
  NULL_PROTOTYPE,
  Object.freeze({ frozen: ['yes'] }),
  deep,
  undefined,
  () => 1,
  Symbol('top'),
];

describe('jsonBytes', () => {
  it('is the UTF-8 length of JSON.stringify for every kind of value, undefined where that is', () => {
    for (const value of VALUES) expect([value, jsonBytes(value)]).toEqual([value, stringified(value)]);
  });

  it('counts every value inside an object and an array as JSON.stringify does', () => {
    expect(jsonBytes({ all: VALUES })).toBe(stringified({ all: VALUES }));
    expect(jsonBytes(VALUES)).toBe(stringified(VALUES));
  });

  it('counts every code unit of a string, one at a time', () => {
    for (let code = 0; code < 0x10000; code += code < 0x800 ? 1 : 61) {
      const text = `a${String.fromCharCode(code)}b`;
      expect([code, jsonStringBytes(text)]).toEqual([code, stringified(text)]);
    }
  });

  it('throws where JSON.stringify throws (a bigint)', () => {
    expect(() => jsonBytes({ n: 1n })).toThrow(TypeError);
  });

  it('counts a constant once and keeps it frozen, deeply', () => {
    const caller = constantJson({ kind: 'user', id: 'ü', roles: ['a'] });
    expect(Object.isFrozen(caller)).toBe(true);
    expect(Object.isFrozen(caller.roles)).toBe(true);
    expect(jsonBytes({ caller })).toBe(stringified({ caller }));
    expect(jsonBytes([caller, caller])).toBe(stringified([caller, caller]));
  });
});
