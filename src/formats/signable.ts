/**
 * Where CycloneDX allows a JSF `signature`, per version (jsf-0.82 references in the official schemas), as data.
 * Paths use `*` for "every item of this array" and `**` for "this array, recursively through the same member".
 */
import { escapeSegment } from '../json/pointer.js';
import { isRecord } from '../values.js';

const V14 = [
  '',
  'metadata/component',
  'metadata/component/components/**',
  'components/**',
  'services/**',
  'compositions/*',
];
const V15 = [...V14, 'annotations/*'];
const V16 = [
  ...V15,
  'declarations',
  'declarations/attestations/*',
  'declarations/claims/*',
  'declarations/evidence/*',
  'declarations/affirmation',
  'declarations/affirmation/signatories/*',
  'definitions/standards/*',
];
const V17 = [...V16, 'citations/*'];

const PLACES: Record<string, readonly string[]> = {
  '1.4': V14,
  '1.4-cbom-1.0': V14,
  '1.5': V15,
  '1.6': V16,
  '1.7': V17,
};

/** Signable place patterns of a spec version; empty for versions without signatures (1.2, 1.3). */
export function signablePatterns(specVersion: string): readonly string[] {
  return PLACES[specVersion] ?? [];
}

/**
 * Pointers of every object in `document` at the given patterns, in document order. `components/**` also
 * walks `components` of components (and metadata.component's), as the schema nests them.
 */
export function findPlaces(document: Record<string, unknown>, patterns: readonly string[]): string[] {
  const found = new Set<string>();
  for (const pattern of patterns) {
    if (pattern === '') {
      found.add('');
      continue;
    }
    const segments = pattern.split('/');
    const walk = (node: unknown, pointer: string, rest: string[]): void => {
      const [head, ...tail] = rest;
      if (head === undefined) {
        if (isRecord(node)) found.add(pointer);
        return;
      }
      if (head === '*' || head === '**') {
        if (!Array.isArray(node)) return;
        node.forEach((item: unknown, i) => {
          walk(item, `${pointer}/${i}`, tail);
          // `**`: the same member again inside each item (components of components).
          if (head === '**' && isRecord(item)) {
            const member = pointer.slice(pointer.lastIndexOf('/') + 1);
            walk(item[member], `${pointer}/${i}/${member}`, rest);
          }
        });
        return;
      }
      if (!isRecord(node) || !Object.hasOwn(node, head)) return;
      walk(node[head], `${pointer}/${escapeSegment(head)}`, tail);
    };
    walk(document, '', segments);
  }
  return [...found];
}
