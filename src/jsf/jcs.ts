/**
 * JSON Canonicalization Scheme (RFC 8785) over the parsed JSON data model. ECMAScript's own serialisation is
 * the JCS algorithm for numbers (Number::toString) and strings (JSON.stringify's escaping); members are sorted
 * by UTF-16 code units, which is what the default string sort does. Iterative, so nesting cannot overflow.
 */
import { BomwrightError } from '../errors.js';

type Frame =
  | { kind: 'array'; items: readonly unknown[]; index: number }
  | { kind: 'object'; record: Record<string, unknown>; keys: string[]; index: number };

export function canonicalize(value: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  let next: unknown = value;
  let pending = true;
  for (;;) {
    if (pending) {
      pending = false;
      if (next === null || typeof next !== 'object') {
        out.push(primitive(next));
      } else if (Array.isArray(next)) {
        out.push('[');
        stack.push({ kind: 'array', items: next, index: 0 });
      } else {
        const record = next as Record<string, unknown>;
        const keys = Object.keys(record)
          .filter((k) => record[k] !== undefined)
          .sort();
        out.push('{');
        stack.push({ kind: 'object', record, keys, index: 0 });
      }
    }
    const frame = stack[stack.length - 1];
    if (frame === undefined) break;
    if (frame.kind === 'array') {
      if (frame.index >= frame.items.length) {
        out.push(']');
        stack.pop();
        continue;
      }
      if (frame.index > 0) out.push(',');
      next = frame.items[frame.index++];
      pending = true;
    } else {
      if (frame.index >= frame.keys.length) {
        out.push('}');
        stack.pop();
        continue;
      }
      const key = frame.keys[frame.index++]!;
      if (frame.index > 1) out.push(',');
      out.push(string(key), ':');
      next = frame.record[key];
      pending = true;
    }
  }
  return out.join('');
}

function primitive(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return string(value);
    case 'number':
      if (!Number.isFinite(value))
        throw new BomwrightError('E_INPUT', `JCS cannot represent the number ${String(value)}`);
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      if (value === null) return 'null';
      throw new BomwrightError('E_INPUT', `JCS cannot represent a value of type ${typeof value}`);
  }
}

function string(value: string): string {
  if (!value.isWellFormed())
    throw new BomwrightError('E_INPUT', 'JCS cannot represent a string with an unpaired surrogate');
  return JSON.stringify(value);
}
