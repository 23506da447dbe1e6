/**
 * Conversion across both syntaxes, in-process: real documents of the generators (test/fixtures/real/, both
 * syntaxes) converted to every version and written as XML and as JSON validate; JSON → XML → JSON gives the JSON
 * back but for what the writer reports it cannot carry, on the real documents and the specification's own test
 * documents; every built-in profile gives a document in either syntax the same verdicts; and xmllint (where
 * installed) accepts the XML written for other versions.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BUILTIN_PROFILE_NAMES, convertVersion, loadProfiles, SPEC_FORMATS, validate } from '../../src/index.js';
import { resolvePointer } from '../../src/json/pointer.js';
import { ModelSink } from '../../src/xml/model.js';
import { scanInto } from '../../src/xml/scan.js';
import { xmlSpecVersion } from '../../src/xml/versions.js';
import { writeXml } from '../../src/xml/write.js';
import { CONFORMANCE, ROOT, SAMPLES, tempDir } from '../helpers.js';
import { differences } from '../xml/model-differences.js';

type Json = Record<string, unknown>;
const REAL = path.join(ROOT, 'test/fixtures/real');
const OFFICIAL = path.join(CONFORMANCE, 'cyclonedx/json');
const VERSIONS = SPEC_FORMATS.filter((f) => f.family === 'cyclonedx').map((f) => f.specVersion);
const HAVE_XMLLINT = spawnSync('xmllint', ['--version']).status === 0;
const SCHEMA_DIR = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@cyclonedx/cyclonedx-library/package.json')),
  'res/schema',
);

/** The model of an XML text, read as `bomwright convert` and `validate` read it. */
function readXml(text: string): Json {
  const sink = new ModelSink();
  const failure = scanInto(text.replace(/^\uFEFF/, ''), sink);
  if (failure !== undefined) throw new Error(failure.message);
  const version = xmlSpecVersion(sink.root?.namespace);
  if (version === undefined) throw new Error('not CycloneDX XML');
  return sink.document(version);
}

/** The valid documents of a folder (as bomwright judges them), as models. */
async function validModels(dir: string, filter: (file: string) => boolean): Promise<{ name: string; model: Json }[]> {
  const out: { name: string; model: Json }[] = [];
  for (const file of readdirSync(dir).filter(filter).sort()) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    if (!(await validate(text, { signatures: 'ignore' })).valid) continue;
    out.push({ name: file, model: file.endsWith('.xml') ? readXml(text) : (JSON.parse(text) as Json) });
  }
  return out;
}

