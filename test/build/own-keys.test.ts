import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../src/build/ajv.js';

const require = createRequire(import.meta.url);
const standaloneCode = require('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js').default;

const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`p${i}`, { type: 'string' }]));
const schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    few: { type: 'object', additionalProperties: false, properties: { a: { type: 'string' }, b: { type: 'string' } } },
    many: { type: 'object', additionalProperties: false, properties: many },
    patterned: { type: 'object', patternProperties: { '^x-': { type: 'number' } }, additionalProperties: false },
    named: { type: 'object', propertyNames: { maxLength: 3 } },
    nested: {
      type: 'object',
      additionalProperties: { type: 'object', additionalProperties: false, properties: { ok: { type: 'boolean' } } },
    },
  },
};

/** Own members in every order that matters, numeric names (listed first), and an inherited enumerable member. */
function documents(): unknown[] {
  const inherited = Object.assign(Object.create({ stray: 1, a: 'x' }) as object, { b: 'y', c: 'z' });
  return [
    {},
    { few: { a: 'x', b: 'y' }, many: { p0: 'x', p11: 'y' } },
    { few: { z: 1, a: 'x', y: 2, 10: 3, 2: 4 }, many: { q: 1, p3: 'x', 7: 1, r: 2 }, other: 1 },
    { patterned: { 'x-1': 1, 'x-2': 'no', y: 1, 3: 1 }, named: { abcd: 1, ab: 2, '12345': 3 } },
    { nested: { one: { ok: true, bad: 1 }, two: { worse: 2, ok: 'no' }, three: 4 } },
    { few: inherited, many: Object.create({ p0: 'inherited', q: 1 }) as object },
    Object.assign(Object.create({ few: { z: 1 } }) as object, { many: { z: 2 } }),
  ];
}

describe('member loops over own keys without an array per object', () => {
  it('gives exactly the errors, in the same order, of ajv with its Object.keys loops', () => {
    const ajv = createAjv();
    const build = ajv.compile(schema);
    const plain = new Ajv({ allErrors: true, strict: false, messages: false, ownProperties: true }).compile(schema);
    let failing = 0;
    for (const document of documents()) {
      expect(build(document)).toBe(plain(document));
      expect(build.errors ?? null).toEqual(plain.errors ?? null);
      if (plain.errors) failing += plain.errors.length;
    }
    expect(failing).toBeGreaterThan(15);
    const code = standaloneCode(ajv, build);
    expect(code).not.toContain('Object.keys(');
    expect(code).toMatch(/for\(const key\d+ in data\d*\)\{if\(func0\.call\(data\d*, key\d+\)\)/);
  });

  it('leaves ajv as it was for every other instance', () => {
    createAjv().compile(schema);
    const other = new Ajv({ allErrors: true, strict: false, ownProperties: true, code: { source: true } });
    expect(standaloneCode(other, other.compile(schema))).toContain('Object.keys(');
  });
});
