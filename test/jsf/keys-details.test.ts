import { createPrivateKey, createPublicKey, createSecretKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  describeKey,
  importPublicJwk,
  keyFingerprint,
  parseKeyMaterial,
  publicJwk,
  sameKey,
} from '../../src/jsf/keys.js';
import { expectErrorCode } from '../helpers.js';

const pem = (key: KeyObject, type: 'pkcs8' | 'spki' | 'sec1' = key.type === 'private' ? 'pkcs8' : 'spki') =>
  key.export({ format: 'pem', type } as never) as string;

/** RFC 5958 version 2 of a PKCS#8 Ed25519/Ed448 key: version 1 and the public key in [1] (implicit or explicit). */
function oneAsymmetricKeyV2(privateKey: KeyObject, publicBits: Buffer, explicit = false): string {
  const v1 = privateKey.export({ format: 'der', type: 'pkcs8' });
  // v1 = SEQUENCE { INTEGER 0, AlgorithmIdentifier, OCTET STRING }: the body starts after the 2-byte header.
  const body = v1.subarray(2 + 3);
  const bitString = Buffer.concat([Buffer.from([0x00]), publicBits]);
  const field = explicit
    ? Buffer.concat([Buffer.from([0xa1, bitString.length + 2, 0x03, bitString.length]), bitString])
    : Buffer.concat([Buffer.from([0x81, bitString.length]), bitString]);
  const content = Buffer.concat([Buffer.from([0x02, 0x01, 0x01]), body, field]);
  const length = content.length < 0x80 ? Buffer.from([content.length]) : Buffer.from([0x81, content.length]);
  const der = Buffer.concat([Buffer.from([0x30]), length, content]);
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64')}\n-----END PRIVATE KEY-----\n`;
}

const rawPublic = (key: KeyObject) => {
  const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
  return spki.subarray(spki.length - (key.asymmetricKeyType === 'ed448' ? 57 : 32));
};

describe('keys Node reads but JSF cannot use', () => {
  it('names the curve or key type it refuses', () => {
    const k1 = generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).publicKey;
    expect(expectErrorCode(() => describeKey(k1, 'k1.pem'), 'E_KEY').message).toBe(
      'Cannot use the key in k1.pem: unsupported EC curve secp256k1',
    );
    expect(expectErrorCode(() => parseKeyMaterial(pem(k1), 'k1.pem'), 'E_KEY').message).toMatch(
      /unsupported EC curve secp256k1$/,
    );
    const x25519 = generateKeyPairSync('x25519').publicKey;
    expect(expectErrorCode(() => parseKeyMaterial(pem(x25519), 'x.pem'), 'E_KEY').message).toBe(
      'Cannot use the key in x.pem: unsupported key type x25519 (JSF signs with EC, RSA, Ed25519, Ed448 or HMAC keys)',
    );
    const jwk = k1.export({ format: 'jwk' });
    // The reason survives a JWK too: it is not reworded as an invalid JWK.
    expect(expectErrorCode(() => parseKeyMaterial(JSON.stringify(jwk), 'k1.jwk'), 'E_KEY').message).toMatch(
      /unsupported EC curve secp256k1$/,
    );
  });

  it('refuses malformed JWKs and JWKS entries, naming the entry, and keeps the cause', () => {
    expect(expectErrorCode(() => parseKeyMaterial('{"keys":[null]}', 'set.json'), 'E_KEY').message).toBe(
      'Cannot use the key in set.json (JWKS entry 0): a JWK must be an object',
    );
    expect(expectErrorCode(() => parseKeyMaterial('{"keys":[5, {}]}', 'set.json'), 'E_KEY').message).toMatch(
      /JWKS entry 0\): a JWK must be an object$/,
    );
    const named = {
      ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }),
      kid: 'k-1',
      x: 'AAAA',
    };
    const error = expectErrorCode(() => parseKeyMaterial(JSON.stringify({ keys: [named] }), 'set.json'), 'E_KEY');
    expect(error.message).toBe('Cannot use the key in set.json (JWKS entry k-1): invalid JWK');
    expect(error.cause).toBeDefined();
    const badCertificate = {
      ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }),
      x5c: ['bm90IGEgY2VydGlmaWNhdGU='],
    };
    expect(expectErrorCode(() => parseKeyMaterial(JSON.stringify(badCertificate), 'c.jwk'), 'E_KEY').message).toBe(
      'Cannot use the key in c.jwk: x5c holds an invalid certificate',
    );
    const withoutKid = parseKeyMaterial(
      JSON.stringify(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' })),
      'k.jwk',
    )[0]!;
    expect(Object.hasOwn(withoutKid, 'keyId')).toBe(false);
    expect(
      parseKeyMaterial(
        JSON.stringify({ ...generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }), kid: 7 }),
        'k.jwk',
      )[0]!.keyId,
    ).toBeUndefined();
  });

  it('reads PEM blocks of every label, with a passphrase where needed, and says which block it cannot read', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const encrypted = privateKey.export({
      format: 'pem',
      type: 'pkcs8',
      cipher: 'aes-256-cbc',
      passphrase: 'secret',
    }) as string;
    expect(parseKeyMaterial(`\n\n${encrypted}\n`, 'enc.pem', { passphrase: 'secret' })[0]!.privateKey).toBeDefined();
    expect(parseKeyMaterial(pem(privateKey, 'sec1'), 'sec1.pem')[0]!.privateKey).toBeDefined();
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    expect(
      parseKeyMaterial(rsa.export({ format: 'pem', type: 'pkcs1' }) as string, 'rsa.pem')[0]!.publicKey,
    ).toBeDefined();
    const garbage = '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----';
    expect(expectErrorCode(() => parseKeyMaterial(garbage, 'g.pem'), 'E_KEY').message).toBe(
      'Cannot use the key in g.pem: unreadable PUBLIC KEY block',
    );
    expect(
      expectErrorCode(() => parseKeyMaterial('-----BEGIN FOO-----\nAAAA\n-----END FOO-----', 'f.pem'), 'E_KEY').message,
    ).toBe('Cannot use the key in f.pem: no key or certificate found in the PEM text');
  });
});

