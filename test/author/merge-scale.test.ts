/** merge() at scale: linear in the total size (every lookup by map, no pairwise comparison), and whole at size. */
import { describe, expect, it } from 'vitest';
import { merge } from '../../src/index.js';
import { expectLinearAsync } from '../growth.js';
import { bom, expectWhole } from './merge-fixtures.js';

type Json = Record<string, unknown>;

/**
 * Three inputs of `n` components each: the second shares half of the first's packages under other bom-refs, and the
 * third reuses the first's bom-refs for other packages (every one a collision), each with a chain of dependencies.
 */
function inputs(n: number): Json[] {
  const make = (prefix: string, ref: (i: number) => string, offset: number) => {
    const components = Array.from({ length: n }, (_, i) => ({
      type: 'library',
      'bom-ref': ref(i),
      name: `${prefix}${i + offset}`,
      version: '1.0.0',
      purl: `pkg:npm/${prefix}${i + offset}@1.0.0`,
    }));
    const dependencies = components.map((c, i) => ({
      ref: c['bom-ref'],
      dependsOn: i + 1 < n ? [components[i + 1]!['bom-ref']] : [],
    }));
    return bom({ components, dependencies });
  };
  return [make('p', (i) => `r${i}`, 0), make('p', (i) => `other-${i}`, n / 2), make('q', (i) => `r${i}`, 0)];
}

describe('merge at scale', () => {
  it('grows linearly with the total size', async () => {
    await expectLinearAsync((n) => {
      const documents = inputs(n).map((document, i) => ({ document, name: `${i}.json` }));
      return () => merge(documents, { toolVersion: '1.0.0' });
    }, 2_000);
  }, 120_000);

  it('is whole at 3 × 4,000 components: every collision renamed, every shared package combined', async () => {
    const documents = inputs(4_000);
    const { document, summary, valid } = await merge(
      documents.map((d, i) => ({ document: d, name: `${i}.json` })),
      { toolVersion: '1.0.0' },
    );
    expect(valid).toBe(true);
    expect(summary).toMatchObject({ componentsIn: 12_000, componentsOut: 10_000, duplicatesCombined: 2_000 });
    expect(summary.renamed).toHaveLength(4_000);
    await expectWhole(document, documents);
  }, 120_000);
});
