import { describe, expect, it } from 'vitest';
import { validate, type ValidationResult } from '../../src/index.js';
import { createAjv } from '../../src/build/ajv.js';
import { buildSchema, LIBRARY_SCHEMA_DIR, readJson } from '../../src/build/schemas.js';
import { dropRefSiblings, markReferencePlaces } from '../../src/build/schema-transform.js';
import { SPEC_FORMATS } from '../../src/formats/formats.js';
import { isIntegerLiteral, readsAsRoundedInteger } from '../../src/json/numbers.js';
import { parseJsonText } from '../../src/json/parse.js';
import { versionRule } from '../../src/validate/version-rule.js';
import { isDateTime, isFullDate, isFullTime } from '../../src/validate/rfc3339.js';
import { isIdnEmail, isIri, isIriReference } from '../../src/validate/iri.js';
import { createFormatsAjv } from '../../src/service/formats-ajv.js';
import { minimalBom } from '../helpers.js';
import path from 'node:path';

/** A document as text, with `"@@"` replaced by raw JSON (number literals JSON.stringify cannot write). */
function withRaw(document: Record<string, unknown>, raw: string): string {
  return JSON.stringify(document).replace('"@@"', raw);
}

const at = (result: ValidationResult) => result.diagnostics.map((d) => [d.ruleId, d.pointer]);

describe('date, time and date-time (RFC 3339 §5.6, exactly)', () => {
  const VALID = [
    '2020-01-01T00:00:00Z',
    '2020-01-01t00:00:00z',
    '2020-01-01T00:00:00+01:00',
    '2020-01-01T00:00:00-23:59',
    '2020-01-01T23:59:59.123456789Z',
    '0000-01-01T00:00:00Z',
    '2020-02-29T00:00:00Z',
    '2000-02-29T00:00:00Z',
    '2021-04-30T00:00:00Z',
    '1998-12-31T23:59:60Z',
    '1998-12-31T15:59:60.123-08:00',
    '1999-01-01T00:59:60+01:00',
    '2016-06-30T23:59:60Z',
  ];
  const INVALID = [
    '2020-01-01 00:00:00Z',
    '2020-01-01\t00:00:00Z',
    '2020-01-01T00:00:00+0100',
    '2020-01-01T00:00:00+01',
    '2020-01-01T00:00:00',
    '2020-01-01T00:00Z',
    '2020-01-01T00:00:00.Z',
    '2020-01-01T00:00:00+24:00',
    '2020-01-01T00:00:00+01:60',
    '2020-01-01T24:00:00Z',
    '2020-01-01T00:60:00Z',
    '2020-01-01T00:00:61Z',
    '2020-13-01T00:00:00Z',
    '2020-00-01T00:00:00Z',
    '2020-01-00T00:00:00Z',
    '2020-01-32T00:00:00Z',
    '2021-02-29T00:00:00Z',
    '1900-02-29T00:00:00Z',
    '2021-04-31T00:00:00Z',
    '20-01-01T00:00:00Z',
    '2020-1-01T00:00:00Z',
    '２０２０-01-01T00:00:00Z',
    '2020-01-01T00:00:00Z ',
    '1998-12-31T23:58:60Z',
    '1998-12-31T22:59:60Z',
    '1998-12-30T23:59:60Z',
    '1998-12-31T23:59:60+01:00',
    '1999-01-01T00:59:60Z',
  ];
  it.each(VALID)('accepts %j', (value) => expect(isDateTime(value)).toBe(true));
  it.each(INVALID)('refuses %j', (value) => expect(isDateTime(value)).toBe(false));

  it('date is full-date, with month lengths and Gregorian leap years', () => {
    for (const v of ['2020-02-29', '2000-02-29', '2021-02-28', '2021-12-31', '2021-11-30'])
      expect(isFullDate(v), v).toBe(true);
    for (const v of ['2021-02-29', '1900-02-29', '2021-11-31', '2021-12-32', '2021-1-01', '2021-01-01T00:00:00Z'])
      expect(isFullDate(v), v).toBe(false);
  });

  it('time is full-time: the offset is required, the leap second only at 23:59 UTC', () => {
    for (const v of ['00:00:00Z', '23:59:59.5+01:00', '23:59:60Z', '15:59:60-08:00', '00:59:60+01:00'])
      expect(isFullTime(v), v).toBe(true);
    for (const v of ['00:00:00', '00:00:00+0100', '22:59:60Z', '23:58:60Z', '23:59:61Z', '24:00:00Z'])
      expect(isFullTime(v), v).toBe(false);
  });

  it('the service shapes and the emulator seed check date-time the same way', () => {
    const check = createFormatsAjv().compile({ type: 'string', format: 'date-time' });
    expect(check('2020-01-01T00:00:00+01:00')).toBe(true);
    expect(check('2020-01-01T00:00:00+0100')).toBe(false);
    expect(check('2020-01-01 00:00:00Z')).toBe(false);
  });

  it('in a BOM of every version: the offset needs its colon, T is the only separator', async () => {
    for (const format of SPEC_FORMATS) {
      const bom = (timestamp: string) => minimalBom(format.specVersion, { metadata: { timestamp } });
      for (const bad of ['2020-01-01T00:00:00+0100', '2020-01-01 00:00:00Z']) {
        const result = await validate(bom(bad));
        expect(
          result.diagnostics.map((d) => [d.ruleId, d.pointer, d.message]),
          `${format.id} ${bad}`,
        ).toEqual([['schema/format', '/metadata/timestamp', `"${bad}" is not a valid date-time`]]);
      }
      expect((await validate(bom('2020-01-01T00:00:00+01:00'))).diagnostics, format.id).toEqual([]);
    }
  });

  it('in 1.7, date members (a patent filing) are full-date', async () => {
    const patent = (filingDate: string) =>
      minimalBom('1.7', {
        definitions: {
          patents: [
            {
              'bom-ref': 'p1',
              patentNumber: 'US1234567',
              jurisdiction: 'US',
              patentLegalStatus: 'granted',
              filingDate,
            },
          ],
        },
      });
    const good = await validate(patent('2024-02-29'));
    expect(good.diagnostics).toEqual([]);
    expect(at(await validate(patent('2023-02-29')))).toEqual([['schema/format', '/definitions/patents/0/filingDate']]);
  });
});