describe('PKCS#8 version 2 (the public key inside)', () => {
  for (const type of ['ed25519', 'ed448'] as const) {
    it(`reads a ${type} key with its public key in [1], implicit or explicit, and checks that it belongs`, () => {
      const { privateKey } = generateKeyPairSync(type as never) as unknown as { privateKey: KeyObject };
      for (const explicit of [false, true]) {
        const [material] = parseKeyMaterial(oneAsymmetricKeyV2(privateKey, rawPublic(privateKey), explicit), 'v2.pem');
        expect(sameKey(material!.publicKey!, createPublicKey(privateKey))).toBe(true);
      }
      const other = (generateKeyPairSync(type as never) as unknown as { privateKey: KeyObject }).privateKey;
      const mismatched = expectErrorCode(
        () => parseKeyMaterial(oneAsymmetricKeyV2(privateKey, rawPublic(other)), 'v2.pem'),
        'E_KEY',
      );
      expect(mismatched.message).toBe('Cannot use the key in v2.pem: unreadable PRIVATE KEY block');
      expect(String((mismatched.cause as Error).message)).toBe(
        'the public key in the PKCS#8 file does not belong to its private key',
      );
    });
  }

  it('keeps OpenSSL’s own refusal for what is not a version-2 key', () => {
    const broken = '-----BEGIN PRIVATE KEY-----\nMAMCAQI=\n-----END PRIVATE KEY-----';
    const error = expectErrorCode(() => parseKeyMaterial(broken, 'b.pem'), 'E_KEY');
    expect(error.message).toBe('Cannot use the key in b.pem: unreadable PRIVATE KEY block');
    expect(String((error.cause as Error).message)).not.toContain('does not belong');
  });
});

describe('public keys as JSF writes and reads them', () => {
  it('has no public form for a secret, and fingerprints secrets by their bytes', () => {
    const secret = createSecretKey(Buffer.alloc(32, 7));
    expect(expectErrorCode(() => publicJwk(secret), 'E_KEY').message).toBe(
      'Cannot use the key in the key: no JSF public key form for key type oct',
    );
    expect(keyFingerprint(secret)).toBe(`secret:${Buffer.alloc(32, 7).toString('base64url')}`);
    expect(sameKey(secret, createSecretKey(Buffer.alloc(32, 7)))).toBe(true);
    expect(sameKey(secret, createSecretKey(Buffer.alloc(32, 8)))).toBe(false);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(sameKey(secret, ec.publicKey)).toBe(false);
    expect(sameKey(ec.publicKey, createPublicKey(ec.privateKey))).toBe(true);
    expect(keyFingerprint(ec.publicKey)).toBe(JSON.stringify(publicJwk(ec.publicKey)));
    expect(createPrivateKey(pem(ec.privateKey)).type).toBe('private');
  });

  it('refuses a publicKey that is not an object, has a foreign curve, or lacks a coordinate', () => {
    const ec = publicJwk(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey) as unknown as Record<
      string,
      string
    >;
    const ed = publicJwk(generateKeyPairSync('ed25519').publicKey) as unknown as Record<string, string>;
    const cases: [unknown, string][] = [
      [[ec], 'publicKey must be an object'],
      [{ ...ec, crv: 'Ed25519' }, 'publicKey.crv "Ed25519" is not allowed for EC'],
      [{ ...ed, crv: 'P-256' }, 'publicKey.crv "P-256" is not allowed for OKP'],
      [
        { ...ec, y: Buffer.from(ec.y!, 'base64url').subarray(1).toString('base64url') },
        'publicKey.y must be 32 bytes for P-256, not 31',
      ],
      [{ ...ec, use: 'sig', alg: 'ES256' }, 'publicKey has members JSF does not allow: use, alg'],
      [{ ...ec, y: 5 }, 'publicKey.y must be a string'],
    ];
    for (const [value, problem] of cases) expect(importPublicJwk(value)).toEqual({ problem });
  });
});
