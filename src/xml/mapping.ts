/**
 * The XML ↔ model mapping of a CycloneDX XML version (see xsd.ts), loaded once per process from what the build
 * derived from the official XSDs.
 */
import { BomwrightError } from '../errors.js';
import { readXmlMappings } from './mapping-data.js';
import type { MappedAttribute, MappedElement, MappedType, XmlMapping } from './xsd.js';
import type { XmlSpecVersion } from './versions.js';

let mappings: Readonly<Record<string, XmlMapping>> | undefined;

export function xmlMapping(version: XmlSpecVersion): XmlMapping {
  mappings ??= parseMappings(readXmlMappings());
  const mapping = mappings[version];
  if (mapping === undefined)
    throw new BomwrightError(
      'E_SCHEMA_MISSING',
      `The XML mapping of CycloneDX ${version} is missing; run npm run build`,
    );
  return mapping;
}

/**
 * The file as the build wrote it (src/build/xml-mapping.ts), with the members it leaves out at their usual value
 * put back: a name the same in both syntaxes, a string, a record, no attributes or elements, not repeated.
 */
function parseMappings(text: string): Readonly<Record<string, XmlMapping>> {
  // Written by our own build step from the XSDs, never from input: its shape is the build's, not a document's.
  const parsed = JSON.parse(text) as Record<string, { version: string; root: number; types: CompactType[] }>;
  if (typeof parsed !== 'object' || parsed === null)
    throw new BomwrightError('E_SCHEMA_MISSING', 'The XML mapping file is damaged; run npm run build');
  const mappings: Record<string, XmlMapping> = {};
  for (const [version, mapping] of Object.entries(parsed))
    mappings[version] = {
      version: mapping.version,
      root: mapping.root,
      types: mapping.types.map((type) => ({
        name: type.name,
        shape: type.shape ?? 'record',
        attributes: (type.attributes ?? []).map((a) => ({ json: a.xml, scalar: 'string', ...a })),
        elements: (type.elements ?? []).map((e) => ({ json: e.xml, many: false, type: 'string', ...e })),
        ...(type.text === undefined ? {} : { text: { scalar: 'string', ...type.text } }),
        ...(type.mixed === undefined ? {} : { mixed: type.mixed }),
      })),
    };
  return mappings;
}

type Optional<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

interface CompactType {
  name: string;
  shape?: MappedType['shape'];
  attributes?: Optional<MappedAttribute, 'json' | 'scalar'>[];
  elements?: Optional<MappedElement, 'json' | 'many' | 'type'>[];
  text?: Optional<NonNullable<MappedType['text']>, 'scalar'>;
  mixed?: boolean;
}
