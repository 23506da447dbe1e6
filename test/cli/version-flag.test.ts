import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, SAMPLES, tempDir } from '../helpers.js';

const SAMPLE = readFileSync(path.join(SAMPLES, 'valid-full-1.6.json'), 'utf8');
const OWN_VERSION = (JSON.parse(readFileSync(path.join(SAMPLES, '../package.json'), 'utf8')) as { version: string })
  .version;

/** Every command, with what it needs to run, and whether --version V means the component's version there. */
const COMMANDS: { args: string[]; componentVersion: boolean }[] = [
  { args: ['validate', 'bom.json'], componentVersion: false },
  { args: ['sign', 'bom.json', '--key', 'k.private.pem'], componentVersion: false },
  { args: ['verify', 'bom.json'], componentVersion: false },
  { args: ['init', '--name', 'demo', '-o', 'new.json'], componentVersion: true },
  { args: ['add', 'component', 'bom.json', '--name', 'left-pad'], componentVersion: true },
  { args: ['add', 'service', 'bom.json', '--name', 'api'], componentVersion: true },
  { args: ['set', 'bom.json', 'metadata.supplier', '{"name":"S"}'], componentVersion: false },
  { args: ['bump', 'bom.json'], componentVersion: false },
  { args: ['normalize', 'bom.json'], componentVersion: false },
  { args: ['diff', 'bom.json', 'bom.json'], componentVersion: false },
  { args: ['convert', 'bom.json', '-o', 'out.json'], componentVersion: false },
  { args: ['keygen', '--out', 'other'], componentVersion: false },
];

describe('--version on a command', () => {
  it.each(COMMANDS)(
    '$args.0 $args.1 --version 1.3.0: does the work with that version, or exits 2',
    async ({ args, componentVersion }) => {
      const dir = tempDir();
      writeFileSync(path.join(dir, 'bom.json'), SAMPLE);
      expect((await runCli(['keygen', '--out', 'k'], { cwd: dir })).code).toBe(0);
      const result = await runCli([...args, '--version', '1.3.0'], { cwd: dir });
      // Never bomwright's own version and a silent success.
      expect(result.stdout.trim()).not.toBe(OWN_VERSION);
      if (componentVersion) {
        expect(result.code, result.stderr).toBe(0);
        const file = args[0] === 'init' ? 'new.json' : 'bom.json';
        expect(readFileSync(path.join(dir, file), 'utf8')).toContain('"version": "1.3.0"');
      } else {
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(
          /^bomwright: E_USAGE: unknown option --version; see "bomwright [a-z]+ --help"\n$/,
        );
        expect(readFileSync(path.join(dir, 'bom.json'), 'utf8')).toBe(SAMPLE);
      }
    },
  );

  it('is bomwright’s version at the top level', async () => {
    const result = await runCli(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: `${OWN_VERSION}\n` });
  });

  it('disagreeing --version and --component-version is a usage error', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'bom.json'), SAMPLE);
    const result = await runCli(
      ['add', 'component', 'bom.json', '--name', 'x', '--version', '1', '--component-version', '2'],
      {
        cwd: dir,
      },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/disagree/);
  });
});

describe('init for newcomers', () => {
  it('takes the component from the package.json beside it when no --name is given', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: '@acme/demo', version: '2.1.0', license: 'MIT' }),
    );
    const result = await runCli(['init', '-o', 'bom.json'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const bom = JSON.parse(readFileSync(path.join(dir, 'bom.json'), 'utf8'));
    expect(bom.metadata.component).toMatchObject({
      group: '@acme',
      name: 'demo',
      version: '2.1.0',
      purl: 'pkg:npm/%40acme/demo@2.1.0',
    });
  });

  it('says which flag gives the component version a 1.3 document needs', async () => {
    const dir = tempDir();
    const result = await runCli(['init', '--name', 'demo', '--spec-version', '1.3', '-o', 'bom.json'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('give it with --component-version (or --version)');
    expect(existsSync(path.join(dir, 'bom.json'))).toBe(false);
  });
});
