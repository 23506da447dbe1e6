/**
 * The one reading of a document (src/document/read.ts) at its edges: byte-order marks given as text, what is
 * empty, the declared encoding, each way an XML text fails, documents made from a model a caller already read, and
 * the model without what only JSON can carry.
 */
import { describe, expect, it } from 'vitest';
import { jsonDocument, syntaxNeutralModel, xmlDocument } from '../../src/document/read.js';
import { readDocument, type BomDocument } from '../../src/index.js';
import { minimalBom } from '../helpers.js';

const NS = 'http://cyclonedx.org/schema/bom/1.6';
const XML = `<bom xmlns="${NS}" version="1"><components><component type="library"><name>a</name></component></components></bom>`;
const MODEL = {
  bomFormat: 'CycloneDX',
  specVersion: '1.6',
  version: 1,
  components: [{ type: 'library', name: 'a' }],
};

function read(input: string | Uint8Array): BomDocument {
  const result = readDocument(input);
  if (!result.ok) throw new Error(`unreadable: ${JSON.stringify(result.diagnostics)}`);
  return result.document;
}

function refusal(input: string | Uint8Array) {
  const result = readDocument(input);
  if (result.ok) throw new Error('read');
  return result.diagnostics;
}

describe('text given as a string', () => {
  it('a byte-order mark before JSON is a warning, and is not written back', () => {
    const document = read(`\uFEFF${JSON.stringify(minimalBom())}`);
    expect(document.byteOrderMark).toBe(true);
    expect(document.diagnostics).toMatchObject([{ ruleId: 'read/byte-order-mark', severity: 'warning' }]);
    expect(document.text.startsWith('{')).toBe(true);
    expect(document.write(document.model).startsWith('{')).toBe(true);
    // Without a mark, no warning.
    expect(read(JSON.stringify(minimalBom())).diagnostics).toEqual([]);
    expect(read(JSON.stringify(minimalBom())).byteOrderMark).toBe(false);
  });

  it('before XML the mark is no warning, and is kept when the document is written back', () => {
    const document = read(`\uFEFF${XML}`);
    expect(document.byteOrderMark).toBe(true);
    expect(document.diagnostics).toEqual([]);
    expect(document.text).toBe(XML);
    expect(document.write(document.model)).toBe(`\uFEFF${XML}`);
    expect(read(XML).write(read(XML).model)).toBe(XML);
  });

  it('white space alone, with or without a mark, is an empty document; one character more is not', () => {
    for (const text of ['', ' \t\r\n', '\uFEFF', '\uFEFF \n'])
      expect(refusal(text)).toEqual([
        { ruleId: 'read/empty', severity: 'error', message: 'The document is empty', pointer: '' },
      ]);
    expect(refusal(' x ')[0]?.ruleId).not.toBe('read/empty');
    expect(refusal(new Uint8Array([0x20, 0x0a]))[0]?.ruleId).toBe('read/empty');
  });

  it('JSON warnings of the parse are kept beside the mark’s; a JSON error refuses', () => {
    expect(refusal('{"a": }')[0]?.severity).toBe('error');
    expect(refusal('[1,')).not.toHaveLength(0);
  });
});

describe('XML that cannot be read', () => {
  it('names the declared encoding it does not rewrite, in any quotes; UTF-8 and ASCII in any case read', () => {
    for (const encoding of ['UTF-8', 'utf8', 'US-ASCII', 'ascii', 'Utf-8'])
      expect(readDocument(`<?xml version="1.0" encoding="${encoding}"?>${XML}`).ok).toBe(true);
    expect(readDocument(`<?xml version='1.0' encoding = 'utf-8' ?>${XML}`).ok).toBe(true);
    expect(refusal(`<?xml version="1.0" encoding='UTF-16'?>${XML}`)).toEqual([
      {
        ruleId: 'read/unsupported-encoding',
        severity: 'error',
        message:
          'The XML declaration names encoding "UTF-16"; bomwright rewrites XML in UTF-8 (convert it first, e.g. with iconv)',
        pointer: '',
        line: 1,
        column: 1,
      },
    ]);
    const long = refusal(`<?xml version="1.0" encoding="${'x'.repeat(100)}"?>${XML}`)[0]!;
    expect(long.message.length).toBeLessThan(160);
    // Only the declaration at the very start names the encoding, not a processing instruction after it.
    expect(readDocument(`<!-- c --><?xml-stylesheet href="a.xsl" encoding="latin1"?>${XML}`).ok).toBe(true);
  });

  it('each failure of the reader with its rule, message and place', () => {
    expect(refusal(`<bom xmlns="${NS}">\n  <a></b></bom>`)).toEqual([
      {
        ruleId: 'xml/syntax',
        severity: 'error',
        message: 'Not well-formed XML: End tag b does not match start tag a',
        pointer: '',
        line: 2,
        column: 6,
      },
    ]);
    expect(refusal('\n<!DOCTYPE bom><bom/>')).toEqual([
      {
        ruleId: 'xml/doctype',
        severity: 'error',
        message: 'The document has a DOCTYPE; bomwright reads CycloneDX XML without DTDs or entity declarations',
        pointer: '',
        line: 2,
        column: 1,
      },
    ]);
    const deep = `<bom xmlns="${NS}">${'<a>'.repeat(300)}${'</a>'.repeat(300)}</bom>`;
    expect(refusal(deep)).toMatchObject([
      { ruleId: 'xml/too-deep', message: 'Elements are nested deeper than 256 levels', pointer: '', line: 1 },
    ]);
  });

  it('a root that is no CycloneDX <bom>, placed where it stands', () => {
    expect(refusal(`<!-- x -->\n\n  <bom xmlns="${NS.replace('1.6', '2.0')}"/>`)).toMatchObject([
      { ruleId: 'bom/unsupported-version', line: 3, column: 3 },
    ]);
  });
});

