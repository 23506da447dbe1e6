import { describe, expect, it } from 'vitest';
import { resignOptions } from '../../src/jsf/resign.js';
import { expectErrorCode } from '../helpers.js';

describe('resignOptions', () => {
  it('keeps the kind of key information, the algorithm and excludes', () => {
    expect(resignOptions({ algorithm: 'ES384', publicKey: {}, value: 'x' }, 'root')).toEqual({
      mode: 'single',
      algorithm: 'ES384',
      publicKey: true,
    });
    expect(resignOptions({ algorithm: 'HS256', keyId: 'k1', excludes: ['a'], value: 'x' }, 'root')).toEqual({
      mode: 'single',
      algorithm: 'HS256',
      publicKey: false,
      keyId: 'k1',
      excludes: ['a'],
    });
    expect(resignOptions({ algorithm: 'ES256', keyId: 'old', value: 'x' }, 'root', { keyId: 'new' }).keyId).toBe('new');
    expect(resignOptions({ algorithm: 'Ed25519', value: 'x' }, 'root')).toEqual({
      mode: 'single',
      algorithm: 'Ed25519',
      publicKey: false,
    });
    expect(resignOptions({ chain: [{ algorithm: 'ES256', publicKey: {}, value: 'x' }] }, 'root')).toMatchObject({
      mode: 'chain',
      publicKey: true,
    });
  });

  it('refuses what one key cannot reproduce, with the reason', () => {
    const certified = { algorithm: 'ES256', certificatePath: ['MIIB'], value: 'x' };
    expect(expectErrorCode(() => resignOptions(certified, '/components/0'), 'E_USAGE').message).toMatch(
      /^\/components\/0 was signed with a certificate path; give it again with --cert-chain/,
    );
    expect(resignOptions(certified, 'root', { certificatePath: [] }).certificatePath).toEqual([]);
    const two = {
      signers: [
        { algorithm: 'ES256', value: 'x' },
        { algorithm: 'ES256', value: 'y' },
      ],
    };
    expect(expectErrorCode(() => resignOptions(two, 'root'), 'E_USAGE').message).toMatch(/has 2 signers/);
    expectErrorCode(() => resignOptions('abc', 'root'), 'E_USAGE');
  });
});
