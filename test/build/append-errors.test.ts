/**
 * The build's rewrite of ajv's error gathering (validator-source.ts appendInPlace): in place instead of a copy of
 * every earlier error per failing call, and a build failure on any other shape.
 */
import { describe, expect, it } from 'vitest';
import { appendInPlace } from '../../src/build/validator-source.js';
import { appendErrors } from '../../src/validate/schema-runtime.js';

describe('appendInPlace', () => {
  it('turns each concat of a nested validator’s errors into an append in place', () => {
    const code =
      'if(!(validate14(x))){vErrors = vErrors === null ? validate14.errors : vErrors.concat(validate14.errors);errors = vErrors.length;}' +
      'if(!(wrapper0.validate(y))){vErrors = vErrors === null ? wrapper0.validate.errors : vErrors.concat(wrapper0.validate.errors);}';
    expect(appendInPlace(code)).toBe(
      'if(!(validate14(x))){vErrors = runtime.appendErrors(vErrors, validate14.errors);errors = vErrors.length;}' +
        'if(!(wrapper0.validate(y))){vErrors = runtime.appendErrors(vErrors, wrapper0.validate.errors);}',
    );
  });

  it('fails on a concat of a shape it does not know', () => {
    expect(() => appendInPlace('vErrors = vErrors.concat(other.errors);')).toThrow(/append in place/);
  });

  it('appends to the same array, or takes the nested errors when there were none', () => {
    const gathered = [1];
    expect(appendErrors(gathered, [2, 3])).toBe(gathered);
    expect(gathered).toEqual([1, 2, 3]);
    const more = [4];
    expect(appendErrors(null, more)).toBe(more);
  });
});
