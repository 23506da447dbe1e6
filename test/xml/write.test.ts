/**
 * The XML writer: documents of the data model written in the element order of their version's XSD, read back into
 * the same model, valid for the official XSD (checked by bomwright's libxml2 and, where installed, by Debian's
 * xmllint as an independent tool).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/index.js';
import { mapDocument } from '../../src/xml/model.js';
import { scanXml } from '../../src/xml/scan.js';
import { writeXml } from '../../src/xml/write.js';
import { CONFORMANCE, expectErrorCode, tempDir } from '../helpers.js';
import { differences } from './model-differences.js';

const SERIAL = 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79';
const JSON_FIXTURES = path.join(CONFORMANCE, 'cyclonedx', 'json');
const HAVE_FIXTURES = existsSync(JSON_FIXTURES);
const HAVE_XMLLINT = spawnSync('xmllint', ['--version']).status === 0;
if (!HAVE_XMLLINT) console.warn('xmllint (Debian libxml2-utils) not installed: skipping the independent XSD check');
const SCHEMA_DIR = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@cyclonedx/cyclonedx-library/package.json')),
  'res/schema',
);

/** The value at a JSON pointer (of plain segments). */
function at(document: unknown, pointer: string): unknown {
  let value = document;
  for (const segment of pointer.slice(1).split('/'))
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[segment] : undefined;
  return value;
}

function readBack(xml: string, version: string): Record<string, unknown> {
  const scanned = scanXml(xml);
  if (!scanned.ok) throw new Error(scanned.message);
  return mapDocument(scanned.root, version).document;
}

function written(document: Record<string, unknown>): { xml: string; dropped: [string, string][] } {
  const dropped: [string, string][] = [];
  const xml = writeXml(document, { onDrop: (pointer, reason) => dropped.push([pointer, reason]) });
  return { xml, dropped };
}

const bom = (specVersion: string, members: Record<string, unknown>) => ({
  bomFormat: 'CycloneDX',
  specVersion,
  serialNumber: SERIAL,
  version: 1,
  ...members,
});

