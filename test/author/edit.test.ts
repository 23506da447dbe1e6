import { describe, expect, it } from 'vitest';
import {
  addComponent,
  addDependency,
  addProperty,
  addService,
  init as initDocument,
  setMetadata,
  validate,
  type EditResult,
  type MetadataField,
} from '../../src/index.js';
import { sampleBom, sign, testKey, verdicts } from './fixtures.js';
import { minimalBom } from '../helpers.js';

const key = testKey();

/** Awaits `run`, expecting a BomwrightError with `code`. */
async function rejectsWith(run: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  await expect(run).rejects.toMatchObject({ name: 'BomwrightError', code });
  if (message) await expect(run).rejects.toThrow(message);
}

const components = (r: EditResult) => r.document.components as Record<string, unknown>[];
const rules = (r: EditResult) => r.diagnostics.map((d) => d.ruleId);

describe('addComponent', () => {
  it('adds a component in the shape of the version and never touches the input', async () => {
    const doc = sampleBom();
    const before = structuredClone(doc);
    const result = await addComponent(doc, {
      name: 'lodash',
      version: '4.17.21',
      purl: 'pkg:npm/lodash@4.17.21',
      licenses: ['mit'],
      hashes: [{ alg: 'SHA-256', content: 'c'.repeat(64) }],
      supplier: 'Lodash Org',
      authors: ['John-David Dalton'],
      properties: [{ name: 'cdx:npm:package:development', value: 'false' }],
    });
    expect(doc).toEqual(before);
    expect(result).toMatchObject({ applied: true, bomRef: 'pkg:npm/lodash@4.17.21', removedSignatures: [] });
    expect(components(result).at(-1)).toEqual({
      type: 'library',
      'bom-ref': 'pkg:npm/lodash@4.17.21',
      supplier: { name: 'Lodash Org' },
      authors: [{ name: 'John-David Dalton' }],
      name: 'lodash',
      version: '4.17.21',
      hashes: [{ alg: 'SHA-256', content: 'c'.repeat(64) }],
      licenses: [{ license: { id: 'MIT' } }],
      purl: 'pkg:npm/lodash@4.17.21',
      properties: [{ name: 'cdx:npm:package:development', value: 'false' }],
    });
    expect((await validate(result.document)).errors).toBe(0);
  });

  it('makes generated bom-refs unique against every bom-ref in the document', async () => {
    let doc: Record<string, unknown> = sampleBom();
    const refs: string[] = [];
    // The nested pkg:npm/send@0.18.0 is taken already; so is "app" (metadata.component).
    for (const fields of [
      { name: 'send', version: '0.18.0', purl: 'pkg:npm/send@0.18.0' },
      { name: 'send', version: '0.18.0', purl: 'pkg:npm/send@0.18.0' },
      { name: 'x', version: '1' },
      { name: 'x', version: '1' },
      { name: 'app' },
    ]) {
      // Duplicates on purpose: the bom-refs must still be unique.
      const result = await addComponent(doc, fields, { allowDuplicate: true });
      expect(result.applied).toBe(true);
      refs.push(result.bomRef!);
      doc = result.document;
    }
    expect(refs).toEqual(['pkg:npm/send@0.18.0-2', 'pkg:npm/send@0.18.0-3', 'x@1', 'x@1-2', 'app-2']);
    expect(await validate(doc)).toMatchObject({ errors: 0 });
  });

  it('refuses an edit that adds errors and leaves the document as it was', async () => {
    const doc = sampleBom();
    const duplicate = await addComponent(doc, { name: 'again', 'bom-ref': 'app' });
    expect(duplicate.applied).toBe(false);
    expect(duplicate.document).toBe(doc);
    expect(doc).toEqual(sampleBom());
    expect(rules(duplicate)).toEqual(['ref/duplicate-bom-ref']);
    const old = minimalBom('1.2');
    const noVersion = await addComponent(old, { name: 'lib' });
    expect(noVersion).toMatchObject({ applied: false, document: old });
    expect(noVersion.diagnostics.map((d) => [d.ruleId, d.pointer])).toEqual([['schema/required', '/components/0']]);
    const badType = await addComponent(doc, { name: 'x', type: 'gizmo' });
    expect(badType.applied).toBe(false);
    expect(rules(badType)).toEqual(['schema/enum']);
  });

  it('accepts an edit to a document that already had errors, as long as it adds none', async () => {
    const doc = { ...sampleBom(), dependencies: [{ ref: 'nowhere' }] };
    expect((await validate(doc)).errors).toBe(1);
    const result = await addComponent(doc, { name: 'y', version: '1' });
    expect(result.applied).toBe(true);
    expect(rules(result)).toEqual(['ref/unresolved']);
  });

  it('writes authors as the single author text before 1.6, and licences per version', async () => {
    const v15 = await addComponent(minimalBom('1.5'), {
      name: 'a',
      authors: ['Ann', { name: 'Bob' }],
      licenses: ['A OR B'],
    });
    expect(components(v15)[0]).toMatchObject({ author: 'Ann, Bob', licenses: [{ expression: 'A OR B' }] });
    const v14 = await addComponent(minimalBom('1.4'), {
      name: 'a',
      licenses: ['Apache-2.0', 'MIT AND BSD-3-Clause', 'Custom'],
    });
    expect(components(v14)[0]!.licenses).toEqual([
      { license: { id: 'Apache-2.0' } },
      { expression: 'MIT AND BSD-3-Clause' },
      { license: { name: 'Custom' } },
    ]);
    expect(v14.applied).toBe(true);
    const v17 = await addComponent(minimalBom('1.7'), { name: 'a', licenses: ['MIT', 'LicenseRef-x'] });
    expect(v17.applied).toBe(true);
    await rejectsWith(addComponent(minimalBom('1.6'), { name: 'a', licenses: ['MIT', 'A OR B'] }), 'E_USAGE');
    await rejectsWith(addComponent(minimalBom('1.4'), { name: 'a', author: 'A', authors: ['B'] }), 'E_USAGE');
    await rejectsWith(addComponent(minimalBom('1.6'), { name: '' }), 'E_USAGE');
  });

  it('adds CBOM crypto assets with their cryptoProperties', async () => {
    const doc = initDocument({ format: 'cbom', toolVersion: '1' });
    const cryptoProperties = { assetType: 'algorithm', algorithmProperties: { primitive: 'ae', mode: 'gcm' } };
    const result = await addComponent(doc, { name: 'AES-128-GCM', cryptoProperties });
    expect(result.applied).toBe(true);
    expect(components(result)[0]).toEqual({
      type: 'crypto-asset',
      'bom-ref': 'AES-128-GCM',
      name: 'AES-128-GCM',
      cryptoProperties,
    });
    expect(components(result)[0]!.cryptoProperties).not.toBe(cryptoProperties);
    const bad = await addComponent(doc, { name: 'x', cryptoProperties: { assetType: 'spell' } });
    expect(bad.applied).toBe(false);
  });

  it('refuses documents it cannot edit', async () => {
    await rejectsWith(addComponent({ name: 'not a bom' }, { name: 'x' }), 'E_INPUT');
    await rejectsWith(addComponent(null, { name: 'x' }), 'E_INPUT');
    await rejectsWith(addComponent({ ...minimalBom(), components: {} }, { name: 'x' }), 'E_INPUT');
  });
});

