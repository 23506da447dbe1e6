import { generateKeyPairSync } from 'node:crypto';
import { parseKeyMaterial, verify as verifyDocument, type KeyMaterial } from '../../src/index.js';
import { signDocument } from '../../src/jsf/sign-document.js';

/** An ES256 signing key, made once per test file. */
export function testKey(): KeyMaterial {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return parseKeyMaterial(privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, 'test')[0]!;
}

export function sign(document: unknown, key: KeyMaterial, targets: string[] = ['all']): Record<string, unknown> {
  return signDocument(document, { key, targets }) as Record<string, unknown>;
}

/** Verdicts of every signer in the document. */
export function verdicts(document: unknown): string[] {
  return verifyDocument(document).reports.map((r) => `${r.pointer} ${r.verdict}`);
}

/** Deterministic "random" bytes: 0, 1, 2, … */
export const counting = (n: number) => Uint8Array.from({ length: n }, (_, i) => i);

type GenerateBom = (
  n: number,
  options?: { specVersion?: string; seed?: number; rich?: boolean },
) => Record<string, unknown>;

/** bench/generate.js's generateBom, typed (the script has no declaration file for a static import). */
export async function loadGenerateBom(): Promise<GenerateBom> {
  const module = (await import(new URL('../../bench/generate.js', import.meta.url).href)) as {
    generateBom: GenerateBom;
  };
  return module.generateBom;
}

/** A small valid 1.6 document with nested components, services and dependencies. */
export function sampleBom(): Record<string, unknown> {
  return {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
    version: 3,
    metadata: {
      timestamp: '2026-01-01T00:00:00Z',
      component: { type: 'application', 'bom-ref': 'app', name: 'app', version: '1.0.0' },
    },
    components: [
      {
        type: 'library',
        'bom-ref': 'pkg:npm/left-pad@1.3.0',
        name: 'left-pad',
        version: '1.3.0',
        purl: 'pkg:npm/left-pad@1.3.0',
        hashes: [
          { alg: 'SHA-512', content: 'b'.repeat(128) },
          { alg: 'SHA-256', content: 'a'.repeat(64) },
        ],
        licenses: [{ license: { id: 'MIT' } }],
      },
      {
        type: 'framework',
        'bom-ref': 'pkg:npm/express@4.18.2',
        name: 'express',
        version: '4.18.2',
        purl: 'pkg:npm/express@4.18.2',
        components: [
          { type: 'library', 'bom-ref': 'pkg:npm/send@0.18.0', name: 'send', version: '0.18.0' },
          { type: 'library', 'bom-ref': 'pkg:npm/body-parser@1.20.1', name: 'body-parser', version: '1.20.1' },
        ],
      },
    ],
    services: [{ 'bom-ref': 'api@1', name: 'api', version: '1' }],
    dependencies: [
      { ref: 'app', dependsOn: ['pkg:npm/left-pad@1.3.0', 'pkg:npm/express@4.18.2'] },
      { ref: 'pkg:npm/express@4.18.2', dependsOn: ['pkg:npm/send@0.18.0', 'pkg:npm/body-parser@1.20.1'] },
    ],
  };
}
