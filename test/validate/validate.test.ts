import { describe, expect, it } from 'vitest';
import { SPEC_FORMATS, validate, type ValidationResult } from '../../src/index.js';
import { CBOM_SCHEMA_ADDRESS } from '../../src/formats/formats.js';
import { minimalBom } from '../helpers.js';

const rules = (result: ValidationResult) => result.diagnostics.map((d) => d.ruleId);
const at = (result: ValidationResult) => result.diagnostics.map((d) => [d.ruleId, d.pointer]);
const text = (value: unknown) => JSON.stringify(value, null, 2);

describe('routing', () => {
  it.each(SPEC_FORMATS.map((f) => [f.specVersion, f.id]))(
    'validates a minimal %s document as %s',
    async (specVersion, id) => {
      const result = await validate(text(minimalBom(specVersion)));
      expect(result).toMatchObject({ formatId: id, errors: 0, warnings: 0, valid: true });
    },
  );

  it('routes a CBOM that says bomFormat CycloneDX', async () => {
    const result = await validate(text({ ...minimalBom('1.4-cbom-1.0'), bomFormat: 'CycloneDX' }));
    expect(result.formatId).toBe('cbom-1.4-cbom-1.0');
    expect(result.valid).toBe(true);
  });

  it.each([
    [
      { bomFormat: 'CycloneDX', specVersion: '2.0', version: 1 },
      'bom/unsupported-version',
      /specVersion "2.0" is not supported; supported: 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.4-cbom-1.0/,
    ],
    [{ bomFormat: 'CycloneDX', specVersion: 999, version: 1 }, 'bom/unsupported-version', /must be a string, not 999/],
    [{ bomFormat: 'CycloneDX', version: 1 }, 'bom/unsupported-version', /specVersion is missing/],
    [{ specVersion: '1.6', version: 1 }, 'bom/unsupported-version', /bomFormat is missing/],
    [
      { bomFormat: 'SPDX', specVersion: '1.6' },
      'bom/unsupported-version',
      /bomFormat is "SPDX"; supported: CycloneDX, CBOM/,
    ],
    [
      { bomFormat: 'CBOM', specVersion: '1.4' },
      'cbom/spec-version',
      /must have the form <major.minor>-cbom-<major.minor>/,
    ],
    [{ bomFormat: 'CBOM', specVersion: '1.4-cbom-1' }, 'cbom/spec-version', /must have the form/],
    [
      { bomFormat: 'CBOM', specVersion: '1.5-cbom-1.1' },
      'cbom/spec-version',
      /"1.5-cbom-1.1" is not supported; supported: 1.4-cbom-1.0/,
    ],
    [{ name: 'some-package', version: '1.0.0' }, 'bom/not-a-bom', /neither "bomFormat" nor "specVersion"/],
    [{ spdxVersion: 'SPDX-2.3' }, 'bom/not-a-bom', /SPDX document/],
    [[1, 2], 'bom/not-a-bom', /is an array/],
    ['just a string', 'bom/not-a-bom', /is a string/],
  ])('explains an unroutable document in one diagnostic: %j', async (document, ruleId, message) => {
    const result = await validate(text(document));
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({ ruleId, severity: 'error' });
    expect(result.diagnostics[0]!.message).toMatch(message);
    expect(result.formatId).toBeUndefined();
  });

  it('validates against a forced version whatever the document says', async () => {
    const doc = minimalBom('1.6', { components: [{ type: 'machine-learning-model', name: 'm' }] });
    expect((await validate(text(doc))).valid).toBe(true);
    const forced = await validate(text(doc), { specVersion: '1.4' });
    expect(forced.formatId).toBe('cyclonedx-1.4');
    expect(at(forced)).toContainEqual(['schema/enum', '/components/0/type']);
  });
});

