import type { SpecFormat } from '../../formats/formats.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { firstDefinitions, type DocumentIndex } from '../document-index.js';
import { truncate } from '../../values.js';
import { BOM_LINK_PREFIX, refLinkMessage } from '../bom-link.js';

const LISTS = ['dependsOn', 'provides'] as const;

function pointerOf(entry: number, list: 'ref' | (typeof LISTS)[number], k: number): string {
  return list === 'ref' ? `/dependencies/${entry}/ref` : `/dependencies/${entry}/${list}/${k}`;
}

/**
 * bom-ref uniqueness across the whole document and resolution of dependency references, which JSON Schema
 * cannot express. Built on the document index (one walk) and hash lookups: linear. `misses`, when given, receives
 * each dependency ref and dependsOn entry that is not among the index's bom-refs, in document order (profiles
 * take them rather than looking every ref up again).
 */
export function checkReferences(
  document: Record<string, unknown>,
  format: SpecFormat,
  index: DocumentIndex,
  misses?: { pointer: string; ref: string }[],
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  if (index.duplicateBomRefs.length > 0) {
    const first = firstDefinitions(document, new Set(index.duplicateBomRefs.map((d) => d.ref)));
    for (const { ref, pointer } of index.duplicateBomRefs) {
      diagnostics.push({
        ruleId: 'ref/duplicate-bom-ref',
        severity: 'error',
        message: `bom-ref ${truncate(JSON.stringify(ref), 80)} is already defined by ${first.get(ref) ?? 'an earlier element'}`,
        pointer,
        value: truncate(JSON.stringify(ref), 120),
      });
    }
  }

  const dependencies = document.dependencies;
  if (!Array.isArray(dependencies)) return diagnostics;
  // Before 1.5 there are no BOM-Links, so a urn:cdx: reference must resolve like any other. From 1.5 the graph's
  // members are refLinkType, an element of this document: a BOM-Link there points outside it.
  const bomLinks = format.bomLinks;
  // The pointer is built only for a reference that does not resolve (a large graph has hundreds of thousands).
  const resolve = (ref: unknown, entry: number, list: 'ref' | (typeof LISTS)[number], k: number) => {
    if (typeof ref !== 'string') return;
    // Even a bom-ref spelled as a BOM-Link (the schema says it should not be) reads as one here, as it does in
    // every other refLinkType place (validate/bom-link.ts).
    const isBomLink = bomLinks && ref.startsWith(BOM_LINK_PREFIX);
    const known = (!isBomLink || misses !== undefined) && index.bomRefs.has(ref);
    if (!known && misses !== undefined && list !== 'provides') misses.push({ pointer: pointerOf(entry, list, k), ref });
    if (!isBomLink && known) return;
    diagnostics.push({
      ruleId: 'ref/unresolved',
      severity: 'error',
      message: isBomLink
        ? refLinkMessage('dependency', ref)
        : `Reference ${truncate(JSON.stringify(ref), 80)} does not match any bom-ref in the document`,
      pointer: pointerOf(entry, list, k),
      value: truncate(JSON.stringify(ref), 120),
    });
  };
  // In CBOM a ref may have one "implements" and one "uses" entry (IBM's own examples do this); no more.
  const cbomEntries = format.family === 'cbom' ? new Map<string, number>() : undefined;
  for (let i = 0; i < dependencies.length; i++) {
    const dependency: unknown = dependencies[i];
    if (dependency === null || typeof dependency !== 'object' || Array.isArray(dependency)) continue;
    const entry = dependency as Record<string, unknown>;
    resolve(entry.ref, i, 'ref', 0);
    for (const list of LISTS) {
      const refs = entry[list];
      if (!Array.isArray(refs)) continue;
      for (let k = 0; k < refs.length; k++) resolve(refs[k], i, list, k);
    }
    if (cbomEntries && typeof entry.ref === 'string') {
      const kind = typeof entry.dependencyType === 'string' ? entry.dependencyType : '(none)';
      const key = JSON.stringify([entry.ref, kind]);
      const earlier = cbomEntries.get(key);
      if (earlier === undefined) cbomEntries.set(key, i);
      else
        diagnostics.push({
          ruleId: 'cbom/repeated-dependency',
          severity: 'error',
          message: `ref ${truncate(JSON.stringify(entry.ref), 80)} already has a dependency entry of type ${kind} (/dependencies/${earlier})`,
          pointer: `/dependencies/${i}`,
        });
    }
  }
  return diagnostics;
}
