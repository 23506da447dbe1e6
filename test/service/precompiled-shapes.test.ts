/**
 * The body shapes and resources are checked by validators precompiled at build time (src/build/service-validators.ts).
 * They must judge every value exactly as ajv compiling the same schema at run time does, down to the first error.
 */
import { describe, expect, it } from 'vitest';
import { createFormatsAjv } from '../../src/service/formats-ajv.js';
import { RESOURCE_SCHEMAS, type ResourceName } from '../../src/service/resources.js';
import { resourceProblem, shapeProblem } from '../../src/service/shape-check.js';
import { BODY_SHAPES } from '../../src/service/shapes.js';

type Schema = Record<string, unknown>;

/** A value that fits `schema` as far as a small generator can tell: every property, each at its smallest. */
function sample(schema: Schema, depth = 0): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.anyOf)) return sample(schema.anyOf.at(-1) as Schema, depth);
  if (Array.isArray(schema.oneOf)) return sample(schema.oneOf[0] as Schema, depth);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      for (const [name, property] of Object.entries(properties)) if (depth < 6) out[name] = sample(property, depth + 1);
      return out;
    }
    case 'array':
      return schema.items === undefined || depth >= 6 ? [] : [sample(schema.items as Schema, depth + 1)];
    case 'string':
      if (schema.format === 'email') return 'a@example.com';
      if (schema.format === 'date-time') return '2026-01-01T00:00:00Z';
      return 'x'.repeat(Math.max(1, Number(schema.minLength ?? 1)));
    case 'integer':
    case 'number':
      return Number(schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return {};
  }
}

/** The sample and, for each of its members, the sample without it, with a wrong type and with an extra member. */
function variants(schema: Schema): unknown[] {
  const base = sample(schema);
  const out: unknown[] = [base, null, [], 'text', 0, true, {}];
  if (base !== null && typeof base === 'object' && !Array.isArray(base)) {
    const record = base as Record<string, unknown>;
    for (const name of Object.keys(record)) {
      const { [name]: _dropped, ...without } = record;
      out.push(without);
      for (const wrong of [null, 1, 'x'.repeat(5000), [], {}, true, 'not-an-email', '2026-13-01T00:00:00Z'])
        out.push({ ...record, [name]: wrong });
    }
    out.push({ ...record, unexpected: 1 });
  }
  return out;
}

describe('precompiled service validators', () => {
  const ajv = createFormatsAjv();

  it.each(Object.keys(BODY_SHAPES))('shape %s: the same verdict and first error as a run-time compile', (name) => {
    const schema = BODY_SHAPES[name]!.schema as Schema;
    const compiled = ajv.compile(schema);
    let failures = 0;
    for (const value of variants(schema)) {
      const expected = compiled(value) ? undefined : compiled.errors![0];
      expect(shapeProblem(name, value)).toEqual(expected);
      if (expected !== undefined) failures++;
    }
    // The variants reach the failing side for every shape, so the comparison covers errors too.
    expect(failures).toBeGreaterThan(0);
  });

  it.each(Object.keys(RESOURCE_SCHEMAS) as ResourceName[])(
    'resource %s: the same verdict and wording as a run-time compile',
    (name) => {
      const compiled = ajv.compile(RESOURCE_SCHEMAS[name]);
      let failures = 0;
      for (const value of variants(RESOURCE_SCHEMAS[name] as Schema)) {
        const problem = resourceProblem(name, value);
        if (compiled(value)) expect(problem).toBeUndefined();
        else {
          failures++;
          const error = compiled.errors![0]!;
          const where = error.instancePath === '' ? 'the body' : error.instancePath;
          expect(problem).toBe(`${where} ${error.message!} (not a ${name})`);
        }
      }
      expect(failures).toBeGreaterThan(0);
    },
  );

  it('the ajv they are compiled with stops at the first error, and writes code only when asked', () => {
    const schema = { type: 'object', required: ['a', 'b'] };
    const first = createFormatsAjv().compile(schema);
    expect(first({})).toBe(false);
    expect(first.errors).toHaveLength(1);
    const every = createFormatsAjv({ allErrors: true }).compile(schema);
    expect(every({})).toBe(false);
    expect(every.errors).toHaveLength(2);
    expect(createFormatsAjv().compile(schema).source).toBeUndefined();
    expect(createFormatsAjv({ code: { source: true } }).compile(schema).source).toBeDefined();
  });

  it('a name without a precompiled validator is a programming error, named', () => {
    expect(() => shapeProblem('noSuchShape', {})).toThrow('no precompiled validator for shape noSuchShape');
    expect(() => resourceProblem('noSuchResource' as ResourceName, {})).toThrow(
      'no precompiled validator for resource noSuchResource',
    );
  });

  it('a body checked for one shape is not checked against another', () => {
    expect(shapeProblem('messageMove', { destinationId: 'inbox' })).toBeUndefined();
    expect(shapeProblem('messageMove', { destinationId: '' })).toMatchObject({
      keyword: 'minLength',
      instancePath: '/destinationId',
    });
    expect(shapeProblem('messageMove', { subject: 's' })?.keyword).toMatch(/additionalProperties|required/);
  });
});