describe('addComponent --purl: the purl names the component', () => {
  const added = async (fields: Parameters<typeof addComponent>[1]) => {
    const result = await addComponent(minimalBom('1.6', { components: [] }), fields);
    return components(result)[0];
  };

  it('takes the name, version and group from the purl, and writes it in canonical form', async () => {
    expect(await added({ purl: 'pkg:npm/left-pad@1.3.0' })).toEqual({
      type: 'library',
      'bom-ref': 'pkg:npm/left-pad@1.3.0',
      name: 'left-pad',
      version: '1.3.0',
      purl: 'pkg:npm/left-pad@1.3.0',
    });
    expect(await added({ purl: 'pkg:NPM/%40Acme/Widget@2.0.0?b=2&a=1' })).toMatchObject({
      group: '@acme',
      name: 'widget',
      version: '2.0.0',
      purl: 'pkg:npm/%40acme/widget@2.0.0?a=1&b=2',
    });
    // A purl without a version leaves the version out; a given one is kept.
    expect(await added({ purl: 'pkg:maven/org.apache/commons' })).toEqual(
      expect.not.objectContaining({ version: expect.anything() }),
    );
    expect(await added({ purl: 'pkg:maven/org.apache/commons', version: '1.0' })).toMatchObject({
      group: 'org.apache',
      version: '1.0',
    });
  });

  it("accepts given fields that agree (by the type's own rules) and refuses ones that contradict it", async () => {
    expect(await added({ purl: 'pkg:pypi/django-x@1.0', name: 'Django_X', version: '1.0' })).toMatchObject({
      name: 'Django_X',
      purl: 'pkg:pypi/django-x@1.0',
    });
    for (const [fields, what] of [
      [{ purl: 'pkg:npm/right-pad@1.3.0', name: 'left-pad' }, /^The name "left-pad" contradicts the purl/],
      [{ purl: 'pkg:npm/left-pad@1.3.0', version: '1.3.1' }, /^The version "1.3.1" contradicts .* names "1.3.0"/],
      [{ purl: 'pkg:maven/org.apache/commons@1', group: 'org.other' }, /^The group "org.other" contradicts/],
    ] as const)
      await rejectsWith(addComponent(minimalBom('1.6', { components: [] }), fields), 'E_USAGE', what);
    await rejectsWith(addComponent(minimalBom('1.6'), {}), 'E_USAGE', /needs a name \(or a purl that names it\)/);
  });

  it('sees the same package in another spelling as a duplicate', async () => {
    const doc = minimalBom('1.6', {
      components: [{ type: 'library', name: 'left-pad', version: '1.3.0', purl: 'pkg:npm/left-pad@1.3.0' }],
    });
    for (const purl of ['pkg:NPM/left-pad@1.3.0', 'pkg:npm/LEFT-PAD@1.3.0', 'pkg:npm/left-pad@1.3.0'])
      await rejectsWith(addComponent(doc, { purl }), 'E_USAGE', /is already in the document at \/components\/0/);
    expect(components(await addComponent(doc, { purl: 'pkg:npm/left-pad@1.3.1' }))).toHaveLength(2);
  });
});

