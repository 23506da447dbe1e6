import { describe, expect, it } from 'vitest';
import { JSF_ALGORITHMS, validate, verify, type JsfAlgorithm } from '../../src/index.js';
import { signDocument as sign } from '../../src/jsf/sign-document.js';
import { algorithmInfo, defaultAlgorithm } from '../../src/jsf/algorithms.js';
import { decodeBase64url } from '../../src/jsf/base64url.js';
import { expectErrorCode } from '../helpers.js';
import { freshKey } from './fixtures.js';

// One key per kind, shared by the algorithms that use that kind of key.
const KEYS = {
  'P-256': freshKey('ES256'),
  'P-384': freshKey('ES384'),
  'P-521': freshKey('ES512'),
  RSA: freshKey('RS256'),
  Ed25519: freshKey('Ed25519'),
  Ed448: freshKey('Ed448'),
  oct: freshKey('HS512'),
};
const KEY_FOR: Record<JsfAlgorithm, keyof typeof KEYS> = {
  ES256: 'P-256',
  ES384: 'P-384',
  ES512: 'P-521',
  RS256: 'RSA',
  RS384: 'RSA',
  RS512: 'RSA',
  PS256: 'RSA',
  PS384: 'RSA',
  PS512: 'RSA',
  Ed25519: 'Ed25519',
  Ed448: 'Ed448',
  HS256: 'oct',
  HS384: 'oct',
  HS512: 'oct',
};
// Signature sizes fixed by each algorithm (ECDSA as raw R‖S, RSA by the 2048-bit modulus, HMAC by the hash).
const LENGTH: Record<JsfAlgorithm, number> = {
  ES256: 64,
  ES384: 96,
  ES512: 132,
  RS256: 256,
  RS384: 256,
  RS512: 256,
  PS256: 256,
  PS384: 256,
  PS512: 256,
  Ed25519: 64,
  Ed448: 114,
  HS256: 32,
  HS384: 48,
  HS512: 64,
};

describe.each(JSF_ALGORITHMS.map((a) => [a]))('%s', (algorithm) => {
  const key = KEYS[KEY_FOR[algorithm]];
  const trust = { keys: [key], roots: [] };
  const signed = sign({ data: 'x' }, { key, algorithm }) as { signature: { algorithm: string; value: string } };

  it('signs with a value of the algorithm’s length that verifies', () => {
    expect(signed.signature.algorithm).toBe(algorithm);
    expect(decodeBase64url(signed.signature.value)?.length).toBe(LENGTH[algorithm]);
    expect(verify(signed, { trust }).reports.map((r) => [r.algorithm, r.verdict])).toEqual([[algorithm, 'valid']]);
  });

  it('does not verify under another algorithm of the same key', () => {
    for (const other of JSF_ALGORITHMS.filter((a) => a !== algorithm && KEY_FOR[a] === KEY_FOR[algorithm])) {
      const relabelled = structuredClone(signed);
      relabelled.signature.algorithm = other;
      expect(verify(relabelled, { trust }).reports[0]!.verdict, other).not.toBe('valid');
    }
  });

  it('is refused with a key of another kind', () => {
    const wrong = KEY_FOR[algorithm] === 'oct' ? KEYS['P-256'] : KEYS.oct;
    expectErrorCode(() => sign({ data: 'x' }, { key: wrong, algorithm }), 'E_KEY');
  });
});

describe('the algorithm a key implies', () => {
  it.each<[keyof typeof KEYS, JsfAlgorithm]>([
    ['P-256', 'ES256'],
    ['P-384', 'ES384'],
    ['P-521', 'ES512'],
    ['RSA', 'RS256'],
    ['Ed25519', 'Ed25519'],
    ['Ed448', 'Ed448'],
    ['oct', 'HS256'],
  ])('%s → %s', (name, algorithm) => {
    expect(defaultAlgorithm(KEYS[name].family, KEYS[name].curve)).toBe(algorithm);
    expect((sign({ a: 1 }, { key: KEYS[name] }) as { signature: { algorithm: string } }).signature.algorithm).toBe(
      algorithm,
    );
  });

  it('knows only the JSF names, not inherited members', () => {
    expect(algorithmInfo('EdDSA')).toBeUndefined();
    expect(algorithmInfo('toString')).toBeUndefined();
    expect(algorithmInfo('es256')).toBeUndefined();
    expect(algorithmInfo('PS512')).toEqual({ name: 'PS512', family: 'RSA', hash: 'sha512', pss: true });
  });
});

describe('embedded public keys named after Object.prototype members', () => {
  // Found by fuzzing: a `kty` of "constructor" once found Object.prototype's and crashed verification.
  it.each([
    [{ kty: 'constructor' }, 'publicKey kty must be EC, OKP or RSA'],
    [{ kty: '__proto__' }, 'publicKey kty must be EC, OKP or RSA'],
    [{ kty: 'toString' }, 'publicKey kty must be EC, OKP or RSA'],
    [{ kty: 'EC', crv: 'constructor', x: 'AA', y: 'AA' }, 'publicKey.crv "constructor" is not allowed for EC'],
    [{ kty: 'OKP', crv: 'hasOwnProperty', x: 'AA' }, 'publicKey.crv "hasOwnProperty" is not allowed for OKP'],
  ])('%j is an invalid signature, not a crash', async (publicKey, reason) => {
    const document = { a: 1, signature: { algorithm: 'ES256', publicKey, value: 'AA' } };
    const [report] = verify(document).reports;
    expect(report).toMatchObject({ verdict: 'invalid' });
    expect(report!.reason).toContain(reason);
    const bom = { bomFormat: 'CycloneDX', specVersion: '1.6', version: 1, signature: document.signature };
    expect((await validate(bom)).diagnostics.map((d) => d.ruleId)).toContain('signature/invalid');
  });
});
