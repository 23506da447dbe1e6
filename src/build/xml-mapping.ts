/**
 * Derives the XML ↔ model mapping of every CycloneDX XML version from the official XSDs (and the same version's JSON
 * schema; 1.2's for 1.0 and 1.1, which have none) in @cyclonedx/cyclonedx-library, into generated/xml-mapping.json, which the reader and
 * the writer load (src/xml/mapping.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findFormatBySpecVersion } from '../formats/formats.js';
import { compileXsd, type XmlMapping } from '../xml/xsd.js';
import { XML_SPEC_VERSIONS, xsdFile, type XmlSpecVersion } from '../xml/versions.js';
import { LIBRARY_SCHEMA_DIR, readJson } from './schemas.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The mapping of every XML version, keyed by version. */
export function buildXmlMappings(): Record<string, XmlMapping> {
  const mappings: Record<string, XmlMapping> = {};
  for (const version of XML_SPEC_VERSIONS) mappings[version] = buildXmlMapping(version);
  return mappings;
}

/** The mapping of one XML version, from its XSD and the same version's JSON schema. */
export function buildXmlMapping(version: XmlSpecVersion): XmlMapping {
  // 1.0 and 1.1 have no JSON form: their model is the one 1.2's JSON gives the same elements.
  const format = findFormatBySpecVersion(version) ?? findFormatBySpecVersion('1.2');
  const jsonSchema = format === undefined ? undefined : readJson(path.join(LIBRARY_SCHEMA_DIR, format.baseSchema));
  const xsd = readFileSync(path.join(LIBRARY_SCHEMA_DIR, xsdFile(version)), 'utf8');
  return compileXsd(version, xsd, jsonSchema);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(path.join(root, 'generated'), { recursive: true });
  writeFileSync(path.join(root, 'generated/xml-mapping.json'), JSON.stringify(buildXmlMappings(), compact));
}

/** Members at their usual value are left out of the file; src/xml/mapping.ts puts them back. */
function compact(this: unknown, key: string, value: unknown): unknown {
  if (typeof this !== 'object' || this === null) return value;
  const holder = this as Record<string, unknown>;
  if (key === 'json' && value === holder.xml) return undefined;
  if (key === 'scalar' && value === 'string') return undefined;
  if ((key === 'attributes' || key === 'elements') && Array.isArray(value) && value.length === 0) return undefined;
  if (key === 'shape' && value === 'record') return undefined;
  if (key === 'many' && value === false) return undefined;
  if (key === 'type' && value === 'string' && 'xml' in holder) return undefined;
  return value;
}
