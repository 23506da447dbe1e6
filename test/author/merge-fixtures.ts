/** BOMs for the merge tests, and the checks every merged BOM must pass. */
import { expect } from 'vitest';
import { validate } from '../../src/index.js';

export const HASH = (c: string, length = 64) => c.repeat(length);

let serial = 0;

/** A document of `specVersion` with the given members (a distinct serial number each). */
export function bom(members: Record<string, unknown>, specVersion = '1.6'): Record<string, unknown> {
  const n = (++serial).toString(16).padStart(12, '0');
  return {
    bomFormat: 'CycloneDX',
    specVersion,
    serialNumber: `urn:uuid:3e671687-395b-41f5-a30f-${n}`,
    version: 1,
    ...members,
  };
}

export function lib(name: string, version: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'library',
    'bom-ref': `${name}@${version}`,
    name,
    version,
    purl: `pkg:npm/${name}@${version}`,
    ...extra,
  };
}

export function app(name: string, version: string, ref = name): Record<string, unknown> {
  return { type: 'application', 'bom-ref': ref, name, version };
}

type Json = Record<string, unknown>;

/** Every element with a bom-ref, by bom-ref (duplicates fail the test). */
export function elementsByRef(document: unknown): Map<string, Json> {
  const found = new Map<string, Json>();
  const duplicates: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (value === null || typeof value !== 'object') return;
    const record = value as Json;
    const ref = record['bom-ref'];
    if (typeof ref === 'string') {
      if (found.has(ref)) duplicates.push(ref);
      found.set(ref, record);
    }
    for (const [key, member] of Object.entries(record)) if (key !== 'signature') walk(member);
  };
  walk(document);
  expect(duplicates, 'duplicate bom-refs').toEqual([]);
  return found;
}

/** How an element is known across documents: its purl, else name@version. */
export function labelOf(element: Json | undefined): string {
  if (element === undefined) return '(dangling)';
  return typeof element.purl === 'string' ? element.purl : `${String(element.name)}@${String(element.version ?? '')}`;
}

/** Every dependency edge of a document, as "label -> label". */
export function edges(document: Json): Set<string> {
  const refs = elementsByRef(document);
  const out = new Set<string>();
  for (const entry of (document.dependencies ?? []) as Json[])
    for (const target of [...((entry.dependsOn ?? []) as string[]), ...((entry.provides ?? []) as string[])])
      out.add(`${labelOf(refs.get(entry.ref as string))} -> ${labelOf(refs.get(target))}`);
  return out;
}

/**
 * What every merge must give: a valid document, no duplicate bom-ref, every reference resolved, and every edge of
 * every input present (by the labels of its ends).
 */
export async function expectWhole(merged: Json, inputs: readonly Json[]): Promise<void> {
  const result = await validate(merged, { signatures: 'ignore' });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const refs = elementsByRef(merged);
  for (const entry of (merged.dependencies ?? []) as Json[]) {
    expect(refs.has(entry.ref as string), `dependency ref ${String(entry.ref)}`).toBe(true);
    for (const target of (entry.dependsOn ?? []) as string[])
      expect(refs.has(target), `dependsOn ${target}`).toBe(true);
  }
  for (const vulnerability of (merged.vulnerabilities ?? []) as Json[])
    for (const affect of (vulnerability.affects ?? []) as Json[])
      expect(refs.has(affect.ref as string), `affects ${String(affect.ref)}`).toBe(true);
  const all = edges(merged);
  for (const input of inputs)
    for (const edge of edges(input)) if (!/^(.+) -> \1$/.test(edge)) expect(all).toContain(edge);
  const refsPerEntry = ((merged.dependencies ?? []) as Json[]).map(
    (d) => `${String(d.ref)}/${String(d.dependencyType ?? '')}`,
  );
  expect(new Set(refsPerEntry).size, 'one dependency entry per ref').toBe(refsPerEntry.length);
}

/** Every component of a document, nested ones and metadata.component included. */
export function allComponents(document: Json): Json[] {
  const out: Json[] = [];
  const walk = (list: unknown) => {
    for (const c of (Array.isArray(list) ? list : []) as Json[]) {
      out.push(c);
      walk(c.components);
    }
  };
  const metadata = (document.metadata ?? {}) as Json;
  if (metadata.component !== undefined) walk([metadata.component]);
  walk(document.components);
  return out;
}
