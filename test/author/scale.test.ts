import { describe, expect, it } from 'vitest';
import {
  bump as bumpDocument,
  contentChanged,
  versionRule,
  diff as diffDocuments,
  normalize as normalizeDocument,
} from '../../src/index.js';
import { formatDiffText } from '../../src/format/diff.js';
import { atScale, expectLinear } from '../growth.js';
import { loadGenerateBom } from './fixtures.js';

const N = atScale(20_000);

/** A reshuffled copy with changes spread over the document: every 1,000th component changed, 10 removed. */
function editedCopy(baseline: Record<string, unknown>): Record<string, unknown> {
  const current = structuredClone(baseline);
  const components = current.components as Record<string, unknown>[];
  components.reverse();
  for (let i = 0; i < components.length; i += 1000) components[i]!.version = 'changed';
  components.splice(500, 10);
  return current;
}

describe(`authoring ${N} components`, async () => {
  const generateBom = await loadGenerateBom();

  it('bumps, normalizes, compares and diffs correctly at scale', () => {
    const baseline = generateBom(N);
    expect(bumpDocument(baseline, { now: new Date('2026-02-02T00:00:00Z') }).version).toBe(2);
    const current = editedCopy(baseline);
    const normalized = normalizeDocument(current);
    expect((normalized.components as unknown[]).length).toBe(N - 10);
    expect(contentChanged(baseline, current)).toBe(true);
    expect(versionRule(bumpDocument(current).document, { document: baseline })).toEqual([]);
    const diff = diffDocuments(baseline, normalized);
    expect(diff.components.removed).toHaveLength(10);
    expect(diff.components.changed).toHaveLength(N / 1000);
    expect(diff.components.added).toHaveLength(0);
    expect(formatDiffText(diff).split('\n').length).toBeGreaterThanOrEqual(N / 1000 + 10);
  });

  // Each operation's time grows linearly with the document (4× the components, well under 8× the time).
  const SIZES = 2_500;
  const pairs = (size: number) => {
    const baseline = generateBom(size);
    return { baseline, current: editedCopy(baseline) };
  };
  it.each([
    [
      'bump',
      ({ baseline }: ReturnType<typeof pairs>) =>
        () =>
          bumpDocument(baseline),
    ],
    [
      'normalize',
      ({ current }: ReturnType<typeof pairs>) =>
        () =>
          normalizeDocument(current),
    ],
    [
      'contentChanged',
      ({ baseline, current }: ReturnType<typeof pairs>) =>
        () =>
          contentChanged(baseline, current),
    ],
    [
      'versionRule',
      ({ baseline, current }: ReturnType<typeof pairs>) => {
        const next = bumpDocument(current).document;
        return () => versionRule(next, { document: baseline });
      },
    ],
    [
      'diff',
      ({ baseline, current }: ReturnType<typeof pairs>) =>
        () =>
          diffDocuments(baseline, current),
    ],
  ])('%s grows linearly', (_name, work) => {
    expectLinear((size) => work(pairs(size)), SIZES);
  });
});
