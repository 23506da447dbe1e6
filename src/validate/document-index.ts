import { appendPointer } from '../json/pointer.js';
import { forEachObject } from '../json/walk.js';

export interface DocumentIndex {
  /** Every string bom-ref outside signatures. */
  bomRefs: Set<string>;
  /** Second and later definitions of a bom-ref, in document order. */
  duplicateBomRefs: { ref: string; pointer: string }[];
  /** Objects that hold a JSF signature (an object under `signature`). */
  signed: { record: Record<string, unknown>; pointer: string }[];
  /** Pointers of `signature` members that are not objects: in a BOM, a broken signature, never data. */
  malformedSignatures: string[];
}

const SIGNATURE = 'signature';

/**
 * One walk over the document collects what the rules beyond the schema need, so a 100,000-component BOM is
 * walked once, not once per rule; pointers are built only for what is reported.
 */
export function indexDocument(document: Record<string, unknown>): DocumentIndex {
  const index: DocumentIndex = { bomRefs: new Set(), duplicateBomRefs: [], signed: [], malformedSignatures: [] };
  forEachObject(
    document,
    (record, pointer) => {
      const ref = record['bom-ref'];
      if (typeof ref === 'string') {
        if (index.bomRefs.has(ref)) index.duplicateBomRefs.push({ ref, pointer: appendPointer(pointer(), 'bom-ref') });
        else index.bomRefs.add(ref);
      }
      const signature = Object.hasOwn(record, SIGNATURE) ? record[SIGNATURE] : undefined;
      if (signature !== null && typeof signature === 'object' && !Array.isArray(signature)) {
        index.signed.push({ record, pointer: pointer() });
      } else if (Object.hasOwn(record, SIGNATURE)) {
        index.malformedSignatures.push(appendPointer(pointer(), SIGNATURE));
      }
    },
    (key) => key === SIGNATURE,
  );
  return index;
}

/** Where each of `refs` is first defined: a second walk, only when there are duplicates to explain. */
export function firstDefinitions(document: Record<string, unknown>, refs: ReadonlySet<string>): Map<string, string> {
  const found = new Map<string, string>();
  forEachObject(
    document,
    (record, pointer) => {
      const ref = record['bom-ref'];
      if (typeof ref === 'string' && refs.has(ref) && !found.has(ref))
        found.set(ref, appendPointer(pointer(), 'bom-ref'));
    },
    (key) => key === SIGNATURE,
  );
  return found;
}
