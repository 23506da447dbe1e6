/**
 * CycloneDX XML through the CLI, with no new option: recognised by content, found in directory walks (a pom.xml
 * is skipped as a non-BOM JSON file is), every report format, sharding and merge-reports, standard input, and the
 * version rule against a baseline file, a git revision and the index.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, runCli, tempDirs } from '../helpers.js';

const NS = 'http://cyclonedx.org/schema/bom/1.6';
const SERIAL = 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79';
const newDir = tempDirs('bomwright-xml-cli-');

const xml = (version: number, components: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<bom xmlns="${NS}" serialNumber="${SERIAL}" version="${version}">\n  <components>\n${components}\n  </components>\n</bom>\n`;
const lib = (ref: string) => `    <component type="library" bom-ref="${ref}"><name>${ref}</name></component>`;

function project(): string {
  const dir = newDir();
  writeFileSync(path.join(dir, 'bad.xml'), xml(1, `${lib('a')}\n${lib('a')}`));
  writeFileSync(path.join(dir, 'good.xml'), xml(1, lib('a')));
  writeFileSync(
    path.join(dir, 'pom.xml'),
    '<?xml version="1.0"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0"/>\n',
  );
  writeFileSync(path.join(dir, 'bom.json'), JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.6', version: 1 }));
  return dir;
}

describe('XML through the CLI', () => {
  it('a directory walk takes *.xml BOMs, skips other XML, and reports XML locations', async () => {
    const dir = project();
    const run = await runCli(['validate', '.', '-f', 'json'], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as {
      summary: { documents: number; errors: number };
      documents: { path: string; format?: string; diagnostics: { ruleId: string; pointer: string; line: number }[] }[];
    };
    expect(report.summary).toMatchObject({ documents: 3, errors: 1 });
    expect(report.documents.map((d) => [d.path, d.format])).toEqual([
      ['bad.xml', 'cyclonedx-1.6'],
      ['bom.json', 'cyclonedx-1.6'],
      ['good.xml', 'cyclonedx-1.6'],
    ]);
    expect(report.documents[0]!.diagnostics).toMatchObject([
      { ruleId: 'ref/duplicate-bom-ref', pointer: '/bom/components/component[2]/@bom-ref', line: 5 },
    ]);
  });

  it('a walk takes the XML whose root declares the namespace, in any case of extension, and skips mentions', async () => {
    const dir = newDir();
    const files: Record<string, string> = {
      // The namespace only in a comment, or on an element below the root: not a BOM.
      'pom.xml': `<?xml version="1.0"?>\n<!-- an SBOM in ${NS} is made by the plugin -->\n<project xmlns="http://maven.apache.org/POM/4.0.0"/>\n`,
      'wrapped.xml': `<reports><bom xmlns="${NS}" version="1"/></reports>`,
      // Found: an upper-case extension, a prefix, a long comment with markup in it before the root.
      'BOM.XML': xml(1, lib('a')),
      'prefixed.xml': `<?xml version="1.0"?>\n<cdx:bom xmlns:cdx="${NS}" version="1"/>\n`,
      'commented.xml': `<?xml version="1.0"?>\n<!-- ${'<licence text> '.repeat(10_000)} -->\n<?pi x?>\n<bom a=">" xmlns="${NS}" version="1"/>\n`,
    };
    for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
    const run = await runCli(['validate', '.', '-f', 'json'], { cwd: dir });
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as { documents: { path: string; format?: string }[] };
    expect(report.documents.map((d) => [d.path, d.format])).toEqual([
      ['BOM.XML', 'cyclonedx-1.6'],
      ['commented.xml', 'cyclonedx-1.6'],
      ['prefixed.xml', 'cyclonedx-1.6'],
    ]);
  });

  it('a pom.xml named on the command line is not a BOM, said in one line', async () => {
    const dir = project();
    const run = await runCli(['validate', 'pom.xml'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "pom.xml:2:1  error  The XML document's root is <project> in namespace http://maven.apache.org/POM/4.0.0, not a CycloneDX <bom>  bom/not-a-bom",
    );
  });

  it.each(['text', 'json', 'sarif', 'junit', 'github', 'html'])('-f %s reports the XML finding', async (format) => {
    const dir = project();
    const run = await runCli(['validate', 'bad.xml', 'good.xml', '-f', format], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('ref/duplicate-bom-ref');
    expect(run.stdout).toContain(format === 'html' ? 'component[2]' : '/bom/components/component[2]/@bom-ref');
  });

  it('sharded runs merge into the unsharded report, byte for byte', async () => {
    const dir = project();
    const whole = await runCli(['validate', '.', '-f', 'json'], { cwd: dir });
    for (const i of [1, 2]) {
      const shard = await runCli(['validate', '.', '-f', 'json', '--shard', `${i}/2`, '-o', `s${i}.json`], {
        cwd: dir,
      });
      expect(shard.stderr).toBe('');
    }
    const merged = await runCli(['merge-reports', 's1.json', 's2.json', '-f', 'json'], { cwd: dir });
    expect(merged.stderr).toBe('');
    expect(merged.stdout).toBe(whole.stdout);
  });

  it('reads XML from standard input', async () => {
    const run = await runCli(['validate', '-'], { input: xml(1, `${lib('a')}\n${lib('a')}`) });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('<stdin>:5:');
    expect(run.stdout).toContain('ref/duplicate-bom-ref');
  });

  it('--baseline, --base-ref and --staged apply the version rule to XML', async () => {
    const dir = newDir();
    git(dir, 'init', '-q');
    writeFileSync(path.join(dir, 'bom.xml'), xml(1, lib('a')));
    git(dir, 'add', 'bom.xml');
    git(dir, 'commit', '-qm', 'first');
    writeFileSync(path.join(dir, 'old.xml'), readFileSync(path.join(dir, 'bom.xml')));
    writeFileSync(path.join(dir, 'bom.xml'), xml(1, `${lib('a')}\n${lib('b')}`));
    for (const args of [
      ['--baseline', 'old.xml'],
      ['--base-ref', 'HEAD'],
    ]) {
      const run = await runCli(['validate', 'bom.xml', ...args], { cwd: dir });
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stdout).toContain('bom/version-rule');
    }
    git(dir, 'add', 'bom.xml');
    const staged = await runCli(['validate', '--staged'], { cwd: dir });
    expect(staged.code).toBe(1);
    expect(staged.stdout).toContain('bom/version-rule');
    writeFileSync(path.join(dir, 'bom.xml'), xml(2, `${lib('a')}\n${lib('b')}`));
    git(dir, 'add', 'bom.xml');
    const bumped = await runCli(['validate', '--staged'], { cwd: dir });
    expect(bumped.stdout).toBe('1 document valid\n');
    expect(bumped.code).toBe(0);
  });
});
