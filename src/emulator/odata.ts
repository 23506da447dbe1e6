/**
 * The OData query options the operations accept, parsed strictly: a value the service would refuse is a 400 with
 * a message naming the option, never ignored.
 */
import { badRequest } from './faults.js';
import type { Json, JsonRecord } from './store.js';

const INT32_MAX = 2_147_483_647;

/** A non-negative Int32, as `$top` and `$skip` take. */
export function parseCount(option: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,10}$/.test(value) || Number(value) > INT32_MAX)
    throw badRequest(`Invalid value '${value}' for query option ${option}: expected a non-negative 32-bit integer.`);
  return Number(value);
}

/** `$select=a,b`: every name must be a field of the resource. */
export function parseSelect(
  value: string | undefined,
  fields: readonly string[],
  typeName: string,
): string[] | undefined {
  if (value === undefined) return undefined;
  const names = value.split(',').map((name) => name.trim());
  if (names.some((name) => name === '')) throw badRequest('Invalid $select: empty property name.');
  for (const name of names) {
    if (!fields.includes(name)) throw badRequest(`Could not find a property named '${name}' on type '${typeName}'.`);
  }
  return names;
}

/** Keeps the selected fields (and those always returned) of a record. */
export function applySelect(
  record: JsonRecord,
  select: readonly string[] | undefined,
  always: readonly string[] = ['id'],
): JsonRecord {
  if (select === undefined) return record;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(record))
    if (key.startsWith('@odata.') || always.includes(key) || select.includes(key)) out[key] = value;
  return out;
}

export interface ExpandItem {
  readonly name: string;
  readonly expand: readonly ExpandItem[];
}

/**
 * `$expand=a,b($expand=c)`: names checked against a tree of what may be expanded; nested options other than
 * `$expand` are refused.
 */
export function parseExpand(
  value: string | undefined,
  allowed: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
  typeName: string,
): ExpandItem[] {
  if (value === undefined) return [];
  return parseExpandList(value, allowed, typeName, 0);
}

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth < 0) throw badRequest('Invalid $expand: unbalanced parentheses.');
    } else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) throw badRequest('Invalid $expand: unbalanced parentheses.');
  parts.push(text.slice(start));
  return parts.map((part) => part.trim());
}

function parseExpandList(
  text: string,
  allowed: Readonly<Record<string, unknown>>,
  typeName: string,
  depth: number,
): ExpandItem[] {
  if (depth > 4) throw badRequest('Invalid $expand: nested too deeply.');
  return splitTopLevel(text).map((part) => {
    const match = /^([A-Za-z][\w]*)(?:\((.*)\))?$/.exec(part);
    if (match === null) throw badRequest(`Invalid $expand item '${part}'.`);
    const name = match[1]!;
    if (!Object.hasOwn(allowed, name))
      throw badRequest(`Could not find a navigation property named '${name}' on type '${typeName}'.`);
    const nestedAllowed = (allowed[name] ?? {}) as Readonly<Record<string, unknown>>;
    let expand: ExpandItem[] = [];
    if (match[2] !== undefined && match[2] !== '') {
      const nested = /^\$expand=(.+)$/.exec(match[2].trim());
      if (nested === null) throw badRequest(`Only $expand is supported inside $expand of '${name}'.`);
      expand = parseExpandList(nested[1]!, nestedAllowed, name, depth + 1);
    }
    return { name, expand };
  });
}

/**
 * A `$filter` of equality tests joined by `and`: `field eq 'text'`, `field eq true|false|null`. Enough for the
 * list operations that take `$filter`; anything else is refused with a message saying what is supported.
 */
export function parseEqualityFilter(
  value: string | undefined,
  fields: readonly string[],
): ((record: JsonRecord) => boolean) | undefined {
  if (value === undefined) return undefined;
  const clauses = value.split(/\s+and\s+/i);
  const tests = clauses.map((clause) => {
    const match = /^\s*([A-Za-z]\w*)\s+eq\s+('(?:[^']|'')*'|true|false|null)\s*$/.exec(clause);
    if (match === null)
      throw badRequest(
        `Unsupported $filter '${value}': only "property eq value" clauses joined by "and" are supported.`,
      );
    const field = match[1]!;
    if (!fields.includes(field)) throw badRequest(`Could not find a property named '${field}' for $filter.`);
    const literal = match[2]!;
    const expected: Json =
      literal === 'true'
        ? true
        : literal === 'false'
          ? false
          : literal === 'null'
            ? null
            : literal.slice(1, -1).replaceAll("''", "'");
    return (record: JsonRecord) => (record[field] ?? null) === expected;
  });
  return (record) => tests.every((test) => test(record));
}
