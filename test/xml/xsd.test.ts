/**
 * The XML ↔ model mapping derived from an XSD (src/xml/xsd.ts): what the build derives from the official XSDs is
 * what the reader and the writer load (whose reading the twin fixtures check: twins.test.ts), and each construct
 * of XML Schema maps as the mapping's documentation says, on small schemas of its own.
 */
import { describe, expect, it } from 'vitest';
import { buildXmlMapping } from '../../src/build/xml-mapping.js';
import { xmlMapping } from '../../src/xml/mapping.js';
import { XML_SPEC_VERSIONS } from '../../src/xml/versions.js';
import { compileXsd, type MappedType } from '../../src/xml/xsd.js';

describe('the official XSDs', () => {
  // One test per version: each compiles only its own XSD.
  it.each(XML_SPEC_VERSIONS)('%s: the mapping derived now is the one the reader and the writer load', (version) => {
    expect(buildXmlMapping(version)).toEqual(xmlMapping(version));
  });
});

const XS = 'http://www.w3.org/2001/XMLSchema';

/** A schema whose `<bom>` has the given content, with further global declarations after it. */
function xsd(bom: string, globals = ''): string {
  return `<?xml version="1.0"?>
<xs:schema xmlns:xs="${XS}" xmlns:bom="urn:test" targetNamespace="urn:test">
  <xs:element name="bom">${bom}</xs:element>
  ${globals}
</xs:schema>`;
}

/** The root type of a compiled schema, and a way to follow an element to its type. */
function compiled(text: string, jsonSchema?: Record<string, unknown>) {
  const mapping = compileXsd('9.9', text, jsonSchema);
  const root = mapping.types[mapping.root]!;
  const typeOf = (type: MappedType, element: string): MappedType => {
    const declared = type.elements.find((e) => e.xml === element);
    if (declared === undefined || typeof declared.type !== 'number') throw new Error(`no complex <${element}>`);
    return mapping.types[declared.type]!;
  };
  return { mapping, root, typeOf };
}

describe('a schema the mapping does not know fails the build instead of being read wrongly', () => {
  const complex = (content: string) => xsd(`<xs:complexType>${content}</xs:complexType>`);
  it.each([
    ['text that is not XML', '<xs:schema', /^The XSD of CycloneDX 9\.9 cannot be read: /],
    [
      'no <bom>',
      xsd('').replace('name="bom"', 'name="other"'),
      /^The XSD of CycloneDX 9\.9 declares no <bom> element$/,
    ],
    [
      'a <bom> of simple type',
      xsd('').replace('name="bom">', 'name="bom" type="xs:string">'),
      /^The XSD of CycloneDX 9\.9 declares <bom> as a simple type$/,
    ],
    [
      'complex content',
      complex('<xs:complexContent/>'),
      /^The XSD's type bom uses <xs:complexContent>, which the XML mapping does not know$/,
    ],
    [
      'a model group',
      complex('<xs:sequence><xs:group ref="bom:g"/></xs:sequence>'),
      /^The XSD's type bom uses <xs:group>, which the XML mapping does not know$/,
    ],
    [
      'an unknown type',
      complex('<xs:sequence><xs:element name="a" type="bom:nowhere"/></xs:sequence>'),
      /^The XSD names an unknown type bom:nowhere$/,
    ],
    [
      'an unknown attribute group',
      complex('<xs:attributeGroup ref="bom:nowhere"/>'),
      /^The XSD names an unknown attribute group bom:nowhere$/,
    ],
    [
      'an unknown element',
      complex('<xs:sequence><xs:element ref="bom:nowhere"/></xs:sequence>'),
      /^The XSD names an unknown element bom:nowhere$/,
    ],
    [
      'an element without a name',
      complex('<xs:sequence><xs:element type="xs:string"/></xs:sequence>'),
      /^The XSD's type bom has an element without a name$/,
    ],
  ])('%s', (_, text, message) => {
    expect(() => compileXsd('9.9', text)).toThrow(message);
  });

  it('annotations, assertions, wildcards and attribute references are no part of the model', () => {
    const { root } = compiled(
      xsd(`<xs:annotation/><xs:complexType>
        <xs:annotation><xs:documentation>the root</xs:documentation></xs:annotation>
        <xs:sequence><xs:annotation/><xs:element name="a" type="xs:string"/><xs:any namespace="##other"/></xs:sequence>
        <xs:attribute ref="xml:lang"/><xs:anyAttribute/><xs:assert test="true()"/>
      </xs:complexType>`),
    );
    expect(root).toEqual({
      name: 'bom',
      shape: 'record',
      attributes: [],
      elements: [{ xml: 'a', json: 'a', many: false, type: 'string' }],
    });
  });
});