describe('signed documents', () => {
  it('refuses to edit a signed root unless allowed, then removes and reports the stale signature', async () => {
    const signed = sign(sampleBom(), key, ['all']);
    await rejectsWith(addComponent(signed, { name: 'x', version: '1' }), 'E_USAGE', /\/signature/);
    const result = await addComponent(signed, { name: 'x', version: '1' }, { allowSignatureInvalidation: true });
    expect(result.applied).toBe(true);
    expect(result.removedSignatures).toEqual(['/signature']);
    expect(result.document.signature).toBeUndefined();
    expect(signed.signature).toBeDefined();
    // The components' own signatures are untouched and still verify.
    const remaining = verdicts(result.document);
    expect(remaining.length).toBeGreaterThan(0);
    expect(remaining.every((v) => v.endsWith(' valid'))).toBe(true);
  });

  it('refuses to edit a signed target, and leaves other signatures alone', async () => {
    const signed = sign(sampleBom(), key, ['pkg:npm/express@4.18.2', 'pkg:npm/left-pad@1.3.0']);
    const target = { name: 'p', value: 'v', target: 'pkg:npm/express@4.18.2' };
    await rejectsWith(addProperty(signed, target), 'E_USAGE', /\/components\/1\/signature/);
    const result = await addProperty(signed, target, { allowSignatureInvalidation: true });
    expect(result.removedSignatures).toEqual(['/components/1/signature']);
    expect(verdicts(result.document)).toEqual(['/components/0/signature valid']);
    // An edit elsewhere (the unsigned root) needs no permission.
    const elsewhere = await addComponent(signed, { name: 'z', version: '1' });
    expect(elsewhere).toMatchObject({ applied: true, removedSignatures: [] });
    expect(verdicts(elsewhere.document).every((v) => v.endsWith(' valid'))).toBe(true);
  });
});

