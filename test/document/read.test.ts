/**
 * The one reading of a document (src/document/): telling JSON from XML, the model, locate, and writing back,
 * through the library's public surface.
 */
import { describe, expect, it } from 'vitest';
import { readDocument, syntaxOf, writeDocument, type BomDocument } from '../../src/index.js';
import { outputSyntax, syntaxOfBytes, syntaxOfName } from '../../src/document/syntax.js';
import { expectErrorCode, minimalBom } from '../helpers.js';

const NS = 'http://cyclonedx.org/schema/bom/1.6';
const SERIAL = 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79';

/** A CycloneDX 1.6 XML document with a comment, its own indentation and single-quoted attributes. */
const XML = `<?xml version="1.0" encoding="UTF-8"?>
<!-- made by hand -->
<bom xmlns="${NS}" serialNumber="${SERIAL}" version='1'>
   <metadata>
      <timestamp>2024-01-01T00:00:00Z</timestamp>
   </metadata>
   <components>
      <component type="library" bom-ref="a"><name>a</name><version>1.0</version></component>
      <component type="library" bom-ref="b"><name>b</name><version>2.0</version></component>
   </components>
</bom>
`;

function read(input: string | Uint8Array): BomDocument {
  const result = readDocument(input);
  if (!result.ok) throw new Error(`unreadable: ${JSON.stringify(result.diagnostics)}`);
  return result.document;
}

function model(document: BomDocument): Record<string, unknown> {
  return structuredClone(document.model) as Record<string, unknown>;
}

describe('telling JSON from XML', () => {
  it('markup first is XML, after white space and a byte-order mark; anything else is JSON', () => {
    expect(syntaxOf('<bom/>')).toBe('xml');
    expect(syntaxOf(' \t\r\n<bom/>')).toBe('xml');
    expect(syntaxOf('\uFEFF\n<bom/>')).toBe('xml');
    expect(syntaxOf('{"a":"<"}')).toBe('json');
    expect(syntaxOf('')).toBe('json');
    // Only JSON's and XML's four white-space characters come before the markup.
    expect(syntaxOf('\u00a0<bom/>')).toBe('json');
    expect(syntaxOf('x<bom/>')).toBe('json');
    // More marks are XML that is not well-formed (XML's reader says so), not JSON.
    expect(syntaxOf('\uFEFF\uFEFF<bom/>')).toBe('xml');
    expect(syntaxOf('\uFEFF\uFEFF\uFEFF<bom/>')).toBe('xml');
  });

  it('bytes are told the same way, a UTF-8 byte-order mark skipped', () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    expect(syntaxOfBytes(bytes('\n <bom/>'))).toBe('xml');
    expect(syntaxOfBytes(new Uint8Array([0xef, 0xbb, 0xbf, 0x3c]))).toBe('xml');
    expect(syntaxOfBytes(new Uint8Array([0xef, 0xbb, 0x3c]))).toBe('json');
    expect(syntaxOfBytes(bytes('{}'))).toBe('json');
    expect(syntaxOfBytes(new Uint8Array())).toBe('json');
    // UTF-16, which only XML may be: by its mark, or by a `<` in either byte order.
    expect(syntaxOfBytes(new Uint8Array([0xfe, 0xff, 0x00, 0x3c]))).toBe('xml');
    expect(syntaxOfBytes(new Uint8Array([0xff, 0xfe, 0x3c, 0x00]))).toBe('xml');
    expect(syntaxOfBytes(new Uint8Array([0x00, 0x3c, 0x00, 0x3f]))).toBe('xml');
    expect(syntaxOfBytes(new Uint8Array([0x3c, 0x00, 0x3f, 0x00]))).toBe('xml');
    expect(syntaxOfBytes(new Uint8Array([0x00, 0x7b]))).toBe('json');
  });

  it('the syntax to write: --to, else the output extension, else the input, else JSON', () => {
    expect(syntaxOfName('out/BOM.XML')).toBe('xml');
    expect(syntaxOfName('bom.json')).toBe('json');
    expect(syntaxOfName('bom.cdx')).toBeUndefined();
    expect(syntaxOfName('xml')).toBeUndefined();
    expect(outputSyntax({ to: 'json', output: 'a.xml', input: 'xml' })).toBe('json');
    expect(outputSyntax({ output: 'a.xml', input: 'json' })).toBe('xml');
    expect(outputSyntax({ output: '/dev/stdout', input: 'xml' })).toBe('xml');
    expect(outputSyntax({ output: 'a.cdx' })).toBe('json');
    expect(outputSyntax({})).toBe('json');
  });
});

