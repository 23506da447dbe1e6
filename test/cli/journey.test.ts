/**
 * The journey of issue 44: a real failing BOM (the CycloneDX PHP Composer plugin's symfony demo) brought to pass
 * every built-in profile with bomwright's own commands only: the commands of docs/profiles/journey.md, run as
 * written through a shell (in JSON, and in XML after `convert`). Also: `init` and `add` alone make a document
 * that passes bsi-2.1.
 */
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_PROFILE_NAMES } from '../../src/node/builtin-profiles.js';
import { BIN, ROOT, runCli, tempDirs } from '../helpers.js';

const temp = tempDirs('bomwright-journey-');
const FIXTURE = path.join(ROOT, 'test/fixtures/real/cyclonedx-php-composer-symfony-1.6.json');

/** The `sh` block of the docs page: one command a line. */
function journeyCommands(): string[] {
  const page = readFileSync(path.join(ROOT, 'docs/profiles/journey.md'), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
  return block.split('\n').filter((line) => line.trim() !== '');
}

/** A folder with `bomwright` on the PATH (the built CLI), the BOM, and the artefacts it describes. */
function workspace(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = temp();
  const bin = path.join(dir, '.bin');
  mkdirSync(bin);
  writeFileSync(path.join(bin, 'bomwright'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(path.join(bin, 'bomwright'), 0o755);
  copyFileSync(FIXTURE, path.join(dir, 'bom.json'));
  // The zipballs Composer downloaded, each named as the end of its component's distribution URL.
  mkdirSync(path.join(dir, 'dist'));
  const bom = JSON.parse(readFileSync(FIXTURE, 'utf8')) as {
    components: { purl: string; externalReferences: { type: string; url: string }[] }[];
  };
  for (const component of bom.components) {
    const url = component.externalReferences.find((r) => r.type === 'distribution')!.url;
    writeFileSync(path.join(dir, 'dist', url.slice(url.lastIndexOf('/') + 1)), `zipball of ${component.purl}`);
  }
  writeFileSync(path.join(dir, 'demo.zip'), 'the demo application');
  return { dir, env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` } };
}

function sh(command: string, dir: string, env: NodeJS.ProcessEnv): { code: number; output: string } {
  try {
    const output = execFileSync('sh', ['-c', command], { cwd: dir, env, encoding: 'utf8', stdio: 'pipe' });
    return { code: 0, output };
  } catch (error) {
    const failed = error as { status: number | null; stdout: string; stderr: string };
    return { code: failed.status ?? -1, output: `${failed.stdout}${failed.stderr}` };
  }
}

async function verdicts(dir: string, file: string, trust: string[] = []): Promise<Record<string, number | null>> {
  const out: Record<string, number | null> = {};
  for (const name of BUILTIN_PROFILE_NAMES)
    out[name] = (await runCli(['validate', file, '--profile', name, ...trust], { cwd: dir })).code;
  return out;
}

describe('the journey: a real failing BOM brought to pass every built-in profile', () => {
  const commands = journeyCommands();

  it('is 21 bomwright commands, each one line', () => {
    expect(commands).toHaveLength(21);
    for (const command of commands) expect(command).toMatch(/^bomwright (set|add|hash|keygen|sign) /);
  });

  for (const syntax of ['json', 'xml'] as const) {
    it(
      `brings the symfony BOM from failing to passing every built-in profile (${syntax})`,
      { timeout: 600_000 },
      async () => {
        const { dir, env } = workspace();
        const file = `bom.${syntax}`;
        if (syntax === 'xml') expect(sh('bomwright convert bom.json -o bom.xml', dir, env).code).toBe(0);
        const before = await verdicts(dir, file);
        // As generated: bsi-2.1, bsi-2.0, cisa-2025, cisa-2026 and ntia-2021 fail; the CRA's two requirements are met.
        expect(before).toEqual({ 'ntia-2021': 1, 'cisa-2025': 1, 'cisa-2026': 1, 'bsi-2.0': 1, 'bsi-2.1': 1, cra: 0 });
        for (const command of commands) {
          const run = sh(command.replaceAll('bom.json', file), dir, env);
          expect(run.code, `${command}\n${run.output}`).toBe(0);
        }
        // The signature is checked against the key it was made with, as its receiver would.
        const trust = ['--trust', 'release.public.pem'];
        const after = await verdicts(dir, file, trust);
        expect(after).toEqual(Object.fromEntries(BUILTIN_PROFILE_NAMES.map((name) => [name, 0])));
        // Passing, and not one finding left, not even a SHOULD.
        const all = await runCli(
          ['validate', file, ...BUILTIN_PROFILE_NAMES.flatMap((n) => ['--profile', n]), ...trust, '--format', 'json'],
          { cwd: dir },
        );
        const report = JSON.parse(all.stdout) as { documents: { diagnostics: { ruleId: string }[] }[] };
        expect(report.documents[0]!.diagnostics.filter((d) => d.ruleId.startsWith('profile/'))).toEqual([]);
      },
    );
  }
});

describe('init and add alone', () => {
  for (const syntax of ['json', 'xml'] as const) {
    it(`make a document that passes bsi-2.1 (${syntax})`, { timeout: 300_000 }, async () => {
      const dir = temp();
      const file = `bom.${syntax}`;
      const bsi = [
        '--property',
        'bsi:component:executable=executable',
        '--property',
        'bsi:component:archive=archive',
        '--property',
        'bsi:component:structured=structured',
      ];
      const steps = [
        [
          'init',
          '-o',
          file,
          '--name',
          'app',
          '--component-version',
          '1.0.0',
          '--bom-ref',
          'app',
          '--sbom-author',
          'Jane Doe <jane@acme.example>',
          '--supplier',
          'ACME https://acme.example',
          '--license',
          'MIT',
          '--acknowledgement',
          'concluded',
          '--property',
          'bsi:component:filename=app-1.0.0.zip',
          ...bsi,
          '--distribution',
          'https://acme.example/app-1.0.0.zip',
          '--hash',
          `SHA-512:${'ab'.repeat(64)}`,
        ],
        [
          'add',
          'component',
          file,
          '--name',
          'lib',
          '--component-version',
          '2.0.0',
          '--bom-ref',
          'lib',
          '--supplier',
          'Lib Org <security@lib.example>',
          '--license',
          'Apache-2.0',
          '--acknowledgement',
          'concluded',
          '--property',
          'bsi:component:filename=lib-2.0.0.tgz',
          ...bsi,
          '--distribution',
          'https://lib.example/lib-2.0.0.tgz',
          '--hash',
          `SHA-512:${'cd'.repeat(64)}`,
        ],
        ['add', 'dependency', file, '--ref', 'app', '--depends-on', 'lib'],
      ];
      for (const step of steps) {
        const run = await runCli(step, { cwd: dir });
        expect(run.code, `${step.join(' ')}\n${run.stderr}`).toBe(0);
      }
      // Completeness is a statement of its own (BSI 2.1): without it the document falls short of just that.
      const short = await runCli(['validate', file, '--profile', 'bsi-2.1', '--format', 'json'], { cwd: dir });
      expect(short.code).toBe(1);
      const ids = (
        JSON.parse(short.stdout) as { documents: { diagnostics: { ruleId: string }[] }[] }
      ).documents[0]!.diagnostics.map((d) => d.ruleId);
      expect(ids).toEqual(['profile/bsi-2.1/depth.completeness']);
      expect((await runCli(['add', 'composition', file, '--aggregate', 'complete'], { cwd: dir })).code).toBe(0);
      expect((await runCli(['validate', file, '--profile', 'bsi-2.1'], { cwd: dir })).code).toBe(0);
    });
  }
});