describe('official strictness restored over the library copies', () => {
  it.each(['1.2', '1.3', '1.4', '1.4-cbom-1.0'])('%s requires version', async (specVersion) => {
    const { version: _version, ...doc } = minimalBom(specVersion);
    const result = await validate(text(doc));
    expect(result.diagnostics.map((d) => [d.ruleId, d.message])).toEqual([
      ['schema/required', 'Missing required member "version"'],
    ]);
  });

  it.each(['1.5', '1.6', '1.7'])('%s keeps version optional', async (specVersion) => {
    const { version: _version, ...doc } = minimalBom(specVersion);
    expect((await validate(text(doc))).valid).toBe(true);
  });

  it.each([
    ['1.4', 'http://cyclonedx.org/schema/bom-1.4.schema.json', 'http://cyclonedx.org/schema/bom-1.5.schema.json'],
    ['1.5', 'http://cyclonedx.org/schema/bom-1.5.schema.json', 'http://cyclonedx.org/schema/bom-1.4.schema.json'],
    ['1.3', 'http://cyclonedx.org/schema/bom-1.3.schema.json', 'https://example.com/schema.json'],
  ])('%s only accepts its own $schema address', async (specVersion, good, bad) => {
    expect((await validate(text(minimalBom(specVersion, { $schema: good })))).valid).toBe(true);
    expect(at(await validate(text(minimalBom(specVersion, { $schema: bad }))))).toEqual([['schema/enum', '/$schema']]);
  });

  it('1.2 and 1.3 use the strict schemas (unknown members rejected)', async () => {
    for (const specVersion of ['1.2', '1.3']) {
      const result = await validate(
        text(minimalBom(specVersion, { components: [{ type: 'library', name: 'a', version: '1', extra: 1 }] })),
      );
      expect(at(result)).toEqual([['schema/additional-property', '/components/0/extra']]);
    }
  });
});

describe('serialNumber', () => {
  it.each([
    ['urn:uuid:3E671687-395B-41F5-A30F-A58921A69B79', 'bom/serial-number', 'error'],
    ['urn:uuid:3e671687395b41f5a30fa58921a69b79', 'bom/serial-number', 'error'],
    ['3e671687-395b-41f5-a30f-a58921a69b79', 'bom/serial-number', 'error'],
    ['urn:uuid:00000000-0000-0000-0000-000000000000', 'bom/serial-number-nil', 'warning'],
    ['urn:uuid:3e671687-395b-41f5-c30f-a58921a69b79', 'bom/serial-number-variant', 'warning'],
    ['urn:uuid:3e671687-395b-01f5-a30f-a58921a69b79', 'bom/serial-number-variant', 'warning'],
  ])('%s → %s', async (serialNumber, ruleId, severity) => {
    const result = await validate(text(minimalBom('1.6', { serialNumber })));
    expect(result.diagnostics.map((d) => [d.ruleId, d.severity, d.pointer])).toEqual([
      [ruleId, severity, '/serialNumber'],
    ]);
  });

  it('accepts version 1 to 8 UUIDs', async () => {
    for (const version of '12345678') {
      const serialNumber = `urn:uuid:3e671687-395b-${version}1f5-a30f-a58921a69b79`;
      expect((await validate(text(minimalBom('1.6', { serialNumber })))).diagnostics).toEqual([]);
    }
  });
});

describe('version', () => {
  it.each([0, -3, 1.5, '1'])('rejects %j in every format, CBOM included', async (version) => {
    for (const specVersion of ['1.4', '1.6', '1.4-cbom-1.0']) {
      const result = await validate(text(minimalBom(specVersion, { version })));
      expect(
        result.diagnostics.map((d) => [d.ruleId, d.pointer]),
        specVersion,
      ).toEqual([['bom/version', '/version']]);
    }
  });

  it('accepts 1.0, which JSON defines as the integer 1', async () => {
    const result = await validate('{"bomFormat":"CycloneDX","specVersion":"1.6","version":1.0}');
    expect(result.valid).toBe(true);
  });
});

