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
      const verify = await runCli(['verify', file, ...flags, ...(requireSignature ? ['--require-signature'] : [])], {
        cwd: dir,
      });
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
