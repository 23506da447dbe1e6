/**
 * The fast path (src/cli/fast.ts, bin/bomwright.cjs): the command lines it answers give the same standard output,
 * standard error and exit code as the full CLI, byte for byte, and it answers exactly the command lines it claims.
 * BOMWRIGHT_NO_FAST_PATH=1 sends every command line through the full CLI.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, SAMPLES, tempDirs } from '../helpers.js';

const tempDir = tempDirs('bomwright-fast-');
const dir = tempDir();
// Records the bundles a run compiles (every bundle goes through vm.Script) and whether node:crypto was loaded.
const TRACE = path.join(dir, 'trace.cjs');
writeFileSync(
  TRACE,
  `
  const vm = require('node:vm');
  const seen = [];
  const Script = vm.Script;
  vm.Script = class extends Script { constructor(source, options) { super(source, options); seen.push(require('node:path').basename(options.filename)); } };
  process.on('exit', () => require('node:fs').writeFileSync(process.env.TRACE_OUT, JSON.stringify({
    bundles: seen,
    builtins: process.moduleLoadList.filter((m) => /^NativeModule (crypto|child_process|worker_threads)$/.test(m)),
  })));
  `,
);

const VALID = path.join(SAMPLES, 'valid-full-1.6.json');
const INVALID = path.join(SAMPLES, 'invalid-enum-1.5.json');
const XML = path.join(SAMPLES, 'invalid-duplicate-bom-ref-1.6.xml');
const SIGNED = path.join(SAMPLES, 'invalid-signature-1.6.json');
// A folder of a few documents, reported in the order of their paths by the sorted formats.
const FOLDER = path.join(dir, 'boms');
mkdirSync(FOLDER);
for (const file of [VALID, INVALID, XML, SIGNED]) copyFileSync(file, path.join(FOLDER, path.basename(file)));

// A folder of one document: a working folder whose report has one order, whatever the workers do.
const ONE = path.join(dir, 'one');
mkdirSync(ONE);
copyFileSync(INVALID, path.join(ONE, 'bom.json'));

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  bundles: string[];
  builtins: string[];
}

function run(args: string[], options: { fast: boolean; cwd?: string; input?: string }): Run {
  const out = path.join(tempDir(), 'trace.json');
  const result = spawnSync(process.execPath, ['--require', TRACE, BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    encoding: 'utf8',
    input: options.input ?? '',
    env: { ...process.env, TRACE_OUT: out, BOMWRIGHT_NO_FAST_PATH: options.fast ? '0' : '1' },
  });
  const trace = JSON.parse(readFileSync(out, 'utf8')) as { bundles: string[]; builtins: string[] };
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, ...trace };
}

/** Runs both ways, checks they agree, and returns the fast way's run. */
function both(args: string[], options: { cwd?: string; input?: string } = {}): Run {
  const fast = run(args, { ...options, fast: true });
  const full = run(args, { ...options, fast: false });
  expect(full.bundles).toContain('cli.cjs');
  expect({ status: fast.status, stdout: fast.stdout, stderr: fast.stderr }).toEqual({
    status: full.status,
    stdout: full.stdout,
    stderr: full.stderr,
  });
  return fast;
}

