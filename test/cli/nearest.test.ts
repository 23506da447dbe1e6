import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, nearestNames } from '../../src/nearest.js';

describe('editDistance (Damerau-Levenshtein, optimal string alignment)', () => {
  it('counts insertions, deletions, substitutions and swaps of neighbours as one edit each', () => {
    expect(editDistance('valdate', 'validate')).toBe(1);
    expect(editDistance('validate', 'valdate')).toBe(1);
    expect(editDistance('vaildate', 'validate')).toBe(1);
    expect(editDistance('validatx', 'validate')).toBe(1);
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('ca', 'abc')).toBe(3);
  });
});

describe('nearestNames', () => {
  it('suggests names within a third of the length, and not beyond', () => {
    // 'verify' (6): 2 edits allowed.
    expect(nearestNames('verfy', ['verify', 'require'])).toEqual(['verify']);
    expect(nearestNames('vrfy', ['verify'])).toEqual(['verify']);
    expect(nearestNames('vfy', ['verify'])).toEqual([]);
    // Short names still allow one edit.
    expect(nearestNames('ab', ['ac'])).toEqual(['ac']);
    expect(nearestNames('ab', ['cd'])).toEqual([]);
  });

  it('takes a prefix of at least 3 characters either way, and only the nearest', () => {
    expect(nearestNames('get-chart-point-at', ['get-chart-point', 'get-chart'])).toEqual(['get-chart-point']);
    expect(nearestNames('algorithm', ['alg'])).toEqual(['alg']);
    expect(nearestNames('algorithm', ['al'])).toEqual([]);
  });

  it('compares keys: case and punctuation aside for SPDX ids', () => {
    const key = (id: string) => id.toLowerCase().replace(/[^a-z0-9]/g, '');
    expect(nearestNames('Apache2.0', ['Apache-1.0', 'Apache-2.0'], { key })).toEqual(['Apache-2.0']);
    expect(nearestNames('Apache2', ['Apache-1.0', 'Apache-2.0'], { key })).toEqual(['Apache-2.0']);
    expect(nearestNames('', ['a'])).toEqual([]);
  });

  it('lists at most three, in candidate order among equals', () => {
    expect(nearestNames('ab', ['aa', 'bb', 'cb', 'db'])).toEqual(['aa', 'bb', 'cb']);
    expect(nearestNames('ab', ['aa', 'bb'], { limit: 1 })).toEqual(['aa']);
  });
});

describe('didYouMean', () => {
  it('joins one, two or three names', () => {
    expect(didYouMean([])).toBe('');
    expect(didYouMean(['a'])).toBe(' (did you mean a?)');
    expect(didYouMean(['a', 'b'])).toBe(' (did you mean a or b?)');
    expect(didYouMean(['a', 'b', 'c'], (n) => `--${n}`)).toBe(' (did you mean --a, --b or --c?)');
  });
});
