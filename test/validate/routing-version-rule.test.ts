import { describe, expect, it } from 'vitest';
import { findPlaces } from '../../src/formats/signable.js';
import { SPEC_FORMATS, validate, versionRule } from '../../src/index.js';
import { display, isRecord, setMember, truncate } from '../../src/values.js';

const SUPPORTED = SPEC_FORMATS.map((f) => f.specVersion).join(', ');

describe('routing: which format a document is read as', () => {
  it.each<[string, string, string, string]>([
    ['null', 'bom/not-a-bom', 'The document is null, not a BOM object', ''],
    ['[]', 'bom/not-a-bom', 'The document is an array, not a BOM object', ''],
    ['"x"', 'bom/not-a-bom', 'The document is a string, not a BOM object', ''],
    ['{"specVersion":"1.6"}', 'bom/unsupported-version', 'bomFormat is missing; supported: CycloneDX, CBOM', ''],
    [
      '{"bomFormat":"SPDX","specVersion":"1.6"}',
      'bom/unsupported-version',
      'bomFormat is "SPDX"; supported: CycloneDX, CBOM',
      '/bomFormat',
    ],
    [
      '{"bomFormat":1,"specVersion":"1.6"}',
      'bom/unsupported-version',
      'bomFormat is 1; supported: CycloneDX, CBOM',
      '/bomFormat',
    ],
    ['{"bomFormat":"CycloneDX"}', 'bom/unsupported-version', `specVersion is missing; supported: ${SUPPORTED}`, ''],
    [
      '{"bomFormat":"CycloneDX","specVersion":"9.9"}',
      'bom/unsupported-version',
      `specVersion "9.9" is not supported; supported: ${SUPPORTED}`,
      '/specVersion',
    ],
    [
      '{"bomFormat":"CycloneDX","specVersion":1.6}',
      'bom/unsupported-version',
      `specVersion must be a string, not 1.6; supported: ${SUPPORTED}`,
      '/specVersion',
    ],
    [
      '{"bomFormat":"CBOM","specVersion":"1.4"}',
      'cbom/spec-version',
      'CBOM specVersion "1.4" must have the form <major.minor>-cbom-<major.minor>; supported: 1.4-cbom-1.0',
      '/specVersion',
    ],
    [
      '{"bomFormat":"CBOM","specVersion":"1.5-cbom-1.0"}',
      'cbom/spec-version',
      'CBOM specVersion "1.5-cbom-1.0" is not supported; supported: 1.4-cbom-1.0',
      '/specVersion',
    ],
  ])('%s', async (text, ruleId, message, pointer) => {
    const result = await validate(text);
    expect(result.formatId).toBeUndefined();
    expect(result.diagnostics).toEqual([expect.objectContaining({ ruleId, severity: 'error', message, pointer })]);
  });
});

