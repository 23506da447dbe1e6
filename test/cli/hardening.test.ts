import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, runCli, SAMPLES, tempDir } from '../helpers.js';

const SAMPLE = readFileSync(path.join(SAMPLES, 'valid-full-1.6.json'), 'utf8');

function mkfifo(file: string): void {
  execFileSync('mkfifo', [file]);
}

describe('non-regular files are never read without a bound', () => {
  it('refuses a named FIFO at once in validate and verify (nothing blocks on open)', async () => {
    const dir = tempDir();
    const fifo = path.join(dir, 'pipe.json');
    mkfifo(fifo);
    for (const args of [
      ['validate', fifo],
      ['verify', fifo],
    ]) {
      // A pipe without a writer blocks a reader forever: reading it would hang the test until the runner's timeout.
      const result = await runCli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout + result.stderr).toMatch(/not a regular file/);
    }
  });

  it('refuses /dev/zero whatever --max-size says, instead of reading it forever', async () => {
    const result = await runCli(['validate', '/dev/zero', '--max-size', '1M']);
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/\/dev\/zero.*not a regular file/);
    expect((await runCli(['sign', '/dev/zero', '--key', '/dev/zero'])).code).toBe(2);
    expect((await runCli(['diff', '/dev/zero', '/dev/zero'])).code).toBe(2);
  });

  it('skips a FIFO found by a directory walk', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'bom.json'), SAMPLE);
    mkfifo(path.join(dir, 'pipe.json'));
    const result = await runCli(['validate', dir]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/1 document valid/);
  });

  it('reads standard input with the --max-size bound', async () => {
    const result = await runCli(['validate', '-', '--max-size', '1K'], { input: SAMPLE.padEnd(4096, ' ') });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/over the --max-size limit of 1024 bytes/);
  });
});

describe('git revisions go through one checked path', () => {
  function repository(): string {
    const dir = tempDir();
    git(dir, 'init', '-q');
    writeFileSync(path.join(dir, 'bom.json'), SAMPLE);
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'first');
    return dir;
  }

  it('never passes an option-like revision to git, and fails closed', async () => {
    const dir = repository();
    const pwned = path.join(dir, 'pwned');
    for (const args of [
      ['bump', 'bom.json', '--check', `--base-ref=--output=${pwned}`],
      ['validate', 'bom.json', `--base-ref=--output=${pwned}`],
    ]) {
      const result = await runCli(args, { cwd: dir });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/E_USAGE: Invalid git revision/);
    }
    expect(existsSync(pwned)).toBe(false);
    expect(readdirNames(dir)).toEqual(['.git', 'bom.json']);
  });

  it('makes an unknown revision a usage error, never "no bump due"', async () => {
    const dir = repository();
    for (const args of [
      ['bump', 'bom.json', '--check', '--base-ref', 'HAED'],
      ['validate', 'bom.json', '--base-ref', 'HAED'],
    ]) {
      const result = await runCli(args, { cwd: dir });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain('Unknown git revision "HAED"');
    }
    expect((await runCli(['bump', 'bom.json', '--check', '--base-ref', 'HEAD'], { cwd: dir })).code).toBe(0);
  });
});

function readdirNames(dir: string): string[] {
  return execFileSync('ls', ['-A', dir], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
}

describe('outputs that would destroy an input are refused', () => {
  it('validate -o onto an input, directly or through a link', async () => {
    const dir = tempDir();
    const bom = path.join(dir, 'same.json');
    writeFileSync(bom, SAMPLE);
    symlinkSync(bom, path.join(dir, 'alias.json'));
    for (const output of ['same.json', 'alias.json']) {
      const result = await runCli(['validate', 'same.json', '-f', 'sarif', '-o', output], { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/Refusing to write .*: it is an input of this command/);
    }
    // Found by a directory walk counts as well.
    expect((await runCli(['validate', '.', '-f', 'sarif', '-o', 'same.json'], { cwd: dir })).code).toBe(2);
    expect(readFileSync(bom, 'utf8')).toBe(SAMPLE);
  });

  it('sign -o onto the key, and bump -o onto the key', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'doc.json'), SAMPLE);
    expect((await runCli(['keygen', '--out', 'k'], { cwd: dir })).code).toBe(0);
    const key = readFileSync(path.join(dir, 'k.private.pem'), 'utf8');
    const signed = await runCli(['sign', 'doc.json', '-k', 'k.private.pem', '-o', 'k.private.pem'], { cwd: dir });
    expect(signed.code).toBe(2);
    expect(signed.stderr).toMatch(/it is the signing key/);
    const bumped = await runCli(['bump', 'doc.json', '-k', 'k.private.pem', '-o', 'k.private.pem'], { cwd: dir });
    expect(bumped.code).toBe(2);
    expect(readFileSync(path.join(dir, 'k.private.pem'), 'utf8')).toBe(key);
    expect(readFileSync(path.join(dir, 'doc.json'), 'utf8')).toBe(SAMPLE);
  });
});

