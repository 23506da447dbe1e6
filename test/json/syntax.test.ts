import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/index.js';
import { firstSyntaxError } from '../../src/json/syntax.js';
import { fuzzParameters } from '../fuzz/settings.js';

describe('firstSyntaxError', () => {
  it.each([
    ['{"a":1,}', 7],
    ['{"a" 1}', 5],
    ['[1,2', 4],
    ['{"a":tru}', 5],
    ['[1,]', 3],
    ['{"a":"x\u0001"}', 7],
    ['{"a":"\\q"}', 7],
    ['{"a":"\\u12G4"}', 8],
    ['[01]', 2],
    ['{"a":1}}', 7],
    ['', 0],
    ['  ', 2],
    ['{"a":[{"b":[1 2]}]}', 14],
    [`${'['.repeat(10000)}1${']'.repeat(9999)}`, 20000],
  ])('%j fails at %i', (text, offset) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(firstSyntaxError(text)).toBe(offset);
  });

  it('never throws, and for valid JSON it points past the end', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value, null, 1);
        expect(firstSyntaxError(text)).toBe(text.length);
      }),
      fuzzParameters(300),
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        const at = firstSyntaxError(text);
        expect(at).toBeGreaterThanOrEqual(0);
        expect(at).toBeLessThanOrEqual(text.length);
      }),
      fuzzParameters(300),
    );
  });
});

describe('syntax errors in reports', () => {
  it('are one line with the position of the offending character, without document text', async () => {
    // V8 quotes the text around such an error instead of naming its position.
    const result = await validate('\n  :{"bomFormat":\n "evil\u001b[2J"}');
    expect(result.diagnostics).toEqual([
      { ruleId: 'json/syntax', severity: 'error', message: "Unexpected token ':'", pointer: '', line: 2, column: 3 },
    ]);
  });
});
