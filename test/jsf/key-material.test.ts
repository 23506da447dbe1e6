import { describe, expect, it } from 'vitest';
import { parseKeyMaterial } from '../../src/index.js';
import { importPublicJwk } from '../../src/jsf/keys.js';
import { expectErrorCode } from '../helpers.js';

const refused = (text: string) => expectErrorCode(() => parseKeyMaterial(text, 'key.txt'), 'E_KEY').message;

describe('key material from text', () => {
  it('reads an oct JWK with its key id, a JWKS, and a hex secret of at least 16 bytes', () => {
    const [jwk] = parseKeyMaterial('{"kty":"oct","k":"AAEC","kid":"s1"}', 'key.txt');
    expect(jwk).toMatchObject({ family: 'oct', keyId: 's1', source: 'key.txt' });
    expect(jwk!.secret!.symmetricKeySize).toBe(3);
    const keys = parseKeyMaterial('{"keys":[{"kty":"oct","k":"AAEC","kid":"a"},{"kty":"oct","k":"AQ"}]}', 'set.json');
    expect(keys.map((k) => [k.family, k.keyId])).toEqual([
      ['oct', 'a'],
      ['oct', undefined],
    ]);
    const [hex] = parseKeyMaterial('00ff'.repeat(8), 'secret.hex');
    expect(hex!.secret!.symmetricKeySize).toBe(16);
  });

  it.each([
    ['{nope', 'Cannot use the key in key.txt: not valid JSON'],
    ['null', 'Cannot use the key in key.txt: not a PEM key or certificate, a JWK, a JWKS, or a hex secret'],
    ['00ff00ff', 'Cannot use the key in key.txt: not a PEM key or certificate, a JWK, a JWKS, or a hex secret'],
    ['{"kty":"oct"}', 'Cannot use the key in key.txt: an oct JWK needs a base64url "k"'],
    ['{"kty":"oct","k":""}', 'Cannot use the key in key.txt: an oct JWK needs a base64url "k"'],
    ['{"kty":"XYZ"}', 'Cannot use the key in key.txt: invalid JWK'],
    ['{"kty":"EC","crv":"P-256","x":"AA","y":"AA"}', 'Cannot use the key in key.txt: invalid JWK'],
    ['{"kty":"oct","k":"AAEC","x5c":["!!"]}', 'Cannot use the key in key.txt: x5c holds an invalid certificate'],
    [
      '{"keys":[{"kty":"oct","k":"AQ"},{"kty":"oct","kid":"b"}]}',
      'Cannot use the key in key.txt (JWKS entry b): an oct JWK needs a base64url "k"',
    ],
    ['{"keys":[{"kty":"oct"}]}', 'Cannot use the key in key.txt (JWKS entry 0): an oct JWK needs a base64url "k"'],
  ])('refuses %j with E_KEY and says why', (text, message) => {
    expect(refused(text)).toBe(message);
  });
});

// JSF §3.2.2: a publicKey has exactly its type's members, strict base64url, full-length coordinates.
describe('embedded public keys', () => {
  const x = 'A'.repeat(43);
  it.each<[unknown, string]>([
    [null, 'publicKey must be an object'],
    [[], 'publicKey must be an object'],
    [{ kty: 'oct', k: 'AA' }, 'publicKey kty must be EC, OKP or RSA'],
    [{ kty: 'EC', crv: 'P-256', x, y: x, d: x }, 'publicKey has members JSF does not allow: d'],
    [{ kty: 'OKP', crv: 'Ed25519', x: 1 }, 'publicKey.x must be a string'],
    [{ kty: 'RSA', n: 'AAEC', e: 'AQAB' }, 'publicKey.n has a leading zero byte'],
    [{ kty: 'RSA', n: '', e: 'AQAB' }, 'publicKey.n is not strict base64url'],
    [{ kty: 'RSA', n: 'AQAB', e: 'AQ=' }, 'publicKey.e is not strict base64url'],
    [{ kty: 'EC', crv: 'Ed25519', x: 'AA', y: 'AA' }, 'publicKey.crv "Ed25519" is not allowed for EC'],
    [{ kty: 'OKP', crv: 'P-256', x: 'AA' }, 'publicKey.crv "P-256" is not allowed for OKP'],
    [{ kty: 'EC', crv: 'P-256', x: 'A+', y: 'AA' }, 'publicKey.x is not strict base64url'],
    [{ kty: 'EC', crv: 'P-256', x: 'AA', y: 'AA' }, 'publicKey.x must be 32 bytes for P-256, not 1'],
    [{ kty: 'EC', crv: 'P-256', x, y: 'AA' }, 'publicKey.y must be 32 bytes for P-256, not 1'],
    [{ kty: 'EC', crv: 'P-256', x, y: x }, 'publicKey is not a valid key (for EC: the point is not on the curve)'],
  ])('%j: %s', (jwk, problem) => {
    expect(importPublicJwk(jwk)).toEqual({ problem });
  });
});
