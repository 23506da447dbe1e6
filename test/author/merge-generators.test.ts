/**
 * Real BOMs of one product from different generators, merged with default options (the product named, as their
 * roots differ): syft and trivy on sbomify's poetry.lock, and trivy's after parlay enriched it (SOURCES.md). The
 * result is valid, the graph whole (every ref resolves, every input edge kept, every component reachable from the
 * root as it was from its input's), and nothing is there twice unless reported as a probable duplicate.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isBomwrightError, merge } from '../../src/index.js';
import { ROOT } from '../helpers.js';
import { allComponents, elementsByRef, expectWhole, labelOf } from './merge-fixtures.js';

type Json = Record<string, unknown>;
const REAL = 'test/fixtures/real';
const SYFT = 'sbomify-syft-poetry-lock-1.6.json';
const TRIVY = 'sbomify-trivy-poetry-lock-1.6.json';
const PARLAY = 'sbomify-trivy-parlay-poetry-lock-1.6.json';
const read = (file: string) => JSON.parse(readFileSync(path.join(ROOT, REAL, file), 'utf8')) as Json;

/** The labels (purl, else name@version) of what a document's root reaches through its dependency graph. */
function reachable(document: Json): Set<string> {
  const refs = elementsByRef(document);
  const graph = new Map<string, string[]>();
  for (const entry of (document.dependencies ?? []) as Json[])
    graph.set(entry.ref as string, [...((entry.dependsOn ?? []) as string[]), ...((entry.provides ?? []) as string[])]);
  const seen = new Set<string>();
  const queue = [((document.metadata as Json).component as Json)['bom-ref'] as string];
  while (queue.length > 0) {
    const ref = queue.pop()!;
    if (seen.has(ref)) continue;
    seen.add(ref);
    queue.push(...(graph.get(ref) ?? []));
  }
  return new Set([...seen].map((ref) => labelOf(refs.get(ref))));
}

describe('one product from several generators, default options', () => {
  const names = [SYFT, TRIVY, PARLAY];
  const inputs = names.map(read);

  it('succeeds: valid, whole, every component reachable as before, each package once', async () => {
    const { document, summary, valid } = await merge(
      inputs.map((document, i) => ({ document: structuredClone(document), name: names[i]! })),
      { toolVersion: '9.9.9', root: { name: 'sbomify', version: '0.0.0' } },
    );
    // The conflicts the generators' disagreements give (none: parlay's licences and descriptions are one-sided).
    expect(summary.conflicts).toEqual([]);
    expect(valid).toBe(true);
    await expectWhole(document, inputs);
    const after = reachable(document);
    for (const [i, input] of inputs.entries())
      for (const label of reachable(input)) expect(after.has(label), `${names[i]}: ${label}`).toBe(true);
    // Nothing silently twice: each purl once; purls naming one package otherwise would be reported.
    const purls = allComponents(document).flatMap((c) => (typeof c.purl === 'string' ? [c.purl] : []));
    expect(new Set(purls).size).toBe(purls.length);
    expect(summary.probableDuplicates).toEqual([]);
    // Each input's components and root in; trivy's packages are all among syft's, so out come syft's 158, syft's
    // root and trivy's (one root for trivy and parlay's copy of it).
    expect(summary).toMatchObject({ componentsIn: 159 + 71 + 71, componentsOut: 160, duplicatesCombined: 141 });
    // parlay enriched trivy's BOM without a new serial number or version: said.
    expect(summary.sameDocument).toEqual([[TRIVY, PARLAY]]);
  });

  it('without the product named, the roots (syft: a file, trivy: an application) are refused as different things', async () => {
    const error = await merge(
      inputs.slice(0, 2).map((document, i) => ({ document: structuredClone(document), name: names[i]! })),
      { toolVersion: '9.9.9' },
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isBomwrightError(error) && error.code).toBe('E_USAGE');
    expect((error as Error).message).toMatch(/describe different things.*--name/);
  });
});
