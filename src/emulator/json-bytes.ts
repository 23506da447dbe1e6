/**
 * The UTF-8 length of `JSON.stringify(value)` without building the text: the request journal counts every entry
 * it keeps, and stringifying each one only to count it cost more than the rest of its bookkeeping.
 * Exact for what JSON.stringify accepts; values it treats specially (toJSON, bigint, boxed primitives) and very
 * deep nesting are handed to JSON.stringify itself.
 */

/** Characters that JSON writes as themselves, one byte each. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
/** Past this depth the walk stops recursing and JSON.stringify counts the rest (it has its own stack check). */
const MAX_WALK_DEPTH = 64;

/** Counts of values registered by `constantJson` (the caller and the empty query recur entry after entry). */
const constantCounts = new WeakMap<object, number>();

/** Bytes of a string as JSON (quotes and escapes included). */
export function jsonStringBytes(text: string): number {
  if (PLAIN.test(text)) return text.length + 2;
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x5c || c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d) bytes += 2;
    else if (c < 0x20) bytes += 6;
    else if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 6; // a lone surrogate is written as \udXXX
    } else if (c >= 0xdc00 && c <= 0xdfff) bytes += 6;
    else bytes += 3;
  }
  return bytes;
}

function stringified(value: unknown): number | undefined {
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? undefined : Buffer.byteLength(text);
}

/** Undefined where JSON.stringify leaves the value out (undefined, functions, symbols). */
function count(value: unknown, depth: number): number | undefined {
  switch (typeof value) {
    case 'string':
      return jsonStringBytes(value);
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object': {
      if (value === null) return 4;
      const known = constantCounts.get(value);
      if (known !== undefined) return known;
      return depth >= MAX_WALK_DEPTH ? stringified(value) : countObject(value, depth);
    }
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    default:
      return stringified(value); // bigint: JSON.stringify throws, as it should
  }
}

function countObject(value: object, depth: number): number | undefined {
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return stringified(value);
  if (Array.isArray(value)) {
    let bytes = value.length === 0 ? 2 : value.length + 1; // brackets and commas
    for (let i = 0; i < value.length; i++) bytes += count(value[i], depth + 1) ?? 4; // a hole or undefined is null
    return bytes;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return stringified(value);
  let bytes = 2;
  let members = 0;
  for (const key of Object.keys(value)) {
    const member = count((value as Record<string, unknown>)[key], depth + 1);
    if (member === undefined) continue;
    bytes += jsonStringBytes(key) + 1 + member;
    members++;
  }
  return members === 0 ? bytes : bytes + members - 1;
}

/** `Buffer.byteLength(JSON.stringify(value))`, or undefined where JSON.stringify gives undefined. */
export function jsonBytes(value: unknown): number | undefined {
  return count(value, 0);
}

/**
 * Freezes a plain JSON value of data properties (the caller registers only such values), deeply, and keeps its
 * count, so it is counted once however many entries hold it.
 */
export function constantJson<T extends object>(value: T): T {
  const freeze = (item: unknown): void => {
    if (typeof item !== 'object' || item === null || Object.isFrozen(item)) return;
    Object.freeze(item);
    for (const member of Object.values(item)) freeze(member);
  };
  freeze(value);
  const bytes = jsonBytes(value);
  if (bytes !== undefined) constantCounts.set(value, bytes);
  return value;
}
