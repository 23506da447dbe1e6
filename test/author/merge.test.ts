/**
 * merge() through the library: each test is one of the failures users reported of other tools' merges (issue
 * numbers are cyclonedx-cli's unless named otherwise; see ../shared/reference/merge.md), checked on the output.
 */
import { describe, expect, it } from 'vitest';
import { merge, type BomMergeOptions, isBomwrightError } from '../../src/index.js';
import { REFERENCE_MEMBERS } from '../../src/author/merge-refs.js';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../helpers.js';
import { allComponents, app, bom, elementsByRef, expectWhole, HASH, lib } from './merge-fixtures.js';

type Json = Record<string, unknown>;
// Provenance has tests of its own; the others compare documents without it.
const OPTIONS: BomMergeOptions = { toolVersion: '9.9.9', now: new Date('2026-01-02T03:04:05Z'), provenance: false };
const run = (documents: Json[], options: Partial<BomMergeOptions> = {}) =>
  merge(
    documents.map((document, i) => ({ document, name: `in${i + 1}.json` })),
    { ...OPTIONS, ...options },
  );

async function rejects(promise: Promise<unknown>, code: string, message: RegExp): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isBomwrightError(error) && error.code).toBe(code);
  expect((error as Error).message).toMatch(message);
}

const PRODUCT = { root: { name: 'product', version: '3.0.0' } };

describe('flat merge: one entry per identity (#188, #356, #399, lib PR #199)', () => {
  it('combines the same package under different bom-refs, unioning hashes, licences, references, properties', async () => {
    const a = bom({
      metadata: { component: app('a', '1.0.0') },
      components: [
        lib('commons', '3.12.0', {
          'bom-ref': 'ref-in-a',
          hashes: [{ alg: 'SHA-256', content: HASH('a') }],
          licenses: [{ license: { id: 'Apache-2.0' } }],
          externalReferences: [{ type: 'vcs', url: 'https://example.com/a.git' }],
          properties: [{ name: 'p', value: '1' }],
        }),
      ],
      dependencies: [{ ref: 'a', dependsOn: ['ref-in-a'] }],
    });
    const b = bom({
      metadata: { component: app('b', '1.0.0') },
      components: [
        lib('commons', '3.12.0', {
          'bom-ref': 'ref-in-b',
          hashes: [
            { alg: 'SHA-256', content: HASH('A') },
            { alg: 'SHA-512', content: HASH('b', 128) },
          ],
          licenses: [{ license: { id: 'Apache-2.0' } }],
          externalReferences: [
            { type: 'vcs', url: 'https://example.com/a.git' },
            { type: 'website', url: 'https://example.com' },
          ],
          properties: [
            { name: 'p', value: '1' },
            { name: 'p', value: '2' },
          ],
        }),
      ],
      dependencies: [{ ref: 'b', dependsOn: ['ref-in-b'] }],
    });
    const { document, summary, valid } = await run([a, b], PRODUCT);
    expect(valid).toBe(true);
    const commons = allComponents(document).filter((c) => c.name === 'commons');
    expect(commons).toHaveLength(1);
    expect(commons[0]).toMatchObject({
      'bom-ref': 'ref-in-a',
      // Hex is case-insensitive: the same SHA-256 written in capitals is no second hash and no conflict.
      hashes: [
        { alg: 'SHA-256', content: HASH('a') },
        { alg: 'SHA-512', content: HASH('b', 128) },
      ],
      licenses: [{ license: { id: 'Apache-2.0' } }],
      externalReferences: [
        { type: 'vcs', url: 'https://example.com/a.git' },
        { type: 'website', url: 'https://example.com' },
      ],
      properties: [
        { name: 'p', value: '1' },
        { name: 'p', value: '2' },
      ],
    });
    // b's edge now names a's bom-ref: the same package, not a rename.
    expect(document.dependencies).toContainEqual({ ref: 'b', dependsOn: ['ref-in-a'] });
    expect(summary).toMatchObject({
      componentsIn: 4,
      componentsOut: 3,
      duplicatesCombined: 1,
      renamed: [],
      conflicts: [],
    });
    await expectWhole(document, [a, b]);
  });

  it('compares purls in canonical form: percent-encoding, qualifier order and type case do not matter', async () => {
    const a = bom({ components: [lib('x', '1', { purl: 'pkg:npm/%40scope/foo@1.0.0?b=2&a=1', 'bom-ref': 'one' })] });
    const b = bom({ components: [lib('x', '1', { purl: 'pkg:NPM/@scope/foo@1.0.0?a=1&b=2', 'bom-ref': 'two' })] });
    const c = bom({ components: [lib('x', '1', { purl: 'pkg:npm/%40scope/foo@1.0.1', 'bom-ref': 'three' })] });
    const { document, summary } = await run([a, b, c]);
    expect((document.components as Json[]).map((x) => x['bom-ref'])).toEqual(['one', 'three']);
    expect(summary.conflicts).toEqual([]);
  });

  it('one package in every spelling the purl specification allows is one component, however many purls there are', async () => {
    // Each pair has one canonical form (type, per-type name rules, encoding, qualifiers, subpath, `pkg://`).
    const pairs: [string, string][] = [
      ['pkg:pypi/Foo_Bar@1.0', 'pkg:pypi/foo-bar@1.0'],
      ['pkg:pub/foo-bar@1.0', 'pkg:pub/foo_bar@1.0'],
      ['pkg:npm/%20lodash@4', 'pkg:npm/lodash@4'],
      ['pkg:npm/lo\tdash@4', 'pkg:npm/lodash@4'],
      ['pkg://npm/left-pad@1', 'pkg:npm/left-pad@1'],
      ['pkg:github/Acme/Tool@2', 'pkg:github/acme/tool@2'],
      ['pkg:generic/x@1#a//b/', 'pkg:generic/x@1#a/b'],
      ['pkg:npm/@scope/%66oo@1', 'pkg:npm/%40scope/foo@1'],
    ];
    for (const [one, other] of pairs) {
      const a = bom({ components: [lib('x', '1', { purl: one, 'bom-ref': 'one' })] });
      const b = bom({ components: [lib('x', '1', { purl: other, 'bom-ref': 'other' })] });
      const { document } = await run([a, b]);
      expect(
        (document.components as Json[]).map((x) => x['bom-ref']),
        `${one} = ${other}`,
      ).toEqual(['one']);
    }
    // Another version, name or type is another package, one purl alone or many.
    for (const [one, other] of [
      ['pkg:npm/lodash@4', 'pkg:npm/lodash@5'],
      ['pkg:npm/lodash@4', 'pkg:npm/lodashx@4'],
      ['pkg:npm/lodash@4', 'pkg:pypi/lodash@4'],
      ['pkg:golang/Example.com/Mod@1', 'pkg:golang/example.com/mod@1'],
    ]) {
      const a = bom({ components: [lib('x', '1', { purl: one, 'bom-ref': 'one' })] });
      const b = bom({ components: [lib('x', '1', { purl: other, 'bom-ref': 'other' })] });
      const { document } = await run([a, b]);
      expect(
        (document.components as Json[]).map((x) => x['bom-ref']),
        `${one} ≠ ${other}`,
      ).toEqual(['one', 'other']);
    }
  });

  it('without purls, group + name + version + type: a container and an OS both named alpine stay two (#399)', async () => {
    const a = bom({
      components: [
        { type: 'container', 'bom-ref': 'c', name: 'alpine', version: '3.19' },
        { type: 'operating-system', 'bom-ref': 'o', name: 'alpine', version: '3.19' },
      ],
    });
    const b = bom({
      components: [
        { type: 'container', 'bom-ref': 'k', name: 'alpine', version: '3.19' },
        { type: 'container', 'bom-ref': 'g', group: 'library', name: 'alpine', version: '3.19' },
      ],
    });
    const { document, summary } = await run([a, b]);
    expect((document.components as Json[]).map((x) => x['bom-ref'])).toEqual(['c', 'o', 'g']);
    expect(summary.duplicatesCombined).toBe(1);
  });

  it('copies that differ only in scope become one, required when any part requires it (CLI PR #305)', async () => {
    const scoped = (scope: string | undefined, ref: string) =>
      bom({ components: [lib('s', '1', { 'bom-ref': ref, ...(scope ? { scope } : {}) })] });
    const cases: [string | undefined, string | undefined, string | undefined][] = [
      ['optional', 'required', 'required'],
      ['optional', undefined, 'required'],
      ['optional', 'excluded', 'optional'],
      ['excluded', 'excluded', 'excluded'],
      [undefined, undefined, undefined],
    ];
    for (const [first, second, expected] of cases) {
      const { document, summary } = await run([scoped(first, 'r1'), scoped(second, 'r2')]);
      expect(document.components, `${first} + ${second}`).toHaveLength(1);
      expect((document.components as Json[])[0]!.scope).toBe(expected);
      expect(summary.conflicts).toEqual([]);
    }
  });

  it('combines duplicates within one input too, and nested components across levels', async () => {
    const a = bom({
      components: [
        lib('p', '1', {
          'bom-ref': 'p',
          components: [lib('q', '1', { 'bom-ref': 'q-nested' })],
        }),
        lib('q', '1', { 'bom-ref': 'q-top', description: 'Q' }),
      ],
      dependencies: [{ ref: 'q-top', dependsOn: ['p'] }],
    });
    const b = bom({
      components: [lib('q', '1', { 'bom-ref': 'q', components: [lib('r', '1', { 'bom-ref': 'p' })] })],
      dependencies: [{ ref: 'q', dependsOn: ['p'] }],
    });
    const { document, summary } = await run([a, b]);
    // q is placed where it was first seen (inside p) and keeps the first bom-ref; r, nested in b's q, follows it.
    expect(document.components).toEqual([
      lib('p', '1', {
        'bom-ref': 'p',
        components: [
          lib('q', '1', { 'bom-ref': 'q-nested', description: 'Q', components: [lib('r', '1', { 'bom-ref': 'p-2' })] }),
        ],
      }),
    ]);
    expect(document.dependencies).toEqual([{ ref: 'q-nested', dependsOn: ['p', 'p-2'] }]);
    expect(summary.renamed).toEqual([{ input: 'in2.json', from: 'p', to: 'p-2' }]);
    expect(summary).toMatchObject({ componentsIn: 5, componentsOut: 3, duplicatesCombined: 2 });
    await expectWhole(document, [a, b]);
  });
});

