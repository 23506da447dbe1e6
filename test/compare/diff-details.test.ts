import { describe, expect, it } from 'vitest';
import { contentChanged, diff } from '../../src/index.js';
import { expectErrorCode } from '../helpers.js';
import { formatDiffText } from '../../src/format/diff.js';

const bom = (extra: Record<string, unknown>): Record<string, unknown> => ({
  bomFormat: 'CycloneDX',
  specVersion: '1.6',
  ...extra,
});
const withX = (x: unknown) => bom({ components: [{ type: 'library', 'bom-ref': 'c', name: 'c', x }] });

function nest(depth: number, wrap: (inner: unknown) => unknown): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
}

describe('diff: what counts as a change of an element', () => {
  it('tells apart values that print alike without their separators', () => {
    const pairs: [unknown, unknown][] = [
      [[1, 2], [12]],
      [[[1, 2]], [1, [2]]],
      [[[1], 2], [[1, 2]]],
      [{ a: { b: 1 }, c: 1 }, { a: { b: 1, c: 1 } }],
      [{ a: 1, b: 2 }, { a: 1 }],
      [[], {}],
    ];
    for (const [a, b] of pairs)
      expect(diff(withX(a), withX(b)).components.changed, JSON.stringify([a, b])).toHaveLength(1);
  });

  it('ignores member order, signatures, undefined members, and an undefined array item that JSON writes as null', () => {
    const pairs: [unknown, unknown][] = [
      [
        { b: 1, a: [{ d: 1, c: 2 }] },
        { a: [{ c: 2, d: 1 }], b: 1 },
      ],
      [
        { a: 1, signature: { value: 'x' } },
        { a: 1, signature: { value: 'y' } },
      ],
      [{ a: 1, b: undefined }, { a: 1 }],
      [[undefined], [null]],
    ];
    for (const [a, b] of pairs) expect(diff(withX(a), withX(b)).identical, JSON.stringify([a, b])).toBe(true);
  });

  it('reports a nested element’s change on the nested element only', () => {
    const child = (version: string) => ({ type: 'library', 'bom-ref': 'kid', name: 'kid', version });
    const result = diff(
      bom({ components: [{ type: 'library', 'bom-ref': 'p', name: 'p', components: [child('1')] }] }),
      bom({ components: [{ type: 'library', 'bom-ref': 'p', name: 'p', components: [child('2')] }] }),
    );
    expect(result.components.changed.map((c) => [c.bomRef, c.pointer, c.changes])).toEqual([
      ['kid', '/components/0/components/0', [{ path: 'version', old: '1', new: '2' }]],
    ]);
  });

  it('describes member changes by path: whole values where the type changes, old and new only when present', () => {
    const result = diff(withX({ a: 1, gone: null, kind: { deep: 1 } }), withX({ a: 2, added: 'x', kind: 5 }));
    const changes = result.components.changed[0]!.changes;
    expect(changes).toEqual([
      { path: 'x.a', old: 1, new: 2 },
      { path: 'x.gone', old: null },
      { path: 'x.kind', old: { deep: 1 }, new: 5 },
      { path: 'x.added', new: 'x' },
    ]);
    expect(Object.hasOwn(changes[1]!, 'new')).toBe(false);
    expect(Object.hasOwn(changes[3]!, 'old')).toBe(false);
  });
});