describe('writing XML', () => {
  it('writes members in the order the XSD requires, whatever their order in the model', () => {
    const { xml } = written(
      bom('1.6', {
        components: [{ purl: 'pkg:npm/a@1', version: '1', name: 'a', 'bom-ref': 'a', type: 'library' }],
        metadata: { timestamp: '2024-01-01T00:00:00Z' },
      }),
    );
    expect(xml).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        `<bom xmlns="http://cyclonedx.org/schema/bom/1.6" version="1" serialNumber="${SERIAL}">`,
        '  <metadata>',
        '    <timestamp>2024-01-01T00:00:00Z</timestamp>',
        '  </metadata>',
        '  <components>',
        '    <component type="library" bom-ref="a">',
        '      <name>a</name>',
        '      <version>1</version>',
        '      <purl>pkg:npm/a@1</purl>',
        '    </component>',
        '  </components>',
        '</bom>',
        '',
      ].join('\n'),
    );
  });

  it('escapes what XML must, and reads it back unchanged', () => {
    const name = 'a & b <c> "d" \'e\'\ttab\nline';
    const document = bom('1.6', { components: [{ type: 'library', 'bom-ref': name, name }] });
    const { xml } = written(document);
    expect(xml).toContain('bom-ref="a &amp; b &lt;c> &quot;d&quot; \'e\'&#9;tab&#10;line"');
    expect(xml).toContain('<name>a &amp; b &lt;c&gt; "d" \'e\'\ttab\nline</name>');
    expect(readBack(xml, '1.6')).toEqual(document);
  });

  it('refuses what XML 1.0 cannot carry, and documents without an XML form', () => {
    for (const bad of ['\u0000', '\u001F', '\uFFFE', '\uD800']) {
      const error = expectErrorCode(
        () => writeXml(bom('1.6', { components: [{ type: 'library', name: `x${bad}` }] })),
        'E_CONVERT',
      );
      expect(error.message).toMatch(/XML 1\.0 cannot carry/);
    }
    // The characters just beside the forbidden ones are written.
    for (const good of ['\t', '\u0020', '\uFFFD', '\uD83D\uDE00'])
      expect(writeXml(bom('1.6', { components: [{ type: 'library', name: `x${good}` }] }))).toContain(`x${good}`);
    expect(expectErrorCode(() => writeXml(bom('1.4-cbom-1.0', {})), 'E_CONVERT').message).toMatch(/CBOM has no XML/);
    expect(expectErrorCode(() => writeXml({ bomFormat: 'CBOM', specVersion: '1.4' }), 'E_CONVERT').message).toMatch(
      /CBOM/,
    );
    expect(expectErrorCode(() => writeXml(bom('1.8', {})), 'E_CONVERT').message).toMatch(/versions 1\.0, .* 1\.7/);
  });

  it('reports each member the XML form cannot carry, and writes the rest', () => {
    const signature = { algorithm: 'ES256', value: 'x' };
    const { xml, dropped } = written(
      bom('1.4', {
        $schema: 'http://cyclonedx.org/schema/bom-1.4.schema.json',
        signature,
        components: [{ type: 'library', name: 'a', omniborId: ['gitoid:blob:sha1:x'], hashes: [] }],
        dependencies: [{ ref: 'a', dependsOn: [] }],
      }),
    );
    expect(dropped).toEqual([
      ['/components/0/omniborId', 'CycloneDX 1.4 XML has no such member'],
      ['/dependencies/0/dependsOn', 'an empty list has no XML form: <dependency> repeats without a wrapper'],
      ['/signature', 'a JSF signature has no XML form'],
    ]);
    expect(xml).toContain('<hashes/>');
    expect(readBack(xml, '1.4')).toEqual(
      bom('1.4', { components: [{ type: 'library', name: 'a', hashes: [] }], dependencies: [{ ref: 'a' }] }),
    );
  });

  it('writes each form where the syntaxes differ, and reads it back as the model', () => {
    const cases: [string, Record<string, unknown>, string[]][] = [
      [
        '1.6',
        {
          components: [
            {
              type: 'library',
              name: 'a',
              licenses: [{ expression: 'MIT OR Apache-2.0', acknowledgement: 'concluded' }],
            },
            { type: 'library', name: 'b', licenses: [{ license: { id: 'MIT', acknowledgement: 'declared' } }] },
          ],
        },
        [
          '<expression acknowledgement="concluded">MIT OR Apache-2.0</expression>',
          '<license acknowledgement="declared">',
        ],
      ],
      [
        '1.4',
        { components: [{ type: 'library', name: 'a', licenses: [{ expression: 'MIT' }] }] },
        ['<expression>MIT</expression>'],
      ],
      ['1.4', { metadata: { tools: [{ vendor: 'v', name: 't' }] } }, ['<tools>', '<tool>', '<vendor>v</vendor>']],
      [
        '1.5',
        { metadata: { tools: { components: [{ type: 'application', name: 't' }] } } },
        ['<tools>', '<components>', '<component type="application">'],
      ],
      [
        '1.6',
        {
          services: [
            { name: 's', data: [{ flow: 'inbound', classification: 'PII', name: 'f', source: ['https://x'] }] },
          ],
        },
        ['<dataflow name="f">', '<classification flow="inbound">PII</classification>', '<url>https://x</url>'],
      ],
      [
        '1.7',
        {
          components: [
            { type: 'library', name: 'p', patentAssertions: [{ assertionType: 'license', asserter: 'org-1' }] },
          ],
        },
        ['<asserter>', '<ref>org-1</ref>'],
      ],
      [
        '1.6',
        {
          dependencies: [{ ref: 'a', dependsOn: ['b', 'c'] }, { ref: 'b' }, { ref: 'c' }],
          components: [
            { type: 'library', name: 'a', 'bom-ref': 'a' },
            { type: 'library', name: 'b', 'bom-ref': 'b' },
            { type: 'library', name: 'c', 'bom-ref': 'c' },
          ],
        },
        ['<dependency ref="a">', '<dependency ref="b"/>'],
      ],
      [
        '1.6',
        { components: [{ type: 'library', name: 'a', hashes: [{ alg: 'SHA-256', content: 'ab'.repeat(32) }] }] },
        [`<hash alg="SHA-256">${'ab'.repeat(32)}</hash>`],
      ],
      [
        '1.6',
        { components: [{ type: 'library', name: 'a', properties: [{ name: 'n', value: 'v' }] }] },
        ['<property name="n">v</property>'],
      ],
      ['1.7', { components: [{ type: 'library', name: 'a', isExternal: true }] }, ['isExternal="true"']],
    ];
    for (const [version, members, fragments] of cases) {
      const document = bom(version, members);
      const { xml, dropped } = written(document);
      expect(dropped, version).toEqual([]);
      for (const fragment of fragments) expect(xml, fragment).toContain(fragment);
      expect(readBack(xml, version), JSON.stringify(members)).toEqual(document);
    }
  });

  it('writes a list of 200,000 items (nothing copied or spread per level)', () => {
    const components = Array.from({ length: 200_000 }, (_, i) => ({ type: 'library', name: `c${i}` }));
    const xml = writeXml(bom('1.6', { components }));
    expect(xml.split('<component ').length - 1).toBe(200_000);
    expect(xml.endsWith('  </components>\n</bom>\n')).toBe(true);
  });

  it('reads XML 1.0 and 1.1, which have no JSON form, into the model 1.2 gives the same elements', () => {
    for (const version of ['1.0', '1.1']) {
      const xml = `<bom xmlns="http://cyclonedx.org/schema/bom/${version}" version="1"><components><component type="library"><name>a</name><version>1</version><licenses><license><id>MIT</id></license><license><name>Own</name></license></licenses><modified>false</modified></component></components></bom>`;
      expect(readBack(xml, version).components, version).toEqual([
        {
          type: 'library',
          name: 'a',
          version: '1',
          licenses: [{ license: { id: 'MIT' } }, { license: { name: 'Own' } }],
          modified: false,
        },
      ]);
    }
  });

  it('writes what bomwright reads as a valid document of that version', async () => {
    const document = bom('1.6', {
      metadata: { timestamp: '2024-01-01T00:00:00Z', tools: { components: [{ type: 'application', name: 't' }] } },
      components: [
        { type: 'library', 'bom-ref': 'a', name: 'a', version: '1', licenses: [{ license: { id: 'MIT' } }] },
      ],
      dependencies: [{ ref: 'a' }],
    });
    const result = await validate(writeXml(document));
    expect(result.diagnostics).toEqual([]);
  });
});