describe('bom-refs unique, every reference rewritten (#326, #419, lib #82, python-lib #807, maven #609)', () => {
  const colliding = () => [
    bom({
      metadata: { component: app('a', '1', 'root') },
      components: [lib('left', '1', { 'bom-ref': 'x' }), lib('other', '1', { 'bom-ref': 'x-2' })],
      services: [{ 'bom-ref': 'api', name: 'api', version: '1' }],
      dependencies: [
        { ref: 'root', dependsOn: ['x', 'x-2'], provides: ['api'] },
        { ref: 'x', dependsOn: ['x-2'] },
      ],
      compositions: [{ aggregate: 'complete', assemblies: ['x'], dependencies: ['root'] }],
      vulnerabilities: [{ 'bom-ref': 'v', id: 'CVE-2026-1', affects: [{ ref: 'x' }] }],
      annotations: [
        {
          subjects: ['x'],
          annotator: { organization: { name: 'ACME' } },
          timestamp: '2026-01-01T00:00:00Z',
          text: 'left',
        },
      ],
    }),
    bom({
      metadata: { component: app('b', '1', 'root') },
      components: [lib('right', '1', { 'bom-ref': 'x' })],
      services: [{ 'bom-ref': 'api', name: 'api', version: '2' }],
      dependencies: [{ ref: 'root', dependsOn: ['x'], provides: ['api'] }],
      compositions: [{ aggregate: 'incomplete', assemblies: ['x'], dependencies: ['root'] }],
      vulnerabilities: [{ 'bom-ref': 'v', id: 'CVE-2026-2', affects: [{ ref: 'x' }] }],
      annotations: [
        {
          subjects: ['x'],
          annotator: { organization: { name: 'ACME' } },
          timestamp: '2026-01-01T00:00:00Z',
          text: 'right',
        },
      ],
    }),
  ];

  it('keeps free names, renames collisions readably past names taken later, and rewrites every kind of reference', async () => {
    const inputs = colliding();
    const { document, summary, valid } = await run(inputs, PRODUCT);
    expect(valid).toBe(true);
    const refs = elementsByRef(document);
    // "x-2" is a's own name, so b's x becomes x-3, not x-2.
    expect(summary.renamed).toEqual([
      { input: 'in2.json', from: 'root', to: 'root-2' },
      { input: 'in2.json', from: 'x', to: 'x-3' },
      { input: 'in2.json', from: 'api', to: 'api-2' },
      { input: 'in2.json', from: 'v', to: 'v-2' },
    ]);
    expect(refs.get('x')!.name).toBe('left');
    expect(refs.get('x-3')!.name).toBe('right');
    expect(document.dependencies).toEqual([
      { ref: 'root', dependsOn: ['x', 'x-2'], provides: ['api'] },
      { ref: 'x', dependsOn: ['x-2'] },
      { ref: 'root-2', dependsOn: ['x-3'], provides: ['api-2'] },
      { ref: 'product@3.0.0', dependsOn: ['root', 'root-2'] },
    ]);
    expect(document.compositions).toEqual([
      { aggregate: 'complete', assemblies: ['x'], dependencies: ['root'] },
      { aggregate: 'incomplete', assemblies: ['x-3'], dependencies: ['root-2'] },
    ]);
    expect((document.vulnerabilities as Json[]).map((v) => [v['bom-ref'], v.affects])).toEqual([
      ['v', [{ ref: 'x' }]],
      ['v-2', [{ ref: 'x-3' }]],
    ]);
    expect((document.annotations as Json[]).map((a) => [a.text, a.subjects])).toEqual([
      ['left', ['x']],
      ['right', ['x-3']],
    ]);
    await expectWhole(document, inputs);
  });

  it('leaves BOM-Links (references to other documents) alone', async () => {
    const link = 'urn:cdx:3e671687-395b-41f5-a30f-a58921a69b79/1#x';
    const a = bom({
      components: [lib('l', '1', { 'bom-ref': 'x' })],
      annotations: [
        {
          subjects: ['x', link],
          annotator: { organization: { name: 'A' } },
          timestamp: '2026-01-01T00:00:00Z',
          text: 't',
        },
      ],
    });
    const b = bom({ components: [lib('m', '1', { 'bom-ref': 'x' })] });
    const { document } = await run([b, a]);
    expect((document.annotations as Json[])[0]!.subjects).toEqual(['x-2', link]);
  });

  it('names every member the schemas (1.2 to 1.7) type as a reference', () => {
    const names = new Set<string>();
    const dir = path.join(ROOT, 'node_modules/@cyclonedx/cyclonedx-library/res/schema');
    // BOM-Link-only members (a data flow's source and destination) name other documents' elements: not rewritten.
    const REF = /\/(refType|refLinkType|cryptoRefArray)$/;
    const walk = (node: unknown, trail: string[]): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, [...trail, String(i)]));
      if (node === null || typeof node !== 'object') return;
      const record = node as Json;
      if (typeof record.$ref === 'string' && REF.test(record.$ref)) {
        // The member is the name after the last "properties" on the way (an array's items belong to it).
        const at = trail.lastIndexOf('properties');
        const name = at >= 0 ? trail[at + 1] : undefined;
        if (name !== undefined && name !== 'bom-ref') names.add(name);
      }
      for (const [key, value] of Object.entries(record)) walk(value, [...trail, key]);
    };
    for (const version of ['1.2', '1.3', '1.4', '1.5', '1.6', '1.7'])
      walk(JSON.parse(readFileSync(path.join(dir, `bom-${version}.SNAPSHOT.schema.json`), 'utf8')), []);
    expect(names.size).toBeGreaterThan(30);
    expect([...names].filter((n) => !REFERENCE_MEMBERS.has(n)).sort()).toEqual([]);
  });
});

