/**
 * The official JSON schemas that @cyclonedx/cyclonedx-library ships in res/schema/ (read there, never copied), for
 * version conversion to walk documents against. Read once per process and file.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { BomwrightError } from '../errors.js';
import { isRecord } from '../values.js';

export type SchemaObject = Record<string, unknown>;

let schemaDir: string | undefined;
const loaded = new Map<string, SchemaObject>();

/** A schema file of the library's res/schema/ (a format's base schema, or one it refers to). */
export function loadSchemaFile(file: string): SchemaObject {
  let schema = loaded.get(file);
  if (schema === undefined) {
    schemaDir ??= path.join(
      path.dirname(createRequire(import.meta.url).resolve('@cyclonedx/cyclonedx-library/package.json')),
      'res/schema',
    );
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path.join(schemaDir, path.basename(file)), 'utf8'));
    } catch (error) {
      throw new BomwrightError('E_SCHEMA_MISSING', `Cannot read the schema ${file} of @cyclonedx/cyclonedx-library`, {
        cause: error,
      });
    }
    if (!isRecord(parsed)) throw new BomwrightError('E_SCHEMA_MISSING', `${file} is not a schema`);
    schema = parsed;
    loaded.set(file, schema);
  }
  return schema;
}
