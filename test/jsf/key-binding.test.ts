/**
 * A key's algorithm is bound to the key (RFC 7517 §4.4): a JWK's alg, or a PEM file's alg: line, is the one
 * algorithm it signs and makes trusted. Key type against algorithm everywhere a key is read. Which key a keyId
 * names. Through the library: loadKey, sign, verify, and trust files read by loadTrustStore.
 */
import { createSecretKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  loadKey,
  loadTrustStore,
  parseKeyMaterial,
  verify,
  type KeyMaterial,
  type TrustStore,
} from '../../src/index.js';
import { keyMismatch, selectKey } from '../../src/jsf/keys.js';
import { algorithmInfo } from '../../src/jsf/algorithms.js';
import { signObject } from '../../src/jsf/sign.js';
import { expectErrorCode, tempDirs } from '../helpers.js';

const newDir = tempDirs();
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ed25519 = generateKeyPairSync('ed25519');

const jwkOf = (key: KeyObject, extra: Record<string, unknown> = {}) => ({
  ...(key.export({ format: 'jwk' }) as Record<string, unknown>),
  ...extra,
});
const pemOf = (key: KeyObject) =>
  key.type === 'private'
    ? (key.export({ type: 'pkcs8', format: 'pem' }) as string)
    : (key.export({ type: 'spki', format: 'pem' }) as string);
/** A small holder, typed as the open objects signing works on. */
const one = (): Record<string, unknown> => ({ a: 1 });
const trustOf = (...keys: KeyMaterial[]): TrustStore => ({ keys, roots: [] });
const report = (document: unknown, trust: TrustStore) => verify(document, { trust }).reports[0]!;

