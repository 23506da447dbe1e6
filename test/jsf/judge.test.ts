import { describe, expect, it } from 'vitest';
import { judgeSignatures, misplacedSignatures, unsafeSignedNumbers } from '../../src/jsf/judge.js';
import type { SignerReport } from '../../src/jsf/verify.js';

const report = (fields: Partial<SignerReport>): SignerReport => ({
  pointer: '/signature',
  signedPointer: '',
  shape: 'single',
  keySource: 'publicKey',
  verdict: 'valid',
  trust: 'trusted',
  ...fields,
});
const judged = (fields: Partial<SignerReport>, policy = {}) =>
  judgeSignatures([report(fields)], policy).map((d) => [d.ruleId, d.severity, d.message, d.pointer]);

describe('the verdict on each signer', () => {
  it('says nothing about a valid, trusted signature', () => {
    expect(judged({ algorithm: 'ES256' })).toEqual([]);
  });

  it('names the algorithm, the key source and the key id, with the reason or a default', () => {
    expect(judged({ verdict: 'invalid', algorithm: 'ES256', keySource: 'keyId', keyId: 'k1', reason: 'bad' })).toEqual([
      ['signature/invalid', 'error', 'Invalid ES256 (keyId "k1"): bad', '/signature'],
    ]);
    expect(judged({ verdict: 'invalid' })).toEqual([
      ['signature/invalid', 'error', 'Invalid signature (publicKey): it does not verify', '/signature'],
    ]);
    expect(judged({ verdict: 'unverifiable', keySource: 'implicit' })).toEqual([
      ['signature/unverifiable', 'error', 'Cannot verify signature (implicit): no key', '/signature'],
    ]);
    expect(judged({ trust: 'untrusted', algorithm: 'Ed25519' })).toEqual([
      ['signature/untrusted', 'warning', 'Valid but untrusted Ed25519 (publicKey): key not trusted', '/signature'],
    ]);
    expect(judged({ trust: 'untrusted', trustReason: 'expired' })[0]![2]).toBe(
      'Valid but untrusted signature (publicKey): expired',
    );
  });

  it('applies the policy: unverifiable may be a warning, unless trust is required', () => {
    const unverifiable = { verdict: 'unverifiable' as const };
    expect(judged(unverifiable, { allowUnverifiable: true })[0]![1]).toBe('warning');
    expect(judged(unverifiable, { allowUnverifiable: true, requireTrusted: true })[0]![1]).toBe('error');
    expect(judged({ trust: 'untrusted' }, { requireTrusted: true })[0]![1]).toBe('error');
    expect(judged({ verdict: 'invalid' }, { allowUnverifiable: true })[0]![1]).toBe('error');
  });
});

describe('misplaced signatures', () => {
  const document = { metadata: { signature: {} }, components: [{ signature: {} }] };
  it('reports holders outside the signable places, at their signature member', () => {
    const holders = [{ pointer: '/metadata' }, { pointer: '/components/0' }];
    expect(misplacedSignatures(document, holders, ['', 'components/*'])).toEqual([
      {
        ruleId: 'signature/misplaced',
        severity: 'error',
        message: 'A signature where the format allows none',
        pointer: '/metadata/signature',
      },
    ]);
    expect(misplacedSignatures(document, [{ pointer: '' }], [])[0]!.message).toBe(
      'A signature in a format without signatures (JSF signatures start with CycloneDX 1.4)',
    );
    expect(misplacedSignatures(document, [{ pointer: '/metadata' }], [''], 'sig')[0]!.pointer).toBe('/metadata/sig');
    expect(misplacedSignatures(document, [], [])).toEqual([]);
  });
});

describe('numbers a signature cannot pin', () => {
  const at = (signed: { record: Record<string, unknown>; pointer: string }[]) =>
    unsafeSignedNumbers(signed).map((d) => d.pointer);

  it('reports every number from 2^53 up, by its pointer, and none below', () => {
    const record = { a: 2 ** 53 - 1, b: [1, -(2 ** 53)], c: { d: 2 ** 60 }, e: 'text', f: null };
    expect(at([{ record, pointer: '' }])).toEqual(['/b/1', '/c/d']);
    const [diagnostic] = unsafeSignedNumbers([{ record: { n: 2 ** 53 }, pointer: '/components/0' }]);
    expect(diagnostic).toEqual({
      ruleId: 'signature/unsafe-number',
      severity: 'error',
      message: `A number beyond 2^53 (read as ${2 ** 53}): other numbers read the same, so the signature does not pin it`,
      pointer: '/components/0/n',
    });
  });

  it('does not look inside signatures, and reports a number once even under nested signed objects', () => {
    const inner = { n: 2 ** 54, signature: { value: 2 ** 55 } };
    const root = { components: [inner], signature: { value: 2 ** 56 } };
    expect(
      at([
        { record: inner, pointer: '/components/0' },
        { record: root, pointer: '' },
      ]),
    ).toEqual(['/components/0/n']);
    const sibling = { n: 2 ** 54 };
    const tenth = { n: 2 ** 54 };
    expect(
      at([
        { record: sibling, pointer: '/components/1' },
        { record: tenth, pointer: '/components/10' },
        { record: { m: 2 ** 54 }, pointer: '/components/1/components/0' },
      ]),
    ).toEqual(['/components/1/n', '/components/10/n']);
  });
});
