/**
 * The ajv instance the generated validators are compiled with: every error, no messages of ajv's own (the
 * diagnostics are worded by validate/schema-errors.ts), the format checks and the linear uniqueItems of the runtime.
 * Tests compile small schemas with it to see the errors the generated validators give.
 */
import { Ajv, _, type KeywordCxt } from 'ajv';
import * as runtime from '../validate/schema-runtime.js';

export function createAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    ownProperties: true,
    messages: false,
    code: { source: true, esm: true, lines: false, optimize: 1, formats: _`runtime.formats` },
    formats: runtime.formats,
  });
  // Replace ajv's pairwise uniqueItems with the linear check (same keyword, so error reports are unchanged).
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword({
    keyword: 'uniqueItems',
    type: 'array',
    schemaType: 'boolean',
    code(cxt: KeywordCxt) {
      const { gen, data, schema } = cxt;
      if (schema !== true) return;
      const check = gen.scopeValue('func', { ref: runtime.findDuplicatePair, code: _`runtime.findDuplicatePair` });
      const pair = gen.const('pair', _`${check}(${data})`);
      cxt.setParams({ i: _`${pair} && ${pair}[0]`, j: _`${pair} && ${pair}[1]` });
      cxt.pass(_`${pair} === null`);
    },
    error: { message: 'must NOT have duplicate items', params: ({ params }) => _`{i: ${params.i}, j: ${params.j}}` },
  });
  return ajv;
}
