import { describe, expect, it } from 'vitest';
import { addComponent, addDependency, addProperty, addService, setMetadata } from '../../src/index.js';
import { sampleBom, sign, testKey } from './fixtures.js';

const key = testKey();

async function rejection(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('expected a rejection');
}

describe('edit refusals say exactly what is wrong', () => {
  it('names one stale signature as "it", several as "them"', async () => {
    const signedRoot = sign(sampleBom(), key, ['root']);
    const one = await rejection(addService(signedRoot, { name: 'cache' }));
    expect(one).toMatchObject({ code: 'E_USAGE' });
    expect(one.message).toBe(
      'The edit would invalidate the signature at /signature; allow signature invalidation to remove it (and sign again)',
    );
    const nested = sign(sampleBom(), key, ['all']);
    const two = await rejection(addProperty(nested, { name: 'p', value: 'v', target: 'pkg:npm/send@0.18.0' }));
    expect(two.message).toBe(
      'The edit would invalidate the signatures at /signature, /components/1/signature, /components/1/components/0/signature; allow signature invalidation to remove them (and sign again)',
    );
  });

  it('checks the signed root for every kind of edit', async () => {
    const signedRoot = sign(sampleBom(), key, ['root']);
    for (const edit of [
      addComponent(signedRoot, { name: 'x', version: '1' }),
      addService(signedRoot, { name: 'x' }),
      addDependency(signedRoot, { ref: 'app', dependsOn: ['api@1'] }),
      addProperty(signedRoot, { name: 'p', value: 'v' }),
      setMetadata(signedRoot, 'supplier', { name: 'Acme' }),
    ])
      expect((await rejection(edit)).code).toBe('E_USAGE');
  });

  it('names the member that is not an array', async () => {
    const broken = { ...sampleBom(), components: {}, services: 'x', dependencies: 1 };
    expect((await rejection(addComponent(broken, { name: 'x', version: '1' }))).message).toBe(
      'components is not an array',
    );
    expect((await rejection(addService(broken, { name: 'x' }))).message).toBe('services is not an array');
    expect(await rejection(addDependency(broken, { ref: 'app', dependsOn: ['api@1'] }))).toMatchObject({
      code: 'E_INPUT',
      message: 'dependencies is not an array',
    });
    const badProperties = sampleBom();
    (badProperties.components as Record<string, unknown>[])[0]!.properties = {};
    expect(
      (await rejection(addProperty(badProperties, { name: 'p', value: 'v', target: 'pkg:npm/left-pad@1.3.0' })))
        .message,
    ).toBe('/components/0/properties is not an array');
    const badMetadata = { ...sampleBom(), specVersion: '1.4', metadata: 5 };
    expect(await rejection(setMetadata(badMetadata, 'supplier', { name: 'Acme' }))).toMatchObject({
      code: 'E_INPUT',
      message: 'metadata is not an object',
    });
    expect((await rejection(addProperty(badMetadata, { name: 'p', value: 'v' }))).message).toBe(
      'metadata is not an object',
    );
  });

  it('says what a dependency or property request lacks', async () => {
    const doc = sampleBom();
    expect(await rejection(addDependency(doc, { ref: '' }))).toMatchObject({
      code: 'E_USAGE',
      message: 'A dependency needs the ref of a component or service',
    });
    expect((await rejection(addDependency(doc, { ref: 'app', dependsOn: ['api@1', ''] }))).message).toBe(
      'dependsOn must be a list of references',
    );
    expect((await rejection(addDependency(doc, { ref: 'app', provides: [7 as unknown as string] }))).message).toBe(
      'provides must be a list of references',
    );
    expect((await rejection(addDependency(doc, { ref: 'app', dependencyType: 'uses' }))).message).toBe(
      'dependencyType exists only in CBOM documents',
    );
    expect(await rejection(addProperty(doc, { name: '', value: 'v' }))).toMatchObject({
      code: 'E_USAGE',
      message: 'A property needs a name',
    });
    expect((await rejection(addProperty(doc, { name: 'n', value: 5 as unknown as string }))).message).toBe(
      'A property value must be a string',
    );
    expect((await rejection(addProperty(doc, { name: 'n', value: 'v', target: 'nowhere' }))).message).toBe(
      'No element has bom-ref "nowhere"',
    );
    expect((await rejection(setMetadata(doc, 'colour' as 'supplier', 'red'))).message).toBe(
      'Unknown metadata field "colour"; one of: supplier, manufacture, authors, licenses, component, timestamp, properties',
    );
  });
});

