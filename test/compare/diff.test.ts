import { describe, expect, it } from 'vitest';
import { diff as diffDocuments, init as initDocument, type BomDiff } from '../../src/index.js';
import { formatDiffText } from '../../src/format/diff.js';
import { sampleBom, sign, testKey } from '../author/fixtures.js';

const key = testKey();

function changedCopy(): Record<string, unknown> {
  const doc = sampleBom();
  doc.version = 4;
  (doc.metadata as Record<string, unknown>).timestamp = '2026-02-01T00:00:00Z';
  ((doc.metadata as Record<string, unknown>).component as Record<string, unknown>).version = '1.1.0';
  const components = doc.components as Record<string, unknown>[];
  // left-pad: new version and purl, same bom-ref.
  Object.assign(components[0]!, { version: '1.3.1', purl: 'pkg:npm/left-pad@1.3.1' });
  // send: removed; a new nested component added.
  const nested = components[1]!.components as Record<string, unknown>[];
  nested.splice(0, 1, {
    type: 'library',
    'bom-ref': 'pkg:npm/debug@2.6.9',
    name: 'debug',
    version: '2.6.9',
    purl: 'pkg:npm/debug@2.6.9',
  });
  (doc.services as Record<string, unknown>[])[0]!.description = 'x'.repeat(200);
  doc.dependencies = [
    { ref: 'app', dependsOn: ['pkg:npm/left-pad@1.3.0', 'api@1'] },
    { ref: 'pkg:npm/debug@2.6.9', dependsOn: [] },
  ];
  return doc;
}

