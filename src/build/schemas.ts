/**
 * The schemas as the official specification states them (strictness the library's copies drop put back, and
 * the project's overlay), built from @cyclonedx/cyclonedx-library's files. Shared by the build and by tests
 * that compare the precompiled validators with a plain ajv reference.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SpecFormat } from '../formats/formats.js';
import {
  applyPatch,
  checkIntegerText,
  dropRefSiblings,
  markReferencePlaces,
  speedUpPatterns,
  stripAnnotations,
  type JsonObject,
  type PatchOperation,
} from './schema-transform.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
export const LIBRARY_SCHEMA_DIR = path.join(
  path.dirname(require.resolve('@cyclonedx/cyclonedx-library/package.json')),
  'res/schema',
);

export const SHARED_SCHEMAS = [
  'spdx.SNAPSHOT.schema.json',
  'jsf-0.82.SNAPSHOT.schema.json',
  'cryptography-defs.SNAPSHOT.schema.json',
];

export function readJson(file: string): JsonObject {
  return JSON.parse(readFileSync(file, 'utf8')) as JsonObject;
}

/**
 * The `$schema` values a document of this format may carry, when the official schema restricts them: its enum and
 * the `$id` of each variant (normal and strict), read from the library's files. Undefined: any string.
 */
export function acceptedSchemaAddresses(format: SpecFormat): string[] | undefined {
  if (format.schemaEnum === undefined) return undefined;
  const ids = format.schemaVariants.map((file) => String(readJson(path.join(LIBRARY_SCHEMA_DIR, file)).$id));
  return [...new Set([...format.schemaEnum, ...ids])];
}

/**
 * The schema as the official specification states it, plus the project's overlay, read as draft-07 reads it
 * (a `$ref`'s siblings are ignored), with integers judged on the number's text.
 */
export function buildSchema(format: SpecFormat, options: { fasterPatterns?: boolean } = {}): JsonObject {
  const schema = readJson(path.join(LIBRARY_SCHEMA_DIR, format.baseSchema));
  const required = (schema.required ?? []) as string[];
  if (format.versionRequired && !required.includes('version')) schema.required = [...required, 'version'];
  const properties = schema.properties as JsonObject;
  const addresses = acceptedSchemaAddresses(format);
  if (addresses !== undefined) properties.$schema = { type: 'string', enum: addresses };
  if (format.overlay) {
    const overlay = readJson(path.join(root, 'schema', format.overlay));
    applyPatch(schema, overlay.patch as unknown as PatchOperation[]);
  }
  prepareSchema(schema);
  if (options.fasterPatterns !== false) speedUpPatterns(schema);
  return schema;
}

/**
 * What every schema the validators are compiled from goes through, the shared ones (jsf, spdx…) included: draft-07's
 * `$ref` rule, the reading of each reference place (1.5+), integers on the number's text, no annotations.
 */
export function prepareSchema(schema: JsonObject): void {
  dropRefSiblings(schema);
  markReferencePlaces(schema);
  checkIntegerText(schema);
  stripAnnotations(schema);
}
