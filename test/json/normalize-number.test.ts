import { describe, expect, it } from 'vitest';
import { normalizeNumber } from '../../src/json/numbers.js';

// normalizeNumber is the oracle by which numbersThatWouldChange (and its test's reference) decide whether a literal
// survives JSON.parse and JSON.stringify: equal for numerically equal literals, different otherwise.
describe('normalizeNumber', () => {
  it.each([
    ['1', '1e1'],
    ['100', '1e3'],
    ['1.50', '15e1'],
    ['0.0010', '1e-2'],
    ['1E+03', '1e4'],
    ['123e-2', '123e1'],
    ['-1.250E-02', '-125e-1'],
    ['0.000', '0'],
  ])('%s is 0.digits × 10^point: %s', (literal, normalized) => {
    expect(normalizeNumber(literal)).toBe(normalized);
  });

  it.each([
    ['1', '1.0', '1.000e0', '10e-1', '0.1e1', '0.01E+2'],
    ['1234.5', '1.2345e3', '12345e-1', '0.0012345e+6'],
    ['0', '-0', '0.0', '-0.0e7', '0e-5'],
    ['-2.5', '-25e-1', '-0.25E1'],
  ])('numerically equal literals are equal: %s', (...literals) => {
    expect(new Set(literals.map(normalizeNumber)).size).toBe(1);
  });

  it.each([
    ['1', '10'],
    ['1', '-1'],
    ['0.1', '0.01'],
    ['1e3', '1e-3'],
    ['9007199254740993', '9007199254740992'],
    ['0.10000000000000001', '0.1'],
  ])('different values stay different: %s, %s', (a, b) => {
    expect(normalizeNumber(a)).not.toBe(normalizeNumber(b));
  });

  it.each(['', 'abc', '1.', '.5', '+1', '1e', '--1', '1.2.3'])(
    'what is not a number literal comes back as it is: %j',
    (text) => {
      expect(normalizeNumber(text)).toBe(text);
    },
  );
});
