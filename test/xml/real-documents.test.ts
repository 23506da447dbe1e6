/**
 * Real documents other tools wrote (test/fixtures/real/, sources and licences in SOURCES.md): XML read into the
 * model and written again gives the same model and XML the official XSD accepts; JSON written as XML and read back
 * gives the JSON's model, less what the XML form cannot carry (each such member reported).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/index.js';
import { mapDocument } from '../../src/xml/model.js';
import { scanXml } from '../../src/xml/scan.js';
import { xmlSpecVersion } from '../../src/xml/versions.js';
import { writeXml } from '../../src/xml/write.js';
import { ROOT, tempDir } from '../helpers.js';
import { differences } from './model-differences.js';

const REAL = path.join(ROOT, 'test/fixtures/real');
const HAVE_XMLLINT = spawnSync('xmllint', ['--version']).status === 0;
const SCHEMA_DIR = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@cyclonedx/cyclonedx-library/package.json')),
  'res/schema',
);
const files = readdirSync(REAL).sort();
const xmlFiles = files.filter((f) => f.endsWith('.xml'));
const jsonFiles = files.filter((f) => f.endsWith('.json'));

function model(text: string): { version: string; document: Record<string, unknown> } {
  const scanned = scanXml(text.replace(/^\uFEFF/, ''));
  if (!scanned.ok) throw new Error(scanned.message);
  const version = xmlSpecVersion(scanned.root.namespace);
  if (version === undefined) throw new Error(`not CycloneDX: ${scanned.root.namespace}`);
  return { version, document: mapDocument(scanned.root, version).document };
}

describe('real documents of the generators, in both syntaxes', () => {
  it('holds XML and JSON of several generators', () => {
    expect(xmlFiles.length).toBeGreaterThanOrEqual(10);
    expect(jsonFiles.length).toBeGreaterThanOrEqual(8);
  });

  it('XML → model → XML → model gives the same model, with nothing left out', () => {
    for (const file of xmlFiles) {
      const { version, document } = model(readFileSync(path.join(REAL, file), 'utf8'));
      const dropped: string[] = [];
      const again = model(writeXml(document, { onDrop: (pointer) => dropped.push(pointer) }));
      expect(again.version, file).toBe(version);
      expect(dropped, file).toEqual([]);
      expect(differences(again.document, document), file).toEqual([]);
    }
  });

  it('JSON → XML → model gives the JSON model but for the members reported as left out', () => {
    for (const file of jsonFiles) {
      const json = JSON.parse(readFileSync(path.join(REAL, file), 'utf8')) as Record<string, unknown>;
      const dropped = new Set<string>();
      const { document } = model(writeXml(json, { onDrop: (pointer) => dropped.add(pointer) }));
      const { $schema: _, ...expected } = json;
      expect(
        differences(document, expected).filter((d) => !dropped.has(d.pointer)),
        file,
      ).toEqual([]);
    }
  });

  it('writes XML that bomwright validates as it validates the original', async () => {
    for (const file of xmlFiles) {
      const original = readFileSync(path.join(REAL, file), 'utf8');
      const rewritten = writeXml(model(original).document);
      const before = (await validate(original)).diagnostics.map((d) => d.ruleId).sort();
      const after = (await validate(rewritten)).diagnostics.map((d) => d.ruleId).sort();
      expect(after, file).toEqual(before.filter((id) => id !== 'read/byte-order-mark'));
    }
  });

  it.skipIf(!HAVE_XMLLINT)('writes XML that xmllint finds valid wherever the original was', () => {
    const dir = tempDir();
    for (const file of xmlFiles) {
      const original = path.join(REAL, file);
      const { version, document } = model(readFileSync(original, 'utf8'));
      const xsd = path.join(SCHEMA_DIR, `bom-${version}.SNAPSHOT.xsd`);
      const rewritten = path.join(dir, file);
      writeFileSync(rewritten, writeXml(document));
      const lint = (f: string) => spawnSync('xmllint', ['--noout', '--schema', xsd, f]).status;
      expect(lint(rewritten), file).toBe(lint(original));
    }
  });
});
