/**
 * The XML writer (src/xml/write.ts) given values of a shape the XSD does not hold where they stand: each is left
 * out and told, with its pointer and why, and the rest is written; the characters XML 1.0 cannot carry; the
 * writer's own options. (write.test.ts writes the shapes that fit.)
 */
import { describe, expect, it } from 'vitest';
import { readDocument } from '../../src/index.js';
import { writeXml } from '../../src/xml/write.js';
import { expectErrorCode } from '../helpers.js';

const bom = (extra: Record<string, unknown>, specVersion = '1.6') => ({
  bomFormat: 'CycloneDX',
  specVersion,
  version: 1,
  ...extra,
});

function written(document: Record<string, unknown>): { xml: string; dropped: [string, string][] } {
  const dropped: [string, string][] = [];
  const xml = writeXml(document, { onDrop: (pointer, reason) => dropped.push([pointer, reason]) });
  return { xml, dropped };
}

function modelOf(xml: string): unknown {
  const read = readDocument(xml);
  if (!read.ok) throw new Error(JSON.stringify(read.diagnostics));
  return read.document.model;
}

describe('values the XML form cannot hold where they stand', () => {
  it('each is left out and told; what fits beside it is written', () => {
    const { xml, dropped } = written(
      bom({
        metadata: { timestamp: ['2024-01-01T00:00:00Z'], tools: 'a tool', authors: 'me', supplier: 'x' },
        components: [
          { type: ['library'], name: { first: 'a' }, hashes: 'abc', description: 'kept' },
          'a component that is a string',
          { type: 'library', name: 'b', properties: [{ name: 'p', value: '' }], licenses: [{ unknown: 1 }] },
          { type: 'library', name: 'c', licenses: [{ license: { id: 'MIT' }, extra: true }, { expression: 'MIT' }] },
        ],
        dependencies: [{ ref: 'a', dependsOn: [5, 'b'] }],
        properties: [{ name: 'q', value: { nested: true } }],
        unknownRootMember: 1,
      }),
    );
    expect(dropped).toEqual([
      ['/metadata/timestamp', '<timestamp> holds a single value'],
      ['/metadata/tools', '<tools> holds members, not string'],
      ['/metadata/authors', '<authors> holds a list'],
      ['/metadata/supplier', '<supplier> holds members, not string'],
      ['/components/0/type', 'the attribute type holds a single value'],
      ['/components/0/name', '<name> holds a single value'],
      ['/components/0/hashes', '<hashes> holds a list'],
      ['/components/1', '<component> holds members, not string'],
      ['/components/2/licenses/0', 'no item of <licenses> holds this value'],
      ['/components/2/properties/0/value', 'an empty text reads as no text'],
      ['/components/3/licenses/0/extra', 'CycloneDX 1.6 XML has no such member'],
      ['/dependencies/0/dependsOn/0', 'a reference must be a string'],
      ['/properties/0/value', 'the text holds a single value'],
      ['/unknownRootMember', 'CycloneDX 1.6 XML has no such member'],
    ]);
    expect(modelOf(xml)).toEqual(
      bom({
        metadata: {},
        components: [
          { description: 'kept' },
          { type: 'library', name: 'b', licenses: [], properties: [{ name: 'p' }] },
          { type: 'library', name: 'c', licenses: [{ license: { id: 'MIT' } }, { expression: 'MIT' }] },
        ],
        dependencies: [{ ref: 'a', dependsOn: ['b'] }],
        properties: [{ name: 'q' }],
      }),
    );
  });

  it('an element left without content is written empty; one with text alone on one line', () => {
    const { xml } = written(bom({ metadata: {}, components: [{ type: 'library', name: 'n' }] }));
    expect(xml).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<bom xmlns="http://cyclonedx.org/schema/bom/1.6" version="1">',
        '  <metadata/>',
        '  <components>',
        '    <component type="library">',
        '      <name>n</name>',
        '    </component>',
        '  </components>',
        '</bom>',
        '',
      ].join('\n'),
    );
  });

  it('indents by what it is given', () => {
    const xml = writeXml(bom({ components: [{ type: 'library', name: 'n' }] }), { indent: '\t' });
    expect(xml).toContain('\n\t<components>\n\t\t<component type="library">\n\t\t\t<name>n</name>\n');
    expect(writeXml(bom({ metadata: {} }), { indent: '' })).toContain('\n<metadata/>\n');
  });
});

describe('characters', () => {
  const named = (name: string) => writeXml(bom({ components: [{ type: 'library', name, 'bom-ref': 'r' }] }));
  const referenced = (ref: string) => writeXml(bom({ components: [{ type: 'library', name: 'n', 'bom-ref': ref }] }));

  it('those XML 1.0 cannot carry at all are refused, in text and in attributes, named by their code point', () => {
    for (const [bad, code] of [
      ['\u0001', 'U+0001'],
      ['\u0008', 'U+0008'],
      ['\u000B', 'U+000B'],
      ['\u000C', 'U+000C'],
      ['\u000E', 'U+000E'],
      ['\u001F', 'U+001F'],
      ['\uFFFE', 'U+FFFE'],
      ['\uFFFF', 'U+FFFF'],
      ['\uDBFF', 'U+DBFF'],
      ['\uDC00', 'U+DC00'],
      ['a\uDFFF', 'U+DFFF'],
    ] as const) {
      for (const write of [named, referenced])
        expect(expectErrorCode(() => write(`x${bad}y`), 'E_CONVERT').message).toBe(
          `The value holds ${code}, which XML 1.0 cannot carry`,
        );
    }
  });

  it('those beside them are written, and a surrogate pair is one character', () => {
    for (const good of ['\t', '\n', '\u0020', '\uD7FF', '\uE000', '\uFFFD', '\uDBFF\uDFFF', '\uD800\uDC00'])
      expect(modelOf(named(`x${good}y`))).toMatchObject({ components: [{ name: `x${good}y` }] });
  });

  it('carriage returns, tabs and newlines are references where a reader would change them', () => {
    expect(named('a\rb')).toContain('<name>a&#13;b</name>');
    const attribute = referenced('a\r\t\n"<>&b');
    expect(attribute).toContain('bom-ref="a&#13;&#9;&#10;&quot;&lt;>&amp;b"');
    expect(modelOf(attribute)).toMatchObject({ components: [{ 'bom-ref': 'a\r\t\n"<>&b' }] });
    expect(modelOf(named('a\rb'))).toMatchObject({ components: [{ name: 'a\rb' }] });
  });
});
