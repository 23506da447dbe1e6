import { describe, expect, it } from 'vitest';
import { layoutOf, serializeJson } from '../../src/json/layout.js';
import { normalizeNumber, numbersThatWouldChange } from '../../src/json/numbers.js';

// A document rewritten in place (sign, bump, edit) must keep every number it holds; these are the literals a
// double cannot carry through JSON.parse and JSON.stringify.
describe('numbers a rewrite would change', () => {
  it.each([
    ['12345678901234567890', 'beyond 2^53'],
    ['-12345678901234567890', 'negative, beyond 2^53'],
    ['9007199254740993', '2^53 + 1'],
    ['0.10000000000000001', 'more digits than a double holds'],
    ['123456789012345678e-3', 'long mantissa with an exponent'],
    ['1e400', 'overflow to Infinity (written back as null)'],
    ['-1E+400', 'negative overflow'],
    ['1e-400', 'underflow to 0'],
  ])('reports %s (%s)', (literal) => {
    expect(numbersThatWouldChange(`{"a": [1, ${literal}]}`)).toEqual([literal]);
  });

  it.each([
    ['9007199254740992', '2^53 exactly'],
    ['1.0000000000000000', 'trailing zeros'],
    ['0.30000000000000004', 'a double printed exactly'],
    ['100000000000000000000', 'trailing zeros of an integer'],
    ['1.5000000000000000000e1', 'trailing zeros and an exponent'],
    ['1.2345678901234567e+300', 'a large double printed exactly'],
    ['-0.000000000000000000', 'negative zero'],
    ['0.00000000000000000000', 'zero'],
    ['1e5', 'a short exponent'],
    ['25E-3', 'a short negative exponent'],
    ['00001', 'not a JSON number, left to the parser'],
  ])('keeps %s (%s)', (literal) => {
    expect(numbersThatWouldChange(`[${literal}]`)).toEqual([]);
  });

  it('skips strings, escaped quotes included, and reports every risky number in order', () => {
    expect(numbersThatWouldChange('{"v": "12345678901234567890", "w": "a\\"12345678901234567890"}')).toEqual([]);
    expect(numbersThatWouldChange('{"12345678901234567890": 1}')).toEqual([]);
    expect(numbersThatWouldChange('[12345678901234567890, 2, 1e999]')).toEqual(['12345678901234567890', '1e999']);
  });
});

// The regular expression the scan replaced, kept as the oracle of which literals are read: every string skipped
// whole, then a literal with an exponent or of 16 characters or more besides its sign.
const ORACLE_PATTERN = /"(?:[^"\\]|\\.)*"|(-?\d[\d.]*[eE][+-]?\d+|-?\d[\d.eE+-]{15,})/g;
function oracleNumbersThatWouldChange(text: string): string[] {
  const changed: string[] = [];
  for (const [, literal] of text.matchAll(ORACLE_PATTERN))
    if (literal !== undefined && normalizeNumber(literal) !== normalizeNumber(String(Number(literal))))
      changed.push(literal);
  return changed;
}