describe('the version rule, message by message', () => {
  const base = {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
    version: 1,
    metadata: { timestamp: '2026-01-01T00:00:00Z' },
    components: [{ type: 'library', name: 'a', 'bom-ref': 'a' }],
    dependencies: [{ ref: 'a' }],
  };
  type Bom = typeof base & Record<string, unknown>;
  const edit = (change: (d: Bom) => void): Bom => {
    const copy = structuredClone(base) as Bom;
    change(copy);
    return copy;
  };
  const against = (document: unknown, baseline: unknown = base) =>
    versionRule(document, { document: baseline, name: 'v1.json' }).map((d) => [d.pointer, d.message]);
  const bump = '; run bomwright bump (compared with v1.json)';

  it('is satisfied by an unchanged document at the same version and a changed one at version + 1', () => {
    expect(against(base)).toEqual([]);
    expect(against(edit((d) => ((d.components[0]!.name = 'b'), (d.version = 2))))).toEqual([]);
    expect(against(base, JSON.stringify(base))).toEqual([]);
  });

  it.each<[string, (d: Bom) => void, string]>([
    ['a component', (d) => (d.components[0]!.name = 'b'), 'components: 1 changed'],
    [
      'a dependency entry',
      (d) => ((d.dependencies[0] as Record<string, unknown>).dependsOn = ['a']),
      '1 dependency entry',
    ],
    ['a removed dependency entry', (d) => d.dependencies.pop(), '1 dependency entry'],
    ['dependency entries', (d) => d.dependencies.push({ ref: 'b' }, { ref: 'c' }), '2 dependency entries'],
    [
      'metadata (the timestamp aside)',
      (d) => Object.assign(d.metadata, { timestamp: '2027-01-01T00:00:00Z', lifecycles: [] }),
      'metadata.lifecycles',
    ],
    ['a top-level member', (d) => (d.externalReferences = []), 'externalReferences'],
  ])('says what changed when %s changed without a bump', (_name, change, what) => {
    expect(against(edit(change))).toEqual([
      ['/version', `content changed but version is still 1; expected 2 [changed: ${what}]${bump}`],
    ]);
  });

  it('takes a missing version as 1, the format default', () => {
    expect(against(edit((d) => ((d.components[0]!.name = 'q'), Reflect.deleteProperty(d, 'version'))))).toEqual([
      ['/version', `content changed but version is still 1; expected 2 [changed: components: 1 changed]${bump}`],
    ]);
  });

  it('refuses a version changed without changes, or raised by more than one', () => {
    expect(against(edit((d) => (d.version = 2)))).toEqual([
      [
        '/version',
        'content is unchanged but version changed from 1 to 2; expected 1: restore the version, a version without changes is not a new release (compared with v1.json)',
      ],
    ]);
    expect(against(edit((d) => ((d.components[0]!.name = 'b'), (d.version = 3))))).toEqual([
      [
        '/version',
        'content changed and version is 3; expected 2 (previous version 1 + 1) [changed: components: 1 changed] (compared with v1.json)',
      ],
    ]);
  });

  it('refuses versions that are not whole numbers from 1, on either side', () => {
    expect(against(edit((d) => ((d.version = 1.5), (d.components[0]!.name = 'q'))))).toEqual([
      ['/version', 'version 1.5 is not a whole number from 1 to 2^53 - 1 (compared with v1.json)'],
    ]);
    for (const [previous, shown] of [
      [0, '0'],
      [-1, '-1'],
      [2 ** 53, `${2 ** 53} (beyond 2^53 - 1, where versions stop being exact)`],
    ] as const)
      expect(
        against(
          edit((d) => (d.version = 2)),
          edit((d) => (d.version = previous)),
        ),
      ).toEqual([
        ['/version', `the previous version ${shown} is not a whole number from 1 to 2^53 - 1 (compared with v1.json)`],
      ]);
    expect(
      against(
        edit((d) => (d.version = 2)),
        edit((d) => (d.version = 1)),
      ),
    ).toEqual([
      [
        '/version',
        'content is unchanged but version changed from 1 to 2; expected 1: restore the version, a version without changes is not a new release (compared with v1.json)',
      ],
    ]);
  });

  it('keeps the serial number, and lets a bump add one', () => {
    const other = 'urn:uuid:00000000-395b-41f5-a30f-a58921a69b79';
    expect(against(edit((d) => ((d.serialNumber = other), (d.version = 2))))).toEqual([
      [
        '/serialNumber',
        `serialNumber changed from ${base.serialNumber} to ${other}; a new version of a BOM keeps it (a new serialNumber starts a new BOM at version 1); to continue the previous BOM (a regenerated one), run bomwright bump FILE --baseline PREVIOUS, which takes over its serialNumber and version (compared with v1.json)`,
      ],
    ]);
    const withoutSerial = edit((d) => Reflect.deleteProperty(d, 'serialNumber'));
    expect(
      against(
        edit((d) => ((d.version = 2), (d.components[0]!.name = 'z'))),
        withoutSerial,
      ),
    ).toEqual([]);
  });

  it('has nothing to compare with when the previous release is not a JSON object', () => {
    for (const previous of ['{nope', '[1]', 'null', new TextEncoder().encode('"x"'), Uint8Array.of(0xff)])
      expect(against(base, previous)).toEqual([]);
  });
});

describe('signable places found in a document', () => {
  const document = {
    components: [
      { name: 'a', components: [{ name: 'a1', components: [{ name: 'a11' }] }, 'not an object'] },
      { name: 'b' },
    ],
    services: 'not an array',
    metadata: { component: { name: 'm' } },
  };
  it('walks * one level and ** recursively through the same member, objects only', () => {
    expect(findPlaces(document, ['', 'components/**']).sort()).toEqual(
      [
        '',
        '/components/0',
        '/components/0/components/0',
        '/components/0/components/0/components/0',
        '/components/1',
      ].sort(),
    );
    expect(findPlaces(document, ['components/*'])).toEqual(['/components/0', '/components/1']);
    expect(findPlaces(document, ['services/*', 'metadata/component', 'metadata/tools/*'])).toEqual([
      '/metadata/component',
    ]);
  });
});

