import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv } from '../../src/build/ajv.js';
import { positionalCalls, RewriteError } from '../../src/build/positional-calls.js';
import { compileFormat, validatorModule } from '../../src/build/validator-source.js';
import { SPEC_FORMATS } from '../../src/formats/formats.js';
import { routeDocument } from '../../src/formats/route.js';
import { loadValidator } from '../../src/validate/schema.js';
import { ROOT, SAMPLES } from '../helpers.js';
// @ts-expect-error: the benchmarks' generator is plain JavaScript without types
import { generateBom } from '../../bench/generate.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A small schema's validator as the build writes one (rewritten), loaded as a module. */
async function built(schema: object): Promise<{ validate: (data: unknown) => boolean; errors: () => unknown }> {
  const ajv = createAjv();
  const compiled = ajv.compile(schema);
  const runtime = pathToFileURL(path.join(ROOT, 'dist/validate/schema-runtime.js')).href;
  // No schema here needs ajv's run-time helpers (whose CommonJS default export vitest would load otherwise than Node).
  const text = validatorModule(ajv, compiled, runtime, 'test');
  expect(text).not.toContain("from 'ajv/");
  const dir = mkdtempSync(path.join(tmpdir(), 'bomwright-positional-'));
  dirs.push(dir);
  const file = path.join(dir, 'validator.mjs');
  writeFileSync(file, text);
  const module = (await import(pathToFileURL(file).href)) as { default: ValidateFunction };
  return { validate: (data) => module.default(data), errors: () => module.default.errors };
}

// Nested references of every kind ajv calls a function for: properties, array items, keyed members
// (additionalProperties), a recursive reference (through ajv's wrapper object), and references under allOf and
// oneOf, whose failing branches' errors are dropped again.
const SCHEMA = {
  $id: 'https://example.com/positional.json',
  type: 'object',
  properties: {
    node: { $ref: '#/definitions/node' },
    list: { type: 'array', items: { $ref: '#/definitions/leaf' } },
    map: { type: 'object', additionalProperties: { $ref: '#/definitions/leaf' } },
    both: { allOf: [{ $ref: '#/definitions/leaf' }, { required: ['id'] }] },
    either: { oneOf: [{ $ref: '#/definitions/leaf' }, { type: 'string' }] },
    count: { type: 'integer', minimum: 1 },
  },
  additionalProperties: false,
  definitions: {
    // A reference inside keeps ajv from inlining `leaf`: it becomes a function of its own.
    leaf: {
      type: 'object',
      required: ['id'],
      properties: { id: { $ref: '#/definitions/id' }, n: { type: 'integer' } },
      additionalProperties: false,
    },
    id: { type: 'string', pattern: '^[a-z]{2,}$' },
    node: {
      type: 'object',
      properties: {
        leaf: { $ref: '#/definitions/leaf' },
        children: { type: 'array', items: { $ref: '#/definitions/node' } },
      },
    },
  },
};

describe('positional calls', () => {
  it('leave every error as ajv reports it, path and parent included', async () => {
    const { validate, errors } = await built(SCHEMA);
    const reference = createAjv().compile(SCHEMA);
    const leaf = { id: 'ab', n: 1 };
    const documents = [
      {},
      { node: { leaf, children: [{ leaf }, { children: [{ leaf: { id: 'a', n: 1.5, x: 1 } }] }] } },
      { list: [leaf, { id: 1 }, leaf, {}], map: { 'a/b~c': leaf, d: { n: 'x' } } },
      { both: leaf, either: leaf, count: 3 },
      { both: { n: 1 }, either: 5, count: 0 },
      { either: { id: 'a' }, list: 'no', map: [], extra: true },
      { node: { children: [{ children: [{ children: [{ leaf: {} }] }] }] } },
    ];
    let failing = 0;
    for (const document of documents) {
      const valid = reference(document);
      expect(validate(document), JSON.stringify(document)).toBe(valid);
      expect(errors(), JSON.stringify(document)).toEqual(reference.errors ?? null);
      if (!valid) failing++;
    }
    expect(failing).toBe(documents.length - 2);
  });

  it('pass no context object and no rootData', () => {
    const ajv = createAjv();
    const code = validatorModule(ajv, ajv.compile(SCHEMA), 'runtime', 'test');
    expect(code).not.toContain(', {instancePath');
    expect(code).not.toContain('{instancePath=');
    expect(code).not.toContain('rootData');
    expect(code).toMatch(/function validate\d+\(data, instancePath="", parentData, parentDataProperty\)/);
    expect(code).toMatch(/wrapper\d+\.validate\([^)]*, instancePath\+"\/children\/" \+ i\d+, data\d+, i\d+\)/);
  });

  const header = 'function validate1(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){';
  const call = (context: string) => `${header}if(!(validate2(data.a, ${context}))){}}`;
  const second = 'function validate2(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){}';

  it.each([
    ['code without validate functions', 'const x = 1;', 'no validate function found'],
    ['a function with other parameters', 'function validate1(data, options){}', '1 validate functions, but 0 with'],
    [
      'a context with another member',
      call('{instancePath:instancePath+"/a",parentData:data,parentDataProperty:"a",rootData,dynamicAnchors}') + second,
      'unexpected context',
    ],
    [
      'a context with its members in another order',
      call('{instancePath:instancePath+"/a",parentDataProperty:"a",parentData:data,rootData}') + second,
      'unexpected context',
    ],
    [
      'rootData passed as something else',
      call('{instancePath:instancePath+"/a",parentData:data,parentDataProperty:"a",rootData:data}') + second,
      'rootData passed as data',
    ],
    [
      'a context that is not the last argument',
      `${header}validate2(data.a, {instancePath,parentData,parentDataProperty,rootData}, 1);}${second}`,
      'context object not the last argument',
    ],
    ['an unterminated context', `${header}validate2(data.a, {instancePath:"x"`, 'unterminated context object'],
    [
      'a call without a context object',
      `${header}validate2(data.a);}${second}`,
      '1 calls of validate functions, 0 rewritten',
    ],
    [
      'a call with this (passContext)',
      `${header}validate2.call(this, data.a, {instancePath,parentData,parentDataProperty,rootData});}${second}`,
      'called with a context',
    ],
    ['rootData read elsewhere', `${header}return rootData;}`, '"rootData" is still in the code'],
  ])('fail the build on %s', (_name, code, message) => {
    expect(() => positionalCalls(code)).toThrow(RewriteError);
    expect(() => positionalCalls(code)).toThrow(message);
  });

  it('rewrite a call whose path holds quotes, braces and escapes, and leave other code alone', () => {
    const context =
      '{instancePath:instancePath+"/a\\"}{(" + key0.replace(/~/g, "~0"),parentData:data,parentDataProperty:key0,rootData}';
    const code = `${header}const e = {instancePath,schemaPath:"#/x"};if(!(validate2(data[key0], ${context}))){}}${second}`;
    expect(positionalCalls(code)).toBe(
      'function validate1(data, instancePath="", parentData, parentDataProperty){const e = {instancePath,schemaPath:"#/x"};' +
        'if(!(validate2(data[key0], instancePath+"/a\\"}{(" + key0.replace(/~/g, "~0"), data, key0))){}}' +
        'function validate2(data, instancePath="", parentData, parentDataProperty){}',
    );
  });
});