describe('the graph: the new root depends on each input root (#480, #179, #230, #353)', () => {
  const inputs = () => [
    bom({
      metadata: { component: app('web', '1', 'web') },
      components: [lib('a', '1'), lib('b', '1')],
      dependencies: [
        { ref: 'web', dependsOn: ['a@1'] },
        { ref: 'a@1', dependsOn: ['b@1'] },
      ],
    }),
    // No root at all (#303, #310): its top-level components nothing depends on are linked instead.
    bom({
      components: [lib('c', '1'), lib('d', '1'), lib('b', '1', { 'bom-ref': 'bee' })],
      dependencies: [{ ref: 'c@1', dependsOn: ['bee'] }],
    }),
  ];

  it('links the new root (with a bom-ref and an entry) to roots, and rootless inputs through their top components', async () => {
    const [a, b] = inputs();
    const { document, summary } = await run([a!, b!], PRODUCT);
    const metadata = document.metadata as Json;
    expect(metadata.component).toEqual({
      type: 'application',
      'bom-ref': 'product@3.0.0',
      name: 'product',
      version: '3.0.0',
    });
    expect((document.dependencies as Json[]).at(-1)).toEqual({
      ref: 'product@3.0.0',
      dependsOn: ['web', 'c@1', 'd@1'],
    });
    expect(summary).toMatchObject({ root: 'product@3.0.0', rootAdded: true, componentsIn: 6, componentsOut: 5 });
    await expectWhole(document, [a!, b!]);
  });

  it('the same graph with and without a named root, apart from the root (#353)', async () => {
    const [a, b] = inputs();
    const named = await run([a!, b!], PRODUCT);
    const plain = await run([a!, b!]);
    const withoutRoot = (named.document.dependencies as Json[]).slice(0, -1);
    // Without a name, a's root is the merged BOM's root (the only root there is), and it links b's top components.
    expect(plain.document.dependencies).toEqual([
      { ref: 'web', dependsOn: ['a@1', 'c@1', 'd@1'] },
      ...withoutRoot.slice(1),
    ]);
    expect((plain.document.metadata as Json).component).toEqual(app('web', '1', 'web'));
    await expectWhole(plain.document, [a!, b!]);
  });

  it('two BOMs of one product (the same root) merge under that root, without --name', async () => {
    const a = bom({
      metadata: { component: lib('p', '1') },
      components: [lib('x', '1')],
      dependencies: [{ ref: 'p@1', dependsOn: ['x@1'] }],
    });
    const b = bom({
      metadata: { component: lib('p', '1', { 'bom-ref': 'root' }) },
      components: [lib('y', '1')],
      dependencies: [{ ref: 'root', dependsOn: ['y@1'] }],
    });
    const { document, summary } = await run([a, b]);
    expect((document.metadata as Json).component).toMatchObject({ 'bom-ref': 'p@1', name: 'p' });
    expect(document.components).toEqual([lib('x', '1'), lib('y', '1')]);
    expect(document.dependencies).toEqual([{ ref: 'p@1', dependsOn: ['x@1', 'y@1'] }]);
    expect(summary).toMatchObject({ root: 'p@1', rootAdded: false, componentsOut: 3 });
  });

  it('refuses to guess a root when the inputs describe different things', async () => {
    const [a] = inputs();
    const other = bom({ metadata: { component: app('api', '2') } });
    await rejects(run([a!, other]), 'E_USAGE', /in1\.json: web@1, in2\.json: api@2.*--name/);
  });

  it('gives a root without a bom-ref one, so it can be linked (#353)', async () => {
    const a = bom({
      metadata: { component: { type: 'application', name: 'web', version: '1' } },
      components: [lib('a', '1')],
    });
    const { document } = await run([a], PRODUCT);
    expect(allComponents(document).find((c) => c.name === 'web')!['bom-ref']).toBe('web@1');
    expect(document.dependencies).toEqual([{ ref: 'product@3.0.0', dependsOn: ['web@1'] }]);
  });
});

