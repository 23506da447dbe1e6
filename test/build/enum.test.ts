import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { createAjv, LARGE_ENUM } from '../../src/build/ajv.js';
import { isEnumMember } from '../../src/validate/unique.js';

/** The same schema through the build's ajv and through a plain one: verdicts and errors must agree on `values`. */
function both(schema: object): { results: (value: unknown) => [unknown, unknown]; lookup: boolean } {
  const build = createAjv().compile(schema);
  const plain = new Ajv({ allErrors: true, strict: false, messages: false }).compile(schema);
  return {
    results: (value) => [
      { valid: build(value), errors: build.errors ?? null },
      { valid: plain(value), errors: plain.errors ?? null },
    ],
    // The hash lookup is one call with the list and the value; ajv's own code compares entry by entry.
    lookup: /func\d+\(schema\d+\.enum, data\)/.test(build.source?.validateCode ?? ''),
  };
}

const values: unknown[] = ['a3', 'a15', 'a16', 'zz', 3, -0, 0, '0', null, true, false, [], {}, ['a3'], { a: 1 }];

describe('enum: large lists of primitives by hash lookup, the same verdicts and errors as ajv', () => {
  it.each([LARGE_ENUM - 1, LARGE_ENUM, 700])('%i entries', (length) => {
    const list = Array.from({ length: length - 3 }, (_, i) => `a${i}`);
    const schema = { enum: [...list, 0, null, true] };
    const { results, lookup } = both(schema);
    expect(lookup).toBe(length >= LARGE_ENUM);
    for (const value of values) {
      const [build, plain] = results(value);
      expect(build).toEqual(plain);
    }
  });

  it('keeps ajv deep equality for lists that hold objects or arrays', () => {
    const schema = { enum: [...Array.from({ length: 40 }, (_, i) => i), { a: 1 }, ['a3']] };
    const { results, lookup } = both(schema);
    expect(lookup).toBe(false);
    for (const value of values) {
      const [build, plain] = results(value);
      expect(build).toEqual(plain);
    }
  });

  it('compares like ajv: 0 and -0 are one value, strings and numbers never', () => {
    const list = [0, 1, 'x'];
    expect(isEnumMember(list, -0)).toBe(true);
    expect(isEnumMember(list, '1')).toBe(false);
    expect(isEnumMember(list, 'x')).toBe(true);
    expect(isEnumMember(list, NaN)).toBe(false);
    expect(isEnumMember([NaN], NaN)).toBe(true);
  });
});