describe('addService', () => {
  it('adds a service with a generated bom-ref', async () => {
    const result = await addService(sampleBom(), {
      name: 'api',
      version: '1',
      endpoints: ['https://api.example/v1'],
      provider: 'Acme',
      authenticated: true,
    });
    expect(result).toMatchObject({ applied: true, bomRef: 'api@1-2' });
    expect((result.document.services as unknown[]).at(-1)).toEqual({
      'bom-ref': 'api@1-2',
      provider: { name: 'Acme' },
      name: 'api',
      version: '1',
      endpoints: ['https://api.example/v1'],
      authenticated: true,
    });
    const bad = await addService(sampleBom(), { name: 'x', endpoints: ['not a url'] });
    expect(bad.applied).toBe(false);
  });
});

describe('addDependency', () => {
  it('adds an entry, or merges into the entry of the same ref', async () => {
    const doc = sampleBom();
    const added = await addDependency(doc, { ref: 'pkg:npm/left-pad@1.3.0', dependsOn: [] });
    expect((added.document.dependencies as unknown[]).at(-1)).toEqual({ ref: 'pkg:npm/left-pad@1.3.0', dependsOn: [] });
    const merged = await addDependency(doc, { ref: 'app', dependsOn: ['pkg:npm/express@4.18.2', 'api@1'] });
    expect(merged.applied).toBe(true);
    expect((merged.document.dependencies as unknown[])[0]).toEqual({
      ref: 'app',
      dependsOn: ['pkg:npm/left-pad@1.3.0', 'pkg:npm/express@4.18.2', 'api@1'],
    });
    expect((merged.document.dependencies as unknown[]).length).toBe(2);
  });

  it('refuses references that point nowhere and members the version lacks', async () => {
    const unresolved = await addDependency(sampleBom(), { ref: 'app', dependsOn: ['ghost'] });
    expect(unresolved).toMatchObject({ applied: false });
    expect(unresolved.diagnostics.map((d) => [d.ruleId, d.pointer])).toEqual([
      ['ref/unresolved', '/dependencies/0/dependsOn/2'],
    ]);
    const provides = await addDependency(sampleBom(), { ref: 'app', provides: ['api@1'] });
    expect(provides.applied).toBe(true);
    const old = { ...sampleBom(), specVersion: '1.5' };
    expect((await addDependency(old, { ref: 'app', provides: ['api@1'] })).applied).toBe(false);
    await rejectsWith(addDependency(sampleBom(), { ref: 'app', dependencyType: 'uses' }), 'E_USAGE');
    await rejectsWith(addDependency(sampleBom(), { ref: '' }), 'E_USAGE');
    await rejectsWith(addDependency(sampleBom(), { ref: 'app', dependsOn: [''] }), 'E_USAGE');
  });

  it('keys CBOM entries by ref and dependency type', async () => {
    let doc = initDocument({ format: 'cbom', toolVersion: '1', component: { name: 'app', version: '1' } });
    for (const name of ['AES', 'SHA'])
      doc = (await addComponent(doc, { name, cryptoProperties: { assetType: 'algorithm' } })).document;
    for (const step of [
      { ref: 'app@1', dependsOn: ['AES'], dependencyType: 'uses' },
      { ref: 'app@1', dependsOn: ['SHA'], dependencyType: 'implements' },
      { ref: 'app@1', dependsOn: ['SHA'], dependencyType: 'uses' },
    ]) {
      const result = await addDependency(doc, step);
      expect(result.applied).toBe(true);
      doc = result.document;
    }
    expect(doc.dependencies).toEqual([
      { ref: 'app@1', dependsOn: ['AES', 'SHA'], dependencyType: 'uses' },
      { ref: 'app@1', dependsOn: ['SHA'], dependencyType: 'implements' },
    ]);
    expect((await addDependency(doc, { ref: 'app@1', dependencyType: 'owns' })).applied).toBe(false);
  });
});