describe('integers judged on the number text', () => {
  it.each([
    ['1', true],
    ['1.0', true],
    ['1e0', true],
    ['10e-1', true],
    ['0.1e1', true],
    ['-0.0', true],
    ['100E-2', true],
    ['1.0000000000000001', false],
    ['0.99999999999999999', false],
    ['1e-400', false],
    ['10e-2', false],
    ['1.5', false],
  ])('%s is an integer: %s', (literal, expected) => {
    expect(isIntegerLiteral(literal)).toBe(expected);
  });

  it('only literals that JSON.parse rounds to an integer are marked', () => {
    expect(readsAsRoundedInteger('1.0000000000000001')).toBe(true);
    expect(readsAsRoundedInteger('0.99999999999999999')).toBe(true);
    expect(readsAsRoundedInteger('1.0')).toBe(false);
    expect(readsAsRoundedInteger('1.5')).toBe(false);
  });

  it('bom/version: 1.0000000000000001 and 0.99999999999999999 are no versions; 1.0 and 1e0 are', async () => {
    for (const format of SPEC_FORMATS) {
      const doc = minimalBom(format.specVersion, { version: '@@' });
      for (const literal of ['1.0000000000000001', '0.99999999999999999']) {
        const result = await validate(withRaw(doc, literal));
        expect(
          result.diagnostics.map((d) => [d.ruleId, d.pointer, d.message, d.value]),
          `${format.id} ${literal}`,
        ).toEqual([
          [
            'bom/version',
            '/version',
            `version must be a whole number from 1 to 2^53 - 1 (${literal} has a fractional part; it only reads as 1 once rounded)`,
            literal,
          ],
        ]);
      }
      for (const literal of ['1.0', '1e0', '10e-1', '0.1e1'])
        expect((await validate(withRaw(doc, literal))).diagnostics, `${format.id} ${literal}`).toEqual([]);
    }
  });

  it('every integer of the schema: a CWE, a line number, a tag version', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['1.6', { vulnerabilities: [{ id: 'CVE-1', cwes: ['@@'] }] }, '/vulnerabilities/0/cwes/0'],
      [
        '1.4',
        { components: [{ type: 'library', name: 'a', swid: { tagId: 't', name: 'a', tagVersion: '@@' } }] },
        '/components/0/swid/tagVersion',
      ],
      [
        '1.6',
        { components: [{ type: 'library', name: 'a', evidence: { occurrences: [{ location: 'x', line: '@@' }] } }] },
        '/components/0/evidence/occurrences/0/line',
      ],
    ];
    for (const [specVersion, extra, pointer] of cases) {
      const doc = minimalBom(specVersion, extra);
      const bad = await validate(withRaw(doc, '79.000000000000001'));
      expect(bad.diagnostics.map((d) => [d.ruleId, d.pointer, d.message])).toEqual([
        [
          'schema/type',
          pointer,
          'Must be an integer, not 79.000000000000001 (a number with a fractional part that only reads as 79)',
        ],
      ]);
      expect((await validate(withRaw(doc, '79.0'))).diagnostics, pointer).toEqual([]);
      expect((await validate(withRaw(doc, '7.9e1'))).diagnostics, pointer).toEqual([]);
    }
  });

  it('a number member may hold such a literal (only integers are judged on it)', async () => {
    const doc = minimalBom('1.6', {
      vulnerabilities: [{ id: 'CVE-1', ratings: [{ score: '@@', method: 'CVSSv31' }] }],
    });
    expect((await validate(withRaw(doc, '1.0000000000000001'))).diagnostics).toEqual([]);
  });

  it('the version rule judges both versions on their text', () => {
    const previous = parseJsonText('{"serialNumber":"urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79","version":1}');
    const next = parseJsonText(
      '{"serialNumber":"urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79","version":1.0000000000000001}',
    );
    expect(versionRule(next.value, { document: previous.value }).map((d) => d.message)).toEqual([
      'version 1.0000000000000001 (a fraction that only reads as 1) is not a whole number from 1 to 2^53 - 1',
    ]);
    const same = parseJsonText('{"serialNumber":"urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79","version":1.0}');
    expect(versionRule(same.value, { document: previous.value })).toEqual([]);
    expect(
      versionRule(previous.value, {
        document: '{"serialNumber":"urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79","version":0.99999999999999999}',
      }).map((d) => d.message),
    ).toEqual([
      'the previous version 0.99999999999999999 (a fraction that only reads as 1) is not a whole number from 1 to 2^53 - 1',
    ]);
  });

  it('marks a value parsed from text only: the same number given as a value is judged on its value', async () => {
    const parsed = parseJsonText(withRaw(minimalBom('1.6', { version: '@@' }), '1.0000000000000001'));
    expect(at(await validate(parsed.value as object))).toEqual([['bom/version', '/version']]);
    expect(at(await validate({ ...(parsed.value as object) }))).toEqual([]);
  });
});

