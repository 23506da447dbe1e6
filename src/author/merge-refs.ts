/**
 * References inside a BOM: the members that the CycloneDX schemas (1.2–1.7) type as a reference to a bom-ref
 * (refType, refLinkType, bomLinkElementType, cryptoRefArray), and rewriting them through a map. A test derives the
 * list from the schemas, so a new version's reference member cannot be missed.
 */
import { toPointer } from '../json/pointer.js';
import { checkDepth, forEachObject } from '../json/walk.js';
import { setMember } from '../values.js';

/** Member names whose string value, or whose items when it is an array, name a bom-ref. */
export const REFERENCE_MEMBERS: ReadonlySet<string> = new Set([
  // dependencies, vulnerabilities' affects, datasets, related crypto assets, resource references
  'ref',
  'dependsOn',
  'provides',
  // compositions
  'assemblies',
  'dependencies',
  'vulnerabilities',
  // annotations; identity evidence
  'subjects',
  'tools',
  // cryptography (1.6+)
  'algorithms',
  'algorithm',
  'algorithmRef',
  'signatureAlgorithmRef',
  'subjectPublicKeyRef',
  'cryptoRefArray',
  'auth',
  'encr',
  'integ',
  'ke',
  'prf',
  // standards and declarations (1.6+)
  'requirements',
  'parent',
  'assessor',
  'claims',
  'counterClaims',
  'mitigationStrategies',
  'requirement',
  'evidence',
  'counterEvidence',
  'target',
  // citations, patents (1.7)
  'attributedTo',
  'process',
  'asserter',
  'patentRefs',
  'members',
]);

/**
 * Rewrites, in place, every bom-ref and every reference in `root` for which `rename` gives a new name (signatures
 * are not entered: they hold no references and are removed before a merge anyway).
 */
export function rewriteReferences(root: unknown, rename: (ref: string) => string | undefined): void {
  forEachObject(
    root,
    (record) => {
      for (const key of Object.keys(record)) {
        if (key !== 'bom-ref' && !REFERENCE_MEMBERS.has(key)) continue;
        const value = record[key];
        if (typeof value === 'string') {
          const renamed = rename(value);
          if (renamed !== undefined) record[key] = renamed;
        } else if (key !== 'bom-ref' && Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) {
            const item: unknown = value[i];
            if (typeof item !== 'string') continue;
            const renamed = rename(item);
            if (renamed !== undefined) value[i] = renamed;
          }
        }
      }
    },
    (key) => key === 'signature',
  );
}

/** A place holding one reference: a member of an object, or an item of an array. */
interface Slot {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
}

export interface PreparedCopy {
  copy: Record<string, unknown>;
  /** Pointers of the signatures left out, in document order. */
  removedSignatures: string[];
  /** Every object with a string bom-ref, in document order. */
  owners: { record: Record<string, unknown>; ref: string }[];
  /** Every reference (bom-refs included), to be renamed in one pass without walking the document again. */
  slots: Slot[];
}

/**
 * One pass over a document: a deep copy without `signature` members (or, `inPlace`, the document itself with them
 * removed), and the list of its bom-refs and references. Faster than structuredClone plus two walks.
 */
export function prepareCopy(document: Record<string, unknown>, inPlace = false): PreparedCopy {
  const removedSignatures: string[] = [];
  const owners: PreparedCopy['owners'] = [];
  const slots: Slot[] = [];
  const path: (string | number)[] = [];
  const copyValue = (value: unknown, depth: number, reference: boolean): unknown => {
    if (value === null || typeof value !== 'object') return value;
    checkDepth(depth);
    if (Array.isArray(value)) {
      const out: unknown[] = inPlace ? value : new Array<unknown>(value.length);
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (reference && typeof item === 'string') slots.push({ holder: out, key: i });
        path.push(i);
        out[i] = copyValue(item, depth + 1, false);
        path.pop();
      }
      return out;
    }
    const record = value as Record<string, unknown>;
    const out: Record<string, unknown> = inPlace ? record : {};
    for (const key of Object.keys(record)) {
      const member = record[key];
      if (key === 'signature') {
        removedSignatures.push(toPointer([...path, key]));
        if (inPlace) delete record[key];
        continue;
      }
      const referring = key === 'bom-ref' || REFERENCE_MEMBERS.has(key);
      if (referring && typeof member === 'string') {
        slots.push({ holder: out, key });
        if (key === 'bom-ref') owners.push({ record: out, ref: member });
      }
      path.push(key);
      const copied = copyValue(member, depth + 1, referring && key !== 'bom-ref');
      if (!inPlace) {
        if (key === '__proto__') setMember(out, key, copied);
        else out[key] = copied;
      }
      path.pop();
    }
    return out;
  };
  const copy = copyValue(document, 0, false) as Record<string, unknown>;
  return { copy, removedSignatures, owners, slots };
}

/** Renames the references listed in `slots` through `rename`. */
export function renameSlots(slots: readonly Slot[], rename: (ref: string) => string | undefined): void {
  for (const { holder, key } of slots) {
    const value = (holder as Record<string | number, unknown>)[key];
    if (typeof value !== 'string') continue;
    const renamed = rename(value);
    if (renamed !== undefined) (holder as Record<string | number, unknown>)[key] = renamed;
  }
}
