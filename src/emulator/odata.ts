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

/** A `$filter` or `$orderby` is at most this long, and parentheses nest at most this deep. */
const MAX_EXPRESSION_LENGTH = 2_048;
const MAX_FILTER_DEPTH = 16;

type Literal = string | number | boolean | null;
type Token =
  | { readonly kind: 'name'; readonly text: string; readonly at: number }
  | { readonly kind: 'literal'; readonly value: Literal; readonly at: number }
  | { readonly kind: '(' | ')'; readonly at: number };

const invalidFilter = (value: string, detail: string) =>
  badRequest(`Invalid filter clause: ${detail} in '${value.slice(0, 200)}'.`);

/** One linear pass: names, quoted strings ('' is a quote), integers, parentheses. */
function tokenize(value: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < value.length) {
    const c = value[i]!;
    if (c === ' ' || c === '\t') i++;
    else if (c === '(' || c === ')') tokens.push({ kind: c, at: i++ });
    else if (c === "'") {
      let text = '';
      let j = i + 1;
      for (;;) {
        if (j >= value.length) throw invalidFilter(value, `unterminated string literal at position ${i}`);
        if (value[j] === "'") {
          if (value[j + 1] !== "'") break;
          text += "'";
          j += 2;
        } else text += value[j++];
      }
      tokens.push({ kind: 'literal', value: text, at: i });
      i = j + 1;
    } else {
      const match = /^(-?\d{1,10}(?![\w.])|[A-Za-z_]\w*)/.exec(value.slice(i, i + 128));
      if (match === null) throw invalidFilter(value, `syntax error at position ${i}`);
      const text = match[1]!;
      if (/^-?\d/.test(text)) tokens.push({ kind: 'literal', value: Number(text), at: i });
      else if (text === 'true' || text === 'false') tokens.push({ kind: 'literal', value: text === 'true', at: i });
      else if (text === 'null') tokens.push({ kind: 'literal', value: null, at: i });
      else tokens.push({ kind: 'name', text, at: i });
      i += text.length;
    }
  }
  return tokens;
}

/**
 * `$filter` over a list: `field eq|ne literal` comparisons joined by `and` / `or` (and binds tighter), with
 * parentheses. A recursive-descent parser over the tokens, bounded in length and depth; no eval.
 */
export function parseFilter(
  value: string | undefined,
  fields: Readonly<Record<string, 'string' | 'number'>>,
  typeName: string,
): ((record: JsonRecord) => boolean) | undefined {
  if (value === undefined) return undefined;
  if (value.length > MAX_EXPRESSION_LENGTH)
    throw invalidFilter(value, `longer than ${MAX_EXPRESSION_LENGTH} characters`);
  const tokens = tokenize(value);
  let position = 0;
  const peek = (): Token | undefined => tokens[position];
  const keyword = (word: string): boolean => {
    const token = peek();
    if (token?.kind === 'name' && token.text.toLowerCase() === word) {
      position++;
      return true;
    }
    return false;
  };
  type Test = (record: JsonRecord) => boolean;
  const expression = (depth: number): Test => {
    if (depth > MAX_FILTER_DEPTH) throw invalidFilter(value, `nested deeper than ${MAX_FILTER_DEPTH} levels`);
    const terms: Test[] = [conjunction(depth)];
    while (keyword('or')) terms.push(conjunction(depth));
    return terms.length === 1 ? terms[0]! : (record) => terms.some((term) => term(record));
  };
  const conjunction = (depth: number): Test => {
    const factors: Test[] = [comparison(depth)];
    while (keyword('and')) factors.push(comparison(depth));
    return factors.length === 1 ? factors[0]! : (record) => factors.every((factor) => factor(record));
  };
  const comparison = (depth: number): Test => {
    const token = peek();
    if (token === undefined) throw invalidFilter(value, 'unexpected end of the expression');
    if (token.kind === '(') {
      position++;
      const inner = expression(depth + 1);
      if (peek()?.kind !== ')') throw invalidFilter(value, `')' expected at position ${peek()?.at ?? value.length}`);
      position++;
      return inner;
    }
    if (token.kind !== 'name') throw invalidFilter(value, `a property name expected at position ${token.at}`);
    position++;
    const type = Object.hasOwn(fields, token.text) ? fields[token.text] : undefined;
    if (type === undefined)
      throw badRequest(`Could not find a property named '${token.text.slice(0, 60)}' on type '${typeName}'.`);
    const operator = peek();
    if (operator?.kind !== 'name' || !['eq', 'ne'].includes(operator.text.toLowerCase()))
      throw invalidFilter(
        value,
        `only the operators eq and ne are supported (position ${operator?.at ?? value.length})`,
      );
    position++;
    const literal = peek();
    if (literal?.kind !== 'literal')
      throw invalidFilter(value, `a literal expected at position ${literal?.at ?? value.length}`);
    position++;
    if (literal.value !== null && typeof literal.value !== type)
      throw invalidFilter(value, `'${token.text}' is a ${type}, compared with ${JSON.stringify(literal.value)}`);
    const field = token.text;
    const expected = literal.value;
    const equal = (record: JsonRecord): boolean => (record[field] ?? null) === expected;
    return operator.text.toLowerCase() === 'eq' ? equal : (record) => !equal(record);
  };
  const test = expression(0);
  if (position < tokens.length) throw invalidFilter(value, `syntax error at position ${tokens[position]!.at}`);
  return test;
}

/** `$orderby=a [asc|desc], b ...` over the given fields; a stable sort. */
export function parseOrderBy(
  value: string | undefined,
  fields: readonly string[],
  typeName: string,
): ((a: JsonRecord, b: JsonRecord) => number) | undefined {
  if (value === undefined) return undefined;
  if (value.length > MAX_EXPRESSION_LENGTH)
    throw badRequest(`Invalid $orderby: longer than ${MAX_EXPRESSION_LENGTH} characters.`);
  const keys = value.split(',').map((part) => {
    const match = /^\s*([A-Za-z_]\w*)(?:\s+(asc|desc))?\s*$/i.exec(part);
    if (match === null) throw badRequest(`Invalid $orderby '${value.slice(0, 200)}': expected "property [asc|desc]".`);
    if (!fields.includes(match[1]!))
      throw badRequest(`Could not find a property named '${match[1]!}' on type '${typeName}'.`);
    return { field: match[1]!, sign: match[2]?.toLowerCase() === 'desc' ? -1 : 1 };
  });
  return (a, b) => {
    for (const { field, sign } of keys) {
      const x = a[field] ?? null;
      const y = b[field] ?? null;
      if (x === y) continue;
      if (x === null) return -sign;
      if (y === null) return sign;
      return (x < y ? -1 : 1) * sign;
    }
    return 0;
  };
}

/** `$count=true|false`. */
export function parseCountFlag(value: string | undefined): boolean {
  if (value === undefined) return false;
  if (value !== 'true' && value !== 'false')
    throw badRequest(`Invalid value '${value.slice(0, 40)}' for query option $count: expected true or false.`);
  return value === 'true';
}
