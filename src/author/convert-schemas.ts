/**
 * The official JSON schemas, as the build wrote them to generated/schemas/ (each format's schema with the
 * official strictness put back and the project's overlay applied, and the schemas they share), for version
 * conversion to walk documents against. Read once per process and file.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BomwrightError } from '../errors.js';
import { isRecord } from '../values.js';

const SCHEMA_DIR = fileURLToPath(new URL('../../generated/schemas/', import.meta.url));

export type SchemaObject = Record<string, unknown>;

const loaded = new Map<string, SchemaObject>();

/** The schema file `file` (a format's id plus `.json`, or a shared schema's name). */
export function loadSchemaFile(file: string): SchemaObject {
  let schema = loaded.get(file);
  if (schema === undefined) {
    let text: string;
    try {
      text = readFileSync(`${SCHEMA_DIR}${file}`, 'utf8');
    } catch {
      throw new BomwrightError(
        'E_NOT_BUILT',
        `The schema ${file} is missing from generated/schemas/; run npm run build (npm ci does it)`,
      );
    }
    const parsed: unknown = JSON.parse(text);
    if (!isRecord(parsed)) throw new BomwrightError('E_NOT_BUILT', `generated/schemas/${file} is not a schema`);
    schema = parsed;
    loaded.set(file, schema);
  }
  return schema;
}