describe('rewrites keep links and devices', () => {
  it('bump through a symbolic link rewrites the target and keeps the link', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'real'));
    writeFileSync(path.join(dir, 'real/bom.json'), SAMPLE);
    symlinkSync('real/bom.json', path.join(dir, 'link.json'));
    expect((await runCli(['bump', 'link.json'], { cwd: dir })).code).toBe(0);
    const version = (JSON.parse(SAMPLE) as { version: number }).version;
    expect(JSON.parse(readFileSync(path.join(dir, 'real/bom.json'), 'utf8')).version).toBe(version + 1);
    expect(execFileSync('find', [dir, '-name', 'link.json', '-type', 'l'], { encoding: 'utf8' })).toContain(
      'link.json',
    );
  });

  it('normalize -o /dev/stdout streams the document', async () => {
    const result = await runCli(['normalize', path.join(SAMPLES, 'valid-full-1.6.json'), '-o', '/dev/stdout']);
    expect(result.code).toBe(0);
    // Exactly the document: the status line goes to stderr then.
    expect(JSON.parse(result.stdout)).toMatchObject({ bomFormat: 'CycloneDX' });
    expect(result.stderr).toMatch(/^Normalized \/dev\/stdout/);
  });
});

describe('--jobs is clamped', () => {
  it('runs 12 files with --jobs 100000 like with --jobs 1', async () => {
    const dir = tempDir();
    for (let i = 0; i < 12; i++) writeFileSync(path.join(dir, `bom-${i}.json`), SAMPLE);
    const many = await runCli(['validate', dir, '--jobs', '100000', '-f', 'json']);
    const one = await runCli(['validate', dir, '--jobs', '1', '-f', 'json']);
    expect(many.code).toBe(0);
    expect(many.stdout).toBe(one.stdout);
  });
});

