/**
 * Where the XML ↔ model mappings come from: generated/xml-mapping.json beside the package, written by the build
 * from the official XSDs (src/build/xml-mapping.ts). A single-file bundle (the GitHub Action) replaces this
 * module with one that carries them inside.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MAPPING_FILE = fileURLToPath(new URL('../../generated/xml-mapping.json', import.meta.url));

/** The generated mappings as JSON text, keyed by version (parsed by mapping.ts). */
export function readXmlMappings(): string {
  return readFileSync(MAPPING_FILE, 'utf8');
}
