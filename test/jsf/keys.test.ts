/**
 * Key material for JSF: every input form parseKeyMaterial reads, the JSF public JWK subset, and rejections that
 * never leak key text. Vector keys are read in place from ../shared/conformance/jsf/keys; generated keys need none.
 */
import { createPublicKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BomwrightError } from '../../src/errors.js';
import { parseKeyMaterial, type KeyMaterial } from '../../src/index.js';
import { publicJwk, sameKey } from '../../src/jsf/keys.js';
import { CONFORMANCE, expectErrorCode } from '../helpers.js';

const JSF_DIR = path.join(CONFORMANCE, 'jsf');
const KEYS = path.join(JSF_DIR, 'keys');
const HAVE_VECTORS = existsSync(KEYS);
if (!HAVE_VECTORS) console.warn(`JSF conformance keys not found at ${KEYS} (../shared/conformance/jsf): skipping`);

const readKey = (file: string) => readFileSync(path.join(KEYS, file), 'utf8');

/** The public key of a vector key, straight from its JWK file through node:crypto (independent of the code under test). */
function jwkKey(name: string): KeyObject {
  const {
    kid: _kid,
    d: _d,
    p: _p,
    q: _q,
    dp: _dp,
    dq: _dq,
    qi: _qi,
    ...jwk
  } = JSON.parse(readKey(`${name}privatekey.jwk`)) as Record<string, string>;
  return createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
}

function only(materials: KeyMaterial[]): KeyMaterial {
  expect(materials).toHaveLength(1);
  return materials[0]!;
}

function keyError(run: () => unknown): BomwrightError {
  return expectErrorCode(run, 'E_KEY');
}

/** Every base64/base64url run of 12+ characters in `text`: none may appear in an error message. */
function secretFragments(text: string): string[] {
  return [...text.matchAll(/[A-Za-z0-9+/_-]{12,}/g)].map((m) => m[0]).filter((s) => !/^[A-Z ]+$/.test(s));
}

function expectNoLeak(error: BomwrightError, keyText: string): void {
  const shown = `${error.message}\n${String(error)}`;
  for (const fragment of secretFragments(keyText)) expect(shown).not.toContain(fragment);
}

const ASYMMETRIC = [
  { name: 'p256', family: 'EC', curve: 'P-256', kid: 'example.com:p256' },
  { name: 'p256-2', family: 'EC', curve: 'P-256', kid: 'example.com:p256-2' },
  { name: 'p384', family: 'EC', curve: 'P-384', kid: 'example.com:p384' },
  { name: 'p521', family: 'EC', curve: 'P-521', kid: 'example.com:p521' },
  { name: 'r2048', family: 'RSA', curve: undefined, kid: 'example.com:r2048' },
  { name: 'ed25519', family: 'OKP', curve: 'Ed25519', kid: 'example.com:ed25519' },
  { name: 'ed448', family: 'OKP', curve: 'Ed448', kid: 'example.com:ed448' },
] as const;

