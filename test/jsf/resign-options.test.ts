import { describe, expect, it } from 'vitest';
import { resignOptions } from '../../src/jsf/resign.js';
import { expectErrorCode } from '../helpers.js';

const value = 'A'.repeat(86);

// bump re-signs what was signed: the same shape and the same kind of key information, or a refusal with the reason.
describe('resignOptions', () => {
  it.each<[string, unknown, object]>([
    [
      'a single signature with an embedded key',
      { algorithm: 'ES384', publicKey: {}, value },
      { mode: 'single', algorithm: 'ES384', publicKey: true },
    ],
    [
      'a single signature by key id',
      { algorithm: 'ES256', keyId: 'k1', value },
      { mode: 'single', algorithm: 'ES256', publicKey: false, keyId: 'k1' },
    ],
    ['an unknown algorithm (the key decides)', { algorithm: 'XX999', value }, { mode: 'single', publicKey: false }],
    ['a numeric algorithm', { algorithm: 7, value }, { mode: 'single', publicKey: false }],
    [
      'one signer',
      { signers: [{ algorithm: 'Ed25519', publicKey: {}, value }] },
      { mode: 'add', algorithm: 'Ed25519', publicKey: true },
    ],
    [
      'a one-entry chain',
      { chain: [{ algorithm: 'RS256', keyId: 'r', value }] },
      { mode: 'chain', algorithm: 'RS256', publicKey: false, keyId: 'r' },
    ],
    [
      'exclusions, strings only',
      { algorithm: 'ES256', value, excludes: ['a', 1, 'b'] },
      { mode: 'single', algorithm: 'ES256', publicKey: false, excludes: ['a', 'b'] },
    ],
    [
      'a key id that is no string',
      { algorithm: 'ES256', keyId: 5, value },
      { mode: 'single', algorithm: 'ES256', publicKey: false },
    ],
  ])('keeps %s', (_name, signature, options) => {
    expect(resignOptions(signature, '/signature')).toEqual(options);
  });

  it('writes the requested key id where the old signature had one, and only there', () => {
    expect(resignOptions({ algorithm: 'ES256', keyId: 'old', value }, '/signature', { keyId: 'new' }).keyId).toBe(
      'new',
    );
    expect(resignOptions({ algorithm: 'ES256', value }, '/signature', { keyId: 'new' }).keyId).toBeUndefined();
  });

  it('ignores exclusions beside signers (only a single signature keeps them)', () => {
    expect(
      resignOptions({ signers: [{ algorithm: 'ES256', value }], excludes: ['a'] }, '/signature').excludes,
    ).toBeUndefined();
  });

  it('needs the certificate path again for a signature that had one', () => {
    const signature = { algorithm: 'ES256', certificatePath: ['x'], value };
    expect(expectErrorCode(() => resignOptions(signature, '/components/0/signature'), 'E_USAGE').message).toBe(
      '/components/0/signature was signed with a certificate path; give it again with --cert-chain (a key alone cannot rebuild it)',
    );
    const path = [] as never[];
    expect(resignOptions(signature, '/signature', { certificatePath: path })).toEqual({
      mode: 'single',
      algorithm: 'ES256',
      certificatePath: path,
      publicKey: false,
    });
    expect(resignOptions({ ...signature, publicKey: {} }, '/signature', { certificatePath: path }).publicKey).toBe(
      true,
    );
  });

  it.each<[unknown, string]>([
    ['text', '/signature holds no signature object to re-sign'],
    [
      { signers: [{ value }, { value }] },
      '/signature has 2 signers; bump re-signs with one key: bump with --drop-signatures, then have each signer run bomwright sign --add',
    ],
    [
      { chain: [] },
      '/signature has 0 chain entries; bump re-signs with one key: bump with --drop-signatures, then have each signer run bomwright sign --chain',
    ],
    [
      { signers: ['not an object'] },
      '/signature has a signer that is not a JSON object; bump cannot re-sign it: bump with --drop-signatures, then sign again',
    ],
  ])('refuses %j with the reason', (signature, message) => {
    expect(expectErrorCode(() => resignOptions(signature, '/signature'), 'E_USAGE').message).toBe(message);
  });
});
