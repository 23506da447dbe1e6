/**
 * JCS (RFC 8785): the third-party vectors in ../shared/conformance/jcs (read in place, never copied) plus the
 * edge cases the RFC and the research note call out.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../src/index.js';
import { CONFORMANCE, expectErrorCode } from '../helpers.js';

const JCS_DIR = path.join(CONFORMANCE, 'jcs');
const HAVE_VECTORS = existsSync(JCS_DIR);
if (!HAVE_VECTORS)
  console.warn(`JCS conformance vectors not found at ${JCS_DIR} (../shared/conformance/jcs): skipping`);

/** The IEEE-754 double whose bit pattern is `hex` (leading zeros may be omitted, as in the es6 test file). */
function doubleFromHex(hex: string): number {
  return Buffer.from(hex.padStart(16, '0'), 'hex').readDoubleBE(0);
}

function expectInputError(run: () => unknown): void {
  expectErrorCode(run, 'E_INPUT');
}

/** Rows `hex,expected` of a number file, comment lines skipped. */
function numberRows(file: string): { line: number; hex: string; expected: string }[] {
  return readFileSync(path.join(JCS_DIR, 'numbers', file), 'utf8')
    .split('\n')
    .map((text, index) => ({ text: text.replace(/\r$/, ''), line: index + 1 }))
    .filter(({ text }) => text !== '' && !text.startsWith('#'))
    .map(({ text, line }) => {
      const comma = text.indexOf(',');
      return { line, hex: text.slice(0, comma), expected: text.slice(comma + 1) };
    });
}

describe.skipIf(!HAVE_VECTORS)('JCS conformance vectors (cyberphone/json-canonicalization testdata)', () => {
  const inputs = HAVE_VECTORS
    ? readdirSync(path.join(JCS_DIR, 'input'))
        .filter((f) => f.endsWith('.json'))
        .sort()
    : [];

  it('finds the six input/output/outhex triples', () => {
    expect(inputs).toEqual([
      'arrays.json',
      'french.json',
      'structures.json',
      'unicode.json',
      'values.json',
      'weird.json',
    ]);
  });

  for (const file of inputs) {
    const name = file.replace(/\.json$/, '');
    it(`input/${file} canonicalizes to output/${file} byte for byte (and to outhex/${name}.txt)`, () => {
      const input = readFileSync(path.join(JCS_DIR, 'input', file), 'utf8');
      const expectedBytes = readFileSync(path.join(JCS_DIR, 'output', file));
      const hexBytes = Buffer.from(
        readFileSync(path.join(JCS_DIR, 'outhex', `${name}.txt`), 'utf8')
          .trim()
          .split(/\s+/)
          .join(''),
        'hex',
      );
      const canonical = canonicalize(JSON.parse(input));
      expect(canonical).toBe(expectedBytes.toString('utf8'));
      const actualBytes = Buffer.from(canonical, 'utf8');
      expect(actualBytes.equals(expectedBytes)).toBe(true);
      expect(actualBytes.equals(hexBytes)).toBe(true);
      // Canonical output is a fixed point.
      expect(canonicalize(JSON.parse(canonical))).toBe(canonical);
    });
  }

  for (const file of ['es6testfile1k.txt', 'es6testfile10k.txt']) {
    it(`numbers/${file}: every double serializes to the expected JCS text`, () => {
      const rows = numberRows(file);
      expect(rows.length).toBe(file.includes('10k') ? 10_000 : 1_000);
      const failures: string[] = [];
      for (const { line, hex, expected } of rows) {
        const actual = canonicalize(doubleFromHex(hex));
        if (actual !== expected) failures.push(`line ${line}: ${hex} → ${actual}, expected ${expected}`);
        // Also inside a structure, where the number is not the top-level value.
        else if (line % 97 === 0 && canonicalize({ n: [doubleFromHex(hex)] }) !== `{"n":[${expected}]}`)
          failures.push(`line ${line}: ${hex} inside an object`);
      }
      expect(failures).toEqual([]);
    });
  }

  it('numbers/rfc8785-appendix-b.csv: all 26 samples (empty expected = must be rejected)', () => {
    const rows = numberRows('rfc8785-appendix-b.csv');
    expect(rows).toHaveLength(26);
    const rejected = rows.filter((r) => r.expected === '');
    expect(rejected.map((r) => r.hex)).toEqual(['7fffffffffffffff', '7ff0000000000000']);
    for (const { hex, expected } of rows) {
      const value = doubleFromHex(hex);
      if (expected === '') expectInputError(() => canonicalize(value));
      else expect(canonicalize(value), hex).toBe(expected);
    }
  });
});

