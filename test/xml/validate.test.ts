/**
 * CycloneDX XML through the library: every version against its official XSD, the rules shared with JSON through
 * the mapping reader, locations as XML paths with line:column, and the version rule across XML revisions.
 */
import { describe, expect, it } from 'vitest';
import { validate, type ValidationResult } from '../../src/index.js';

const NS = (v: string) => `http://cyclonedx.org/schema/bom/${v}`;
const SERIAL = 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79';
const VERSIONS = ['1.0', '1.1', '1.2', '1.3', '1.4', '1.5', '1.6', '1.7'];

/** A component every version accepts: 1.0 requires version and modified; 1.1 requires version. */
function component(v: string, attributes = '', extra = ''): string {
  const version = v === '1.0' || v === '1.1' || v === '1.2' || v === '1.3' ? '<version>1.0.0</version>' : '';
  const modified = v === '1.0' ? '<modified>false</modified>' : '';
  return `<component type="library"${attributes}><name>acme-lib</name>${version}${extra}${modified}</component>`;
}

export function xmlBom(v: string, body: string, rootAttributes = `version="1"`): string {
  const serial = v === '1.0' ? '' : ` serialNumber="${SERIAL}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<bom xmlns="${NS(v)}"${serial} ${rootAttributes}>\n${body}\n</bom>\n`;
}

const ids = (r: ValidationResult) => r.diagnostics.map((d) => d.ruleId);
const bytes = (text: string) => new TextEncoder().encode(text);

