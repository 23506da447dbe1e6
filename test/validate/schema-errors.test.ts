import { Ajv2019 } from 'ajv/dist/2019.js';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../src/build/ajv.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { schemaDiagnostics, type SchemaError } from '../../src/validate/schema-errors.js';

// Errors as the generated validators give them: the build's ajv, compiled here from small schemas.
function diagnose(schema: object, value: unknown, draft2019 = false): Diagnostic[] {
  const ajv = draft2019 ? new Ajv2019({ allErrors: true, strict: false, messages: false }) : createAjv();
  ajv.addSchema({ $id: 'spdx.schema.json', enum: ['MIT', 'Apache-2.0'] });
  const validate = ajv.compile(schema);
  expect(validate(value)).toBe(false);
  return schemaDiagnostics(validate.errors as SchemaError[], value);
}

const e = (ruleId: string, pointer: string, message: string, value?: string): Diagnostic =>
  ({ ruleId, severity: 'error', message, pointer, ...(value === undefined ? {} : { value }) }) as Diagnostic;

describe('one diagnostic per failed schema keyword, in words', () => {
  it.each<[string, object, unknown, Diagnostic[]]>([
    ['type (integer)', { type: 'string' }, 1, [e('schema/type', '', 'Must be a string, not an integer', '1')]],
    ['type (number)', { type: 'string' }, 1.5, [e('schema/type', '', 'Must be a string, not a number', '1.5')]],
    ['type (null)', { type: 'object' }, null, [e('schema/type', '', 'Must be an object, not null', 'null')]],
    ['type (array)', { type: 'object' }, [], [e('schema/type', '', 'Must be an object, not an array')]],
    ['type (object)', { type: 'array' }, {}, [e('schema/type', '', 'Must be an array, not an object')]],
    ['type (boolean)', { type: 'integer' }, true, [e('schema/type', '', 'Must be an integer, not a boolean', 'true')]],
    [
      'type (string)',
      { type: ['integer', 'null'] },
      'x',
      [e('schema/type', '', 'Must be an integer or null, not a string', '"x"')],
    ],
    ['required', { required: ['name'] }, {}, [e('schema/required', '', 'Missing required member "name"')]],
    [
      'additionalProperties',
      { properties: {}, additionalProperties: false },
      { 'a/b': 1 },
      [e('schema/additional-property', '/a~1b', 'Unknown member "a/b"')],
    ],
    ['enum', { enum: ['a', 'b'] }, 'c', [e('schema/enum', '', '"c" is not one of "a", "b"', '"c"')]],
    [
      'enum with a long list',
      { enum: Array.from({ length: 20 }, (_, i) => i) },
      99,
      [
        e(
          'schema/enum',
          '',
          `99 is not one of ${Array.from({ length: 16 }, (_, i) => i).join(', ')} (and 4 more)`,
          '99',
        ),
      ],
    ],
    [
      'enum of SPDX identifiers',
      { $ref: 'spdx.schema.json' },
      'Mit',
      [
        e(
          'schema/enum',
          '',
          '"Mit" is not an SPDX license identifier; use "name" for other licenses, or an "expression"',
          '"Mit"',
        ),
      ],
    ],
    ['const', { const: 'CycloneDX' }, 'x', [e('schema/const', '', 'Must be "CycloneDX"', '"x"')]],
    ['format', { format: 'date-time' }, 'soon', [e('schema/format', '', '"soon" is not a valid date-time', '"soon"')]],
    ['pattern', { pattern: '^[a-z]+$' }, 'A', [e('schema/pattern', '', '"A" does not match ^[a-z]+$', '"A"')]],
    [
      'pattern of a BOM-Link',
      { pattern: '^urn:cdx:[0-9a-f]+$' },
      'urn:x',
      [e('schema/pattern', '', '"urn:x" is not a BOM-Link (urn:cdx:<serial>/<version>[#<bom-ref>])', '"urn:x"')],
    ],
    [
      'uniqueItems',
      { uniqueItems: true },
      [1, 2, 1],
      [e('schema/unique-items', '/2', 'Item 2 is equal to item 0; items must be unique', '1')],
    ],
    ['minimum', { minimum: 1 }, 0, [e('schema/bounds', '', '0 must be >= 1', '0')]],
    ['maximum', { maximum: 1 }, 2, [e('schema/bounds', '', '2 must be <= 1', '2')]],
    ['exclusiveMinimum', { exclusiveMinimum: 1 }, 1, [e('schema/bounds', '', '1 must be > 1', '1')]],
    ['exclusiveMaximum', { exclusiveMaximum: 1 }, 1, [e('schema/bounds', '', '1 must be < 1', '1')]],
    ['minLength', { minLength: 2 }, 'a', [e('schema/bounds', '', 'Must have at least 2 characters', '"a"')]],
    ['maxLength', { maxLength: 1 }, 'ab', [e('schema/bounds', '', 'Must have at most 1 characters', '"ab"')]],
    ['minItems', { minItems: 1 }, [], [e('schema/bounds', '', 'Must have at least 1 items')]],
    ['maxItems', { maxItems: 0 }, [1], [e('schema/bounds', '', 'Must have at most 0 items')]],
    ['minProperties', { minProperties: 1 }, {}, [e('schema/bounds', '', 'Must have at least 1 members')]],
    ['maxProperties', { maxProperties: 0 }, { a: 1 }, [e('schema/bounds', '', 'Must have at most 0 members')]],
    ['multipleOf', { multipleOf: 2 }, 3, [e('schema/bounds', '', '3 must be a multiple of 2', '3')]],
    [
      'dependencies',
      { dependencies: { a: ['b'] } },
      { a: 1 },
      [e('schema/required', '', 'Member "a" requires member "b"')],
    ],
    ['not', { not: { type: 'string' } }, 'x', [e('schema/other', '', 'Must not match the excluded form', '"x"')]],
    ['false schema', { properties: { a: false } }, { a: 1 }, [e('schema/other', '/a', 'Is not allowed here', '1')]],
    [
      'a keyword without words of its own',
      { propertyNames: { maxLength: 1 } },
      { ab: 1 },
      [
        e('schema/bounds', '', 'Must have at most 1 characters'),
        e('schema/other', '', 'Fails schema keyword "propertyNames"'),
      ],
    ],
  ])('%s', (_name, schema, value, expected) => {
    expect(diagnose(schema, value)).toEqual(expected);
  });

  it('dependentRequired (2019-09)', () => {
    expect(diagnose({ dependentRequired: { a: ['b'] } }, { a: 1 }, true)).toEqual([
      e('schema/required', '', 'Member "a" requires member "b"'),
    ]);
  });

  it('says "The value" instead of quoting an object, and cuts long values short', () => {
    const long = 'x'.repeat(200);
    const [diagnostic] = diagnose({ pattern: '^y' }, long);
    expect(diagnostic!.message).toBe(`"${'x'.repeat(58)}… does not match ^y`);
    expect(diagnostic!.value).toBe(`"${'x'.repeat(118)}…`);
  });

  it('skips if, whose then/else errors say what is wrong', () => {
    expect(diagnose({ if: { required: ['a'] }, then: { required: ['b'] } }, { a: 1 })).toEqual([
      e('schema/required', '', 'Missing required member "b"'),
    ]);
  });

  it('reports the same message at the same place once', () => {
    const schema = { allOf: [{ required: ['a'] }, { required: ['a'] }] };
    expect(diagnose(schema, {})).toEqual([e('schema/required', '', 'Missing required member "a"')]);
  });
});