describe('reading', () => {
  it('reads JSON into its value, locates pointers, and writes back in its own indentation', () => {
    const text = JSON.stringify(minimalBom('1.6', { components: [{ type: 'library', name: 'a' }] }), null, 4);
    const document = read(text);
    expect(document.syntax).toBe('json');
    expect(document.model).toEqual(JSON.parse(text));
    expect(document.locate('/components/0/name')).toEqual({ line: 9, column: 13 });
    expect(document.locate('/nowhere')).toBeUndefined();
    const changed = { ...model(document), version: 2 };
    // Patched in place: its indentation, and no final newline, as the source had none.
    expect(document.write(changed)).toBe(JSON.stringify(changed, null, 4));
  });

  it('reads XML into the model, with bomFormat and specVersion from the namespace, and locates into the XML', () => {
    const document = read(XML);
    expect(document.syntax).toBe('xml');
    expect(document.xmlSigned).toBe(false);
    expect(document.model).toMatchObject({
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      serialNumber: SERIAL,
      version: 1,
      metadata: { timestamp: '2024-01-01T00:00:00Z' },
      components: [
        { type: 'library', 'bom-ref': 'a', name: 'a', version: '1.0' },
        { type: 'library', 'bom-ref': 'b', name: 'b', version: '2.0' },
      ],
    });
    expect(document.locate('/components/1/bom-ref')).toEqual({
      line: 9,
      column: 33,
      path: '/bom/components/component[2]/@bom-ref',
    });
    expect(document.locate('/metadata/timestamp')).toMatchObject({ line: 5, path: '/bom/metadata/timestamp' });
  });

  it('JSON bytes with a byte-order mark read with a warning; XML bytes with one without', () => {
    const bom = [0xef, 0xbb, 0xbf];
    const json = read(new Uint8Array([...bom, ...new TextEncoder().encode(JSON.stringify(minimalBom()))]));
    expect(json.diagnostics.map((d) => d.ruleId)).toEqual(['read/byte-order-mark']);
    const xml = read(new Uint8Array([...bom, ...new TextEncoder().encode(XML)]));
    expect(xml.diagnostics).toEqual([]);
    expect(xml.byteOrderMark).toBe(true);
    // Written back in its syntax, the XML keeps its mark; JSON never gets one.
    expect(xml.write(xml.model).startsWith('\uFEFF<?xml')).toBe(true);
    expect(json.write(json.model).startsWith('{')).toBe(true);
  });

  it('says why a document cannot be read, with the stable rule id and a place', () => {
    const problem = (input: string) => {
      const result = readDocument(input);
      expect(result.ok).toBe(false);
      return result.ok ? undefined : result.diagnostics[0];
    };
    expect(problem('  \n')).toMatchObject({ ruleId: 'read/empty' });
    expect(problem('{"a": 1, "a": 2}')).toMatchObject({ ruleId: 'json/duplicate-key' });
    expect(problem(`<bom xmlns="${NS}">\n<components>\n</bom>`)).toMatchObject({ ruleId: 'xml/syntax', line: 3 });
    expect(problem('<!DOCTYPE bom [<!ENTITY x "y">]><bom/>')).toMatchObject({ ruleId: 'xml/doctype' });
    expect(problem('<project xmlns="http://maven.apache.org/POM/4.0.0"/>')).toMatchObject({
      ruleId: 'bom/not-a-bom',
      line: 1,
    });
    expect(problem('<bom xmlns="http://cyclonedx.org/schema/bom/9.9"/>')).toMatchObject({
      ruleId: 'bom/unsupported-version',
    });
    expect(problem(`<?xml version="1.0" encoding="ISO-8859-1"?><bom xmlns="${NS}"/>`)).toMatchObject({
      ruleId: 'read/unsupported-encoding',
    });
    // The same declaration naming UTF-8 reads.
    expect(readDocument(`<?xml version="1.0" encoding="utf-8"?><bom xmlns="${NS}"/>`).ok).toBe(true);
  });

  it('knows when an XML signature stands in the document (it is no part of the model)', () => {
    const signed = XML.replace(
      '</bom>',
      '<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo/></Signature>\n</bom>',
    );
    const document = read(signed);
    expect(document.xmlSigned).toBe(true);
    expect(document.model).toEqual(read(XML).model);
  });
});

