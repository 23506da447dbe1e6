import { describe, expect, it } from 'vitest';
import { buildComponent, buildService } from '../../src/author/elements.js';
import { licenseChoice, licensesValue } from '../../src/author/licenses.js';
import { removeMembers, signaturesOnPath, withoutSignatures } from '../../src/author/signatures.js';
import { findFormatBySpecVersion } from '../../src/formats/formats.js';
import { bump } from '../../src/index.js';
import { expectErrorCode } from '../helpers.js';

/** Results are checked member by member with assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

const v16 = findFormatBySpecVersion('1.6')!;
const v15 = findFormatBySpecVersion('1.5')!;
const v14 = findFormatBySpecVersion('1.4')!;
const v17 = findFormatBySpecVersion('1.7')!;

describe('buildService', () => {
  it('writes every field in schema order, copying lists and objects', () => {
    const endpoints = ['https://api.example/v1'];
    const properties = [{ name: 'tier', value: 'gold' }];
    const provider = { name: 'Acme', url: ['https://acme.example'] };
    const service = buildService(
      {
        name: 'api',
        version: '1',
        group: 'acme',
        description: 'The API',
        provider,
        endpoints,
        authenticated: true,
        'x-trust-boundary': false,
        licenses: ['MIT'],
        externalReferences: [{ type: 'website', url: 'https://acme.example' }],
        properties,
      },
      v16,
      new Set(),
    );
    expect(Object.keys(service)).toEqual([
      'bom-ref',
      'provider',
      'group',
      'name',
      'version',
      'description',
      'endpoints',
      'authenticated',
      'x-trust-boundary',
      'licenses',
      'externalReferences',
      'properties',
    ]);
    expect(service).toMatchObject({
      'bom-ref': 'api@1',
      'x-trust-boundary': false,
      licenses: [{ license: { id: 'MIT' } }],
    });
    expect(service.endpoints).not.toBe(endpoints);
    expect(service.provider).not.toBe(provider);
    expect(service.provider).toEqual(provider);
    expect(buildService({ name: 'api', provider: 'Acme' }, v16, new Set()).provider).toEqual({ name: 'Acme' });
    expect(buildService({ name: 'plain' }, v16, new Set())).toEqual({ 'bom-ref': 'plain', name: 'plain' });
    expect(expectErrorCode(() => buildService({ name: '' }, v16, new Set()), 'E_USAGE').message).toBe(
      'A service needs a name',
    );
  });
});

describe('buildComponent', () => {
  it('writes supplier and cryptoProperties only when given, and copies them', () => {
    const supplier = { name: 'Acme' };
    const cryptoProperties = { assetType: 'algorithm' };
    const component = buildComponent({ name: 'x', supplier, cryptoProperties }, v16, new Set());
    expect(component).toMatchObject({ type: 'crypto-asset', supplier: { name: 'Acme' }, cryptoProperties });
    expect(component.supplier).not.toBe(supplier);
    expect(component.cryptoProperties).not.toBe(cryptoProperties);
    expect(buildComponent({ name: 'x', supplier: 'Acme' }, v16, new Set()).supplier).toEqual({ name: 'Acme' });
    const plain = buildComponent({ name: 'x' }, v16, new Set());
    expect(plain).toEqual({ type: 'library', 'bom-ref': 'x', name: 'x' });
    expect(expectErrorCode(() => buildComponent({ name: '' }, v16, new Set()), 'E_USAGE').message).toBe(
      'A component needs a name (or a purl that names it)',
    );
  });

  it('writes authors as objects from 1.6, as one author text before, and refuses both at once before 1.6', () => {
    const given = [{ name: 'Ada', email: 'ada@example.com' }];
    const modern = buildComponent({ name: 'x', authors: ['Grace', ...given] }, v16, new Set());
    expect(modern.authors).toEqual([{ name: 'Grace' }, { name: 'Ada', email: 'ada@example.com' }]);
    expect((modern.authors as unknown[])[1]).not.toBe(given[0]);
    expect(buildComponent({ name: 'x', authors: [] }, v16, new Set())).not.toHaveProperty('authors');
    expect(buildComponent({ name: 'x', authors: ['Grace', { name: 'Ada' }] }, v15, new Set()).author).toBe(
      'Grace, Ada',
    );
    expect(
      expectErrorCode(() => buildComponent({ name: 'x', author: 'A', authors: ['B'] }, v15, new Set()), 'E_USAGE')
        .message,
    ).toBe('CycloneDX 1.5 has one author text: give author or authors');
    // Before 1.6 the one text keeps an address, in the form people write it (BSI reads the creator's address there).
    expect(
      buildComponent(
        { name: 'x', authors: [{ name: 'Ada', email: 'ada@example.com' }, { email: 'x@example.com' }] },
        v14,
        new Set(),
      ).author,
    ).toBe('Ada <ada@example.com>, x@example.com');
    expect(
      expectErrorCode(
        () => buildComponent({ name: 'x', authors: [{ url: 'https://x.example' } as never] }, v14, new Set()),
        'E_USAGE',
      ).message,
    ).toBe('An author needs a name');
  });

  it('refuses a purl that is not one, saying why', () => {
    const error = expectErrorCode(() => buildComponent({ name: 'x', purl: 'npm/left-pad' }, v16, new Set()), 'E_USAGE');
    expect(error.message).toMatch(/^"npm\/left-pad" is not a package URL \((?!Invalid purl: ).+\)$/);
  });
});

describe('licences', () => {
  it('trims, refuses empty ones, and tells ids, expressions and names apart', () => {
    expect(
      licenseChoice(
        [' mit ', 'Apache-2.0+', 'LicenseRef-Acme', 'GPL-2.0-only WITH Classpath-exception-2.0', 'My Licence'],
        v17,
      ),
    ).toEqual([
      { license: { id: 'MIT' } },
      { expression: 'Apache-2.0+' },
      { expression: 'LicenseRef-Acme' },
      { expression: 'GPL-2.0-only WITH Classpath-exception-2.0' },
      { license: { name: 'My Licence' } },
    ]);
    // "+" only at the end, and the Ref- prefixes only at the start, make an expression.
    expect(licenseChoice(['C++ Licence', 'Acme LicenseRef-1'], v17)).toEqual([
      { license: { name: 'C++ Licence' } },
      { license: { name: 'Acme LicenseRef-1' } },
    ]);
    expect(expectErrorCode(() => licenseChoice(['  '], v16), 'E_USAGE').message).toBe('A licence must not be empty');
    expect(expectErrorCode(() => licenseChoice(['MIT', 'MIT OR Apache-2.0'], v16), 'E_USAGE').message).toBe(
      'CycloneDX 1.6 takes either licence ids and names or one expression, not both; join them into one expression (e.g. "MIT AND Apache-2.0")',
    );
  });

  it('takes a string or a non-empty list of strings as shorthand, and anything else as it is', () => {
    expect(licensesValue(['MIT'], v16)).toEqual([{ license: { id: 'MIT' } }]);
    expect(licensesValue('MIT', v16)).toEqual([{ license: { id: 'MIT' } }]);
    expect(licensesValue('MIT OR ISC', v16)).toEqual([{ expression: 'MIT OR ISC' }]);
    for (const value of [[], ['MIT', 5], [{ license: { id: 'MIT' } }], undefined])
      expect(licensesValue(value, v16)).toBe(value);
  });
});

describe('signatures on a path', () => {
  const doc = {
    signature: { value: 'r' },
    components: [{ name: 'a', signature: { value: 'a' }, components: [{ name: 'b', signature: { value: 'b' } }] }],
    metadata: { component: { signature: { value: 'm' } } },
  };

  it('lists the signatures of every object from the root to the pointer, and stops where the path leaves the document', () => {
    expect(signaturesOnPath(doc, '/components/0/components/0')).toEqual([
      '/signature',
      '/components/0/signature',
      '/components/0/components/0/signature',
    ]);
    expect(signaturesOnPath(doc, '/components/0')).toEqual(['/signature', '/components/0/signature']);
    expect(signaturesOnPath(doc, '/components/5/components/0')).toEqual(['/signature']);
    expect(signaturesOnPath(doc, '/metadata/missing/component')).toEqual(['/signature']);
    expect(signaturesOnPath({ components: 'x' } as Record<string, unknown>, '/components/0')).toEqual([]);
    expect(signaturesOnPath({ a: { toString: { signature: 1 } } } as Record<string, unknown>, '/a/toString')).toEqual([
      '/a/toString/signature',
    ]);
    expect(signaturesOnPath({ a: {} } as Record<string, unknown>, '/a/toString')).toEqual([]);
  });

  it('removes members by pointer, and strips every signature from a copy', () => {
    const copy = structuredClone(doc) as Record<string, Loose>;
    removeMembers(copy, [
      '/components/0/signature',
      '/metadata/component/signature',
      '/nowhere/x',
      '/components/9/signature',
    ]);
    expect(copy.components[0]).not.toHaveProperty('signature');
    expect(copy.metadata.component).toEqual({});
    expect(copy.signature).toEqual({ value: 'r' });
    const { document, removed } = withoutSignatures(doc);
    expect(removed).toEqual([
      '/signature',
      '/components/0/signature',
      '/components/0/components/0/signature',
      '/metadata/component/signature',
    ]);
    expect(JSON.stringify(document)).not.toContain('signature');
    expect(doc.signature).toEqual({ value: 'r' });
  });
});

describe('bump details', () => {
  const when = new Date('2026-05-06T07:08:09Z');

  it('puts a new serialNumber and version right after the identity members, wherever the others are', () => {
    const result = bump(
      { metadata: {}, bomFormat: 'CycloneDX', zeta: 1, specVersion: '1.6' },
      { now: when, random: () => new Uint8Array(16) },
    );
    // Before the first member that is not an identity member preceding it.
    expect(Object.keys(result.document)).toEqual([
      'serialNumber',
      'version',
      'metadata',
      'bomFormat',
      'zeta',
      'specVersion',
    ]);
    expect(result.addedSerialNumber).toMatch(/^urn:uuid:/);
    const kept = bump(
      {
        bomFormat: 'CycloneDX',
        specVersion: '1.6',
        serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
        version: 4,
      },
      { now: when },
    );
    expect(Object.keys(kept.document)).toEqual(['bomFormat', 'specVersion', 'serialNumber', 'version', 'metadata']);
    expect(Object.hasOwn(kept, 'addedSerialNumber')).toBe(false);
    expect(bump({ bomFormat: 'CycloneDX' }, { now: when }).document.version).toBe(2);
  });

  it('keeps a member named like a prototype property an ordinary member', () => {
    const input = JSON.parse('{"bomFormat":"CycloneDX","__proto__":{"x":1},"version":1}') as Record<string, unknown>;
    const result = bump(input, { now: when });
    expect(Object.hasOwn(result.document, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(result.document)).toBe(Object.prototype);
    expect(Object.keys(result.document)).toEqual(['bomFormat', 'serialNumber', 'metadata', '__proto__', 'version']);
  });

  it('refuses versions that cannot be bumped exactly, and what is not a BOM', () => {
    for (const version of [0, -1, 1.5, '2', Number.MAX_SAFE_INTEGER, Number.NaN])
      expect(expectErrorCode(() => bump({ bomFormat: 'CycloneDX', version }), 'E_INPUT').message).toMatch(
        /^The document's version .+ is not a whole number from 1 to 2\^53 - 2 \(the largest that can still be bumped exactly\)$/,
      );
    expect(bump({ bomFormat: 'CycloneDX', version: Number.MAX_SAFE_INTEGER - 1 }).version).toBe(
      Number.MAX_SAFE_INTEGER,
    );
    expect(expectErrorCode(() => bump([]), 'E_INPUT').message).toBe('Only a BOM object can be bumped');
    expect(expectErrorCode(() => bump({ metadata: [] }), 'E_INPUT').message).toBe('metadata is not an object');
  });
});
