/** The objects at a format's signable places (SpecFormat.signable) in one document. */
import { escapeSegment } from '../json/pointer.js';
import { isRecord } from '../values.js';

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