describe('a document made from a model already read', () => {
  it('JSON: the model as given, located in its text, written in its layout or as XML', () => {
    const text = `${JSON.stringify(MODEL, null, 3)}\n`;
    const document = jsonDocument(text, MODEL);
    expect(document).toMatchObject({ syntax: 'json', model: MODEL, text, byteOrderMark: false, xmlSigned: false });
    expect(document.diagnostics).toEqual([]);
    expect(document.locate('/components/0/name')).toEqual({ line: 8, column: 10 });
    expect(document.write(MODEL)).toBe(text);
    expect(read(document.write(MODEL, { to: 'xml' })).model).toEqual(MODEL);
    expect(document.write(MODEL, { to: 'json' })).toBe(text);
  });

  it('XML: a signature found in the text when the caller did not say; the model written in either syntax', () => {
    const signed = XML.replace(
      '</bom>',
      '<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo/></ds:Signature></bom>',
    );
    expect(xmlDocument(signed, MODEL).xmlSigned).toBe(true);
    expect(xmlDocument(XML, MODEL).xmlSigned).toBe(false);
    // A Signature of another namespace is none; one deep in the tree is one.
    expect(xmlDocument(XML.replace('</bom>', '<Signature xmlns="urn:other"/></bom>'), MODEL).xmlSigned).toBe(false);
    const deep = XML.replace('<name>a</name>', '<name>a</name><Signature xmlns="http://www.w3.org/2000/09/xmldsig#"/>');
    expect(xmlDocument(deep, MODEL).xmlSigned).toBe(true);
    // What the caller said stands.
    expect(xmlDocument(XML, MODEL, false, true).xmlSigned).toBe(true);
    const document = xmlDocument(XML, MODEL);
    expect(document.locate('/components/0/name')).toEqual({
      line: 1,
      column: XML.indexOf('<name>') + 1,
      path: '/bom/components/component/name',
    });
    expect(document.locate('/nowhere/at/all')).toMatchObject({ path: '/bom' });
    expect(JSON.parse(document.write(MODEL, { to: 'json' }))).toEqual(MODEL);
    expect(document.write(MODEL, { to: 'xml' })).toBe(XML);
    expect(xmlDocument(XML, MODEL, true).write(MODEL)).toBe(`\uFEFF${XML}`);
  });

  it('XML whose text the reader cannot read again is an internal error when a place is asked for', () => {
    const document = xmlDocument('<bom', MODEL);
    expect(() => document.locate('/version')).toThrow(/The XML reader disagrees with itself/);
  });
});

describe('the model without what only JSON can carry', () => {
  it('$schema is left out, every other member kept in its order; a model without it is the same object', () => {
    const withSchema = { $schema: 'http://cyclonedx.org/schema/bom-1.6.schema.json', ...MODEL };
    const neutral = syntaxNeutralModel(withSchema);
    expect(neutral).toEqual(MODEL);
    expect(Object.keys(neutral as object)).toEqual(Object.keys(MODEL));
    expect(withSchema.$schema).toBeDefined();
    expect(syntaxNeutralModel(MODEL)).toBe(MODEL);
    const list = [withSchema];
    expect(syntaxNeutralModel(list)).toBe(list);
    expect(syntaxNeutralModel(null)).toBeNull();
    // A member named __proto__ stays a member (JSON.parse makes it one).
    const odd = JSON.parse('{"$schema":"x","__proto__":{"a":1},"b":2}') as Record<string, unknown>;
    const copy = syntaxNeutralModel(odd) as Record<string, unknown>;
    expect(Object.keys(copy)).toEqual(['__proto__', 'b']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });
});