describe('the kinds of value', () => {
  const INTEGERS = [
    'integer',
    'int',
    'long',
    'short',
    'positiveInteger',
    'nonNegativeInteger',
    'negativeInteger',
    'nonPositiveInteger',
    'unsignedInt',
    'unsignedLong',
    'unsignedShort',
  ];
  it("XML Schema's built-in types: booleans, integers and numbers as JSON's, everything else a string", () => {
    const builtins = [...INTEGERS, 'boolean', 'decimal', 'double', 'float', 'dateTime', 'string', 'anyURI', 'byte'];
    const elements = builtins.map((t, i) => `<xs:element name="e${i}" type="xs:${t}"/>`).join('');
    // The `xsd:` prefix is XML Schema's too; another namespace's types (SPDX's licence ids) are strings.
    const more = '<xs:element name="p" type="xsd:boolean"/><xs:element name="spdx" type="spdx:licenseId"/>';
    const { root } = compiled(
      xsd(`<xs:complexType><xs:sequence>${elements}${more}</xs:sequence></xs:complexType>`).replace(
        '<xs:schema ',
        `<xs:schema xmlns:xsd="${XS}" xmlns:spdx="urn:spdx" `,
      ),
    );
    expect(root.elements.map((e) => e.type)).toEqual([
      ...INTEGERS.map(() => 'integer'),
      'boolean',
      'number',
      'number',
      'number',
      'string',
      'string',
      'string',
      'string',
      'boolean',
      'string',
    ]);
  });

  it('a simple type is the kind of its restriction; a union, a list or a bare restriction is text', () => {
    const { root } = compiled(
      xsd(
        `<xs:complexType><xs:sequence>
          <xs:element name="count" type="bom:count"/>
          <xs:element name="either" type="bom:either"/>
          <xs:element name="list" type="bom:list"/>
          <xs:element name="bare" type="bom:bare"/>
          <xs:element name="empty" type="bom:empty"/>
          <xs:element name="inline"><xs:simpleType><xs:restriction base="xs:boolean"/></xs:simpleType></xs:element>
          <xs:element name="untyped"/>
          <xs:element name="complexBase" type="bom:onComplex"/>
        </xs:sequence>
        <xs:attribute name="n" type="bom:count"/>
        <xs:attribute name="inline"><xs:simpleType><xs:restriction base="xs:double"/></xs:simpleType></xs:attribute>
        <xs:attribute name="plain"/>
        <xs:attribute name="record" type="bom:record"/>
        </xs:complexType>`,
        `<xs:simpleType name="count"><xs:annotation/><xs:restriction base="xs:nonNegativeInteger"/></xs:simpleType>
        <xs:simpleType name="either"><xs:union memberTypes="xs:integer xs:string"/></xs:simpleType>
        <xs:simpleType name="list"><xs:list itemType="xs:integer"/></xs:simpleType>
        <xs:simpleType name="bare"><xs:restriction><xs:simpleType><xs:restriction base="xs:integer"/></xs:simpleType></xs:restriction></xs:simpleType>
        <xs:simpleType name="empty"/>
        <xs:complexType name="record"><xs:sequence><xs:element name="x"/></xs:sequence></xs:complexType>
        <xs:simpleType name="onComplex"><xs:restriction base="bom:record"/></xs:simpleType>`,
      ),
    );
    expect(root.elements.map((e) => [e.xml, e.type])).toEqual([
      ['count', 'integer'],
      ['either', 'string'],
      ['list', 'string'],
      ['bare', 'string'],
      ['empty', 'string'],
      ['inline', 'boolean'],
      ['untyped', 'string'],
      ['complexBase', 'string'],
    ]);
    expect(root.attributes).toEqual([
      { xml: 'n', json: 'n', scalar: 'integer' },
      { xml: 'inline', json: 'inline', scalar: 'number' },
      { xml: 'plain', json: 'plain', scalar: 'string' },
      { xml: 'record', json: 'record', scalar: 'string' },
    ]);
  });

  it('simple content: its text member, its kind, and white space collapsed for all but strings', () => {
    const content = (base: string, attributes = '') =>
      `<xs:complexType><xs:simpleContent><xs:extension base="${base}">${attributes}</xs:extension></xs:simpleContent></xs:complexType>`;
    const { root, typeOf } = compiled(
      xsd(
        `<xs:complexType><xs:sequence>
          <xs:element name="s">${content('xs:string')}</xs:element>
          <xs:element name="n">${content('xs:normalizedString')}</xs:element>
          <xs:element name="t">${content('xs:token')}</xs:element>
          <xs:element name="i">${content('xs:integer')}</xs:element>
          <xs:element name="v">${content('bom:value')}</xs:element>
          <xs:element name="w">${content('bom:words')}</xs:element>
          <xs:element name="deep">${content('bom:deep')}</xs:element>
          <xs:element name="hash" type="bom:hash"/>
          <xs:element name="more">${content('bom:hash', '<xs:attribute name="extra"/><xs:attributeGroup ref="bom:group"/>')}</xs:element>
          <xs:element name="nobase"><xs:complexType><xs:simpleContent><xs:extension/></xs:simpleContent></xs:complexType></xs:element>
          <xs:element name="none"><xs:complexType><xs:simpleContent/></xs:complexType></xs:element>
          <xs:element name="expression">${content('xs:string')}</xs:element>
          <xs:element name="property" type="bom:propertyType"/>
        </xs:sequence></xs:complexType>`,
        `<xs:simpleType name="value"><xs:restriction base="xs:token"/></xs:simpleType>
        <xs:simpleType name="words"><xs:restriction base="xs:string"/></xs:simpleType>
        <xs:simpleType name="deep"><xs:restriction base="bom:value"/></xs:simpleType>
        <xs:complexType name="hash">${content('bom:value', '<xs:attribute name="alg"/>').slice('<xs:complexType>'.length, -'</xs:complexType>'.length)}</xs:complexType>
        <xs:complexType name="propertyType">${content('xs:string').slice('<xs:complexType>'.length, -'</xs:complexType>'.length)}</xs:complexType>
        <xs:attributeGroup name="group"><xs:attribute name="g"/><xs:attributeGroup ref="bom:inner"/></xs:attributeGroup>
        <xs:attributeGroup name="inner"><xs:attribute name="h"/></xs:attributeGroup>`,
      ),
    );
    const text = (name: string) => typeOf(root, name).text;
    expect(text('s')).toEqual({ json: 'content', scalar: 'string', trim: false });
    expect(text('n')).toEqual({ json: 'content', scalar: 'string', trim: false });
    expect(text('t')).toEqual({ json: 'content', scalar: 'string', trim: true });
    expect(text('i')).toEqual({ json: 'content', scalar: 'integer', trim: true });
    expect(text('v')).toEqual({ json: 'content', scalar: 'string', trim: true });
    expect(text('w')).toEqual({ json: 'content', scalar: 'string', trim: false });
    expect(text('deep')).toEqual({ json: 'content', scalar: 'string', trim: true });
    expect(text('hash')).toEqual({ json: 'content', scalar: 'string', trim: true });
    expect(text('nobase')).toEqual({ json: 'content', scalar: 'string', trim: false });
    expect(text('none')).toEqual({ json: 'content', scalar: 'string', trim: false });
    // A property's text is its value, an inline licence expression's its expression (SYNTAX_DIFFERENCES).
    expect(text('property')).toEqual({ json: 'value', scalar: 'string', trim: false });
    expect(text('expression')).toEqual({ json: 'expression', scalar: 'string', trim: false });
    // Extending a type with simple content: its text, and its attributes before the new ones.
    expect(typeOf(root, 'more')).toMatchObject({
      shape: 'record',
      text: { json: 'content', scalar: 'string', trim: true },
      attributes: ['alg', 'extra', 'g', 'h'].map((xml) => ({ xml, json: xml, scalar: 'string' })),
    });
  });

  it("white space of a simple type follows its restriction's base through a chain of simple types", () => {
    const { root, typeOf } = compiled(
      xsd(
        `<xs:complexType><xs:sequence><xs:element name="c">
          <xs:complexType><xs:simpleContent><xs:extension base="bom:a"/></xs:simpleContent></xs:complexType>
        </xs:element></xs:sequence></xs:complexType>`,
        `<xs:simpleType name="a"><xs:restriction base="bom:b"/></xs:simpleType>
        <xs:simpleType name="b"><xs:restriction base="xs:string"/></xs:simpleType>`,
      ),
    );
    expect(typeOf(root, 'c').text?.trim).toBe(false);
  });
});