describe('a key bound to its algorithm signs with it alone', () => {
  it('takes the alg of a JWK and of a PEM file, and follows from the key type without one', () => {
    expect(loadKey(jwkOf(rsa.privateKey, { alg: 'PS384' })).algorithm).toBe('PS384');
    expect(loadKey(`alg: PS384\nkid: k1\n${pemOf(rsa.privateKey)}`)).toMatchObject({
      algorithm: 'PS384',
      keyId: 'k1',
      keyIdFrom: 'kid',
    });
    // Without a binding: no algorithm of its own, and the default follows from the type.
    const unbound = loadKey(pemOf(rsa.privateKey));
    expect(unbound.algorithm).toBeUndefined();
    expect(unbound.keyId).toBeUndefined();
    expect((signObject(one(), { key: unbound }).signature as { algorithm: string }).algorithm).toBe('RS256');
    const bound = loadKey(jwkOf(rsa.privateKey, { alg: 'PS384' }), { source: 'ps.jwk' });
    expect((signObject(one(), { key: bound }).signature as { algorithm: string }).algorithm).toBe('PS384');
    expect((signObject(one(), { key: bound, algorithm: 'PS384' }).signature as { algorithm: string }).algorithm).toBe(
      'PS384',
    );
    expect(expectErrorCode(() => signObject(one(), { key: bound, algorithm: 'RS256' }), 'E_KEY').message).toBe(
      'Cannot sign with ps.jwk: it is a PS384 key (its alg), not for RS256',
    );
  });

  it('reads the alg: and kid: lines of PEM explanatory text only outside the blocks, and refuses two values', () => {
    const pem = pemOf(rsa.privateKey);
    expect(loadKey(`Some text first\nalg: RS512\n\n${pem}trailing words\n`).algorithm).toBe('RS512');
    // Not a header line: indented, or with more after the value.
    expect(loadKey(`text\n alg: RS512\n${pem}`).algorithm).toBeUndefined();
    expect(loadKey(`alg: RS512 please\n${pem}`).algorithm).toBeUndefined();
    expect(loadKey(`alg: RS512\nalg: RS512\n${pem}`).algorithm).toBe('RS512');
    expect(expectErrorCode(() => loadKey(`alg: RS512\nalg: PS512\n${pem}`, { source: 'k.pem' }), 'E_KEY').message).toBe(
      'Cannot use the key in k.pem: it names two different values of alg',
    );
  });

  it('refuses a key whose alg its type or curve cannot do, wherever the key is read', () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        jwkOf(p256.publicKey, { alg: 'ES384' }),
        'its alg ES384 does not fit the key: ES384 needs curve P-384, not P-256',
      ],
      [jwkOf(rsa.publicKey, { alg: 'ES256' }), 'its alg ES256 does not fit the key: ES256 needs an EC key, not RSA'],
      [
        jwkOf(ed25519.publicKey, { alg: 'Ed448' }),
        'its alg Ed448 does not fit the key: Ed448 needs curve Ed448, not Ed25519',
      ],
      [jwkOf(p256.publicKey, { alg: 'HS256' }), 'its alg HS256 does not fit the key: HS256 needs a secret key'],
      [
        { kty: 'oct', k: Buffer.alloc(32, 1).toString('base64url'), alg: 'ES256' },
        'its alg ES256 does not fit the key: ES256 needs an EC key, not a secret',
      ],
      [
        { kty: 'oct', k: Buffer.alloc(32, 1).toString('base64url'), alg: 'HS512' },
        'its alg HS512 does not fit the key: HS512 needs a secret of at least 64 bytes (RFC 7518 §3.2), not 32',
      ],
      [jwkOf(rsa.publicKey, { alg: 7 }), '"alg" must be a string'],
    ];
    for (const [jwk, reason] of cases) {
      expect(expectErrorCode(() => loadKey(jwk, { source: 'k.jwk' }), 'E_KEY').message).toBe(
        `Cannot use the key in k.jwk: ${reason}`,
      );
      // The same in a JWKS (a trust file), and a PEM with the same alg line.
      expect(() => parseKeyMaterial(JSON.stringify({ keys: [jwk] }), 'set.jwks')).toThrow(reason);
    }
    expect(() => parseKeyMaterial(`alg: ES384\n${pemOf(p256.publicKey)}`, 'k.pem')).toThrow(
      'Cannot use the key in k.pem: its alg ES384 does not fit the key: ES384 needs curve P-384, not P-256',
    );
    // The valid neighbours.
    expect(loadKey(jwkOf(p256.publicKey, { alg: 'ES256' })).algorithm).toBe('ES256');
    expect(loadKey(jwkOf(ed25519.publicKey, { alg: 'Ed25519' })).algorithm).toBe('Ed25519');
    // RFC 8037's EdDSA means the key's own curve.
    expect(loadKey(jwkOf(ed25519.publicKey, { alg: 'EdDSA' })).algorithm).toBe('Ed25519');
    expect(loadKey({ kty: 'oct', k: Buffer.alloc(64, 1).toString('base64url'), alg: 'HS512' }).algorithm).toBe('HS512');
  });

  it('needs an HMAC secret as long as the hash output (RFC 7518 §3.2), to sign and to verify', () => {
    const info = algorithmInfo('HS256')!;
    expect(keyMismatch(info, createSecretKey(Buffer.alloc(31)))).toBe(
      'HS256 needs a secret of at least 32 bytes (RFC 7518 §3.2), not 31',
    );
    expect(keyMismatch(info, createSecretKey(Buffer.alloc(32)))).toBeUndefined();
    expect(keyMismatch(algorithmInfo('HS384')!, createSecretKey(Buffer.alloc(47)))).toMatch(/at least 48 bytes/);
    expect(keyMismatch(algorithmInfo('HS384')!, createSecretKey(Buffer.alloc(48)))).toBeUndefined();
    const short = loadKey('ab'.repeat(31), { source: 'short.hex' });
    expect(expectErrorCode(() => signObject(one(), { key: short, keyId: 's' }), 'E_KEY').message).toBe(
      'Cannot sign with short.hex: HS256 needs a secret of at least 32 bytes (RFC 7518 §3.2), not 31',
    );
    const long = loadKey('ab'.repeat(32), { source: 'long.hex' });
    const signed = signObject(one(), { key: long, keyId: 's' });
    expect(report(signed, trustOf({ ...long, keyId: 's' }))).toMatchObject({ verdict: 'valid', trust: 'trusted' });
    // The same bytes cut to 31 are not a key for HS256, so the signature is not checked with it.
    const cut = { ...loadKey('ab'.repeat(31)), keyId: 's' };
    expect(report(signed, trustOf(cut))).toMatchObject({
      verdict: 'invalid',
      reason:
        'keyId "s" names a key that does not fit: HS256 needs a secret of at least 32 bytes (RFC 7518 §3.2), not 31',
    });
  });

  it('leaves a JWK for another purpose loaded but unusable: a JWKS with an encryption key still serves', () => {
    const jwks = JSON.stringify({
      keys: [
        jwkOf(rsa.publicKey, { kid: 'enc', alg: 'RSA-OAEP-256' }),
        jwkOf(rsa.publicKey, { kid: 'use', use: 'enc' }),
        jwkOf(rsa.publicKey, { kid: 'ops', key_ops: ['encrypt'] }),
        jwkOf(p256.publicKey, { kid: 'sig', use: 'sig', key_ops: ['verify'] }),
      ],
    });
    const keys = parseKeyMaterial(jwks, 'set.jwks');
    expect(keys.map((k) => k.unusable)).toEqual([
      'it is for "RSA-OAEP-256", which is not a JSF signature algorithm',
      'its use is "enc", not "sig"',
      'its key_ops allow neither sign nor verify',
      undefined,
    ]);
    const signer = loadKey(jwkOf(rsa.privateKey, { use: 'enc' }), { source: 'enc.jwk' });
    expect(expectErrorCode(() => signObject(one(), { key: signer }), 'E_KEY').message).toBe(
      'Cannot sign with enc.jwk: its use is "enc", not "sig"',
    );
    const rsaSigned = signObject(one(), { key: loadKey(pemOf(rsa.privateKey)) });
    expect(report(rsaSigned, trustOf(...keys))).toMatchObject({
      verdict: 'valid',
      trust: 'untrusted',
      trustReason:
        'the embedded key is in the trust store (set.jwks (JWKS entry enc)), but it is for "RSA-OAEP-256", which is not a JSF signature algorithm',
    });
    const ecSigned = signObject(one(), { key: loadKey(pemOf(p256.privateKey)) });
    expect(report(ecSigned, trustOf(...keys))).toMatchObject({ verdict: 'valid', trust: 'trusted' });
  });
});

