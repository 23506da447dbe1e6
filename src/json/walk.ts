import { BomwrightError } from '../errors.js';
import { toPointer } from './pointer.js';
import { MAX_DEPTH } from './scan.js';

/**
 * Visits every object in a JSON value, depth-first in document order. One shared path array serves every
 * object: `pointer()` builds a JSON pointer only when a visitor asks (a 100,000-component BOM holds millions of
 * objects), and no per-object arrays are allocated. Recursion is safe because nesting beyond MAX_DEPTH (which
 * the parser already refuses in text input) is not entered. Members for which `skip` is true are not entered.
 */
export function forEachObject(
  root: unknown,
  visit: (record: Record<string, unknown>, pointer: () => string) => void,
  skip: (key: string) => boolean = () => false,
): void {
  const path: (string | number)[] = [];
  const pointer = () => toPointer(path);
  const walk = (value: unknown, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (item !== null && typeof item === 'object') {
          path.push(i);
          walk(item, depth + 1);
          path.pop();
        }
      }
      return;
    }
    const record = value as Record<string, unknown>;
    visit(record, pointer);
    for (const key in record) {
      if (!Object.hasOwn(record, key) || skip(key)) continue;
      const member = record[key];
      if (member !== null && typeof member === 'object') {
        path.push(key);
        walk(member, depth + 1);
        path.pop();
      }
    }
  };
  if (root !== null && typeof root === 'object') walk(root, 0);
}

/** Guard for recursive walks: parsed documents are at most MAX_DEPTH deep, hand-built ones may not be. */
export function checkDepth(depth: number): void {
  if (depth > MAX_DEPTH) throw new BomwrightError('E_INPUT', `Nesting is deeper than ${MAX_DEPTH} levels`);
}
