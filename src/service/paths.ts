/**
 * Path templates of the operations table: matching a request path to an operation (the emulator's router) and
 * building a path from parameters (the client). Pure.
 */
import { OPERATIONS, type HttpMethod, type Operation } from './operations.js';

/** A path segment may be this long at most (after decoding); longer ones are refused, not matched. */
const MAX_PARAMETER_LENGTH = 1024;

interface CompiledTemplate {
  readonly operation: Operation;
  readonly template: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  /** Which names are quoted function arguments (`'...'`, with `''` for a quote). */
  readonly quoted: ReadonlySet<string>;
}

const PLACEHOLDER = /\{(\w+)\}/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compile(operation: Operation, template: string): CompiledTemplate {
  const names: string[] = [];
  const quoted = new Set<string>();
  let source = '';
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1]!;
    const before = template.slice(last, match.index);
    source += escapeRegExp(before);
    if (name === 'itemPath') source += '(.+?)';
    else if (before.endsWith("='")) {
      quoted.add(name);
      source += "((?:[^']|'')*)";
    } else if (before.endsWith('=')) source += '([^/)]*)';
    else source += '([^/]+)';
    names.push(name);
    last = match.index + match[0].length;
  }
  source += escapeRegExp(template.slice(last));
  return { operation, template, pattern: new RegExp(`^${source}$`, 'i'), names, quoted };
}

const COMPILED: readonly CompiledTemplate[] = OPERATIONS.flatMap((operation) =>
  [...operation.paths, ...(operation.aliases ?? [])].map((template) => compile(operation, template)),
);

/** The first segment of a path, lower-cased: templates are grouped by it, so a request tests only its own group. */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

const BY_FIRST_SEGMENT = new Map<string, CompiledTemplate[]>();
for (const compiled of COMPILED) {
  const key = firstSegment(compiled.template);
  const group = BY_FIRST_SEGMENT.get(key);
  if (group === undefined) BY_FIRST_SEGMENT.set(key, [compiled]);
  else group.push(compiled);
}

/** Function segments of the table, which are not OData key syntax. */
const FUNCTIONS = new Set(['range', 'itemat', 'delta', 'vendor.graph.delta']);
const KEY_SEGMENT = /^([A-Za-z][\w.]*)\(([^()]*)\)$/;

/**
 * OData key syntax `teams('id')` or `mailfolders(id)` becomes `teams/id`, outside a `root:/...:` item path, so one
 * template serves both spellings (the real service's links use the parenthesised one).
 */
export function normalizeKeySegments(rawPath: string): string {
  const segments = rawPath.split('/');
  let inItemPath = false;
  const out: string[] = [];
  for (const segment of segments) {
    if (inItemPath) {
      out.push(segment);
      if (segment.endsWith(':')) inItemPath = false;
      continue;
    }
    if (segment.toLowerCase().startsWith('root:')) {
      out.push(segment);
      inItemPath = !segment.slice(5).endsWith(':') || segment.length === 5;
      continue;
    }
    const key = KEY_SEGMENT.exec(segment);
    if (key !== null && !FUNCTIONS.has(key[1]!.toLowerCase()) && !key[2]!.includes('=') && key[2] !== '') {
      const value = key[2]!;
      const unquoted = value.length >= 2 && value.startsWith("'") && value.endsWith("'") ? value.slice(1, -1) : value;
      out.push(key[1]!, unquoted.replaceAll("''", "'"));
    } else out.push(segment);
  }
  return out.join('/');
}

export type RouteMatch =
  | {
      readonly kind: 'matched';
      readonly operation: Operation;
      readonly template: string;
      readonly params: Record<string, string>;
    }
  /** The path is an operation's, but not for this method. */
  | { readonly kind: 'method'; readonly allowed: readonly HttpMethod[] }
  | { readonly kind: 'none' }
  /** A parameter is not valid percent-encoding or is too long. */
  | { readonly kind: 'badParameter'; readonly name: string; readonly reason: string };

function decodeParameter(raw: string, quoted: boolean): string | undefined {
  try {
    const decoded = decodeURIComponent(raw);
    return quoted ? decoded.replaceAll("''", "'") : decoded;
  } catch {
    return undefined;
  }
}

/** Finds the operation for a method and a path relative to `/v1.0` (raw, still percent-encoded, no query). */
export function matchRoute(method: string, rawPath: string): RouteMatch {
  // A quote may arrive percent-encoded inside function arguments; decode just that character first.
  const unquoted = rawPath.includes('%') ? rawPath.replace(/%27/gi, "'") : rawPath;
  const path = unquoted.includes('(') ? normalizeKeySegments(unquoted) : unquoted;
  const candidates = BY_FIRST_SEGMENT.get(firstSegment(path)) ?? [];
  for (const compiled of candidates) {
    if (compiled.operation.method !== method) continue;
    const match = compiled.pattern.exec(path);
    if (match === null) continue;
    const params: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [i, name] of compiled.names.entries()) {
      const value = decodeParameter(match[i + 1]!, compiled.quoted.has(name));
      if (value === undefined) return { kind: 'badParameter', name, reason: 'is not valid percent-encoding' };
      if (value.length > MAX_PARAMETER_LENGTH)
        return { kind: 'badParameter', name, reason: `is longer than ${MAX_PARAMETER_LENGTH} characters` };
      params[name] = value;
    }
    return { kind: 'matched', operation: compiled.operation, template: compiled.template, params };
  }
  // Only for a miss: does the path belong to another method?
  const allowed = new Set<HttpMethod>();
  for (const compiled of candidates)
    if (compiled.operation.method !== method && compiled.pattern.test(path)) allowed.add(compiled.operation.method);
  return allowed.size > 0 ? { kind: 'method', allowed: [...allowed] } : { kind: 'none' };
}

/** Every template of the table with its operation (the routes the emulator serves). */
export function routeTemplates(): readonly { operation: Operation; template: string }[] {
  return COMPILED.map(({ operation, template }) => ({ operation, template }));
}

/**
 * Builds a path from a template: segments percent-encoded, an item path encoded segment by segment, a quoted
 * function argument with its quotes doubled. Throws a TypeError naming a missing parameter.
 */
export function buildPath(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(PLACEHOLDER, (_, name: string, offset: number) => {
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    if (value === undefined) throw new TypeError(`missing path parameter ${name}`);
    const text = String(value);
    if (name === 'itemPath') return text.split('/').map(encodeURIComponent).join('/');
    if (template.slice(0, offset).endsWith("='")) return encodeURIComponent(text.replaceAll("'", "''"));
    return encodeURIComponent(text);
  });
}
