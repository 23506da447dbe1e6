import type { SpecFormat } from '../../formats/formats.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { firstDefinitions, type DocumentIndex } from '../document-index.js';
import { truncate } from '../../values.js';
import { BOM_LINK_PREFIX, refLinkMessage } from '../bom-link.js';

/**
 * bom-ref uniqueness across the whole document and resolution of dependency references, which JSON Schema
 * cannot express. Built on the document index (one walk) and hash lookups: linear.
 */
export function checkReferences(
  document: Record<string, unknown>,
  format: SpecFormat,
  index: DocumentIndex,
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
  const resolve = (ref: unknown, pointer: string) => {
    if (typeof ref !== 'string') return;
    // Even a bom-ref spelled as a BOM-Link (the schema says it should not be) reads as one here, as it does in
    // every other refLinkType place (validate/bom-link.ts).
    const isBomLink = bomLinks && ref.startsWith(BOM_LINK_PREFIX);
    if (!isBomLink && index.bomRefs.has(ref)) return;
    diagnostics.push({
      ruleId: 'ref/unresolved',
      severity: 'error',
      message: isBomLink
        ? refLinkMessage('dependency', ref)
        : `Reference ${truncate(JSON.stringify(ref), 80)} does not match any bom-ref in the document`,
      pointer,
      value: truncate(JSON.stringify(ref), 120),
    });
  };
  // In CBOM a ref may have one "implements" and one "uses" entry (IBM's own examples do this); no more.
  const cbomEntries = format.family === 'cbom' ? new Map<string, number>() : undefined;
  dependencies.forEach((dependency: unknown, index) => {
    if (dependency === null || typeof dependency !== 'object' || Array.isArray(dependency)) return;
    const entry = dependency as Record<string, unknown>;
    const base = `/dependencies/${index}`;
    resolve(entry.ref, `${base}/ref`);
    for (const list of ['dependsOn', 'provides'] as const) {
      const refs = entry[list];
      if (Array.isArray(refs)) refs.forEach((ref: unknown, k) => resolve(ref, `${base}/${list}/${k}`));
    }
    if (cbomEntries && typeof entry.ref === 'string') {
      const kind = typeof entry.dependencyType === 'string' ? entry.dependencyType : '(none)';
      const key = JSON.stringify([entry.ref, kind]);
      const earlier = cbomEntries.get(key);
      if (earlier === undefined) cbomEntries.set(key, index);
      else
        diagnostics.push({
          ruleId: 'cbom/repeated-dependency',
          severity: 'error',
          message: `ref ${truncate(JSON.stringify(entry.ref), 80)} already has a dependency entry of type ${kind} (/dependencies/${earlier})`,
          pointer: base,
        });
    }
  });
  return diagnostics;
}
