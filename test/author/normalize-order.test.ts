import { describe, expect, it } from 'vitest';
import { normalize } from '../../src/index.js';
import { expectErrorCode } from '../helpers.js';

/** Results are checked member by member with assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

/** The member order of the CycloneDX schemas, written out here from the schemas (1.2–1.7 and CBOM merged). */
const ROOT_ORDER = [
  '$schema',
  'bomFormat',
  'specVersion',
  'serialNumber',
  'version',
  'metadata',
  'components',
  'services',
  'externalReferences',
  'dependencies',
  'compositions',
  'vulnerabilities',
  'annotations',
  'formulation',
  'declarations',
  'definitions',
  'citations',
  'properties',
  'signature',
];
const METADATA_ORDER = [
  'timestamp',
  'lifecycles',
  'tools',
  'manufacturer',
  'authors',
  'component',
  'manufacture',
  'supplier',
  'licenses',
  'properties',
  'distributionConstraints',
];
const COMPONENT_ORDER = [
  'type',
  'mime-type',
  'bom-ref',
  'supplier',
  'manufacturer',
  'authors',
  'author',
  'publisher',
  'group',
  'name',
  'version',
  'versionRange',
  'isExternal',
  'description',
  'scope',
  'hashes',
  'licenses',
  'copyright',
  'patentAssertions',
  'cpe',
  'purl',
  'omniborId',
  'swhid',
  'swid',
  'modified',
  'pedigree',
  'externalReferences',
  'components',
  'evidence',
  'releaseNotes',
  'modelCard',
  'data',
  'cryptoProperties',
  'properties',
  'tags',
  'signature',
];
const SERVICE_ORDER = [
  'bom-ref',
  'provider',
  'group',
  'name',
  'version',
  'description',
  'endpoints',
  'authenticated',
  'x-trust-boundary',
  'trustZone',
  'data',
  'licenses',
  'patentAssertions',
  'externalReferences',
  'services',
  'releaseNotes',
  'properties',
  'tags',
  'signature',
];
const DEPENDENCY_ORDER = ['ref', 'dependsOn', 'provides', 'dependencyType'];
const UNKNOWN = ['zz-last', 'aa-first', 'mm-middle'];

/** An object with every given member, inserted in reverse, then unknown ones; values are scalars. */
function reversed(keys: readonly string[], value: (key: string) => unknown = () => 1): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of [...UNKNOWN, ...[...keys].reverse()]) out[key] = value(key);
  return out;
}

const expected = (keys: readonly string[]) => [...keys, 'aa-first', 'mm-middle', 'zz-last'];

describe('normalize: member order, kind by kind', () => {
  const scalar = () => 'x';
  const doc = {
    ...reversed(ROOT_ORDER, scalar),
    metadata: {
      ...reversed(METADATA_ORDER, scalar),
      component: reversed(COMPONENT_ORDER, scalar),
      tools: {
        'zz-tool': 1,
        services: [reversed(SERVICE_ORDER, scalar)],
        components: [reversed(COMPONENT_ORDER, scalar)],
      },
    },
    components: [
      {
        ...reversed(COMPONENT_ORDER, scalar),
        components: [reversed(COMPONENT_ORDER, scalar)],
        services: [reversed(SERVICE_ORDER, scalar)],
      },
    ],
    services: [
      {
        ...reversed(SERVICE_ORDER, scalar),
        services: [reversed(SERVICE_ORDER, scalar)],
        components: [reversed(SERVICE_ORDER, scalar)],
      },
    ],
    dependencies: [reversed(DEPENDENCY_ORDER, scalar)],
    vulnerabilities: [reversed(DEPENDENCY_ORDER, scalar)],
    signature: { value: 'x', algorithm: 'ES256' },
  };
  const result = normalize(doc) as Record<string, Loose>;

  it('puts the document, metadata, components, services and dependencies in schema order, unknown members after in code-unit order', () => {
    expect(Object.keys(result)).toEqual(expected(ROOT_ORDER));
    expect(Object.keys(result.metadata)).toEqual(expected(METADATA_ORDER));
    expect(Object.keys(result.metadata.component)).toEqual(expected(COMPONENT_ORDER));
    expect(Object.keys(result.metadata.tools)).toEqual(['components', 'services', 'zz-tool']);
    expect(Object.keys(result.metadata.tools.components[0])).toEqual(expected(COMPONENT_ORDER));
    expect(Object.keys(result.metadata.tools.services[0])).toEqual(expected(SERVICE_ORDER));
    // A component has no "services" member in the schema: it sorts with the unknown ones.
    expect(Object.keys(result.components[0])).toEqual([
      ...COMPONENT_ORDER,
      'aa-first',
      'mm-middle',
      'services',
      'zz-last',
    ]);
    expect(Object.keys(result.components[0].components[0])).toEqual(expected(COMPONENT_ORDER));
    expect(Object.keys(result.services[0])).toEqual([
      ...SERVICE_ORDER,
      'aa-first',
      'components',
      'mm-middle',
      'zz-last',
    ]);
    expect(Object.keys(result.services[0].services[0])).toEqual(expected(SERVICE_ORDER));
    expect(Object.keys(result.dependencies[0])).toEqual(expected(DEPENDENCY_ORDER));
  });

  it('orders members alphabetically where no schema order applies', () => {
    // A component's services, a service's components and the vulnerabilities are not component/service/dependency
    // kinds: their members are sorted by code units.
    const alphabetical = (keys: readonly string[]) => [...keys, ...UNKNOWN].sort();
    expect(Object.keys(result.components[0].services[0])).toEqual(alphabetical(SERVICE_ORDER));
    expect(Object.keys(result.services[0].components[0])).toEqual(alphabetical(SERVICE_ORDER));
    expect(Object.keys(result.vulnerabilities[0])).toEqual(alphabetical(DEPENDENCY_ORDER));
    expect(Object.keys(result.signature)).toEqual(['algorithm', 'value']);
  });
});

