/**
 * Keys through the CLI: a key's algorithm bound to it (keygen's JWK and PEM files, sign, verify), key type
 * against algorithm, --no-key-info, and which key a keyId names (with what verify looked at when none).
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, SAMPLES, tempDirs } from '../helpers.js';

const BASE = readFileSync(path.join(SAMPLES, 'valid-full-1.6.json'), 'utf8');
const newDir = tempDirs();

function bomIn(dir: string, name = 'bom.json'): string {
  const file = path.join(dir, name);
  writeFileSync(file, BASE);
  return file;
}

const signature = (file: string) => JSON.parse(readFileSync(file, 'utf8')).signature as Record<string, unknown>;

describe('keygen --alg binds the key: sign and verify keep to it', () => {
  it('PS384: the PEM and the JWK name PS384; sign uses it and refuses another --alg; verify trusts only PS384', async () => {
    const dir = newDir();
    expect((await runCli(['keygen', '--alg', 'PS384', '--out', 'ps'], { cwd: dir })).code).toBe(0);
    const jwk = JSON.parse(readFileSync(path.join(dir, 'ps.public.jwk'), 'utf8'));
    expect(jwk.alg).toBe('PS384');
    for (const file of ['ps.private.pem', 'ps.public.pem'])
      expect(readFileSync(path.join(dir, file), 'utf8')).toMatch(
        new RegExp(`^alg: PS384\\nkid: ${jwk.kid}\\n-----BEGIN `),
      );

    const bom = bomIn(dir);
    const signed = await runCli(['sign', 'bom.json', '--key', 'ps.private.pem'], { cwd: dir });
    expect(signed.stdout).toBe('Signed 1 object (root) of bom.json with PS384\n');
    expect(signature(bom).algorithm).toBe('PS384');
    // The same through a private JWK that names PS384.
    const privateJwk = path.join(dir, 'ps.private.jwk');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(privateJwk, JSON.stringify({ ...rsa.privateKey.export({ format: 'jwk' }), alg: 'PS384' }));
    const byJwk = bomIn(dir, 'jwk.json');
    expect((await runCli(['sign', 'jwk.json', '--key', 'ps.private.jwk'], { cwd: dir })).stdout).toContain(
      'with PS384',
    );
    expect(signature(byJwk).algorithm).toBe('PS384');

    for (const key of ['ps.private.pem', 'ps.private.jwk']) {
      const before = readFileSync(bom, 'utf8');
      const refused = await runCli(['sign', 'bom.json', '--key', key, '--alg', 'RS256'], { cwd: dir });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        `bomwright: E_KEY: Cannot sign with ${key}: it is a PS384 key (its alg), not for RS256\n`,
      );
      expect(readFileSync(bom, 'utf8')).toBe(before);
    }
    expect((await runCli(['sign', 'bom.json', '--key', 'ps.private.pem', '--alg', 'PS384'], { cwd: dir })).code).toBe(
      0,
    );

    // An RS256 signature by the same RSA key, made with the key stripped of its alg line.
    const bare = path.join(dir, 'bare.pem');
    writeFileSync(bare, readFileSync(path.join(dir, 'ps.private.pem'), 'utf8').replace(/^(alg|kid): .*\n/gm, ''));
    bomIn(dir, 'rs.json');
    expect((await runCli(['sign', 'rs.json', '--key', 'bare.pem'], { cwd: dir })).stdout).toContain('with RS256');
    for (const trust of ['ps.public.jwk', 'ps.public.pem']) {
      const refused = await runCli(['verify', 'rs.json', '--trust', trust, '--require-trusted'], { cwd: dir });
      expect(refused.code, trust).toBe(1);
      expect(refused.stdout).toContain(
        `RS256  publicKey  valid, untrusted (the embedded key is in the trust store (${trust}), but it is a PS384 key (its alg), not for RS256)`,
      );
      const trusted = await runCli(['verify', 'bom.json', '--trust', trust, '--require-trusted'], { cwd: dir });
      expect(trusted.code, trusted.stdout).toBe(0);
    }
    // validate gives the same verdict (one judge).
    const validated = await runCli(['validate', 'rs.json', '--trust', 'ps.public.jwk', '--require-trusted'], {
      cwd: dir,
    });
    expect(validated.code).toBe(1);
    expect(validated.stdout).toContain('it is a PS384 key (its alg), not for RS256');
  });

  it('refuses a key file whose alg its key cannot do, to sign and as trust (one line, E_KEY)', async () => {
    const dir = newDir();
    const bom = bomIn(dir);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writeFileSync(
      path.join(dir, 'p.jwk'),
      JSON.stringify({ ...ec.privateKey.export({ format: 'jwk' }), alg: 'ES384' }),
    );
    const signing = await runCli(['sign', bom, '--key', 'p.jwk'], { cwd: dir });
    expect(signing.code).toBe(2);
    expect(signing.stderr).toBe(
      'bomwright: E_KEY: Cannot use the key in p.jwk: its alg ES384 does not fit the key: ES384 needs curve P-384, not P-256\n',
    );
    const ed = generateKeyPairSync('ed25519');
    writeFileSync(
      path.join(dir, 'set.jwks'),
      JSON.stringify({ keys: [{ ...ed.publicKey.export({ format: 'jwk' }), alg: 'Ed448' }] }),
    );
    const trusting = await runCli(['verify', bom, '--trust', 'set.jwks'], { cwd: dir });
    expect(trusting.code).toBe(2);
    expect(trusting.stderr).toBe(
      'bomwright: E_KEY: Cannot use the key in set.jwks (JWKS entry 0): its alg Ed448 does not fit the key: Ed448 needs curve Ed448, not Ed25519\n',
    );
    // A 31-byte HMAC secret is too short for HS256; 32 bytes sign.
    writeFileSync(path.join(dir, 'short.hex'), 'ab'.repeat(31));
    const short = await runCli(['sign', bom, '--key', 'short.hex', '--key-id', 's'], { cwd: dir });
    expect(short.stderr).toBe(
      'bomwright: E_KEY: Cannot sign with short.hex: HS256 needs a secret of at least 32 bytes (RFC 7518 §3.2), not 31\n',
    );
    writeFileSync(path.join(dir, 'long.hex'), 'ab'.repeat(32));
    expect((await runCli(['sign', bom, '--key', 'long.hex', '--key-id', 's'], { cwd: dir })).code).toBe(0);
  });
});

describe('sign --no-key-info', () => {
  it('embeds no key information; verify finds the key among the trusted ones', async () => {
    const dir = newDir();
    const bom = bomIn(dir);
    expect((await runCli(['keygen', '--alg', 'Ed25519', '--out', 'ed'], { cwd: dir })).code).toBe(0);
    const result = await runCli(['sign', bom, '--key', 'ed.private.pem', '--no-key-info'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(Object.keys(signature(bom))).toEqual(['algorithm', 'value']);
    const verified = await runCli(['verify', bom, '--trust', 'ed.public.jwk', '--require-trusted'], { cwd: dir });
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('Ed25519  implicit  valid, trusted');
    // --key-info (the default) embeds the public key.
    expect((await runCli(['sign', bom, '--key', 'ed.private.pem', '--key-info'], { cwd: dir })).code).toBe(0);
    expect(Object.keys(signature(bom))).toEqual(['algorithm', 'publicKey', 'value']);
  });
});

describe('which key a keyId names', () => {
  it('a kid, else the file name: verify says what it looked at; sign refuses a keyId that contradicts a kid', async () => {
    const dir = newDir();
    mkdirSync(path.join(dir, 'keys'));
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writeFileSync(
      path.join(dir, 'keys', 'release.jwk'),
      JSON.stringify({ ...ec.publicKey.export({ format: 'jwk' }), kid: '2024-q1' }),
    );
    writeFileSync(path.join(dir, 'keys', 'release.pem'), ec.publicKey.export({ type: 'spki', format: 'pem' }));
    writeFileSync(path.join(dir, 'signing.pem'), ec.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(
      path.join(dir, 'signing.jwk'),
      JSON.stringify({ ...ec.privateKey.export({ format: 'jwk' }), kid: '2024-q1' }),
    );
    const bom = bomIn(dir);

    const contradicted = await runCli(['sign', bom, '--key', 'signing.jwk', '--key-id', 'other'], { cwd: dir });
    expect(contradicted.stderr).toBe(
      'bomwright: E_KEY: Cannot use the key in signing.jwk: its kid is "2024-q1", so keyId "other" would name another key\n',
    );
    expect((await runCli(['sign', bom, '--key', 'signing.jwk', '--key-id', '2024-q1'], { cwd: dir })).code).toBe(0);
    expect(signature(bom)).toMatchObject({ keyId: '2024-q1' });
    expect((await runCli(['verify', bom, '--trust', 'keys', '--require-trusted'], { cwd: dir })).code).toBe(0);

    for (const [keyId, ok] of [
      ['release', true],
      ['nowhere', false],
    ] as const) {
      expect(
        (await runCli(['sign', bom, '--key', 'signing.pem', '--key-id', keyId, '--no-public-key'], { cwd: dir })).code,
      ).toBe(0);
      const verified = await runCli(['verify', bom, '--trust', 'keys'], { cwd: dir });
      expect(verified.code, keyId).toBe(ok ? 0 : 1);
      if (!ok)
        expect(verified.stdout).toContain(
          `unverifiable: no key with keyId "nowhere" in the trust store (--trust); it has "2024-q1" (kid of ${path.join('keys', 'release.jwk')}), "release" (file name of ${path.join('keys', 'release.pem')})`,
        );
    }
  });
});
