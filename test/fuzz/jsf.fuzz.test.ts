import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize, JSF_ALGORITHMS, validate, verify } from '../../src/index.js';
import { signDocument as sign } from '../../src/jsf/sign-document.js';
import { SAMPLES } from '../helpers.js';
import { freshKey } from '../jsf/fixtures.js';
import { fuzzParameters } from './settings.js';

const KEYS = new Map(JSF_ALGORITHMS.map((a) => [a, freshKey(a)]));

/** The same value with members in another order, recursively. */
function shuffled(value: unknown, order: number[]): unknown {
  if (Array.isArray(value)) return value.map((v) => shuffled(v, order));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const n = order[entries.length % order.length] ?? 0;
  const rotated = [
    ...entries.slice(n % Math.max(entries.length, 1)),
    ...entries.slice(0, n % Math.max(entries.length, 1)),
  ];
  return Object.fromEntries(rotated.reverse().map(([k, v]) => [k, shuffled(v, order)]));
}

/** JSON text with every number in exponent form (`1.5e+0`, `3e+1`): the same data, spelled otherwise. */
function respelled(value: unknown): string {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0.0e0' : value.toExponential();
  if (Array.isArray(value)) return `[${value.map(respelled).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${respelled(v)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

const sample = JSON.parse(readFileSync(path.join(SAMPLES, 'valid-full-1.6.json'), 'utf8')) as Record<string, unknown>;

describe('JCS properties', () => {
  it('is idempotent and independent of member order and of how numbers are spelled', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), (value, order) => {
        const canonical = canonicalize(value);
        expect(canonicalize(JSON.parse(canonical))).toBe(canonical);
        expect(canonicalize(shuffled(value, order))).toBe(canonical);
        // Another spelling of every number (exponent form) reads as the same data.
        expect(canonicalize(JSON.parse(respelled(value)))).toBe(canonical);
      }),
      fuzzParameters(300),
    );
  });
});

describe('JSF properties', () => {
  const keyInfo = fc.constantFrom('publicKey', 'keyId', 'none');
  const mode = fc.constantFrom('single', 'add', 'chain');

  it('verify ∘ sign holds for every algorithm, key-information kind and mode', () => {
    fc.assert(
      fc.property(fc.constantFrom(...JSF_ALGORITHMS), keyInfo, mode, (algorithm, info, how) => {
        const key = KEYS.get(algorithm)!;
        const hmac = key.family === 'oct';
        const signed = sign(sample, {
          key,
          targets: ['components', 'root'],
          mode: how as 'single' | 'add' | 'chain',
          publicKey: info === 'publicKey' && !hmac,
          ...(info === 'keyId' || hmac ? { keyId: 'k1' } : {}),
        });
        const trust = { keys: [{ ...key, keyId: 'k1' }], roots: [] };
        const { reports } = verify(signed, { trust, cyclonedx: true });
        expect(reports.length).toBeGreaterThan(1);
        expect(reports.filter((r) => r.verdict !== 'valid').map((r) => r.reason)).toEqual([]);
      }),
      fuzzParameters(60),
    );
  });

  it('any change to the signed data model fails verification; signing never changes validity', async () => {
    const key = KEYS.get('ES256')!;
    const signed = sign(sample, { key, targets: ['root'] }) as Record<string, unknown>;
    expect((await validate(sample)).valid).toBe(true);
    expect((await validate(signed)).valid).toBe(true);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(), { minLength: 1, maxLength: 5 }),
        fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)),
        async (at, replacement) => {
          const copy = structuredClone(signed);
          // Walk to some member outside the signature and change it.
          let node: Record<string, unknown> = copy;
          let key: string | undefined;
          for (const step of at) {
            const keys = Object.keys(node).filter((k) => k !== 'signature');
            if (keys.length === 0) break;
            key = keys[step % keys.length]!;
            const next = node[key];
            if (next === null || typeof next !== 'object' || step % 3 === 0) break;
            node = next as Record<string, unknown>;
            key = undefined;
          }
          if (key === undefined) return;
          const before = canonicalize(copy);
          if (replacement !== undefined) node[key] = replacement;
          else if (Array.isArray(node)) node.splice(Number(key), 1);
          else delete node[key];
          if (canonicalize(copy) === before) return;
          const { reports } = verify(copy, { cyclonedx: true });
          expect(reports.map((r) => r.verdict)).toEqual(['invalid']);
        },
      ),
      fuzzParameters(200),
    );
  });
});
