import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSchema, LIBRARY_SCHEMA_DIR, readJson, SHARED_SCHEMAS } from '../../src/build/schemas.js';
import { stripAnnotations } from '../../src/build/schema-transform.js';
import { SPEC_FORMATS, type SpecFormat } from '../../src/formats/formats.js';
import { loadValidator, runValidator } from '../../src/validate/schema.js';
import { formats } from '../../src/validate/schema-runtime.js';
import { SAMPLES } from '../helpers.js';
import { fuzzParameters } from './settings.js';

/**
 * The precompiled validators (standalone code, linear uniqueItems, faster equivalent patterns) against a plain
 * ajv reference compiled from the same official schemas with ajv's own pairwise uniqueItems and the original
 * patterns: on every mutated document the schema verdict must be the same.
 */
function reference(format: SpecFormat): ValidateFunction {
  const ajv = new Ajv({ allErrors: false, strict: false, ownProperties: true, formats });
  const schema = buildSchema(format, { fasterPatterns: false });
  for (const file of SHARED_SCHEMAS) {
    const shared = readJson(path.join(LIBRARY_SCHEMA_DIR, file));
    delete shared.$id;
    stripAnnotations(shared);
    ajv.addSchema(shared, new URL(file, String(schema.$id)).href);
  }
  return ajv.compile(schema);
}

/** Mutations that keep a document a BOM of the same version: the schema decides, not routing. */
const edit = fc.record({
  target: fc.constantFrom('components', 'metadata', 'dependencies', 'root'),
  index: fc.nat(),
  kind: fc.constantFrom('duplicate-item', 'drop-member', 'set-member', 'reorder'),
  member: fc.constantFrom('name', 'version', 'type', 'bom-ref', 'purl', 'hashes', 'licenses', 'scope', 'x-extra'),
  value: fc.oneof(
    fc.constantFrom('library', 'application', 'required', '', 'MIT', 'not a type', 'pkg:npm/x@1'),
    fc.jsonValue({ maxDepth: 2 }),
  ),
});

type Edit = typeof edit extends fc.Arbitrary<infer T> ? T : never;

function apply(document: Record<string, unknown>, e: Edit): Record<string, unknown> {
  const copy = structuredClone(document);
  const list = e.target === 'root' || e.target === 'metadata' ? undefined : (copy[e.target] as unknown[] | undefined);
  const holder =
    e.target === 'root'
      ? copy
      : e.target === 'metadata'
        ? (copy.metadata as Record<string, unknown> | undefined)
        : (list?.[e.index % Math.max(list.length, 1)] as Record<string, unknown> | undefined);
  if (holder === undefined || holder === null || typeof holder !== 'object') return copy;
  if (e.kind === 'duplicate-item' && list !== undefined && list.length > 0 && list.length < 50)
    list.push(structuredClone(list[e.index % list.length]));
  else if (e.kind === 'drop-member') delete holder[e.member];
  else if (e.kind === 'set-member' && !['bomFormat', 'specVersion'].includes(e.member)) holder[e.member] = e.value;
  else if (e.kind === 'reorder' && list !== undefined) list.reverse();
  return copy;
}

describe('precompiled validators agree with a plain ajv reference', () => {
  for (const format of SPEC_FORMATS) {
    it(`${format.id}: same verdict on mutated documents`, async () => {
      const check = reference(format);
      const precompiled = loadValidator(format);
      const base = JSON.parse(
        readFileSync(path.join(SAMPLES, `valid-full-${format.specVersion}.json`), 'utf8'),
      ) as Record<string, unknown>;
      let invalid = 0;
      fc.assert(
        fc.property(fc.array(edit, { minLength: 1, maxLength: 5 }), (edits) => {
          const document = edits.reduce(apply, base);
          const expected = check(document);
          const errors = runValidator(precompiled, document);
          if (!expected) invalid++;
          expect(errors.length === 0, JSON.stringify(check.errors?.[0])).toBe(expected);
        }),
        fuzzParameters(150),
      );
      // The mutations must reach both verdicts, or the comparison says nothing.
      expect(invalid).toBeGreaterThan(0);
    }, 60_000);
  }
});
