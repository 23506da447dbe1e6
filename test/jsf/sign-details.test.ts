import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseKeyMaterial } from '../../src/jsf/keys.js';
import { applySignature, resolveAlgorithm, signObject } from '../../src/jsf/sign.js';
import { verifySignatureOf } from '../../src/jsf/verify.js';

const verifyObject = (holder: Record<string, unknown>, options: Parameters<typeof verifySignatureOf>[2] = {}) => ({
  reports: verifySignatureOf(holder, '', options),
});
import { expectErrorCode } from '../helpers.js';
import { freshKey, HAVE_VECTORS, KEYS } from './fixtures.js';

/** Small holders, typed as the open objects signing works on. */
const one = (): Record<string, unknown> => ({ a: 1 });
const two = (): Record<string, unknown> => ({ a: 1, b: 2 });

const ec = freshKey('ES256', 'ec.pem');
const hmac = freshKey('HS256', 'secret.jwk');

describe('resolveAlgorithm', () => {
  it('names the algorithm it does not know, the file without a private key, and the mismatch', () => {
    expect(expectErrorCode(() => resolveAlgorithm(ec, 'ES999'), 'E_USAGE').message).toBe('Unknown algorithm "ES999"');
    const publicOnly = { ...ec, privateKey: undefined, source: 'public.pem' };
    expect(expectErrorCode(() => resolveAlgorithm(publicOnly), 'E_KEY').message).toBe(
      'public.pem holds no private key or secret to sign with',
    );
    expect(expectErrorCode(() => resolveAlgorithm(ec, 'RS256'), 'E_KEY').message).toMatch(
      /^Cannot sign with ec\.pem: /,
    );
  });
});

describe('applySignature', () => {
  it('embeds the public key by default, not with a certificate path or an HMAC secret, and always when asked', () => {
    expect(signObject(one(), { key: ec }).signature).toMatchObject({ algorithm: 'ES256', publicKey: { kty: 'EC' } });
    expect(signObject(one(), { key: ec, publicKey: false }).signature).not.toHaveProperty('publicKey');
    const secret = signObject(one(), { key: hmac, keyId: 'k1' }).signature as Record<string, unknown>;
    expect(Object.keys(secret)).toEqual(['algorithm', 'keyId', 'value']);
    expect(expectErrorCode(() => signObject(one(), { key: hmac, publicKey: true }), 'E_USAGE').message).toBe(
      'An HMAC secret cannot be embedded as publicKey; use a keyId',
    );
    expect(signObject(one(), { key: ec }).signature).not.toHaveProperty('keyId');
  });

  it('writes excludes only when some are given, and only for single signatures', () => {
    expect(signObject(two(), { key: ec, excludes: [] }).signature).not.toHaveProperty('excludes');
    const excluded = signObject(two(), { key: ec, excludes: ['b'] });
    expect((excluded.signature as Record<string, unknown>).excludes).toEqual(['b']);
    expect(verifyObject(excluded, { allowExcludes: ['b'] }).reports[0]!.verdict).toBe('valid');
    expect(expectErrorCode(() => signObject(one(), { key: ec, excludes: ['b'] }), 'E_USAGE').message).toBe(
      'Cannot exclude "b": the object has no such member',
    );
    expect(expectErrorCode(() => signObject(two(), { key: ec, mode: 'add', excludes: ['b'] }), 'E_USAGE').message).toBe(
      'excludes is supported for single signatures only',
    );
    expect(signObject(one(), { key: ec, mode: 'add', excludes: [] }).signature).toHaveProperty('signers');
  });

  it('extends signers and chains, keeping their global excludes, and refuses to change a signature’s shape', () => {
    const first = signObject({ a: 1, note: 'x' } as Record<string, unknown>, { key: ec, mode: 'add' }) as Record<
      string,
      Record<string, unknown>
    >;
    first.signature!.excludes = ['note'];
    const second = freshKey('ES384');
    const both = signObject(first, { key: second, mode: 'add' }) as Record<string, Record<string, unknown[]>>;
    expect(both.signature!.signers).toHaveLength(2);
    expect(both.signature!.excludes).toEqual(['note']);
    const changed = { ...both, note: 'changed' };
    expect(verifyObject(changed, { allowExcludes: ['note'] }).reports[1]!.verdict).toBe('valid');

    const messages: [Record<string, unknown>, 'add' | 'chain', string][] = [
      [signObject(one(), { key: ec }), 'add', 'The object already has a single signature; --add extends signers only'],
      [
        signObject(one(), { key: ec }),
        'chain',
        'The object already has a single signature; --chain extends a chain only',
      ],
      [
        signObject(one(), { key: ec, mode: 'add' }),
        'chain',
        'The object already has a multi-signature (signers); --chain extends a chain only',
      ],
      [
        signObject(one(), { key: ec, mode: 'chain' }),
        'add',
        'The object already has a signature chain; --add extends signers only',
      ],
      [
        { a: 1, signature: 'not an object' },
        'add',
        'The object already has a single signature; --add extends signers only',
      ],
    ];
    for (const [holder, mode, message] of messages)
      expect(expectErrorCode(() => applySignature(structuredClone(holder), { key: ec, mode }), 'E_USAGE').message).toBe(
        `${message} (a signature cannot change shape without being remade by its signer)`,
      );
  });

  it('signs into another property when asked, and chains cover earlier signers', () => {
    const signed = signObject(one(), { key: ec, property: 'seal' });
    expect(signed).toHaveProperty('seal');
    expect(signed).not.toHaveProperty('signature');
    const chained = signObject(signObject(one(), { key: ec, mode: 'chain' }), {
      key: freshKey('Ed25519'),
      mode: 'chain',
    });
    expect(verifyObject(chained).reports.map((r) => r.verdict)).toEqual(['valid', 'valid']);
  });
});

describe.runIf(HAVE_VECTORS)('signing with a certificate path', () => {
  const read = (file: string) => readFileSync(path.join(KEYS, file), 'utf8');
  const certificates = (file: string) =>
    (read(file).match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map(
      (pem) => new X509Certificate(pem),
    );

  it('needs the first certificate to be the signing key’s, and embeds no public key', () => {
    const key = { ...parseKeyMaterial(read('p256privatekey.pem'), 'p256.pem')[0]!, certificates: undefined };
    const path = certificates('p256certpath.pem');
    const signed = signObject(one(), { key, certificatePath: path });
    expect(signed.signature).toHaveProperty('certificatePath');
    expect(signed.signature).not.toHaveProperty('publicKey');
    const message = 'The first certificate of the certificate path is not for the signing key';
    expect(expectErrorCode(() => signObject(one(), { key, certificatePath: [] }), 'E_KEY').message).toBe(message);
    expect(expectErrorCode(() => signObject(one(), { key: ec, certificatePath: path }), 'E_KEY').message).toBe(message);
  });
});