describe('CycloneDX XML against the official XSDs', () => {
  it.each(VERSIONS)('%s: a valid document is valid, read as XML of its version', async (v) => {
    const result = await validate(bytes(xmlBom(v, `<components>${component(v)}</components>`)));
    expect(result.diagnostics).toEqual([]);
    expect(result).toMatchObject({ valid: true, syntax: 'xml', formatId: `cyclonedx-${v}`, errors: 0 });
  });

  it.each(VERSIONS)('%s: an element the XSD does not define is an error at its XML path and line:column', async (v) => {
    const text = xmlBom(v, `<components>\n${component(v)}\n${component(v, '', '<colour>red</colour>')}\n</components>`);
    const result = await validate(text);
    expect(result.valid).toBe(false);
    const d = result.diagnostics.find((x) => x.pointer === '/bom/components/component[2]/colour');
    expect(d, JSON.stringify(result.diagnostics)).toMatchObject({ ruleId: 'schema/additional-property', line: 5 });
    expect(d!.message).toBe('<colour> is not an element of <component>');
    expect(d!.message).not.toContain('{http://cyclonedx.org');
    expect(d!.column).toBe(text.split('\n')[4]!.indexOf('<colour>') + 1);
  });

  it('names enum, pattern, missing and type failures with the JSON rule ids', async () => {
    const text = xmlBom(
      '1.6',
      `<components>
<component type="frobnicator"><name>a</name></component>
<component type="library"><name>b</name><hashes><hash alg="SHA-256">xyz</hash></hashes></component>
<component type="library"><version>1</version></component>
</components>`,
    );
    const result = await validate(text);
    expect(result.diagnostics.map((d) => [d.ruleId, d.pointer, d.line])).toEqual([
      ['schema/enum', '/bom/components/component[1]/@type', 4],
      ['schema/pattern', '/bom/components/component[2]/hashes/hash', 5],
      ['schema/required', '/bom/components/component[3]', 6],
    ]);
    expect(result.diagnostics[0]!.message).toMatch(
      /^\[facet 'enumeration'\] The value "frobnicator" is not an element/,
    );
    expect(result.diagnostics[2]!.message).toBe('Missing required <name> (before <version>)');
  });

  it('reports an unknown CycloneDX namespace, and XML that is not a BOM, clearly', async () => {
    const unknown = await validate(`<bom xmlns="${NS('2.0')}" version="1"/>`);
    expect(unknown.diagnostics).toEqual([
      {
        ruleId: 'bom/unsupported-version',
        severity: 'error',
        message:
          'XML namespace http://cyclonedx.org/schema/bom/2.0 is not a supported CycloneDX version; supported: http://cyclonedx.org/schema/bom/{1.0,1.1,1.2,1.3,1.4,1.5,1.6,1.7}',
        pointer: '/bom',
        line: 1,
        column: 1,
      },
    ]);
    expect(unknown.syntax).toBe('xml');
    const pom = await validate('<?xml version="1.0"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0"/>');
    expect(pom.diagnostics.map((d) => [d.ruleId, d.message, d.line])).toEqual([
      [
        'bom/not-a-bom',
        "The XML document's root is <project> in namespace http://maven.apache.org/POM/4.0.0, not a CycloneDX <bom>",
        2,
      ],
    ]);
    const noNamespace = await validate('<bom version="1"/>');
    expect(noNamespace.diagnostics[0]!.message).toBe("The XML document's root is <bom>, not a CycloneDX <bom>");
  });

  it('takes a prefixed root and default-namespace children alike', async () => {
    const text = `<cdx:bom xmlns:cdx="${NS('1.6')}" version="1"><cdx:components><cdx:component type="library"><cdx:name>a</cdx:name></cdx:component></cdx:components></cdx:bom>`;
    const result = await validate(text);
    expect(result).toMatchObject({ valid: true, formatId: 'cyclonedx-1.6', diagnostics: [] });
  });

  it('reports malformed XML once, with libxml2 line and column', async () => {
    const result = await validate(`<bom xmlns="${NS('1.6')}">\n  <components>\n</bom>`);
    expect(result.diagnostics).toEqual([
      {
        ruleId: 'xml/syntax',
        severity: 'error',
        message: 'Not well-formed XML: Opening and ending tag mismatch: components line 2 and bom',
        pointer: '',
        line: 3,
        column: 7,
      },
    ]);
    expect(result.syntax).toBe('xml');
  });

  it('refuses an encoding other than UTF-8 in the declaration of UTF-8 text, and accepts UTF-8 and ASCII', async () => {
    const body = `<bom xmlns="${NS('1.6')}" version="1"/>`;
    const latin = await validate(`<?xml version="1.0" encoding="ISO-8859-1"?>${body}`);
    expect(latin.diagnostics.map((d) => [d.ruleId, d.message])).toEqual([
      [
        'read/unsupported-encoding',
        'The XML declaration names encoding "ISO-8859-1", but the document is UTF-8; bomwright reads XML in UTF-8 or UTF-16',
      ],
    ]);
    for (const encoding of ['utf-8', 'UTF-8', 'US-ASCII'])
      expect((await validate(`<?xml version="1.0" encoding="${encoding}"?>${body}`)).valid, encoding).toBe(true);
  });

  it('reads a UTF-8 byte-order mark without a warning: in XML it belongs to the encoding (§4.3.3)', async () => {
    const result = await validate(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes(xmlBom('1.6', ''))]));
    expect(ids(result)).toEqual([]);
    expect(result.valid).toBe(true);
  });
});