describe('references and BOM-Links, by the reading of each place (1.5+)', () => {
  const LINK = 'urn:cdx:3e671687-395b-41f5-a30f-a58921a69b79/1#pkg:deb/debian/openssl@3.0.11';
  const DOCUMENT_LINK = 'urn:cdx:3e671687-395b-41f5-a30f-a58921a69b79/1';
  const component = { type: 'library', name: 'a', 'bom-ref': 'a' };

  it('marks the places each official schema types as refLinkType or as refLinkType-or-BOM-Link', () => {
    const counts = Object.fromEntries(
      SPEC_FORMATS.map((f) => [f.id, markReferencePlaces(readJson(path.join(LIBRARY_SCHEMA_DIR, f.baseSchema)))]),
    );
    expect(counts).toEqual({
      'cyclonedx-1.2': { document: 0, element: 0 },
      'cyclonedx-1.3': { document: 0, element: 0 },
      'cyclonedx-1.4': { document: 0, element: 0 },
      // dependency ref and dependsOn
      'cyclonedx-1.5': { document: 2, element: 6 },
      // + provides, nine places in declarations, two in standards
      'cyclonedx-1.6': { document: 14, element: 6 },
      // + patent family members, a patent assertion's asserter, a citation's attributedTo and process
      'cyclonedx-1.7': { document: 18, element: 6 },
      'cbom-1.4-cbom-1.0': { document: 0, element: 0 },
    });
  });

  const elementPlaces: [string, (ref: string) => Record<string, unknown>, string][] = [
    [
      'compositions assemblies',
      (ref) => ({ compositions: [{ aggregate: 'complete', assemblies: [ref] }] }),
      '/compositions/0/assemblies/0',
    ],
    [
      'vulnerability affects',
      (ref) => ({ vulnerabilities: [{ id: 'CVE-1', affects: [{ ref }] }] }),
      '/vulnerabilities/0/affects/0/ref',
    ],
    [
      'annotation subjects',
      (ref) => ({
        annotations: [
          { subjects: [ref], annotator: { organization: { name: 'o' } }, timestamp: '2020-01-01T00:00:00Z', text: 't' },
        ],
      }),
      '/annotations/0/subjects/0',
    ],
  ];

  it.each(elementPlaces)('%s take a bom-ref or a well-formed BOM-Link to an element', async (_name, make, pointer) => {
    for (const specVersion of ['1.5', '1.6', '1.7']) {
      const doc = (ref: string) => minimalBom(specVersion, { components: [component], ...make(ref) });
      expect((await validate(doc(LINK))).diagnostics, specVersion).toEqual([]);
      expect((await validate(doc('a'))).diagnostics, specVersion).toEqual([]);
      for (const bad of [DOCUMENT_LINK, 'urn:cdx:nonsense', 'urn:cdx:3e671687-395b-41f5-a30f-a58921a69b79/0#a']) {
        const result = await validate(doc(bad));
        expect(result.diagnostics.map((d) => [d.ruleId, d.pointer, d.message])).toEqual([
          [
            'ref/unresolved',
            pointer,
            `Reference ${JSON.stringify(bad)} is not a valid BOM-Link to an element (urn:cdx:<serial UUID>/<version>#<bom-ref>)`,
          ],
        ]);
      }
    }
  });

  it('the other refLinkType places (1.6+ standards, 1.7 citations) refuse a BOM-Link', async () => {
    const standard = (ref: string) =>
      minimalBom('1.6', {
        definitions: {
          standards: [
            {
              'bom-ref': 'std',
              requirements: [{ 'bom-ref': 'r1' }, { 'bom-ref': 'r2', parent: ref }],
            },
          ],
        },
      });
    expect((await validate(standard('r1'))).diagnostics).toEqual([]);
    expect((await validate(standard(LINK))).diagnostics.map((d) => [d.ruleId, d.pointer, d.message])).toEqual([
      [
        'ref/unresolved',
        '/definitions/standards/0/requirements/1/parent',
        `Reference ${JSON.stringify(LINK)} is a BOM-Link; this member names an element of this document only (refLinkType): a BOM-Link belongs in externalReferences`,
      ],
    ]);
    const citation = (attributedTo: string) =>
      minimalBom('1.7', {
        components: [component],
        citations: [{ pointers: ['/components/0'], timestamp: '2020-01-01T00:00:00Z', attributedTo }],
      });
    expect((await validate(citation('a'))).diagnostics).toEqual([]);
    expect(at(await validate(citation(LINK)))).toEqual([['ref/unresolved', '/citations/0/attributedTo']]);
  });

  it('before 1.5 nothing but the dependency graph is read as a reference', async () => {
    const doc = minimalBom('1.4', { compositions: [{ aggregate: 'complete', assemblies: ['urn:cdx:nonsense'] }] });
    expect((await validate(doc)).diagnostics).toEqual([]);
  });
});

