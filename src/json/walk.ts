import { toPointer } from './pointer.js';

interface Frame {
  container: unknown[] | Record<string, unknown>;
  keys: string[] | null;
  index: number;
}

/**
 * Visits every object in a JSON value, depth-first in document order, with an explicit stack (depth is
 * attacker-controlled) and one shared path: `pointer()` builds the object's JSON pointer only when a visitor
 * asks, since a 100,000-component BOM holds millions of objects. Members for which `skip` is true are not
 * entered.
 */
export function forEachObject(
  root: unknown,
  visit: (record: Record<string, unknown>, pointer: () => string) => void,
  skip: (key: string) => boolean = () => false,
): void {
  const path: (string | number)[] = [];
  const stack: Frame[] = [];
  const enter = (value: unknown) => {
    if (Array.isArray(value)) stack.push({ container: value, keys: null, index: 0 });
    else {
      const record = value as Record<string, unknown>;
      visit(record, () => toPointer(path));
      stack.push({ container: record, keys: Object.keys(record), index: 0 });
    }
  };
  if (root === null || typeof root !== 'object') return;
  enter(root);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const { container, keys } = frame;
    if (frame.index >= (keys === null ? (container as unknown[]).length : keys.length)) {
      stack.pop();
      path.pop();
      continue;
    }
    const key = keys === null ? frame.index : keys[frame.index]!;
    frame.index++;
    if (typeof key === 'string' && skip(key)) continue;
    const member = (container as Record<string | number, unknown>)[key];
    if (member === null || typeof member !== 'object') continue;
    path.push(key);
    enter(member);
  }
}