describe.skipIf(!HAVE_FIXTURES)('JSON → XML → model on every official JSON fixture of 1.2–1.7', () => {
  const fixtures = HAVE_FIXTURES
    ? ['1.2', '1.3', '1.4', '1.5', '1.6', '1.7'].flatMap((version) =>
        readdirSync(path.join(JSON_FIXTURES, version))
          .filter((f) => f.startsWith('valid-') && f.endsWith('.json'))
          .sort()
          .map((f) => ({ version, name: f, file: path.join(JSON_FIXTURES, version, f) })),
      )
    : [];

  it('reads back every member it wrote; what it leaves out is a JSF signature or an empty repeated list', () => {
    expect(fixtures.length).toBe(218);
    const reasons = new Set<string>();
    for (const fixture of fixtures) {
      const json = JSON.parse(readFileSync(fixture.file, 'utf8')) as Record<string, unknown>;
      const { xml, dropped } = written(json);
      const { $schema: _, ...expected } = json;
      const back = readBack(xml, fixture.version);
      // The deprecated single evidence identity of 1.5–1.6's JSON reads back in the array form XML has.
      const left = differences(back, expected).filter(
        (d) =>
          !(
            d.pointer.endsWith('/evidence/identity') &&
            isDeepStrictEqual(at(back, d.pointer), [at(expected, d.pointer)])
          ),
      );
      const droppedPointers = new Set(dropped.map(([p]) => p));
      for (const [, reason] of dropped) reasons.add(reason.replace(/<\w+>/, '<…>'));
      expect(
        left.filter((d) => !droppedPointers.has(d.pointer)),
        `${fixture.version}/${fixture.name}`,
      ).toEqual([]);
    }
    expect([...reasons].sort()).toEqual([
      'a JSF signature has no XML form',
      'an empty list has no XML form: <…> repeats without a wrapper',
    ]);
  });

  it.skipIf(!HAVE_XMLLINT)('writes XML that xmllint finds valid for the official XSD', () => {
    const dir = tempDir();
    const invalid: string[] = [];
    for (const fixture of fixtures) {
      const json = JSON.parse(readFileSync(fixture.file, 'utf8')) as Record<string, unknown>;
      const file = path.join(dir, `${fixture.name}.xml`);
      writeFileSync(file, writeXml(json));
      const run = spawnSync('xmllint', [
        '--noout',
        '--schema',
        path.join(SCHEMA_DIR, `bom-${fixture.version}.SNAPSHOT.xsd`),
        file,
      ]);
      if (run.status !== 0) invalid.push(`${fixture.version}/${fixture.name}: ${String(run.stderr).split('\n')[0]}`);
    }
    // Two JSON fixtures repeat a bom-ref, which the XSD's identity constraint refuses (and bomwright's JSON rules too).
    expect(invalid.map((line) => line.replace(/^(\S+): .*Duplicate key-sequence.*$/, '$1: duplicate bom-ref'))).toEqual(
      ['1.5/valid-formulation-1.5.json: duplicate bom-ref', '1.7/valid-citations-1.7.json: duplicate bom-ref'],
    );
  });
});