describe('writing XML back in place', () => {
  it('changed values are patched where they stand: comment, indentation and quotes kept', () => {
    const document = read(XML);
    const changed = model(document);
    changed.version = 2;
    (changed.metadata as Record<string, unknown>).timestamp = '2025-06-01T12:00:00Z';
    (changed.components as Record<string, unknown>[])[1]!.name = 'b & "c" <d>';
    const written = document.write(changed);
    expect(written).toBe(
      XML.replace("version='1'", "version='2'")
        .replace('2024-01-01T00:00:00Z', '2025-06-01T12:00:00Z')
        .replace('<name>b</name>', '<name>b &amp; "c" &lt;d&gt;</name>'),
    );
    expect(read(written).model).toEqual(changed);
  });

  it('an unchanged model writes the text as it was, signature and all', () => {
    const signed = XML.replace(
      '</bom>',
      '<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo/></Signature>\n</bom>',
    );
    const document = read(signed);
    expect(document.write(model(document))).toBe(signed);
  });

  it('an attribute value keeps its quotes and escapes what it must', () => {
    const document = read(XML);
    const changed = model(document);
    (changed.components as Record<string, unknown>[])[0]!['bom-ref'] = `a"'\n`;
    const written = document.write(changed);
    expect(written).toContain('bom-ref="a&quot;\'&#10;"');
    expect(read(written).model).toEqual(changed);
  });

  it('a reordered array is no change of values: the XML is written afresh; a member removed is cut out', () => {
    const document = read(XML);
    const reordered = model(document);
    (reordered.components as unknown[]).reverse();
    // The fresh write goes through the XSD-ordered writer; what it writes reads as the model again.
    const written = document.write(reordered);
    expect(written).not.toContain('<!-- made by hand -->');
    expect(read(written).model).toEqual(reordered);
    // Members added and removed are patched in place (xml-patch.test.ts).
    const removed = JSON.parse(JSON.stringify({ ...model(document), serialNumber: undefined })) as Record<
      string,
      unknown
    >;
    const cut = document.write(removed);
    expect(cut).toBe(XML.replace(` serialNumber="${SERIAL}"`, ''));
    expect(read(cut).model).toEqual(removed);
  });

  it('a model written as the other syntax: XML as JSON, JSON as XML', () => {
    const document = read(XML);
    const json = document.write(document.model, { to: 'json' });
    expect(JSON.parse(json)).toEqual(document.model);
    expect(json.endsWith('}\n')).toBe(true);
    const back = read(json).write(read(json).model, { to: 'xml' });
    expect(read(back).model).toEqual(document.model);
  });

  it('XML 1.1 is patched in place; a change of shape is written afresh in 1.1', () => {
    const old = `<bom xmlns="http://cyclonedx.org/schema/bom/1.1" version="1"><components><component type="library"><name>a</name><version>1</version></component></components></bom>`;
    const document = read(old);
    const changed = model(document);
    changed.version = 2;
    expect(document.write(changed)).toBe(old.replace('version="1"', 'version="2"'));
    const grown = { ...changed, serialNumber: SERIAL };
    const written = document.write(grown);
    expect(written).toContain('xmlns="http://cyclonedx.org/schema/bom/1.1"');
    expect(read(written).model).toEqual(grown);
  });

  it('writes a large list afresh (50,000 components: no list is spread onto the call stack)', () => {
    const components = Array.from({ length: 50_000 }, (_, i) => ({ type: 'library', name: `c${i}`, version: '1' }));
    const written = writeDocument(minimalBom('1.6', { components }), 'xml');
    const back = read(written).model as { components: unknown[] };
    expect(back.components).toHaveLength(50_000);
    expect(back.components[49_999]).toEqual(components[49_999]);
  });

  it('refuses XML where nothing valid can be written (E_CONVERT), and tells what it leaves out', () => {
    expectErrorCode(() => writeDocument(minimalBom('1.4-cbom-1.0'), 'xml'), 'E_CONVERT');
    expectErrorCode(() => writeDocument({ ...minimalBom('1.6'), specVersion: '9.9' }, 'xml'), 'E_CONVERT');
    expectErrorCode(() => writeDocument([], 'xml'), 'E_CONVERT');
    expect(writeDocument(minimalBom('1.6'))).toBe(`${JSON.stringify(minimalBom('1.6'), null, 2)}\n`);
    const dropped: { pointer: string; reason: string }[] = [];
    const document = read(
      JSON.stringify({ $schema: 'http://cyclonedx.org/schema/bom-1.6.schema.json', ...minimalBom('1.6') }),
    );
    const xml = document.write(document.model, { to: 'xml', onDrop: (d) => dropped.push(d) });
    expect(read(xml).model).toEqual(minimalBom('1.6'));
    expect(
      writeDocument(minimalBom('1.6', { signature: { algorithm: 'ES256', value: 'x' } }), 'xml', {
        onDrop: (d) => dropped.push(d),
      }),
    ).toBe(writeDocument(minimalBom('1.6'), 'xml'));
    expect(dropped.map((d) => d.pointer)).toContain('/signature');
  });
});
