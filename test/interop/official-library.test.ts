import { generateKeyPairSync } from 'node:crypto';
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import { describe, expect, it } from 'vitest';
import {
  addComponent,
  addDependency,
  addService,
  bump,
  init,
  normalize,
  parseKeyMaterial,
  setMetadata,
  SPEC_FORMATS,
  validate,
} from '../../src/index.js';
import { signDocument as sign } from '../../src/jsf/sign-document.js';

/**
 * What bomwright writes, the official CycloneDX library accepts: every document each operation produces, for
 * every version it supports, goes through the library's own JsonStrictValidator as well as bomwright's
 * validator. A new operation or version joins the tables below.
 */
const LIBRARY_VERSION: Record<string, Spec.Version | undefined> = {
  '1.2': Spec.Version.v1dot2,
  '1.3': Spec.Version.v1dot3,
  '1.4': Spec.Version.v1dot4,
  '1.5': Spec.Version.v1dot5,
  '1.6': Spec.Version.v1dot6,
  '1.7': Spec.Version.v1dot7,
  // The library has no CBOM schema: it cannot judge 1.4-cbom-1.0 documents; bomwright's validator still does.
  '1.4-cbom-1.0': undefined,
};

const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const key = parseKeyMaterial(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 'key')[0]!;
const NOW = new Date('2026-01-02T03:04:05Z');

type Document = Record<string, unknown>;

/** Each operation, from a document of the version to a new one. */
const OPERATIONS: { name: string; run: (doc: Document, specVersion: string) => Promise<Document> | Document }[] = [
  { name: 'init', run: (doc) => doc },
  {
    name: 'add component',
    run: async (doc) => {
      const r = await addComponent(doc, {
        name: 'left-pad',
        version: '1.3.0',
        purl: 'pkg:npm/left-pad@1.3.0',
        licenses: ['MIT'],
        hashes: [{ alg: 'SHA-256', content: 'a'.repeat(64) }],
      });
      expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      return r.document;
    },
  },
  {
    name: 'add service',
    run: async (doc) =>
      (await addService(doc, { name: 'api', version: '2', endpoints: ['https://api.example.com'] })).document,
  },
  {
    name: 'add dependency',
    run: async (doc) => {
      const withComponent = (await addComponent(doc, { name: 'dep', version: '1.0.0', 'bom-ref': 'dep' })).document;
      const root = ((withComponent.metadata as Document).component as Document)['bom-ref'] as string;
      return (await addDependency(withComponent, { ref: root, dependsOn: ['dep'] })).document;
    },
  },
  {
    name: 'set metadata.supplier',
    run: async (doc) => (await setMetadata(doc, 'supplier', { name: 'ACME', url: ['https://acme.example'] })).document,
  },
  { name: 'bump', run: (doc) => bump(doc, { now: NOW }).document },
  { name: 'normalize', run: (doc) => normalize(doc) },
  {
    name: 'sign (root and components)',
    run: (doc, specVersion) =>
      Number(specVersion.split(/[.-]/)[1]) >= 4 ? (sign(doc, { key, targets: ['all'] }) as Document) : doc,
  },
];

describe('the official library accepts what bomwright writes', () => {
  const validators = new Map<string, Validation.JsonStrictValidator>();
  for (const format of SPEC_FORMATS) {
    const libraryVersion = LIBRARY_VERSION[format.specVersion];
    for (const operation of OPERATIONS) {
      it(`${format.specVersion}: ${operation.name}`, async () => {
        const start = init({
          specVersion: format.specVersion,
          component: { name: 'demo', version: '1.0.0', licenses: ['Apache-2.0'] },
          toolVersion: '0.0.0-test',
          now: NOW,
        });
        // Start from a document with some content, so every operation has something to work on.
        const base = (await addComponent(start, { name: 'base', version: '0.1.0', purl: 'pkg:npm/base@0.1.0' }))
          .document;
        const result = await operation.run(base, format.specVersion);
        const own = await validate(result, { signatures: 'verify' });
        expect(own.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        if (libraryVersion === undefined) return;
        let validator = validators.get(format.specVersion);
        if (validator === undefined) {
          validator = new Validation.JsonStrictValidator(libraryVersion);
          validators.set(format.specVersion, validator);
        }
        expect(await validator.validate(JSON.stringify(result))).toBeNull();
      });
    }
  }
});