describe('diff: matching elements', () => {
  it('does not match on empty keys, nor on a name@version without a name', () => {
    const emptyRef = diff(
      bom({ components: [{ 'bom-ref': '', name: 'a' }] }),
      bom({ components: [{ 'bom-ref': '', name: 'b' }] }),
    );
    expect([
      emptyRef.components.added.length,
      emptyRef.components.removed.length,
      emptyRef.components.changed.length,
    ]).toEqual([1, 1, 0]);
    const nameless = diff(
      bom({ components: [{ version: '1', description: 'x' }] }),
      bom({ components: [{ version: '1', description: 'y' }] }),
    );
    expect([nameless.components.added.length, nameless.components.removed.length]).toEqual([1, 1]);
  });

  it('labels an element by purl, bom-ref, name@version or pointer, and lists only the identity fields it has', () => {
    const result = diff(
      bom({}),
      bom({
        components: [
          { name: 'a' },
          { name: 'b', version: '2' },
          { 'bom-ref': 'r', name: 'c' },
          { purl: 'pkg:npm/d@1', 'bom-ref': 'd' },
          { type: 'library' },
        ],
      }),
    );
    expect(result.components.added).toStrictEqual([
      { label: 'a', pointer: '/components/0', name: 'a' },
      { label: 'b@2', pointer: '/components/1', name: 'b', version: '2' },
      { label: 'r', pointer: '/components/2', bomRef: 'r', name: 'c' },
      { label: 'pkg:npm/d@1', pointer: '/components/3', bomRef: 'd', purl: 'pkg:npm/d@1' },
      { label: '/components/4', pointer: '/components/4' },
    ]);
  });

  it('matches each element once, by the first key that pairs it, and pairs equal keys in order', () => {
    const a = { 'bom-ref': 'r', purl: 'pkg:npm/p@1', name: 'a' };
    const alsoP = { purl: 'pkg:npm/p@1', name: 'b' };
    const oneNew = diff(bom({ components: [a, alsoP] }), bom({ components: [a] }));
    expect(oneNew.components.changed).toEqual([]);
    expect(oneNew.components.removed.map((e) => e.name)).toEqual(['b']);
    const oneOld = diff(bom({ components: [a] }), bom({ components: [a, { purl: 'pkg:npm/p@1', name: 'c' }] }));
    expect(oneOld.components.changed).toEqual([]);
    expect(oneOld.components.added.map((e) => e.name)).toEqual(['c']);
    const twins = diff(
      bom({
        components: [
          { purl: 'p', description: '1' },
          { purl: 'p', description: '2' },
        ],
      }),
      bom({ components: [{ purl: 'p', description: '1' }] }),
    );
    expect(twins.components.removed.map((e) => e.pointer)).toEqual(['/components/1']);
    expect(twins.components.changed).toEqual([]);
  });

  it('walks every element’s nested elements, skips what is not an element, and diffs services too', () => {
    const nested = (names: string[]) => names.map((name) => ({ name, components: [{ name: `${name}-kid` }] }));
    const result = diff(bom({ components: [] }), bom({ components: [...nested(['x', 'y']), 'junk', 7] }));
    // An array's elements first, then each one's nested elements, in document order.
    expect(result.components.added.map((e) => e.name)).toEqual(['x', 'y', 'x-kid', 'y-kid']);
    const services = diff(
      bom({ services: [{ name: 's', version: '1' }] }),
      bom({ services: [{ name: 's', version: '2' }, 'junk'] }),
    );
    expect([services.services.added.length, services.services.removed.length]).toEqual([1, 1]);
    expect(services.identical).toBe(false);
  });
});