describe('normalize: which arrays are sorted, and by what', () => {
  it('sorts components by bom-ref, then purl, then name@version, then group, then content', () => {
    const components = [
      { type: 'library', name: 'b', 'bom-ref': 'r2' },
      { type: 'library', name: 'a', 'bom-ref': 'r1', purl: 'pkg:npm/z' },
      { type: 'library', name: 'a', 'bom-ref': 'r1', purl: 'pkg:npm/a' },
      { type: 'library', name: 'a', version: '2', 'bom-ref': 'r0' },
      { type: 'library', name: 'a', version: '1', 'bom-ref': 'r0' },
      { type: 'library', name: 'a', version: '1', 'bom-ref': 'r0', group: 'g' },
      { type: 'library', name: 'a', version: '1', 'bom-ref': 'r0', group: 'g', description: 'b' },
      { type: 'library', name: 'a', version: '1', 'bom-ref': 'r0', group: 'g', description: 'a' },
    ];
    const result = normalize({ bomFormat: 'CycloneDX', components }) as { components: Record<string, string>[] };
    expect(
      result.components.map((c) => [
        c['bom-ref'],
        c.purl ?? '',
        `${c.name}@${c.version ?? ''}`,
        c.group ?? '',
        c.description ?? '',
      ]),
    ).toEqual([
      ['r0', '', 'a@1', '', ''],
      // A tie on every sort field is broken by the canonical content ("description" sorts before "group").
      ['r0', '', 'a@1', 'g', 'a'],
      ['r0', '', 'a@1', 'g', 'b'],
      ['r0', '', 'a@1', 'g', ''],
      ['r0', '', 'a@2', '', ''],
      ['r1', 'pkg:npm/a', 'a@', '', ''],
      ['r1', 'pkg:npm/z', 'a@', '', ''],
      ['r2', '', 'b@', '', ''],
    ]);
  });

  it('sorts services by bom-ref, then name@version, then group, then content; nested services too', () => {
    const services = [
      { name: 's', group: 'b', 'bom-ref': 'x' },
      { name: 's', group: 'a', 'bom-ref': 'x' },
      { name: 'r', version: '2', 'bom-ref': 'x', purl: 'zzz' },
      { name: 'r', version: '10', 'bom-ref': 'x', purl: 'aaa' },
      { name: 'a', 'bom-ref': 'y', services: [{ name: 'q' }, { name: 'p' }] },
      { name: 'z', description: 'b' },
      { name: 'z', description: 'a' },
    ];
    const result = normalize({ bomFormat: 'CycloneDX', services }) as { services: Record<string, Loose>[] };
    expect(
      result.services.map(
        (s) => `${s['bom-ref'] ?? ''}|${s.name}@${s.version ?? ''}|${s.group ?? ''}|${s.description ?? ''}`,
      ),
    ).toEqual(['|z@||a', '|z@||b', 'x|r@10||', 'x|r@2||', 'x|s@|a|', 'x|s@|b|', 'y|a@||']);
    expect(result.services[6]!.services.map((s: { name: string }) => s.name)).toEqual(['p', 'q']);
  });

  it('sorts dependencies by ref then dependencyType, and their dependsOn and provides', () => {
    const result = normalize({
      bomFormat: 'CycloneDX',
      dependencies: [
        { ref: 'b', dependsOn: ['z', 'a'], provides: ['y', 'c'] },
        { ref: 'a', dependencyType: 'optional' },
        { ref: 'a', dependencyType: 'direct' },
      ],
      components: [{ type: 'library', name: 'x', dependsOn: ['z', 'a'], tags: ['z', 'a'] }],
    }) as Record<string, Loose>;
    expect(result.dependencies).toEqual([
      { ref: 'a', dependencyType: 'direct' },
      { ref: 'a', dependencyType: 'optional' },
      { ref: 'b', dependsOn: ['a', 'z'], provides: ['c', 'y'] },
    ]);
    // Outside a dependency, string arrays keep their order.
    expect(result.components[0].dependsOn).toEqual(['z', 'a']);
    expect(result.components[0].tags).toEqual(['z', 'a']);
  });

  it('sorts hashes by alg then content, externalReferences by type then url, properties by name (stably)', () => {
    const component = {
      type: 'library',
      name: 'x',
      hashes: [
        { alg: 'SHA-256', content: 'b' },
        { alg: 'SHA-256', content: 'a' },
        { alg: 'MD5', content: 'c' },
      ],
      externalReferences: [
        { type: 'website', url: 'https://b' },
        { type: 'vcs', url: 'https://z' },
        { type: 'website', url: 'https://a' },
      ],
      properties: [
        { name: 'b', value: '1' },
        { name: 'a', value: '2' },
        { name: 'b', value: '0' },
      ],
      licenses: [{ license: { id: 'MIT' } }, { license: { id: 'Apache-2.0' } }],
    };
    const result = normalize({ bomFormat: 'CycloneDX', components: [component] }) as Record<string, Loose>;
    const [c] = result.components;
    expect(c.hashes.map((h: Record<string, string>) => `${h.alg}:${h.content}`)).toEqual([
      'MD5:c',
      'SHA-256:a',
      'SHA-256:b',
    ]);
    expect(c.externalReferences.map((r: Record<string, string>) => `${r.type} ${r.url}`)).toEqual([
      'vcs https://z',
      'website https://a',
      'website https://b',
    ]);
    expect(c.properties).toEqual([
      { name: 'a', value: '2' },
      { name: 'b', value: '1' },
      { name: 'b', value: '0' },
    ]);
    expect(c.licenses).toEqual(component.licenses);
  });

  it('keeps arrays of mixed items, of other objects and of arrays in order, sorting the members inside', () => {
    const result = normalize({
      bomFormat: 'CycloneDX',
      dependencies: [{ ref: 'a', dependsOn: ['z', 1, 'a'] }],
      compositions: [{ aggregate: 'z' }, { aggregate: 'a' }],
      extra: [[{ b: 1, a: 2 }], [3, 1]],
      properties: [{ name: 'b' }, 'not an object', { name: 'a' }],
    }) as Record<string, Loose>;
    expect(result.dependencies[0].dependsOn).toEqual(['z', 1, 'a']);
    expect(result.compositions).toEqual([{ aggregate: 'z' }, { aggregate: 'a' }]);
    expect(result.extra).toEqual([[{ a: 2, b: 1 }], [3, 1]]);
    expect(Object.keys(result.extra[0][0])).toEqual(['a', 'b']);
    expect(result.properties).toEqual([{ name: 'b' }, 'not an object', { name: 'a' }]);
  });

  it('sorts items without the sort fields as empty text, first', () => {
    const result = normalize({
      bomFormat: 'CycloneDX',
      components: [{ name: 'b', 'bom-ref': 7 }, { name: 'a', 'bom-ref': 'r' }, { 'bom-ref': 'r' }],
    }) as Record<string, Loose>;
    expect(result.components).toEqual([{ 'bom-ref': 7, name: 'b' }, { 'bom-ref': 'r' }, { 'bom-ref': 'r', name: 'a' }]);
  });
});

describe('normalize: depth and input', () => {
  function nest(depth: number, wrap: (inner: unknown) => unknown): unknown {
    let value: unknown = 1;
    for (let i = 0; i < depth; i++) value = wrap(value);
    return value;
  }

  it('refuses nesting deeper than 512 levels through objects, arrays and both, and takes 500', () => {
    for (const wrap of [
      (v: unknown) => ({ x: v }),
      (v: unknown) => [v],
      (v: unknown) => ({ x: [v] }),
      (v: unknown) => [{ x: v }],
    ]) {
      const deep = { bomFormat: 'CycloneDX', extra: nest(600, wrap) };
      expectErrorCode(() => normalize(deep), 'E_INPUT');
      const signedDeep = { bomFormat: 'CycloneDX', extra: nest(600, wrap), signature: { value: 'x' } };
      expectErrorCode(() => normalize(signedDeep), 'E_INPUT');
      expect(() => normalize({ bomFormat: 'CycloneDX', extra: nest(240, wrap) })).not.toThrow();
    }
  });

  it('says what it refuses', () => {
    expect(expectErrorCode(() => normalize([1]), 'E_INPUT').message).toBe('Only a BOM object can be normalized');
    expectErrorCode(() => normalize(null), 'E_INPUT');
  });
});