describe.skipIf(!HAVE_VECTORS)('parseKeyMaterial on the JSF vector keys', () => {
  it('knows the vector key names', () => {
    expect(ASYMMETRIC).toHaveLength(7);
  });

  for (const { name, family, curve, kid } of ASYMMETRIC) {
    it(`${name}: PKCS#8 private key PEM`, () => {
      const key = only(parseKeyMaterial(readKey(`${name}privatekey.pem`), `${name}privatekey.pem`));
      expect(key.family).toBe(family);
      expect(key.curve).toBe(curve);
      expect(key.privateKey?.type).toBe('private');
      expect(key.publicKey?.type).toBe('public');
      expect(key.certificates).toBeUndefined();
      expect(key.source).toBe(`${name}privatekey.pem`);
      expect(sameKey(key.publicKey!, jwkKey(name))).toBe(true);
    });

    it(`${name}: SPKI public key PEM (no private key)`, () => {
      const key = only(parseKeyMaterial(readKey(`${name}publickey.pem`), `${name}publickey.pem`));
      expect(key.family).toBe(family);
      expect(key.curve).toBe(curve);
      expect(key.privateKey).toBeUndefined();
      expect(sameKey(key.publicKey!, jwkKey(name))).toBe(true);
    });

    it(`${name}: certificate-key PEM (key plus certificate path, leaf first)`, () => {
      const key = only(parseKeyMaterial(readKey(`${name}certificate-key.pem`), `${name}certificate-key.pem`));
      expect(key.family).toBe(family);
      expect(key.privateKey?.type).toBe('private');
      const certificates = key.certificates!;
      expect(certificates).toHaveLength(2);
      expect(sameKey(certificates[0]!.publicKey, key.publicKey!)).toBe(true);
      expect(sameKey(key.publicKey!, jwkKey(name))).toBe(true);
      expect(certificates[0]!.checkIssued(certificates[1]!)).toBe(true);
      expect(certificates[1]!.subject).toContain('Test Sub CA');
      expect(certificates[1]!.ca).toBe(true);
    });

    it(`${name}: certificate path PEM alone gives the leaf's public key`, () => {
      const key = only(parseKeyMaterial(readKey(`${name}certpath.pem`), `${name}certpath.pem`));
      expect(key.privateKey).toBeUndefined();
      expect(key.certificates).toHaveLength(2);
      expect(sameKey(key.publicKey!, jwkKey(name))).toBe(true);
    });

    it(`${name}: private JWK (kid becomes keyId) and its public half`, () => {
      const text = readKey(`${name}privatekey.jwk`);
      const privateJwk = only(parseKeyMaterial(text, `${name}privatekey.jwk`));
      expect(privateJwk.family).toBe(family);
      expect(privateJwk.curve).toBe(curve);
      expect(privateJwk.keyId).toBe(kid);
      expect(privateJwk.privateKey?.type).toBe('private');

      const {
        d: _d,
        p: _p,
        q: _q,
        dp: _dp,
        dq: _dq,
        qi: _qi,
        ...publicOnly
      } = JSON.parse(text) as Record<string, string>;
      const publicJwkKey = only(parseKeyMaterial(JSON.stringify(publicOnly), 'public.jwk'));
      expect(publicJwkKey.privateKey).toBeUndefined();
      expect(publicJwkKey.keyId).toBe(kid);
      expect(sameKey(publicJwkKey.publicKey!, privateJwk.publicKey!)).toBe(true);
    });
  }

  it('reads a JWKS built from several JWKs, keeping each kid', () => {
    const p256 = JSON.parse(readKey('p256privatekey.jwk')) as Record<string, string>;
    const { d: _d, ...p384Public } = JSON.parse(readKey('p384privatekey.jwk')) as Record<string, string>;
    const ed25519 = JSON.parse(readKey('ed25519privatekey.jwk')) as Record<string, string>;
    const {
      d: _rd,
      p: _p,
      q: _q,
      dp: _dp,
      dq: _dq,
      qi: _qi,
      ...rsaPublic
    } = JSON.parse(readKey('r2048privatekey.jwk')) as Record<string, string>;
    const jwks = JSON.stringify({ keys: [p256, p384Public, ed25519, rsaPublic] });
    const keys = parseKeyMaterial(jwks, 'test.jwks');
    expect(keys.map((k) => k.keyId)).toEqual([
      'example.com:p256',
      'example.com:p384',
      'example.com:ed25519',
      'example.com:r2048',
    ]);
    expect(keys.map((k) => [k.family, k.curve])).toEqual([
      ['EC', 'P-256'],
      ['EC', 'P-384'],
      ['OKP', 'Ed25519'],
      ['RSA', undefined],
    ]);
    expect(keys.map((k) => k.privateKey !== undefined)).toEqual([true, false, true, false]);
    expect(keys[0]!.source).toContain('test.jwks');
    expect(keys[0]!.source).toContain('example.com:p256');
  });

  it.each(['a128', 'a256', 'a384', 'a512'])('reads the hex HMAC secret %sbitkey.hex', (name) => {
    const text = readKey(`${name}bitkey.hex`);
    const key = only(parseKeyMaterial(text, `${name}bitkey.hex`));
    expect(key.family).toBe('oct');
    expect(key.secret?.type).toBe('secret');
    expect(key.secret?.symmetricKeySize).toBe(Number(name.slice(1)) / 8);
    expect(key.secret?.export().toString('hex')).toBe(text.trim().toLowerCase());
    expect(key.publicKey).toBeUndefined();
    expect(key.privateKey).toBeUndefined();
  });

  it('publicJwk gives full-length P-521 coordinates and only the JSF members', () => {
    const key = only(parseKeyMaterial(readKey('p521privatekey.jwk'), 'p521privatekey.jwk'));
    const jwk = publicJwk(key.publicKey!) as Record<string, string>;
    expect(Object.keys(jwk).sort()).toEqual(['crv', 'kty', 'x', 'y']);
    expect(Buffer.from(jwk.x!, 'base64url')).toHaveLength(66);
    expect(Buffer.from(jwk.y!, 'base64url')).toHaveLength(66);
    // The vector key's y starts with a zero byte: a stripped encoding would be 65 bytes.
    expect(Buffer.from(jwk.y!, 'base64url')[0]).toBe(0);
    const file = JSON.parse(readKey('p521privatekey.jwk')) as Record<string, string>;
    expect(jwk).toEqual({ kty: 'EC', crv: 'P-521', x: file.x, y: file.y });
    // From the private key object too.
    expect(publicJwk(key.privateKey!)).toEqual(jwk);
  });

  it('publicJwk gives only the JSF members for RSA and OKP keys', () => {
    for (const name of ['r2048', 'ed25519', 'ed448']) {
      const file = JSON.parse(readKey(`${name}privatekey.jwk`)) as Record<string, string>;
      const key = only(parseKeyMaterial(JSON.stringify(file), name));
      const jwk = publicJwk(key.publicKey!);
      if (file.kty === 'RSA') expect(jwk).toEqual({ kty: 'RSA', n: file.n, e: file.e });
      else expect(jwk).toEqual({ kty: 'OKP', crv: file.crv, x: file.x });
    }
  });

  it.each([
    'x25519privatekey.jwk',
    'x25519privatekey.pem',
    'x25519publickey.pem',
    'x25519certificate-key.pem',
    'x448privatekey.jwk',
    'x448privatekey.pem',
    'x448publickey.pem',
  ])('rejects the ECDH key %s with E_KEY', (file) => {
    const text = readKey(file);
    const error = keyError(() => parseKeyMaterial(text, file));
    expect(error.message).toContain(file);
    expectNoLeak(error, text);
  });

  it('rejects a corrupted private key PEM without showing its text', () => {
    const text = readKey('p256privatekey.pem');
    const lines = text.split('\n');
    lines[2] = lines[2]!.split('').reverse().join('');
    const corrupted = lines.join('\n');
    const error = keyError(() => parseKeyMaterial(corrupted, 'broken.pem'));
    expect(error.message).toContain('broken.pem');
    expectNoLeak(error, corrupted);
  });

  it('rejects a JWK with a bad private part without showing it', () => {
    const jwk = JSON.parse(readKey('p256privatekey.jwk')) as Record<string, string>;
    const broken = JSON.stringify({ ...jwk, d: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', x: jwk.y });
    const error = keyError(() => parseKeyMaterial(broken, 'broken.jwk'));
    expectNoLeak(error, broken);
  });
});

describe('parseKeyMaterial on generated keys', () => {
  it('reads a SEC1 EC private key PEM (BEGIN EC PRIVATE KEY)', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const pem = privateKey.export({ type: 'sec1', format: 'pem' }) as string;
    expect(pem).toContain('-----BEGIN EC PRIVATE KEY-----');
    const key = only(parseKeyMaterial(pem, 'sec1.pem'));
    expect(key.family).toBe('EC');
    expect(key.curve).toBe('P-384');
    expect(key.privateKey?.type).toBe('private');
    expect(sameKey(key.publicKey!, publicKey)).toBe(true);
  });

  it('reads a PKCS#1 RSA private key PEM (BEGIN RSA PRIVATE KEY) and a PKCS#1 public key', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;
    expect(pem).toContain('-----BEGIN RSA PRIVATE KEY-----');
    const key = only(parseKeyMaterial(pem, 'pkcs1.pem'));
    expect(key.family).toBe('RSA');
    expect(key.privateKey?.type).toBe('private');
    expect(sameKey(key.publicKey!, publicKey)).toBe(true);

    const publicPem = publicKey.export({ type: 'pkcs1', format: 'pem' }) as string;
    expect(publicPem).toContain('-----BEGIN RSA PUBLIC KEY-----');
    const pub = only(parseKeyMaterial(publicPem, 'pkcs1-public.pem'));
    expect(pub.privateKey).toBeUndefined();
    expect(sameKey(pub.publicKey!, publicKey)).toBe(true);
  });

  it('reads an encrypted PKCS#8 key only with its passphrase', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({
      type: 'pkcs8',
      format: 'pem',
      cipher: 'aes-256-cbc',
      passphrase: 'correct horse',
    }) as string;
    expect(pem).toContain('ENCRYPTED PRIVATE KEY');
    const withoutPassphrase = keyError(() => parseKeyMaterial(pem, 'enc.pem'));
    expect(withoutPassphrase.message).toMatch(/passphrase/);
    expectNoLeak(withoutPassphrase, pem);
    const wrong = keyError(() => parseKeyMaterial(pem, 'enc.pem', { passphrase: 'wrong' }));
    expect(wrong.message).not.toContain('wrong');
    const key = only(parseKeyMaterial(pem, 'enc.pem', { passphrase: 'correct horse' }));
    expect(key.curve).toBe('Ed25519');
    expect(sameKey(key.publicKey!, publicKey)).toBe(true);
  });

  it('publicJwk always gives 66-byte P-521 coordinates', () => {
    // About half of all P-521 coordinates start with a zero byte, so sixteen keys all but surely hit the padding.
    for (let i = 0; i < 16; i++) {
      const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-521' });
      const jwk = publicJwk(publicKey) as Record<string, string>;
      expect(Object.keys(jwk).sort()).toEqual(['crv', 'kty', 'x', 'y']);
      expect(Buffer.from(jwk.x!, 'base64url')).toHaveLength(66);
      expect(Buffer.from(jwk.y!, 'base64url')).toHaveLength(66);
    }
  });

  it('publicJwk never includes private members', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicJwk(privateKey) as Record<string, string>;
    expect(Object.keys(jwk).sort()).toEqual(['crv', 'kty', 'x', 'y']);
    expect(Buffer.from(jwk.x!, 'base64url')).toHaveLength(32);
  });

  it('rejects a generated X25519 key in every form with E_KEY', () => {
    const { privateKey, publicKey } = generateKeyPairSync('x25519');
    const forms = [
      privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      publicKey.export({ type: 'spki', format: 'pem' }) as string,
      JSON.stringify(privateKey.export({ format: 'jwk' })),
      JSON.stringify(publicKey.export({ format: 'jwk' })),
    ];
    for (const text of forms) {
      const error = keyError(() => parseKeyMaterial(text, 'x25519.key'));
      expect(error.message).toMatch(/x25519|unsupported/i);
      expectNoLeak(error, text);
    }
  });

  it('rejects unsupported EC curves with E_KEY', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    keyError(() => parseKeyMaterial(pem, 'k1.pem'));
  });

  const SECRET_LOOKING = 'c2VjcmV0LWtleS1tYXRlcmlhbC10aGF0LW11c3Qtbm90LWxlYWs';
  it.each([
    ['plain garbage', `this is not a key ${SECRET_LOOKING}`],
    ['an empty string', ''],
    ['a short hex string (under 128 bits)', '00112233445566778899aabbccddee'],
    ['odd-length hex', `${'ab'.repeat(20)}c`],
    ['broken JSON', `{"kty":"EC","d":"${SECRET_LOOKING}"`],
    ['a JWK that is not an object', `{"keys":[1, "${SECRET_LOOKING}"]}`],
    ['a JWK without kty', `{"d":"${SECRET_LOOKING}"}`],
    ['an EC JWK with a bad point', `{"kty":"EC","crv":"P-256","x":"${SECRET_LOOKING}","y":"${SECRET_LOOKING}"}`],
    ['an oct JWK without k', '{"kty":"oct"}'],
    ['a PEM block with a garbage body', `-----BEGIN PRIVATE KEY-----\n${SECRET_LOOKING}\n-----END PRIVATE KEY-----`],
    [
      'a PEM certificate with a garbage body',
      `-----BEGIN CERTIFICATE-----\n${SECRET_LOOKING}\n-----END CERTIFICATE-----`,
    ],
    ['a PEM with no key or certificate', `-----BEGIN SOMETHING-----\n${SECRET_LOOKING}\n-----END SOMETHING-----`],
  ])('rejects %s with E_KEY and does not echo it', (_name, text) => {
    const error = keyError(() => parseKeyMaterial(text, 'input.key'));
    expect(error.message).toContain('input.key');
    expect(error.message).not.toContain(SECRET_LOOKING);
    expectNoLeak(error, text);
  });
});

describe('sameKey', () => {
  it('compares public keys by value and secrets by bytes', () => {
    const a = generateKeyPairSync('ed25519');
    const b = generateKeyPairSync('ed25519');
    expect(sameKey(a.publicKey, a.privateKey as KeyObject)).toBe(true);
    expect(sameKey(a.publicKey, b.publicKey)).toBe(false);
    const [s1] = parseKeyMaterial('00'.repeat(32), 's1');
    const [s2] = parseKeyMaterial('00'.repeat(32), 's2');
    const [s3] = parseKeyMaterial('01'.repeat(32), 's3');
    expect(sameKey(s1!.secret!, s2!.secret!)).toBe(true);
    expect(sameKey(s1!.secret!, s3!.secret!)).toBe(false);
    expect(sameKey(s1!.secret!, a.publicKey)).toBe(false);
  });
});
