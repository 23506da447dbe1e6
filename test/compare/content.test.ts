import { describe, expect, it } from 'vitest';
import { contentChanged } from '../../src/index.js';
import { MAX_DEPTH } from '../../src/json/scan.js';
import { expectErrorCode } from '../helpers.js';

const base = () => ({
  bomFormat: 'CycloneDX',
  specVersion: '1.6',
  version: 1,
  metadata: { timestamp: '2026-01-01T00:00:00Z', lifecycles: [{ phase: 'build' }] },
  components: [{ type: 'library', name: 'a', signature: { algorithm: 'ES256', value: 'x' } }],
  signature: { algorithm: 'ES256', value: 'root' },
});

// What the version rule calls a change: signatures at any depth, metadata.timestamp and version are not content.
describe('contentChanged', () => {
  it.each<[string, (d: ReturnType<typeof base> & Record<string, unknown>) => void]>([
    ['the version', (d) => (d.version = 7)],
    ['metadata.timestamp', (d) => (d.metadata.timestamp = '2030-01-01T00:00:00Z')],
    ['the root signature', (d) => (d.signature.value = 'other')],
    ['a component signature', (d) => (d.components[0]!.signature.value = 'other')],
    [
      'removing every signature',
      (d) => (
        delete (d as Record<string, unknown>).signature,
        delete (d.components[0] as Record<string, unknown>).signature
      ),
    ],
    ['a signature that is not an object', (d) => ((d as Record<string, unknown>).signature = 'garbage')],
    ['member order', (d) => (d.components[0] = { signature: d.components[0]!.signature, name: 'a', type: 'library' })],
  ])('ignores %s', (_name, change) => {
    const current = base() as ReturnType<typeof base> & Record<string, unknown>;
    change(current);
    expect(contentChanged(base(), current)).toBe(false);
  });

  it.each<[string, (d: ReturnType<typeof base> & Record<string, unknown>) => void]>([
    ['a component', (d) => (d.components[0]!.name = 'b')],
    ['other metadata', (d) => (d.metadata.lifecycles[0]!.phase = 'design')],
    ['a new top-level member', (d) => (d.serialNumber = 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79')],
    [
      'item order',
      (d) => d.components.unshift({ type: 'library', name: 'z', signature: { algorithm: 'x', value: 'y' } }),
    ],
    ['a metadata that is not an object', (d) => ((d as Record<string, unknown>).metadata = 'text')],
  ])('sees %s', (_name, change) => {
    const current = base() as ReturnType<typeof base> & Record<string, unknown>;
    change(current);
    expect(contentChanged(base(), current)).toBe(true);
  });

  it('compares values that are not documents as they are', () => {
    expect(contentChanged([1, { signature: 1 }], [1, { signature: 2 }])).toBe(false);
    expect(contentChanged([1, 2], [2, 1])).toBe(true);
    expect(contentChanged('a', 'a')).toBe(false);
    expect(contentChanged(null, {})).toBe(true);
  });

  it('treats a __proto__ member as data, as JSON.parse does', () => {
    const one = JSON.parse('{"__proto__": {"a": 1}, "signature": 1}') as unknown;
    const same = JSON.parse('{"__proto__": {"a": 1}, "signature": 2}') as unknown;
    const other = JSON.parse('{"__proto__": {"a": 2}}') as unknown;
    expect(contentChanged(one, same)).toBe(false);
    expect(contentChanged(one, other)).toBe(true);
    expect(({} as Record<string, unknown>).a).toBeUndefined();
  });

  it('an empty dependsOn or provides is its absence (XML cannot write one); $schema is no content', () => {
    const deps = (entry: Record<string, unknown>) => ({ dependencies: [{ ref: 'a', ...entry }] });
    expect(contentChanged(deps({ dependsOn: [] }), deps({}))).toBe(false);
    expect(contentChanged(deps({ provides: [] }), deps({}))).toBe(false);
    expect(contentChanged(deps({ dependsOn: ['b'] }), deps({}))).toBe(true);
    // Other empty lists still say something.
    expect(contentChanged({ components: [] }, {})).toBe(true);
    expect(contentChanged(deps({ other: [] }), deps({}))).toBe(true);
    expect(contentChanged({ $schema: 'http://cyclonedx.org/schema/bom-1.6.schema.json', a: 1 }, { a: 1 })).toBe(false);
    expect(contentChanged({ a: 1 }, { a: 2, $schema: 'x' })).toBe(true);
  });

  it('leaves its inputs unchanged', () => {
    const baseline = base();
    const current = base();
    current.components[0]!.name = 'b';
    contentChanged(baseline, current);
    expect(baseline).toEqual(base());
    expect(current.components[0]).toEqual({ ...base().components[0], name: 'b' });
  });

  it(`refuses nesting deeper than ${MAX_DEPTH} levels with E_INPUT instead of overflowing the stack`, () => {
    const deep: Record<string, unknown> = {};
    let node = deep;
    for (let i = 0; i < MAX_DEPTH + 2; i++) node = (node.n = {}) as Record<string, unknown>;
    expectErrorCode(() => contentChanged(deep, {}), 'E_INPUT');
  });
});
