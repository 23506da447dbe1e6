import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseKeyMaterial, validate } from '../../src/index.js';
import { signDocument as sign } from '../../src/jsf/sign-document.js';
import { loadTrustStore } from '../../src/node/keys.js';
import { ROOT, runCli, SAMPLES, tempDir } from '../helpers.js';

/**
 * Every kind of signature a gate meets, run through `verify`, `validate`, the library and the GitHub Action: the
 * verdict (pass or fail) must be the same everywhere, because it comes from one function.
 */
const dir = tempDir();
const sample = JSON.parse(readFileSync(path.join(SAMPLES, 'valid-full-1.6.json'), 'utf8')) as Record<string, unknown>;
const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const privatePem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const publicPem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const key = parseKeyMaterial(privatePem, 'test key')[0]!;
writeFileSync(path.join(dir, 'signer.pem'), publicPem);
const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
writeFileSync(path.join(dir, 'other.pem'), other.publicKey.export({ type: 'spki', format: 'pem' }).toString());

// A self-signed root that signed nothing here (openssl req -x509, P-256, 100 years): trust material of its own.
writeFileSync(
  path.join(dir, 'root.pem'),
  `-----BEGIN CERTIFICATE-----
MIIBkzCCATmgAwIBAgIUZsnLXKSw+5zENq0K9RPqVA78ciAwCgYIKoZIzj0EAwIw
HjEcMBoGA1UEAwwTYm9td3JpZ2h0IHRlc3Qgcm9vdDAgFw0yNjExMjgwNjE5NDla
GA8yMTI2MTEwNDA2MTk0OVowHjEcMBoGA1UEAwwTYm9td3JpZ2h0IHRlc3Qgcm9v
dDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABCkbsAasiXlYip+d2yJqNg0MbWCD
mpBO3FXbm53yn+LsVHnEM0ytU4J9uJs7e7MUw/7S9q6lq4kNAOERs4Fe+SqjUzBR
MB0GA1UdDgQWBBSydxP20L04Y3Rhgmk0EeDEbD/EyjAfBgNVHSMEGDAWgBSydxP2
0L04Y3Rhgmk0EeDEbD/EyjAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gA
MEUCIFcYTR0Z8CPkyURIcVVYVZbMNYK4GBAE/R0mneOkHHrlAiEA59NTf2tBV1h2
HvMWt86ZBgwUNHTsFEwYX52fbG/ESY0=
-----END CERTIFICATE-----
`,
);

const signed = (document: Record<string, unknown>, options: Record<string, unknown> = {}) =>
  sign(document, { key, targets: ['root'], ...options }) as Record<string, unknown>;
const tamper = (document: Record<string, unknown>) => ({ ...document, version: 99 });

interface Case {
  name: string;
  document: unknown;
  /** Flags understood by both verify and validate. */
  flags?: string[];
  /** validate needs --signatures require where verify has --require-signature. */
  requireSignature?: boolean;
  pass: boolean;
}

const CASES: Case[] = [
  { name: 'valid, embedded key, no trust store', document: signed(sample), pass: true },
  {
    name: 'valid, embedded key, --require-trusted',
    document: signed(sample),
    flags: ['--require-trusted'],
    pass: false,
  },
  {
    name: 'valid, pinned key, --require-trusted',
    document: signed(sample),
    flags: ['--require-trusted', '--trust', 'signer.pem'],
    pass: true,
  },
  { name: 'tampered, embedded key', document: tamper(signed(sample)), pass: false },
  {
    name: 'tampered, keyId missing from the trust store',
    document: tamper(signed(sample, { publicKey: false, keyId: 'signer' })),
    flags: ['--trust', 'other.pem'],
    pass: false,
  },
  {
    name: 'keyId missing from the trust store, --allow-unverifiable',
    document: signed(sample, { publicKey: false, keyId: 'signer' }),
    flags: ['--trust', 'other.pem', '--allow-unverifiable'],
    pass: true,
  },
  {
    name: 'keyId found in the trust store',
    document: signed(sample, { publicKey: false, keyId: 'signer' }),
    flags: ['--trust', 'signer.pem'],
    pass: true,
  },
  { name: '"signature": "abc"', document: { ...sample, signature: 'abc' }, pass: false },
  { name: '"signature": null', document: { ...sample, signature: null }, pass: false },
  {
    name: 'valid signature on /metadata (not a signable place)',
    document: JSON.parse(readFileSync(path.join(SAMPLES, 'invalid-signature-misplaced-1.6.json'), 'utf8')),
    pass: false,
  },
  {
    name: 'root signature in a 1.3 document',
    document: (() => {
      const v16 = signed(sample);
      return {
        ...JSON.parse(readFileSync(path.join(SAMPLES, 'valid-full-1.3.json'), 'utf8')),
        signature: v16.signature,
      };
    })(),
    pass: false,
  },
  {
    name: 'number beyond 2^53 in the signed data',
    document: JSON.parse(readFileSync(path.join(SAMPLES, 'invalid-signature-unsafe-number-1.6.json'), 'utf8')),
    pass: false,
  },
  { name: 'unsigned', document: sample, pass: true },
  { name: 'unsigned, signature required', document: sample, requireSignature: true, pass: false },
];

