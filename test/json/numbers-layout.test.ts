import { describe, expect, it } from 'vitest';
import { layoutOf, serializeJson } from '../../src/json/layout.js';
import { numbersThatWouldChange } from '../../src/json/numbers.js';

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