describe('what an edit returns', () => {
  it('reports a bomRef only for what it added', async () => {
    const doc = sampleBom();
    expect((await addComponent(doc, { name: 'x', version: '1' })).bomRef).toBe('x@1');
    for (const result of [
      await addDependency(doc, { ref: 'app', dependsOn: ['api@1'] }),
      await addProperty(doc, { name: 'p', value: 'v' }),
      await setMetadata(doc, 'supplier', { name: 'Acme' }),
    ])
      expect(Object.hasOwn(result, 'bomRef')).toBe(false);
  });

  it('validates without signatures: a broken signature elsewhere is not an edit error, and not reported', async () => {
    const doc = sign(sampleBom(), key, ['pkg:npm/left-pad@1.3.0']);
    const component = (doc.components as Record<string, Record<string, string>>[])[0]!;
    component.signature!.value = 'AAAA';
    const result = await addService(doc, { name: 'cache' });
    expect(result.applied).toBe(true);
    expect(result.diagnostics.filter((d) => d.ruleId.startsWith('signature/'))).toEqual([]);
  });

  it('refuses with only the errors the edit introduced: not the ones already there, not warnings', async () => {
    const doc = sampleBom();
    // Already there: a dependency on a ref that does not exist, and a warning (nil serial number).
    (doc.dependencies as Record<string, unknown>[]).push({ ref: 'app', dependsOn: ['ghost'] });
    doc.serialNumber = 'urn:uuid:00000000-0000-0000-0000-000000000000';
    const result = await addDependency(doc, { ref: 'app', dependsOn: ['nowhere'] });
    expect(result.applied).toBe(false);
    expect(result.document).toBe(doc);
    expect(result.removedSignatures).toEqual([]);
    expect(result.diagnostics.map((d) => `${d.severity} ${d.pointer}`)).toEqual(['error /dependencies/0/dependsOn/2']);
  });

  it('adds provides to a new dependency entry', async () => {
    const result = await addDependency(sampleBom(), { ref: 'api@1', provides: ['pkg:npm/left-pad@1.3.0'] });
    expect(result.applied).toBe(true);
    expect((result.document.dependencies as unknown[]).at(-1)).toEqual({
      ref: 'api@1',
      provides: ['pkg:npm/left-pad@1.3.0'],
    });
  });

  it('adds a property to the first element with the bom-ref, never inside a signature', async () => {
    const doc = sampleBom();
    const components = doc.components as Record<string, unknown>[];
    components.push({ type: 'library', name: 'twin', 'bom-ref': 'pkg:npm/left-pad@1.3.0' });
    const result = await addProperty(doc, { name: 'p', value: 'v', target: 'pkg:npm/left-pad@1.3.0' });
    const added = result.document.components as Record<string, unknown>[];
    expect(added[0]!.properties).toEqual([{ name: 'p', value: 'v' }]);
    expect(added[2]!.properties).toBeUndefined();
    const hidden = { ...sampleBom(), signature: { algorithm: 'ES256', value: 'x', 'bom-ref': 'inside' } };
    expect(
      (
        await rejection(
          addProperty(hidden, { name: 'p', value: 'v', target: 'inside' }, { allowSignatureInvalidation: true }),
        )
      ).message,
    ).toBe('No element has bom-ref "inside"');
  });
});

describe('setMetadata', () => {
  it('takes names as authors only from a list of strings; other lists go in as they are', async () => {
    expect((await setMetadata(sampleBom(), 'authors', ['Ada', 'Grace'])).document.metadata).toMatchObject({
      authors: [{ name: 'Ada' }, { name: 'Grace' }],
    });
    expect(
      (await setMetadata(sampleBom(), 'authors', [{ name: 'Ada', email: 'ada@example.com' }])).document.metadata,
    ).toMatchObject({
      authors: [{ name: 'Ada', email: 'ada@example.com' }],
    });
    const properties = await setMetadata(sampleBom(), 'properties', ['not a property']);
    expect(properties.applied).toBe(false);
  });

  it('turns a Date into a timestamp only for timestamp', async () => {
    const when = new Date('2026-03-04T05:06:07.890Z');
    expect(
      ((await setMetadata(sampleBom(), 'timestamp', when)).document.metadata as Record<string, unknown>).timestamp,
    ).toBe('2026-03-04T05:06:07Z');
    const notTimestamp = await setMetadata(sampleBom(), 'supplier', { name: 'Acme', url: ['https://acme.example'] });
    expect((notTimestamp.document.metadata as Record<string, unknown>).supplier).toEqual({
      name: 'Acme',
      url: ['https://acme.example'],
    });
    // Anything else is taken as the JSON value it is; a Date is not turned into text there.
    const dateAsSupplier = await setMetadata(sampleBom(), 'supplier', when);
    expect(typeof (dateAsSupplier.document.metadata as Record<string, unknown>).supplier).toBe('object');
  });

  it('removes a member when given undefined, leaving no key behind', async () => {
    const result = await setMetadata(sampleBom(), 'timestamp', undefined);
    expect(Object.hasOwn(result.document.metadata as object, 'timestamp')).toBe(false);
  });

  it('counts only a change of metadata.component as editing a signed metadata.component', async () => {
    const doc = sign(sampleBom(), key, ['/metadata/component']);
    const supplier = await setMetadata(doc, 'supplier', { name: 'Acme' });
    expect(supplier.applied).toBe(true);
    expect(supplier.removedSignatures).toEqual([]);
    expect((await rejection(setMetadata(doc, 'component', { type: 'application', name: 'other' }))).code).toBe(
      'E_USAGE',
    );
  });
});