describe('diff', () => {
  it('exits 2 for input it cannot compare (1 means "the documents differ")', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'bom.json'), SAMPLE);
    writeFileSync(path.join(dir, 'broken.json'), '{"bomFormat": ');
    writeFileSync(path.join(dir, 'package.json'), '{"name": "x"}');
    for (const other of ['broken.json', 'package.json', 'missing.json']) {
      const result = await runCli(['diff', 'bom.json', other], { cwd: dir });
      expect(result.code, other).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('terminal output neutralises control characters from documents', () => {
  it('prints escape sequences in names and values as visible text', async () => {
    const dir = tempDir();
    const hostile = JSON.parse(SAMPLE) as { components: { name: string }[] };
    hostile.components[0]!.name = 'evil\u001b[2J\u001b]0;pwned\u0007\r\u202e';
    writeFileSync(path.join(dir, 'a.json'), SAMPLE);
    writeFileSync(path.join(dir, 'b.json'), JSON.stringify(hostile));
    const diff = await runCli(['diff', 'a.json', 'b.json'], { cwd: dir });
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain('evil\\u001b[2J\\u001b]0;pwned\\u0007\\u000d\\u202e');
    expect(diff.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    // In a validation message as well.
    const bad = { ...hostile, version: 'v\u001b[31m' };
    writeFileSync(path.join(dir, 'bad.json'), JSON.stringify(bad));
    const validate = await runCli(['validate', 'bad.json'], { cwd: dir });
    expect(validate.code).toBe(1);
    expect(validate.stdout).not.toMatch(/\u001b/);
  });
});

describe('bump --key keeps each signature as it was', () => {
  async function signedDocument(dir: string, ...signArgs: string[][]): Promise<string> {
    writeFileSync(path.join(dir, 'bom.json'), SAMPLE);
    for (const args of signArgs) expect((await runCli(['sign', 'bom.json', ...args], { cwd: dir })).code).toBe(0);
    return path.join(dir, 'bom.json');
  }

  it('keeps keyId signatures keyId signatures, so the trust store still verifies them', async () => {
    const dir = tempDir();
    expect((await runCli(['keygen', '--out', 'k', '--key-id', 'release'], { cwd: dir })).code).toBe(0);
    const file = await signedDocument(dir, [
      '-k',
      'k.private.pem',
      '--key-id',
      'release',
      '--target',
      'components',
      '--target',
      'root',
    ]);
    const before = JSON.parse(readFileSync(file, 'utf8'));
    expect(before.signature.keyId).toBe('release');
    expect(before.signature.publicKey).toBeUndefined();
    expect((await runCli(['bump', 'bom.json', '-k', 'k.private.pem'], { cwd: dir })).code).toBe(0);
    const after = JSON.parse(readFileSync(file, 'utf8'));
    expect(after.version).toBe(before.version + 1);
    expect(after.signature.keyId).toBe('release');
    expect(after.signature.publicKey).toBeUndefined();
    expect(after.components[0].signature.keyId).toBe('release');
    const verify = await runCli(['verify', 'bom.json', '--trust', 'k.public.jwk', '--require-trusted'], { cwd: dir });
    expect(verify.code, verify.stdout).toBe(0);
  });

  it('keeps a one-signer signers block, and refuses two signers with the reason', async () => {
    const dir = tempDir();
    for (const name of ['a', 'b']) expect((await runCli(['keygen', '--out', name], { cwd: dir })).code).toBe(0);
    const one = await signedDocument(dir, ['-k', 'a.private.pem', '--add']);
    expect((await runCli(['bump', 'bom.json', '-k', 'a.private.pem'], { cwd: dir })).code).toBe(0);
    expect(JSON.parse(readFileSync(one, 'utf8')).signature.signers).toHaveLength(1);
    const two = await signedDocument(dir, ['-k', 'a.private.pem', '--add'], ['-k', 'b.private.pem', '--add']);
    const untouched = readFileSync(two, 'utf8');
    const refused = await runCli(['bump', 'bom.json', '-k', 'a.private.pem'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/has 2 signers; bump re-signs with one key/);
    expect(readFileSync(two, 'utf8')).toBe(untouched);
  });
});

describe('messages say what is wrong', () => {
  it('add --purl refuses what is not a package URL; a real one is written', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'bom.json'), SAMPLE);
    const bad = await runCli(['add', 'component', 'bom.json', '--name', 'x', '--purl', 'not a purl'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"not a purl" is not a package URL \(/);
    expect(readFileSync(path.join(dir, 'bom.json'), 'utf8')).toBe(SAMPLE);
    const good = await runCli(['add', 'component', 'bom.json', '--name', 'x', '--purl', 'pkg:npm/%40s/x@1.0.0'], {
      cwd: dir,
    });
    expect(good.code).toBe(0);
  });

  it('init --from names a syntax error as one, with its position', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'package.json'), '{"name": "x",\n  "version": }');
    const result = await runCli(['init', '--from', 'package.json', '-o', 'bom.json'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/package\.json:2:\d+: .*\[json\/syntax\]/);
    expect(existsSync(path.join(dir, 'bom.json'))).toBe(false);
  });

  it('bump says why 2^53 - 1 cannot be bumped, and a too-long path is named as such', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'bom.json'), SAMPLE.replace(/"version": \d+/, `"version": ${2 ** 53 - 1}`));
    const result = await runCli(['bump', 'bom.json'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/not a whole number from 1 to 2\^53 - 2/);
    const long = await runCli(['validate', `${'x'.repeat(300)}.json`], { cwd: dir });
    expect(long.code).toBe(2);
    expect(long.stderr).not.toContain('E_INTERNAL');
  });
});