describe('a trusted key that names its algorithm trusts no other', () => {
  const ps384 = loadKey(jwkOf(rsa.publicKey, { alg: 'PS384', kid: 'ps' }), { source: 'ps.jwk' });
  const unbound = loadKey(jwkOf(rsa.publicKey, { kid: 'ps' }), { source: 'rsa.jwk' });
  const signer = loadKey(pemOf(rsa.privateKey), { source: 'rsa.pem' });

  it('embedded key: an RS256 signature is valid but not trusted by a PS384 key; PS384 is', () => {
    const rs256 = signObject(one(), { key: signer, algorithm: 'RS256' });
    expect(report(rs256, trustOf(ps384))).toMatchObject({
      verdict: 'valid',
      trust: 'untrusted',
      trustReason: 'the embedded key is in the trust store (ps.jwk), but it is a PS384 key (its alg), not for RS256',
    });
    // The same key without alg trusts any RSA algorithm; bound, it trusts its own.
    expect(report(rs256, trustOf(unbound))).toMatchObject({ verdict: 'valid', trust: 'trusted' });
    const ps = signObject(one(), { key: signer, algorithm: 'PS384' });
    expect(report(ps, trustOf(ps384))).toMatchObject({ verdict: 'valid', trust: 'trusted', trustedBy: 'key' });
    // One entry that allows it is enough.
    expect(report(rs256, trustOf(ps384, unbound))).toMatchObject({ trust: 'trusted' });
  });

  it('keyId and implicit signatures: the bound key is not used for another algorithm', () => {
    const byId = signObject(one(), { key: signer, algorithm: 'RS256', keyId: 'ps', publicKey: false });
    expect(report(byId, trustOf(ps384))).toMatchObject({
      verdict: 'invalid',
      reason: 'keyId "ps" names a key that does not fit: it is a PS384 key (its alg), not for RS256',
    });
    expect(report(byId, trustOf(unbound))).toMatchObject({ verdict: 'valid', trust: 'trusted' });
    // Two keys share the keyId: the one that fits is used.
    expect(report(byId, trustOf(ps384, unbound))).toMatchObject({
      verdict: 'valid',
      trustReason: 'verified with rsa.jwk',
    });
    const implicit = signObject(one(), { key: signer, algorithm: 'RS256', publicKey: false });
    expect(report(implicit, trustOf(ps384))).toMatchObject({
      verdict: 'unverifiable',
      reason: 'the signature carries no key and no trusted key fits it (--trust)',
    });
    expect(report(implicit, trustOf(unbound))).toMatchObject({ verdict: 'valid', trust: 'trusted' });
  });

  it('an embedded key that does not fit the algorithm is invalid, bound or not', () => {
    const edSigned = signObject(one(), { key: loadKey(pemOf(ed25519.privateKey)) });
    const signature = edSigned.signature as Record<string, unknown>;
    const claimed = { ...edSigned, signature: { ...signature, algorithm: 'Ed448' } };
    expect(report(claimed, trustOf())).toMatchObject({ verdict: 'invalid' });
    expect(report(claimed, trustOf()).reason).toMatch(/needs|bytes/);
  });
});

