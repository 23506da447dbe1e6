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