describe('addProperty', () => {
  it('adds to the element with the bom-ref, or to the document', async () => {
    const nested = await addProperty(sampleBom(), { name: 'a', value: '1', target: 'pkg:npm/send@0.18.0' });
    expect(nested.applied).toBe(true);
    expect(
      ((nested.document.components as Record<string, unknown>[])[1]!.components as Record<string, unknown>[])[0]!
        .properties,
    ).toEqual([{ name: 'a', value: '1' }]);
    const root = await addProperty(sampleBom(), { name: 'b', value: '2' });
    expect(root.document.properties).toEqual([{ name: 'b', value: '2' }]);
    const v14 = await addProperty(minimalBom('1.4'), { name: 'c', value: '3' });
    expect(v14.document).toMatchObject({ metadata: { properties: [{ name: 'c', value: '3' }] } });
    expect(v14.applied).toBe(true);
    const v12 = await addProperty(minimalBom('1.2'), { name: 'd', value: '4' });
    expect(v12.applied).toBe(false);
    await rejectsWith(addProperty(sampleBom(), { name: 'e', value: '5', target: 'ghost' }), 'E_USAGE');
    await rejectsWith(addProperty(sampleBom(), { name: '', value: '5' }), 'E_USAGE');
  });
});

describe('setMetadata', () => {
  it('sets members, with shorthands for licences, authors and timestamps', async () => {
    let doc: Record<string, unknown> = sampleBom();
    for (const [field, value] of [
      ['supplier', { name: 'Acme', url: ['https://acme.example'] }],
      ['manufacture', { name: 'Acme Factory' }],
      ['authors', ['Ann']],
      ['licenses', ['Apache-2.0']],
      ['timestamp', new Date('2026-05-06T07:08:09.123Z')],
      ['properties', [{ name: 'k', value: 'v' }]],
      ['component', { type: 'application', 'bom-ref': 'app', name: 'app', version: '2.0.0' }],
    ] as [MetadataField, unknown][]) {
      const result = await setMetadata(doc, field, value);
      expect(result.applied).toBe(true);
      doc = result.document;
    }
    expect(doc.metadata).toEqual({
      timestamp: '2026-05-06T07:08:09Z',
      component: { type: 'application', 'bom-ref': 'app', name: 'app', version: '2.0.0' },
      supplier: { name: 'Acme', url: ['https://acme.example'] },
      manufacture: { name: 'Acme Factory' },
      authors: [{ name: 'Ann' }],
      licenses: [{ license: { id: 'Apache-2.0' } }],
      properties: [{ name: 'k', value: 'v' }],
    });
    const removed = await setMetadata(doc, 'supplier', undefined);
    expect((removed.document.metadata as Record<string, unknown>).supplier).toBeUndefined();
    const fresh = await setMetadata(minimalBom('1.6'), 'timestamp', '2026-01-01T00:00:00Z');
    expect(fresh.document.metadata).toEqual({ timestamp: '2026-01-01T00:00:00Z' });
  });

  it('refuses unknown fields and invalid values', async () => {
    await rejectsWith(setMetadata(sampleBom(), 'lifecycles' as MetadataField, []), 'E_USAGE', /Unknown metadata field/);
    const bad = await setMetadata(sampleBom(), 'timestamp', 'yesterday');
    expect(bad).toMatchObject({ applied: false });
    expect(rules(bad)).toEqual(['schema/format']);
    // Removing the component that dependencies point to adds an error.
    expect((await setMetadata(sampleBom(), 'component', undefined)).applied).toBe(false);
  });

  it('treats replacing a signed metadata.component as editing it', async () => {
    const signed = sign(sampleBom(), key, ['app']);
    const replacement = { type: 'application', 'bom-ref': 'app', name: 'app', version: '3' };
    await rejectsWith(setMetadata(signed, 'component', replacement), 'E_USAGE');
    const result = await setMetadata(signed, 'component', replacement, { allowSignatureInvalidation: true });
    expect(result.removedSignatures).toEqual(['/metadata/component/signature']);
    expect((result.document.metadata as Record<string, unknown>).component).toEqual(replacement);
  });
});