describe('diff: dependencies', () => {
  it('ignores entries and references that are not well-formed, and merges repeated entries', () => {
    const result = diff(
      bom({ dependencies: [{ ref: 'x', dependsOn: ['a'] }, { ref: 'x', dependsOn: ['b'] }, 'junk', { ref: 5 }] }),
      bom({ dependencies: [{ ref: 'x', dependsOn: ['a', 'b', 7] }] }),
    );
    expect(result.dependencies).toEqual({ added: [], removed: [], changed: [] });
    expect(diff(bom({ dependencies: 5 }), bom({ dependencies: 'ab' })).dependencies).toEqual({
      added: [],
      removed: [],
      changed: [],
    });
  });

  it('keys CBOM entries by ref and dependency type, and says which type changed', () => {
    const result = diff(
      bom({
        dependencies: [
          { ref: 'x', dependencyType: 'uses', dependsOn: ['a'] },
          { ref: 'x', dependencyType: 'implements', dependsOn: ['b'] },
        ],
      }),
      bom({
        dependencies: [
          { ref: 'x', dependencyType: 'uses', dependsOn: ['a'] },
          { ref: 'x', dependencyType: 'implements', dependsOn: ['c'] },
          { ref: 'y' },
        ],
      }),
    );
    expect(result.dependencies.changed).toStrictEqual([
      {
        ref: 'x',
        dependsOnAdded: ['c'],
        dependsOnRemoved: ['b'],
        providesAdded: [],
        providesRemoved: [],
        dependencyType: 'implements',
      },
    ]);
    expect(result.dependencies.added).toStrictEqual([{ ref: 'y', dependsOn: [], provides: [] }]);
    const plain = diff(
      bom({ dependencies: [{ ref: 'x', provides: ['a'] }] }),
      bom({ dependencies: [{ ref: 'x', provides: ['b'] }] }),
    );
    expect(plain.dependencies.changed).toStrictEqual([
      { ref: 'x', dependsOnAdded: [], dependsOnRemoved: [], providesAdded: ['b'], providesRemoved: ['a'] },
    ]);
  });
});

describe('diff: identical', () => {
  it('is false when anything differs: a top-level member, metadata, an element added, replaced or changed', () => {
    const base = bom({ version: 1, metadata: { timestamp: 't' }, components: [{ name: 'a', version: '1' }] });
    const cases: Record<string, unknown>[] = [
      { ...base, version: 2 },
      { ...base, metadata: { timestamp: 'u' } },
      { ...base, components: [{ name: 'b', version: '1' }] },
      { ...base, components: [{ name: 'a', version: '1', description: 'd' }, { name: 'c' }] },
      { ...base, components: [{ name: 'a', version: '1' }], dependencies: [{ ref: 'a' }] },
    ];
    for (const current of cases) expect(diff(base, current).identical, JSON.stringify(current)).toBe(false);
    expect(diff(base, structuredClone(base)).identical).toBe(true);
  });

  it('refuses nesting deeper than 512 levels in members, metadata and nested elements', () => {
    const deep = nest(600, (v) => ({ x: v }));
    expectErrorCode(() => diff(bom({ extra: deep }), bom({ extra: nest(600, (v) => ({ x: v })) })), 'E_INPUT');
    expectErrorCode(() => diff(bom({ metadata: { deep } }), bom({ metadata: { deep: 1 } })), 'E_INPUT');
    const chain = nest(300, (v) => ({ name: 'n', components: [v] }));
    expectErrorCode(() => diff(bom({ components: [chain] }), bom({})), 'E_INPUT');
    expectErrorCode(() => contentChanged(bom({ extra: nest(600, (v) => [v]) }), bom({})), 'E_INPUT');
    expect(
      diff(bom({ components: [nest(100, (v) => ({ name: 'n', components: [v] }))] }), bom({})).components.removed
        .length,
    ).toBe(100);
  });
});