describe('value helpers', () => {
  it('truncates at exactly max characters, marking the cut', () => {
    expect(truncate('abcd', 4)).toBe('abcd');
    expect(truncate('abcde', 4)).toBe('abc…');
    expect(display('text')).toBe('text');
    expect(display({ a: 1 })).toBe('{"a":1}');
    expect(display(undefined)).toBeUndefined();
    expect(display('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('knows a record from null, arrays and scalars', () => {
    expect([{}, [], null, 'x', 1].map(isRecord)).toEqual([true, false, false, false, false]);
  });

  it('sets __proto__ as an ordinary own member, as JSON.parse does', () => {
    const target: Record<string, unknown> = {};
    setMember(target, '__proto__', { polluted: true });
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(target, '__proto__')).toEqual({
      value: { polluted: true },
      enumerable: true,
      writable: true,
      configurable: true,
    });
    expect(JSON.stringify(target)).toBe('{"__proto__":{"polluted":true}}');
    setMember(target, 'a', 1);
    expect(target.a).toBe(1);
  });
});

describe('dependency references', () => {
  const refs = async (document: Record<string, unknown>) =>
    (await validate(document)).diagnostics.map((d) => [d.ruleId, d.pointer, d.message]);
  const cbom = (dependencies: unknown[]) => ({
    bomFormat: 'CBOM',
    specVersion: '1.4-cbom-1.0',
    version: 1,
    components: [
      { type: 'crypto-asset', name: 'a', 'bom-ref': 'a' },
      { type: 'library', name: 'b', 'bom-ref': 'b' },
    ],
    dependencies,
  });
  const cyclonedx = (dependencies: unknown[]) => ({
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    version: 1,
    components: [
      { type: 'library', name: 'a', 'bom-ref': 'a' },
      { type: 'library', name: 'b', 'bom-ref': 'b' },
    ],
    dependencies,
  });

  it('in CBOM, allows one entry per ref and dependency type, and names the earlier entry of a repeated one', async () => {
    const implementsAndUses = [
      { ref: 'a', dependsOn: ['b'], dependencyType: 'implements' },
      { ref: 'a', dependsOn: ['b'], dependencyType: 'uses' },
    ];
    expect(await refs(cbom(implementsAndUses))).toEqual([]);
    expect(
      await refs(
        cbom([
          { ref: 'a', dependsOn: ['b'], dependencyType: 'uses' },
          { ref: 'b' },
          { ref: 'a', dependsOn: [], dependencyType: 'uses' },
        ]),
      ),
    ).toEqual([
      [
        'cbom/repeated-dependency',
        '/dependencies/2',
        'ref "a" already has a dependency entry of type uses (/dependencies/0)',
      ],
    ]);
    expect(await refs(cbom([{ ref: 'a' }, { ref: 'a' }]))).toEqual([
      [
        'cbom/repeated-dependency',
        '/dependencies/1',
        'ref "a" already has a dependency entry of type (none) (/dependencies/0)',
      ],
    ]);
  });

  it('leaves entries that are not objects to the schema', async () => {
    expect((await refs(cyclonedx([null, 1, [], { ref: 'a' }]))).map(([ruleId, pointer]) => [ruleId, pointer])).toEqual([
      ['schema/type', '/dependencies/0'],
      ['schema/type', '/dependencies/1'],
      ['schema/type', '/dependencies/2'],
    ]);
  });

  it('resolves refs, dependsOn and provides against bom-refs, refuses BOM-Links, and says which is which', async () => {
    const document = cyclonedx([
      { ref: 'a', dependsOn: ['b'] },
      { ref: 'b', provides: ['a'] },
      { ref: 'urn:cdx:3e671687-395b-41f5-a30f-a58921a69b79/12#x' },
      { ref: 'urn:cdx:3e671687-395b-41f5-a30f-a58921a69b79/0' },
      { ref: 7 },
      { ref: 'c', dependsOn: ['d'] },
    ]);
    const link = (ref: string) =>
      `Reference "${ref}" is a BOM-Link; the dependency graph names elements of this document only (refLinkType): a BOM-Link belongs in externalReferences, not in the dependency graph`;
    expect(await refs(document)).toEqual([
      ['ref/unresolved', '/dependencies/2/ref', link('urn:cdx:3e671687-395b-41f5-a30f-a58921a69b79/12#x')],
      ['ref/unresolved', '/dependencies/3/ref', link('urn:cdx:3e671687-395b-41f5-a30f-a58921a69b79/0')],
      ['ref/unresolved', '/dependencies/5/ref', 'Reference "c" does not match any bom-ref in the document'],
      ['ref/unresolved', '/dependencies/5/dependsOn/0', 'Reference "d" does not match any bom-ref in the document'],
      ['schema/type', '/dependencies/4/ref', 'Must be a string, not an integer'],
    ]);
  });
});