describe('JCS numbers', () => {
  it.each([
    ['4340000000000001', '9007199254740994'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
  ])('%s → %s', (hex, expected) => {
    expect(canonicalize(doubleFromHex(hex))).toBe(expected);
  });

  it('respells numbers the ECMAScript way', () => {
    expect(canonicalize(JSON.parse('[1.0, 1E30, 4.50, 2e-3, 1e21, 0.000001, 1e-7, 2.200063e6, 100]'))).toBe(
      '[1,1e+30,4.5,0.002,1e+21,0.000001,1e-7,2200063,100]',
    );
  });

  it('writes -0 as 0, at the top level and nested', () => {
    expect(canonicalize(-0)).toBe('0');
    expect(canonicalize([-0])).toBe('[0]');
    expect(canonicalize({ a: -0 })).toBe('{"a":0}');
    expect(canonicalize(JSON.parse('{"a":-0.0}'))).toBe('{"a":0}');
  });

  it('rounds integers beyond 2^53 like every JSON.parse-based signer', () => {
    expect(canonicalize(JSON.parse('12345678901234567890'))).toBe('12345678901234567000');
  });

  it.each([
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['-Infinity', -Infinity],
  ])('rejects %s with E_INPUT, alone, in an array and in an object', (_name, value) => {
    expectInputError(() => canonicalize(value));
    expectInputError(() => canonicalize([1, value]));
    expectInputError(() => canonicalize({ a: { b: value } }));
  });
});

describe('JCS strings', () => {
  it('escapes only what JSON.stringify escapes, with lowercase hex', () => {
    const value = '"\\\b\t\n\f\r\u0000\u001f\u007f/\u2028\u2029é😀';
    expect(canonicalize(value)).toBe('"\\"\\\\\\b\\t\\n\\f\\r\\u0000\\u001f\u007f/\u2028\u2029é😀"');
  });

  it('ignores how the input spelled a string', () => {
    expect(canonicalize(JSON.parse('{"name":"Jo\\u0065","\\u0061":"\\/"}'))).toBe('{"a":"/","name":"Joe"}');
  });

  it('does not normalize Unicode', () => {
    expect(canonicalize('A\u030a')).toBe('"A\u030a"');
    expect(canonicalize('\u00c5')).toBe('"\u00c5"');
  });

  it.each([
    ['a lone high surrogate', '\ud800'],
    ['a lone low surrogate', '\udc00'],
    ['a high surrogate at the end', 'abc\ud83d'],
    ['a reversed pair', '\ude00\ud83d'],
    ['JSON.parse("\\"\\\\udead\\"")', JSON.parse('"\\udead"') as string],
  ])('rejects %s with E_INPUT, in a value and in a member name', (_name, text) => {
    expectInputError(() => canonicalize(text));
    expectInputError(() => canonicalize([text]));
    expectInputError(() => canonicalize({ a: { b: text } }));
    expectInputError(() => canonicalize({ [text]: 1 }));
    expectInputError(() => canonicalize([{ ok: 1, [`x${text}`]: 2 }]));
  });

  it('accepts well-formed surrogate pairs', () => {
    expect(canonicalize({ '\ud83d\ude00': '\ud83d\ude00' })).toBe('{"😀":"😀"}');
  });
});

describe('JCS structure', () => {
  it('sorts members by UTF-16 code units, not by code point or locale', () => {
    const value = { '\ufb33': 3, '\u{1f600}': 2, '\u20ac': 1 };
    // U+20AC < U+D83D (first unit of U+1F600) < U+FB33, although U+1F600 has the highest code point.
    expect(canonicalize(value)).toBe('{"\u20ac":1,"\u{1f600}":2,"\ufb33":3}');
    // Code-point (or UTF-8 byte) order would put U+1F600 last, so the vector tells the two apart.
    const byCodePoint = Object.keys(value).sort((a, b) => a.codePointAt(0)! - b.codePointAt(0)!);
    expect(byCodePoint).toEqual(['\u20ac', '\ufb33', '\u{1f600}']);
    expect(canonicalize({ b: 1, B: 2, a: 3, A: 4, _: 5, '1': 6, '': 7, aa: 8 })).toBe(
      '{"":7,"1":6,"A":4,"B":2,"_":5,"a":3,"aa":8,"b":1}',
    );
  });

  it('sorts recursively and keeps array order', () => {
    expect(canonicalize({ z: [{ b: 1, a: 2 }, 3, { d: null, c: true }], y: false })).toBe(
      '{"y":false,"z":[{"a":2,"b":1},3,{"c":true,"d":null}]}',
    );
  });

  it('writes literals and empty containers without whitespace', () => {
    expect(canonicalize(JSON.parse(' { "a" : [ ] , "b" : { } , "c" : [ null , true , false ] } '))).toBe(
      '{"a":[],"b":{},"c":[null,true,false]}',
    );
  });

  it('keeps an own "__proto__" member from JSON.parse', () => {
    expect(canonicalize(JSON.parse('{"b":1,"__proto__":{"x":1}}'))).toBe('{"__proto__":{"x":1},"b":1}');
  });

  it('rejects values JSON cannot hold with E_INPUT', () => {
    expectInputError(() => canonicalize(10n));
    expectInputError(() => canonicalize([() => 1]));
    expectInputError(() => canonicalize(Symbol('x')));
  });

  it('does not overflow the stack on 100,000 nested arrays', () => {
    const depth = 100_000;
    let value: unknown = [];
    for (let i = 0; i < depth; i++) value = [value];
    const text = canonicalize(value);
    expect(text.length).toBe(2 * (depth + 1));
    expect(text).toBe('['.repeat(depth + 1) + ']'.repeat(depth + 1));
  });

  it('does not overflow the stack on 100,000 nested objects', () => {
    const depth = 100_000;
    let value: unknown = { end: true };
    for (let i = 0; i < depth; i++) value = { b: 1, a: value };
    const text = canonicalize(value);
    expect(text).toBe('{"a":'.repeat(depth) + '{"end":true}' + ',"b":1}'.repeat(depth));
  });
});
