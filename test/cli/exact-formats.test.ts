import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { minimalBom, runCli, tempDirs } from '../helpers.js';

/**
 * Each class of issue 26's validator findings through the built CLI, the failing example beside its valid
 * neighbour: dates and times as RFC 3339 writes them, integers on their text, BOM-Links by the place, RFC 6532
 * local parts, draft-07's $ref rule.
 */
const newDir = tempDirs();
const LINK = 'urn:cdx:3e671687-395b-41f5-a30f-a58921a69b79/1#pkg:deb/debian/openssl@3.0.11';

/** Writes each document (text, or a value) and runs `validate --format json` on all of them. */
async function verdicts(documents: Record<string, string | Record<string, unknown>>) {
  const dir = newDir();
  const files = Object.entries(documents).map(([name, document]) => {
    const file = path.join(dir, `${name}.json`);
    writeFileSync(file, typeof document === 'string' ? document : JSON.stringify(document));
    return file;
  });
  const run = await runCli(['validate', '--format', 'json', ...files]);
  const report = JSON.parse(run.stdout) as {
    documents: { path: string; valid: boolean; diagnostics: { ruleId: string; pointer: string; message: string }[] }[];
  };
  const byName = Object.fromEntries(
    report.documents.map((d) => [
      path.basename(d.path, '.json'),
      d.diagnostics.map((x) => [x.ruleId, x.pointer, x.message]),
    ]),
  );
  return { code: run.code, stderr: run.stderr, byName };
}

describe('bomwright validate, exactly as the standards say', () => {
  it('date-time: RFC 3339 §5.6, nothing laxer', async () => {
    const bom = (timestamp: string) => minimalBom('1.6', { metadata: { timestamp } });
    const { code, byName, stderr } = await verdicts({
      colonless: bom('2020-01-01T00:00:00+0100'),
      hoursOnly: bom('2020-01-01T00:00:00+01'),
      space: bom('2020-01-01 00:00:00Z'),
      wrongLeap: bom('2020-06-29T23:59:60Z'),
      good: bom('2020-01-01T00:00:00+01:00'),
      lower: bom('2020-01-01t00:00:00z'),
      leap: bom('2016-12-31T23:59:60Z'),
    });
    expect(stderr).toBe('');
    expect(code).toBe(1);
    for (const [name, value] of [
      ['colonless', '2020-01-01T00:00:00+0100'],
      ['hoursOnly', '2020-01-01T00:00:00+01'],
      ['space', '2020-01-01 00:00:00Z'],
      ['wrongLeap', '2020-06-29T23:59:60Z'],
    ])
      expect(byName[name!], name).toEqual([
        ['schema/format', '/metadata/timestamp', `"${value}" is not a valid date-time`],
      ]);
    for (const name of ['good', 'lower', 'leap']) expect(byName[name], name).toEqual([]);
  });

  it('integers: on the number text', async () => {
    const raw = (literal: string) =>
      JSON.stringify(minimalBom('1.6', { vulnerabilities: [{ id: 'CVE-1', cwes: [79] }] }))
        .replace('"version":1', `"version":${literal}`)
        .replace('[79]', `[7${literal.replace(/^1/, '9')}]`);
    const { code, byName } = await verdicts({
      above: raw('1.0000000000000001'),
      below: JSON.stringify(minimalBom('1.3')).replace('"version":1', '"version":0.99999999999999999'),
      point: raw('1.0'),
      exponent: raw('1e0'),
    });
    expect(code).toBe(1);
    expect(byName.above).toEqual([
      [
        'bom/version',
        '/version',
        'version must be a whole number from 1 to 2^53 - 1 (1.0000000000000001 has a fractional part; it only reads as 1 once rounded)',
      ],
      [
        'schema/type',
        '/vulnerabilities/0/cwes/0',
        'Must be an integer, not 79.0000000000000001 (a number with a fractional part that only reads as 79)',
      ],
    ]);
    expect(byName.below).toEqual([
      [
        'bom/version',
        '/version',
        'version must be a whole number from 1 to 2^53 - 1 (0.99999999999999999 has a fractional part; it only reads as 1 once rounded)',
      ],
    ]);
    expect(byName.point).toEqual([]);
    expect(byName.exponent).toEqual([]);
  });

  it('BOM-Links: not in the 1.5+ dependency graph; in places that take them, and in 1.4 as plain references', async () => {
    const graph = (specVersion: string, ref: string) =>
      minimalBom(specVersion, {
        components: [{ type: 'library', name: 'a', 'bom-ref': 'a', version: '1' }],
        dependencies: [{ ref: 'a', dependsOn: [ref] }],
      });
    const { code, byName } = await verdicts({
      inGraph15: graph('1.5', LINK),
      inGraph17: graph('1.7', LINK),
      localRef: graph('1.6', 'a'),
      inAssemblies: minimalBom('1.6', { compositions: [{ aggregate: 'complete', assemblies: [LINK] }] }),
      malformedInAssemblies: minimalBom('1.6', {
        compositions: [{ aggregate: 'complete', assemblies: ['urn:cdx:3e671687-395b-41f5-a30f-a58921a69b79/1'] }],
      }),
      inGraph14: graph('1.4', LINK),
    });
    expect(code).toBe(1);
    const misplaced = [
      'ref/unresolved',
      '/dependencies/0/dependsOn/0',
      `Reference "${LINK}" is a BOM-Link; the dependency graph names elements of this document only (refLinkType): a BOM-Link belongs in externalReferences, not in the dependency graph`,
    ];
    expect(byName.inGraph15).toEqual([misplaced]);
    expect(byName.inGraph17).toEqual([misplaced]);
    expect(byName.localRef).toEqual([]);
    expect(byName.inAssemblies).toEqual([]);
    expect(byName.malformedInAssemblies).toEqual([
      [
        'ref/unresolved',
        '/compositions/0/assemblies/0',
        'Reference "urn:cdx:3e671687-395b-41f5-a30f-a58921a69b79/1" is not a valid BOM-Link to an element (urn:cdx:<serial UUID>/<version>#<bom-ref>)',
      ],
    ]);
    expect(byName.inGraph14).toEqual([
      [
        'ref/unresolved',
        '/dependencies/0/dependsOn/0',
        `Reference "${LINK}" does not match any bom-ref in the document`,
      ],
    ]);
  });

  it('idn-email: any non-ASCII character in the local part (RFC 6532)', async () => {
    const bom = (email: string) => minimalBom('1.5', { metadata: { authors: [{ name: 'n', email }] } });
    const { code, byName } = await verdicts({ nbsp: bom('jos\u00a0e@example.com'), space: bom('jos e@example.com') });
    expect(code).toBe(1);
    expect(byName.nbsp).toEqual([]);
    expect(byName.space).toEqual([
      ['schema/format', '/metadata/authors/0/email', '"jos e@example.com" is not a valid idn-email'],
    ]);
  });

  it('$ref siblings: a 1.2 bom-ref with a line break is valid (draft-07 ignores the pattern beside its $ref)', async () => {
    const bom = (ref: unknown) =>
      minimalBom('1.2', { components: [{ type: 'library', name: 'a', version: '1', 'bom-ref': ref }] });
    const { code, byName } = await verdicts({ lineBreak: bom('a\nb'), plain: bom('a'), number: bom(1) });
    expect(code).toBe(1);
    expect(byName.lineBreak).toEqual([]);
    expect(byName.plain).toEqual([]);
    expect(byName.number).toEqual([['schema/type', '/components/0/bom-ref', 'Must be a string, not an integer']]);
  });
});