describe('the JSON rules, on XML through the mapping reader', () => {
  it('bom-ref uniqueness: the second definition, naming the first by its XML path', async () => {
    const text = xmlBom(
      '1.6',
      `<metadata><component type="application" bom-ref="app"><name>app</name></component></metadata>
<components>
<component type="library" bom-ref="lib"><name>a</name></component>
<component type="library" bom-ref="app"><name>b</name></component>
</components>`,
    );
    const result = await validate(text);
    expect(result.diagnostics).toEqual([
      {
        ruleId: 'ref/duplicate-bom-ref',
        severity: 'error',
        message: 'bom-ref "app" is already defined by /bom/metadata/component/@bom-ref',
        pointer: '/bom/components/component[2]/@bom-ref',
        value: '"app"',
        line: 6,
        column: text.split('\n')[5]!.indexOf('bom-ref') + 1,
      },
    ]);
  });

  it('1.7: <bom-ref> elements in patentRefs are references, not definitions', async () => {
    const text = xmlBom(
      '1.7',
      `<components><component type="library"><name>a</name><patentAssertions><patentAssertion><assertionType>ownership</assertionType><patentRefs><bom-ref>patent-1</bom-ref></patentRefs></patentAssertion></patentAssertions></component></components>
<definitions><patents><patent bom-ref="patent-1"><patentNumber>US1</patentNumber><jurisdiction>US</jurisdiction><patentLegalStatus>pending</patentLegalStatus></patent></patents></definitions>`,
    );
    const result = await validate(text);
    expect(ids(result), JSON.stringify(result.diagnostics)).not.toContain('ref/duplicate-bom-ref');
  });

  it('dependency references resolve, nested and provided ones too (1.6)', async () => {
    const text = xmlBom(
      '1.6',
      `<components>${component('1.6', ' bom-ref="a"')}${component('1.6', ' bom-ref="b"')}</components>
<dependencies>
<dependency ref="a"><dependency ref="b"/><dependency ref="ghost"/></dependency>
<dependency ref="phantom"/>
<dependency ref="b"><provides ref="a"/><provides ref="nowhere"/></dependency>
</dependencies>`,
    );
    const result = await validate(text);
    expect(result.diagnostics.map((d) => [d.ruleId, d.pointer, d.message, d.line])).toEqual([
      [
        'ref/unresolved',
        '/bom/dependencies/dependency[1]/dependency[2]/@ref',
        'Reference "ghost" does not match any bom-ref in the document',
        5,
      ],
      [
        'ref/unresolved',
        '/bom/dependencies/dependency[2]/@ref',
        'Reference "phantom" does not match any bom-ref in the document',
        6,
      ],
      [
        'ref/unresolved',
        '/bom/dependencies/dependency[3]/provides[2]/@ref',
        'Reference "nowhere" does not match any bom-ref in the document',
        7,
      ],
    ]);
  });

  it('a BOM-Link in the dependency graph does not resolve: in 1.5+ the graph names this document only', async () => {
    const link = 'urn:cdx:3e671687-395b-41f5-a30f-a58921a69b79/1#lib';
    const body = (v: string) =>
      `<components>${component(v, ' bom-ref="a"')}</components><dependencies><dependency ref="a"><dependency ref="${link}"/></dependency></dependencies>`;
    const modern = await validate(xmlBom('1.5', body('1.5')));
    expect(ids(modern)).toEqual(['ref/unresolved']);
    expect(modern.diagnostics[0]?.message).toContain('belongs in externalReferences');
    expect(ids(await validate(xmlBom('1.4', body('1.4'))))).toEqual(['ref/unresolved']);
    const local = (v: string) =>
      `<components>${component(v, ' bom-ref="a"')}${component(v, ' bom-ref="b"')}</components><dependencies><dependency ref="a"><dependency ref="b"/></dependency></dependencies>`;
    expect((await validate(xmlBom('1.5', local('1.5')))).valid).toBe(true);
  });

  it.each([
    ['urn:uuid:3E671687-395B-41F5-A30F-A58921A69B79', 'bom/serial-number', 'error'],
    ['urn:uuid:00000000-0000-0000-0000-000000000000', 'bom/serial-number-nil', 'warning'],
    ['urn:uuid:3e671687-395b-41f5-730f-a58921a69b79', 'bom/serial-number-variant', 'warning'],
  ])('serialNumber %s: %s', async (serial, rule, severity) => {
    const text = `<bom xmlns="${NS('1.6')}" serialNumber="${serial}" version="1"/>`;
    const result = await validate(text);
    expect(result.diagnostics.map((d) => [d.ruleId, d.severity, d.pointer, d.column])).toEqual([
      [rule, severity, '/bom/@serialNumber', text.indexOf('serialNumber') + 1],
    ]);
  });

  it.each([
    ['0', ['bom/version']],
    ['1', []],
    ['9007199254740991', []],
    ['9007199254740992', ['bom/version']],
  ])('version="%s"', async (version, expected) => {
    const result = await validate(`<bom xmlns="${NS('1.6')}" version="${version}"/>`);
    expect(ids(result)).toEqual(expected);
    for (const d of result.diagnostics) expect(d.pointer).toBe('/bom/@version');
  });

  it('1.7: versionRange only on a component marked isExternal="true"', async () => {
    const range = '<versionRange>vers:npm/&gt;=1.0.0</versionRange>';
    const bom = (attributes: string) =>
      xmlBom(
        '1.7',
        `<components><component type="library"${attributes}><name>a</name>${range}</component></components>`,
      );
    for (const external of [' isExternal="true"', ' isExternal="1"'])
      expect((await validate(bom(external))).diagnostics, external).toEqual([]);
    for (const internal of ['', ' isExternal="false"', ' isExternal="0"']) {
      const result = await validate(bom(internal));
      expect(
        result.diagnostics.map((d) => [d.ruleId, d.pointer, d.message]),
        internal,
      ).toEqual([
        [
          'schema/other',
          '/bom/components/component/versionRange',
          'versionRange is allowed only on a component marked isExternal="true"',
        ],
      ]);
    }
  });

  it('the version rule compares content across XML revisions', async () => {
    const old = xmlBom('1.6', `<components>${component('1.6')}</components>`, 'version="3"');
    const changed = (version: string) =>
      xmlBom(
        '1.6',
        `<components>${component('1.6')}${component('1.6', ' bom-ref="new"')}</components>`,
        `version="${version}"`,
      );
    const baseline = { document: old, name: 'old.xml' };
    expect(ids(await validate(changed('3'), { baseline }))).toEqual(['bom/version-rule']);
    expect((await validate(changed('4'), { baseline })).diagnostics).toEqual([]);
    expect((await validate(old, { baseline })).diagnostics).toEqual([]);
    // Bytes as a baseline (a git revision's file) are read the same way.
    expect(ids(await validate(changed('3'), { baseline: { document: bytes(old) } }))).toEqual(['bom/version-rule']);
    // The serial number is identity: a new one is a new document, and says so.
    const otherSerial = changed('4').replace(SERIAL, 'urn:uuid:86959a4d-610b-4da6-b658-711f2e623c32');
    expect(ids(await validate(otherSerial, { baseline }))).toEqual(['bom/version-rule']);
  });

  it('a malformed XML signature is an error (ignore skips it); an unsigned document fails require', async () => {
    const signed = xmlBom('1.6', '<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo/></Signature>');
    expect((await validate(signed)).diagnostics.map((d) => [d.ruleId, d.severity, d.pointer, d.line])).toEqual([
      ['signature/invalid', 'error', '/bom/Signature', 3],
    ]);
    expect((await validate(signed, { signatures: 'require' })).errors).toBe(1);
    expect((await validate(signed, { signatures: 'ignore' })).diagnostics).toEqual([]);
    expect(ids(await validate(xmlBom('1.6', ''), { signatures: 'require' }))).toEqual(['signature/missing']);
  });

  it('--spec-version that contradicts the namespace is an error, the same one is fine', async () => {
    const text = xmlBom('1.6', '');
    expect((await validate(text, { specVersion: '1.6' })).valid).toBe(true);
    expect((await validate(text, { specVersion: '1.5' })).diagnostics[0]!.message).toBe(
      '--spec-version 1.5 does not apply to XML: the namespace of this document says 1.6',
    );
  });

  it('JSON results say they were read as JSON', async () => {
    const result = await validate('{"bomFormat":"CycloneDX","specVersion":"1.6","version":1}');
    expect(result).toMatchObject({ syntax: 'json', valid: true });
    expect((await validate('{')).syntax).toBe('json');
  });
});

