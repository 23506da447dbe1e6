/**
 * The supported document formats, as data: one row per format with everything that differs between versions.
 * Routing, the build step that precompiles the validators, the rules, signing and authoring all read this
 * table, so they cannot disagree, and a new version is a new row.
 */
export interface SpecFormat {
  /** Stable id; also the file name of the precompiled validator. */
  readonly id: string;
  readonly family: 'cyclonedx' | 'cbom';
  readonly bomFormats: readonly string[];
  readonly specVersion: string;
  /** File in @cyclonedx/cyclonedx-library's res/schema/ that the schema starts from. */
  readonly baseSchema: string;
  /** Overlay in schema/ (JSON Patch) applied on top of the base schema. */
  readonly overlay?: string;
  /**
   * The official schema's `$schema` enum, when it restricts the member (the library's copies drop the enum). The
   * build accepts these and the `$id` of every variant in `schemaVariants`: an address by which an official
   * schema names itself (generators write `bom-1.3a`, the 1.3 schema's `$id`) is never an error.
   */
  readonly schemaEnum?: readonly string[];
  /** The files in the library's res/schema/ for this version (normal and strict), whose `$id`s are accepted. */
  readonly schemaVariants: readonly string[];
  /** The `$schema` value bomwright writes into new documents. */
  readonly schemaAddress: string;
  /** Whether the official schema requires `version` (the library's 1.2–1.4 copies drop it). */
  readonly versionRequired: boolean;
  /** Whether a component must have a version (1.2, 1.3). */
  readonly componentVersionRequired: boolean;
  /** Whether references may be BOM-Links (`urn:cdx:…`, 1.5+). */
  readonly bomLinks: boolean;
  /**
   * Where a JSF `signature` may appear (jsf-0.82 references in the official schema); empty when the format has
   * no signatures. `*` is every item of an array, `**` that array recursively through the same member.
   */
  readonly signable: readonly string[];
  /** Whether metadata.tools is an object of components and services (1.5+) rather than a list of tools. */
  readonly toolsAsComponents: boolean;
  /** Whether the document itself has `properties` (1.5+); before, document properties go in metadata. */
  readonly rootProperties: boolean;
  /** Whether a component has an `authors` list (1.6+) rather than one `author` text. */
  readonly componentAuthors: boolean;
  /** Whether a licence list must be either ids and names or one expression, never both (1.5, 1.6). */
  readonly licenseExpressionAlone: boolean;
}

export const CBOM_SCHEMA_ADDRESS = 'https://raw.githubusercontent.com/IBM/CBOM/main/bom-1.4-cbom-1.0.schema.json';

const SIGNABLE_1_4 = [
  '',
  'metadata/component',
  'metadata/component/components/**',
  'components/**',
  'services/**',
  'compositions/*',
];
const SIGNABLE_1_5 = [...SIGNABLE_1_4, 'annotations/*'];
const SIGNABLE_1_6 = [
  ...SIGNABLE_1_5,
  'declarations',
  'declarations/attestations/*',
  'declarations/claims/*',
  'declarations/evidence/*',
  'declarations/affirmation',
  'declarations/affirmation/signatories/*',
  'definitions/standards/*',
];
const SIGNABLE_1_7 = [...SIGNABLE_1_6, 'citations/*'];

const cyclonedxAddress = (specVersion: string) => `http://cyclonedx.org/schema/bom-${specVersion}.schema.json`;

const CYCLONEDX_1_2 = {
  family: 'cyclonedx',
  bomFormats: ['CycloneDX'],
  versionRequired: true,
  componentVersionRequired: true,
  bomLinks: false,
  signable: [],
  toolsAsComponents: false,
  rootProperties: false,
  componentAuthors: false,
  licenseExpressionAlone: false,
} as const;