describe('one verdict on signatures', () => {
  it.each(CASES)(
    '$name: verify, validate and the library agree',
    async ({ name, document, flags = [], requireSignature, pass }) => {
      const file = path.join(dir, `${name.replace(/[^a-z0-9]+/gi, '-')}.json`);
      writeFileSync(file, JSON.stringify(document, null, 2));
      // verify is a gate by default; validate's policy is verify with both relaxations, unless the case asks.
      const verify = await runCli(
        [
          'verify',
          file,
          ...flags,
          ...(requireSignature ? ['--require-signature'] : ['--allow-unsigned']),
          ...(flags.includes('--require-trusted') ? [] : ['--allow-untrusted']),
        ],
        { cwd: dir },
      );
      const validateCli = await runCli(
        ['validate', file, ...flags, ...(requireSignature ? ['--signatures', 'require'] : [])],
        { cwd: dir },
      );
      const trustFiles = flags.includes('--trust') ? [path.join(dir, flags[flags.indexOf('--trust') + 1]!)] : [];
      const library = await validate(readFileSync(file), {
        trust: loadTrustStore(trustFiles, []),
        requireTrusted: flags.includes('--require-trusted'),
        allowUnverifiable: flags.includes('--allow-unverifiable'),
        signatures: requireSignature ? 'require' : 'verify',
      });
      // The GitHub Action's committed bundle, with the inputs the runner would pass.
      const action = spawnSync(process.execPath, [path.join(ROOT, 'action/dist/index.cjs')], {
        cwd: dir,
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH ?? '',
          GITHUB_WORKSPACE: dir,
          INPUT_PATHS: file,
          INPUT_TRUST: trustFiles.join(' '),
          'INPUT_REQUIRE-TRUSTED': String(flags.includes('--require-trusted')),
          'INPUT_ALLOW-UNVERIFIABLE': String(flags.includes('--allow-unverifiable')),
          INPUT_SIGNATURES: requireSignature ? 'require' : 'verify',
          'INPUT_SARIF-FILE': path.join(dir, 'out.sarif'),
        },
      });
      const expected = pass ? 0 : 1;
      expect(
        { verify: verify.code, validate: validateCli.code, library: library.valid ? 0 : 1, action: action.status },
        verify.stdout + validateCli.stdout + action.stdout,
      ).toEqual({ verify: expected, validate: expected, library: expected, action: expected });
    },
  );
});

/** verify's own defaults: a gate that passes only what something it trusts signed. */
const GATE: { name: string; document: unknown; flags: string[]; pass: boolean }[] = [
  { name: 'unsigned', document: sample, flags: [], pass: false },
  {
    name: 'unsigned, --require-signature (the default, still accepted)',
    document: sample,
    flags: ['--require-signature'],
    pass: false,
  },
  { name: 'unsigned, --allow-unsigned', document: sample, flags: ['--allow-unsigned'], pass: true },
  { name: 'unsigned, --no-require-signature', document: sample, flags: ['--no-require-signature'], pass: true },
  { name: 'embedded key, no trust given', document: signed(sample), flags: [], pass: true },
  {
    name: 'embedded key, --require-trusted without --trust',
    document: signed(sample),
    flags: ['--require-trusted'],
    pass: false,
  },
  { name: 'embedded key, --trust the signer', document: signed(sample), flags: ['--trust', 'signer.pem'], pass: true },
  { name: 'embedded key, --trust another key', document: signed(sample), flags: ['--trust', 'other.pem'], pass: false },
  {
    name: 'embedded key, --trust another key, --require-trusted (the default, still accepted)',
    document: signed(sample),
    flags: ['--trust', 'other.pem', '--require-trusted'],
    pass: false,
  },
  {
    name: 'embedded key, --trust another key, --allow-untrusted',
    document: signed(sample),
    flags: ['--trust', 'other.pem', '--allow-untrusted'],
    pass: true,
  },
  {
    name: 'embedded key, --trust-root only',
    document: signed(sample),
    flags: ['--trust-root', 'root.pem'],
    pass: false,
  },
  {
    name: 'keyId not in the trust store, --allow-unverifiable (a gate with --trust still wants a trusted key)',
    document: signed(sample, { publicKey: false, keyId: 'signer' }),
    flags: ['--trust', 'other.pem', '--allow-unverifiable'],
    pass: false,
  },
];

describe('verify is a gate', () => {
  it.each(GATE)('$name', async ({ name, document, flags, pass }) => {
    const file = path.join(dir, `gate-${name.replace(/[^a-z0-9]+/gi, '-')}.json`);
    writeFileSync(file, JSON.stringify(document, null, 2));
    const result = await runCli(['verify', file, ...flags], { cwd: dir });
    expect(result.code, result.stdout + result.stderr).toBe(pass ? 0 : 1);
    if (!pass && flags.length === 0) expect(result.stdout).toContain('--allow-unsigned');
    if (!pass && flags.join(' ') === '--trust other.pem') expect(result.stdout).toContain('--allow-untrusted');
  });

  it.each([
    ['--allow-unsigned', '--require-signature'],
    ['--allow-untrusted', '--require-trusted'],
  ])('%s with %s is a usage error', async (relax, require) => {
    const file = path.join(dir, 'gate-conflict.json');
    writeFileSync(file, JSON.stringify(signed(sample), null, 2));
    const result = await runCli(['verify', file, '--trust', 'signer.pem', relax, require], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^bomwright: E_USAGE: .*contradicts.*\n$/);
  });
});