describe('which key a keyId names: its kid, else its file name, never both', () => {
  function trustFolder(extra = 0): string {
    const dir = path.join(newDir(), 'keys');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'release.jwk'), JSON.stringify(jwkOf(p256.publicKey, { kid: '2024-q1' })));
    writeFileSync(path.join(dir, 'plain.pem'), pemOf(rsa.publicKey));
    for (let i = 0; i < extra; i++) writeFileSync(path.join(dir, `x${i}.pem`), pemOf(ed25519.publicKey));
    return dir;
  }
  const ecKey = () => loadKey(pemOf(p256.privateKey));
  const byId = (keyId: string) => signObject(one(), { key: ecKey(), keyId, publicKey: false });

  it('resolves a kid and a kid-less file name, and not the file name of a key with a kid', () => {
    const dir = trustFolder();
    const store = loadTrustStore([dir], []);
    expect(store.keys.map((k) => [k.keyId, k.keyIdFrom])).toEqual([
      ['plain', 'file'],
      ['2024-q1', 'kid'],
    ]);
    expect(report(byId('2024-q1'), store)).toMatchObject({ verdict: 'valid', trust: 'trusted' });
    expect(report(byId('release'), store)).toMatchObject({
      verdict: 'unverifiable',
      reason: `no key with keyId "release" in the trust store (--trust); it has "plain" (file name of ${path.join(dir, 'plain.pem')}), "2024-q1" (kid of ${path.join(dir, 'release.jwk')})`,
    });
    // plain.pem is an RSA key: named, but it does not fit ES256.
    expect(report(byId('plain'), store)).toMatchObject({
      verdict: 'invalid',
      reason: 'keyId "plain" names a key that does not fit: ES256 needs an EC key, not RSA',
    });
  });

  it('lists at most five keys, says how many more, cuts a long keyId and says when the store is empty', () => {
    const store = loadTrustStore([trustFolder(5)], []);
    expect(store.keys).toHaveLength(7);
    const reason = report(byId('nope'), store).reason!;
    expect(reason).toMatch(
      /; it has ("[^"]+" \((kid|file name) of [^)]+\), ){4}"[^"]+" \((kid|file name) of [^)]+\) and 2 more$/,
    );
    const six = loadTrustStore([trustFolder(3)], []);
    expect(six.keys).toHaveLength(5);
    expect(report(byId('nope'), six).reason).not.toContain('more');
    expect(report(byId('k'.repeat(150)), trustOf()).reason).toBe(
      `no key with keyId "${'k'.repeat(100)}…" in the trust store (--trust); it is empty`,
    );
  });

  it('signing: a key with a kid is named by it; a keyId that contradicts it is refused; a JWKS entry by kid', () => {
    const named = parseKeyMaterial(JSON.stringify(jwkOf(p256.privateKey, { kid: 'p' })), 'p.jwk');
    expect(selectKey(named, 'p', 'p.jwk').keyId).toBe('p');
    expect(selectKey(named, undefined, 'p.jwk').keyId).toBe('p');
    expect(expectErrorCode(() => selectKey(named, 'release', 'p.jwk'), 'E_KEY').message).toBe(
      'Cannot use the key in p.jwk: its kid is "p", so keyId "release" would name another key',
    );
    // A key without a kid takes the keyId it is given.
    const unnamed = parseKeyMaterial(pemOf(p256.privateKey), 'k.pem');
    expect(selectKey(unnamed, 'release', 'k.pem').keyId).toBeUndefined();
    const set = JSON.stringify({
      keys: [jwkOf(p256.privateKey, { kid: 'a' }), jwkOf(ed25519.privateKey, { kid: 'b' })],
    });
    expect(loadKey(set, { keyId: 'b' }).curve).toBe('Ed25519');
    expect(expectErrorCode(() => loadKey(set, { source: 's.jwks' }), 'E_KEY').message).toBe(
      'Cannot use the key in s.jwks: it holds 2 keys; choose one by its keyId',
    );
    expect(expectErrorCode(() => loadKey(set, { keyId: 'c', source: 's.jwks' }), 'E_KEY').message).toBe(
      'Cannot use the key in s.jwks: no key in it has keyId "c"; it has "a" (kid of s.jwks (JWKS entry a)), "b" (kid of s.jwks (JWKS entry b))',
    );
  });
});