describe('hierarchical merge', () => {
  it('wraps each input (its root, or one named after the file: #303, #310), nothing combined across inputs', async () => {
    const a = bom({
      metadata: { component: app('web', '1', 'root') },
      components: [lib('a', '1')],
      dependencies: [{ ref: 'root', dependsOn: ['a@1'] }],
    });
    const b = bom({ metadata: { component: app('web', '1', 'root') }, components: [lib('a', '1')] });
    const c = bom({});
    const { document, summary } = await merge(
      [
        { document: a, name: 'one.json' },
        { document: b, name: 'dir/two.cdx.json' },
        { document: c, name: 'empty.json' },
      ],
      { ...OPTIONS, ...PRODUCT, hierarchical: true },
    );
    expect(document.components).toEqual([
      { ...app('web', '1', 'root'), components: [lib('a', '1')] },
      { ...app('web', '1', 'root-2'), components: [lib('a', '1', { 'bom-ref': 'a@1-2' })] },
      { type: 'application', 'bom-ref': 'empty', name: 'empty' },
    ]);
    expect(document.dependencies).toEqual([
      { ref: 'root', dependsOn: ['a@1'] },
      // The wrapper of an empty input depends on nothing, and says so.
      { ref: 'empty', dependsOn: [] },
      { ref: 'product@3.0.0', dependsOn: ['root', 'root-2', 'empty'] },
    ]);
    expect(summary.duplicatesCombined).toBe(0);
    await expectWhole(document, [a, b, c]);
  });

  it("a wrapper named after the file depends on its input's top components that nothing depends on", async () => {
    // z is nested in y: not top-level. w has no edges at all: a start of its own.
    const b = bom({
      components: [lib('x', '1'), lib('y', '1', { components: [lib('z', '1')] }), lib('w', '1')],
      dependencies: [
        { ref: 'x@1', dependsOn: ['y@1'] },
        { ref: 'y@1', dependsOn: ['z@1'] },
      ],
    });
    const { document, valid } = await merge([{ document: b, name: 'go.json' }], {
      ...OPTIONS,
      ...PRODUCT,
      hierarchical: true,
    });
    expect(valid).toBe(true);
    expect(document.dependencies).toEqual([
      { ref: 'x@1', dependsOn: ['y@1'] },
      { ref: 'y@1', dependsOn: ['z@1'] },
      { ref: 'go', dependsOn: ['x@1', 'w@1'] },
      { ref: 'product@3.0.0', dependsOn: ['go'] },
    ]);
    // Every component reachable from the root.
    const edges = new Map(
      (document.dependencies as Json[]).map((d) => [d.ref as string, (d.dependsOn as string[] | undefined) ?? []]),
    );
    const reached = new Set<string>();
    const visit = (ref: string): void => {
      if (reached.has(ref)) return;
      reached.add(ref);
      for (const next of edges.get(ref) ?? []) visit(next);
    };
    visit('product@3.0.0');
    expect([...reached].sort()).toEqual(['go', 'product@3.0.0', 'w@1', 'x@1', 'y@1', 'z@1']);
    // An input with its own root keeps that root's edges: no wrapper entry is made for it.
    const rooted = bom({ metadata: { component: app('web', '1', 'root') }, components: [lib('x', '1')] });
    const withRoot = await merge([{ document: rooted, name: 'web.json' }], {
      ...OPTIONS,
      ...PRODUCT,
      hierarchical: true,
    });
    expect(withRoot.document.dependencies).toEqual([{ ref: 'product@3.0.0', dependsOn: ['root'] }]);
  });

  it('needs the product named', async () => {
    await rejects(run([bom({})], { hierarchical: true }), 'E_USAGE', /hierarchical merge needs the merged product/);
  });
});

describe('conflicts are reported, never resolved silently', () => {
  it('two licences, two values of a member; two hashes for one algorithm only when asked', async () => {
    const a = bom({
      components: [
        lib('x', '1', {
          hashes: [{ alg: 'SHA-256', content: HASH('a') }],
          licenses: [{ license: { id: 'MIT' } }],
          supplier: { name: 'ACME' },
        }),
      ],
    });
    const b = bom({
      components: [
        lib('x', '1', {
          'bom-ref': 'other',
          hashes: [{ alg: 'SHA-256', content: HASH('b') }],
          licenses: [{ license: { id: 'Apache-2.0' } }],
          supplier: { name: 'ACME Inc.' },
        }),
      ],
    });
    const { document, summary } = await run([a, b], { onDifference: { hashes: 'fail' } });
    expect(summary.conflicts).toEqual([
      { element: 'pkg:npm/x@1', member: 'hashes[SHA-256]', kept: HASH('a'), other: HASH('b'), input: 'in2.json' },
      {
        element: 'pkg:npm/x@1',
        member: 'licenses',
        kept: '[{"license":{"id":"MIT"}}]',
        other: '[{"license":{"id":"Apache-2.0"}}]',
        input: 'in2.json',
      },
      { element: 'pkg:npm/x@1', member: 'supplier.name', kept: 'ACME', other: 'ACME Inc.', input: 'in2.json' },
    ]);
    // The first value stays in the document the caller may choose to write.
    expect((document.components as Json[])[0]).toMatchObject({
      hashes: [{ content: HASH('a') }],
      supplier: { name: 'ACME' },
    });
    // By default the hashes are a set; a member chosen `first` is noted, not a conflict.
    const lenient = await run([a, b], { onDifference: { 'supplier.name': 'first' } });
    expect(lenient.summary.conflicts.map((c) => c.member)).toEqual(['licenses']);
    expect(lenient.summary.differences.map((c) => c.member)).toEqual(['supplier.name']);
    expect((lenient.document.components as Json[])[0]!.hashes).toEqual([
      { alg: 'SHA-256', content: HASH('a') },
      { alg: 'SHA-256', content: HASH('b') },
    ]);
  });

  it('hashes are a set: several values per algorithm (cyclonedx-py, one per wheel) merged with themselves', async () => {
    const hashes = [
      { alg: 'SHA-256', content: HASH('a') },
      { alg: 'SHA-256', content: HASH('b') },
      { alg: 'SHA-256', content: HASH('A') },
    ];
    const a = bom({ components: [lib('x', '1', { hashes })] });
    const { document, summary } = await run([a, structuredClone(a)]);
    expect(summary.conflicts).toEqual([]);
    // Hex case does not make another hash.
    expect((document.components as Json[])[0]!.hashes).toEqual(hashes);
    const b = bom({
      components: [lib('x', '1', { hashes: [...hashes, { alg: 'SHA-512', content: HASH('c', 128) }] })],
    });
    expect(((await run([a, b])).document.components as Json[])[0]!.hashes).toHaveLength(4);
  });

  it.each([
    ['description', (t: string) => ({ description: t }), 'description'],
    [
      'an external reference comment',
      (t: string) => ({ externalReferences: [{ type: 'website', url: 'https://x', comment: t }] }),
      'externalReferences[website https://x].comment',
    ],
    ['notes', (t: string) => ({ notes: t }), 'notes'],
  ])('free text (%s) never blocks by default; `fail` makes it a conflict', async (_what, extra, member) => {
    const a = bom({ components: [lib('x', '1', extra('one wording'))] });
    const b = bom({ components: [lib('x', '1', extra('another wording'))] });
    const lenient = await run([a, b]);
    expect(lenient.summary.conflicts).toEqual([]);
    expect(lenient.summary.differences).toEqual([
      { element: 'pkg:npm/x@1', member, kept: 'one wording', other: 'another wording', input: 'in2.json' },
    ]);
    const strict = await run([a, b], { onDifference: { [member.replace(/\[[^\]]*\]/g, '')]: 'fail' } });
    expect(strict.summary.conflicts.map((c) => c.member)).toEqual([member]);
    expect(strict.summary.differences).toEqual([]);
  });

  it('a licence on one side only, or the same licences, is no conflict', async () => {
    const a = bom({ components: [lib('x', '1')] });
    const b = bom({ components: [lib('x', '1', { licenses: [{ license: { id: 'MIT' } }] })] });
    const c = bom({ components: [lib('x', '1', { licenses: [{ license: { id: 'MIT', url: 'https://mit' } }] })] });
    const { document, summary } = await run([a, b, c]);
    expect(summary.conflicts).toEqual([]);
    expect((document.components as Json[])[0]!.licenses).toEqual([{ license: { id: 'MIT' } }]);
  });
});

