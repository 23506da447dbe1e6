import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JSF_ALGORITHMS, type JsfAlgorithm } from '../../src/index.js';
import { algorithmInfo } from '../../src/jsf/algorithms.js';
import { runCli, SAMPLES, tempDir } from '../helpers.js';
import { freshKeyTexts } from '../jsf/fixtures.js';

const BASE = readFileSync(path.join(SAMPLES, 'valid-full-1.6.json'), 'utf8');

/** A private key file (PEM, or a JWK for HMAC) and the matching trust file, written into dir. */
function keyFiles(dir: string, algorithm: JsfAlgorithm, name: string): { key: string; trust: string } {
  const { privateKey, trusted } = freshKeyTexts(algorithm, name);
  const key = path.join(dir, `${name}.key`);
  const trust = path.join(dir, `${name}.trust`);
  writeFileSync(key, privateKey);
  writeFileSync(trust, trusted);
  return { key, trust };
}

describe('sign → verify round trips through the CLI', () => {
  it.each([...JSF_ALGORITHMS])('%s: single, signers and chain, on the root and on inner objects', async (algorithm) => {
    const dir = tempDir();
    const first = keyFiles(dir, algorithm, 'first');
    const second = keyFiles(dir, algorithm, 'second');
    const hmac = algorithmInfo(algorithm)!.family === 'oct';
    // HMAC secrets are never embedded: they are found by keyId in the trust store.
    const keyInfo = (name: string) => (hmac ? ['--key-id', name] : []);
    const files: string[] = [];
    for (const place of [
      ['--target', 'root'],
      ['--target', 'components', '--target', 'root'],
    ]) {
      for (const mode of ['single', 'add', 'chain'] as const) {
        const file = path.join(dir, `${mode}-${place.length}.json`);
        writeFileSync(file, BASE);
        const signers = mode === 'single' ? [first] : [first, second];
        for (const [i, key] of signers.entries()) {
          // A second signer goes on the root alone: adding signers inside would break the root's first signer.
          const targets = i === 0 ? place : ['--target', 'root'];
          const args = [
            'sign',
            file,
            '--key',
            key.key,
            '--alg',
            algorithm,
            ...keyInfo(i === 0 ? 'first' : 'second'),
            ...targets,
            ...(mode === 'single' ? [] : [`--${mode}`]),
          ];
          const result = await runCli(args, { cwd: dir });
          expect(result.stderr, args.join(' ')).toBe('');
          expect(result.code).toBe(0);
        }
        files.push(file);
      }
    }
    const verified = await runCli(
      ['verify', ...files, '--trust', first.trust, '--trust', second.trust, '--require-trusted', '--format', 'json'],
      { cwd: dir },
    );
    expect(verified.code, verified.stdout).toBe(0);
    const report = JSON.parse(verified.stdout);
    for (const document of report.documents) {
      expect(document.ok).toBe(true);
      for (const signature of document.signatures)
        expect(signature).toMatchObject({ verdict: 'valid', trust: 'trusted', algorithm });
    }
    // Root only: 1 signer, or 2 for signers/chain. Inner too: metadata.component and 3 components signed once,
    // plus the root's 1 or 2 signers.
    expect(report.documents.map((d: { signatures: unknown[] }) => d.signatures.length)).toEqual([1, 2, 2, 5, 6, 6]);
    // Every signed document is still a valid CycloneDX 1.6 document (trusted signatures: no warnings).
    const trustArgs = ['--trust', first.trust, '--trust', second.trust];
    const validated = await runCli(['validate', ...files, ...trustArgs, '--max-warnings', '0'], { cwd: dir });
    expect(validated.code, validated.stdout).toBe(0);
  });
});