describe('how a complex type appears in JSON', () => {
  const SHAPES = xsd(
    `<xs:complexType><xs:sequence>
      <xs:element name="hashes"><xs:complexType><xs:sequence>
        <xs:element name="hash" type="xs:string" maxOccurs="unbounded"/>
      </xs:sequence></xs:complexType></xs:element>
      <xs:element name="pair"><xs:complexType><xs:sequence maxOccurs="2">
        <xs:element name="a"/><xs:element name="b"/>
      </xs:sequence></xs:complexType></xs:element>
      <xs:element name="once"><xs:complexType><xs:sequence maxOccurs="1">
        <xs:element name="a"/><xs:element name="b" maxOccurs="1"/>
      </xs:sequence></xs:complexType></xs:element>
      <xs:element name="tools"><xs:complexType><xs:choice>
        <xs:sequence minOccurs="0"><xs:element name="tool" maxOccurs="unbounded"/></xs:sequence>
        <xs:sequence minOccurs="0"><xs:element name="components"/><xs:element name="services"/></xs:sequence>
      </xs:choice></xs:complexType></xs:element>
      <xs:element name="repeatedOnly"><xs:complexType><xs:choice>
        <xs:sequence><xs:element name="x" maxOccurs="unbounded"/></xs:sequence>
        <xs:sequence><xs:element name="y" maxOccurs="unbounded"/></xs:sequence>
      </xs:choice></xs:complexType></xs:element>
      <xs:element name="mixedBranch"><xs:complexType><xs:choice>
        <xs:sequence><xs:element name="x" maxOccurs="unbounded"/><xs:element name="z"/></xs:sequence>
        <xs:sequence><xs:element name="y"/></xs:sequence>
      </xs:choice></xs:complexType></xs:element>
      <xs:element name="emptyBranch"><xs:complexType><xs:choice>
        <xs:sequence/>
        <xs:sequence><xs:element name="x" maxOccurs="unbounded"/><xs:element name="y"/></xs:sequence>
      </xs:choice></xs:complexType></xs:element>
      <xs:element name="seqChoice"><xs:complexType><xs:sequence>
        <xs:sequence><xs:element name="x" maxOccurs="unbounded"/></xs:sequence>
        <xs:sequence><xs:element name="y"/></xs:sequence>
      </xs:sequence></xs:complexType></xs:element>
      <xs:element name="assembly" maxOccurs="unbounded"><xs:complexType><xs:attribute name="ref"/></xs:complexType></xs:element>
      <xs:element name="named"><xs:complexType><xs:attribute name="name"/></xs:complexType></xs:element>
      <xs:element name="twoAttributes"><xs:complexType><xs:attribute name="ref"/><xs:attribute name="x"/></xs:complexType></xs:element>
      <xs:element name="attributed"><xs:complexType><xs:sequence>
        <xs:element name="x" maxOccurs="unbounded"/>
      </xs:sequence><xs:attribute name="a"/></xs:complexType></xs:element>
      <xs:element name="asserter"><xs:complexType><xs:choice>
        <xs:element name="organization"/><xs:element name="ref"/>
      </xs:choice></xs:complexType></xs:element>
      <xs:element name="state"><xs:complexType><xs:choice>
        <xs:sequence><xs:element name="state"/><xs:element name="reason"/></xs:sequence>
        <xs:sequence><xs:element name="name"/><xs:element name="reason"/></xs:sequence>
      </xs:choice></xs:complexType></xs:element>
      <xs:element name="text"><xs:complexType mixed="true"><xs:sequence>
        <xs:element name="url" minOccurs="0"/>
      </xs:sequence></xs:complexType></xs:element>
      <xs:element name="mixedFalse"><xs:complexType mixed="false"/></xs:element>
    </xs:sequence></xs:complexType>`,
  );

  it('a wrapper of repeated items is a list; a record that repeats whole, or at most once, is a record', () => {
    const { root, typeOf } = compiled(SHAPES);
    expect(typeOf(root, 'hashes')).toMatchObject({
      shape: 'list',
      elements: [{ xml: 'hash', many: true, type: 'string' }],
    });
    expect(typeOf(root, 'pair')).toMatchObject({ shape: 'list', elements: [{ many: true }, { many: true }] });
    expect(typeOf(root, 'once')).toMatchObject({ shape: 'record', elements: [{ many: false }, { many: false }] });
    expect(typeOf(root, 'seqChoice').shape).toBe('record');
    expect(typeOf(root, 'attributed').shape).toBe('record');
  });

  it('a choice between repeated items and single members is a record or a list, as the children tell', () => {
    const { root, typeOf } = compiled(SHAPES);
    expect(typeOf(root, 'tools')).toMatchObject({
      shape: 'record-or-list',
      elements: [
        { xml: 'tool', many: true },
        { xml: 'components', many: false },
        { xml: 'services', many: false },
      ],
    });
    expect(typeOf(root, 'repeatedOnly').shape).toBe('list');
    // A branch that mixes both kinds, or has nothing, decides nothing.
    expect(typeOf(root, 'mixedBranch').shape).toBe('record');
    expect(typeOf(root, 'emptyBranch').shape).toBe('record');
  });

  it('an element with only a ref attribute is the reference; any other attribute makes a record', () => {
    const { root, typeOf } = compiled(SHAPES);
    const assembly = root.elements.find((e) => e.xml === 'assembly');
    expect(assembly).toMatchObject({ many: true });
    expect(typeOf(root, 'assembly')).toMatchObject({ shape: 'ref', attributes: [{ xml: 'ref' }] });
    expect(typeOf(root, 'named').shape).toBe('record');
    expect(typeOf(root, 'twoAttributes').shape).toBe('record');
  });

  it('a choice of single elements is a record of its members until JSON names none for them', () => {
    const { root, typeOf } = compiled(SHAPES);
    expect(typeOf(root, 'asserter')).toMatchObject({
      shape: 'record',
      elements: [{ xml: 'organization' }, { xml: 'ref' }],
    });
    expect(typeOf(root, 'asserter')).not.toHaveProperty('oneOf');
    const schema = {
      type: 'object',
      properties: { asserter: { oneOf: [{ type: 'string' }, { type: 'object', properties: { name: {} } }] } },
    };
    const aligned = compiled(SHAPES, schema);
    expect(aligned.typeOf(aligned.root, 'asserter')).toMatchObject({
      shape: 'choice',
      elements: [
        { xml: 'organization', type: 'string' },
        { xml: 'ref', type: 'string' },
      ],
    });
  });

  it('a name in two branches of a choice stands once, at its last place', () => {
    const { root, typeOf } = compiled(SHAPES);
    expect(typeOf(root, 'state').elements.map((e) => e.xml)).toEqual(['state', 'name', 'reason']);
  });

  it('mixed content is said; a type that is not mixed says nothing', () => {
    const { root, typeOf } = compiled(SHAPES);
    expect(typeOf(root, 'text')).toMatchObject({ shape: 'record', mixed: true });
    expect(typeOf(root, 'mixedFalse')).not.toHaveProperty('mixed');
  });

  it('a named type is one type wherever it is used; recursive types stay recursive; unused ones are left out', () => {
    const { mapping, root } = compiled(
      xsd(
        `<xs:complexType><xs:sequence>
          <xs:element name="one" type="bom:t"/>
          <xs:element name="two" type="bom:t"/>
          <xs:element name="three"><xs:complexType><xs:attribute name="b"/></xs:complexType></xs:element>
          <xs:element name="component" type="bom:component"/>
        </xs:sequence></xs:complexType>`,
        `<xs:complexType name="t"><xs:attribute name="a"/></xs:complexType>
        <xs:complexType name="unused"><xs:attribute name="a"/></xs:complexType>
        <xs:complexType name="component"><xs:sequence>
          <xs:element name="components"><xs:complexType><xs:sequence>
            <xs:element name="component" type="bom:component" maxOccurs="unbounded"/>
          </xs:sequence></xs:complexType></xs:element>
        </xs:sequence></xs:complexType>`,
      ),
    );
    const [one, two, three, component] = root.elements;
    expect(one!.type).toBe(two!.type);
    expect(three!.type).not.toBe(one!.type);
    const componentType = mapping.types[component!.type as number]!;
    const wrapper = mapping.types[componentType.elements[0]!.type as number]!;
    expect(wrapper.elements[0]!.type).toBe(component!.type);
    // Only types reachable from the root, each once.
    expect(mapping.types).toHaveLength(5);
    expect(mapping.types[mapping.root]).toBe(root);
  });
});