describe('CBOM', () => {
  const cbom = (extra: Record<string, unknown>) => text(minimalBom('1.4-cbom-1.0', extra));

  it('accepts crypto-asset components of every asset type', async () => {
    const components = [
      {
        type: 'crypto-asset',
        name: 'AES-128-GCM',
        'bom-ref': 'aes',
        cryptoProperties: {
          assetType: 'algorithm',
          algorithmProperties: { primitive: 'ae', mode: 'gcm', cryptoFunctions: ['encrypt', 'decrypt'] },
          classicalSecurityLevel: 128,
          nistQuantumSecurityLevel: 1,
          oid: '2.16.840.1.101.3.4.1.6',
        },
      },
      {
        type: 'crypto-asset',
        name: 'cert',
        cryptoProperties: {
          assetType: 'certificate',
          certificateProperties: { subjectName: 'CN=x', notValidAfter: '2030-01-01' },
        },
      },
      {
        type: 'crypto-asset',
        name: 'key',
        cryptoProperties: {
          assetType: 'relatedCryptoMaterial',
          relatedCryptoMaterialProperties: { relatedCryptoMaterialType: 'secretKey', size: 128, secured: true },
        },
      },
      {
        type: 'crypto-asset',
        name: 'TLS',
        cryptoProperties: {
          assetType: 'protocol',
          protocolProperties: { tlsCipherSuites: ['TLS_AES_128_GCM_SHA256'] },
          confidenceLevels: { assetType: 0.9 },
          detectionContext: [{ filePath: 'a.c', lineNumbers: [3] }],
        },
      },
      { type: 'library', name: 'openssl', 'bom-ref': 'openssl' },
    ];
    const dependencies = [
      { ref: 'openssl', dependsOn: ['aes'], dependencyType: 'implements' },
      { ref: 'openssl', dependsOn: ['aes'], dependencyType: 'uses' },
    ];
    const result = await validate(cbom({ $schema: CBOM_SCHEMA_ADDRESS, components, dependencies }));
    expect(result.diagnostics).toEqual([]);
  });

  it('rejects unknown members at every level, property items included', async () => {
    const result = await validate(
      cbom({
        extra: 1,
        metadata: { properties: [{ name: 'a', value: 'b', extra: 1 }] },
        components: [
          {
            type: 'crypto-asset',
            name: 'x',
            cryptoProperties: { assetType: 'algorithm', extra: 1, algorithmProperties: { extra: 1 } },
          },
        ],
        dependencies: [{ ref: 'r', extra: 1 }],
      }),
    );
    expect(
      result.diagnostics
        .filter((d) => d.ruleId === 'schema/additional-property')
        .map((d) => d.pointer)
        .sort(),
    ).toEqual([
      '/components/0/cryptoProperties/algorithmProperties/extra',
      '/components/0/cryptoProperties/extra',
      '/dependencies/0/extra',
      '/extra',
      '/metadata/properties/0/extra',
    ]);
  });

  it('rejects any other $schema address', async () => {
    const result = await validate(cbom({ $schema: 'http://cyclonedx.org/schema/bom-1.4.schema.json' }));
    expect(result.diagnostics.map((d) => [d.ruleId, d.pointer])).toEqual([['cbom/schema-address', '/$schema']]);
  });

  it('rejects CycloneDX 1.6 crypto names in a 1.4-cbom document', async () => {
    const result = await validate(cbom({ components: [{ type: 'cryptographic-asset', name: 'x' }] }));
    expect(at(result)).toEqual([['schema/enum', '/components/0/type']]);
  });

  it('allows a ref once per dependencyType, not twice', async () => {
    const components = [{ type: 'library', name: 'a', 'bom-ref': 'a' }];
    const twice = await validate(
      cbom({
        components,
        dependencies: [
          { ref: 'a', dependencyType: 'uses' },
          { ref: 'a', dependencyType: 'implements' },
        ],
      }),
    );
    expect(twice.valid).toBe(true);
    const thrice = await validate(
      cbom({
        components,
        dependencies: [
          { ref: 'a', dependencyType: 'uses' },
          { ref: 'a', dependencyType: 'implements' },
          { ref: 'a', dependencyType: 'uses', dependsOn: [] },
        ],
      }),
    );
    expect(at(thrice)).toEqual([['cbom/repeated-dependency', '/dependencies/2']]);
  });
});