describe('services and vulnerabilities', () => {
  it('services by group + name + version, nested ones too; endpoints unioned', async () => {
    const a = bom({
      services: [
        {
          'bom-ref': 's',
          name: 'api',
          version: '1',
          endpoints: ['https://a'],
          services: [{ 'bom-ref': 'n', name: 'db', version: '5' }],
        },
      ],
      dependencies: [{ ref: 's', dependsOn: ['n'] }],
    });
    const b = bom({
      services: [
        { 'bom-ref': 'svc', name: 'api', version: '1', endpoints: ['https://b'] },
        { 'bom-ref': 'db', name: 'db', version: '5' },
        { 'bom-ref': 's', name: 'api', version: '2' },
      ],
      dependencies: [{ ref: 'svc', dependsOn: ['db', 's'] }],
    });
    const { document, summary } = await run([a, b]);
    expect(document.services).toEqual([
      {
        'bom-ref': 's',
        name: 'api',
        version: '1',
        endpoints: ['https://a', 'https://b'],
        services: [{ 'bom-ref': 'n', name: 'db', version: '5' }],
      },
      { 'bom-ref': 's-2', name: 'api', version: '2' },
    ]);
    expect(document.dependencies).toEqual([{ ref: 's', dependsOn: ['n', 's-2'] }]);
    expect(summary).toMatchObject({ servicesIn: 5, servicesOut: 3, duplicatesCombined: 2 });
    await expectWhole(document, [a, b]);
  });

  it('one statement per id, source, analysis and recommendation: affects united, pointing at real refs (#485, #471)', async () => {
    const statement = { id: 'CVE-2026-1', analysis: { state: 'not_affected', justification: 'code_not_reachable' } };
    const a = bom({
      components: [lib('x', '1', { 'bom-ref': 'x' }), lib('y', '1', { 'bom-ref': 'y' })],
      vulnerabilities: [{ ...statement, affects: [{ ref: 'x', versions: [{ version: '1' }] }] }],
    });
    const b = bom({
      components: [lib('y', '1', { 'bom-ref': 'x' }), lib('x', '1', { 'bom-ref': 'ex' })],
      vulnerabilities: [
        {
          ...statement,
          affects: [{ ref: 'x' }, { ref: 'ex', versions: [{ version: '1' }, { range: 'vers:npm/<2' }] }],
        },
      ],
    });
    const { document, summary } = await run([a, b]);
    expect(document.vulnerabilities).toEqual([
      {
        ...statement,
        affects: [{ ref: 'x', versions: [{ version: '1' }, { range: 'vers:npm/<2' }] }, { ref: 'y' }],
      },
    ]);
    expect(summary).toMatchObject({ vulnerabilitiesIn: 2, vulnerabilitiesOut: 1, conflicts: [] });
    await expectWhole(document, [a, b]);
  });
});

describe('VEX statements kept per product (CycloneDX VEX examples)', () => {
  const products = [app('product-a', '1', 'a'), app('product-b', '1', 'b')];
  const statement = (extra: Json, ref: string): Json => ({
    id: 'CVE-2026-7',
    source: { name: 'NVD', url: 'https://nvd.nist.gov/' },
    analysis: { state: 'not_affected', justification: 'code_not_reachable', response: ['will_not_fix', 'update'] },
    recommendation: 'Upgrade',
    ...extra,
    affects: [{ ref }],
  });
  const differing: [string, Json][] = [
    ['state', { analysis: { state: 'exploitable' } }],
    ['justification', { analysis: { state: 'not_affected', justification: 'requires_environment' } }],
    ['response', { analysis: { state: 'not_affected', justification: 'code_not_reachable', response: ['update'] } }],
    [
      'detail',
      {
        analysis: {
          state: 'not_affected',
          justification: 'code_not_reachable',
          response: ['will_not_fix', 'update'],
          detail: 'x',
        },
      },
    ],
    ['recommendation', { recommendation: 'Upgrade busybox' }],
    ['source', { source: { name: 'GitHub' } }],
    ['id', { id: 'CVE-2026-8' }],
  ];
  it.each(differing)('a different %s: two statements, each with its own affects', async (_member, extra) => {
    const a = bom({ components: products, vulnerabilities: [statement({}, 'a')] });
    const b = bom({ components: products, vulnerabilities: [statement(extra, 'b')] });
    const { document, summary } = await run([a, b]);
    const vulnerabilities = document.vulnerabilities as Json[];
    expect(vulnerabilities.map((v) => v.affects)).toEqual([[{ ref: 'a' }], [{ ref: 'b' }]]);
    expect(summary).toMatchObject({ vulnerabilitiesOut: 2, conflicts: [] });
  });

  it('the same statement (responses in another order) about two products: one entry, affects united', async () => {
    const a = bom({ components: products, vulnerabilities: [statement({}, 'a')] });
    const b = bom({
      components: products,
      vulnerabilities: [
        statement(
          {
            analysis: {
              state: 'not_affected',
              justification: 'code_not_reachable',
              response: ['update', 'will_not_fix'],
            },
          },
          'b',
        ),
      ],
    });
    const { document, summary } = await run([a, b]);
    expect((document.vulnerabilities as Json[]).map((v) => v.affects)).toEqual([[{ ref: 'a' }, { ref: 'b' }]]);
    expect(summary).toMatchObject({ vulnerabilitiesOut: 1, conflicts: [] });
  });

  const vexExamples = readdirSync(path.join(ROOT, 'test/fixtures/vex')).filter((f) => f.endsWith('vex.json'));
  it.each(vexExamples)('%s merged with itself keeps every statement with its own state and affects', async (file) => {
    const document = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/vex', file), 'utf8')) as Json;
    const statements = (d: Json) =>
      (d.vulnerabilities as Json[]).map((v) => [v.id, (v.analysis as Json | undefined)?.state, v.affects]);
    const result = await run([document, structuredClone(document)]);
    expect(result.summary.conflicts).toEqual([]);
    expect(statements(result.document)).toEqual(statements(document));
  });
});

