import { describe, expect, it } from 'vitest';
import { init as initDocument, SPEC_FORMATS, validate } from '../../src/index.js';
import { componentFromPackageJson, npmPurl } from '../../src/author/init.js';
import { counting } from './fixtures.js';
import { expectErrorCode } from '../helpers.js';

const NOW = new Date('2026-03-04T05:06:07.891Z');
const V4 = /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PACKAGE = {
  name: '@acme/web-app',
  version: '2.1.0',
  description: 'The web app',
  license: 'MIT OR Apache-2.0',
  homepage: 'https://acme.example/web-app',
  repository: 'github:acme/web-app',
};

describe('initDocument', () => {
  it.each(SPEC_FORMATS.map((f) => [f.specVersion]))('%s: a new document validates cleanly', async (specVersion) => {
    const bare = initDocument({ specVersion, toolVersion: '0.1.0' });
    expect(await validate(bare)).toMatchObject({ errors: 0, warnings: 0 });
    const full = initDocument({
      specVersion,
      toolVersion: '0.1.0',
      now: NOW,
      random: counting,
      component: { name: 'app', version: '1.0.0', licenses: ['mit', 'Proprietary'], description: 'An app' },
    });
    expect(await validate(full)).toMatchObject({ errors: 0, warnings: 0 });
    const fromPackage = initDocument({ specVersion, toolVersion: '0.1.0', packageJson: PACKAGE });
    expect(await validate(fromPackage)).toMatchObject({ errors: 0, warnings: 0 });
  });

  it.each([
    [{}, 'CycloneDX', '1.6'],
    [{ format: 'cbom' as const }, 'CBOM', '1.4-cbom-1.0'],
    [{ specVersion: '1.4-cbom-1.0' }, 'CBOM', '1.4-cbom-1.0'],
    [{ specVersion: '1.7' }, 'CycloneDX', '1.7'],
  ])('chooses the format and version from %j', (options, bomFormat, specVersion) => {
    expect(initDocument({ ...options, toolVersion: '1' })).toMatchObject({ bomFormat, specVersion, version: 1 });
  });

  it('writes identity, a seconds-precision timestamp and bomwright as the tool', () => {
    const doc = initDocument({ toolVersion: '0.1.0', now: NOW, random: counting });
    expect(doc).toEqual({
      $schema: 'http://cyclonedx.org/schema/bom-1.6.schema.json',
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      serialNumber: 'urn:uuid:00010203-0405-4607-8809-0a0b0c0d0e0f',
      version: 1,
      metadata: {
        timestamp: '2026-03-04T05:06:07Z',
        tools: { components: [{ type: 'application', name: 'bomwright', version: '0.1.0' }] },
      },
    });
  });

  it.each(['1.2', '1.3', '1.4', '1.4-cbom-1.0'])('%s names the tool in the list form', (specVersion) => {
    const doc = initDocument({ specVersion, toolVersion: '0.1.0' });
    expect((doc.metadata as Record<string, unknown>).tools).toEqual([
      { vendor: 'bomwright', name: 'bomwright', version: '0.1.0' },
    ]);
  });

  it('makes RFC 4122 version-4 serial numbers, random or from the given bytes', () => {
    const a = initDocument({ toolVersion: '1' }).serialNumber as string;
    const b = initDocument({ toolVersion: '1' }).serialNumber as string;
    expect(a).toMatch(V4);
    expect(a).not.toBe(b);
    const ones = initDocument({ toolVersion: '1', random: (n) => new Uint8Array(n).fill(0xff) });
    expect(ones.serialNumber).toBe('urn:uuid:ffffffff-ffff-4fff-bfff-ffffffffffff');
    expect(initDocument({ toolVersion: '1', random: (n) => new Uint8Array(n) }).serialNumber).toMatch(V4);
  });

  it('derives the component from a package.json', () => {
    const doc = initDocument({ toolVersion: '1', packageJson: PACKAGE });
    expect((doc.metadata as Record<string, unknown>).component).toEqual({
      type: 'application',
      'bom-ref': 'pkg:npm/%40acme/web-app@2.1.0',
      group: '@acme',
      name: 'web-app',
      version: '2.1.0',
      description: 'The web app',
      licenses: [{ expression: 'MIT OR Apache-2.0' }],
      purl: 'pkg:npm/%40acme/web-app@2.1.0',
      externalReferences: [
        { type: 'website', url: 'https://acme.example/web-app' },
        { type: 'vcs', url: 'https://github.com/acme/web-app' },
      ],
    });
  });

  it('reads package.json variants and lets explicit component fields win', () => {
    expect(
      componentFromPackageJson({
        name: 'tool',
        version: '1.0.0+build.5',
        license: { type: 'ISC' },
        repository: { type: 'git', url: 'git@github.com:acme/tool.git' },
        homepage: 'not a url',
      }),
    ).toEqual({
      type: 'application',
      name: 'tool',
      version: '1.0.0+build.5',
      purl: 'pkg:npm/tool@1.0.0%2Bbuild.5',
      licenses: ['ISC'],
      externalReferences: [{ type: 'vcs', url: 'git+ssh://git@github.com/acme/tool.git' }],
    });
    expect(componentFromPackageJson({ name: 'x', license: 'UNLICENSED' })).toEqual({
      type: 'application',
      name: 'x',
      purl: 'pkg:npm/x',
    });
    const doc = initDocument({
      toolVersion: '1',
      packageJson: { name: 'tool', version: '1.0.0' },
      component: { type: 'library', 'bom-ref': 'root' },
    });
    expect((doc.metadata as Record<string, unknown>).component).toMatchObject({
      type: 'library',
      'bom-ref': 'root',
      name: 'tool',
      purl: 'pkg:npm/tool@1.0.0',
    });
    expect(npmPurl('@s/n', '1')).toBe('pkg:npm/%40s/n@1');
  });

  it("a version given over the package.json's is the purl's and the bom-ref's too; a purl given is kept", () => {
    const component = (c: object) =>
      (
        initDocument({ toolVersion: '1', packageJson: { name: '@acme/w', version: '1.0.0' }, component: c })
          .metadata as Record<string, unknown>
      ).component;
    expect(component({ version: '9.9.9' })).toMatchObject({
      'bom-ref': 'pkg:npm/%40acme/w@9.9.9',
      version: '9.9.9',
      purl: 'pkg:npm/%40acme/w@9.9.9',
    });
    // The package.json's own version: unchanged.
    expect(component({})).toMatchObject({ 'bom-ref': 'pkg:npm/%40acme/w@1.0.0', purl: 'pkg:npm/%40acme/w@1.0.0' });
    expect(component({ version: '9.9.9', purl: 'pkg:npm/%40acme/w@9.9.9?x=1' })).toMatchObject({
      purl: 'pkg:npm/%40acme/w@9.9.9?x=1',
    });
  });

  it('generates the bom-ref from the purl, else name@version', () => {
    const component = (c: object) =>
      (initDocument({ toolVersion: '1', component: c }).metadata as Record<string, unknown>).component;
    expect(component({ name: 'a', version: '1' })).toMatchObject({ 'bom-ref': 'a@1', type: 'application' });
    expect(component({ name: 'a', purl: 'pkg:generic/a@1' })).toMatchObject({ 'bom-ref': 'pkg:generic/a@1' });
    expect(component({ name: 'a' })).toMatchObject({ 'bom-ref': 'a' });
  });

  it('refuses bad requests', () => {
    expectErrorCode(() => initDocument({ specVersion: '2.0', toolVersion: '1' }), 'E_USAGE');
    expectErrorCode(() => initDocument({ format: 'cbom', specVersion: '1.6', toolVersion: '1' }), 'E_USAGE');
    expectErrorCode(
      () => initDocument({ format: 'cyclonedx', specVersion: '1.4-cbom-1.0', toolVersion: '1' }),
      'E_USAGE',
    );
    expectErrorCode(() => initDocument({ toolVersion: '' }), 'E_USAGE');
    expectErrorCode(() => initDocument({ toolVersion: '1', component: { version: '1' } }), 'E_USAGE');
    expectErrorCode(() => initDocument({ toolVersion: '1', packageJson: {} }), 'E_USAGE');
    // 1.2 and 1.3 require a component version.
    expectErrorCode(
      () => initDocument({ specVersion: '1.3', toolVersion: '1', packageJson: { name: 'x' } }),
      'E_USAGE',
    );
    expectErrorCode(() => initDocument({ toolVersion: '1', now: new Date('nope') }), 'E_USAGE');
    // 1.5 and 1.6 allow one expression or a list of licences, never both.
    expectErrorCode(
      () =>
        initDocument({ specVersion: '1.5', toolVersion: '1', component: { name: 'a', licenses: ['MIT', 'A OR B'] } }),
      'E_USAGE',
    );
  });
});
