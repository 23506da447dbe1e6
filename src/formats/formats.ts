/**
 * The supported document formats, as data. Routing (bomFormat + specVersion → schema) and the build step that
 * precompiles the validators both read this table, so they cannot disagree.
 */
export interface SpecFormat {
  /** Stable id; also the file name of the precompiled validator. */
  readonly id: string;
  readonly family: 'cyclonedx' | 'cbom';
  readonly bomFormats: readonly string[];
  readonly specVersion: string;
  /** File in @cyclonedx/cyclonedx-library's res/schema/ that the schema starts from. */
  readonly baseSchema: string;
  /** Official `$schema` values, when the official schema restricts them (the library's copies drop the enum). */
  readonly schemaAddresses?: readonly string[];
  /** Whether the official schema requires `version` (the library's 1.2–1.4 copies drop it). */
  readonly versionRequired: boolean;
  /** Overlay in schema/ (JSON Patch) applied on top of the base schema. */
  readonly overlay?: string;
}

export const CBOM_SCHEMA_ADDRESS = 'https://raw.githubusercontent.com/IBM/CBOM/main/bom-1.4-cbom-1.0.schema.json';

export const SPEC_FORMATS: readonly SpecFormat[] = [
  {
    id: 'cyclonedx-1.2',
    family: 'cyclonedx',
    bomFormats: ['CycloneDX'],
    specVersion: '1.2',
    baseSchema: 'bom-1.2-strict.SNAPSHOT.schema.json',
    // The official strict schema lists "bom-1.2a" (its $id says "bom-1.2b"); the plain address is what producers write.
    schemaAddresses: [
      'http://cyclonedx.org/schema/bom-1.2.schema.json',
      'http://cyclonedx.org/schema/bom-1.2a.schema.json',
      'http://cyclonedx.org/schema/bom-1.2b.schema.json',
    ],
    versionRequired: true,
  },
  {
    id: 'cyclonedx-1.3',
    family: 'cyclonedx',
    bomFormats: ['CycloneDX'],
    specVersion: '1.3',
    baseSchema: 'bom-1.3-strict.SNAPSHOT.schema.json',
    schemaAddresses: ['http://cyclonedx.org/schema/bom-1.3.schema.json'],
    versionRequired: true,
  },
  {
    id: 'cyclonedx-1.4',
    family: 'cyclonedx',
    bomFormats: ['CycloneDX'],
    specVersion: '1.4',
    baseSchema: 'bom-1.4.SNAPSHOT.schema.json',
    schemaAddresses: ['http://cyclonedx.org/schema/bom-1.4.schema.json'],
    versionRequired: true,
  },
  {
    id: 'cyclonedx-1.5',
    family: 'cyclonedx',
    bomFormats: ['CycloneDX'],
    specVersion: '1.5',
    baseSchema: 'bom-1.5.SNAPSHOT.schema.json',
    schemaAddresses: ['http://cyclonedx.org/schema/bom-1.5.schema.json'],
    versionRequired: false,
  },
  {
    id: 'cyclonedx-1.6',
    family: 'cyclonedx',
    bomFormats: ['CycloneDX'],
    specVersion: '1.6',
    baseSchema: 'bom-1.6.SNAPSHOT.schema.json',
    versionRequired: false,
  },
  {
    id: 'cyclonedx-1.7',
    family: 'cyclonedx',
    bomFormats: ['CycloneDX'],
    specVersion: '1.7',
    baseSchema: 'bom-1.7.SNAPSHOT.schema.json',
    versionRequired: false,
  },
  {
    id: 'cbom-1.4-cbom-1.0',
    family: 'cbom',
    bomFormats: ['CBOM', 'CycloneDX'],
    specVersion: '1.4-cbom-1.0',
    baseSchema: 'bom-1.4.SNAPSHOT.schema.json',
    schemaAddresses: [CBOM_SCHEMA_ADDRESS],
    versionRequired: true,
    overlay: 'cbom-1.4-cbom-1.0.overlay.json',
  },
];

export const CBOM_SPEC_VERSION_FORM = /^\d+\.\d+-cbom-\d+\.\d+$/;

export function supportedVersionsText(): string {
  return SPEC_FORMATS.map((f) => f.specVersion).join(', ');
}

export function findFormatBySpecVersion(specVersion: string): SpecFormat | undefined {
  return SPEC_FORMATS.find((f) => f.specVersion === specVersion);
}
