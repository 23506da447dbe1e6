import { BomwrightError } from '../errors.js';
import { loadValidatorModule } from './validator-modules.js';
import type { SpecFormat } from '../formats/formats.js';
import type { SchemaError } from './schema-errors.js';

interface CompiledValidator {
  (data: unknown): boolean;
  errors?: SchemaError[] | null;
}

const loaded = new Map<string, CompiledValidator>();

/** The precompiled validator of a format, loaded once per process and only when a document needs it. */
export function loadValidator(format: SpecFormat): CompiledValidator {
  let validator = loaded.get(format.id);
  if (validator === undefined) {
    try {
      validator = (loadValidatorModule(format.id) as { default: CompiledValidator }).default;
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new BomwrightError(
        'E_SCHEMA_MISSING',
        `The precompiled ${format.id} validator cannot be loaded; run "npm run build" (${reason})`,
      );
    }
    loaded.set(format.id, validator);
  }
  return validator;
}

export function runValidator(validator: CompiledValidator, document: unknown): SchemaError[] {
  if (validator(document)) return [];
  return validator.errors ?? [];
}
