/**
 * Every command on CycloneDX XML, through the built CLI as a user runs it: read through the one document reader,
 * written in place with the layout kept where only values change, written afresh (XSD order) otherwise, and in
 * the syntax --to, the output's extension or the input chooses. The official twin fixtures (the same BOM in JSON
 * and XML) are read in place from ../shared/conformance/cyclonedx.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDocument } from '../../src/index.js';
import { CONFORMANCE, git, ROOT, runCli, tempDirs } from '../helpers.js';

const NS = 'http://cyclonedx.org/schema/bom/1.6';
const SERIAL = 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79';
const KEYS = path.join(ROOT, 'test/xml/fixtures/signatures');
const PRIVATE = path.join(KEYS, 'TEST-KEY-rsa.private.pem');
const PUBLIC = path.join(KEYS, 'TEST-KEY-rsa.public.pem');
const TWINS = path.join(CONFORMANCE, 'cyclonedx');
const newDir = tempDirs('bomwright-xml-commands-');

/** A hand-made 1.6 document: a comment, four-space indentation, and a component on one line. */
const XML = `<?xml version="1.0" encoding="UTF-8"?>
<!-- kept by hand -->
<bom xmlns="${NS}" serialNumber="${SERIAL}" version="1">
    <metadata>
        <timestamp>2024-01-01T00:00:00Z</timestamp>
    </metadata>
    <components>
        <component type="library" bom-ref="pkg:npm/a@1.0.0"><name>a</name><version>1.0.0</version><purl>pkg:npm/a@1.0.0</purl></component>
    </components>
    <dependencies>
        <dependency ref="pkg:npm/a@1.0.0"/>
    </dependencies>
</bom>
`;

function project(text = XML, name = 'bom.xml'): { dir: string; file: string } {
  const dir = newDir();
  writeFileSync(path.join(dir, name), text);
  return { dir, file: path.join(dir, name) };
}

function model(file: string): Record<string, unknown> {
  const read = readDocument(readFileSync(file));
  if (!read.ok) throw new Error(`${file}: ${read.diagnostics[0]?.message}`);
  return read.document.model as Record<string, unknown>;
}

/** The lines of `after` that differ from `before` (both the same number of lines). */
function changedLines(before: string, after: string): string[] {
  const old = before.split('\n');
  const now = after.split('\n');
  expect(now.length).toBe(old.length);
  return now.filter((line, i) => line !== old[i]);
}

