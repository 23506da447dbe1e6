import { describe, expect, it } from 'vitest';
import {
  bump as bumpDocument,
  contentChanged,
  versionRule,
  diff as diffDocuments,
  normalize as normalizeDocument,
} from '../../src/index.js';
import { formatDiffText } from '../../src/format/diff.js';
import { loadGenerateBom } from './fixtures.js';

const N = 20_000;
/** Generous: linear work on 20,000 components takes well under a second; a quadratic pass would take minutes. */
const BOUND_MS = 5_000;

function timed<T>(run: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
}

describe(`linear time on ${N} components`, () => {
  it('bumps, normalizes, compares and diffs within the bound', { timeout: 60_000 }, async () => {
    const generateBom = await loadGenerateBom();
    const baseline = generateBom(N);
    const bumped = timed(() => bumpDocument(baseline, { now: new Date('2026-02-02T00:00:00Z') }));
    expect(bumped.value.version).toBe(2);
    expect(bumped.ms).toBeLessThan(BOUND_MS);

    // A reshuffled copy with changes spread over the document.
    const current = structuredClone(baseline);
    const components = current.components as Record<string, unknown>[];
    components.reverse();
    for (let i = 0; i < components.length; i += 1000) components[i]!.version = 'changed';
    components.splice(500, 10);
    const normalized = timed(() => normalizeDocument(current));
    expect((normalized.value.components as unknown[]).length).toBe(N - 10);
    expect(normalized.ms).toBeLessThan(BOUND_MS);

    const changed = timed(() => contentChanged(baseline, current));
    expect(changed.value).toBe(true);
    expect(changed.ms).toBeLessThan(BOUND_MS);
    const next = bumpDocument(current).document;
    const verdict = timed(() => versionRule(next, { document: baseline }));
    expect(verdict.value).toEqual([]);
    expect(verdict.ms).toBeLessThan(BOUND_MS);

    const diff = timed(() => diffDocuments(baseline, normalized.value));
    expect(diff.value.components.removed).toHaveLength(10);
    expect(diff.value.components.changed).toHaveLength(20);
    expect(diff.value.components.added).toHaveLength(0);
    expect(diff.ms).toBeLessThan(BOUND_MS);
    expect(formatDiffText(diff.value).split('\n').length).toBeGreaterThan(30);
  });
});
