/**
 * The library's one way to sign: loadKey(pemOrJwk) → key; sign(document, { key }) validates a BOM first, as the
 * CLI does, and returns a typed result.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadKey, parseKeyMaterial, sign, verify, type KeyMaterial } from '../../src/index.js';
import { SAMPLES } from '../helpers.js';

const bom = () =>
  JSON.parse(readFileSync(path.join(SAMPLES, 'valid-full-1.6.json'), 'utf8')) as Record<string, unknown>;
const pair = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const pem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;

async function rejection(run: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await run();
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('expected a rejection');
}

describe('loadKey', () => {
  it('reads PEM text, a JWK object, JWK text and an encrypted PEM with its passphrase, as one typed key', () => {
    const jwk = pair.privateKey.export({ format: 'jwk' });
    for (const key of [loadKey(pem), loadKey(jwk), loadKey(JSON.stringify(jwk))])
      expect(key).toMatchObject({ family: 'EC', curve: 'P-384', source: 'the key' });
    const encrypted = pair.privateKey.export({
      type: 'pkcs8',
      format: 'pem',
      cipher: 'aes-256-cbc',
      passphrase: 'pw',
    }) as string;
    expect(loadKey(encrypted, { passphrase: 'pw' }).curve).toBe('P-384');
    expect(() => loadKey(encrypted, { source: 'enc.pem' })).toThrow(
      'Cannot use the key in enc.pem: the private key is encrypted; give its passphrase',
    );
  });

  it('binds to an algorithm on request, and refuses one the key cannot do or that contradicts its own', () => {
    expect(loadKey(pem, { algorithm: 'ES384' }).algorithm).toBe('ES384');
    expect(() => loadKey(pem, { algorithm: 'ES256', source: 'k.pem' })).toThrow(
      'Cannot use the key in k.pem: not for ES256: ES256 needs curve P-256, not P-384',
    );
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
    expect(() => loadKey({ ...rsa, alg: 'PS256' }, { algorithm: 'RS256', source: 'r.jwk' })).toThrow(
      'Cannot use the key in r.jwk: not for RS256: it is a PS256 key (its alg), not for RS256',
    );
    expect(() => loadKey(pem, { algorithm: 'XS1' as never })).toThrow('Unknown algorithm "XS1"');
    expect(() => loadKey([] as never)).toThrow('loadKey takes PEM text, JWK text or a JWK object');
  });
});

describe('sign', () => {
  it('signs a valid BOM: the signed copy, how many objects, the algorithm; the input untouched', async () => {
    const document = bom();
    const before = JSON.stringify(document);
    const result = await sign(document, { key: loadKey(pem), targets: ['root'] });
    expect(result).toMatchObject({ signed: true, objects: 1, algorithm: 'ES384' });
    expect(JSON.stringify(document)).toBe(before);
    const trust = {
      keys: parseKeyMaterial(pair.publicKey.export({ type: 'spki', format: 'pem' }) as string, 'k'),
      roots: [],
    };
    expect(verify(result.document, { trust }).reports).toMatchObject([{ verdict: 'valid', trust: 'trusted' }]);
    const all = await sign(document, { key: loadKey(pem), targets: ['all'] });
    expect(all.objects).toBeGreaterThan(1);
  });

  it('refuses an invalid BOM with its errors, as the CLI does, and signs any other JSON object', async () => {
    const invalid = { ...bom(), version: 0 };
    const result = await sign(invalid, { key: loadKey(pem) });
    expect(result.signed).toBe(false);
    expect(result.objects).toBe(0);
    expect(result.document).toBe(invalid);
    expect(result.diagnostics.map((d) => [d.ruleId, d.severity])).toEqual([['bom/version', 'error']]);
    expect(invalid).not.toHaveProperty('signature');
    // Not a BOM: nothing to validate it against.
    const plain = await sign({ note: 'hello' }, { key: loadKey(pem) });
    expect(plain).toMatchObject({ signed: true, objects: 1, diagnostics: [] });
  });

  it('takes one key: what parseKeyMaterial returns (a list) is refused with the way to do it', async () => {
    const list = parseKeyMaterial(pem, 'k.pem');
    const error = await rejection(() => sign(bom(), { key: list as unknown as KeyMaterial }));
    expect(error).toMatchObject({
      code: 'E_USAGE',
      message: 'options.key is a list of 1 key; sign takes one key: loadKey(pemOrJwk), or one entry of the list',
    });
    expect(await rejection(() => sign(bom(), { key: {} as KeyMaterial }))).toMatchObject({
      code: 'E_USAGE',
      message: 'options.key must be a key: loadKey(pemOrJwk) makes one',
    });
    expect(await rejection(() => sign(bom(), { key: list[0]!, algorithm: 'ES256' }))).toMatchObject({
      code: 'E_KEY',
      message: 'Cannot sign with k.pem: ES256 needs curve P-256, not P-384',
    });
  });
});
