import { describe, expect, it } from 'vitest';
import { baseBomRef, collectBomRefs, uniqueBomRef } from '../../src/author/bom-ref.js';
import { documentFormat, isoSeconds } from '../../src/author/document.js';
import { newSerialNumber } from '../../src/index.js';
import { expectErrorCode } from '../helpers.js';

describe('serial numbers (RFC 4122 version 4)', () => {
  it('sets the version and variant bits in the bytes it is given', () => {
    const counting = () => Uint8Array.from({ length: 16 }, (_, i) => i);
    expect(newSerialNumber(counting)).toBe('urn:uuid:00010203-0405-4607-8809-0a0b0c0d0e0f');
    expect(newSerialNumber(() => new Uint8Array(16).fill(0xff))).toBe('urn:uuid:ffffffff-ffff-4fff-bfff-ffffffffffff');
    expect(newSerialNumber(() => new Uint8Array(20).fill(0))).toBe('urn:uuid:00000000-0000-4000-8000-000000000000');
  });

  it('refuses a random source that gives fewer than 16 bytes', () => {
    const error = expectErrorCode(() => newSerialNumber(() => new Uint8Array(15)), 'E_USAGE');
    expect(error.message).toBe('The random source gave 15 bytes; 16 needed');
  });

  it('is a fresh lower-case version-4 UUID by default', () => {
    const pattern = /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const [a, b] = [newSerialNumber(), newSerialNumber()];
    expect(a).toMatch(pattern);
    expect(a).not.toBe(b);
  });
});

describe('generated bom-refs', () => {
  it('prefer the purl, then name@version, then the name', () => {
    expect(baseBomRef({ purl: 'pkg:npm/a@1', name: 'a', version: '1' })).toBe('pkg:npm/a@1');
    expect(baseBomRef({ purl: '', name: 'a', version: '1' })).toBe('a@1');
    expect(baseBomRef({ name: 'a', version: '' })).toBe('a');
    expect(baseBomRef({ name: 'a' })).toBe('a');
  });

  it('take the first free suffix and reserve it', () => {
    const taken = new Set(['a', 'a-2']);
    expect(uniqueBomRef('b', taken)).toBe('b');
    expect(uniqueBomRef('a', taken)).toBe('a-3');
    expect(uniqueBomRef('a', taken)).toBe('a-4');
    expect([...taken]).toEqual(['a', 'a-2', 'b', 'a-3', 'a-4']);
  });

  it('are collected from the whole document, strings only, signatures excluded', () => {
    const document = {
      components: [{ 'bom-ref': 'a', components: [{ 'bom-ref': 'b' }] }, { 'bom-ref': 1 }],
      services: [{ 'bom-ref': 'c' }],
      signature: { 'bom-ref': 'in-signature' },
    };
    expect([...collectBomRefs(document)].sort()).toEqual(['a', 'b', 'c']);
  });
});

describe('documents to edit', () => {
  it('refuses what is not a supported BOM, with the reason', () => {
    expect(expectErrorCode(() => documentFormat(null), 'E_INPUT').message).toBe(
      'Cannot edit the document: The document is null, not a BOM object',
    );
    expect(
      expectErrorCode(() => documentFormat({ bomFormat: 'CycloneDX', specVersion: '0.9' }), 'E_INPUT').message,
    ).toMatch(/^Cannot edit the document: specVersion "0\.9" is not supported/);
    expect(documentFormat({ bomFormat: 'CycloneDX', specVersion: '1.5' }).format.id).toBe('cyclonedx-1.5');
  });

  it('writes timestamps at seconds precision and refuses invalid dates', () => {
    expect(isoSeconds(new Date('2026-02-03T04:05:06.789Z'))).toBe('2026-02-03T04:05:06Z');
    expect(isoSeconds(new Date('2026-02-03T04:05:06Z'))).toBe('2026-02-03T04:05:06Z');
    expect(expectErrorCode(() => isoSeconds(new Date('nope')), 'E_USAGE').message).toBe(
      'The timestamp is not a valid date',
    );
  });
});