describe('validate through the fast path', () => {
  const answered: { name: string; args: string[]; status: number; cwd?: string }[] = [
    { name: 'one valid document', args: ['validate', VALID], status: 0 },
    { name: 'one invalid document', args: ['validate', INVALID], status: 1 },
    { name: 'CycloneDX XML', args: ['validate', XML], status: 1 },
    { name: 'a broken signature', args: ['validate', SIGNED], status: 1 },
    { name: 'a missing file', args: ['validate', 'no-such-file.json'], status: 2 },
    { name: 'two files, json report', args: ['validate', VALID, INVALID, '--format', 'json'], status: 1 },
    { name: '-q and -f sarif', args: ['validate', '-q', INVALID, '-f', 'sarif'], status: 1 },
    {
      name: 'a folder, junit, --no-progress',
      args: ['validate', FOLDER, '--format', 'junit', '--no-progress'],
      status: 1,
    },
    { name: 'github annotations', args: ['validate', INVALID, '--format', 'github'], status: 1 },
    { name: 'html', args: ['validate', VALID, '--format', 'html'], status: 0 },
    { name: '--progress, --quiet', args: ['validate', '--progress', VALID, '--quiet'], status: 0 },
    { name: 'no operand: the working folder', args: ['validate', '-f', 'json'], status: 1, cwd: FOLDER },
    {
      name: 'two profiles',
      args: ['validate', VALID, '--profile', 'ntia-2021', '--profile', 'cra', '-f', 'json'],
      status: 1,
    },
    { name: '--profile twice', args: ['validate', VALID, '--profile', 'bsi-2.1', '--profile', 'cra'], status: 1 },
    { name: 'a profile before the operand', args: ['validate', '--profile', 'cra', VALID, '-f', 'json'], status: 0 },
    {
      name: 'a second word after --profile is an operand',
      args: ['validate', VALID, '--profile', 'cra', 'ntia-2021'],
      status: 2,
    },
    { name: 'an unknown profile', args: ['validate', VALID, '--profile', 'bsi2.1'], status: 2 },
  ];
  it.each(answered)('$name: the full CLI’s output and exit code, without loading it', ({ args, status, cwd }) => {
    const fast = both(args, cwd === undefined ? {} : { cwd });
    expect(fast.status).toBe(status);
    expect(fast.bundles[0]).toBe('fast.cjs');
    expect(fast.bundles).not.toContain('cli.cjs');
  });

  it('loads neither node:crypto, node:child_process nor node:worker_threads for one unsigned document', () => {
    const fast = both(['validate', VALID]);
    expect(fast.builtins).toEqual([]);
    // A signature needs crypto: loaded on first use.
    expect(both(['validate', SIGNED]).builtins).toContain('NativeModule crypto');
  });

  const declined: { name: string; args: string[]; input?: string }[] = [
    { name: '--format=json', args: ['validate', VALID, '--format=json'] },
    { name: 'an unknown format', args: ['validate', VALID, '--format', 'yaml'] },
    { name: 'a format without its value', args: ['validate', VALID, '--format'] },
    { name: 'a format followed by an option', args: ['validate', VALID, '--format', '--quiet'] },
    { name: 'the format twice', args: ['validate', VALID, '-f', 'json', '--format', 'text'] },
    { name: '--quiet true', args: ['validate', '--quiet', 'true', VALID] },
    { name: '-q False', args: ['validate', '-q', 'False', VALID] },
    { name: '--no-progress false', args: ['validate', '--no-progress', 'false', VALID] },
    { name: '--quiet twice', args: ['validate', '-q', '--quiet', VALID] },
    { name: '--progress and --no-progress', args: ['validate', '--progress', '--no-progress', VALID] },
    { name: 'an option it does not know', args: ['validate', VALID, '--jobs', '1'] },
    { name: 'a misspelt option', args: ['validate', VALID, '--quite'] },
    { name: 'standard input', args: ['validate', '-'], input: readFileSync(VALID, 'utf8') },
    { name: 'the end of options', args: ['validate', '--', VALID] },
    { name: 'an operand yargs reads as a number', args: ['validate', '1.5e3'] },
    { name: 'a hexadecimal operand', args: ['validate', '0x1F'] },
    { name: 'an empty operand', args: ['validate', ''] },
    { name: '--profile without a value', args: ['validate', VALID, '--profile'] },
    { name: '--profile before an option', args: ['validate', VALID, '--profile', '-q'] },
    { name: '--profile=cra', args: ['validate', VALID, '--profile=cra'] },
    { name: 'a numeric profile', args: ['validate', VALID, '--profile', '12'] },
    { name: 'help on validate', args: ['validate', '--help'] },
    { name: 'a misspelt command', args: ['validat', VALID] },
  ];
  it.each(declined)('$name: left to the full CLI', ({ args, input }) => {
    const fast = both(args, { cwd: ONE, ...(input === undefined ? {} : { input }) });
    expect(fast.bundles).toContain('cli.cjs');
  });
});

describe('--version and --help without the CLI', () => {
  it.each([['--version'], ['--help'], ['-h']])('%s prints what yargs prints, loading no bundle', (flag) => {
    const fast = both([flag]);
    expect(fast.status).toBe(0);
    expect(fast.stdout.length).toBeGreaterThan(4);
    expect(fast.bundles).toEqual([]);
  });

  it('leaves --version with anything else to the full CLI', () => {
    expect(both(['--version', '--help']).bundles).toContain('cli.cjs');
    expect(both(['--help', 'validate']).bundles).toContain('cli.cjs');
  });
});
