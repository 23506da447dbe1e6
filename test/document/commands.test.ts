/**
 * The commands' operations through the library, on CycloneDX XML: read with readDocument, changed by the same
 * pure functions as JSON (bump, normalize, edits, merge, diff, the version rule), and written back in either
 * syntax.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addComponent,
  bump,
  diff,
  merge,
  normalize,
  readDocument,
  setMetadata,
  validate,
  versionRule,
  writeDocument,
  type BomDocument,
} from '../../src/index.js';
import { syntaxNeutralModel } from '../../src/document/read.js';
import { CONFORMANCE } from '../helpers.js';

const NS = 'http://cyclonedx.org/schema/bom/1.5';
const SERIAL = 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79';
const TWINS = path.join(CONFORMANCE, 'cyclonedx');

const XML = `<?xml version="1.0" encoding="UTF-8"?>
<bom xmlns="${NS}" serialNumber="${SERIAL}" version="4">
  <metadata>
    <timestamp>2024-01-01T00:00:00Z</timestamp>
    <!-- the product -->
    <component type="application" bom-ref="app"><name>app</name><version>1</version></component>
  </metadata>
  <components>
    <component type="library" bom-ref="z"><name>z</name><version>1</version></component>
    <component type="library" bom-ref="a"><name>a</name><version>1</version></component>
  </components>
</bom>
`;

function read(text: string | Uint8Array): BomDocument {
  const result = readDocument(text);
  if (!result.ok) throw new Error(result.diagnostics[0]?.message);
  return result.document;
}

function record(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not a record');
  return value as Record<string, unknown>;
}

describe('the commands on an XML document, through the library', () => {
  it('bump: the next version, written back in place, valid, and due by the version rule no more', async () => {
    const changed = XML.replace('<name>z</name><version>1</version>', '<name>z</name><version>2</version>');
    const document = read(changed);
    expect(versionRule(document.model, { document: XML })).toMatchObject([{ ruleId: 'bom/version-rule' }]);
    const bumped = bump(document.model, { now: new Date('2025-03-04T05:06:07Z') });
    expect(bumped.version).toBe(5);
    const text = document.write(bumped.document);
    expect(text).toBe(
      changed.replace('version="4"', 'version="5"').replace('2024-01-01T00:00:00Z', '2025-03-04T05:06:07Z'),
    );
    expect((await validate(text, { baseline: { document: XML } })).valid).toBe(true);
    expect(versionRule(read(text).model, { document: XML })).toEqual([]);
  });

  it('normalize reorders the components; written afresh, the XML reads as the normalized model', async () => {
    const document = read(XML);
    const normalized = normalize(document.model);
    expect((record(normalized).components as { name: string }[]).map((c) => c.name)).toEqual(['a', 'z']);
    const text = document.write(normalized);
    expect(read(text).model).toEqual(normalized);
    expect((await validate(text)).valid).toBe(true);
  });

  it('set and add: a value in place, a new element afresh; both valid', async () => {
    const document = read(XML);
    const set = await setMetadata(record(document.model), 'timestamp', '2025-01-01T00:00:00Z');
    expect(set.applied).toBe(true);
    const inPlace = document.write(set.document);
    expect(inPlace).toContain('<!-- the product -->');
    expect(read(inPlace).model).toEqual(set.document);
    const added = await addComponent(record(document.model), { name: 'b', version: '2' });
    expect(added.applied).toBe(true);
    const fresh = document.write(added.document);
    expect((record(read(fresh).model).components as unknown[]).length).toBe(3);
    expect((await validate(fresh)).valid).toBe(true);
  });

  it('merge takes an XML and a JSON document; the result is written as either', async () => {
    const json = {
      bomFormat: 'CycloneDX',
      specVersion: '1.5',
      serialNumber: 'urn:uuid:1e671687-395b-41f5-a30f-a58921a69b79',
      version: 1,
      components: [{ type: 'library', 'bom-ref': 'b', name: 'b', version: '1' }],
    };
    const result = await merge(
      [
        { document: read(XML).model, name: 'bom.xml' },
        { document: json, name: 'other.json' },
      ],
      { toolVersion: '0.0.0' },
    );
    expect(result.valid).toBe(true);
    const xml = writeDocument(result.document, 'xml');
    expect(read(xml).syntax).toBe('xml');
    expect((await validate(xml)).valid).toBe(true);
    // The same BOM in both syntaxes ($schema aside, which only JSON carries).
    const asJson: unknown = JSON.parse(writeDocument(result.document, 'json'));
    expect(diff(read(xml).model, syntaxNeutralModel(asJson)).identical).toBe(true);
  });

  const pairs = [
    '1.5/valid-assembly-1.5',
    '1.6/valid-dependency-1.6',
    '1.6/valid-external-reference-1.6',
    '1.7/valid-component-hashes-1.7',
  ];
  const present = pairs.every((pair) => existsSync(path.join(TWINS, 'xml', `${pair}.xml`)));
  it.skipIf(!present)('diff of official twins (the same BOM in JSON and XML) finds no difference', () => {
    for (const pair of pairs) {
      const json = read(readFileSync(path.join(TWINS, 'json', `${pair}.json`)));
      const xml = read(readFileSync(path.join(TWINS, 'xml', `${pair}.xml`)));
      expect(diff(syntaxNeutralModel(json.model), xml.model).identical, pair).toBe(true);
      // And the other way round, through the version rule: one release.
      expect(versionRule(json.model, { document: readFileSync(path.join(TWINS, 'xml', `${pair}.xml`)) })).toEqual([]);
    }
  });
  if (!present) console.warn(`official twin fixtures absent from ${TWINS}: not compared`);
});
