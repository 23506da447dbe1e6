/**
 * The self-merge sweep: every real BOM in the project (ten generators' documents, CycloneDX's VEX and CBOM examples)
 * merged with a copy of itself, with default options, gives back the same components, the same dependency edges and
 * the same VEX statements per component, without a conflict.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { merge, validate } from '../../src/index.js';
import { mapDocument } from '../../src/xml/model.js';
import { scanXml } from '../../src/xml/scan.js';
import { xmlSpecVersion } from '../../src/xml/versions.js';
import { ROOT } from '../helpers.js';
import { allComponents, edges, elementsByRef, labelOf } from './merge-fixtures.js';

type Json = Record<string, unknown>;
const FOLDERS = ['test/fixtures/real', 'test/fixtures/vex', 'test/fixtures/cbom'];
const files = FOLDERS.flatMap((folder) =>
  readdirSync(path.join(ROOT, folder))
    .filter((f) => f.endsWith('.json') || f.endsWith('.xml'))
    .map((f) => path.join(folder, f)),
).sort();

function read(file: string): Json {
  const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/^\uFEFF/, '');
  if (!file.endsWith('.xml')) return JSON.parse(text) as Json;
  const scanned = scanXml(text);
  if (!scanned.ok) throw new Error(scanned.message);
  const version = xmlSpecVersion(scanned.root.namespace)!;
  return mapDocument(scanned.root, version).document;
}

/** A component as a user tells it apart: what it is, not its bom-ref. */
function componentKey(c: Json): string {
  const crypto = (c.cryptoProperties ?? {}) as Json;
  const hashes = c.type === 'file' ? JSON.stringify(c.hashes ?? []) : '';
  return JSON.stringify([c.type, c.group, c.name, c.version, c.purl, crypto.assetType, hashes]);
}

/** Each VEX statement with the components it is about (a BOM-Link into another BOM as written). */
function statements(document: Json): Set<string> {
  const refs = elementsByRef(document);
  const out = new Set<string>();
  for (const v of (document.vulnerabilities ?? []) as Json[]) {
    const affected = ((v.affects ?? []) as Json[])
      .map((a) => String(a.ref))
      .map((ref) => (refs.has(ref) ? labelOf(refs.get(ref)) : ref))
      .sort();
    out.add(JSON.stringify([v.id, (v.analysis as Json | undefined)?.state, affected]));
  }
  return out;
}

const withoutSelfEdges = (set: Set<string>) => new Set([...set].filter((e) => !/^(.+) -> \1$/.test(e)));

describe('real BOMs merged with a copy of themselves, default options', () => {
  it('covers at least 30 documents of at least 8 generators, VEX examples and CBOMs included', () => {
    expect(files.length).toBeGreaterThanOrEqual(30);
    const generators = new Set(
      files.filter((f) => f.includes('/real/')).map((f) => path.basename(f).split('-').slice(0, 2).join('-')),
    );
    expect(generators.size).toBeGreaterThanOrEqual(8);
    expect(files.some((f) => f.includes('multi-sha256'))).toBe(true);
  });

  it.each(files)('%s: the same components, edges and VEX statements, no conflict', async (file) => {
    const original = read(file);
    const { document, summary, valid, diagnostics } = await merge(
      [
        { document: original, name: 'a' },
        { document: structuredClone(original), name: 'b' },
      ],
      { toolVersion: '9.9.9' },
    );
    expect(summary.conflicts).toEqual([]);
    // Valid, but for what the original already got wrong (a few carry placeholder hashes).
    const errors = (list: typeof diagnostics) =>
      new Set(list.filter((d) => d.severity === 'error').map((d) => d.ruleId));
    const own = errors((await validate(original, { signatures: 'ignore' })).diagnostics);
    expect([...errors(diagnostics)].filter((id) => !own.has(id))).toEqual([]);
    if (own.size === 0) expect(valid).toBe(true);
    const before = new Set(allComponents(original).map(componentKey));
    const after = allComponents(document).map(componentKey);
    expect(new Set(after)).toEqual(before);
    expect(after.length).toBe(before.size);
    expect(withoutSelfEdges(edges(document))).toEqual(withoutSelfEdges(edges(original)));
    expect(statements(document)).toEqual(statements(original));
  });
});