async function errorsOf(input: string | Json): Promise<string[]> {
  const result = await validate(input, { signatures: 'ignore' });
  return result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.ruleId} ${d.pointer ?? ''}`);
}

describe('conversion across both syntaxes', () => {
  it('real documents (both syntaxes) and XML 1.0/1.1 converted to every version validate, as XML and as JSON', async () => {
    const sources = [
      ...(await validModels(REAL, (f) => f.endsWith('.json') || f.endsWith('.xml'))),
      ...(await validModels(SAMPLES, (f) => /^valid-.*-1\.[01]\.xml$/.test(f))),
    ];
    expect(sources.length).toBeGreaterThanOrEqual(20);
    expect(sources.filter((s) => ['1.0', '1.1'].includes(String(s.model.specVersion)))).toHaveLength(2);
    const failures: string[] = [];
    for (const { name, model } of sources)
      for (const to of VERSIONS) {
        const { document } = convertVersion(model, to, { dropSignatures: true });
        const asJson = await errorsOf(document);
        if (asJson.length > 0) failures.push(`${name} → JSON ${to}: ${asJson.join(', ')}`);
        const asXml = await errorsOf(writeXml(document));
        if (asXml.length > 0) failures.push(`${name} → XML ${to}: ${asXml.join(', ')}`);
      }
    expect(failures).toEqual([]);
  }, 120_000);

  it('JSON → XML → JSON gives the JSON back, but for what the writer reports it cannot carry', async () => {
    const present = existsSync(OFFICIAL);
    const sources = [
      ...(await validModels(REAL, (f) => f.endsWith('.json'))),
      ...(await validModels(SAMPLES, (f) => f.startsWith('valid-') && f.endsWith('.json') && !f.includes('-cbom-'))),
      ...(present
        ? (
            await Promise.all(
              VERSIONS.map((v) =>
                validModels(path.join(OFFICIAL, v), (f) => f.startsWith('valid-') && f.endsWith('.json')),
              ),
            )
          ).flat()
        : []),
    ];
    expect(sources.length).toBeGreaterThan(present ? 200 : 15);
    const lost: string[] = [];
    for (const { name, model } of sources) {
      const { document } = convertVersion(model, String(model.specVersion), { dropSignatures: true });
      const reported = new Set<string>();
      const back = readXml(writeXml(document, { onDrop: (pointer) => reported.add(pointer) }));
      const { $schema: _, ...expected } = document;
      for (const d of differences(back, expected)) {
        if ([...reported].some((p) => d.pointer === p || d.pointer.startsWith(`${p}/`))) continue;
        // 1.6's deprecated single evidence identity is written as the one-item list XML has (twins.test.ts).
        const [was, now] = [resolvePointer(expected, d.pointer), resolvePointer(back, d.pointer)];
        if (d.kind === 'shape' && Array.isArray(now) && now.length === 1 && isDeepStrictEqual(now[0], was)) continue;
        lost.push(`${name} ${d.pointer} (${d.kind})`);
      }
    }
    expect(lost).toEqual([]);
  }, 120_000);

  it('every built-in profile gives a document and its conversion to the other syntax the same verdicts', async () => {
    const profiles = loadProfiles([...BUILTIN_PROFILE_NAMES]);
    const verdicts = async (input: string | Json) => {
      const result = await validate(input, { signatures: 'ignore', profiles });
      return (result.profiles ?? []).map((p) => ({
        profile: p.name,
        passed: p.passed,
        unmet: Object.fromEntries(p.requirements.map((r) => [r.id, r.unmet])),
      }));
    };
    const sources = [
      ...(await validModels(REAL, (f) => f.endsWith('.json') || f.endsWith('.xml'))),
      ...(await validModels(SAMPLES, (f) => f.startsWith('valid-') && !f.includes('-cbom-'))),
    ];
    expect(sources.length).toBeGreaterThan(30);
    // 1.0 and 1.1 have no JSON form to compare with.
    for (const { name, model } of sources.filter((s) => VERSIONS.includes(String(s.model.specVersion)))) {
      const { document } = convertVersion(model, String(model.specVersion), { dropSignatures: true });
      const xml = writeXml(document);
      const [asJson, asXml] = [await verdicts(document), await verdicts(xml)];
      expect(asJson.length, name).toBe(BUILTIN_PROFILE_NAMES.length);
      expect(asXml, name).toEqual(asJson);
    }
  }, 120_000);

  it.skipIf(!HAVE_XMLLINT)(
    'xmllint accepts the XML written for every other version of the real documents',
    async () => {
      const dir = tempDir();
      const sources = await validModels(REAL, (f) => f.endsWith('.json') || f.endsWith('.xml'));
      const rejected: string[] = [];
      for (const { name, model } of sources)
        for (const to of VERSIONS.filter((v) => v !== model.specVersion)) {
          const file = path.join(dir, `${name}-${to}.xml`);
          writeFileSync(file, writeXml(convertVersion(model, to, { dropSignatures: true }).document));
          const lint = spawnSync('xmllint', [
            '--noout',
            '--schema',
            path.join(SCHEMA_DIR, `bom-${to}.SNAPSHOT.xsd`),
            file,
          ]);
          if (lint.status !== 0) rejected.push(`${name} → ${to}: ${lint.stderr.toString().split('\n')[0]}`);
        }
      expect(rejected).toEqual([]);
    },
    120_000,
  );
});