describe('diffDocuments', () => {
  it('finds nothing between equal documents, whatever their signatures and member order', () => {
    const diff = diffDocuments(sampleBom(), sign(sampleBom(), key, ['all']));
    expect(diff.identical).toBe(true);
    expect(formatDiffText(diff)).toBe('No differences\n');
  });

  it('reports added, removed and changed elements matched by bom-ref', () => {
    const diff = diffDocuments(sampleBom(), changedCopy());
    expect(diff.identical).toBe(false);
    // Values stay JSON values: a number is a number.
    expect(diff.document).toEqual([{ path: 'version', old: 3, new: 4 }]);
    expect(diff.metadata).toEqual({
      members: ['timestamp', 'component'],
      changes: [
        { path: 'metadata.timestamp', old: '2026-01-01T00:00:00Z', new: '2026-02-01T00:00:00Z' },
        { path: 'metadata.component.version', old: '1.0.0', new: '1.1.0' },
      ],
    });
    expect(diff.components.added).toEqual([
      {
        label: 'pkg:npm/debug@2.6.9',
        pointer: '/components/1/components/0',
        bomRef: 'pkg:npm/debug@2.6.9',
        purl: 'pkg:npm/debug@2.6.9',
        name: 'debug',
        version: '2.6.9',
      },
    ]);
    expect(diff.components.removed.map((e) => [e.label, e.pointer])).toEqual([
      ['pkg:npm/send@0.18.0', '/components/1/components/0'],
    ]);
    expect(diff.components.changed).toEqual([
      {
        label: 'pkg:npm/left-pad@1.3.1',
        pointer: '/components/0',
        oldPointer: '/components/0',
        bomRef: 'pkg:npm/left-pad@1.3.0',
        purl: 'pkg:npm/left-pad@1.3.1',
        name: 'left-pad',
        version: '1.3.1',
        matchedBy: 'bom-ref',
        changes: [
          { path: 'version', old: '1.3.0', new: '1.3.1' },
          { path: 'purl', old: 'pkg:npm/left-pad@1.3.0', new: 'pkg:npm/left-pad@1.3.1' },
        ],
      },
    ]);
    // express itself did not change: its children are compared on their own.
    const service = diff.services.changed[0]!;
    expect(service.changes[0]!.path).toBe('description');
    expect(service.changes[0]!.old).toBeUndefined();
    // The whole value: the report for people shortens it, the data does not.
    expect(service.changes[0]!.new).toBe('x'.repeat(200));
    expect(diff.dependencies).toEqual({
      added: [{ ref: 'pkg:npm/debug@2.6.9', dependsOn: [], provides: [] }],
      removed: [
        {
          ref: 'pkg:npm/express@4.18.2',
          dependsOn: ['pkg:npm/send@0.18.0', 'pkg:npm/body-parser@1.20.1'],
          provides: [],
        },
      ],
      changed: [
        {
          ref: 'app',
          dependsOnAdded: ['api@1'],
          dependsOnRemoved: ['pkg:npm/express@4.18.2'],
          providesAdded: [],
          providesRemoved: [],
        },
      ],
    });
    expect(JSON.parse(JSON.stringify(diff))).toEqual(diff);
  });

  it('formats the diff as lines', () => {
    const lines = formatDiffText(diffDocuments(sampleBom(), changedCopy())).split('\n');
    expect(lines).toEqual([
      '~ version: 3 → 4',
      '~ metadata.timestamp: 2026-01-01T00:00:00Z → 2026-02-01T00:00:00Z',
      '~ metadata.component.version: 1.0.0 → 1.1.0',
      '+ component pkg:npm/debug@2.6.9',
      '- component pkg:npm/send@0.18.0',
      '~ component pkg:npm/left-pad@1.3.1 version: 1.3.0 → 1.3.1',
      '~ component pkg:npm/left-pad@1.3.1 purl: pkg:npm/left-pad@1.3.0 → pkg:npm/left-pad@1.3.1',
      `~ service api@1 description: (none) → ${'x'.repeat(79)}…`,
      '+ dependency pkg:npm/debug@2.6.9',
      '- dependency pkg:npm/express@4.18.2',
      '~ dependency app dependsOn +api@1 -pkg:npm/express@4.18.2',
      '',
    ]);
  });

  it('matches by purl when bom-refs differ, then by name and version', () => {
    const old = {
      ...sampleBom(),
      components: [
        { type: 'library', 'bom-ref': 'uuid-1', name: 'a', version: '1', purl: 'pkg:npm/a@1' },
        { type: 'library', 'bom-ref': 'uuid-2', name: 'b', version: '2' },
        { type: 'library', name: 'c', version: '3' },
      ],
      dependencies: [],
    };
    const current: Record<string, unknown> = {
      ...old,
      components: [
        { type: 'library', name: 'c', version: '3', description: 'now described' },
        { type: 'library', 'bom-ref': 'other-2', name: 'b', version: '2' },
        { type: 'library', 'bom-ref': 'other-1', name: 'a', version: '1', purl: 'pkg:npm/a@1', scope: 'required' },
      ],
    };
    const diff = diffDocuments(old, current);
    expect(diff.components.added).toEqual([]);
    expect(diff.components.removed).toEqual([]);
    expect(
      diff.components.changed.map((c) => [c.label, c.matchedBy, c.pointer, c.oldPointer, c.changes.map((x) => x.path)]),
    ).toEqual([
      ['c@3', 'name@version', '/components/0', '/components/2', ['description']],
      ['other-2', 'name@version', '/components/1', '/components/1', ['bom-ref']],
      ['pkg:npm/a@1', 'purl', '/components/2', '/components/0', ['bom-ref', 'scope']],
    ]);
  });

  it('pairs repeated keys in document order and keys CBOM dependencies by type', () => {
    const cbom = (dependencies: unknown[]) => ({
      ...initDocument({ format: 'cbom', toolVersion: '1', random: (n) => new Uint8Array(n) }),
      components: [
        { type: 'library', name: 'same', version: '1' },
        { type: 'library', name: 'same', version: '1', description: 'second' },
      ],
      dependencies,
    });
    const old = cbom([
      { ref: 'x', dependsOn: ['a'], dependencyType: 'uses' },
      { ref: 'x', dependsOn: ['b'], dependencyType: 'implements' },
    ]);
    const current = cbom([
      { ref: 'x', dependsOn: ['a', 'c'], dependencyType: 'uses' },
      { ref: 'x', dependsOn: ['b'], provides: ['p'], dependencyType: 'implements' },
    ]);
    const diff: BomDiff = diffDocuments(old, current);
    expect(diff.components).toEqual({ added: [], removed: [], changed: [] });
    expect(diff.dependencies.changed).toEqual([
      {
        ref: 'x',
        dependencyType: 'uses',
        dependsOnAdded: ['c'],
        dependsOnRemoved: [],
        providesAdded: [],
        providesRemoved: [],
      },
      {
        ref: 'x',
        dependencyType: 'implements',
        dependsOnAdded: [],
        dependsOnRemoved: [],
        providesAdded: ['p'],
        providesRemoved: [],
      },
    ]);
    expect(formatDiffText(diff)).toBe('~ dependency x (uses) dependsOn +c\n~ dependency x (implements) provides +p\n');
  });

  it('reports added and removed members and top-level changes', () => {
    const old = sampleBom();
    const current: Record<string, unknown> = {
      ...sampleBom(),
      serialNumber: 'urn:uuid:11111111-2222-4333-8444-555555555555',
      externalReferences: [],
    };
    delete (current.metadata as Record<string, unknown>).timestamp;
    const diff = diffDocuments(old, current);
    expect(diff.document).toEqual([
      {
        path: 'serialNumber',
        old: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
        new: 'urn:uuid:11111111-2222-4333-8444-555555555555',
      },
      { path: 'externalReferences', new: [] },
    ]);
    expect(diff.metadata.changes).toEqual([{ path: 'metadata.timestamp', old: '2026-01-01T00:00:00Z' }]);
    expect(formatDiffText(diff)).toContain('~ metadata.timestamp: 2026-01-01T00:00:00Z → (none)\n');
  });
});
