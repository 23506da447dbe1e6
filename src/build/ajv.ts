/**
 * The ajv instance the generated validators are compiled with: every error, no messages of ajv's own (the
 * diagnostics are worded by validate/schema-errors.ts), draft-07's `$ref` (its siblings are ignored), the format
 * checks, the linear uniqueItems and the integer check on the number's text of the runtime. Tests compile small
 * schemas with it to see the errors the generated validators give.
 */
import { Ajv, CodeGen, _, type Code, type CodeKeywordDefinition, type KeywordCxt, type Name } from 'ajv';
import { DRAFT_07_REF } from '../validate/draft-07.js';
import * as runtime from '../validate/schema-runtime.js';
import { INTEGER_TEXT, REF_LINK } from './schema-transform.js';

/** From this many entries on, an enum of primitives is checked by hash lookup (ajv's own loop starts at 200). */
export const LARGE_ENUM = 16;

const isPrimitive = (value: unknown) => value === null || typeof value !== 'object';

type ForIn = (this: CodeGen, name: Name | string, object: Code, body: (key: Name) => void, kind?: Code) => CodeGen;
const ajvForIn: ForIn = CodeGen.prototype.forIn;

/**
 * With `ownProperties`, ajv loops over an object's members as `for (const key of Object.keys(data))`: an array per
 * object validated (a 100,000-component BOM makes over a million). `for (const key in data)` with an own-property
 * test visits the same keys in the same order (own enumerable ones, insertion order) and allocates nothing.
 */
const ownKeysForIn: ForIn = function (name, object, body, kind) {
  const opts = (this as unknown as { opts: { ownProperties?: boolean } }).opts;
  if (opts.ownProperties !== true) return ajvForIn.call(this, name, object, body, kind);
  // The same function value ajv's own property tests use (one `func` in the generated scope).
  const hasOwn = this.scopeValue('func', {
    ref: Object.prototype.hasOwnProperty,
    code: _`Object.prototype.hasOwnProperty`,
  });
  opts.ownProperties = false;
  try {
    return ajvForIn.call(
      this,
      name,
      object,
      (key) => {
        // Loops nested in the body are over own members again.
        opts.ownProperties = true;
        this.if(_`${hasOwn}.call(${object}, ${key})`, () => body(key));
        opts.ownProperties = false;
      },
      kind,
    );
  } finally {
    opts.ownProperties = true;
  }
};

/** Runs an ajv compilation with {@link ownKeysForIn} in place of ajv's loop (only for the compilations of one instance). */
function withOwnKeysForIn<T>(compile: () => T): T {
  CodeGen.prototype.forIn = ownKeysForIn;
  try {
    return compile();
  } finally {
    CodeGen.prototype.forIn = ajvForIn;
  }
}

export function createAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    ownProperties: true,
    messages: false,
    // Every schema is draft-07, where a $ref's siblings are ignored (the 1.2 bom-ref has a pattern beside its $ref).
    ...DRAFT_07_REF,
    code: {
      source: true,
      esm: true,
      lines: false,
      optimize: 1,
      formats: _`runtime.formats`,
      // Hot patterns (the hash value) as code that accepts the same strings: validate/schema-patterns.ts.
      regExp: runtime.schemaRegExp,
    },
    formats: runtime.formats,
  });
  const compile = ajv.compile.bind(ajv);
  ajv.compile = ((schema: object, meta?: boolean) => withOwnKeysForIn(() => compile(schema, meta))) as Ajv['compile'];
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
  // Large enums of primitives (the SPDX license list) as one hash lookup instead of a comparison per entry; the
  // same keyword, so error reports are unchanged. Small ones keep ajv's chain of ===.
  const ajvEnum = ajv.getKeyword('enum');
  if (typeof ajvEnum !== 'object' || !('code' in ajvEnum)) throw new Error('ajv has no enum keyword');
  const ajvEnumCode = (ajvEnum as CodeKeywordDefinition).code;
  ajv.removeKeyword('enum');
  ajv.addKeyword({
    keyword: 'enum',
    schemaType: 'array',
    $data: true,
    error: ajvEnum.error!,
    code(cxt: KeywordCxt, ruleType) {
      const { gen, data, schema, schemaCode, $data } = cxt;
      const list = schema as unknown[];
      if ($data || !Array.isArray(list) || list.length < LARGE_ENUM || !list.every(isPrimitive)) {
        ajvEnumCode(cxt, ruleType);
        return;
      }
      const member = gen.scopeValue('func', { ref: runtime.isEnumMember, code: _`runtime.isEnumMember` });
      cxt.pass(_`${member}(${schemaCode}, ${data})`);
    },
  });
  // Beside every `integer` type (see build/schema-transform.ts): a number JSON.parse rounded to an integer is none.
  ajv.addKeyword({
    keyword: INTEGER_TEXT,
    schemaType: 'boolean',
    code(cxt: KeywordCxt) {
      const { gen, data, it, schema } = cxt;
      if (schema !== true) return;
      const literal = gen.scopeValue('func', {
        ref: runtime.roundedIntegerLiteral,
        code: _`runtime.roundedIntegerLiteral`,
      });
      cxt.fail(_`typeof ${data} == "number" && ${literal}(${it.parentData}, ${it.parentDataProperty}) !== undefined`);
    },
    error: { message: 'must be integer' },
  });
  // Beside every reference place of 1.5+ (see build/schema-transform.ts): a BOM-Link only where the place takes one.
  ajv.addKeyword({
    keyword: REF_LINK,
    schemaType: 'string',
    code(cxt: KeywordCxt) {
      const { gen, data, schema } = cxt;
      const violation = gen.scopeValue('func', { ref: runtime.refLinkViolation, code: _`runtime.refLinkViolation` });
      cxt.setParams({ kind: schema as string });
      cxt.fail(_`${violation}(${schema as string}, ${data})`);
    },
    error: { message: 'must be a reference of its kind', params: ({ schema }) => _`{kind: ${schema as string}}` },
  });
  return ajv;
}