describe('things without a purl are told apart by what distinguishes them', () => {
  const file = (hashes: Json[]) => ({ type: 'file', 'bom-ref': 'f', name: '/etc/os-release', hashes });
  const sha = (c: string) => ({ alg: 'SHA-256', content: HASH(c) });

  it('one file path from two images with different content: two components; the same content: one', async () => {
    const alpine = bom({ components: [file([sha('a')])] });
    const debian = bom({ components: [file([sha('d')])] });
    const apart = await run([alpine, debian]);
    expect(allComponents(apart.document).map((c) => c.hashes)).toEqual([[sha('a')], [sha('d')]]);
    expect(apart.summary.conflicts).toEqual([]);
    const same = await run([
      bom({ components: [file([sha('a'), sha('b')])] }),
      bom({ components: [file([sha('B'), sha('a')])] }),
    ]);
    expect(allComponents(same.document)).toHaveLength(1);
  });

  const key = (extra: Json = {}): Json => ({
    type: 'cryptographic-asset',
    'bom-ref': 'k',
    name: 'RSA-2048',
    cryptoProperties: {
      assetType: 'related-crypto-material',
      relatedCryptoMaterialProperties: { type: 'public-key', id: 'k1', ...extra },
      oid: '1.2.840.113549.1.1.1',
    },
  });
  const algorithm: Json = {
    type: 'cryptographic-asset',
    'bom-ref': 'a',
    name: 'RSA-2048',
    cryptoProperties: { assetType: 'algorithm', oid: '1.2.840.113549.1.1.1' },
  };
  it('crypto assets of one name: algorithm and key apart, public and private key apart, one key once', async () => {
    const { document, summary } = await run([
      bom({ components: [algorithm, key()] }, '1.6'),
      bom({ components: [key({ type: 'private-key' }), key()] }, '1.6'),
    ]);
    expect(summary.conflicts).toEqual([]);
    expect(
      allComponents(document).map((c) => {
        const crypto = c.cryptoProperties as Json;
        return [crypto.assetType, (crypto.relatedCryptoMaterialProperties as Json | undefined)?.type];
      }),
    ).toEqual([
      ['algorithm', undefined],
      ['related-crypto-material', 'public-key'],
      ['related-crypto-material', 'private-key'],
    ]);
    const other = await run([
      bom({ components: [{ ...algorithm, cryptoProperties: { assetType: 'algorithm', oid: '1.2' } }] }),
      bom({ components: [algorithm] }),
    ]);
    expect(allComponents(other.document)).toHaveLength(2);
  });

  it("the official CBOM Key example merged with itself: the key's algorithmRef names the algorithm, not the key", async () => {
    const cbom = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/cbom/key.json'), 'utf8')) as Json;
    const { document, summary, valid } = await run([cbom, structuredClone(cbom)]);
    expect(summary.conflicts).toEqual([]);
    expect(valid).toBe(true);
    expect(allComponents(document)).toHaveLength(allComponents(cbom).length);
    const byRef = elementsByRef(document);
    const keyEntry = allComponents(document).find(
      (c) => (c.cryptoProperties as Json | undefined)?.assetType === 'related-crypto-material',
    )!;
    const ref = ((keyEntry.cryptoProperties as Json).relatedCryptoMaterialProperties as Json).algorithmRef as string;
    expect(ref).not.toBe(keyEntry['bom-ref']);
    expect((byRef.get(ref)!.cryptoProperties as Json).assetType).toBe('algorithm');
  });
});

describe('probable duplicates: one image from two scanners', () => {
  const os = (purl: string, ref: string): Json => ({
    type: 'library',
    'bom-ref': ref,
    name: 'busybox',
    version: '1.32.1-r6',
    purl,
  });
  const syft = bom({ components: [os('pkg:apk/alpine/busybox@1.32.1-r6?arch=x86_64&distro=3.13.1', 's')] });
  const trivy = bom({ components: [os('pkg:apk/alpine/busybox@1.32.1-r6?distro=3.13.1', 't')] });
  const spelled = bom({ components: [os('pkg:alpine/busybox@1.32.1-r6', 'u')] });
  const other = bom({ components: [os('pkg:apk/alpine/busybox@1.32.2?distro=3.13.1', 'v')] });

  it('purls differing in qualifiers or type spelling: kept apart but always reported', async () => {
    const { document, summary } = await run([syft, trivy, spelled, other]);
    expect(allComponents(document)).toHaveLength(4);
    expect(summary.probableDuplicates).toEqual([
      [
        'pkg:apk/alpine/busybox@1.32.1-r6?arch=x86_64&distro=3.13.1',
        'pkg:apk/alpine/busybox@1.32.1-r6?distro=3.13.1',
        'pkg:alpine/busybox@1.32.1-r6',
      ],
    ]);
    expect(summary.conflicts).toEqual([]);
  });

  it('--match coordinates combines them (the first purl kept, the others noted); another version stays apart', async () => {
    const { document, summary } = await run([syft, trivy, spelled, other], { match: 'coordinates' });
    expect(allComponents(document).map((c) => c.purl)).toEqual([
      'pkg:apk/alpine/busybox@1.32.1-r6?arch=x86_64&distro=3.13.1',
      'pkg:apk/alpine/busybox@1.32.2?distro=3.13.1',
    ]);
    expect(summary).toMatchObject({ probableDuplicates: [], conflicts: [] });
    expect(summary.differences.map((d) => d.member)).toEqual(['purl', 'purl']);
    await expectWhole(document, [syft, trivy, spelled, other]);
  });
});