describe('alternatives (oneOf, anyOf) folded into one finding', () => {
  it('names the forms a value matches when oneOf needs exactly one', () => {
    expect(diagnose({ oneOf: [{ type: 'integer' }, { minimum: 0 }, { type: 'string' }] }, 5)).toEqual([
      e(
        'schema/alternatives',
        '',
        'Matches more than one of the allowed forms (forms 1 and 2); it must match exactly one',
        '5',
      ),
    ]);
  });

  it('says what the value may be when every form fails at the value itself', () => {
    expect(diagnose({ oneOf: [{ type: 'string' }, { type: 'integer' }] }, 1.5)).toEqual([
      e('schema/alternatives', '', '1.5 must be a string, or an integer', '1.5'),
    ]);
    expect(diagnose({ anyOf: [{ type: 'string' }, { type: 'object' }] }, [])).toEqual([
      e('schema/alternatives', '', 'The value must be a string, or an object'),
    ]);
  });

  it('names the members of which exactly one is needed', () => {
    const schema = { oneOf: [{ required: ['license'] }, { required: ['expression'] }] };
    expect(diagnose(schema, {})).toEqual([
      e('schema/required', '', 'Must have exactly one of the members "license", "expression"'),
    ]);
  });

  it('keeps one finding when every form says the same', () => {
    const schema = {
      anyOf: [
        { type: 'string', minLength: 5 },
        { type: 'string', maxLength: 0 },
      ],
    };
    expect(diagnose({ anyOf: [{ type: 'string' }, { type: 'string' }] }, 1)).toEqual([
      e('schema/type', '', 'Must be a string, not an integer', '1'),
    ]);
    expect(diagnose(schema, 'ab')).toHaveLength(1);
  });

  it('keeps the errors of the form that got furthest into the value', () => {
    const schema = {
      oneOf: [{ type: 'string' }, { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }],
    };
    expect(diagnose(schema, { name: 1 })).toEqual([e('schema/type', '/name', 'Must be a string, not an integer', '1')]);
  });

  it('folds only the errors at or below the composite, not a sibling whose name shares its prefix', () => {
    const schema = {
      properties: {
        a: { type: 'string' },
        ab: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
      },
    };
    expect(diagnose(schema, { a: 1, ab: 1.5 })).toEqual([
      e('schema/type', '/a', 'Must be a string, not an integer', '1'),
      e('schema/alternatives', '/ab', '1.5 must be a string, or an integer', '1.5'),
    ]);
  });

  it('says "none of the allowed forms" when no form left an error of its own', () => {
    const error: SchemaError = { instancePath: '/x', schemaPath: '#/oneOf', keyword: 'oneOf', params: {} };
    expect(schemaDiagnostics([error], { x: 'v' })).toEqual([
      e('schema/alternatives', '/x', 'Matches none of the allowed forms', '"v"'),
    ]);
  });
});