export const SPEC_FORMATS: readonly SpecFormat[] = [
  {
    ...CYCLONEDX_1_2,
    id: 'cyclonedx-1.2',
    specVersion: '1.2',
    baseSchema: 'bom-1.2-strict.SNAPSHOT.schema.json',
    // The official schemas list the plain address and "bom-1.2a" (their $id says "bom-1.2b").
    schemaEnum: [cyclonedxAddress('1.2'), cyclonedxAddress('1.2a')],
    schemaVariants: ['bom-1.2.SNAPSHOT.schema.json', 'bom-1.2-strict.SNAPSHOT.schema.json'],
    schemaAddress: cyclonedxAddress('1.2'),
  },
  {
    ...CYCLONEDX_1_2,
    id: 'cyclonedx-1.3',
    specVersion: '1.3',
    baseSchema: 'bom-1.3-strict.SNAPSHOT.schema.json',
    schemaEnum: [cyclonedxAddress('1.3')],
    schemaVariants: ['bom-1.3.SNAPSHOT.schema.json', 'bom-1.3-strict.SNAPSHOT.schema.json'],
    schemaAddress: cyclonedxAddress('1.3'),
  },
  {
    ...CYCLONEDX_1_2,
    id: 'cyclonedx-1.4',
    specVersion: '1.4',
    baseSchema: 'bom-1.4.SNAPSHOT.schema.json',
    schemaEnum: [cyclonedxAddress('1.4')],
    schemaVariants: ['bom-1.4.SNAPSHOT.schema.json'],
    schemaAddress: cyclonedxAddress('1.4'),
    componentVersionRequired: false,
    signable: SIGNABLE_1_4,
  },
  {
    ...CYCLONEDX_1_2,
    id: 'cyclonedx-1.5',
    specVersion: '1.5',
    baseSchema: 'bom-1.5.SNAPSHOT.schema.json',
    schemaEnum: [cyclonedxAddress('1.5')],
    schemaVariants: ['bom-1.5.SNAPSHOT.schema.json'],
    schemaAddress: cyclonedxAddress('1.5'),
    versionRequired: false,
    componentVersionRequired: false,
    bomLinks: true,
    signable: SIGNABLE_1_5,
    toolsAsComponents: true,
    rootProperties: true,
    licenseExpressionAlone: true,
  },
  {
    ...CYCLONEDX_1_2,
    id: 'cyclonedx-1.6',
    specVersion: '1.6',
    baseSchema: 'bom-1.6.SNAPSHOT.schema.json',
    schemaVariants: ['bom-1.6.SNAPSHOT.schema.json'],
    schemaAddress: cyclonedxAddress('1.6'),
    versionRequired: false,
    componentVersionRequired: false,
    bomLinks: true,
    signable: SIGNABLE_1_6,
    toolsAsComponents: true,
    rootProperties: true,
    componentAuthors: true,
    licenseExpressionAlone: true,
  },
  {
    ...CYCLONEDX_1_2,
    id: 'cyclonedx-1.7',
    specVersion: '1.7',
    baseSchema: 'bom-1.7.SNAPSHOT.schema.json',
    schemaVariants: ['bom-1.7.SNAPSHOT.schema.json'],
    schemaAddress: cyclonedxAddress('1.7'),
    versionRequired: false,
    componentVersionRequired: false,
    bomLinks: true,
    signable: SIGNABLE_1_7,
    toolsAsComponents: true,
    rootProperties: true,
    componentAuthors: true,
  },
  {
    ...CYCLONEDX_1_2,
    id: 'cbom-1.4-cbom-1.0',
    family: 'cbom',
    bomFormats: ['CBOM', 'CycloneDX'],
    specVersion: '1.4-cbom-1.0',
    baseSchema: 'bom-1.4.SNAPSHOT.schema.json',
    overlay: 'cbom-1.4-cbom-1.0.overlay.json',
    schemaEnum: [CBOM_SCHEMA_ADDRESS],
    // IBM's CBOM schema names itself by this address; the CycloneDX 1.4 schema it extends does not apply.
    schemaVariants: [],
    schemaAddress: CBOM_SCHEMA_ADDRESS,
    componentVersionRequired: false,
    signable: SIGNABLE_1_4,
  },
];

/** The version `init` writes for each family when none is asked for. */
export const DEFAULT_SPEC_VERSION: Readonly<Record<SpecFormat['family'], string>> = {
  cyclonedx: '1.6',
  cbom: '1.4-cbom-1.0',
};

export const CBOM_SPEC_VERSION_FORM = /^\d+\.\d+-cbom-\d+\.\d+$/;

export function supportedVersionsText(): string {
  return SPEC_FORMATS.map((f) => f.specVersion).join(', ');
}

export function findFormatBySpecVersion(specVersion: string): SpecFormat | undefined {
  return SPEC_FORMATS.find((f) => f.specVersion === specVersion);
}