describe('diff: a changed array item shows its changed member with its path', () => {
  const COMMENT = 'as detected from the package manifest by the generator, which writes a long comment first';
  const component = (extra: Record<string, unknown>) =>
    bom({ components: [{ type: 'library', 'bom-ref': 'c', name: 'c', ...extra }] });
  const changesOf = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    diff(component(a), component(b)).components.changed[0]?.changes.map(({ path, old, new: now, added, removed }) => ({
      path,
      ...(added === undefined ? { old, new: now } : { added, removed }),
    }));
  const ref = (url: string, hash = 'a') => ({
    comment: COMMENT,
    hashes: [{ alg: 'SHA-256', content: hash.repeat(64) }],
    type: 'vcs',
    url,
  });

  it('one changed url among several references: the url, at the index in the new array', () => {
    const old = { externalReferences: [{ type: 'website', url: 'https://w' }, ref('https://a')] };
    const now = { externalReferences: [{ type: 'website', url: 'https://w' }, ref('https://b')] };
    expect(changesOf(old, now)).toEqual([{ path: 'externalReferences[1].url', old: 'https://a', new: 'https://b' }]);
    const text = formatDiffText(diff(component(old), component(now)));
    expect(text).toBe('~ component c externalReferences[1].url: https://a → https://b\n');
  });

  it('descends nested arrays, and pairs items of unordered arrays wherever they moved', () => {
    expect(
      changesOf({ externalReferences: [ref('https://a', 'a')] }, { externalReferences: [ref('https://a', 'b')] }),
    ).toEqual([{ path: 'externalReferences[0].hashes[0].content', old: 'a'.repeat(64), new: 'b'.repeat(64) }]);
    const hashes = (...pairs: [string, string][]) => pairs.map(([alg, c]) => ({ alg, content: c.repeat(64) }));
    expect(
      changesOf(
        { hashes: hashes(['SHA-256', 'a'], ['SHA-512', 'b']) },
        { hashes: hashes(['SHA-512', 'c'], ['SHA-256', 'a']) },
      ),
    ).toEqual([{ path: 'hashes[0].content', old: 'b'.repeat(64), new: 'c'.repeat(64) }]);
  });

  it('items sharing no member are added and removed; one shared member is enough to pair', () => {
    expect(
      changesOf({ licenses: [{ license: { id: 'MIT' } }] }, { licenses: [{ expression: 'MIT OR Apache-2.0' }] }),
    ).toEqual([
      { path: 'licenses', added: [{ expression: 'MIT OR Apache-2.0' }], removed: [{ license: { id: 'MIT' } }] },
    ]);
    expect(changesOf({ properties: [{ name: 'n', value: '1' }] }, { properties: [{ name: 'n', value: '2' }] })).toEqual(
      [{ path: 'properties[0].value', old: '1', new: '2' }],
    );
    // Scalars are never an item changed in place.
    expect(changesOf({ tags: ['a', 'b'] }, { tags: ['a', 'c'] })).toEqual([
      { path: 'tags', added: ['c'], removed: ['b'] },
    ]);
  });

  it('an item changed beside items added and removed: the array lists only those, the item its member', () => {
    const old = { externalReferences: [ref('https://a'), { type: 'website', url: 'https://w' }] };
    const now = { externalReferences: [{ type: 'chat', url: 'https://c' }, ref('https://b')] };
    expect(changesOf(old, now)).toEqual([
      {
        path: 'externalReferences',
        added: [{ type: 'chat', url: 'https://c' }],
        removed: [{ type: 'website', url: 'https://w' }],
      },
      { path: 'externalReferences[1].url', old: 'https://a', new: 'https://b' },
    ]);
  });

  it('pairs up to 10,000 candidate pairs; beyond, lists the items', () => {
    const props = (n: number, value: string) =>
      Array.from({ length: n }, (_, i) => ({ name: `p${String(i).padStart(3, '0')}`, value }));
    const at = changesOf({ properties: props(100, 'old') }, { properties: props(100, 'new') })!;
    expect(at).toHaveLength(100);
    expect(at[0]).toEqual({ path: 'properties[0].value', old: 'old', new: 'new' });
    const beyond = changesOf({ properties: props(100, 'old') }, { properties: props(101, 'new') })!;
    expect(beyond).toHaveLength(1);
    expect(beyond[0]).toMatchObject({ path: 'properties' });
  });

  it('metadata members are named without the index', () => {
    const a = bom({ metadata: { licenses: [{ license: { id: 'MIT', url: 'https://a' } }] } });
    const b = bom({ metadata: { licenses: [{ license: { id: 'MIT', url: 'https://b' } }] } });
    expect(diff(a, b).metadata).toEqual({
      members: ['licenses'],
      changes: [{ path: 'metadata.licenses[0].license.url', old: 'https://a', new: 'https://b' }],
    });
  });
});
