/**
 * Every valid document of the CycloneDX specification's own test resources (read in place from
 * ../shared/conformance/cyclonedx/json) and of samples/, converted to every other version of its family, validates.
 * The members dropped or converted per version pair, found on those documents, are the table in
 * docs/conversion.md, which this test keeps true (UPDATE_CONVERSION_TABLE=1 rewrites it).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertVersion, SPEC_FORMATS, validate } from '../../src/index.js';
import { CONFORMANCE, ROOT, SAMPLES } from '../helpers.js';

const OFFICIAL = path.join(CONFORMANCE, 'cyclonedx/json');
const TABLE = path.join(ROOT, 'docs/conversion.md');
const VERSIONS = SPEC_FORMATS.filter((f) => f.family === 'cyclonedx').map((f) => f.specVersion);

interface Source {
  name: string;
  document: Record<string, unknown>;
}

function validFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((file) => file.startsWith('valid-') && file.endsWith('.json'))
    .map((file) => path.join(dir, file));
}

async function sourcesIn(files: string[]): Promise<Source[]> {
  const sources: Source[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    // Only what bomwright itself calls valid: a few official documents break its rules (duplicate bom-refs).
    if (!(await validate(text, { signatures: 'ignore' })).valid) continue;
    sources.push({ name: path.basename(file), document: JSON.parse(text) as Record<string, unknown> });
  }
  return sources;
}

/** A pointer with its array positions generalised: `/components/3/hashes/0` → `/components/*\/hashes/*`. */
const shape = (pointer: string) => pointer.replace(/\/\d+(?=\/|$)/g, '/*');

async function convertAll(sources: Source[], pairs?: Map<string, Set<string>>): Promise<string[]> {
  const failures: string[] = [];
  for (const { name, document } of sources) {
    const from = String(document.specVersion);
    const targets = from.includes('-cbom-') ? [from] : VERSIONS;
    for (const to of targets) {
      const result = convertVersion(document, to);
      const check = await validate(result.document, { signatures: 'ignore' });
      const errors = check.diagnostics.filter((d) => d.severity === 'error');
      if (errors.length > 0)
        failures.push(`${name} → ${to}: ${errors.map((e) => `${e.ruleId} ${e.pointer ?? ''}`).join(', ')}`);
      if (pairs === undefined || from === to) continue;
      const key = `${from} → ${to}`;
      const seen = pairs.get(key) ?? new Set<string>();
      for (const d of result.dropped) seen.add(`dropped \`${shape(d.pointer)}\``);
      for (const c of result.converted)
        if (c.pointer !== '/specVersion' && c.pointer !== '/$schema')
          seen.add(`converted \`${shape(c.pointer)}\`${c.movedTo === undefined ? '' : ` → \`${shape(c.movedTo)}\``}`);
      pairs.set(key, seen);
    }
  }
  return failures;
}

function table(pairs: Map<string, Set<string>>): string {
  const lines = [
    '# What `bomwright convert` drops or converts, per version pair',
    '',
    'Found by converting every valid document of the CycloneDX specification\u2019s test resources (1.2\u20131.7, at the',
    'commit named in ../shared/conformance/cyclonedx/README.md) to every other version; array positions are `*`.',
    'Every conversion also sets `specVersion` and, when the document has one, `$schema`. Written by',
    '`UPDATE_CONVERSION_TABLE=1 npx vitest run test/author/convert-fixtures.test.ts`, and checked by that test.',
    '',
    '| from → to | dropped or converted |',
    '|---|---|',
  ];
  const order = (key: string) => key.split(' → ').map((v) => VERSIONS.indexOf(v));
  const keys = [...pairs.keys()].sort((a, b) => {
    const [a1, a2] = order(a);
    const [b1, b2] = order(b);
    return a1! - b1! || a2! - b2!;
  });
  for (const key of keys) {
    const changes = [...pairs.get(key)!].sort();
    lines.push(`| ${key} | ${changes.length === 0 ? 'nothing' : changes.join('<br>')} |`);
  }
  return `${lines.join('\n')}\n`;
}

describe('every valid document, converted to every other version, validates', () => {
  it('samples/', async () => {
    const sources = await sourcesIn(validFiles(SAMPLES));
    expect(sources.length).toBeGreaterThan(8);
    expect(await convertAll(sources)).toEqual([]);
  });

  const present = existsSync(OFFICIAL);
  it.skipIf(!present)(
    `the specification's test resources${present ? '' : ` (skipped: ${OFFICIAL} is absent)`}, and the table in docs/conversion.md`,
    async () => {
      const files = VERSIONS.flatMap((version) => validFiles(path.join(OFFICIAL, version)));
      const sources = await sourcesIn(files);
      expect(sources.length).toBeGreaterThan(200);
      const pairs = new Map<string, Set<string>>();
      expect(await convertAll(sources, pairs)).toEqual([]);
      const text = table(pairs);
      if (process.env.UPDATE_CONVERSION_TABLE === '1') writeFileSync(TABLE, text);
      expect(readFileSync(TABLE, 'utf8')).toBe(text);
    },
    120_000,
  );
});
