/**
 * Policy patterns: plain text (optionally anchored) is answered by string tests, everything else by RE2; both give
 * RE2's answer on every value.
 */
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { makeProfileLibraries } from '../../../src/validate/profiles/library-api.js';

function libraries(onRe2: () => void) {
  return makeProfileLibraries({
    spdx: () => {
      throw new Error('not used');
    },
    spdxLists: () => {
      throw new Error('not used');
    },
    PackageURL: () => {
      throw new Error('not used');
    },
    semver: () => {
      throw new Error('not used');
    },
    pep440: () => {
      throw new Error('not used');
    },
    RE2JS: () => {
      onRe2();
      return RE2JS;
    },
  });
}

const values = ['', 'urn', 'urn:', 'urn:uuid:1', 'xurn:', 'a-SNAPSHOT', '-SNAPSHOT', 'SNAPSHOT', 'a$', 'a\nb', 'é'];

describe('policy patterns', () => {
  const literal = ['^urn:', '-SNAPSHOT$', '^urn:uuid:1$', 'urn', '^', '$', '^$', 'é', 'a\nb'];
  const regular = ['^urn:.*', 'a\\$', '^(urn|xurn):', '[a-z]+', 'a$|^b', '^\\p{L}$'];

  it('answers plain text without loading RE2, as RE2 would', () => {
    let loads = 0;
    const lib = libraries(() => loads++);
    for (const pattern of literal) {
      const regex = lib.linearRegex(pattern);
      for (const value of values)
        expect(regex.test(value), `${JSON.stringify(pattern)} on ${JSON.stringify(value)}`).toBe(
          RE2JS.compile(pattern).test(value),
        );
    }
    expect(loads).toBe(0);
  });

  it('hands every pattern with a special character to RE2', () => {
    let loads = 0;
    const lib = libraries(() => loads++);
    for (const pattern of regular) {
      const regex = lib.linearRegex(pattern);
      for (const value of values)
        expect(regex.test(value), `${JSON.stringify(pattern)} on ${JSON.stringify(value)}`).toBe(
          RE2JS.compile(pattern).test(value),
        );
    }
    expect(loads).toBe(1);
    expect(() => lib.linearRegex('(?=a)')).toThrow('invalid or unsupported Perl syntax');
  });
});
