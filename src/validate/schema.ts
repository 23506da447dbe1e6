import { BomwrightError } from '../errors.js';
import type { SpecFormat } from '../spec/formats.js';
import type { SchemaError } from './schema-errors.js';

export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: SchemaError[] | null;
}

const GENERATED_DIR = new URL('../../generated/validators/', import.meta.url);
const loaded = new Map<string, Promise<CompiledValidator>>();

/** The precompiled validator of a format, imported once per process and only when a document needs it. */
export function loadValidator(format: SpecFormat): Promise<CompiledValidator> {
  let validator = loaded.get(format.id);
  if (validator === undefined) {
    validator = import(new URL(`${format.id}.js`, GENERATED_DIR).href).then(
      (module: { default: CompiledValidator }) => module.default,
      (error: unknown) => {
        loaded.delete(format.id);
        throw new BomwrightError(
          'E_SCHEMA_MISSING',
          `The precompiled ${format.id} validator is missing; run "npm run build" (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
        );
      },
    );
    loaded.set(format.id, validator);
  }
  return validator;
}

export function runValidator(validator: CompiledValidator, document: unknown): SchemaError[] {
  if (validator(document)) return [];
  return validator.errors ?? [];
}
