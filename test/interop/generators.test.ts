import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../src/index.js';
import { ROOT, runCli, tempDir } from '../helpers.js';

/**
 * BOMs of this very project written by the official CycloneDX npm generator, from its own lock file and
 * installed packages (offline), for every spec version the generator offers: bomwright must call each one valid,
 * and keep it valid through its own operations. Generated once per run into a temp folder, never committed.
 */
const GENERATOR = path.join(ROOT, 'test/node_modules/@cyclonedx/cyclonedx-npm/bin/cyclonedx-npm-cli.js');
const VERSIONS = ['1.2', '1.3', '1.4', '1.5', '1.6', '1.7'];
const dir = tempDir('bomwright-generated-');
const file = (version: string) => path.join(dir, `project-${version}.json`);

function generate(version: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [GENERATOR, '--spec-version', version, '--output-format', 'JSON', '--output-file', file(version)],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`cyclonedx-npm ${version}: ${stderr}`))));
  });
}

describe('BOMs from the official CycloneDX npm generator', () => {
  beforeAll(async () => {
    await Promise.all(VERSIONS.map(generate));
  }, 120_000);

  it.each(VERSIONS)('%s: validates with zero errors (and warnings listed, if any)', async (version) => {
    const text = readFileSync(file(version), 'utf8');
    const document = JSON.parse(text) as { specVersion: string; components?: unknown[] };
    expect(document.specVersion).toBe(version);
    expect(document.components?.length).toBeGreaterThan(50);
    const result = await validate(text);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it.each(VERSIONS)('%s: stays valid through normalize, bump, add, and sign then verify', async (version) => {
    const work = tempDir();
    const bom = path.join(work, 'bom.json');
    copyFileSync(file(version), bom);
    const step = async (args: string[]) => {
      const result = await runCli(args, { cwd: work });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      const check = await validate(readFileSync(bom));
      expect(
        check.diagnostics.filter((d) => d.severity === 'error'),
        args[0],
      ).toEqual([]);
    };
    await step(['normalize', 'bom.json']);
    await step(['bump', 'bom.json']);
    await step([
      'add',
      'component',
      'bom.json',
      '--name',
      'extra',
      '--version',
      '1.0.0',
      '--purl',
      'pkg:npm/extra@1.0.0',
    ]);
    await step(['set', 'bom.json', 'metadata.supplier', '{"name":"ACME"}']);
    if (Number(version.split('.')[1]) >= 4) {
      expect((await runCli(['keygen', '--out', 'k'], { cwd: work })).code).toBe(0);
      await step(['sign', 'bom.json', '--key', 'k.private.pem', '--target', 'components', '--target', 'root']);
      const verified = await runCli(['verify', 'bom.json', '--trust', 'k.public.jwk', '--require-trusted'], {
        cwd: work,
      });
      expect(verified.code, verified.stdout).toBe(0);
    }
  });
});
