/**
 * The library's document functions over files, and the version rule across syntaxes: a JSON document and its XML
 * twin are one release.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDocumentFile, versionRule, writeDocumentFile } from '../../src/index.js';
import { syntaxNeutralModel } from '../../src/document/read.js';
import { minimalBom, tempDirs } from '../helpers.js';

const NS = 'http://cyclonedx.org/schema/bom/1.6';
const SERIAL = 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79';
const newDir = tempDirs('bomwright-document-files-');

const xml = (version: number, name: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<bom xmlns="${NS}" serialNumber="${SERIAL}" version="${version}">\n  <components>\n    <component type="library" bom-ref="c"><name>${name}</name></component>\n  </components>\n</bom>\n`;
const json = (version: number, name: string) =>
  minimalBom('1.6', {
    $schema: 'http://cyclonedx.org/schema/bom-1.6.schema.json',
    version,
    components: [{ type: 'library', 'bom-ref': 'c', name }],
  });

describe('readDocumentFile and writeDocumentFile', () => {
  it('read a file in either syntax, and say why one cannot be read', async () => {
    const dir = newDir();
    writeFileSync(path.join(dir, 'bom.xml'), xml(1, 'a'));
    writeFileSync(path.join(dir, 'bad.json'), '{"a": 1,}');
    const read = await readDocumentFile(path.join(dir, 'bom.xml'));
    expect(read.ok && read.document.syntax).toBe('xml');
    expect(read.ok && syntaxNeutralModel(read.document.model)).toEqual(syntaxNeutralModel(json(1, 'a')));
    const bad = await readDocumentFile(path.join(dir, 'bad.json'));
    expect(bad.ok ? undefined : bad.diagnostics[0]).toMatchObject({ ruleId: 'json/syntax', line: 1 });
  });

  it('write in --to, else the extension, else JSON', () => {
    const dir = newDir();
    expect(writeDocumentFile(path.join(dir, 'a.json'), json(1, 'a'))).toBe('json');
    expect(writeDocumentFile(path.join(dir, 'a.cdx'), json(1, 'a'))).toBe('json');
    expect(JSON.parse(readFileSync(path.join(dir, 'a.cdx'), 'utf8'))).toEqual(json(1, 'a'));
    expect(writeDocumentFile(path.join(dir, 'a.txt'), json(1, 'a'), { to: 'xml' })).toBe('xml');
    expect(readFileSync(path.join(dir, 'a.txt'), 'utf8')).toMatch(/^<\?xml/);
  });
});

describe('the version rule across syntaxes', () => {
  it('a JSON document and an XML baseline of the same content are one release ($schema is no content)', () => {
    expect(versionRule(json(1, 'a'), { document: xml(1, 'a') })).toEqual([]);
    expect(versionRule(json(2, 'b'), { document: xml(1, 'a') })).toEqual([]);
    expect(versionRule(json(1, 'b'), { document: new TextEncoder().encode(xml(1, 'a')) })).toMatchObject([
      { ruleId: 'bom/version-rule' },
    ]);
    // Unchanged content with a new version is refused the same way whatever the baseline's syntax.
    expect(versionRule(json(2, 'a'), { document: xml(1, 'a') })).toMatchObject([{ ruleId: 'bom/version-rule' }]);
  });

  it('an XML baseline that reads as no document has nothing to compare with', () => {
    expect(versionRule(json(1, 'b'), { document: '<bom xmlns="urn:other"/>' })).toEqual([]);
    expect(versionRule(json(1, 'b'), { document: `<bom xmlns="${NS}">` })).toEqual([]);
  });
});
