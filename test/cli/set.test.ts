/** `set`, `hash` and `add property --component` through the built CLI, on a JSON file and its XML form. */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDocumentFile, writeDocumentFile } from '../../src/index.js';
import { minimalBom, runCli, tempDirs } from '../helpers.js';

const temp = tempDirs('bomwright-set-');

const bom = minimalBom('1.6', {
  metadata: { component: { type: 'application', 'bom-ref': 'app', name: 'app', version: '1.0.0' } },
  components: [
    { type: 'library', 'bom-ref': 'a', name: 'a', version: '1.0.0', purl: 'pkg:npm/a@1.0.0' },
    { type: 'library', 'bom-ref': 'b', name: 'b', version: '2.0.0', purl: 'pkg:pypi/b@2.0.0' },
  ],
});

async function model(file: string): Promise<Record<string, unknown>> {
  const read = await readDocumentFile(file);
  if (!read.ok) throw new Error(read.diagnostics[0]?.message ?? 'unreadable');
  return read.document.model as Record<string, unknown>;
}

for (const syntax of ['json', 'xml'] as const) {
  describe(`set, hash and add property over components (${syntax})`, () => {
    const setUp = () => {
      const dir = temp();
      const file = `bom.${syntax}`;
      writeDocumentFile(path.join(dir, file), bom, { to: syntax });
      return { dir, file, full: path.join(dir, file) };
    };

    it('sets a member in every component a selector matches and says how many', async () => {
      const { dir, file, full } = setUp();
      const run = await runCli(['set', file, '--component', 'pkg:npm/*', '/supplier', 'ACME https://acme.example'], {
        cwd: dir,
      });
      expect(run.stdout).toBe(`Set /supplier of pkg:npm/* (1 component) in ${file}\n`);
      const all = await runCli(['set', file, '--component', '!supplier', '/supplier', 'Other'], { cwd: dir });
      expect(all.stdout).toContain('(2 components)');
      const doc = await model(full);
      const components = doc.components as Record<string, unknown>[];
      expect(components.map((c) => c.supplier)).toEqual([
        { name: 'ACME', url: ['https://acme.example'] },
        { name: 'Other' },
      ]);
      expect(((doc.metadata as Record<string, unknown>).component as Record<string, unknown>).supplier).toEqual({
        name: 'Other',
      });
    });

    it('leaves the file as it was when the value breaks the schema (exit 1) or the member is owned (exit 2)', async () => {
      const { dir, file, full } = setUp();
      const before = readFileSync(full);
      const invalid = await runCli(['set', file, '/metadata/lifecycles', '[{"phase":"brewing"}]'], { cwd: dir });
      expect(invalid.code).toBe(1);
      expect(invalid.stderr).toMatch(/refusing to set \/metadata\/lifecycles: the document would get 1 error/);
      const owned = await runCli(['set', file, '/version', '2'], { cwd: dir });
      expect(owned.code).toBe(2);
      expect(owned.stderr).toMatch(/^bomwright: E_USAGE: set does not write version: .*bomwright bump/);
      expect(owned.stderr.trim().split('\n')).toHaveLength(1);
      expect(readFileSync(full)).toEqual(before);
      const valid = await runCli(['set', file, '/metadata/lifecycles/-', 'build'], { cwd: dir });
      expect(valid.code).toBe(0);
      expect((await model(full)).metadata).toMatchObject({ lifecycles: [{ phase: 'build' }] });
    });

    it('hashes an artefact into a component and a new distribution reference, with its file name', async () => {
      const { dir, file, full } = setUp();
      writeFileSync(path.join(dir, 'b-2.0.0.tar.gz'), 'b');
      const run = await runCli(
        ['hash', file, '--component', 'bom-ref=b', '--url', 'https://files.example/b-2.0.0.tar.gz', 'b-2.0.0.tar.gz'],
        { cwd: dir },
      );
      expect(run.code).toBe(0);
      const b = ((await model(full)).components as Record<string, unknown>[])[1]!;
      expect((b.hashes as { alg: string }[]).map((h) => h.alg)).toEqual(['SHA-256', 'SHA-512']);
      expect(b.externalReferences).toEqual([
        { type: 'distribution', url: 'https://files.example/b-2.0.0.tar.gz', hashes: b.hashes },
      ]);
      expect(b.properties).toEqual([{ name: 'bsi:component:filename', value: 'b-2.0.0.tar.gz' }]);
      const again = await runCli(
        ['add', 'property', file, '--component', '*', '--name', 'bsi:component:archive', '--value', 'archive'],
        { cwd: dir },
      );
      expect(again.stdout).toContain('(3 components)');
    });
  });
}
