/**
 * Checks a request body against its shape (shapes.ts): the emulator refuses what does not fit, and the client
 * refuses to send it. One compiled validator per shape, shared by both.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { DRAFT_07_REF } from '../validate/draft-07.js';
import { EXACT_FORMATS } from '../validate/string-formats.js';
import { RESOURCE_SCHEMAS, type ResourceName } from './resources.js';
import { BODY_SHAPES } from './shapes.js';

type AddFormats = (ajv: Ajv) => Ajv;
// ajv-formats is CommonJS with a default export; both import shapes are seen in practice.
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;

let ajv: Ajv | undefined;
const validators = new Map<string, ValidateFunction>();

/**
 * A draft-07 ajv (a `$ref` hides its siblings) with the standard formats (email, uri...), those ajv-formats checks
 * laxer than their RFCs (date-time, idn-email...) checked exactly, as the BOM validators check them.
 */
export function createFormatsAjv(options: { allErrors?: boolean } = {}): Ajv {
  const instance = new Ajv({ allErrors: options.allErrors ?? false, strict: false, ...DRAFT_07_REF });
  addFormats(instance);
  for (const [name, check] of Object.entries(EXACT_FORMATS)) instance.addFormat(name, check);
  return instance;
}

/** The first problem of `body` against the named shape, or undefined when it fits. */
export function shapeProblem(shape: string, body: unknown): ErrorObject | undefined {
  let validate = validators.get(shape);
  if (validate === undefined) {
    ajv ??= createFormatsAjv();
    validate = ajv.compile(BODY_SHAPES[shape]!.schema);
    validators.set(shape, validate);
  }
  return validate(body) ? undefined : firstError(validate);
}

/** ajv sets `errors` whenever a validation fails. */
function firstError(validate: ValidateFunction): ErrorObject {
  return validate.errors![0]!;
}

const resourceValidators = new Map<string, ValidateFunction>();

/**
 * What is wrong with `value` as the named resource (resources.ts), as one short line naming where; undefined when
 * it fits.
 */
export function resourceProblem(resource: ResourceName, value: unknown): string | undefined {
  let validate = resourceValidators.get(resource);
  if (validate === undefined) {
    ajv ??= createFormatsAjv();
    validate = ajv.compile(RESOURCE_SCHEMAS[resource]);
    resourceValidators.set(resource, validate);
  }
  if (validate(value)) return undefined;
  const error = firstError(validate);
  const where = error.instancePath === '' ? 'the body' : error.instancePath;
  return `${where} ${error.message!} (not a ${resource})`;
}
