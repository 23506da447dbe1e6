/**
 * The workflows teams run every day, each through the CLI in a temporary git repository: a generator regenerates
 * the BOM (new serial number, version 1) and `bump --baseline` / `--base-ref` adopts it; a rename with an edit is
 * still held to the version rule.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, runCli, SAMPLES, tempDirs } from '../helpers.js';

const newDir = tempDirs();
const SAMPLE = JSON.parse(readFileSync(path.join(SAMPLES, 'valid-full-1.6.json'), 'utf8')) as Record<string, unknown>;

/** A repository whose first commit holds `files` (name → document). */
function repository(files: Record<string, unknown>): string {
  const dir = newDir();
  git(dir, 'init', '-q', '-b', 'main');
  for (const [name, document] of Object.entries(files)) writeFileSync(path.join(dir, name), json(document));
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'first');
  return dir;
}

const json = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`;
/** The members these tests look at. */
interface Bom {
  [member: string]: unknown;
  serialNumber?: unknown;
  version?: unknown;
  metadata: Record<string, unknown>;
  components: Record<string, unknown>[];
}
const read = (dir: string, file: string) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Bom;

/** What cdxgen, syft or trivy write on every run: a new serial number, version 1, a new timestamp. */
function regenerate(document: Record<string, unknown>, edit: (doc: Bom) => void = () => undefined): Bom {
  const doc = structuredClone(document) as Bom;
  edit(doc);
  doc.serialNumber = `urn:uuid:${randomUUID()}`;
  doc.version = 1;
  doc.metadata.timestamp = '2031-02-03T04:05:06Z';
  return doc;
}

describe('a regenerated BOM is adopted by bump --baseline / --base-ref', () => {
  it('regenerate → the hook refuses, naming the command → adopt → valid; again with a change → version + 1', async () => {
    const released: Record<string, unknown> = { ...SAMPLE, version: 3 };
    const dir = repository({ 'bom.json': released });
    writeFileSync(path.join(dir, 'bom.json'), json(regenerate(released)));
    git(dir, 'add', 'bom.json');
    const refused = await runCli(['validate', '--staged'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('run bomwright bump FILE --base-ref HEAD, which takes over its serialNumber');
    // The version is not compared across two serial numbers: one finding, not a second about version 1.
    expect(refused.stdout).not.toContain('expected 2');

    const adopted = await runCli(['bump', 'bom.json', '--base-ref', 'HEAD'], { cwd: dir });
    expect([adopted.code, adopted.stdout]).toEqual([
      0,
      'bom.json continues bom.json at HEAD: its serialNumber, version 3 (content unchanged: the same release)\n',
    ]);
    // The same release: serial number, version and timestamp are the committed ones.
    expect(read(dir, 'bom.json')).toEqual(released);
    git(dir, 'add', 'bom.json');
    expect((await runCli(['validate', '--staged'], { cwd: dir })).code).toBe(0);

    // The next run of the generator finds a new dependency version.
    const changed = regenerate(released, (doc) => (doc.components[0]!.version = '9.9.9'));
    writeFileSync(path.join(dir, 'bom.json'), json(changed));
    expect((await runCli(['bump', 'bom.json', '--base-ref', 'HEAD'], { cwd: dir })).stdout).toContain(
      'version 4 (content changed)',
    );
    const next = read(dir, 'bom.json');
    expect([next.serialNumber, next.version]).toEqual([released.serialNumber, 4]);
    expect(next.metadata.timestamp).not.toBe(changed.metadata.timestamp);
    git(dir, 'add', 'bom.json');
    expect((await runCli(['validate', '--staged'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['validate', 'bom.json', '--base-ref', 'HEAD'], { cwd: dir })).code).toBe(0);
    // Adopting again changes nothing.
    const again = await runCli(['bump', 'bom.json', '--base-ref', 'HEAD'], { cwd: dir });
    expect(again.stdout).toBe('bom.json already is version 4 of bom.json at HEAD; nothing to do\n');
    expect(read(dir, 'bom.json')).toEqual(next);
  });

  it('--baseline FILE adopts outside git; --check with it still only checks', async () => {
    const dir = newDir();
    const released: Record<string, unknown> = { ...SAMPLE, version: 7 };
    writeFileSync(path.join(dir, 'old.json'), json(released));
    const fresh = regenerate(released, (doc) => (doc.components[1]!.version = '0.0.2'));
    writeFileSync(path.join(dir, 'new.json'), json(fresh));
    const due = await runCli(['bump', 'new.json', '--check', '--baseline', 'old.json'], { cwd: dir });
    expect(due.code).toBe(1);
    expect(due.stdout).toContain('run bomwright bump FILE --baseline old.json');
    const validated = await runCli(['validate', 'new.json', '--baseline', 'old.json'], { cwd: dir });
    expect(validated.stdout).toContain('run bomwright bump FILE --baseline old.json');
    expect(read(dir, 'new.json')).toEqual(fresh);
    const adopted = await runCli(['bump', 'new.json', '--baseline', 'old.json'], { cwd: dir });
    expect(adopted.code).toBe(0);
    expect(read(dir, 'new.json')).toMatchObject({ serialNumber: released.serialNumber, version: 8 });
    expect((await runCli(['validate', 'new.json', '--baseline', 'old.json'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['bump', 'new.json', '--check', '--baseline', 'old.json'], { cwd: dir })).code).toBe(0);
  });

  it('refuses what it cannot adopt, and writes nothing', async () => {
    const dir = repository({ 'bom.json': SAMPLE });
    const { serialNumber: _s, ...unserialized } = SAMPLE;
    writeFileSync(path.join(dir, 'unserialized.json'), json(unserialized));
    const fresh = json(regenerate(SAMPLE));
    writeFileSync(path.join(dir, 'new.json'), fresh);
    // A baseline that is no BOM to continue is a document defect (1); the rest are usage errors (2).
    const cases: [string[], number, RegExp][] = [
      [['--baseline', 'unserialized.json'], 1, /^bomwright: E_INPUT: The baseline has no serialNumber to continue\n$/],
      [['--baseline', 'missing.json'], 2, /^bomwright: E_NOT_FOUND: .*missing\.json/],
      [
        ['--base-ref', 'HEAD'],
        2,
        /^bomwright: E_USAGE: new\.json does not exist at HEAD: there is no previous release/,
      ],
      [['--baseline', 'bom.json', '--base-ref', 'HEAD'], 2, /^bomwright: E_USAGE: .*mutually exclusive/],
    ];
    for (const [flags, code, message] of cases) {
      const result = await runCli(['bump', 'new.json', ...flags], { cwd: dir });
      expect([result.code, result.stderr], flags.join(' ')).toEqual([code, expect.stringMatching(message)]);
      expect(readFileSync(path.join(dir, 'new.json'), 'utf8')).toBe(fresh);
    }
  });
});

describe('a renamed BOM is still held to the version rule', () => {
  const released: Record<string, unknown> = { ...SAMPLE, version: 2 };
  const edited = () => {
    const doc = structuredClone(released) as Bom;
    doc.components[0]!.version = '9.9.9';
    return doc;
  };

  it('git mv + an edit: --staged, --base-ref HEAD and bump --check compare with the old path', async () => {
    const dir = repository({ 'bom.json': released });
    git(dir, 'mv', 'bom.json', 'product.cdx.json');
    writeFileSync(path.join(dir, 'product.cdx.json'), json(edited()));
    git(dir, 'add', 'product.cdx.json');
    const staged = await runCli(['validate', '--staged'], { cwd: dir });
    expect(staged.code).toBe(1);
    expect(staged.stdout).toContain('content changed but version is still 2; expected 3');
    expect(staged.stdout).toContain('(compared with HEAD:bom.json)');
    const ref = await runCli(['validate', 'product.cdx.json', '--base-ref', 'HEAD'], { cwd: dir });
    expect([ref.code, ref.stdout]).toEqual([1, expect.stringContaining('(compared with HEAD:bom.json)')]);
    expect((await runCli(['bump', 'product.cdx.json', '--check', '--base-ref', 'HEAD'], { cwd: dir })).code).toBe(1);
    // The fix the message names works on the renamed file.
    expect((await runCli(['bump', 'product.cdx.json'], { cwd: dir })).code).toBe(0);
    git(dir, 'add', 'product.cdx.json');
    expect((await runCli(['validate', '--staged'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['validate', 'product.cdx.json', '--base-ref', 'HEAD'], { cwd: dir })).code).toBe(0);
    // A rename alone changes nothing: version 2 stays right, and a bump would be refused.
    const plain = repository({ 'bom.json': released });
    git(plain, 'mv', 'bom.json', 'sbom.json');
    expect((await runCli(['validate', '--staged'], { cwd: plain })).code).toBe(0);
    git(plain, 'add', 'sbom.json');
    expect((await runCli(['bump', 'sbom.json'], { cwd: plain })).code).toBe(0);
    git(plain, 'add', 'sbom.json');
    const needless = await runCli(['validate', '--staged'], { cwd: plain });
    expect([needless.code, needless.stdout]).toEqual([1, expect.stringContaining('content is unchanged but version')]);
  });

  it('an edit too large for git to see the rename: the serial number names the previous release', async () => {
    const dir = repository({ 'bom.json': released });
    git(dir, 'rm', '-q', 'bom.json');
    // One line instead of a hundred: git's similarity is far below its 50 % threshold.
    writeFileSync(path.join(dir, 'product.cdx.json'), JSON.stringify(edited()));
    git(dir, 'add', 'product.cdx.json');
    expect(git(dir, 'diff', '--cached', '-M', '--name-status', 'HEAD')).toMatch(
      /^D\tbom\.json\nA\tproduct\.cdx\.json\n$/,
    );
    const staged = await runCli(['validate', '--staged'], { cwd: dir });
    expect([staged.code, staged.stdout]).toEqual([1, expect.stringContaining('(compared with HEAD:bom.json)')]);
    // Untracked (a plain mv, nothing staged yet) is found the same way by --base-ref.
    git(dir, 'reset', '-q');
    const ref = await runCli(['validate', 'product.cdx.json', '--base-ref', 'HEAD'], { cwd: dir });
    expect([ref.code, ref.stdout]).toEqual([1, expect.stringContaining('(compared with HEAD:bom.json)')]);
    // bump --base-ref adopts from the same place.
    expect((await runCli(['bump', 'product.cdx.json', '--base-ref', 'HEAD'], { cwd: dir })).stdout).toContain(
      'version 3 (content changed)',
    );
    expect((await runCli(['validate', 'product.cdx.json', '--base-ref', 'HEAD'], { cwd: dir })).code).toBe(0);
  });

  it('a new BOM with its own serial number stays new; a serial number two deleted files held names neither', async () => {
    const twin = { ...released, metadata: { ...(released.metadata as object), timestamp: '2020-01-01T00:00:00Z' } };
    const dir = repository({ 'a.json': released, 'b.json': twin });
    git(dir, 'rm', '-q', 'a.json', 'b.json');
    writeFileSync(
      path.join(dir, 'other.json'),
      JSON.stringify({ ...edited(), serialNumber: `urn:uuid:${randomUUID()}` }),
    );
    writeFileSync(path.join(dir, 'same-serial.json'), JSON.stringify(edited()));
    git(dir, 'add', '.');
    const result = await runCli(['validate', '--staged'], { cwd: dir });
    expect([result.code, result.stdout]).toEqual([0, expect.stringContaining('2 documents valid')]);
  });
});