describe('the 1.1 dependency-graph extension', () => {
  const graph = (missing: string) => `<?xml version="1.0"?>
<bom serialNumber="${SERIAL}" version="1" xmlns="${NS('1.1')}" xmlns:dg="http://cyclonedx.org/schema/ext/dependency-graph/1.0">
  <components>
    <component type="framework" bom-ref="web"><name>web</name><version>1.0.0</version></component>
    <component type="library" bom-ref="util"><name>util</name><version>3.0.0</version></component>
  </components>
  <dg:dependencies>
    <dg:dependency ref="web">
      <dg:dependency ref="util"/>
      <dg:dependency ref="${missing}"/>
    </dg:dependency>
    <dg:dependency ref="util"/>
  </dg:dependencies>
</bom>
`;

  it('a ref that names no component is an error, as in JSON, at its place (cyclonedx-core-java’s example)', async () => {
    const result = await validate(graph('persistence'));
    expect(result.diagnostics).toEqual([
      {
        ruleId: 'ref/unresolved',
        severity: 'error',
        message: 'Reference "persistence" does not match any bom-ref in the document',
        pointer: '/bom/dg:dependencies/dg:dependency[1]/dg:dependency[2]/@ref',
        value: '"persistence"',
        line: 10,
        column: 22,
      },
    ]);
  });

  it('a graph whose refs all resolve is valid', async () => {
    const result = await validate(graph('web'));
    expect(result.diagnostics).toEqual([]);
    expect(result.valid).toBe(true);
  });
});