describe('provenance: BOM-Links of the inputs', () => {
  it('each input linked (type bom); each component lists the inputs it came from; links into an input made local', async () => {
    const a = bom({ components: [lib('x', '1'), lib('y', '1')] });
    const linkA = `urn:cdx:${(a.serialNumber as string).slice(9)}/1`;
    const b = bom({
      version: 3,
      components: [lib('x', '1', { 'bom-ref': 'bx' })],
      dependencies: [{ ref: 'bx', dependsOn: [`${linkA}#y%401`, 'urn:cdx:00000000-0000-4000-8000-000000000000/1#z'] }],
    });
    const linkB = `urn:cdx:${(b.serialNumber as string).slice(9)}/3`;
    const { document } = await run([a, b], { provenance: true });
    expect(document.externalReferences).toEqual([
      { type: 'bom', url: linkA },
      { type: 'bom', url: linkB },
    ]);
    const inputsOf = (c: Json) =>
      ((c.properties as Json[]).find((p) => p.name === 'bomwright:merge:inputs') as Json).value;
    expect(allComponents(document).map((c) => [c.name, inputsOf(c)])).toEqual([
      ['x', `${linkA} ${linkB}`],
      ['y', linkA],
    ]);
    // A BOM-Link into a merged input names the element here; one into another BOM stays as written.
    expect(document.dependencies).toEqual([
      { ref: 'x@1', dependsOn: ['y@1', 'urn:cdx:00000000-0000-4000-8000-000000000000/1#z'] },
    ]);
    const without = await run([a, b]);
    expect(without.document.externalReferences).toBeUndefined();
    expect(allComponents(without.document).some((c) => c.properties !== undefined)).toBe(false);
  });
});

describe('smaller points', () => {
  it('an entry without an id given twice is one statement; two different ones stay two', async () => {
    const a = bom({ vulnerabilities: [{}, { description: 'x' }] });
    const { document, valid } = await run([a, structuredClone(a)]);
    expect(document.vulnerabilities).toEqual([{}, { description: 'x' }]);
    expect(valid).toBe(true);
  });

  it('a document with an unnamed root merged with itself keeps that root; two different unnamed roots are refused', async () => {
    const a = bom({
      metadata: { component: { type: 'application', 'bom-ref': 'r', name: '' } },
      components: [lib('x', '1')],
    });
    const { document } = await run([a, structuredClone(a)]);
    expect((document.metadata as Json).component).toMatchObject({ name: '' });
    const b = bom({ metadata: { component: { type: 'container', name: '' } } });
    await rejects(run([a, b]), 'E_USAGE', /describe different things/);
  });

  it('a signatory whose signature is removed keeps its place only as an organization with a reference', async () => {
    const signature = { algorithm: 'ES256', value: 'abc' };
    const a = bom({
      declarations: {
        affirmation: {
          statement: 'We affirm',
          signatories: [
            { name: 'Alice', role: 'CEO', signature },
            {
              name: 'Bob',
              role: 'CTO',
              organization: { name: 'Acme' },
              externalReference: { type: 'other', url: 'https://acme.example/affirmation' },
            },
          ],
        },
      },
    });
    const { document, summary, valid } = await run([a]);
    expect(valid).toBe(true);
    expect(((document.declarations as Json).affirmation as Json).signatories).toEqual([
      {
        name: 'Bob',
        role: 'CTO',
        organization: { name: 'Acme' },
        externalReference: { type: 'other', url: 'https://acme.example/affirmation' },
      },
    ]);
    expect(summary.dropped).toEqual([
      {
        pointer: 'in1.json#/declarations/affirmation/signatories/0',
        reason:
          'its signature cannot survive a merge, and a signatory without one needs organization and externalReference (Alice)',
      },
    ]);
  });

  it('the same document twice (one serial number and version) is reported; another version is not', async () => {
    const a = bom({ components: [lib('x', '1')] });
    const same = await run([a, structuredClone(a)]);
    expect(same.summary.sameDocument).toEqual([['in1.json', 'in2.json']]);
    const next = await run([a, { ...structuredClone(a), version: 2 }]);
    expect(next.summary.sameDocument).toEqual([]);
  });
});

describe('metadata (#218, #408)', () => {
  it('tools of both forms in the 1.5+ object form, de-duplicated, plus bomwright; authors, supplier, licences kept', async () => {
    const a = bom(
      {
        metadata: {
          tools: [{ vendor: 'CycloneDX', name: 'cyclonedx-gomod', version: '1.4.0' }],
          authors: [{ name: 'Ann' }],
          supplier: { name: 'ACME' },
          licenses: [{ license: { id: 'CC0-1.0' } }],
          component: app('go', '1'),
        },
      },
      '1.5',
    );
    const b = bom(
      {
        metadata: {
          tools: {
            components: [
              { type: 'application', group: 'CycloneDX', name: 'cyclonedx-gomod', version: '1.4.0' },
              { type: 'application', name: 'cyclonedx-npm', version: '6.0.1' },
            ],
            services: [{ name: 'scanner', version: '2' }],
          },
          authors: [{ name: 'Ann' }, { name: 'Bob' }],
          licenses: [{ license: { id: 'CC-BY-4.0' } }],
          component: app('web', '1'),
        },
      },
      '1.5',
    );
    const { document, valid } = await run([a, b], { ...PRODUCT, specVersion: '1.5' });
    expect(valid).toBe(true);
    const metadata = document.metadata as Json;
    expect(metadata.tools).toEqual({
      components: [
        { type: 'application', group: 'CycloneDX', name: 'cyclonedx-gomod', version: '1.4.0' },
        { type: 'application', name: 'cyclonedx-npm', version: '6.0.1' },
        { type: 'application', name: 'bomwright', version: '9.9.9' },
      ],
      services: [{ name: 'scanner', version: '2' }],
    });
    expect(metadata.authors).toEqual([{ name: 'Ann' }, { name: 'Bob' }]);
    expect(metadata.licenses).toEqual([{ license: { id: 'CC0-1.0' } }, { license: { id: 'CC-BY-4.0' } }]);
    expect(metadata.timestamp).toBe('2026-01-02T03:04:05Z');
    // The supplier of what an input describes goes with that component.
    expect(allComponents(document).find((c) => c.name === 'go')!.supplier).toEqual({ name: 'ACME' });
    expect(metadata.supplier).toBeUndefined();
  });

  it('a manufacturer goes onto the component it made where a component has one (1.6+), else stays or is reported', async () => {
    const made = (specVersion: string, member: string) =>
      bom({ metadata: { component: app('p', '1'), [member]: { name: 'Maker' } } }, specVersion);
    const modern = await run([made('1.6', 'manufacturer'), made('1.6', 'manufacture')]);
    expect((modern.document.metadata as Json).component).toMatchObject({ manufacturer: { name: 'Maker' } });
    expect(modern.summary.dropped).toEqual([]);
    // 1.5: the merged BOM describes the same component, so its metadata says who made it.
    const same = await run([made('1.5', 'manufacture'), made('1.5', 'manufacture')]);
    expect(same.valid).toBe(true);
    expect((same.document.metadata as Json).manufacture).toEqual({ name: 'Maker' });
    // A named product is another thing: the input's manufacturer has no place.
    const named = await run([made('1.5', 'manufacture')], PRODUCT);
    expect(named.valid).toBe(true);
    expect((named.document.metadata as Json).manufacture).toBeUndefined();
    expect(named.summary.dropped).toEqual([
      {
        pointer: 'in1.json#/metadata/manufacture',
        reason: 'it describes p@1, and a CycloneDX 1.5 component has no manufacturer',
      },
    ]);
  });

  it('1.4 output: tools in the list form', async () => {
    const a = bom({ metadata: { tools: [{ vendor: 'v', name: 't', version: '1' }] } }, '1.4');
    const { document } = await run([a, a]);
    expect((document.metadata as Json).tools).toEqual([
      { vendor: 'v', name: 't', version: '1' },
      { vendor: 'bomwright', name: 'bomwright', version: '9.9.9' },
    ]);
  });

  it('a new document: a fresh serial number, version 1, the given timestamp', async () => {
    const a = bom({ components: [lib('x', '1')] });
    const one = await run([a]);
    const two = await run([a]);
    expect(one.document.serialNumber).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(one.document.serialNumber).not.toBe(two.document.serialNumber);
    expect(one.document.serialNumber).not.toBe(a.serialNumber);
    expect(one.document.version).toBe(1);
  });

  it('--baseline: the serial number kept; unchanged → same version and timestamp, changed → next version', async () => {
    const a = bom({ components: [lib('x', '1')] });
    const first = await run([a]);
    const baseline = {
      ...first.document,
      version: 4,
      metadata: { ...(first.document.metadata as Json), timestamp: '2025-01-01T00:00:00Z' },
    };
    const same = await run([a], { baseline });
    expect(same.document).toMatchObject({ serialNumber: first.document.serialNumber, version: 4 });
    expect((same.document.metadata as Json).timestamp).toBe('2025-01-01T00:00:00Z');
    const changed = await run([a, bom({ components: [lib('y', '1')] })], { baseline });
    expect(changed.document).toMatchObject({ serialNumber: first.document.serialNumber, version: 5 });
    expect((changed.document.metadata as Json).timestamp).toBe('2026-01-02T03:04:05Z');
    await rejects(run([a], { baseline: { version: 1 } }), 'E_INPUT', /no serialNumber/);
  });
});