describe('bump on XML', () => {
  it('bumps in place: only the version and the timestamp change, the rest of the text as it was', async () => {
    const { dir, file } = project();
    const run = await runCli(['bump', 'bom.xml'], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Bumped bom.xml to version 2\n');
    const changed = changedLines(XML, readFileSync(file, 'utf8'));
    expect(changed).toHaveLength(2);
    expect(changed[0]).toContain('version="2"');
    expect(changed[1]).toMatch(/^ {8}<timestamp>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/timestamp>$/);
    expect((await runCli(['validate', 'bom.xml'], { cwd: dir })).code).toBe(0);
  });

  it('the version rule says "run bomwright bump" on XML, and bomwright bump does it', async () => {
    const { dir } = project();
    writeFileSync(path.join(dir, 'previous.xml'), XML);
    writeFileSync(path.join(dir, 'bom.xml'), XML.replaceAll('1.0.0', '1.0.1'));
    const before = await runCli(['validate', 'bom.xml', '--baseline', 'previous.xml'], { cwd: dir });
    expect(before.code).toBe(1);
    expect(before.stdout).toContain('run bomwright bump');
    const due = await runCli(['bump', '--check', '--baseline', 'previous.xml', 'bom.xml'], { cwd: dir });
    expect(due.code).toBe(1);
    expect(due.stdout).toContain('content changed but version is still 1; expected 2');
    expect((await runCli(['bump', 'bom.xml'], { cwd: dir })).code).toBe(0);
    const after = await runCli(['validate', 'bom.xml', '--baseline', 'previous.xml'], { cwd: dir });
    expect(after.stdout).not.toContain('bom/version-rule');
    expect(after.code).toBe(0);
    const check = await runCli(['bump', '--check', '--baseline', 'previous.xml', 'bom.xml'], { cwd: dir });
    expect(check.stdout).toBe('bom.xml: no bump due\n');
    expect(check.code).toBe(0);
  });

  it('bump --check reads XML against --base-ref (exit 0 unchanged, 1 due), and says unreadable XML is trouble (exit 2)', async () => {
    const { dir } = project();
    git(dir, 'init', '-q');
    git(dir, 'add', 'bom.xml');
    git(dir, 'commit', '-qm', 'first');
    const unchanged = await runCli(['bump', '--check', 'bom.xml'], { cwd: dir });
    expect(unchanged.stdout).toBe('bom.xml: no bump due\n');
    expect(unchanged.code).toBe(0);
    writeFileSync(path.join(dir, 'bom.xml'), XML.replace('<name>a</name>', '<name>a2</name>'));
    const due = await runCli(['bump', '--check', '--base-ref', 'HEAD', 'bom.xml'], { cwd: dir });
    expect(due.code).toBe(1);
    expect(due.stdout).toContain('run bomwright bump');
    writeFileSync(path.join(dir, 'bom.xml'), XML.replace('</components>', ''));
    const broken = await runCli(['bump', '--check', 'bom.xml'], { cwd: dir });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^bomwright: E_READ: bom\.xml:\d+:\d+: Not well-formed XML: .*\[xml\/syntax\]\n$/);
  });

  it('--to json (or an -o ending .json) writes the bumped model as JSON', async () => {
    const { dir, file } = project();
    const run = await runCli(['bump', 'bom.xml', '-o', 'bom.json'], { cwd: dir });
    expect(run.code).toBe(0);
    const json = JSON.parse(readFileSync(path.join(dir, 'bom.json'), 'utf8')) as Record<string, unknown>;
    expect(json).toEqual({ ...model(file), version: 2, metadata: json.metadata });
    expect(readFileSync(file, 'utf8')).toBe(XML);
    const to = await runCli(['bump', 'bom.xml', '--to', 'json', '-o', 'out.txt'], { cwd: dir });
    expect(to.code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, 'out.txt'), 'utf8'))).toMatchObject({ version: 2 });
  });

  it('a signed XML BOM: refused without --key or --drop-signatures (untouched), re-signed with --key, verified', async () => {
    const { dir, file } = project();
    expect((await runCli(['sign', 'bom.xml', '--key', PRIVATE], { cwd: dir })).code).toBe(0);
    const signed = readFileSync(file, 'utf8');
    const refused = await runCli(['bump', 'bom.xml'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('E_USAGE: bom.xml is signed (1 signature); bumping invalidates them');
    expect(readFileSync(file, 'utf8')).toBe(signed);
    const resigned = await runCli(['bump', 'bom.xml', '--key', PRIVATE], { cwd: dir });
    expect(resigned.stdout).toBe('Bumped bom.xml to version 2, re-signed 1 object\n');
    const verified = await runCli(['verify', 'bom.xml', '--trust', PUBLIC, '--require-signature'], { cwd: dir });
    expect(verified.stdout).toContain('valid, trusted');
    expect(verified.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('<!-- kept by hand -->');
    const dropped = await runCli(['bump', 'bom.xml', '--drop-signatures'], { cwd: dir });
    expect(dropped.code).toBe(0);
    expect(dropped.stderr).toContain('removed 1 signature that no longer verifies (the XML signature)');
    expect(readFileSync(file, 'utf8')).not.toContain('Signature');
    expect(model(file)).toMatchObject({ version: 3 });
  });
});

describe('editing XML', () => {
  it('set changes a value in place; a signed document needs --drop-signatures', async () => {
    const { dir, file } = project();
    const run = await runCli(['set', 'bom.xml', 'metadata.timestamp', '2025-02-03T04:05:06Z'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(changedLines(XML, readFileSync(file, 'utf8'))).toEqual([
      '        <timestamp>2025-02-03T04:05:06Z</timestamp>',
    ]);
    await runCli(['sign', 'bom.xml', '--key', PRIVATE], { cwd: dir });
    const signed = readFileSync(file, 'utf8');
    const refused = await runCli(['set', 'bom.xml', 'timestamp', '2025-02-03T04:05:07Z'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('carries an XML signature, which the edit would invalidate');
    expect(readFileSync(file, 'utf8')).toBe(signed);
    const dropped = await runCli(['set', 'bom.xml', 'timestamp', '2025-02-03T04:05:07Z', '--drop-signatures'], {
      cwd: dir,
    });
    expect(dropped.code).toBe(0);
    expect(readFileSync(file, 'utf8')).not.toContain('Signature');
  });

  it('add writes the XML afresh in XSD order, valid, with the new component', async () => {
    const { dir, file } = project();
    const run = await runCli(['add', 'component', 'bom.xml', '--name', 'b', '--version', '2.0.0'], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^<\?xml/);
    expect((model(file).components as unknown[]).length).toBe(2);
    expect((await runCli(['validate', 'bom.xml'], { cwd: dir })).code).toBe(0);
  });

  it('normalize --check reads XML; normalize keeps an unchanged signed document as it is', async () => {
    const { dir, file } = project();
    const check = await runCli(['normalize', '--check', 'bom.xml'], { cwd: dir });
    expect(check.stdout).toBe('bom.xml: normalized\n');
    expect(check.code).toBe(0);
    await runCli(['sign', 'bom.xml', '--key', PRIVATE], { cwd: dir });
    const signed = readFileSync(file, 'utf8');
    expect((await runCli(['normalize', 'bom.xml'], { cwd: dir })).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(signed);
    // As JSON the XML signature cannot come along: refused, the file untouched.
    const refused = await runCli(['normalize', 'bom.xml', '-o', 'bom.json'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(existsSync(path.join(dir, 'bom.json'))).toBe(false);
  });

  it('init writes XML for -o bom.xml (and --to xml), valid for its version', async () => {
    const dir = newDir();
    const run = await runCli(['init', '--name', 'app', '--version', '1.0.0', '-o', 'bom.xml'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(model(path.join(dir, 'bom.xml'))).toMatchObject({ specVersion: '1.6', version: 1 });
    expect((await runCli(['validate', 'bom.xml'], { cwd: dir })).code).toBe(0);
    const cbom = await runCli(['init', '--format', 'cbom', '--name', 'c', '-o', 'c.xml'], { cwd: dir });
    expect(cbom.code).toBe(2);
    expect(cbom.stderr).toContain('E_CONVERT: CBOM has no XML form');
    expect(existsSync(path.join(dir, 'c.xml'))).toBe(false);
  });
});

describe('sign and verify across syntaxes', () => {
  it('sign -o a .json file signs the model with JSF; verify reads it, and XML from standard input', async () => {
    const { dir, file } = project();
    const run = await runCli(['sign', 'bom.xml', '--key', PRIVATE, '-o', 'signed.json'], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(XML);
    const signed = JSON.parse(readFileSync(path.join(dir, 'signed.json'), 'utf8')) as Record<string, unknown>;
    expect(signed.signature).toMatchObject({ algorithm: 'RS256' });
    const verified = await runCli(['verify', 'signed.json', '--trust', PUBLIC], { cwd: dir });
    expect(verified.code).toBe(0);
    await runCli(['sign', 'bom.xml', '--key', PRIVATE], { cwd: dir });
    const stdin = await runCli(['verify', '-', '--trust', PUBLIC], { cwd: dir, input: readFileSync(file) });
    expect(stdin.stdout).toContain('valid, trusted');
    expect(stdin.code).toBe(0);
  });

  it('a signed document is not written in the other syntax with its signatures silently lost', async () => {
    const { dir, file } = project();
    await runCli(['sign', 'bom.xml', '--key', PRIVATE, '-o', 'signed.json'], { cwd: dir });
    const normalized = await runCli(['normalize', 'signed.json', '-o', 'n.xml'], { cwd: dir });
    expect(normalized.code).toBe(2);
    expect(normalized.stderr).toContain('signed.json is signed, and its signatures cannot be carried into XML');
    expect(existsSync(path.join(dir, 'n.xml'))).toBe(false);
    await runCli(['sign', 'bom.xml', '--key', PRIVATE], { cwd: dir });
    const signed = readFileSync(file, 'utf8');
    const set = await runCli(['set', 'bom.xml', 'timestamp', '2025-01-01T00:00:00Z', '--to', 'json'], { cwd: dir });
    expect(set.code).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe(signed);
  });

  it('what XML cannot carry (a JSF signature of a component) is left out with a warning line, when asked to drop it', async () => {
    const { dir } = project();
    await runCli(['bump', 'bom.xml', '-o', 'bom.json'], { cwd: dir });
    await runCli(['sign', 'bom.json', '--key', PRIVATE, '--target', 'components'], { cwd: dir });
    const refused = await runCli(['set', 'bom.json', 'timestamp', '2025-01-01T00:00:00Z', '-o', 'out.xml'], {
      cwd: dir,
    });
    expect(refused.code).toBe(2);
    expect(existsSync(path.join(dir, 'out.xml'))).toBe(false);
    const run = await runCli(
      ['set', 'bom.json', 'timestamp', '2025-01-01T00:00:00Z', '--drop-signatures', '-o', 'out.xml'],
      { cwd: dir },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('bomwright: warning: dropped /components/0/signature: a JSF signature has no XML form\n');
    expect((await runCli(['validate', 'out.xml'], { cwd: dir })).code).toBe(0);
  });

  it('sign --to xml signs a JSON BOM written as XML, with an XML signature', async () => {
    const { dir } = project();
    await runCli(['bump', 'bom.xml', '-o', 'bom.json'], { cwd: dir });
    const run = await runCli(['sign', 'bom.json', '--key', PRIVATE, '--to', 'xml', '-o', 'signed.xml'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('XML signature over the whole document');
    const verified = await runCli(['verify', 'signed.xml', '--trust', PUBLIC, '--require-signature'], { cwd: dir });
    expect(verified.code).toBe(0);
  });
});

describe('diff and merge across syntaxes', () => {
  const twins = ['valid-dependency-1.6', 'valid-assembly-1.6', 'valid-component-hashes-1.6'];
  const have = twins.every((name) => existsSync(path.join(TWINS, 'xml/1.6', `${name}.xml`)));

  it.skipIf(!have)('diff of an official fixture and its XML twin: no difference (exit 0)', async () => {
    for (const name of twins) {
      const run = await runCli([
        'diff',
        path.join(TWINS, 'json/1.6', `${name}.json`),
        path.join(TWINS, 'xml/1.6', `${name}.xml`),
      ]);
      expect(run.stdout, name).toBe('No differences\n');
      expect(run.code, name).toBe(0);
    }
  });
  if (!have) console.warn(`official twin fixtures absent from ${TWINS}: cross-syntax diff not checked`);

  it('diff of two XML versions lists the change (exit 1)', async () => {
    const { dir } = project();
    writeFileSync(path.join(dir, 'new.xml'), XML.replace('<name>a</name>', '<name>a2</name>'));
    const run = await runCli(['diff', 'bom.xml', 'new.xml'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('a2');
  });

  it('merge takes JSON and XML inputs; the output syntax follows -o, else the first input', async () => {
    const { dir } = project();
    const other = {
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      serialNumber: 'urn:uuid:1e671687-395b-41f5-a30f-a58921a69b79',
      version: 1,
      components: [
        { type: 'library', 'bom-ref': 'pkg:npm/b@2.0.0', name: 'b', version: '2.0.0', purl: 'pkg:npm/b@2.0.0' },
      ],
    };
    writeFileSync(path.join(dir, 'other.json'), JSON.stringify(other));
    const toJson = await runCli(['merge', 'bom.xml', 'other.json', '-o', 'merged.json'], { cwd: dir });
    expect(toJson.stderr).toBe('');
    expect(toJson.code).toBe(0);
    const merged = model(path.join(dir, 'merged.json'));
    expect((merged.components as { name: string }[]).map((c) => c.name).sort()).toEqual(['a', 'b']);
    const toXml = await runCli(['merge', 'other.json', 'bom.xml', '-o', 'merged.xml'], { cwd: dir });
    expect(toXml.code).toBe(0);
    expect(readFileSync(path.join(dir, 'merged.xml'), 'utf8')).toMatch(/^<\?xml/);
    expect((model(path.join(dir, 'merged.xml')).components as unknown[]).length).toBe(2);
    expect((await runCli(['validate', 'merged.xml'], { cwd: dir })).code).toBe(0);
  });
});