describe('references', () => {
  it('requires bom-refs to be unique across the document, metadata.component included', async () => {
    const result = await validate(
      text(
        minimalBom('1.6', {
          metadata: { component: { type: 'application', name: 'app', 'bom-ref': 'app' } },
          components: [
            { type: 'library', name: 'a', 'bom-ref': 'app' },
            {
              type: 'library',
              name: 'b',
              'bom-ref': 'b',
              components: [{ type: 'library', name: 'c', 'bom-ref': 'b' }],
            },
          ],
          services: [{ name: 's', 'bom-ref': 'b' }],
        }),
      ),
    );
    expect(result.diagnostics.map((d) => [d.ruleId, d.pointer])).toEqual([
      ['ref/duplicate-bom-ref', '/components/0/bom-ref'],
      ['ref/duplicate-bom-ref', '/components/1/components/0/bom-ref'],
      ['ref/duplicate-bom-ref', '/services/0/bom-ref'],
    ]);
    expect(result.diagnostics[0]!.message).toBe('bom-ref "app" is already defined by /metadata/component/bom-ref');
  });

  it('resolves ref, dependsOn and provides; from 1.5 a BOM-Link there points outside the document', async () => {
    const result = await validate(
      text(
        minimalBom('1.6', {
          components: [{ type: 'library', name: 'a', 'bom-ref': 'a' }],
          dependencies: [
            {
              ref: 'a',
              dependsOn: ['missing', 'urn:cdx:3e671687-395b-41f5-a30f-a58921a69b79/1#x'],
              provides: ['gone'],
            },
            { ref: 'nowhere' },
          ],
        }),
      ),
    );
    expect(at(result)).toEqual([
      ['ref/unresolved', '/dependencies/0/dependsOn/0'],
      ['ref/unresolved', '/dependencies/0/dependsOn/1'],
      ['ref/unresolved', '/dependencies/0/provides/0'],
      ['ref/unresolved', '/dependencies/1/ref'],
    ]);
  });
});

describe('BOM-Links', () => {
  const LINK = 'urn:cdx:3e671687-395b-41f5-a30f-a58921a69b79/2#pkg%3Anpm%2Fx%401';
  const withRef = (specVersion: string, ref: string) =>
    text(
      minimalBom(specVersion, {
        components: [{ type: 'library', name: 'a', 'bom-ref': 'a' }],
        dependencies: [{ ref: 'a', dependsOn: [ref] }],
      }),
    );

  it('are refused in the dependency graph from 1.5 on (refLinkType: the same document), well-formed or not', async () => {
    for (const specVersion of ['1.5', '1.6', '1.7']) {
      for (const link of [LINK, 'urn:cdx:3e671687-395b-41f5-a30f-a58921a69b79/1', 'urn:cdx:nonsense']) {
        const result = await validate(withRef(specVersion, link));
        expect(
          result.diagnostics.map((d) => [d.ruleId, d.pointer, d.message]),
          `${specVersion} ${link}`,
        ).toEqual([
          [
            'ref/unresolved',
            '/dependencies/0/dependsOn/0',
            `Reference ${JSON.stringify(link)} is a BOM-Link; the dependency graph names elements of this document only (refLinkType): a BOM-Link belongs in externalReferences, not in the dependency graph`,
          ],
        ]);
      }
      // The valid neighbour: the same graph naming the document's own element.
      expect((await validate(withRef(specVersion, 'a'))).diagnostics).toEqual([]);
    }
  });

  it('are ordinary references before 1.5, which must resolve', async () => {
    const result = await validate(withRef('1.4', 'urn:cdx:3e671687-395b-41f5-a30f-a58921a69b79/1'));
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      'Reference "urn:cdx:3e671687-395b-41f5-a30f-a58921a69b79/1" does not match any bom-ref in the document',
    ]);
  });
});