describe("the JSON side: what the same version's JSON schema says", () => {
  const XSD = xsd(
    `<xs:complexType><xs:sequence>
      <xs:element name="flag" type="xs:string"/>
      <xs:element name="mixedKinds" type="xs:string"/>
      <xs:element name="objectKind" type="xs:integer"/>
      <xs:element name="tags" type="xs:string"/>
      <xs:element name="party" type="bom:party"/>
      <xs:element name="identity" type="bom:party" maxOccurs="unbounded"/>
      <xs:element name="old" type="bom:party" maxOccurs="unbounded"/>
      <xs:element name="other" type="bom:party"/>
      <xs:element name="hashes"><xs:complexType><xs:sequence>
        <xs:element name="hash" type="xs:string" maxOccurs="unbounded"/>
      </xs:sequence></xs:complexType></xs:element>
      <xs:element name="notes"><xs:complexType><xs:sequence maxOccurs="unbounded">
        <xs:element name="a"/><xs:element name="b"/>
      </xs:sequence></xs:complexType></xs:element>
      <xs:element name="copyright"><xs:complexType><xs:sequence>
        <xs:element name="text" maxOccurs="unbounded"/>
      </xs:sequence></xs:complexType></xs:element>
      <xs:element name="count"><xs:complexType><xs:simpleContent><xs:extension base="xs:string"/></xs:simpleContent></xs:complexType></xs:element>
      <xs:element name="external" type="xs:string"/>
    </xs:sequence>
    <xs:attribute name="x-y" type="xs:string"/>
    <xs:attribute name="plain" type="xs:string"/>
    </xs:complexType>`,
    `<xs:complexType name="party"><xs:sequence><xs:element name="name"/></xs:sequence><xs:attribute name="n" type="xs:string"/></xs:complexType>`,
  );
  const party = { type: 'object', properties: { name: { type: 'string' }, n: { type: 'number' } } };
  const SCHEMA = {
    type: 'object',
    definitions: { party, flag: { type: 'boolean' } },
    properties: {
      xY: { type: 'integer' },
      plain: { type: 'string' },
      flag: { $ref: '#/definitions/flag' },
      mixedKinds: { oneOf: [{ type: 'integer' }, { type: 'string' }] },
      objectKind: { type: 'object' },
      tags: { type: 'array', items: { type: 'number' } },
      party: { $ref: '#/definitions/party' },
      identity: {
        oneOf: [{ $ref: '#/definitions/party' }, { type: 'array', items: { $ref: '#/definitions/party' } }],
      },
      old: {
        oneOf: [
          { $ref: '#/definitions/party', deprecated: true },
          { type: 'array', items: { $ref: '#/definitions/party' } },
        ],
      },
      other: { type: 'object', properties: { n: { type: 'boolean' } } },
      hashes: { type: 'array', items: { type: 'string' } },
      notes: { type: 'object', properties: { a: {}, b: {} } },
      copyright: { type: 'array', items: { type: 'object', properties: { text: { type: 'string' } } } },
      count: { type: 'object', properties: { content: { type: 'integer' } } },
      external: { $ref: 'other.schema.json#/definitions/x' },
    },
  };

  it("names and kinds: an attribute's camel-case name, a scalar's JSON kind where it names exactly one", () => {
    const { root } = compiled(XSD, SCHEMA);
    expect(root.attributes).toEqual([
      { xml: 'x-y', json: 'xY', scalar: 'integer' },
      { xml: 'plain', json: 'plain', scalar: 'string' },
    ]);
    const kind = (name: string) => root.elements.find((e) => e.xml === name)!;
    expect(kind('flag')).toEqual({ xml: 'flag', json: 'flag', many: false, type: 'boolean' });
    // Two kinds, or a kind that is no scalar, or a schema of another file: the XSD's kind stays.
    expect(kind('mixedKinds').type).toBe('string');
    expect(kind('objectKind').type).toBe('integer');
    expect(kind('external').type).toBe('string');
    // Without the JSON schema: the XSD's names and kinds.
    expect(compiled(XSD).root.attributes).toEqual([
      { xml: 'x-y', json: 'x-y', scalar: 'string' },
      { xml: 'plain', json: 'plain', scalar: 'string' },
    ]);
  });

  it('arrays: a JSON array repeats the element; one object or an array is read either way; a deprecated object is not', () => {
    const { root, mapping } = compiled(XSD, SCHEMA);
    const element = (name: string) => root.elements.find((e) => e.xml === name)!;
    expect(element('tags')).toEqual({ xml: 'tags', json: 'tags', many: true, type: 'number' });
    expect(element('identity')).toMatchObject({ many: false, either: true });
    expect(element('old')).toMatchObject({ many: true });
    expect(element('old')).not.toHaveProperty('either');
    expect(element('party')).toMatchObject({ many: false });
    expect(element('party')).not.toHaveProperty('either');
    // The party's attribute takes JSON's kind; where JSON says another kind, an aligned copy says it.
    const typeOf = (name: string) => mapping.types[element(name).type as number]!;
    expect(typeOf('party').attributes).toEqual([{ xml: 'n', json: 'n', scalar: 'number' }]);
    expect(typeOf('identity')).toBe(typeOf('party'));
    expect(typeOf('other').attributes).toEqual([{ xml: 'n', json: 'n', scalar: 'boolean' }]);
    expect(typeOf('other')).not.toBe(typeOf('party'));
  });

  it('a $ref that leads back to itself ends: the XSD kind stays', () => {
    const cyclic = {
      definitions: { a: { $ref: '#/definitions/b' }, b: { $ref: '#/definitions/a' } },
      properties: { flag: { $ref: '#/definitions/a' } },
    };
    const { root } = compiled(XSD, cyclic);
    expect(root.elements.find((e) => e.xml === 'flag')?.type).toBe('string');
  });

  it('wrappers: a list is the JSON array; a record the XSD lets repeat whole is one object; items under their name', () => {
    const { root, typeOf } = compiled(XSD, SCHEMA);
    expect(root.elements.find((e) => e.xml === 'hashes')).toMatchObject({ many: false });
    expect(typeOf(root, 'hashes')).toMatchObject({ shape: 'list', elements: [{ xml: 'hash', many: true }] });
    expect(typeOf(root, 'notes').shape).toBe('record');
    expect(compiled(XSD).typeOf(compiled(XSD).root, 'notes').shape).toBe('list');
    expect(typeOf(root, 'copyright').elements).toEqual([
      { xml: 'text', json: 'text', many: true, type: 'string', item: 'wrapped' },
    ]);
    expect(typeOf(root, 'count').text).toEqual({ json: 'content', scalar: 'integer', trim: false });
  });
});