describe('XSD findings in the house style (issue 43)', () => {
  const NS16 = NS('1.6');
  const findings = async (components: string, extra = '') =>
    (
      await validate(`<bom xmlns="${NS16}"${extra} version="1"><components>${components}</components></bom>`)
    ).diagnostics.map((d) => [d.ruleId, d.pointer, d.message]);

  it('says what is missing and what is out of order, from the XSD’s content model', async () => {
    const hash = `<hashes><hash alg="SHA-256">${'a'.repeat(64)}</hash></hashes>`;
    expect(await findings('<component type="library"></component>')).toEqual([
      ['schema/required', '/bom/components/component', 'Missing required <name>'],
    ]);
    expect(
      await findings(`<component type="library"><name>a</name>${hash}<scope>required</scope></component>`),
    ).toEqual([['schema/other', '/bom/components/component/scope', '<scope> must come before <hashes>']]);
    expect(await findings('<component type="library"><name>a</name><name>b</name></component>')).toEqual([
      ['schema/other', '/bom/components/component/name[2]', '<name> may appear only once here'],
    ]);
    // In order, nothing is said: the boundary of the rule above.
    expect(
      await findings(`<component type="library"><name>a</name><scope>required</scope>${hash}</component>`),
    ).toEqual([]);
  });

  it('one finding per problem: every undeclared attribute and child, as JSON reports every unknown member', async () => {
    expect(
      await findings('<component type="x" foo="1"><name>a</name><colour>r</colour><size>2</size></component>'),
    ).toEqual([
      [
        'schema/enum',
        '/bom/components/component/@type',
        expect.stringMatching(/^\[facet 'enumeration'\] The value "x"/),
      ],
      ['schema/additional-property', '/bom/components/component/@foo', "The attribute 'foo' is not allowed"],
      ['schema/additional-property', '/bom/components/component/colour', '<colour> is not an element of <component>'],
      ['schema/additional-property', '/bom/components/component/size', '<size> is not an element of <component>'],
    ]);
    const json = await validate(
      JSON.stringify({
        bomFormat: 'CycloneDX',
        specVersion: '1.6',
        version: 1,
        components: [{ type: 'x', foo: '1', name: 'a', colour: 'r', size: 2 }],
      }),
    );
    expect(json.diagnostics).toHaveLength(4);
  });

  it('names the namespace of a foreign element instead of cutting it out', async () => {
    const result = await validate(
      `<bom xmlns="${NS16}" xmlns:dg="urn:dg" version="1"><dependencies><dg:dependency ref="a"/></dependencies></bom>`,
    );
    expect(result.diagnostics.map((d) => [d.ruleId, d.pointer, d.message])).toEqual([
      [
        'schema/additional-property',
        '/bom/dependencies/dg:dependency',
        "<dg:dependency> (namespace urn:dg) is not expected here; expected <dependency> of the document's namespace",
      ],
    ]);
  });

  it('cuts a long value as JSON does and keeps schema/pattern; one finding for the facet and its type failure', async () => {
    const long = 'z'.repeat(5_000_000);
    const result = await validate(
      `<bom xmlns="${NS16}" version="1"><components><component type="library"><name>a</name><hashes><hash alg="SHA-256">${long}</hash></hashes></component></components></bom>`,
    );
    expect(result.diagnostics).toHaveLength(1);
    const [d] = result.diagnostics;
    expect(d).toMatchObject({ ruleId: 'schema/pattern', pointer: '/bom/components/component/hashes/hash' });
    expect(d!.message.length).toBeLessThan(300);
    expect(d!.message).toMatch(/^\[facet 'pattern'\] The value "z{58}… is not accepted by the pattern/);
    expect(d!.value).toBe(`"${'z'.repeat(118)}…`);
  });
});
