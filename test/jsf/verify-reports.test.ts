import { describe, expect, it } from 'vitest';
import { verify, type KeyMaterial } from '../../src/index.js';
import { signDocument as sign } from '../../src/jsf/sign-document.js';
import { freshKey } from './fixtures.js';

const a = { ...freshKey('ES256', 'a.pem'), keyId: 'ka' };
const b = { ...freshKey('ES256', 'b.pem'), keyId: 'kb' };
const ed = { ...freshKey('Ed25519', 'ed.pem'), keyId: 'ka' };
const trusting = (...keys: KeyMaterial[]) => ({ trust: { keys, roots: [] } });
const base = { pointer: '/signature', signedPointer: '', shape: 'single', algorithm: 'ES256' };

// One report per signer: verdict, where the key came from, and why it is (not) trusted.
describe('signer reports', () => {
  it('an embedded key: valid, trusted only when the store holds it', () => {
    const signed = sign({ x: 1 }, { key: a });
    expect(verify(signed, trusting(a)).reports).toEqual([
      {
        ...base,
        keySource: 'publicKey',
        verdict: 'valid',
        trust: 'trusted',
        trustReason: 'the embedded key is in the trust store',
        trustedBy: 'key',
      },
    ]);
    expect(verify(signed).reports).toEqual([
      {
        ...base,
        keySource: 'publicKey',
        verdict: 'valid',
        trust: 'untrusted',
        trustReason: 'the embedded key is not in the trust store',
      },
    ]);
  });

  it('a key id: verified with the trusted key of that id, or invalid when that key does not fit the algorithm', () => {
    const signed = sign({ x: 1 }, { key: a, publicKey: false, keyId: 'ka' });
    expect(verify(signed, trusting(b, a)).reports).toEqual([
      {
        ...base,
        keySource: 'keyId',
        keyId: 'ka',
        verdict: 'valid',
        trust: 'trusted',
        trustReason: 'verified with a.pem',
        trustedBy: 'key',
      },
    ]);
    expect(verify(signed, trusting(ed)).reports).toEqual([
      {
        ...base,
        keySource: 'keyId',
        keyId: 'ka',
        verdict: 'invalid',
        trust: 'untrusted',
        reason: 'keyId "ka" names a key that does not fit: ES256 needs an EC key, not OKP',
      },
    ]);
  });

  it('no key information: the trusted keys are tried', () => {
    const signed = sign({ x: 1 }, { key: a, publicKey: false });
    expect(verify(signed, trusting(b, a)).reports).toEqual([
      {
        ...base,
        keySource: 'implicit',
        verdict: 'valid',
        trust: 'trusted',
        trustReason: 'verified with a.pem',
        trustedBy: 'key',
      },
    ]);
    expect(verify(signed, trusting(b)).reports).toEqual([
      {
        ...base,
        keySource: 'implicit',
        verdict: 'invalid',
        trust: 'untrusted',
        reason: 'the signature does not match the signed data',
      },
    ]);
  });

  it('a changed object: invalid, with the reason', () => {
    const signed = sign({ x: 1 }, { key: a }) as Record<string, unknown>;
    signed.x = 2;
    expect(verify(signed).reports).toEqual([
      {
        ...base,
        keySource: 'publicKey',
        verdict: 'invalid',
        trust: 'untrusted',
        reason: 'the signature does not match the signed data',
      },
    ]);
  });

  it('a signer in a list: its own pointer, index and key id', () => {
    const signed = sign({ x: 1 }, { key: a, mode: 'add', keyId: 'ka' });
    expect(verify(signed).reports).toEqual([
      {
        ...base,
        pointer: '/signature/signers/0',
        shape: 'signers',
        index: 0,
        keySource: 'publicKey',
        keyId: 'ka',
        verdict: 'valid',
        trust: 'untrusted',
        trustReason: 'the embedded key is not in the trust store',
      },
    ]);
  });
});