describe('names in the schema', () => {
  it('a type named without a prefix is the schema’s own; with another prefix, of one letter too, a string', () => {
    const { root, typeOf } = compiled(
      xsd(
        `<xs:complexType><xs:sequence>
          <xs:element name="own" type="party"/>
          <xs:element name="foreign" type="b:party"/>
        </xs:sequence></xs:complexType>`,
        `<xs:complexType name="party"><xs:attribute name="n"/></xs:complexType>`,
      ).replace('<xs:schema ', '<xs:schema xmlns:b="urn:b" '),
    );
    expect(typeOf(root, 'own').attributes).toEqual([{ xml: 'n', json: 'n', scalar: 'string' }]);
    expect(root.elements.find((e) => e.xml === 'foreign')?.type).toBe('string');
  });

  it('only XML Schema’s own elements and unqualified attributes are read: foreign ones are no declarations', () => {
    const { root } = compiled(
      xsd(
        `<xs:complexType><f:note xmlns:f="urn:f">not a particle</f:note><xs:sequence>
          <xs:element f:label="x" xmlns:f="urn:f" name="a" maxOccurs="1"/>
        </xs:sequence></xs:complexType>`,
      ),
    );
    expect(root.elements).toEqual([{ xml: 'a', json: 'a', many: false, type: 'string' }]);
  });

  it('an element reference names a global element, not a group or an attribute of that name', () => {
    const text = xsd(
      `<xs:complexType><xs:sequence><xs:element ref="bom:g"/></xs:sequence></xs:complexType>`,
      `<xs:group name="g"><xs:sequence><xs:element name="x"/></xs:sequence></xs:group><xs:attribute name="g"/>`,
    );
    expect(() => compileXsd('9.9', text)).toThrow('The XSD names an unknown element bom:g');
  });

  it('a choice between repeated items and single members needs a branch of each that is not empty', () => {
    const { root, typeOf } = compiled(
      xsd(
        `<xs:complexType><xs:sequence>
          <xs:element name="noSingles"><xs:complexType><xs:choice>
            <xs:sequence/>
            <xs:sequence><xs:element name="x" maxOccurs="unbounded"/></xs:sequence>
            <xs:sequence><xs:element name="y"/><xs:element name="z" maxOccurs="unbounded"/></xs:sequence>
          </xs:choice></xs:complexType></xs:element>
          <xs:element name="noLists"><xs:complexType><xs:choice>
            <xs:sequence/>
            <xs:sequence><xs:element name="y"/></xs:sequence>
            <xs:sequence><xs:element name="w"/><xs:element name="z" maxOccurs="unbounded"/></xs:sequence>
          </xs:choice></xs:complexType></xs:element>
        </xs:sequence></xs:complexType>`,
      ),
    );
    expect(typeOf(root, 'noSingles').shape).toBe('record');
    expect(typeOf(root, 'noLists').shape).toBe('record');
  });

  it('aligned copies that differ only deeper down stay apart', () => {
    const text = xsd(
      `<xs:complexType><xs:sequence>
        <xs:element name="one" type="bom:outer"/><xs:element name="two" type="bom:outer"/>
      </xs:sequence></xs:complexType>`,
      `<xs:complexType name="outer"><xs:sequence><xs:element name="inner" type="bom:leaf"/></xs:sequence></xs:complexType>
      <xs:complexType name="leaf"><xs:attribute name="n"/></xs:complexType>`,
    );
    const leaf = (kind: string) => ({
      type: 'object',
      properties: { inner: { type: 'object', properties: { n: { type: kind } } } },
    });
    const { root, mapping } = compiled(text, {
      type: 'object',
      properties: { one: leaf('integer'), two: leaf('boolean') },
    });
    const inner = (name: string) => {
      const outer = mapping.types[root.elements.find((e) => e.xml === name)!.type as number]!;
      return mapping.types[outer.elements[0]!.type as number]!.attributes[0]!.scalar;
    };
    expect([inner('one'), inner('two')]).toEqual(['integer', 'boolean']);
  });
});

