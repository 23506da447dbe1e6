import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { minimalBom, runCli, tempDir } from '../helpers.js';

/** A folder of `count` BOMs; every fifth one is invalid (version 0). */
function folder(count: number): string {
  const dir = tempDir();
  mkdirSync(path.join(dir, 'boms'));
  for (let i = 0; i < count; i++) {
    const components = Array.from({ length: 5 + (i % 7) }, (_, c) => ({
      type: 'library',
      name: `c${c}`,
      'bom-ref': `r${c}`,
    }));
    writeFileSync(
      path.join(dir, 'boms', `bom-${String(i).padStart(3, '0')}.json`),
      JSON.stringify(minimalBom('1.6', { version: i % 5 === 0 ? 0 : 1, components }), null, 2),
    );
  }
  return dir;
}

describe('validate: many files', () => {
  it('gives the same sorted report with worker threads as without', async () => {
    const dir = folder(30);
    const one = await runCli(['validate', 'boms', '--format', 'json', '--jobs', '1'], { cwd: dir });
    const two = await runCli(['validate', 'boms', '--format', 'json', '--jobs', '2'], { cwd: dir });
    expect(one.code).toBe(1);
    expect(two.code).toBe(1);
    expect(two.stdout).toBe(one.stdout);
    const report = JSON.parse(two.stdout);
    expect(report.summary).toMatchObject({ documents: 30, invalid: 6 });
    const paths = report.documents.map((d: { path: string }) => d.path);
    expect(paths).toEqual([...paths].sort());
    for (const format of ['sarif', 'junit']) {
      const a = await runCli(['validate', 'boms', '--format', format, '--jobs', '1'], { cwd: dir });
      const b = await runCli(['validate', 'boms', '--format', format, '--jobs', '2'], { cwd: dir });
      expect(b.stdout, format).toBe(a.stdout);
    }
  });

  it('streams text output file by file and ends with one summary', async () => {
    const dir = folder(24);
    const result = await runCli(['validate', 'boms', '--jobs', '2'], { cwd: dir });
    expect(result.code).toBe(1);
    const blocks = result.stdout.match(/^boms\/bom-\d+\.json {2}\(cyclonedx-1\.6\)$/gm) ?? [];
    expect(blocks).toHaveLength(5);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('5 errors, 0 warnings in 24 documents (5 invalid)');
    const github = await runCli(['validate', 'boms', '--jobs', '2', '--format', 'github'], { cwd: dir });
    expect(github.stdout.match(/^::error /gm)).toHaveLength(5);
    expect(github.stdout.trimEnd().split('\n').at(-1)).toBe('bomwright: 5 errors, 0 warnings in 24 documents');
  });

  it('a file that cannot be read fails that file, not the run', async () => {
    const { checkFile } = await import('../../src/node/check-file.js');
    const settings = {
      signatures: 'verify' as const,
      maxSize: 1 << 20,
      trustPaths: [],
      trustRootPaths: [],
      requireTrusted: false,
      allowExcludes: [],
    };
    // A directory cannot be read as a file, even by root.
    const outcome = await checkFile({ source: tempDir(), explicit: true }, settings, { keys: [], roots: [] });
    expect(outcome).toMatchObject({
      kind: 'failure',
      failure: expect.stringMatching(/^E_READ: Cannot read .+: is a directory$/),
    });
  });

  it('rejects --jobs below 1', async () => {
    const result = await runCli(['validate', 'boms', '--jobs', '0'], { cwd: folder(1) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--jobs must be a whole number of at least 1');
  });
});

describe('validate: progress', () => {
  it('draws nothing on a non-terminal, in CI or with --quiet unless forced; --progress forces it', async () => {
    const dir = folder(25);
    const quietRun = await runCli(['validate', 'boms', '--jobs', '2'], { cwd: dir, env: { CI: '' } });
    expect(quietRun.stderr).toBe('');
    const forced = await runCli(['validate', 'boms', '--jobs', '2', '--progress'], { cwd: dir, env: { CI: 'true' } });
    expect(forced.stderr).toMatch(/25\/25 files \| 5 with errors \| [\d.]+ files\/s \| ETA/);
    const off = await runCli(['validate', 'boms', '--progress', '--no-progress'], { cwd: dir });
    expect(off.stderr).toBe('');
  });
});

describe('output pipes', () => {
  it('exits quietly when the reader closes the pipe early', async () => {
    const { spawn } = await import('node:child_process');
    const { BIN } = await import('../helpers.js');
    const dir = folder(40);
    const child = spawn(process.execPath, [BIN, 'validate', 'boms', '--format', 'json', '--jobs', '1'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect([0, 1]).toContain(code);
  });
});
