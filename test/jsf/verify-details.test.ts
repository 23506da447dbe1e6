import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseKeyMaterial } from '../../src/jsf/keys.js';
import { signObject } from '../../src/jsf/sign.js';
import { malformedSignatureReport, verifyDocument, verifySignatureOf } from '../../src/jsf/verify.js';
import { freshKey, HAVE_VECTORS, KEYS } from './fixtures.js';

/** Small holders, typed as the open objects signing works on. */
const one = (): Record<string, unknown> => ({ a: 1 });

const ec = freshKey('ES256', 'ec.pem');
const hmac = { ...freshKey('HS256', 'secret.jwk'), keyId: 'k1' };

describe('signer reports, member by member', () => {
  it('reports a member that is not a signature object', () => {
    expect(malformedSignatureReport('/components/3/signature')).toStrictEqual({
      pointer: '/components/3/signature',
      signedPointer: '/components/3',
      shape: 'single',
      keySource: 'implicit',
      verdict: 'invalid',
      reason: 'the signature is not a JSF signature object',
      trust: 'untrusted',
    });
  });

  it('reports a valid single signature with only the members that apply', () => {
    const signed = signObject(one(), { key: ec });
    expect(verifySignatureOf(signed, '/x')).toStrictEqual([
      {
        pointer: '/x/signature',
        signedPointer: '/x',
        shape: 'single',
        algorithm: 'ES256',
        keySource: 'publicKey',
        verdict: 'valid',
        trust: 'untrusted',
        trustReason: 'the embedded key is not in the trust store',
      },
    ]);
  });

  it('reports each signer of a multi-signature with its index, key id and key source', () => {
    const signed = signObject(signObject(one(), { key: ec, mode: 'add' }), { key: hmac, mode: 'add', keyId: 'k1' });
    expect(verifySignatureOf(signed, '', { trust: { keys: [hmac], roots: [] } })).toStrictEqual([
      {
        pointer: '/signature/signers/0',
        signedPointer: '',
        shape: 'signers',
        index: 0,
        algorithm: 'ES256',
        keySource: 'publicKey',
        verdict: 'valid',
        trust: 'untrusted',
        trustReason: 'the embedded key is not in the trust store',
      },
      {
        pointer: '/signature/signers/1',
        signedPointer: '',
        shape: 'signers',
        index: 1,
        algorithm: 'HS256',
        keySource: 'keyId',
        keyId: 'k1',
        verdict: 'valid',
        trust: 'trusted',
        trustReason: 'verified with secret.jwk',
        trustedBy: 'key',
      },
    ]);
  });

  it('reports a signature with problems, and one whose signers are all unreadable, as invalid with the reasons', () => {
    const bad = { a: 1, signature: { algorithm: 'ES256', value: 'AAAA', publicKey: { kty: 'EC' } } };
    const [report] = verifySignatureOf(bad, '');
    expect(report).toMatchObject({ verdict: 'invalid', trust: 'untrusted', keySource: 'implicit' });
    expect(report!.reason).toMatch(/publicKey/);
    const empty = { a: 1, signature: { signers: [] } };
    expect(verifySignatureOf(empty, '')).toStrictEqual([
      {
        pointer: '/signature',
        signedPointer: '',
        shape: 'signers',
        keySource: 'implicit',
        verdict: 'invalid',
        reason: expect.any(String),
        trust: 'untrusted',
      },
    ]);
    expect(verifySignatureOf(empty, '')[0]!.reason).not.toBe('');
  });

  it('verifies the last element of an array holder, and says when no trusted key fits a keyless signature', () => {
    const signed = signObject(one(), { key: ec, publicKey: false });
    const array = [1, 2, signed.signature];
    const [report] = verifySignatureOf(array as unknown[], '/list');
    expect(report).toMatchObject({
      pointer: '/list/2',
      signedPointer: '/list',
      keySource: 'implicit',
      verdict: 'unverifiable',
    });
    expect(report!.reason).toBe('the signature carries no key and no trusted key fits it (--trust)');
    const named = signObject(one(), { key: hmac, keyId: 'nope' });
    expect(verifySignatureOf(named, '')[0]).toMatchObject({
      verdict: 'unverifiable',
      reason: 'no key with keyId "nope" in the trust store (--trust); it is empty',
    });
    const wrongKind = signObject(one(), { key: hmac, keyId: 'k1' });
    expect(verifySignatureOf(wrongKind, '', { trust: { keys: [{ ...ec, keyId: 'k1' }], roots: [] } })[0]).toMatchObject(
      {
        verdict: 'invalid',
        reason: expect.stringMatching(/^keyId "k1" names a key that does not fit: /),
      },
    );
    const implicit = signObject(one(), { key: ec, publicKey: false });
    expect(verifySignatureOf(implicit, '', { trust: { keys: [hmac, ec], roots: [] } })[0]).toMatchObject({
      verdict: 'valid',
      trust: 'trusted',
      trustReason: 'verified with ec.pem',
    });
    const otherKey = freshKey('ES256', 'other.pem');
    expect(verifySignatureOf(implicit, '', { trust: { keys: [otherKey], roots: [] } })[0]).toMatchObject({
      verdict: 'invalid',
      reason: 'the signature does not match the signed data',
    });
  });

  it('refuses an embedded key of the wrong kind for the algorithm', () => {
    const signed = signObject(one(), { key: ec }) as unknown as { signature: Record<string, unknown> };
    signed.signature.publicKey = (
      (signObject(one(), { key: freshKey('ES384') }) as Record<string, unknown>).signature as Record<string, unknown>
    ).publicKey;
    expect(verifySignatureOf(signed, '')[0]).toMatchObject({
      verdict: 'invalid',
      trust: 'untrusted',
      reason: expect.stringMatching(/P-256/),
    });
  });
});