describe('numbers a rewrite would change: the scan against the regular expression it replaced', () => {
  let seed = 0x2f6b9a1d;
  const random = (n: number): number => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
    return (((seed >>> 0) % n) + n) % n;
  };
  const digits = (count: number, first = '123456789'): string => {
    let out = first[random(first.length)]!;
    for (let i = 1; i < count; i++) out += String(random(10));
    return out;
  };
  const numberLiteral = (): string => {
    const sign = random(3) === 0 ? '-' : '';
    const int = random(6) === 0 ? '0' : digits(1 + random(22));
    const frac = random(2) === 0 ? '' : `.${digits(1 + random(20), '0123456789')}`;
    const exp =
      random(3) === 0 ? `${'eE'[random(2)]}${['', '+', '-'][random(3)]}${digits(1 + random(4), '0123456789')}` : '';
    return sign + int + frac + exp;
  };
  const stringLiteral = (): string => {
    const parts = ['a', '1', '12345678901234567890', '1e999', '\\"', '\\\\', ':', ' ', '-5', '\\u0041', 'e'];
    let out = '';
    for (let i = random(8); i > 0; i--) out += parts[random(parts.length)];
    return `"${out}"`;
  };
  const space = (): string => [' ', '', '\n  ', '\t'][random(4)]!;
  const value = (depth: number): string => {
    const kind = depth > 3 ? random(4) : random(6);
    if (kind === 0) return numberLiteral();
    if (kind === 1) return stringLiteral();
    if (kind === 2) return ['true', 'false', 'null'][random(3)]!;
    if (kind === 3) return numberLiteral();
    if (kind === 4) {
      const items = Array.from({ length: random(5) }, () => space() + value(depth + 1) + space());
      return `[${items.join(',')}]`;
    }
    const members = Array.from(
      { length: random(5) },
      () => `${space()}${stringLiteral()}${space()}:${space()}${value(depth + 1)}`,
    );
    return `{${members.join(',')}}`;
  };

  it('reports the same literals, in the same order, on 3,000 generated documents', () => {
    let reported = 0;
    for (let i = 0; i < 3000; i++) {
      const text = value(0);
      JSON.parse(text);
      const expected = oracleNumbersThatWouldChange(text);
      reported += expected.length;
      expect(numbersThatWouldChange(text), text).toEqual(expected);
    }
    // The documents hold risky literals, so the comparison is not between two empty lists.
    expect(reported).toBeGreaterThan(500);
  });

  it('reads a literal of 16 digits, with and without a sign (no shorter one can change)', () => {
    expect(numbersThatWouldChange('[9007199254740993, -9007199254740993, 900719925474099]')).toEqual([
      '9007199254740993',
      '-9007199254740993',
    ]);
  });

  it('ends a string only at a quote after an even number of backslashes', () => {
    expect(numbersThatWouldChange('["\\\\", 12345678901234567890]')).toEqual(['12345678901234567890']);
    expect(numbersThatWouldChange('["\\\\\\" 12345678901234567890", 1]')).toEqual([]);
    expect(numbersThatWouldChange('["a\\\\\\\\", 1e999, "\\"", 1e999]')).toEqual(['1e999', '1e999']);
  });

  it('reads a number at the very end of the text, and a text with no string at all', () => {
    expect(numbersThatWouldChange('1e999')).toEqual(['1e999']);
    expect(numbersThatWouldChange('-12345678901234567890')).toEqual(['-12345678901234567890']);
    expect(numbersThatWouldChange('"12345678901234567890"')).toEqual([]);
  });
});

describe('document layout', () => {
  it.each([
    ['{\n  "a": 1\n}\n', '  ', true],
    ['{\n\t"a": 1\n}', '\t', false],
    ['{\n    "a": {\n      "b": 1\n    }\n}\n', '    ', true],
    ['{"a": 1}', '', false],
    ['{"a": 1}\n', '', true],
    ['{\n"a": 1\n}', '', false],
  ])('reads the indentation and final newline of %j', (text, indent, trailingNewline) => {
    expect(layoutOf(text)).toEqual({ indent, trailingNewline });
  });

  it('writes a value back in the layout it was read in', () => {
    const value = { a: [1, { b: true }] };
    for (const text of [
      '{\n  "a": [\n    1,\n    {\n      "b": true\n    }\n  ]\n}\n',
      '{"a":[1,{"b":true}]}',
      '{"a":[1,{"b":true}]}\n',
    ]) {
      expect(serializeJson(value, layoutOf(text))).toBe(text);
    }
    expect(serializeJson(value, { indent: '\t', trailingNewline: false })).toBe(
      '{\n\t"a": [\n\t\t1,\n\t\t{\n\t\t\t"b": true\n\t\t}\n\t]\n}\n',
    );
  });
});
