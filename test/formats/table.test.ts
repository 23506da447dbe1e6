import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CBOM_SCHEMA_ADDRESS,
  CBOM_SPEC_VERSION_FORM,
  DEFAULT_SPEC_VERSION,
  SPEC_FORMATS,
} from '../../src/formats/formats.js';
import { ROOT } from '../helpers.js';

const SCHEMA_DIR = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@cyclonedx/cyclonedx-library/package.json')),
  'res/schema',
);
const address = (v: string) => `http://cyclonedx.org/schema/bom-${v}.schema.json`;

/** What each version can do, written out from the CycloneDX and CBOM specifications. */
const CAPABILITIES = {
  'cyclonedx-1.2': {
    versionRequired: true,
    componentVersionRequired: true,
    bomLinks: false,
    toolsAsComponents: false,
    rootProperties: false,
    componentAuthors: false,
    licenseExpressionAlone: false,
  },
  'cyclonedx-1.3': {
    versionRequired: true,
    componentVersionRequired: true,
    bomLinks: false,
    toolsAsComponents: false,
    rootProperties: false,
    componentAuthors: false,
    licenseExpressionAlone: false,
  },
  'cyclonedx-1.4': {
    versionRequired: true,
    componentVersionRequired: false,
    bomLinks: false,
    toolsAsComponents: false,
    rootProperties: false,
    componentAuthors: false,
    licenseExpressionAlone: false,
  },
  'cyclonedx-1.5': {
    versionRequired: false,
    componentVersionRequired: false,
    bomLinks: true,
    toolsAsComponents: true,
    rootProperties: true,
    componentAuthors: false,
    licenseExpressionAlone: true,
  },
  'cyclonedx-1.6': {
    versionRequired: false,
    componentVersionRequired: false,
    bomLinks: true,
    toolsAsComponents: true,
    rootProperties: true,
    componentAuthors: true,
    licenseExpressionAlone: true,
  },
  'cyclonedx-1.7': {
    versionRequired: false,
    componentVersionRequired: false,
    bomLinks: true,
    toolsAsComponents: true,
    rootProperties: true,
    componentAuthors: true,
    licenseExpressionAlone: false,
  },
  'cbom-1.4-cbom-1.0': {
    versionRequired: true,
    componentVersionRequired: false,
    bomLinks: false,
    toolsAsComponents: false,
    rootProperties: false,
    componentAuthors: false,
    licenseExpressionAlone: false,
  },
} as const;

const SIGNABLE_1_4 = [
  '',
  'metadata/component',
  'metadata/component/components/**',
  'components/**',
  'services/**',
  'compositions/*',
];
const SIGNABLE_1_6 = [
  ...SIGNABLE_1_4,
  'annotations/*',
  'declarations',
  'declarations/attestations/*',
  'declarations/claims/*',
  'declarations/evidence/*',
  'declarations/affirmation',
  'declarations/affirmation/signatories/*',
  'definitions/standards/*',
];
const SIGNABLE: Record<string, string[]> = {
  'cyclonedx-1.2': [],
  'cyclonedx-1.3': [],
  'cyclonedx-1.4': SIGNABLE_1_4,
  'cyclonedx-1.5': [...SIGNABLE_1_4, 'annotations/*'],
  'cyclonedx-1.6': SIGNABLE_1_6,
  'cyclonedx-1.7': [...SIGNABLE_1_6, 'citations/*'],
  'cbom-1.4-cbom-1.0': SIGNABLE_1_4,
};

