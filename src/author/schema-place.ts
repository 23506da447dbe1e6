/**
 * What a document's own schema says about a place in it: the members an object there may have, the type and
 * definition of the value at a JSON pointer. `set` reads it to refuse a member the document's version does not
 * have (suggesting the nearest one of that version, not of a fixed list) and to read a text value as the type
 * the place takes. The schemas are the official ones the CycloneDX library ships, read where they are.
 */
import { BomwrightError } from '../errors.js';
import type { SpecFormat } from '../formats/formats.js';
import { didYouMean, nearestNames } from '../nearest.js';
import { isRecord } from '../values.js';
import { loadSchemaFile, type SchemaObject } from './convert-schemas.js';

/** A place in the document as its schema describes it. */
export interface SchemaPlace {
  /** JSON types the value may have (`object`, `array`, `string`…); empty when the schema does not say. */
  types: ReadonlySet<string>;
  /** The name of the definition the value was last reached through (`organizationalEntity`, `licenseChoice`). */
  definition: string | undefined;
  /** The string values an enum allows at the place. */
  enum: readonly string[];
  /** The string format (`date-time`, `idn-email`…). */
  format: string | undefined;
  /** What the schema of an array entry is, when the place is an array. */
  nodes: readonly SchemaObject[];
}

/** Every alternative a schema node stands for, with `$ref`s followed: the node, its allOf, oneOf and anyOf. */
function expand(
  node: unknown,
  file: string,
  out: { node: SchemaObject; file: string; definition?: string }[],
  depth = 0,
) {
  if (!isRecord(node) || depth > 12) return;
  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    const hash = ref.indexOf('#');
    const target = hash <= 0 ? (hash === 0 ? file : ref) : ref.slice(0, hash);
    let resolved: unknown = loadSchemaFile(target);
    const fragment =
      hash === -1
        ? []
        : ref
            .slice(hash + 2)
            .split('/')
            .filter((s) => s !== '');
    for (const segment of fragment) resolved = isRecord(resolved) ? resolved[segment] : undefined;
    const before = out.length;
    expand(resolved, target, out, depth + 1);
    const name = fragment.length === 2 && fragment[0] === 'definitions' ? fragment[1] : undefined;
    // The outermost definition names the place (a `licenseChoice`, not the `license` it refers to).
    if (name !== undefined) for (let i = before; i < out.length; i++) out[i]!.definition = name;
  }
  out.push({ node, file });
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const list = node[key];
    if (Array.isArray(list)) for (const item of list) expand(item, file, out, depth + 1);
  }
}

interface Found {
  alternatives: { node: SchemaObject; file: string; definition?: string }[];
}

function describe(found: Found): SchemaPlace {
  const types = new Set<string>();
  const enumValues: string[] = [];
  let format: string | undefined;
  let definition: string | undefined;
  for (const { node, definition: name } of found.alternatives) {
    definition ??= name;
    if (typeof node.type === 'string') types.add(node.type);
    else if (Array.isArray(node.type)) for (const t of node.type) if (typeof t === 'string') types.add(t);
    if (Array.isArray(node.enum)) for (const v of node.enum) if (typeof v === 'string') enumValues.push(v);
    if (typeof node.format === 'string') format ??= node.format;
    if (isRecord(node.properties)) types.add('object');
  }
  return { types, definition, enum: enumValues, format, nodes: found.alternatives.map((a) => a.node) };
}

const ARRAY_INDEX = /^(?:0|[1-9]\d*|-)$/;

/** Member paths (`licenses.license.id`) enter arrays on the way: an array's place stands for its entries'. */
function entries(found: Found): Found {
  const out: Found = { alternatives: [] };
  for (const alternative of found.alternatives) {
    const items = alternative.node.items;
    if (items === undefined) out.alternatives.push(alternative);
    else expand(Array.isArray(items) ? items[0] : items, alternative.file, out.alternatives);
  }
  return out;
}

/**
 * The schema's description of the value at `segments` (a parsed JSON pointer; `-` is a new array entry) in a
 * document of `format`. A member that the version's schema does not have anywhere on the way is refused
 * (E_USAGE) with the nearest members of that version; undefined when the schema leaves the place open.
 */
export function schemaPlace(
  format: SpecFormat,
  segments: readonly string[],
  /** `where`: how the first `skip` segments are shown in a refusal (`/components/N` for any component). */
  options: { where?: string; skip?: number; enterArrays?: boolean } = {},
): SchemaPlace | undefined {
  let found: Found = { alternatives: [] };
  expand(loadSchemaFile(format.baseSchema), format.baseSchema, found.alternatives);
  let path = options.where ?? '';
  for (const [n, segment] of segments.entries()) {
    if (options.enterArrays === true && !ARRAY_INDEX.test(segment)) found = entries(found);
    const next: Found = { alternatives: [] };
    const names = new Set<string>();
    let open = false;
    for (const { node, file } of found.alternatives) {
      if (ARRAY_INDEX.test(segment) && node.items !== undefined) {
        const items = Array.isArray(node.items) ? node.items[0] : node.items;
        expand(items, file, next.alternatives);
        if (Array.isArray(node.items) && node.additionalItems !== false)
          expand(node.additionalItems, file, next.alternatives);
      }
      if (isRecord(node.properties)) {
        for (const name of Object.keys(node.properties)) names.add(name);
        if (Object.hasOwn(node.properties, segment)) expand(node.properties[segment], file, next.alternatives);
      }
      if (isRecord(node.patternProperties) || isRecord(node.additionalProperties)) open = true;
    }
    if (n >= (options.skip ?? 0)) path += `/${segment}`;
    if (next.alternatives.length === 0) {
      // An overlay (CBOM) adds members the base schema lacks, and open objects take any: the validator decides.
      if (open || format.overlay !== undefined || names.size === 0) return undefined;
      throw new BomwrightError(
        'E_USAGE',
        `CycloneDX ${format.specVersion} has no member ${JSON.stringify(segment)} at ${path}${didYouMean(nearestNames(segment, names), (n) => JSON.stringify(n))}; members there: ${[...names].sort().join(', ')}`,
      );
    }
    found = next;
  }
  return describe(found);
}