describe('schema diagnostics', () => {
  it('reports a bad SPDX license id once, with a readable message', async () => {
    const result = await validate(
      text(
        minimalBom('1.6', {
          components: [{ type: 'library', name: 'a', licenses: [{ license: { id: 'NOT-SPDX' } }] }],
        }),
      ),
    );
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({
      ruleId: 'schema/enum',
      pointer: '/components/0/licenses/0/license/id',
      message: '"NOT-SPDX" is not an SPDX license identifier; use "name" for other licenses, or an "expression"',
      value: '"NOT-SPDX"',
    });
  });

  it('folds alternatives that all fail at the value into one message', async () => {
    const result = await validate(
      text(minimalBom('1.6', { components: [{ type: 'library', name: 'a', licenses: [{ license: {} }] }] })),
    );
    expect(result.diagnostics.map((d) => [d.ruleId, d.pointer, d.message])).toEqual([
      ['schema/required', '/components/0/licenses/0/license', 'Must have exactly one of the members "id", "name"'],
    ]);
    const url = await validate(
      text(minimalBom('1.6', { externalReferences: [{ type: 'website', url: 'not a url' }] })),
    );
    expect(url.diagnostics).toHaveLength(1);
    expect(url.diagnostics[0]!.message).toBe(
      '"not a url" must be a valid iri-reference, or a BOM-Link (urn:cdx:<serial>/<version>[#<bom-ref>])',
    );
  });

  it('says when a value matches more than one alternative', async () => {
    const result = await validate(
      text(
        minimalBom('1.6', {
          components: [{ type: 'library', name: 'a', licenses: [{ license: { id: 'MIT', name: 'MIT' } }] }],
        }),
      ),
    );
    expect(at(result)).toEqual([['schema/alternatives', '/components/0/licenses/0/license']]);
  });

  it('names the member for unknown and missing members, and both items for duplicates', async () => {
    const component = { type: 'library', name: 'a', version: '1' };
    const result = await validate(
      text(
        minimalBom('1.6', {
          bogus: true,
          components: [component, { version: '1', name: 'a', type: 'library' }, { type: 'library' }],
        }),
      ),
    );
    expect(result.diagnostics.map((d) => [d.ruleId, d.pointer, d.message])).toEqual([
      ['schema/additional-property', '/bogus', 'Unknown member "bogus"'],
      ['schema/unique-items', '/components/1', 'Item 1 is equal to item 0; items must be unique'],
      ['schema/required', '/components/2', 'Missing required member "name"'],
    ]);
  });

  it('gives line and column for every diagnostic of a text document', async () => {
    const doc =
      '{\n  "bomFormat": "CycloneDX",\n  "specVersion": "1.6",\n  "metadata": {\n    "timestamp": "yesterday"\n  }\n}';
    const result = await validate(doc);
    expect(result.diagnostics).toMatchObject([
      { ruleId: 'schema/format', pointer: '/metadata/timestamp', line: 5, column: 5, value: '"yesterday"' },
    ]);
  });

  it('validates idn-email and iri-reference formats', async () => {
    const doc = minimalBom('1.4-cbom-1.0', {
      metadata: {
        authors: [
          { name: 'a', email: '用户@例子.广告' },
          { name: 'b', email: 'not an email' },
        ],
        supplier: {
          name: 's',
          url: [
            'pkg:npm/x@1',
            'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
            'git+https://x.example/y.git',
            'not a url',
          ],
        },
      },
    });
    expect(at(await validate(text(doc)))).toEqual([
      ['schema/format', '/metadata/authors/1/email'],
      ['schema/format', '/metadata/supplier/url/3'],
    ]);
  });

  it('never lets prototype-shaped members reach anything', async () => {
    const doc =
      '{"bomFormat":"CycloneDX","specVersion":"1.6","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}';
    const result = await validate(doc);
    expect(at(result).map(([rule]) => rule)).toEqual(['schema/additional-property', 'schema/additional-property']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('inputs and options', () => {
  it('accepts bytes, text and parsed values', async () => {
    const doc = minimalBom('1.5');
    expect((await validate(new TextEncoder().encode(text(doc)))).valid).toBe(true);
    expect((await validate(text(doc))).valid).toBe(true);
    expect((await validate(doc)).valid).toBe(true);
  });

  it('treats only JSON white space as empty', async () => {
    expect(rules(await validate(' \n\t'))).toEqual(['read/empty']);
    expect(rules(await validate('\u00a0'))).toEqual(['json/syntax']);
  });

  it('refuses input over maxSize without parsing it', async () => {
    const result = await validate(text(minimalBom('1.6')), { maxSize: 10 });
    expect(rules(result)).toEqual(['read/too-large']);
  });

  it('keeps validating after a duplicate key, reporting both problems', async () => {
    const result = await validate('{"bomFormat":"CycloneDX","specVersion":"1.6","version":1,"version":0}');
    expect(rules(result).sort()).toEqual(['bom/version', 'json/duplicate-key']);
  });

  it('signature modes: require fails an unsigned document, ignore skips signature members', async () => {
    const unsigned = text(minimalBom('1.6'));
    expect(rules(await validate(unsigned, { signatures: 'require' }))).toEqual(['signature/missing']);
    expect((await validate(unsigned, { signatures: 'verify' })).valid).toBe(true);
    const malformed = text(minimalBom('1.6', { signature: { algorithm: 'ES256' } }));
    expect((await validate(malformed, { signatures: 'verify' })).valid).toBe(false);
    expect((await validate(malformed, { signatures: 'ignore' })).diagnostics).toEqual([]);
  });
});

describe('operational failures', () => {
  it('a missing precompiled validator is an E_SCHEMA_MISSING error, not a crash', async () => {
    const { loadValidator } = await import('../../src/validate/schema.js');
    const format = { ...SPEC_FORMATS[0]!, id: 'no-such-format' };
    expect(() => loadValidator(format)).toThrow(expect.objectContaining({ code: 'E_SCHEMA_MISSING' }));
  });
});

describe('rereadable sources (large files)', () => {
  /** A source of `text` that counts its reads. */
  const counting = async (content: string) => {
    const { RereadableSource } = await import('../../src/validate/index.js');
    const { decodedText } = await import('../../src/json/decode.js');
    const counter = { reads: 0 };
    const source = new RereadableSource(() => {
      counter.reads++;
      return decodedText(content);
    });
    return { source, counter };
  };

  it('reads once for a valid document, and again only to place diagnostics', async () => {
    const valid = await counting(text(minimalBom('1.6')));
    expect((await validate(valid.source)).valid).toBe(true);
    expect(valid.counter.reads).toBe(1);
    const invalid = await counting(text(minimalBom('1.6', { version: 0 })));
    const result = await validate(invalid.source);
    expect(result.diagnostics).toMatchObject([{ ruleId: 'bom/version', line: 5, column: 3 }]);
    expect(invalid.counter.reads).toBe(2);
  });

  it('reads again for the exact scan of a tree that disagrees with its text, and places its findings from that read', async () => {
    const duplicated = text(minimalBom('1.6')).replace('"version": 1', '"version": 1,\n  "version": 1');
    const { source, counter } = await counting(duplicated);
    const result = await validate(source);
    expect(result.diagnostics).toEqual((await validate(duplicated)).diagnostics);
    expect(result.diagnostics).toMatchObject([{ ruleId: 'json/duplicate-key', line: 6, column: 3 }]);
    expect(counter.reads).toBe(2);
  });

  it('judges a file that changed between the reads as it is now', async () => {
    const { RereadableSource } = await import('../../src/validate/index.js');
    const { decodedText } = await import('../../src/json/decode.js');
    // First read: a duplicate member name, so the exact scan reads again; the second read is another document.
    const first = text(minimalBom('1.6')).replace('"version": 1', '"version": 1,\n  "version": 1');
    const now = text(minimalBom('1.6', { version: 0 }));
    const texts = [first, now, now];
    const result = await validate(new RereadableSource(() => decodedText(texts.shift()!)));
    expect(result.diagnostics).toEqual((await validate(now)).diagnostics);
    expect(result.diagnostics).toMatchObject([{ ruleId: 'bom/version', line: 5, column: 3 }]);
    // Invalid UTF-8 by the second read: what the file holds now is reported.
    const { decodeJsonBytes } = await import('../../src/json/decode.js');
    const reads = [decodedText(first), decodeJsonBytes(Uint8Array.of(0x7b, 0xff, 0x7d))];
    const undecodable = await validate(new RereadableSource(() => reads.shift()!));
    expect(undecodable.valid).toBe(false);
    expect(undecodable.diagnostics.map((d) => d.ruleId)).toEqual(['read/invalid-utf8']);
  });
});