describe('the format table', () => {
  it('holds every supported version with its capabilities and signable places', () => {
    expect(SPEC_FORMATS.map((f) => f.id)).toEqual(Object.keys(CAPABILITIES));
    for (const format of SPEC_FORMATS) {
      const {
        versionRequired,
        componentVersionRequired,
        bomLinks,
        toolsAsComponents,
        rootProperties,
        componentAuthors,
        licenseExpressionAlone,
      } = format;
      expect(
        {
          versionRequired,
          componentVersionRequired,
          bomLinks,
          toolsAsComponents,
          rootProperties,
          componentAuthors,
          licenseExpressionAlone,
        },
        format.id,
      ).toEqual(CAPABILITIES[format.id as keyof typeof CAPABILITIES]);
      expect([...format.signable], format.id).toEqual(SIGNABLE[format.id]);
    }
    expect(DEFAULT_SPEC_VERSION).toEqual({ cyclonedx: '1.6', cbom: '1.4-cbom-1.0' });
  });

  it('names schema files that exist in the library, with the addresses the official schemas use', () => {
    const expected: Record<
      string,
      { base: string; variants: string[]; address: string; enum?: string[]; family: string; bomFormats: string[] }
    > = {
      'cyclonedx-1.2': {
        base: 'bom-1.2-strict.SNAPSHOT.schema.json',
        variants: ['bom-1.2.SNAPSHOT.schema.json', 'bom-1.2-strict.SNAPSHOT.schema.json'],
        address: address('1.2'),
        enum: [address('1.2'), address('1.2a')],
        family: 'cyclonedx',
        bomFormats: ['CycloneDX'],
      },
      'cyclonedx-1.3': {
        base: 'bom-1.3-strict.SNAPSHOT.schema.json',
        variants: ['bom-1.3.SNAPSHOT.schema.json', 'bom-1.3-strict.SNAPSHOT.schema.json'],
        address: address('1.3'),
        enum: [address('1.3')],
        family: 'cyclonedx',
        bomFormats: ['CycloneDX'],
      },
      'cyclonedx-1.4': {
        base: 'bom-1.4.SNAPSHOT.schema.json',
        variants: ['bom-1.4.SNAPSHOT.schema.json'],
        address: address('1.4'),
        enum: [address('1.4')],
        family: 'cyclonedx',
        bomFormats: ['CycloneDX'],
      },
      'cyclonedx-1.5': {
        base: 'bom-1.5.SNAPSHOT.schema.json',
        variants: ['bom-1.5.SNAPSHOT.schema.json'],
        address: address('1.5'),
        enum: [address('1.5')],
        family: 'cyclonedx',
        bomFormats: ['CycloneDX'],
      },
      'cyclonedx-1.6': {
        base: 'bom-1.6.SNAPSHOT.schema.json',
        variants: ['bom-1.6.SNAPSHOT.schema.json'],
        address: address('1.6'),
        family: 'cyclonedx',
        bomFormats: ['CycloneDX'],
      },
      'cyclonedx-1.7': {
        base: 'bom-1.7.SNAPSHOT.schema.json',
        variants: ['bom-1.7.SNAPSHOT.schema.json'],
        address: address('1.7'),
        family: 'cyclonedx',
        bomFormats: ['CycloneDX'],
      },
      'cbom-1.4-cbom-1.0': {
        base: 'bom-1.4.SNAPSHOT.schema.json',
        variants: [],
        address: CBOM_SCHEMA_ADDRESS,
        enum: [CBOM_SCHEMA_ADDRESS],
        family: 'cbom',
        bomFormats: ['CBOM', 'CycloneDX'],
      },
    };
    for (const format of SPEC_FORMATS) {
      const want = expected[format.id]!;
      expect(
        {
          base: format.baseSchema,
          variants: format.schemaVariants,
          address: format.schemaAddress,
          enum: format.schemaEnum,
          family: format.family,
          bomFormats: format.bomFormats,
        },
        format.id,
      ).toEqual(want);
      for (const file of [format.baseSchema, ...format.schemaVariants])
        expect(existsSync(path.join(SCHEMA_DIR, file)), file).toBe(true);
      const base = JSON.parse(readFileSync(path.join(SCHEMA_DIR, format.baseSchema), 'utf8')) as {
        properties: { specVersion?: unknown };
      };
      expect(base.properties.specVersion, format.id).toBeDefined();
    }
    const cbom = SPEC_FORMATS.find((f) => f.family === 'cbom')!;
    expect(cbom.overlay).toBe('cbom-1.4-cbom-1.0.overlay.json');
    expect(existsSync(path.join(ROOT, 'schema', cbom.overlay!))).toBe(true);
    expect(SPEC_FORMATS.filter((f) => f.overlay !== undefined)).toHaveLength(1);
  });

  it('recognises the CBOM spec version form, and nothing more', () => {
    for (const good of ['1.4-cbom-1.0', '10.14-cbom-12.30']) expect(CBOM_SPEC_VERSION_FORM.test(good), good).toBe(true);
    for (const bad of ['1.4-cbom-1.0x', 'x1.4-cbom-1.0', '1-cbom-1.0', '1.4-cbom-1', '1.4-CBOM-1.0', '1.4-cbom-1.'])
      expect(CBOM_SPEC_VERSION_FORM.test(bad), bad).toBe(false);
  });
});
