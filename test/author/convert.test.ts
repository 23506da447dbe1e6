/**
 * convertVersion() through the library: each rule with both sides of its boundary (the version that has a member
 * or value, and the one that lacks it), checked on the output and on the lists of what was dropped and converted;
 * every converted document is validated.
 */
import { describe, expect, it } from 'vitest';
import { convertVersion, validate, type VersionConversion } from '../../src/index.js';
import { expectErrorCode } from '../helpers.js';
import { bom, lib } from './merge-fixtures.js';

type Json = Record<string, unknown>;

/** Converts and checks the result is valid for its version. */
async function convert(document: Json, target: string): Promise<VersionConversion> {
  const before = structuredClone(document);
  const result = convertVersion(document, target);
  // Pure: the input is never modified.
  expect(document).toEqual(before);
  const check = await validate(result.document, { signatures: 'ignore' });
  expect(
    check.diagnostics.filter((d) => d.severity === 'error'),
    `${String(document.specVersion)} → ${target}`,
  ).toEqual([]);
  return result;
}

const components = (result: VersionConversion) => result.document.components as Json[];
const metadata = (result: VersionConversion) => result.document.metadata as Json;

describe('members the target lacks: read from its schema', () => {
  it('drops a member the target version does not have, keeps it where it has', async () => {
    const omnibor = ['gitoid:blob:sha1:261eeb9e9f8b2b4b0d119366dda99c6fd7d35c64'];
    const document = bom({ components: [lib('x', '1', { omniborId: omnibor })] }, '1.6');
    const down = await convert(document, '1.5');
    expect(components(down)[0]).toEqual(lib('x', '1'));
    expect(down.dropped).toEqual([{ pointer: '/components/0/omniborId', reason: 'CycloneDX 1.5 has no such member' }]);
    const across = await convert(document, '1.7');
    expect(components(across)[0]!.omniborId).toEqual(omnibor);
    expect(across.dropped).toEqual([]);
  });

  it('drops a value the target enum lacks (1.5+ values do not survive down to 1.4)', async () => {
    const reference = { type: 'source-distribution', url: 'https://example.com/x.tgz' };
    const document = bom({ components: [lib('x', '1', { externalReferences: [reference] })] }, '1.5');
    const down = await convert(document, '1.4');
    expect(components(down)[0]!.externalReferences).toBeUndefined();
    expect(down.dropped).toEqual([
      {
        pointer: '/components/0/externalReferences/0',
        reason: 'CycloneDX 1.4 has no value source-distribution here (at /components/0/externalReferences/0/type)',
      },
    ]);
    const kept = await convert(document, '1.6');
    expect(components(kept)[0]!.externalReferences).toEqual([reference]);
  });

  it('drops an element the target cannot carry, and every reference to it', async () => {
    const data = { type: 'data', 'bom-ref': 'set', name: 'training set' };
    const document = bom(
      {
        components: [lib('x', '1'), data],
        dependencies: [
          { ref: 'x@1', dependsOn: ['set'] },
          { ref: 'set', dependsOn: [] },
        ],
      },
      '1.5',
    );
    const down = await convert(document, '1.4');
    expect(components(down)).toEqual([lib('x', '1')]);
    // The list that named only the dropped element goes: an empty one would say "no dependencies".
    expect(down.document.dependencies).toEqual([{ ref: 'x@1' }]);
    expect(down.dropped.map((d) => d.pointer)).toEqual([
      '/components/1',
      '/dependencies/0/dependsOn/0',
      '/dependencies/1',
    ]);
    expect(down.dropped[1]!.reason).toBe('it refers to "set", an element the conversion drops');
    const kept = await convert(document, '1.5');
    expect(kept.document).toEqual(document);
    expect(kept.dropped).toEqual([]);
  });
});

