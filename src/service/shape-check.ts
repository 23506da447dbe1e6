/**
 * Checks a request body against its shape (shapes.ts): the emulator refuses what does not fit, and the client
 * refuses to send it; and a response against its resource (resources.ts). The validators are precompiled at build
 * time (src/build/service-validators.ts) and shared by both, so no run compiles a schema or loads ajv.
 */
import { fileURLToPath } from 'node:url';
import type { ErrorObject } from 'ajv';
import { BomwrightError } from '../errors.js';
import { requireBundle } from '../runtime/code-cache.js';
import type { ResourceName } from './resources.js';
import { BODY_SHAPES } from './shapes.js';

interface ValidateFunction {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}
interface ServiceValidators {
  shapes: Record<string, ValidateFunction | undefined>;
  resources: Record<string, ValidateFunction | undefined>;
}

const MODULE_FILE = fileURLToPath(new URL('../../generated/validators/service-shapes.cjs', import.meta.url));
let loaded: ServiceValidators | undefined;

function validators(): ServiceValidators {
  if (loaded === undefined) {
    try {
      loaded = requireBundle(MODULE_FILE) as ServiceValidators;
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new BomwrightError(
        'E_SCHEMA_MISSING',
        `The precompiled service validators cannot be loaded; run "npm run build" (${reason})`,
      );
    }
  }
  return loaded;
}

/** The validator a table holds for `name`; a name without one is a programming error, not input. */
function validatorOf(table: 'shapes' | 'resources', name: string): ValidateFunction {
  const validate = validators()[table][name];
  if (validate === undefined) throw new Error(`no precompiled validator for ${table.slice(0, -1)} ${name}`);
  return validate;
}

/** The first problem of `body` against the named shape, or undefined when it fits. */
export function shapeProblem(shape: string, body: unknown): ErrorObject | undefined {
  const validate = validatorOf('shapes', shape);
  return validate(body) ? undefined : firstError(validate);
}

/** ajv sets `errors` whenever a validation fails. */
function firstError(validate: ValidateFunction): ErrorObject {
  return validate.errors![0]!;
}

/**
 * What is wrong with `value` as the named resource (resources.ts), as one short line naming where; undefined when
 * it fits.
 */
export function resourceProblem(resource: ResourceName, value: unknown): string | undefined {
  const validate = validatorOf('resources', resource);
  if (validate(value)) return undefined;
  const error = firstError(validate);
  const where = error.instancePath === '' ? 'the body' : error.instancePath;
  return `${where} ${error.message!} (not a ${resource})`;
}

interface SchemaNode {
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly items?: SchemaNode;
}

/** Declared member names by their lower-case form, per schema node (computed once per node). */
const folded = new WeakMap<object, ReadonlyMap<string, string>>();

function foldedNames(properties: Readonly<Record<string, SchemaNode>>): ReadonlyMap<string, string> {
  let names = folded.get(properties);
  if (names === undefined) {
    const map = new Map<string, string>();
    // The first declared spelling wins where a shape declares two (PascalCase and camelCase forward parameters).
    for (const name of Object.keys(properties)) if (!map.has(name.toLowerCase())) map.set(name.toLowerCase(), name);
    folded.set(properties, (names = map));
  }
  return names;
}

function withDeclaredNames(value: unknown, schema: SchemaNode | undefined, depth: number): unknown {
  if (schema === undefined || value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value))
    return schema.items === undefined ? value : value.map((item) => withDeclaredNames(item, schema.items, depth + 1));
  const properties = schema.properties;
  if (properties === undefined) return value;
  const names = foldedNames(properties);
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(record)) {
    const declared = Object.hasOwn(properties, key) ? key : names.get(key.toLowerCase());
    // A spelling that would collide with one the body also has is left as sent (and refused as unknown).
    const name = declared !== undefined && (declared === key || !Object.hasOwn(record, declared)) ? declared : key;
    out[name] = withDeclaredNames(member, properties[name], depth + 1);
  }
  return out;
}

/**
 * `body` with its member names spelled as the shape declares them, matched without regard to case: the service
 * reads property names case-insensitively, and Kiota's models send some in PascalCase (`DestinationId`).
 */
export function inDeclaredNames(shape: string, body: unknown): unknown {
  const declared = BODY_SHAPES[shape];
  return declared === undefined ? body : withDeclaredNames(body, declared.schema as SchemaNode, 0);
}