describe('spec versions and signatures', () => {
  it('refuses inputs of different versions unless the output version is named', async () => {
    const a = bom({}, '1.4');
    const b = bom({}, '1.6');
    await rejects(run([a, b]), 'E_USAGE', /in1\.json: 1\.4, in2\.json: 1\.6.*--spec-version/);
    const { valid, document } = await run([a, b], { specVersion: '1.6' });
    expect(valid).toBe(true);
    expect(document.specVersion).toBe('1.6');
  });

  it('reports every member the output version lacks, dropped one by one', async () => {
    const a = bom({
      metadata: { lifecycles: [{ phase: 'build' }] },
      components: [
        lib('x', '1', {
          authors: [{ name: 'Ann' }],
          omniborId: ['gitoid:blob:sha1:261eeb9e9f8b2b4b0d119366dda99c6fd7d35c64'],
        }),
      ],
    });
    const b = bom({ components: [lib('y', '1')] }, '1.4');
    const { document, summary, valid } = await run([a, b], { specVersion: '1.4' });
    expect(valid).toBe(true);
    expect(summary.dropped.map((d) => d.pointer).sort()).toEqual([
      'in1.json#/components/0/omniborId',
      'in1.json#/metadata/lifecycles',
    ]);
    expect(summary.dropped[0]!.reason).toBe('CycloneDX 1.4 has no such member');
    // 1.6's authors are the one author text a 1.4 component has (the same conversion as `bomwright convert`).
    expect(summary.converted).toContainEqual({
      pointer: 'in1.json#/components/0/authors',
      from: [{ name: 'Ann' }],
      to: 'Ann',
      movedTo: '/components/0/author',
    });
    expect((document.components as Json[])[0]).toEqual(lib('x', '1', { author: 'Ann' }));
  });

  it('converts each input of another version as `convert` does: 1.4 expressions kept, 1.5+ values dropped', async () => {
    // trivy 1.4: several expression entries, which 1.5 and 1.6 take only as one expression.
    const trivy = bom(
      {
        components: [
          lib('x', '1', { licenses: [{ expression: 'MIT' }, { expression: 'Apache-2.0 OR BSD-3-Clause' }] }),
        ],
      },
      '1.4',
    );
    const up = await run([trivy, bom({ components: [lib('y', '1')] }, '1.6')], { specVersion: '1.6' });
    expect(up.valid).toBe(true);
    expect((up.document.components as Json[])[0]!.licenses).toEqual([
      { expression: 'MIT AND (Apache-2.0 OR BSD-3-Clause)' },
    ]);
    // A 1.5+ value 1.4 does not have (the external reference type) goes, and is reported, rather than surviving.
    const modern = bom({
      components: [lib('y', '1', { externalReferences: [{ type: 'source-distribution', url: 'https://e.com/y' }] })],
    });
    const down = await run([modern, bom({}, '1.4')], { specVersion: '1.4' });
    expect(down.valid).toBe(true);
    expect((down.document.components as Json[])[0]!.externalReferences).toBeUndefined();
    expect(down.summary.dropped).toContainEqual({
      pointer: 'in1.json#/components/0/externalReferences/0',
      reason: 'CycloneDX 1.4 has no value source-distribution here (at /components/0/externalReferences/0/type)',
    });
  });

  it('refuses a CBOM and a CycloneDX document together', async () => {
    const cbom = { ...bom({}, '1.4-cbom-1.0'), bomFormat: 'CBOM' };
    await rejects(
      run([cbom, bom({}, '1.4')], { specVersion: '1.4' }),
      'E_USAGE',
      /CBOM document; it cannot be merged into CycloneDX 1\.4/,
    );
  });

  it('says which signatures of the inputs cannot survive', async () => {
    const signature = { algorithm: 'ES256', value: 'abc' };
    const a = bom({ components: [lib('x', '1', { signature })], signature });
    const { document, summary } = await run([a]);
    // Verified before removal: these are malformed (no key, no real value), so invalid.
    expect(
      summary.removedSignatures.map(({ reason: _, ...s }) => s).sort((x, y) => x.pointer.localeCompare(y.pointer)),
    ).toEqual([
      { input: 'in1.json', pointer: '/components/0/signature', status: 'invalid' },
      { input: 'in1.json', pointer: '/signature', status: 'invalid' },
    ]);
    expect(JSON.stringify(document)).not.toContain('"signature"');
  });
});