describe('branches that require a member', () => {
  it('an item that loses the member its form requires is dropped whole, not left empty', async () => {
    // 1.2–1.4 require the licence or the expression in the branches of an item whose members are optional: an
    // item whose licence the target cannot take has neither form left, so the item goes.
    const document = bom({ components: [lib('x', '1', { licenses: [{ license: ['MIT'] }] })] }, '1.4');
    const result = convertVersion(document, '1.4');
    expect(components(result)[0]!.licenses).toBeUndefined();
    expect(result.dropped.map((d) => d.pointer)).toEqual([
      '/components/0/licenses/0/license',
      '/components/0/licenses/0',
    ]);
    expect((await validate(result.document)).valid).toBe(true);
  });
});

describe('values converted where the specification says how', () => {
  it('1.4 licence expressions (trivy) become the one expression 1.5 and 1.6 take, never {}', async () => {
    const licenses = [{ expression: 'MIT' }, { expression: 'Apache-2.0 OR BSD-3-Clause' }, { license: { id: 'ISC' } }];
    const document = bom({ components: [lib('x', '1', { licenses })] }, '1.4');
    for (const target of ['1.5', '1.6']) {
      const up = await convert(document, target);
      expect(components(up)[0]!.licenses).toEqual([{ expression: 'MIT AND (Apache-2.0 OR BSD-3-Clause) AND ISC' }]);
      expect(up.converted).toContainEqual({
        pointer: '/components/0/licenses',
        from: licenses,
        to: [{ expression: 'MIT AND (Apache-2.0 OR BSD-3-Clause) AND ISC' }],
      });
    }
    // What one joint expression cannot carry is listed.
    const detailed = [{ license: { id: 'MIT', url: 'https://opensource.org/licenses/MIT' } }, { expression: 'ISC' }];
    const joined = await convert(bom({ components: [lib('x', '1', { licenses: detailed })] }, '1.4'), '1.5');
    expect(components(joined)[0]!.licenses).toEqual([{ expression: 'MIT AND ISC' }]);
    expect(joined.dropped).toEqual([
      {
        pointer: '/components/0/licenses/0/license/url',
        reason: 'one CycloneDX 1.5 expression of several licences cannot carry it',
      },
    ]);
    // 1.7 takes a list mixing licences and expressions again: nothing to convert.
    expect(components(await convert(document, '1.7'))[0]!.licenses).toEqual(licenses);
    // One expression, or licences alone, are what 1.5 takes as they are.
    const one = bom({ components: [lib('x', '1', { licenses: [{ expression: 'MIT OR ISC' }] })] }, '1.4');
    expect((await convert(one, '1.5')).converted.map((c) => c.pointer)).toEqual(['/specVersion']);
  });

  it('a named licence cannot join an SPDX expression: dropped and listed', async () => {
    const licenses = [{ license: { name: 'Company licence' } }, { expression: 'MIT' }];
    const up = await convert(bom({ components: [lib('x', '1', { licenses })] }, '1.4'), '1.6');
    expect(components(up)[0]!.licenses).toEqual([{ expression: 'MIT' }]);
    expect(up.dropped).toEqual([
      {
        pointer: '/components/0/licenses/0',
        reason:
          'CycloneDX 1.6 takes licences or one expression, not both, and a named licence cannot be part of an SPDX expression',
      },
    ]);
  });

  it('legacy tools become 1.5+ tool components (vendor → group), and back', async () => {
    const legacy = [{ vendor: 'Aqua', name: 'trivy', version: '0.50.0' }];
    const up = await convert(bom({ metadata: { tools: legacy } }, '1.4'), '1.5');
    expect(metadata(up).tools).toEqual({
      components: [{ type: 'application', group: 'Aqua', name: 'trivy', version: '0.50.0' }],
    });
    const modern = {
      components: [{ type: 'application', group: 'Anchore', name: 'syft', version: '1.0.0' }],
      services: [{ name: 'scanner', version: '2' }],
    };
    const down = await convert(bom({ metadata: { tools: modern } }, '1.6'), '1.4');
    expect(metadata(down).tools).toEqual([
      { vendor: 'Anchore', name: 'syft', version: '1.0.0' },
      { name: 'scanner', version: '2' },
    ]);
    // What a legacy tool has no place for is listed, not lost silently (a library, a purl, a bom-ref).
    const rich = {
      components: [{ type: 'library', 'bom-ref': 'lib', name: 'l', version: '1', purl: 'pkg:npm/l@1' }],
    };
    const lossy = await convert(bom({ metadata: { tools: rich } }, '1.6'), '1.4');
    expect(metadata(lossy).tools).toEqual([{ name: 'l', version: '1' }]);
    expect(lossy.dropped.map((d) => d.pointer)).toEqual([
      '/metadata/tools/components/0/type',
      '/metadata/tools/components/0/bom-ref',
      '/metadata/tools/components/0/purl',
    ]);
    expect(lossy.dropped[0]!.reason).toBe('a CycloneDX 1.4 tool has no such member');
    // The same version on both sides: the form stays.
    expect(metadata(await convert(bom({ metadata: { tools: legacy } }, '1.3'), '1.4')).tools).toEqual(legacy);
  });

  it("1.5's metadata.manufacture is 1.6's metadata.component.manufacturer (not metadata.manufacturer), and back", async () => {
    const maker = { name: 'Maker Inc.' };
    const document = bom({ metadata: { component: { type: 'device', name: 'router' }, manufacture: maker } }, '1.5');
    const up = await convert(document, '1.6');
    expect(metadata(up)).toEqual({ component: { type: 'device', name: 'router', manufacturer: maker } });
    expect(up.converted).toContainEqual({
      pointer: '/metadata/manufacture',
      from: maker,
      to: maker,
      movedTo: '/metadata/component/manufacturer',
    });
    const down = await convert(up.document, '1.5');
    expect(metadata(down)).toEqual({ component: { type: 'device', name: 'router' }, manufacture: maker });
    // Nothing to put it on: 1.6 still has metadata.manufacture, so it stays.
    const alone = await convert(bom({ metadata: { manufacture: maker } }, '1.5'), '1.6');
    expect(metadata(alone)).toEqual({ manufacture: maker });
    expect(metadata(await convert(document, '1.5'))).toEqual(document.metadata);
  });

  it('1.6 component authors are the one author text of earlier components', async () => {
    const document = bom({ components: [lib('x', '1', { authors: [{ name: 'Ann' }, { name: 'Bob' }] })] }, '1.6');
    const down = await convert(document, '1.5');
    expect(components(down)[0]).toEqual(lib('x', '1', { author: 'Ann, Bob' }));
    expect(components(await convert(document, '1.7'))[0]!.authors).toEqual([{ name: 'Ann' }, { name: 'Bob' }]);
    const contact = bom({ components: [lib('x', '1', { authors: [{ name: 'Ann', email: 'ann@example.com' }] })] });
    const named = await convert(contact, '1.5');
    expect(components(named)[0]!.author).toBe('Ann');
    expect(named.dropped).toEqual([
      { pointer: '/components/0/authors/0/email', reason: "a CycloneDX 1.5 component's author is a name" },
    ]);
  });

  it('1.5 document properties are metadata properties before 1.5', async () => {
    const document = bom(
      { metadata: { properties: [{ name: 'a', value: '1' }] }, properties: [{ name: 'b', value: '2' }] },
      '1.5',
    );
    const down = await convert(document, '1.4');
    expect(down.document.properties).toBeUndefined();
    expect(metadata(down).properties).toEqual([
      { name: 'a', value: '1' },
      { name: 'b', value: '2' },
    ]);
    expect((await convert(document, '1.6')).document.properties).toEqual([{ name: 'b', value: '2' }]);
  });

  it('a member the target requires: its schema default, or an empty plain string (a 1.2/1.3 component version)', async () => {
    const document = bom({ components: [{ type: 'library', name: 'x' }] }, '1.5');
    delete document.version;
    const old = await convert(document, '1.3');
    expect(components(old)[0]).toEqual({ type: 'library', name: 'x', version: '' });
    expect(old.document.version).toBe(1);
    expect(old.converted).toContainEqual({ pointer: '/components/0/version', from: undefined, to: '' });
    const newer = await convert(document, '1.4');
    expect(components(newer)[0]).toEqual({ type: 'library', name: 'x' });
  });

  it('the identity: specVersion, a $schema address (only when there is one), bomFormat', async () => {
    const withSchema = { $schema: 'http://cyclonedx.org/schema/bom-1.4.schema.json', ...bom({}, '1.4') };
    const up = await convert(withSchema, '1.6');
    expect(up.document.$schema).toBe('http://cyclonedx.org/schema/bom-1.6.schema.json');
    expect(up.document.specVersion).toBe('1.6');
    expect(Object.keys(up.document).slice(0, 3)).toEqual(['$schema', 'bomFormat', 'specVersion']);
    expect((await convert(bom({}, '1.4'), '1.6')).document.$schema).toBeUndefined();
    const cbom = { ...bom({}, '1.4-cbom-1.0'), bomFormat: 'CBOM' };
    expect((await convert(cbom, '1.4-cbom-1.0')).document).toEqual(cbom);
  });

  it('signatures: dropped with a reason when the version changes, kept when it does not (or when asked)', async () => {
    const signature = { algorithm: 'ES256', value: 'abc' };
    const document = bom({ components: [lib('x', '1', { signature })], signature }, '1.4');
    const up = convertVersion(document, '1.5');
    expect(up.document.signature).toBeUndefined();
    expect(up.dropped).toEqual([
      { pointer: '/signature', reason: 'the conversion changes what it signs; sign the converted document' },
      {
        pointer: '/components/0/signature',
        reason: 'the conversion changes what it signs; sign the converted document',
      },
    ]);
    expect(convertVersion(document, '1.4').document.signature).toEqual(signature);
    expect(convertVersion(document, '1.5', { keepSignatures: true }).document.signature).toEqual(signature);
    // For XML, where a signature is an XML signature: dropped at the same version too.
    const same = convertVersion(document, '1.4', { dropSignatures: true });
    expect(same.document.signature).toBeUndefined();
    expect(same.dropped.map((d) => d.pointer)).toEqual(['/signature', '/components/0/signature']);
  });

  it('XML-only 1.0/1.1 models convert upward', async () => {
    const old = {
      bomFormat: 'CycloneDX',
      specVersion: '1.1',
      version: 1,
      components: [{ type: 'library', name: 'x', version: '1', modified: false }],
    };
    const up = await convert(old, '1.2');
    expect(up.document.specVersion).toBe('1.2');
    expect(components(up)[0]).toEqual({ type: 'library', name: 'x', version: '1', modified: false });
    expect(components(await convert(old, '1.4'))[0]).toEqual({
      type: 'library',
      name: 'x',
      version: '1',
      modified: false,
    });
  });
});

describe('refusals: nothing valid to write', () => {
  it('refuses a conversion down to XML-only 1.0/1.1, a change of family, an unknown version, a non-BOM', () => {
    expect(expectErrorCode(() => convertVersion(bom({}, '1.2'), '1.1'), 'E_CONVERT').message).toMatch(
      /convert upward only/,
    );
    expect(expectErrorCode(() => convertVersion(bom({}, '1.6'), '1.4-cbom-1.0'), 'E_CONVERT').message).toMatch(
      /different specifications/,
    );
    expectErrorCode(() => convertVersion(bom({}, '1.6'), '2.0'), 'E_USAGE');
    expectErrorCode(() => convertVersion({ hello: 'world' }, '1.6'), 'E_INPUT');
  });

  it('refuses, with the place, when a member the target requires cannot be written', () => {
    const error = expectErrorCode(() => convertVersion(bom({ version: 'one' }, '1.5'), '1.4'), 'E_CONVERT');
    expect(error.message).toBe(
      'Cannot convert to CycloneDX 1.4: CycloneDX 1.4 takes integer here, not a string (at /version)',
    );
  });
});