/** Mutations of a valid document: at up to `limit` objects (the first and last among them), an unknown member,
 * each member with a value of another type, and each member removed. */
function* mutations(document: unknown, limit: number): Generator<unknown> {
  const objects: (string | number)[][] = [];
  const collect = (value: unknown, at: (string | number)[]) => {
    if (value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) value.forEach((item, i) => collect(item, [...at, i]));
    else {
      objects.push(at);
      for (const [key, member] of Object.entries(value)) collect(member, [...at, key]);
    }
  };
  collect(document, []);
  const step = Math.max(1, Math.floor(objects.length / limit));
  const chosen = objects.filter((_, i) => i % step === 0 || i === objects.length - 1);
  const other = (value: unknown): unknown =>
    typeof value === 'string'
      ? 42
      : typeof value === 'number'
        ? 'x'
        : Array.isArray(value)
          ? {}
          : value === null
            ? 1
            : typeof value === 'object'
              ? []
              : 'x';
  for (const at of chosen) {
    const holder = (copy: unknown) =>
      at.reduce<unknown>((v, key) => (v as Record<string, unknown>)[key], copy) as Record<string, unknown>;
    const added = structuredClone(document);
    holder(added)['x-unknown'] = true;
    yield added;
    for (const key of Object.keys(holder(document))) {
      const changed = structuredClone(document);
      holder(changed)[key] = other(holder(changed)[key]);
      yield changed;
      const removed = structuredClone(document);
      delete holder(removed)[key];
      yield removed;
    }
  }
}

describe('the built validators', () => {
  const samples = readdirSync(SAMPLES)
    .filter((f) => f.endsWith('.json'))
    .flatMap((file) => {
      let value: unknown;
      try {
        value = JSON.parse(readFileSync(path.join(SAMPLES, file), 'utf8'));
      } catch {
        return [];
      }
      const format = routeDocument(value).format;
      return format === undefined ? [] : [{ file, value, format }];
    });
  // The benchmarks' documents (case F's shape) in every version that has their members, mutated at the first and
  // the last component among others.
  for (const specVersion of ['1.3', '1.4', '1.5', '1.6', '1.7']) {
    const value = (generateBom as (n: number, o: object) => unknown)(30, { rich: true, specVersion });
    const format = routeDocument(value).format!;
    samples.push({ file: `valid-generated-${specVersion}.json`, value, format });
  }

  it.each(SPEC_FORMATS.map((f) => [f.id, f] as const))(
    'report exactly what ajv reports for %s, on every sample and on mutations of the valid ones',
    (_id, format) => {
      const mine = samples.filter((s) => s.format.id === format.id);
      expect(mine.length).toBeGreaterThan(0);
      const reference = compileFormat(format).validate;
      const generated = loadValidator(format);
      let compared = 0;
      let invalid = 0;
      const compare = (document: unknown, name: string) => {
        const valid = reference(document);
        expect(generated(document), name).toBe(valid);
        expect(generated.errors as ErrorObject[] | null, name).toEqual(reference.errors ?? null);
        compared++;
        if (!valid) invalid++;
      };
      for (const { file, value } of mine) {
        compare(value, file);
        if (file.startsWith('valid-')) {
          let i = 0;
          for (const mutated of mutations(value, 40)) compare(mutated, `${file} mutation ${i++}`);
        }
      }
      expect(compared).toBeGreaterThan(mine.length);
      expect(invalid).toBeGreaterThan(0);
    },
  );
});