describe('verifyDocument', () => {
  it('verifies a signature array at the root, and nothing when the array does not end in a signature', () => {
    const signed = signObject(one(), { key: ec }) as Record<string, unknown>;
    const document = [1, signed.signature];
    // The array is the holder: the signature was made over another object, so it does not match.
    expect(verifyDocument(document).reports.map((r) => `${r.pointer} ${r.verdict}`)).toEqual(['/1 invalid']);
    expect(verifyDocument([1, { algorithm: 'ES256' }]).reports).toEqual([]);
    expect(verifyDocument([1, ['algorithm', 'value']]).reports).toEqual([]);
    expect(verifyDocument([]).reports).toEqual([]);
  });

  it('finds signatures of nested objects and lists their holders', () => {
    const inner = signObject({ name: 'x' }, { key: ec });
    const document = signObject({ components: [inner], metadata: { note: { signature: 'not one' } } }, { key: ec });
    const result = verifyDocument(document, { cyclonedx: true });
    expect(result.reports.map((r) => `${r.pointer} ${r.verdict}`)).toEqual([
      '/signature valid',
      '/components/0/signature valid',
      '/metadata/note/signature invalid',
    ]);
    expect(result.holders.map((h) => h.pointer)).toEqual(['', '/components/0']);
  });
});

describe.runIf(HAVE_VECTORS)('certificate paths without trust roots', () => {
  it('verifies the signature but cannot trust it, and says why', () => {
    const read = (file: string) => readFileSync(path.join(KEYS, file), 'utf8');
    const key = { ...parseKeyMaterial(read('p256privatekey.pem'), 'p256.pem')[0]!, certificates: undefined };
    const certificates = (
      read('p256certpath.pem').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
    ).map((pem) => new X509Certificate(pem));
    const signed = signObject(one(), { key, certificatePath: certificates });
    expect(verifySignatureOf(signed, '')[0]).toMatchObject({
      verdict: 'valid',
      keySource: 'certificatePath',
      trust: 'untrusted',
      trustReason: 'no trust roots are configured (--trust-root)',
    });
  });
});
