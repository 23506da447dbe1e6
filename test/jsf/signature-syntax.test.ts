import { describe, expect, it } from 'vitest';
import { parseSignature, type SignaturePolicy } from '../../src/jsf/signature.js';

const core = { algorithm: 'ES256', value: 'A'.repeat(86) }; // 64 bytes: ES256's raw R‖S length

function problems(signature: unknown, policy: SignaturePolicy = {}) {
  const holder = { a: 1, signature };
  const parsed = parseSignature(signature, '/signature', holder, policy);
  return { shape: parsed.shape, object: parsed.problems, signers: parsed.signers.map((s) => s.problems) };
}

// JSF's syntax (§3) and CycloneDX's jsf-0.82 profile: each broken rule is named, on the object or on its signer.
describe('JSF signature syntax', () => {
  it.each<[string, unknown, SignaturePolicy, string[], string[][]]>([
    ['a well-formed single signature', core, {}, [], [[]]],
    ['a value that is no object', 'x', {}, ['the signature must be a JSON object'], []],
    [
      'both signers and chain',
      { signers: [core], chain: [core] },
      {},
      ['a signature cannot have both "signers" and "chain"', 'unknown member beside "signers": chain'],
      [[]],
    ],
    [
      'extensions under the CycloneDX profile',
      { ...core, extensions: ['x'], x: 1 },
      { cyclonedx: true, allowExtensions: ['x'] },
      ['CycloneDX signatures cannot use JSF extensions'],
      [[]],
    ],
    [
      'an extension named like a JSF member',
      { ...core, extensions: ['value'] },
      { allowExtensions: ['value'] },
      ['extension name "value" is a reserved JSF word'],
      [[]],
    ],
    [
      'an extension the verifier does not allow',
      { ...core, extensions: ['x'], x: 1 },
      {},
      ['extension "x" is not allowed (see --allow-extensions)'],
      [[]],
    ],
    ['an allowed extension', { ...core, extensions: ['x'], x: 1 }, { allowExtensions: ['x'] }, [], [[]]],
    [
      'an empty extensions list',
      { ...core, extensions: [] },
      {},
      ['extensions must be a non-empty array of strings'],
      [[]],
    ],
    [
      'a non-string extension',
      { ...core, extensions: [1] },
      {},
      ['extensions must be a non-empty array of strings'],
      [[]],
    ],
    [
      'a repeated extension',
      { ...core, extensions: ['x', 'x'], x: 1 },
      { allowExtensions: ['x'] },
      ['extensions has duplicate names'],
      [[]],
    ],
    [
      'excludes on signers under the CycloneDX profile',
      { signers: [core], excludes: ['a'] },
      { cyclonedx: true, allowExcludes: ['a'] },
      ['CycloneDX allows "excludes" only on a single signature'],
      [[]],
    ],
    [
      'an exclusion the verifier does not allow',
      { ...core, excludes: ['a'] },
      {},
      ['excluded property "a" is not allowed (see --allow-excludes)'],
      [[]],
    ],
    ['an allowed exclusion', { ...core, excludes: ['a'] }, { allowExcludes: ['a'] }, [], [[]]],
    [
      'an exclusion of a member the object lacks',
      { ...core, excludes: ['zz'] },
      { allowExcludes: ['zz'] },
      ['excluded property "zz" is not in the signed object'],
      [[]],
    ],
    ['an unknown member', { ...core, foo: 1 }, {}, ['unknown member in the signature: foo'], [[]]],
    ['unknown members', { ...core, foo: 1, bar: 2 }, {}, ['unknown members in the signature: foo, bar'], [[]]],
    ['a member beside signers', { signers: [core], foo: 1 }, {}, ['unknown member beside "signers": foo'], [[]]],
    [
      'members beside a chain',
      { chain: [core], foo: 1, bar: 1 },
      {},
      ['unknown members beside "chain": foo, bar'],
      [[]],
    ],
    ['an empty signers list', { signers: [] }, {}, ['"signers" must be a non-empty array'], []],
    ['signers that are no list', { signers: {} }, {}, ['"signers" must be a non-empty array'], []],
    ['a signer that is no object', { signers: [1, core] }, {}, [], [['a signer must be a JSON object'], []]],
    ['a missing algorithm', { value: core.value }, {}, [], [['"algorithm" is missing or not a string']]],
    ['a keyId that is no string', { ...core, keyId: 1 }, {}, [], [['"keyId" must be a string']]],
    [
      'an empty certificate path',
      { ...core, certificatePath: [] },
      {},
      [],
      [['"certificatePath" must be a non-empty array']],
    ],
    [
      'a certificate that is not DER in base64url',
      { ...core, certificatePath: ['!!'] },
      {},
      [],
      [['"certificatePath" items must be strict base64url DER certificates']],
    ],
    ['a value of the wrong length', { ...core, value: 'AA' }, {}, [], [['"value" is 1 bytes; ES256 needs 64']]],
  ])('%s', (_name, signature, policy, object, signers) => {
    const found = problems(signature, policy);
    expect(found.object).toEqual(object);
    expect(found.signers).toEqual(signers);
  });

  it('reads the shape from the member that holds the signers', () => {
    expect(problems(core).shape).toBe('single');
    expect(problems({ signers: [core] }).shape).toBe('signers');
    expect(problems({ chain: [core] }).shape).toBe('chain');
  });
});
