/**
 * IBM CBOM 1.4-cbom-1.0 to CycloneDX (1.6, where CBOM's crypto model was upstreamed, and from there to any version):
 * each difference the reference notes list (cbom.md §4), on both sides of each boundary, and a real CBOM written
 * by a generator (Santander's cryptobom-forge; test/fixtures/cbom/SOURCES.md).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertVersion } from '../../src/author/convert.js';
import { validate } from '../../src/index.js';
import { ROOT, SAMPLES } from '../helpers.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const load = (file: string): Json => JSON.parse(readFileSync(file, 'utf8')) as Json;
const FORGE = path.join(ROOT, 'test/fixtures/cbom/cryptobom-forge-cbom-full-1.4-cbom-1.0.json');

/** A CBOM with the components given (the bom-refs c0, c1, … and a root depending on none). */
function cbom(components: Json[], dependencies?: Json[]): Json {
  return {
    bomFormat: 'CBOM',
    specVersion: '1.4-cbom-1.0',
    serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
    version: 1,
    components: components.map((c, i) => ({ 'bom-ref': `c${i}`, name: `c${i}`, type: 'crypto-asset', ...c })),
    ...(dependencies === undefined ? {} : { dependencies }),
  };
}

/** One crypto asset's cryptoProperties converted to 1.6, and what was said about them. */
function crypto(properties: Json) {
  const result = convertVersion(cbom([{ cryptoProperties: properties }]), '1.6');
  const component = result.document.components as Json[];
  return {
    properties: component[0]!.cryptoProperties as Json | undefined,
    component: component[0]!,
    dropped: result.dropped.map((d) => d.pointer),
    converted: result.converted,
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

async function errorsOf(document: unknown): Promise<string[]> {
  const result = await validate(document as object, { signatures: 'ignore' });
  return result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.pointer} ${d.message}`);
}

describe('a real CBOM (cryptobom-forge) as CycloneDX', () => {
  const source = load(FORGE);

  it('is valid CycloneDX 1.6, with every asset, edge and detection kept in 1.6’s terms', async () => {
    const { document, dropped } = convertVersion(source, '1.6');
    expect(await errorsOf(document)).toEqual([]);
    expect([document.bomFormat, document.specVersion, document.$schema]).toEqual([
      'CycloneDX',
      '1.6',
      'http://cyclonedx.org/schema/bom-1.6.schema.json',
    ]);
    const components = document.components as Json[];
    expect(components.map((c) => c.type)).toEqual(Array(source.components.length).fill('cryptographic-asset'));
    expect(components.map((c) => c['bom-ref'])).toEqual(source.components.map((c: Json) => c['bom-ref']));
    expect(document.dependencies).toEqual(source.dependencies);
    // Each detection context is an occurrence: its file, from its first line.
    expect(components[0]!.evidence.occurrences).toEqual([
      {
        location: 'springfield-nuclear-power-plant/core-reactor.py',
        line: 28,
        additionalContext: source.components[0].cryptoProperties.detectionContext[0].additionalContext,
      },
    ]);
    expect(components[0]!.cryptoProperties).toEqual({
      assetType: 'related-crypto-material',
      relatedCryptoMaterialProperties: { type: 'private-key', size: 2048 },
    });
    expect(components[1]!.cryptoProperties.algorithmProperties).toEqual({
      cryptoFunctions: ['encrypt', 'generate'],
      mode: 'cbc',
      padding: 'unknown',
      primitive: 'block-cipher',
    });
    expect(dropped.map((d) => d.pointer)).toEqual([
      '/components/1/cryptoProperties/algorithmProperties/variant',
      '/components/2/cryptoProperties/algorithmProperties/variant',
      '/components/3/cryptoProperties/algorithmProperties/variant',
      '/components/4/cryptoProperties/algorithmProperties/variant',
      '/components/5/cryptoProperties/certificateProperties/certificateAlgorithm',
      '/components/5/cryptoProperties/certificateProperties/certificateSignatureAlgorithm',
    ]);
  });

  it('goes on to 1.7 valid, and to 1.5 with the crypto assets’ properties dropped and listed', async () => {
    const up = convertVersion(source, '1.7');
    expect(await errorsOf(up.document)).toEqual([]);
    expect(up.document.specVersion).toBe('1.7');
    const down = convertVersion(source, '1.5');
    expect(await errorsOf(down.document)).toEqual([]);
    expect(down.dropped.map((d) => d.pointer)).toContain('/components/0/cryptoProperties');
  });

  it('leaves its input as it was', () => {
    const frozen = deepFreeze(load(FORGE));
    expect(() => convertVersion(frozen, '1.6')).not.toThrow();
    expect(frozen).toEqual(source);
  });

  it('the bundled sample with every CBOM feature converts valid, implements and uses as provides and dependsOn', async () => {
    const sample = load(path.join(SAMPLES, 'valid-full-1.4-cbom-1.0.json'));
    const { document } = convertVersion(sample, '1.6');
    expect(await errorsOf(document)).toEqual([]);
    for (const entry of document.dependencies as Json[]) expect(entry).not.toHaveProperty('dependencyType');
    const refs = (document.dependencies as Json[]).map((d) => d.ref);
    expect(new Set(refs).size).toBe(refs.length);
  });
});

describe('each difference, on both sides', () => {
  it('the type: crypto-asset becomes cryptographic-asset; another type stays', () => {
    const { document } = convertVersion(cbom([{}, { type: 'library' }]), '1.6');
    expect((document.components as Json[]).map((c) => c.type)).toEqual(['cryptographic-asset', 'library']);
  });

  it('assetType: kebab-case, and inferred from the one kind of properties given, else the properties are dropped', () => {
    expect(crypto({ assetType: 'relatedCryptoMaterial' }).properties).toEqual({ assetType: 'related-crypto-material' });
    expect(crypto({ assetType: 'protocol' }).properties).toEqual({ assetType: 'protocol' });
    const inferred = crypto({ certificateProperties: { subjectName: 'CN=x' } });
    expect(inferred.properties).toEqual({ assetType: 'certificate', certificateProperties: { subjectName: 'CN=x' } });
    expect(inferred.converted).toContainEqual({
      pointer: '/components/0/cryptoProperties/assetType',
      from: undefined,
      to: 'certificate',
    });
    for (const ambiguous of [{ oid: '1.2.3' }, { algorithmProperties: {}, certificateProperties: {} }]) {
      const none = crypto(ambiguous);
      expect(none.properties).toBeUndefined();
      expect(none.dropped).toContain('/components/0/cryptoProperties');
    }
  });

  it('algorithm: primitives, the execution environment and certification levels in 1.6’s spelling', () => {
    const spelled = (algorithmProperties: Json) => crypto({ assetType: 'algorithm', algorithmProperties });
    expect(spelled({ primitive: 'blockcipher' }).properties!.algorithmProperties).toEqual({
      primitive: 'block-cipher',
    });
    expect(spelled({ primitive: 'streamcipher' }).properties!.algorithmProperties).toEqual({
      primitive: 'stream-cipher',
    });
    expect(spelled({ primitive: 'keyagree' }).properties!.algorithmProperties).toEqual({ primitive: 'key-agree' });
    expect(spelled({ primitive: 'hash' }).properties!.algorithmProperties).toEqual({ primitive: 'hash' });
    expect(spelled({ implementationLevel: 'softwareTee' }).properties!.algorithmProperties).toEqual({
      executionEnvironment: 'software-tee',
    });
    expect(spelled({ implementationLevel: 'hardware' }).properties!.algorithmProperties).toEqual({
      executionEnvironment: 'hardware',
    });
    const level = (certificationLevel: string) => spelled({ certificationLevel });
    expect(level('none').properties!.algorithmProperties).toEqual({ certificationLevel: ['none'] });
    expect(level('fips140-3-l4').properties!.algorithmProperties).toEqual({ certificationLevel: ['fips140-3-l4'] });
    expect(level('eal1').properties!.algorithmProperties).toEqual({ certificationLevel: ['cc-eal1'] });
    expect(level('eal7').properties!.algorithmProperties).toEqual({ certificationLevel: ['cc-eal7'] });
    for (const gone of ['fips140-3-l5', 'fips140-2-l5', 'eal8', 'eal0'])
      expect(level(gone).dropped, gone).toEqual([
        '/components/0/cryptoProperties/algorithmProperties/certificationLevel',
      ]);
    expect(spelled({ variant: 'AES-128-GCM', mode: 'gcm' }).properties!.algorithmProperties).toEqual({ mode: 'gcm' });
  });

  it('security levels move into algorithmProperties, before or after them; on another asset they are dropped', () => {
    const levelsFirst = crypto({
      classicalSecurityLevel: 128,
      nistQuantumSecurityLevel: 0,
      assetType: 'algorithm',
      algorithmProperties: { primitive: 'ae' },
    });
    expect(levelsFirst.properties).toEqual({
      assetType: 'algorithm',
      algorithmProperties: { primitive: 'ae', classicalSecurityLevel: 128, nistQuantumSecurityLevel: 0 },
    });
    expect(crypto({ assetType: 'algorithm', nistQuantumSecurityLevel: 6 }).properties).toEqual({
      assetType: 'algorithm',
      algorithmProperties: { nistQuantumSecurityLevel: 6 },
    });
    const certificate = crypto({ assetType: 'certificate', classicalSecurityLevel: 112 });
    expect(certificate.properties).toEqual({ assetType: 'certificate' });
    expect(certificate.dropped).toEqual(['/components/0/cryptoProperties/classicalSecurityLevel']);
  });

  it('certificate: names of algorithms dropped, the extension renamed, dates kept only as RFC 3339 date-times', () => {
    const { properties, dropped } = crypto({
      assetType: 'certificate',
      certificateProperties: {
        subjectName: 'CN=a',
        notValidBefore: '2024-01-04T09:54:58Z',
        notValidAfter: '2024-02-30',
        certificateAlgorithm: 'RSA',
        certificateExtensions: 'SAN',
      },
    });
    expect(properties!.certificateProperties).toEqual({
      subjectName: 'CN=a',
      notValidBefore: '2024-01-04T09:54:58Z',
      certificateExtension: 'SAN',
    });
    expect(dropped).toEqual([
      '/components/0/cryptoProperties/certificateProperties/notValidAfter',
      '/components/0/cryptoProperties/certificateProperties/certificateAlgorithm',
    ]);
  });

  it('related material: the type in kebab-case, `secured` dropped', () => {
    const { properties, dropped } = crypto({
      assetType: 'relatedCryptoMaterial',
      relatedCryptoMaterialProperties: { relatedCryptoMaterialType: 'initializationVector', secured: true, size: 96 },
    });
    expect(properties!.relatedCryptoMaterialProperties).toEqual({ type: 'initialization-vector', size: 96 });
    expect(dropped).toEqual(['/components/0/cryptoProperties/relatedCryptoMaterialProperties/secured']);
    expect(
      crypto({
        assetType: 'relatedCryptoMaterial',
        relatedCryptoMaterialProperties: { relatedCryptoMaterialType: 'salt' },
      }).properties!.relatedCryptoMaterialProperties,
    ).toEqual({ type: 'salt' });
  });

  it('protocol: named cipher suites as cipherSuites of a TLS protocol, other suites and IKEv2 transforms dropped', async () => {
    const { properties, dropped } = crypto({
      assetType: 'protocol',
      protocolProperties: {
        tlsCipherSuites: ['TLS_AES_128_GCM_SHA256', { id: 1 }, ''],
        ikev2TransformTypes: { transformType1: ['x'] },
      },
    });
    expect(properties!.protocolProperties).toEqual({ cipherSuites: [{ name: 'TLS_AES_128_GCM_SHA256' }], type: 'tls' });
    expect(dropped).toEqual([
      '/components/0/cryptoProperties/protocolProperties/tlsCipherSuites/1',
      '/components/0/cryptoProperties/protocolProperties/tlsCipherSuites/2',
      '/components/0/cryptoProperties/protocolProperties/ikev2TransformTypes',
    ]);
    const none = crypto({ assetType: 'protocol', protocolProperties: { tlsCipherSuites: [] } });
    expect(none.properties!.protocolProperties).toEqual({});
    expect(
      await errorsOf(convertVersion(cbom([{ cryptoProperties: { assetType: 'protocol' } }]), '1.6').document),
    ).toEqual([]);
  });

  it('the scanner and its confidence dropped; detection contexts as occurrences (a context without a file dropped)', () => {
    const { component, dropped } = crypto({
      assetType: 'algorithm',
      scanner: 'codeql',
      confidenceLevels: { assetType: 1 },
      detectionContext: [
        { filePath: 'a.py', lineNumbers: [-1, 7, 9], offsets: [0], symbols: [3, 'f'], keywords: ['k'] },
        { lineNumbers: [1] },
        { filePath: 'b.py' },
      ],
    });
    expect(component.evidence).toEqual({
      occurrences: [{ location: 'a.py', line: 7, offset: 0, symbol: 'f' }, { location: 'b.py' }],
    });
    expect(dropped).toEqual([
      '/components/0/cryptoProperties/detectionContext/1',
      '/components/0/cryptoProperties/scanner',
      '/components/0/cryptoProperties/confidenceLevels',
    ]);
  });

  it('dependencies: implements as provides, uses (or none) as dependsOn, the two entries of a ref as one', async () => {
    const { document, converted } = convertVersion(
      cbom(
        [{}, {}, {}],
        [
          { ref: 'c0', dependsOn: ['c1'], dependencyType: 'implements' },
          { ref: 'c0', dependsOn: ['c2'], dependencyType: 'uses' },
          { ref: 'c1', dependsOn: ['c2'] },
          { ref: 'c2' },
        ],
      ),
      '1.6',
    );
    expect(document.dependencies).toEqual([
      { ref: 'c0', provides: ['c1'], dependsOn: ['c2'] },
      { ref: 'c1', dependsOn: ['c2'] },
      { ref: 'c2' },
    ]);
    expect(converted).toContainEqual({
      pointer: '/dependencies/1',
      from: expect.anything(),
      to: undefined,
      movedTo: '/dependencies/0',
    });
    expect(await errorsOf(document)).toEqual([]);
  });

  it('nested components and the metadata component are converted too', () => {
    const source = cbom([{ type: 'library', components: [{ 'bom-ref': 'n', name: 'n', type: 'crypto-asset' }] }]);
    source.metadata = { component: { name: 'root', type: 'crypto-asset' } };
    const { document } = convertVersion(source, '1.6');
    expect((document.components as Json[])[0]!.components[0].type).toBe('cryptographic-asset');
    expect((document.metadata as Json).component.type).toBe('cryptographic-asset');
  });
});

describe('the generator’s other CBOM', () => {
  it('is invalid as written: validation finds the two references to the component its exclusion pattern left out', async () => {
    const file = path.join(ROOT, 'test/fixtures/cbom/cryptobom-forge-cbom-exclusion-pattern-1.4-cbom-1.0.json');
    const result = await validate(readFileSync(file));
    expect(result.diagnostics.map((d) => `${d.ruleId} ${d.pointer}`)).toEqual([
      'ref/unresolved /dependencies/0/dependsOn/0',
      'ref/unresolved /dependencies/1/ref',
    ]);
  });
});
