/**
 * A large XML document's libxml2 check runs in a worker thread while the main thread reads the model and runs the
 * rules (src/xml/engine-thread.ts). Both paths must give the same results, diagnostic for diagnostic; the
 * decision (size, cores, the --jobs pool, a DOCTYPE) is probed through an installation whose worker entry is
 * broken, so a run that took the worker says so; a crashed worker is one line, never a hang.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { XML_WORKER_MIN_LENGTH } from '../../src/xml/engine-thread.js';
import { ROOT, runCli, SAMPLES, tempDirs } from '../helpers.js';

const newDir = tempDirs('bomwright-xml-parallel-');
const NS = 'http://cyclonedx.org/schema/bom/1.6';
const SERIAL = 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79';
const SIGNATURES = path.join(ROOT, 'test/xml/fixtures/signatures');
const TRUST = path.join(SIGNATURES, 'TEST-KEY-rsa.public.pem');

/** A BOM of `n` components; `broken` adds a duplicate bom-ref, an unresolved dependency and schema findings. */
function largeBom(n: number, broken: boolean): string {
  const components: string[] = [];
  for (let i = 0; i < n; i++) {
    const type = broken && i % 997 === 5 ? 'gadget' : 'library';
    const ref = broken && i === n - 1 ? 'ref-0' : `ref-${i}`;
    components.push(
      `    <component type="${type}" bom-ref="${ref}">\n      <name>lib-${i}</name>\n      <version>1.${i}.0</version>\n` +
        `      <purl>pkg:npm/lib-${i}@1.${i}.0</purl>\n    </component>`,
    );
  }
  const dependencies = [`    <dependency ref="ref-1"><dependency ref="${broken ? 'nowhere' : 'ref-2'}"/></dependency>`];
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<bom xmlns="${NS}" serialNumber="${SERIAL}" version="1">\n` +
    `  <components>\n${components.join('\n')}\n  </components>\n  <dependencies>\n${dependencies.join('\n')}\n` +
    `  </dependencies>\n</bom>\n`
  );
}

/** The document padded with white space to exactly `length` characters. */
function padded(text: string, length: number): string {
  expect(text.length).toBeLessThanOrEqual(length);
  return text + ' '.repeat(length - text.length);
}

const ALWAYS = { BOMWRIGHT_TEST_XML_WORKER: 'always' };
const NEVER = { BOMWRIGHT_TEST_XML_WORKER: 'never' };

describe('XML validation in a worker thread', () => {
  const samples = readdirSync(SAMPLES)
    .filter((f) => f.endsWith('.xml'))
    .map((f) => path.join(SAMPLES, f));
  const signed = readdirSync(SIGNATURES)
    .filter((f) => f.endsWith('.xml'))
    .map((f) => path.join(SIGNATURES, f));

  const large = path.join(newDir(), 'large-broken.xml');
  writeFileSync(large, largeBom(25_000, true));

  /** The json report of both paths, which must be the same, byte for byte. */
  async function bothPaths(args: string[]): Promise<string> {
    const inThread = await runCli(['validate', '-f', 'json', ...args], { env: NEVER });
    const inWorker = await runCli(['validate', '-f', 'json', ...args], { env: ALWAYS });
    expect(inThread.stderr).toBe('');
    expect(inWorker.stderr).toBe('');
    expect(JSON.parse(inWorker.stdout)).toEqual(JSON.parse(inThread.stdout));
    expect(inWorker.stdout).toBe(inThread.stdout);
    expect(inWorker.code).toBe(inThread.code);
    return inThread.stdout;
  }

  it('gives the same report as the main thread alone for every sample: valid, each rule broken, not well-formed, DOCTYPE, too deep', async () => {
    expect(samples.length).toBeGreaterThan(20);
    expect(samples.some((f) => f.endsWith('invalid-doctype-1.6.xml'))).toBe(true);
    expect(samples.some((f) => f.endsWith('invalid-too-deep-1.6.xml'))).toBe(true);
    expect(samples.some((f) => f.endsWith('invalid-syntax-1.6.xml'))).toBe(true);
    await bothPaths(samples);
    await bothPaths(['--baseline', path.join(SAMPLES, 'valid-full-1.6.xml'), path.join(SAMPLES, 'valid-full-1.6.xml')]);
  });

  it('gives the same report for signed documents, and when signatures are required', async () => {
    expect(signed.length).toBe(2);
    await bothPaths(['--trust', TRUST, '--require-trusted', ...signed]);
    await bothPaths(['--signatures', 'require', path.join(SAMPLES, 'valid-full-1.6.xml')]);
  });

  it('gives the same report for a large document with findings, which takes the worker by its size alone', async () => {
    expect(readFileSync(large, 'utf8').length).toBeGreaterThanOrEqual(XML_WORKER_MIN_LENGTH);
    const report = await bothPaths([large]);
    const bySize = await runCli(['validate', '-f', 'json', large], { env: { BOMWRIGHT_TEST_XML_WORKER: '' } });
    expect(bySize.stdout).toBe(report);
    // The comparison is not vacuous: the large document's findings are all there, located.
    const found = (
      JSON.parse(report) as {
        documents: { diagnostics: { ruleId: string; pointer: string; line: number; column: number }[] }[];
      }
    ).documents[0]!.diagnostics;
    expect(found.map((d) => d.ruleId).sort()).toEqual([
      'ref/duplicate-bom-ref',
      'ref/unresolved',
      ...Array<string>(26).fill('schema/enum'),
    ]);
    expect(found.find((d) => d.ruleId === 'schema/enum')).toMatchObject({
      pointer: '/bom/components/component[6]/@type',
      line: 29,
      column: 16,
    });
  });

  it('gives the same results through the library API (dist/index.js)', () => {
    const script = [
      "import { readFileSync } from 'node:fs';",
      `const { validate } = await import(${JSON.stringify(path.join(ROOT, 'dist/index.js'))});`,
      'const out = [];',
      'for (const file of process.argv.slice(1)) {',
      '  const result = await validate(readFileSync(file));',
      '  out.push({ file, result });',
      '}',
      'process.stdout.write(JSON.stringify(out));',
    ].join('\n');
    // One of each kind (a worker starts for each document on this path: all samples would take long).
    const kinds = ['valid-full-1.7', 'invalid-syntax-1.6', 'invalid-duplicate-bom-ref-1.6', 'invalid-doctype-1.6'];
    const files = [
      ...kinds.map((k) => path.join(SAMPLES, `${k}.xml`)),
      path.join(SAMPLES, 'invalid-enum-1.1.xml'),
      ...signed,
      large,
    ];
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, ['--input-type=module', '-e', script, ...files], {
        env: { ...process.env, ...env },
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      });
    const inThread = run(NEVER);
    const inWorker = run(ALWAYS);
    expect(inThread.stderr).toBe('');
    expect(inWorker.stderr).toBe('');
    expect(JSON.parse(inWorker.stdout)).toEqual(JSON.parse(inThread.stdout));
    const results = JSON.parse(inWorker.stdout) as { result: { syntax?: string; valid: boolean } }[];
    expect(results.filter((r) => r.result.syntax === 'xml')).toHaveLength(files.length);
    expect(results.at(-1)!.result.valid).toBe(false);
  });

  describe('which documents go to the worker (an installation whose worker entry fails)', () => {
    /** A copy of the CLI whose XML worker entry is `workerSource`: its bundles are real files, found from there. */
    function brokenInstall(workerSource: string): string {
      const dir = newDir();
      mkdirSync(path.join(dir, 'bin'));
      mkdirSync(path.join(dir, 'dist'));
      copyFileSync(path.join(ROOT, 'bin/bomwright.cjs'), path.join(dir, 'bin/bomwright.cjs'));
      copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
      cpSync(path.join(ROOT, 'dist/bundle'), path.join(dir, 'dist/bundle'), { recursive: true });
      for (const linked of ['dist/runtime', 'node_modules', 'generated'])
        symlinkSync(path.join(ROOT, linked), path.join(dir, linked));
      writeFileSync(path.join(dir, 'dist/bundle/xml-worker.cjs'), workerSource);
      return dir;
    }

    const install = brokenInstall("throw new Error('the worker entry is broken\\nsecond line');\n");
    const cli = (args: string[], env: Record<string, string> = {}, prefix: string[] = []) => {
      const command = [...prefix, process.execPath, path.join(install, 'bin/bomwright.cjs'), ...args];
      return spawnSync(command[0]!, command.slice(1), {
        cwd: ROOT,
        env: { ...process.env, BOMWRIGHT_TEST_XML_WORKER: '', ...env },
        encoding: 'utf8',
        timeout: 60_000,
      });
    };
    const CRASHED = "E_INTERNAL: The XML engine's thread failed: the worker entry is broken\n";
    const dir = newDir();
    const valid = largeBom(20_000, false);
    expect(valid.length).toBeGreaterThan(XML_WORKER_MIN_LENGTH / 2);
    const below = path.join(dir, 'below.xml');
    const at = path.join(dir, 'at.xml');
    writeFileSync(below, padded(valid, XML_WORKER_MIN_LENGTH - 1));
    writeFileSync(at, padded(valid, XML_WORKER_MIN_LENGTH));

    it('a document of the threshold’s length or more goes to the worker; a crash there is one line, exit 2', () => {
      const run = cli(['validate', at]);
      expect(run.stdout).toBe(
        `${at}: ${CRASHED}\n0 errors, 0 warnings, 1 input unreadable in 1 document (0 invalid)\n`,
      );
      expect(run.status).toBe(2);
      const full = cli(['validate', at], { BOMWRIGHT_NO_FAST_PATH: '1' });
      expect(full.stdout).toContain(CRASHED);
      expect(full.status).toBe(2);
    });

    it('a document one character shorter stays in the main thread', () => {
      const run = cli(['validate', below]);
      expect(run.stdout).toBe('1 document valid\n');
      expect(run.status).toBe(0);
    });

    it('the test switch forces either path', () => {
      expect(cli(['validate', at], NEVER).status).toBe(0);
      const small = cli(['validate', path.join(SAMPLES, 'valid-full-1.6.xml')], ALWAYS);
      expect(small.stdout).toContain(CRASHED);
      expect(small.status).toBe(2);
    });

    it('a worker that ends without answering is one line too, never a hang', () => {
      for (const [source, message] of [
        ['process.exit(7);\n', "E_INTERNAL: The XML engine's thread stopped before it answered (exit code 7)"],
        ['', "E_INTERNAL: The XML engine's thread stopped before it answered (exit code 0)"],
      ] as const) {
        const other = brokenInstall(source);
        const run = spawnSync(process.execPath, [path.join(other, 'bin/bomwright.cjs'), 'validate', at], {
          env: { ...process.env, BOMWRIGHT_TEST_XML_WORKER: '' },
          encoding: 'utf8',
          timeout: 60_000,
        });
        expect(run.stdout).toContain(`: ${message}\n`);
        expect(run.status).toBe(2);
      }
    });

    it('a document with a DOCTYPE never reaches libxml2: the reader refuses it in the main thread', () => {
      const doctype = path.join(dir, 'doctype.xml');
      writeFileSync(doctype, padded(valid.replace('<bom ', '<!DOCTYPE bom>\n<bom '), XML_WORKER_MIN_LENGTH + 10));
      const run = cli(['validate', doctype]);
      expect(run.stdout).toContain('xml/doctype');
      expect(run.stdout).not.toContain('E_INTERNAL');
      expect(run.status).toBe(1);
    });

    it('with one core, the document stays in the main thread', () => {
      const run = cli(['validate', at], {}, ['taskset', '-c', '0']);
      if (run.error !== undefined) return void console.warn('taskset is not available: one core not tested');
      expect(run.stdout).toBe('1 document valid\n');
      expect(run.status).toBe(0);
    });

    it('in the threads of the --jobs pool, documents stay in their thread (the pool has the cores)', () => {
      const many = newDir();
      for (let i = 0; i < 8; i++) writeFileSync(path.join(many, `bom-${i}.xml`), readFileSync(at));
      const run = cli(['validate', '--jobs', '2', many]);
      expect(run.stdout).not.toContain('E_INTERNAL');
      expect(run.stdout).toContain('8 documents valid');
      expect(run.status).toBe(0);
    });
  });
});
