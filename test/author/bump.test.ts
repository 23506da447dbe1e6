import { describe, expect, it } from 'vitest';
import {
  bump as bumpDocument,
  contentChanged,
  validate,
  verify as verifyDocument,
  versionRule,
} from '../../src/index.js';
import { adoptBaseline } from '../../src/author/bump.js';
import { counting, sampleBom, sign, testKey } from './fixtures.js';
import { expectErrorCode, minimalBom } from '../helpers.js';

const key = testKey();
const NOW = new Date('2026-06-07T08:09:10.500Z');

/** The same document with members (recursively) in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reversed(v)]),
  );
}

describe('bumpDocument', () => {
  it('increments the version, refreshes the timestamp and keeps the serial number', () => {
    const doc = sampleBom();
    const before = structuredClone(doc);
    const result = bumpDocument(doc, { now: NOW });
    expect(doc).toEqual(before);
    expect(result).toEqual({
      document: {
        ...before,
        version: 4,
        metadata: { ...(before.metadata as object), timestamp: '2026-06-07T08:09:10Z' },
      },
      version: 4,
      removedSignatures: [],
    });
  });

  it('counts a missing version as 1, creates metadata and adds a missing serial number', async () => {
    const { serialNumber: _s, version: _v, ...bare } = minimalBom('1.6', { components: [] });
    const result = bumpDocument(bare, { now: NOW, random: counting });
    expect(result.version).toBe(2);
    expect(result.addedSerialNumber).toBe('urn:uuid:00010203-0405-4607-8809-0a0b0c0d0e0f');
    expect(Object.keys(result.document)).toEqual([
      'bomFormat',
      'specVersion',
      'serialNumber',
      'version',
      'metadata',
      'components',
    ]);
    expect(result.document.metadata).toEqual({ timestamp: '2026-06-07T08:09:10Z' });
    expect((await validate(result.document)).errors).toBe(0);
  });

  it('removes every signature of a signed document and lists them', async () => {
    const signed = sign(sampleBom(), key, ['all']);
    expect(verifyDocument(signed).signedObjects).toBe(7);
    const result = bumpDocument(signed, { now: NOW });
    expect(result.removedSignatures).toEqual([
      '/signature',
      '/metadata/component/signature',
      '/components/0/signature',
      '/components/1/signature',
      '/components/1/components/0/signature',
      '/components/1/components/1/signature',
      '/services/0/signature',
    ]);
    expect(verifyDocument(result.document).signedObjects).toBe(0);
    expect(verifyDocument(signed).signedObjects).toBe(7);
    expect((await validate(result.document)).errors).toBe(0);
  });

  it('refuses what it cannot bump', () => {
    expectErrorCode(() => bumpDocument({ ...sampleBom(), version: '3' }), 'E_INPUT');
    expectErrorCode(() => bumpDocument({ ...sampleBom(), version: 0 }), 'E_INPUT');
    expectErrorCode(() => bumpDocument({ ...sampleBom(), metadata: [] }), 'E_INPUT');
    expectErrorCode(() => bumpDocument([]), 'E_INPUT');
  });
});

describe('contentChanged', () => {
  const base = sampleBom();

  it('ignores signatures, metadata.timestamp, version and member order', () => {
    expect(contentChanged(base, sampleBom())).toBe(false);
    expect(contentChanged(base, sign(sampleBom(), key, ['all']))).toBe(false);
    expect(contentChanged(base, bumpDocument(base, { now: NOW }).document)).toBe(false);
    expect(contentChanged(base, reversed(base))).toBe(false);
    const noTimestamp = sampleBom();
    delete (noTimestamp.metadata as Record<string, unknown>).timestamp;
    expect(contentChanged(base, noTimestamp)).toBe(false);
  });

  it('notices any other change', () => {
    const changes: ((doc: Record<string, unknown>) => void)[] = [
      (d) => ((d.components as Record<string, unknown>[])[0]!.version = '1.3.1'),
      (d) => (d.serialNumber = 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b7a'),
      (d) => ((d.metadata as Record<string, unknown>).lifecycles = [{ phase: 'build' }]),
      // Reordering components is no change (a set, see compare/order.ts); reordering licences is.
      (d) =>
        ((d.components as Record<string, unknown>[])[0]!.licenses = [
          { expression: 'MIT' },
          { license: { id: 'ISC' } },
        ]),
      (d) => ((d.dependencies as Record<string, unknown>[])[0]!.dependsOn = []),
      (d) => (d.properties = [{ name: 'signature', value: 'x' }]),
      (d) => ((d.services as Record<string, unknown>[])[0]!.signed = false),
    ];
    for (const change of changes) {
      const doc = sampleBom();
      change(doc);
      expect(contentChanged(base, doc)).toBe(true);
    }
  });
});

describe('adoptBaseline (bump NEW --baseline OLD)', () => {
  const OTHER = 'urn:uuid:11111111-2222-4333-8444-555555555555';
  /** What a generator writes on every run: a new serial number, version 1, a new timestamp. */
  const regenerated = (edit: (doc: Record<string, unknown>) => void = () => undefined) => {
    const doc = sampleBom();
    edit(doc);
    return {
      ...doc,
      serialNumber: OTHER,
      version: 1,
      metadata: { ...(doc.metadata as object), timestamp: '2030-01-01T00:00:00Z' },
    };
  };
  const old = sampleBom();

  it('unchanged content: the baseline serial number, version and timestamp (the same release)', () => {
    const result = adoptBaseline(regenerated(), old, { now: NOW });
    expect(result).toMatchObject({ version: 3, changed: false, unchanged: false, removedSignatures: [] });
    expect(result.document).toEqual(old);
    expect(versionRule(result.document, { document: old })).toEqual([]);
  });

  it('changed content: the baseline serial number, its version + 1, a fresh timestamp', () => {
    const next = regenerated((doc) => ((doc.components as Record<string, unknown>[])[0]!.version = '9.9.9'));
    expect(versionRule(next, { document: old })).toHaveLength(1);
    const result = adoptBaseline(next, old, { now: NOW });
    expect(result).toMatchObject({ version: 4, changed: true, unchanged: false });
    expect(result.document).toMatchObject({
      serialNumber: old.serialNumber,
      version: 4,
      metadata: { timestamp: '2026-06-07T08:09:10Z' },
    });
    expect(Object.keys(result.document)).toEqual(Object.keys(next));
    expect(versionRule(result.document, { document: old })).toEqual([]);
    // Adopting again changes nothing: the document already is the next release.
    const again = adoptBaseline(result.document, old, { now: new Date('2027-01-01T00:00:00Z') });
    expect(again).toMatchObject({ unchanged: true, version: 4 });
    expect(again.document).toBe(result.document);
  });

  it('a version off by one either way is set right; a missing serial number is added where it belongs', () => {
    for (const version of [2, 4, 5])
      expect(adoptBaseline({ ...sampleBom(), version }, old, { now: NOW }).document.version).toBe(3);
    const { serialNumber: _s, ...unserialized } = regenerated();
    const adopted = adoptBaseline(unserialized, old, { now: NOW }).document;
    expect(Object.keys(adopted).slice(0, 4)).toEqual(['bomFormat', 'specVersion', 'serialNumber', 'version']);
  });

  it('removes the signatures the adoption breaks', () => {
    const result = adoptBaseline(sign(regenerated(), key, ['root']), old, { now: NOW });
    expect(result.removedSignatures).toEqual(['/signature']);
    expect(result.document).not.toHaveProperty('signature');
  });

  it('refuses a baseline it cannot continue', () => {
    const { serialNumber: _s, ...unserialized } = old;
    expectErrorCode(() => adoptBaseline(regenerated(), unserialized), 'E_INPUT');
    expectErrorCode(() => adoptBaseline(regenerated(), '<bom/>'), 'E_INPUT');
    expectErrorCode(() => adoptBaseline(regenerated(), { ...old, version: 2 ** 53 - 1 }), 'E_INPUT');
    expect(adoptBaseline(regenerated(), { ...old, version: 2 ** 53 - 2 }).version).toBe(2 ** 53 - 2);
    expectErrorCode(() => adoptBaseline([], old), 'E_INPUT');
  });
});
