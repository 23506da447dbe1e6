import { describe, expect, it } from 'vitest';
import { normalize as normalizeDocument, validate } from '../../src/index.js';
import { sampleBom, sign, testKey, verdicts } from './fixtures.js';
import { expectErrorCode } from '../helpers.js';

const key = testKey();

/** A richer document whose sortable arrays are out of order. */
function unordered(): Record<string, unknown> {
  const doc = sampleBom();
  const components = doc.components as Record<string, unknown>[];
  components.push({
    name: 'zeta',
    type: 'library',
    'bom-ref': 'a-first',
    properties: [
      { name: 'z', value: '1' },
      { name: 'a', value: '2' },
      { name: 'z', value: '0' },
    ],
    externalReferences: [
      { url: 'https://b.example', type: 'website' },
      { url: 'https://a.example', type: 'website' },
      { url: 'https://c.example', type: 'vcs' },
    ],
    licenses: [{ license: { id: 'MIT' } }, { license: { id: 'Apache-2.0' } }],
  });
  doc.dependencies = [
    ...(doc.dependencies as unknown[]),
    { ref: 'a-first', dependsOn: ['pkg:npm/send@0.18.0', 'app'] },
  ];
  doc.properties = [{ value: 'x', name: 'custom' }];
  doc.extra = { zebra: 1, apple: { y: 2, b: 1 } };
  return doc;
}

/** The same document with members (recursively) in reverse order and sortable arrays reversed. */
function shuffled(value: unknown, key = '', arrays = true): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => shuffled(v, '', arrays));
    // Same-name properties keep their relative order: their order is content.
    return arrays &&
      ['components', 'dependencies', 'dependsOn', 'hashes', 'externalReferences', 'services'].includes(key)
      ? items.reverse()
      : items;
  }
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, shuffled(v, k, arrays)]),
  );
}

const text = (value: unknown) => JSON.stringify(value, null, 2);