describe('idn-email local parts (RFC 6532 UTF8-non-ascii) and IRI character ranges (RFC 3987)', () => {
  it('accepts any non-ASCII character in the local part, U+00A0 and U+0080 included', () => {
    for (const local of ['a\u00a0b', '\u0080', '\u00ad', '\u{10fffd}x', '\ue000', '"q\u00a0"'])
      expect(isIdnEmail(`${local}@example.com`), JSON.stringify(local)).toBe(true);
    expect(isIdnEmail('a\u007fb@example.com')).toBe(false);
    expect(isIdnEmail('a b@example.com')).toBe(false);
    expect(isIdnEmail('a\ud800b@example.com')).toBe(false);
  });

  it('keeps domains to letters, marks and digits (IDNA2008 U-labels)', () => {
    expect(isIdnEmail('a@ex\u00e4mple.com')).toBe(true);
    expect(isIdnEmail('a@ex\u00a0ample.com')).toBe(false);
  });

  it('in a BOM, through the schema', async () => {
    const bom = (email: string) => minimalBom('1.6', { metadata: { authors: [{ name: 'n', email }] } });
    expect((await validate(bom('jos\u00a0e@example.com'))).diagnostics).toEqual([]);
    expect(at(await validate(bom('jos e@example.com')))).toEqual([['schema/format', '/metadata/authors/0/email']]);
  });

  it.each([
    [0x9f, false],
    [0xa0, true],
    [0xd7ff, true],
    [0xe000, false],
    [0xf8ff, false],
    [0xf900, true],
    [0xfdcf, true],
    [0xfdd0, false],
    [0xfdef, false],
    [0xfdf0, true],
    [0xffef, true],
    [0xfff0, false],
    [0x10000, true],
    [0x1fffd, true],
    [0x1fffe, false],
    [0xe0000, false],
    [0xe0fff, false],
    [0xe1000, true],
    [0xefffd, true],
    [0xeffff, false],
    [0xf0000, false],
    [0x10fffd, false],
  ])('U+%s in a path is ucschar: %s', (cp, expected) => {
    expect(isIri(`https://example.com/${String.fromCodePoint(cp)}`)).toBe(expected);
    expect(isIriReference(`a${String.fromCodePoint(cp)}#${String.fromCodePoint(cp)}`)).toBe(expected);
  });

  it.each([
    [0xdfff + 1, true],
    [0xf8ff, true],
    [0xf900, true],
    [0xf0000, true],
    [0xffffd, true],
    [0xffffe, false],
    [0x100000, true],
    [0x10fffd, true],
    [0x10fffe, false],
  ])('U+%s in a query is ucschar or iprivate: %s', (cp, expected) => {
    expect(isIri(`https://example.com/?q=${String.fromCodePoint(cp)}`)).toBe(expected);
  });
});

