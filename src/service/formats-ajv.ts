/**
 * The ajv every JSON Schema check of the service side compiles with: the emulator's seed check at run time, and
 * the build step that precompiles the body shapes and resources (src/build/service-validators.ts).
 */
import { Ajv, type CodeOptions } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { DRAFT_07_REF } from '../validate/draft-07.js';
import { EXACT_FORMATS } from '../validate/string-formats.js';

type AddFormats = (ajv: Ajv) => Ajv;
// ajv-formats is CommonJS with a default export; both import shapes are seen in practice.
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;

/**
 * A draft-07 ajv (a `$ref` hides its siblings) with the standard formats (email, uri...), those ajv-formats checks
 * laxer than their RFCs (date-time, idn-email...) checked exactly, as the BOM validators check them.
 */
export function createFormatsAjv(options: { allErrors?: boolean; code?: CodeOptions } = {}): Ajv {
  const instance = new Ajv({
    allErrors: options.allErrors ?? false,
    strict: false,
    ...DRAFT_07_REF,
    ...(options.code === undefined ? {} : { code: options.code }),
  });
  addFormats(instance);
  for (const [name, check] of Object.entries(EXACT_FORMATS)) instance.addFormat(name, check);
  return instance;
}
