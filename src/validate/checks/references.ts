import { toPointer } from '../../json/pointer.js';
import type { SpecFormat } from '../../spec/formats.js';
import type { Diagnostic } from '../diagnostic.js';
import { truncate } from '../schema-errors.js';

const BOM_LINK_PREFIX = 'urn:cdx:';
/** CycloneDX BOM-Link (1.5+): urn:cdx:<serial UUID>/<version>[#<url-encoded bom-ref>]. */
const BOM_LINK = /^urn:cdx:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/[1-9][0-9]*(?:#.+)?$/;
const VERSIONS_WITHOUT_BOM_LINK = new Set(['1.2', '1.3', '1.4', '1.4-cbom-1.0']);

/**
 * bom-ref uniqueness across the whole document and resolution of dependency references, which JSON Schema
 * cannot express. One iterative walk (no recursion: depth is attacker-controlled) and hash lookups: linear.
 */
export function checkReferences(document: Record<string, unknown>, format: SpecFormat): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const firstDefinition = new Map<string, string>();
  forEachBomRef(document, (ref, pointer) => {
    const earlier = firstDefinition.get(ref);
    if (earlier === undefined) {
      firstDefinition.set(ref, pointer);
      return;
    }
    diagnostics.push({
      ruleId: 'ref/duplicate-bom-ref',
      severity: 'error',
      message: `bom-ref ${truncate(JSON.stringify(ref), 80)} is already defined by ${earlier}`,
      pointer,
      value: truncate(JSON.stringify(ref), 120),
    });
  });

  const dependencies = document.dependencies;
  if (!Array.isArray(dependencies)) return diagnostics;
  // Before 1.5 there are no BOM-Links, so a urn:cdx: reference must resolve like any other.
  const bomLinks = !VERSIONS_WITHOUT_BOM_LINK.has(format.specVersion);
  const resolve = (ref: unknown, pointer: string) => {
    if (typeof ref !== 'string' || firstDefinition.has(ref)) return;
    const isBomLink = bomLinks && ref.startsWith(BOM_LINK_PREFIX);
    if (isBomLink && BOM_LINK.test(ref)) return;
    diagnostics.push({
      ruleId: 'ref/unresolved',
      severity: 'error',
      message: isBomLink
        ? `Reference ${truncate(JSON.stringify(ref), 80)} is not a valid BOM-Link (urn:cdx:<serial UUID>/<version>[#<bom-ref>])`
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

interface Frame {
  container: unknown[] | Record<string, unknown>;
  keys: string[] | null;
  index: number;
}

/**
 * Calls `visit` for every string `bom-ref` member, in document order, outside signatures. Depth-first with an
 * explicit stack (depth is attacker-controlled) and one shared path: a pointer string is built only for the
 * members found, not for every object on the way (a 100,000-component BOM has millions of objects).
 */
function forEachBomRef(document: Record<string, unknown>, visit: (ref: string, pointer: string) => void): void {
  const path: (string | number)[] = [];
  const stack: Frame[] = [{ container: document, keys: Object.keys(document), index: 0 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const { container, keys } = frame;
    const length = keys === null ? (container as unknown[]).length : keys.length;
    if (frame.index >= length) {
      stack.pop();
      path.pop();
      continue;
    }
    const key = keys === null ? frame.index : keys[frame.index]!;
    frame.index++;
    const member = (container as Record<string | number, unknown>)[key];
    if (key === 'bom-ref') {
      if (typeof member === 'string') visit(member, toPointer([...path, key]));
      continue;
    }
    if (member === null || typeof member !== 'object' || key === 'signature') continue;
    path.push(key);
    stack.push({
      container: member as unknown[] | Record<string, unknown>,
      keys: Array.isArray(member) ? null : Object.keys(member),
      index: 0,
    });
  }
}