describe("draft-07's $ref rule (its siblings are ignored)", () => {
  it('lists every $ref with siblings in the schemas, and drops them', () => {
    const found = Object.fromEntries(
      SPEC_FORMATS.map((f) => [f.id, dropRefSiblings(readJson(path.join(LIBRARY_SCHEMA_DIR, f.baseSchema)))]),
    );
    expect(found).toEqual({
      'cyclonedx-1.2': [
        { $ref: '#/definitions/metadata', siblings: ['$id'] },
        { $ref: '#/definitions/refType', siblings: ['pattern'] },
        { $ref: '#/definitions/refType', siblings: ['pattern'] },
      ],
      'cyclonedx-1.3': [{ $ref: '#/definitions/metadata', siblings: ['$id'] }],
      'cyclonedx-1.4': [],
      'cyclonedx-1.5': [
        { $ref: '#/definitions/dataGovernance', siblings: ['type'] },
        { $ref: '#/definitions/dataGovernance', siblings: ['type'] },
      ],
      'cyclonedx-1.6': [{ $ref: '#/definitions/organizationalEntity', siblings: ['type'] }],
      'cyclonedx-1.7': [
        { $ref: '#/definitions/organizationalEntity', siblings: ['type'] },
        { $ref: '#/definitions/hash', siblings: ['type'] },
        { $ref: '#/definitions/hash', siblings: ['type'] },
      ],
      'cbom-1.4-cbom-1.0': [],
    });
    // The CBOM overlay adds one: dependencyType has a type beside its $ref (the definition's own type).
    const cbom = buildSchema(SPEC_FORMATS.find((f) => f.family === 'cbom')!) as {
      definitions: { dependency: { properties: { dependencyType: unknown } }; dependencyType: { type: string } };
    };
    expect(cbom.definitions.dependency.properties.dependencyType).toEqual({ $ref: '#/definitions/dependencyType' });
    expect(cbom.definitions.dependencyType.type).toBe('string');
  });

  it('the validators are compiled with it: a pattern beside a $ref does nothing', () => {
    const check = createAjv().compile({
      definitions: { s: { type: 'string' } },
      $ref: '#/definitions/s',
      pattern: '^a$',
    });
    expect(check('b')).toBe(true);
    expect(check(1)).toBe(false);
  });

  it("a 1.2 bom-ref with a line break is valid (the strict schema's pattern sits beside its $ref)", async () => {
    const bom = (ref: string) =>
      minimalBom('1.2', {
        components: [{ type: 'library', name: 'a', version: '1', 'bom-ref': ref }],
        dependencies: [{ ref }],
      });
    expect((await validate(bom('line\nbreak'))).diagnostics).toEqual([]);
    expect((await validate(bom('plain'))).diagnostics).toEqual([]);
    // The $ref itself still applies: a bom-ref is a string.
    expect(
      at(
        await validate(minimalBom('1.2', { components: [{ type: 'library', name: 'a', version: '1', 'bom-ref': 1 }] })),
      ),
    ).toEqual([['schema/type', '/components/0/bom-ref']]);
  });
});
