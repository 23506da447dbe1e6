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

/** The keyword added beside every `integer` type: the value's text must be an integer too (build/ajv.ts). */
export const INTEGER_TEXT = 'integerText';

/** Visits every subschema (not property names that happen to be spelled like keywords). */
function forEachSubschema(schema: Json, visit: (subschema: JsonObject) => void): void {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return;
  visit(schema);
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const sub of Object.values(value)) forEachSubschema(sub, visit);
    } else if (SCHEMA_ARRAYS.has(key) && Array.isArray(value)) {
      for (const sub of value) forEachSubschema(sub, visit);
    } else if (SCHEMA_VALUES.has(key)) {
      forEachSubschema(value, visit);
    }
  }
}

/**
 * Adds {@link INTEGER_TEXT} beside every `integer` type, so that `1.0000000000000001` (which JSON.parse reads as
 * 1) is not an integer, as JSON Schema says: an integer is a number with a zero fractional part.
 */
export function checkIntegerText(schema: Json): void {
  forEachSubschema(schema, (subschema) => {
    const type = subschema.type;
    if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) subschema[INTEGER_TEXT] = true;
  });
}

/**
 * Draft-07 §8.3: "All other properties in a "$ref" object MUST be ignored". The validator is compiled with that
 * rule (ajv's ignoreKeywordsWithRef); removing the siblings too keeps a plain ajv reading of the schema the same.
 * Returns what went (the `$ref` and the names of its siblings), for the build test.
 */
export function dropRefSiblings(schema: Json): { $ref: string; siblings: string[] }[] {
  const dropped: { $ref: string; siblings: string[] }[] = [];
  forEachSubschema(schema, (subschema) => {
    if (typeof subschema.$ref !== 'string') return;
    const siblings = Object.keys(subschema).filter((key) => key !== '$ref' && !ANNOTATIONS.has(key));
    for (const key of siblings) delete subschema[key];
    if (siblings.length > 0) dropped.push({ $ref: subschema.$ref, siblings });
  });
  return dropped;
}

/** The keyword that marks a reference's place with its reading (validate/bom-link.ts): `document` or `element`. */
export const REF_LINK = 'refLink';

const REF_LINK_TYPE = '#/definitions/refLinkType';
const BOM_LINK_ELEMENT_TYPE = '#/definitions/bomLinkElementType';

/**
 * Marks every reference place of a 1.5+ schema with {@link REF_LINK}: `element` beside each
 * `anyOf: [refLinkType, bomLinkElementType]`, `document` on each other use of refLinkType (rewritten as
 * `allOf: [{$ref}]`, since draft-07 ignores a `$ref`'s siblings). Returns how many places of each kind.
 */
export function markReferencePlaces(schema: Json): { document: number; element: number } {
  const counts = { document: 0, element: 0 };
  const isRef = (node: Json | undefined, target: string) =>
    node !== null && typeof node === 'object' && !Array.isArray(node) && node.$ref === target;
  forEachSubschema(schema, (subschema) => {
    if (REF_LINK in subschema) return; // marked already (visited again through its allOf)
    const anyOf = subschema.anyOf;
    if (
      Array.isArray(anyOf) &&
      anyOf.some((s) => isRef(s, REF_LINK_TYPE)) &&
      anyOf.some((s) => isRef(s, BOM_LINK_ELEMENT_TYPE))
    ) {
      subschema[REF_LINK] = 'element';
      counts.element++;
      // Its refLinkType branch is part of this reading, not a place of its own.
      for (const branch of anyOf) if (isRef(branch, REF_LINK_TYPE)) (branch as JsonObject)[REF_LINK] = null;
    } else if (subschema.$ref === REF_LINK_TYPE && subschema[REF_LINK] === undefined) {
      delete subschema.$ref;
      subschema.allOf = [{ $ref: REF_LINK_TYPE, [REF_LINK]: null }];
      subschema[REF_LINK] = 'document';
      counts.document++;
    }
  });
  // The placeholders only kept the branches from being marked; a $ref has no siblings in draft-07.
  forEachSubschema(schema, (subschema) => {
    if (subschema[REF_LINK] === null) delete subschema[REF_LINK];
  });
  return counts;
}
