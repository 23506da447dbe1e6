/**
 * References inside a BOM: the members that the CycloneDX schemas (1.2–1.7) type as a reference to a bom-ref
 * (refType, refLinkType, bomLinkElementType, cryptoRefArray), and rewriting them through a map. A test derives the
 * list from the schemas, so a new version's reference member cannot be missed.
 */
import { forEachObject } from '../json/walk.js';

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
