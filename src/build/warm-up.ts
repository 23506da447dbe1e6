/**
 * Runs the bundled CLI over documents of every supported format and output format, valid and invalid, then
 * stores V8's compiled code for each bundle (see src/runtime/code-cache.ts). A run that reaches code the
 * warm-up did not is still correct, only that code is compiled on the spot.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireBundle, writeCodeCaches } from '../runtime/code-cache.js';
import { SPEC_FORMATS } from '../formats/formats.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** What the warm-up hands the CLI bundle's main(): the build runs the bundle, it does not import the CLI's sources. */
interface WarmUpIo {
  argv: string[];
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const cli = requireBundle(path.join(root, 'dist/bundle/cli.cjs')) as {
  main: (io: WarmUpIo) => Promise<number>;
  writeCodeCaches: () => string[];
};
/** The fast path's bundle (src/cli/fast.ts): its own copy of the code-cache loader, so its own caches to write. */
const fast = requireBundle(path.join(root, 'dist/bundle/fast.cjs')) as {
  validateFast: (
    io: WarmUpIo,
    args: { paths: string[]; format: string; quiet: boolean; progress: boolean | undefined },
  ) => Promise<number | undefined>;
  writeCodeCaches: () => string[];
};

const dir = mkdtempSync(path.join(tmpdir(), 'bomwright-warm-up-'));
try {
  const files: string[] = [];
  for (const format of SPEC_FORMATS) {
    const cbom = format.family === 'cbom';
    const base = {
      bomFormat: cbom ? 'CBOM' : 'CycloneDX',
      specVersion: format.specVersion,
      serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
      version: 1,
      metadata: { timestamp: '2026-01-01T00:00:00Z', authors: [{ name: 'A', email: 'a@example.com' }] },
      components: Array.from({ length: 20 }, (_, i) => ({
        type: 'library',
        'bom-ref': `c${i}`,
        name: `c${i}`,
        version: '1.0.0',
        purl: `pkg:npm/c${i}@1.0.0`,
        hashes: [{ alg: 'SHA-256', content: 'a'.repeat(64) }],
        licenses: [{ license: { id: 'MIT' } }],
        externalReferences: [{ type: 'vcs', url: `git+https://example.com/c${i}.git` }],
      })),
      dependencies: [{ ref: 'c0', dependsOn: ['c1'] }],
    };
    const valid = path.join(dir, `valid-${format.id}.json`);
    writeFileSync(valid, JSON.stringify(base, null, 2));
    const invalid = path.join(dir, `invalid-${format.id}.json`);
    const broken = structuredClone(base) as Record<string, unknown> & { components: Record<string, unknown>[] };
    broken.version = 0;
    broken.components[1]!['bom-ref'] = 'c0';
    broken.components[2]!.licenses = [{ license: { id: 'NOT-A-LICENSE' } }];
    broken.components[3]!.type = 'no-such-type';
    writeFileSync(invalid, JSON.stringify(broken, null, 2).replace('"name": "c4",', '"name": "c4", "name": "dup",'));
    files.push(valid, invalid);
  }
  const quiet = () => undefined;
  for (const format of ['text', 'json', 'sarif', 'junit', 'github']) {
    // --jobs 1: the validators must load in this thread for their code caches to be written here.
    await cli.main({
      argv: ['validate', ...files, '--format', format, '--jobs', '1'],
      cwd: dir,
      stdout: quiet,
      stderr: quiet,
    });
  }
  await cli.main({ argv: ['validate', dir, '--jobs', '1'], cwd: dir, stdout: quiet, stderr: quiet });
  for (const format of ['text', 'json', 'sarif', 'junit', 'github']) {
    const io = { argv: [], cwd: dir, stdout: quiet, stderr: quiet };
    await fast.validateFast(io, { paths: files, format, quiet: false, progress: false });
  }
  const written = [...cli.writeCodeCaches(), ...fast.writeCodeCaches(), ...writeCodeCaches()];
  // Standard error: the build runs inside `npm pack`, whose standard output is the tarball's name and nothing else.
  process.stderr.write(`code caches: ${written.map((f) => path.relative(root, f)).join(', ')}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// The top-level help as yargs prints it through a pipe, for bin/bomwright.cjs to print without loading the CLI.
const help = spawnSync(process.execPath, [path.join(root, 'bin/bomwright.cjs'), '--help'], {
  encoding: 'utf8',
  env: { ...process.env, BOMWRIGHT_NO_FAST_PATH: '1' },
});
if (help.status !== 0 || help.stderr !== '') throw new Error(`bomwright --help failed: ${help.stderr}`);
writeFileSync(path.join(root, 'dist/bundle/help.txt'), help.stdout);