describe('sign', () => {
  it('rewrites atomically, keeps indentation and leaves the file untouched on any error', async () => {
    const dir = tempDir();
    const { key } = keyFiles(dir, 'ES256', 'k');
    const file = path.join(dir, 'bom.json');
    const compact = JSON.stringify(JSON.parse(BASE));
    writeFileSync(file, compact, { mode: 0o640 });
    expect((await runCli(['sign', file, '--key', key], { cwd: dir })).code).toBe(0);
    const signed = readFileSync(file, 'utf8');
    expect(signed.includes('\n')).toBe(false);
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(JSON.parse(signed).signature.algorithm).toBe('ES256');

    for (const args of [
      ['--key', path.join(dir, 'missing.pem')],
      ['--key', file],
      ['--key', key, '--alg', 'RS256'],
      ['--key', key, '--target', 'no-such-bom-ref'],
      ['--key', key, '--add'],
    ]) {
      const before = readFileSync(file);
      const result = await runCli(['sign', file, ...args], { cwd: dir });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^bomwright: E_[A-Z_]+: .+\n/);
      expect(readFileSync(file).equals(before)).toBe(true);
    }
  });

  it('refuses to sign an invalid document, listing the reasons', async () => {
    const dir = tempDir();
    const { key } = keyFiles(dir, 'Ed25519', 'k');
    const file = path.join(dir, 'bad.json');
    const bad = BASE.replace('"version": 1', '"version": 0');
    writeFileSync(file, bad);
    const result = await runCli(['sign', file, '--key', key], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('version must be a whole number from 1 to 2^53 - 1');
    expect(result.stderr).toContain('refusing to sign');
    expect(readFileSync(file, 'utf8')).toBe(bad);
  });

  it('refuses documents with duplicate keys or numbers a rewrite would change', async () => {
    const dir = tempDir();
    const { key } = keyFiles(dir, 'ES256', 'k');
    const duplicate = path.join(dir, 'dup.json');
    writeFileSync(duplicate, BASE.replace('"version": 1,', '"version": 1, "version": 1,'));
    const dupResult = await runCli(['sign', duplicate, '--key', key], { cwd: dir });
    expect(dupResult.code).toBe(1);
    expect(dupResult.stderr).toContain('json/duplicate-key');
    const big = path.join(dir, 'big.json');
    writeFileSync(big, JSON.stringify({ id: 1, n: 1 }).replace('"n":1', '"n":12345678901234567890'));
    const bigResult = await runCli(['sign', big, '--key', key], { cwd: dir });
    expect(bigResult.code).toBe(1);
    expect(bigResult.stderr).toContain('12345678901234567890');
    // 1e400 parses to Infinity, which a rewrite would write as null: the file must be left as it is.
    const overflow = path.join(dir, 'overflow.json');
    const overflowText = JSON.stringify({ id: 1, n: 1 }).replace('"n":1', '"n":1e400');
    writeFileSync(overflow, overflowText);
    const overflowResult = await runCli(['sign', overflow, '--key', key], { cwd: dir });
    expect(overflowResult.code).toBe(1);
    expect(overflowResult.stderr).toContain('1e400');
    expect(readFileSync(overflow, 'utf8')).toBe(overflowText);
  });

  it('refuses to add signers inside an object whose existing signers cover them', async () => {
    const dir = tempDir();
    const { key } = keyFiles(dir, 'ES256', 'k');
    const file = path.join(dir, 'bom.json');
    writeFileSync(file, BASE);
    expect((await runCli(['sign', file, '--key', key, '--add', '--target', 'all'], { cwd: dir })).code).toBe(0);
    const before = readFileSync(file);
    const result = await runCli(['sign', file, '--key', key, '--add', '--target', 'all'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('would invalidate its existing signers');
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('refuses to break an existing root signature when signing inner objects', async () => {
    const dir = tempDir();
    const { key } = keyFiles(dir, 'ES256', 'k');
    const file = path.join(dir, 'bom.json');
    writeFileSync(file, BASE);
    expect((await runCli(['sign', file, '--key', key], { cwd: dir })).code).toBe(0);
    const result = await runCli(['sign', file, '--key', key, '--target', 'components'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('would invalidate the existing signature of the document root');
  });

  it('signs one element by bom-ref, and refuses 1.2/1.3 documents that have no signatures', async () => {
    const dir = tempDir();
    const { key, trust } = keyFiles(dir, 'ES384', 'k');
    const file = path.join(dir, 'bom.json');
    writeFileSync(file, BASE);
    const ref = JSON.parse(BASE).components[0]['bom-ref'] as string;
    expect((await runCli(['sign', file, '--key', key, '--target', ref], { cwd: dir })).code).toBe(0);
    const signed = JSON.parse(readFileSync(file, 'utf8'));
    expect(signed.components[0].signature.algorithm).toBe('ES384');
    expect(signed.signature).toBeUndefined();
    expect((await runCli(['verify', file, '--trust', trust, '--require-trusted'], { cwd: dir })).code).toBe(0);
    const old = path.join(dir, 'old.json');
    writeFileSync(old, readFileSync(path.join(SAMPLES, 'valid-full-1.3.json')));
    const refused = await runCli(['sign', old, '--key', key], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('has no signatures');
  });

  it('never prints private key material, even for a broken key file', async () => {
    const dir = tempDir();
    const { key } = keyFiles(dir, 'ES256', 'k');
    const pem = readFileSync(key, 'utf8');
    const broken = path.join(dir, 'broken.pem');
    // Truncated: the DER inside no longer parses.
    const lines = pem.trim().split('\n');
    writeFileSync(broken, [...lines.slice(0, 2), lines.at(-1)].join('\n') + '\n');
    const file = path.join(dir, 'bom.json');
    writeFileSync(file, BASE);
    const result = await runCli(['sign', file, '--key', broken], { cwd: dir });
    expect(result.code).toBe(2);
    const body = pem.split('\n').filter((line) => line.length > 20 && !line.startsWith('-----'));
    for (const line of body) expect(result.stderr + result.stdout).not.toContain(line.slice(0, 16));
  });
});

describe('verify', () => {
  it('fails tampered documents, and duplicate keys before anything else', async () => {
    const dir = tempDir();
    const { key, trust } = keyFiles(dir, 'PS256', 'k');
    const file = path.join(dir, 'bom.json');
    writeFileSync(file, BASE);
    expect((await runCli(['sign', file, '--key', key, '--alg', 'PS256'], { cwd: dir })).code).toBe(0);
    const signed = readFileSync(file, 'utf8');
    writeFileSync(file, signed.replace('"version": 1', '"version": 2'));
    const tampered = await runCli(['verify', file, '--trust', trust], { cwd: dir });
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toContain('invalid: the signature does not match the signed data');
    writeFileSync(file, signed.replace('"version": 1', '"version": 1, "version": 1'));
    const duplicate = await runCli(['verify', file, '--trust', trust], { cwd: dir });
    expect(duplicate.code).toBe(1);
    expect(duplicate.stdout).toContain('json/duplicate-key');
  });

  it('unsigned fails unless --allow-unsigned; without --trust, untrusted passes unless --require-trusted', async () => {
    const dir = tempDir();
    const { key } = keyFiles(dir, 'Ed448', 'k');
    const file = path.join(dir, 'bom.json');
    writeFileSync(file, BASE);
    const unsigned = await runCli(['verify', file], { cwd: dir });
    expect(unsigned.code).toBe(1);
    expect(unsigned.stdout).toContain('FAILED — the document has no signature (--allow-unsigned accepts');
    expect((await runCli(['verify', file, '--require-signature'], { cwd: dir })).code).toBe(1);
    expect((await runCli(['verify', file, '--allow-unsigned'], { cwd: dir })).code).toBe(0);
    await runCli(['sign', file, '--key', key], { cwd: dir });
    const untrusted = await runCli(['verify', file], { cwd: dir });
    expect(untrusted.code).toBe(0);
    expect(untrusted.stdout).toContain('valid, untrusted');
    expect((await runCli(['verify', file, '--require-trusted'], { cwd: dir })).code).toBe(1);
  });

  it('exits 2 for a missing file or an unreadable trust path', async () => {
    const dir = tempDir();
    expect((await runCli(['verify', 'nope.json'], { cwd: dir })).code).toBe(2);
    const file = path.join(dir, 'bom.json');
    writeFileSync(file, BASE);
    const result = await runCli(['verify', file, '--trust', 'no-such-dir'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('bomwright: E_NOT_FOUND: No such file or directory: no-such-dir\n');
  });
});

describe('keygen', () => {
  it.each(['ES256', 'Ed25519', 'HS256'] as const)(
    '%s writes the private key with mode 0600 and never overwrites',
    async (algorithm) => {
      const dir = tempDir();
      const result = await runCli(['keygen', '--alg', algorithm, '--out', 'k'], { cwd: dir });
      expect(result.code).toBe(0);
      const secretFile = path.join(dir, algorithm === 'HS256' ? 'k.secret.jwk' : 'k.private.pem');
      expect(statSync(secretFile).mode & 0o777).toBe(0o600);
      const secret = readFileSync(secretFile, 'utf8');
      // From the key's own text (keygen's PEM files begin with alg: and kid: lines, which are no secret).
      const body = secret.slice(secret.indexOf('-----BEGIN') + 40);
      expect(result.stdout).not.toContain(body.slice(0, 20));
      const again = await runCli(['keygen', '--alg', algorithm, '--out', 'k'], { cwd: dir });
      expect(again.code).toBe(2);
      expect(again.stderr).toContain('already exists');
      if (algorithm !== 'HS256') {
        const jwk = JSON.parse(readFileSync(path.join(dir, 'k.public.jwk'), 'utf8'));
        expect(jwk.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
        const bom = path.join(dir, 'bom.json');
        writeFileSync(bom, BASE);
        expect((await runCli(['sign', bom, '--key', 'k.private.pem'], { cwd: dir })).code).toBe(0);
        expect((await runCli(['verify', bom, '--trust', 'k.public.jwk', '--require-trusted'], { cwd: dir })).code).toBe(
          0,
        );
      }
    },
  );
});
