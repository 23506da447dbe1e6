import { appendPointer, toPointer } from '../json/pointer.js';
import { countTree } from '../json/quick-scan.js';
import { MAX_DEPTH } from '../json/scan.js';
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
  /**
   * Members of every object of the value, signatures included, or -1 when it nests deeper than MAX_DEPTH or has
   * an integer directly inside an array: exactly what json/quick-scan.ts's treeAgrees counts, so the parser can
   * take this walk's count instead of walking the tree a second time.
   */
  members: number;
}

const SIGNATURE = 'signature';
const BOM_REF = 'bom-ref';

/**
 * One walk over the document collects what the rules beyond the schema need, so a 100,000-component BOM is
 * walked once, not once per rule; pointers are built only for what is reported. Objects are visited depth-first
 * in document order, each before its members; nothing under a `signature` member is indexed (only counted).
 * Members are found by comparing the names the loop yields (no lookup by name: objects of many shapes would
 * make each one a slow, megamorphic access).
 */
export function indexDocument(document: unknown): DocumentIndex {
  const index: DocumentIndex = {
    bomRefs: new Set(),
    duplicateBomRefs: [],
    signed: [],
    malformedSignatures: [],
    members: 0,
  };
  const path: (string | number)[] = [];
  let members = 0;
  let regular = true;

  const visitObject = (record: Record<string, unknown>): void => {
    let ref: unknown;
    let hasSignature = false;
    let signature: unknown;
    for (const key in record) {
      if (key === BOM_REF) ref = record[key];
      else if (key === SIGNATURE) {
        hasSignature = true;
        signature = record[key];
      }
    }
    if (typeof ref === 'string') {
      if (index.bomRefs.has(ref))
        index.duplicateBomRefs.push({ ref, pointer: appendPointer(toPointer(path), BOM_REF) });
      else index.bomRefs.add(ref);
    }
    if (hasSignature) {
      if (signature !== null && typeof signature === 'object' && !Array.isArray(signature)) {
        index.signed.push({ record, pointer: toPointer(path) });
      } else {
        index.malformedSignatures.push(appendPointer(toPointer(path), SIGNATURE));
      }
    }
  };

  const walk = (value: object, level: number): void => {
    // Indexed as deep as the parser lets a document go (hand-built values may go deeper); counted only up to it.
    if (level > MAX_DEPTH) {
      regular = false;
      if (level > MAX_DEPTH + 1) return;
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (item !== null && typeof item === 'object') {
          path.push(i);
          walk(item, level + 1);
          path.pop();
        } else if (typeof item === 'number' && Number.isInteger(item)) regular = false;
      }
      return;
    }
    const record = value as Record<string, unknown>;
    visitObject(record);
    for (const key in record) {
      if (!Object.hasOwn(record, key)) {
        regular = false; // an enumerable inherited member: the count would mean nothing
        continue;
      }
      members++;
      const member = record[key];
      if (member === null || typeof member !== 'object') continue;
      if (key === SIGNATURE) {
        const inner = countTree(member, level + 1);
        if (inner < 0) regular = false;
        else members += inner;
        continue;
      }
      path.push(key);
      walk(member, level + 1);
      path.pop();
    }
  };
  if (document !== null && typeof document === 'object') walk(document, 1);
  index.members = regular ? members : -1;
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