describe('a lifted element on the JSON side', () => {
  it("a data flow's classification takes its kinds from the data flow's own members", () => {
    const text = xsd(
      `<xs:complexType><xs:sequence><xs:element name="dataflow" type="bom:dataflow"/></xs:sequence></xs:complexType>`,
      `<xs:complexType name="dataflow"><xs:sequence>
        <xs:element name="classification" type="bom:dataClassificationType"/>
      </xs:sequence></xs:complexType>
      <xs:complexType name="dataClassificationType"><xs:simpleContent><xs:extension base="xs:string">
        <xs:attribute name="flow" type="xs:string"/>
      </xs:extension></xs:simpleContent></xs:complexType>`,
    );
    const schema = {
      type: 'object',
      properties: {
        dataflow: {
          type: 'object',
          properties: { classification: { type: 'string' }, flow: { type: 'integer' } },
        },
      },
    };
    const { root, typeOf } = compiled(text, schema);
    const dataflow = typeOf(root, 'dataflow');
    expect(dataflow.elements).toMatchObject([{ xml: 'classification', lifted: true, many: false }]);
    expect(typeOf(dataflow, 'classification')).toMatchObject({
      attributes: [{ xml: 'flow', json: 'flow', scalar: 'integer' }],
      text: { json: 'classification', scalar: 'string', trim: false },
    });
  });
});