describe('normalizeDocument', () => {
  it('orders members as the schema does, and unknown ones alphabetically', () => {
    const result = normalizeDocument(shuffled(unordered()));
    expect(Object.keys(result)).toEqual([
      'bomFormat',
      'specVersion',
      'serialNumber',
      'version',
      'metadata',
      'components',
      'services',
      'dependencies',
      'properties',
      'extra',
    ]);
    expect(Object.keys(result.metadata as object)).toEqual(['timestamp', 'component']);
    const components = result.components as Record<string, unknown>[];
    expect(Object.keys(components[0]!)).toEqual([
      'type',
      'bom-ref',
      'name',
      'licenses',
      'externalReferences',
      'properties',
    ]);
    expect(Object.keys(components[2]!)).toEqual(['type', 'bom-ref', 'name', 'version', 'hashes', 'licenses', 'purl']);
    expect(text(result.extra)).toBe(text({ apple: { b: 1, y: 2 }, zebra: 1 }));
    expect(Object.keys((result.dependencies as object[])[0]!)).toEqual(['ref', 'dependsOn']);
  });

  it('sorts arrays whose order means nothing, and only those', () => {
    const result = normalizeDocument(unordered());
    const components = result.components as Record<string, unknown>[];
    expect(components.map((c) => c['bom-ref'])).toEqual([
      'a-first',
      'pkg:npm/express@4.18.2',
      'pkg:npm/left-pad@1.3.0',
    ]);
    expect((components[1]!.components as Record<string, unknown>[]).map((c) => c.name)).toEqual([
      'body-parser',
      'send',
    ]);
    expect((components[2]!.hashes as Record<string, unknown>[]).map((h) => h.alg)).toEqual(['SHA-256', 'SHA-512']);
    expect(components[0]!.properties).toEqual([
      { name: 'a', value: '2' },
      { name: 'z', value: '1' },
      { name: 'z', value: '0' },
    ]);
    expect((components[0]!.externalReferences as Record<string, unknown>[]).map((r) => r.url)).toEqual([
      'https://c.example',
      'https://a.example',
      'https://b.example',
    ]);
    expect(components[0]!.licenses).toEqual([{ license: { id: 'MIT' } }, { license: { id: 'Apache-2.0' } }]);
    expect(result.dependencies).toEqual([
      { ref: 'a-first', dependsOn: ['app', 'pkg:npm/send@0.18.0'] },
      { ref: 'app', dependsOn: ['pkg:npm/express@4.18.2', 'pkg:npm/left-pad@1.3.0'] },
      { ref: 'pkg:npm/express@4.18.2', dependsOn: ['pkg:npm/body-parser@1.20.1', 'pkg:npm/send@0.18.0'] },
    ]);
  });

  it('gives differently ordered inputs the same result, is idempotent and keeps the document valid', async () => {
    const input = unordered();
    const before = structuredClone(input);
    const once = normalizeDocument(input);
    expect(input).toEqual(before);
    expect(text(normalizeDocument(shuffled(input)))).toBe(text(once));
    expect(text(normalizeDocument(once))).toBe(text(once));
    expect(normalizeDocument(once)).toEqual(once);
    const { extra: _extra, ...valid } = once;
    expect((await validate(valid)).errors).toBe(0);
  });

  it('orders components without bom-ref or purl by name@version, then by content', () => {
    const doc = {
      ...sampleBom(),
      components: [
        { type: 'library', name: 'b', version: '1' },
        { type: 'library', name: 'a', version: '2', description: 'y' },
        { type: 'library', name: 'a', version: '2', description: 'x' },
        { type: 'library', name: 'a', version: '1' },
      ],
      dependencies: undefined,
    };
    const names = (d: Record<string, unknown>) =>
      (d.components as Record<string, unknown>[]).map(
        (c) => `${c.name as string}@${c.version as string}${(c.description as string) ?? ''}`,
      );
    expect(names(normalizeDocument(doc))).toEqual(['a@1', 'a@2x', 'a@2y', 'b@1']);
    expect(names(normalizeDocument(shuffled(doc) as Record<string, unknown>))).toEqual(['a@1', 'a@2x', 'a@2y', 'b@1']);
  });

  it('keeps every signature valid', () => {
    const signed = sign(unordered(), key, ['all']);
    const result = normalizeDocument(signed);
    const checked = verdicts(result);
    expect(checked).toHaveLength(8);
    expect(checked.every((v) => v.endsWith(' valid'))).toBe(true);
    // Member order is free under a signature (JCS sorts members); array order is not, so only members move.
    expect(text(normalizeDocument(shuffled(signed, '', false)))).toBe(text(result));
    expect(text(normalizeDocument(result))).toBe(text(result));
  });

  it('sorts freely outside signed objects, but keeps the arrays of their ancestors in order', () => {
    const signed = sign(unordered(), key, ['pkg:npm/express@4.18.2']);
    const result = normalizeDocument(signed);
    expect(verdicts(result)).toEqual(['/components/1/signature valid']);
    const components = result.components as Record<string, unknown>[];
    // The root holds a signed component: its components and dependencies keep their order...
    expect(components.map((c) => c['bom-ref'])).toEqual([
      'pkg:npm/left-pad@1.3.0',
      'pkg:npm/express@4.18.2',
      'a-first',
    ]);
    expect((result.dependencies as Record<string, unknown>[]).map((d) => d.ref)).toEqual([
      'app',
      'pkg:npm/express@4.18.2',
      'a-first',
    ]);
    // ...inside the signed component nothing moves, and unsigned siblings are sorted.
    expect((components[1]!.components as Record<string, unknown>[]).map((c) => c.name)).toEqual([
      'send',
      'body-parser',
    ]);
    expect((components[0]!.hashes as Record<string, unknown>[]).map((h) => h.alg)).toEqual(['SHA-256', 'SHA-512']);
    expect(Object.keys(components[1]!)[0]).toBe('type');
  });

  it('keeps a "__proto__" member an ordinary member', () => {
    const doc = JSON.parse('{"bomFormat":"CycloneDX","specVersion":"1.6","__proto__":{"x":1}}') as Record<
      string,
      unknown
    >;
    const result = normalizeDocument(doc);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.hasOwn(result, '__proto__')).toBe(true);
    expect(JSON.stringify(result)).toBe('{"bomFormat":"CycloneDX","specVersion":"1.6","__proto__":{"x":1}}');
  });

  it('refuses what is not an object', () => {
    expectErrorCode(() => normalizeDocument([]), 'E_INPUT');
  });
});
