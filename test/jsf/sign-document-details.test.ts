import { describe, expect, it } from 'vitest';
import { resolveTargets, signDocument } from '../../src/jsf/sign-document.js';
import { verifyDocument } from '../../src/jsf/verify.js';
import { expectErrorCode } from '../helpers.js';
import { freshKey } from './fixtures.js';

const key = freshKey('ES256');
const bom = (components: number) => ({
  bomFormat: 'CycloneDX',
  specVersion: '1.6',
  components: Array.from({ length: components }, (_, i) => ({ type: 'library', name: `c${i}` })),
});

describe('signDocument targets', () => {
  it('treats an object without bomFormat as no BOM: any object may be signed', () => {
    const signed = signDocument({ specVersion: '1.2', x: { y: 1 } }, { key, targets: ['/x'] }) as Record<
      string,
      Record<string, unknown>
    >;
    expect(signed.x!.signature).toBeDefined();
    expect(
      expectErrorCode(
        () => signDocument({ bomFormat: 'CycloneDX', specVersion: '1.2', x: {} }, { key, targets: ['/x'] }),
        'E_USAGE',
      ).message,
    ).toBe('CycloneDX 1.2 has no signatures; JSF signatures start with 1.4');
  });

  it('signs a pointer where the version allows a signature, and refuses one where it does not', () => {
    const signed = signDocument(bom(2), { key, targets: ['/components/1'] }) as {
      components: Record<string, unknown>[];
    };
    expect(signed.components[1]!.signature).toBeDefined();
    expect(
      expectErrorCode(() => signDocument({ ...bom(1), extra: {} }, { key, targets: ['/extra'] }), 'E_USAGE').message,
    ).toBe('CycloneDX 1.6 allows no signature at /extra');
    expect(resolveTargets(bom(2), ['root', '/components/0', 'components'])).toEqual([
      '/components/0',
      '/components/1',
      '',
    ]);
  });

  it('refuses to break the signature of an ancestor whose name needs escaping', () => {
    const doc = { 'a/b~c': { signature: { algorithm: 'ES256', value: 'x' }, inner: {} } };
    expect(expectErrorCode(() => signDocument(doc, { key, targets: ['/a~1b~0c/inner'] }), 'E_USAGE').message).toBe(
      'Signing /a~1b~0c/inner would invalidate the existing signature of /a~1b~0c; sign it too (--target all)',
    );
  });
});

describe('adding signers', () => {
  it('refuses new signers inside an object whose signers would break, for add and for chain', () => {
    for (const mode of ['add', 'chain'] as const) {
      const first = signDocument(bom(1), { key, mode, targets: ['root'] });
      expect(
        expectErrorCode(() => signDocument(first, { key, mode, targets: ['root', '/components/0'] }), 'E_USAGE')
          .message,
      ).toBe(
        'Adding signers to the document root and to /components/0 inside it would invalidate its existing signers; add to the outer object alone',
      );
    }
    const inner = signDocument(
      { ...bom(1), components: [{ type: 'library', name: 'p', components: [{ type: 'library', name: 'k' }] }] },
      { key, mode: 'add', targets: ['/components/0'] },
    );
    expect(
      expectErrorCode(
        () => signDocument(inner, { key, mode: 'add', targets: ['/components/0', '/components/0/components/0'] }),
        'E_USAGE',
      ).message,
    ).toBe(
      'Adding signers to /components/0 and to /components/0/components/0 inside it would invalidate its existing signers; add to the outer object alone',
    );
  });

  it('adds signers to siblings freely, even when one pointer is a prefix of the other', () => {
    const targets = ['/components/1', '/components/10'];
    const first = signDocument(bom(11), { key, mode: 'add', targets });
    const second = signDocument(first, { key: freshKey('Ed25519'), mode: 'add', targets });
    expect(verifyDocument(second).reports.map((r) => `${r.pointer} ${r.verdict}`)).toEqual([
      '/components/1/signature/signers/0 valid',
      '/components/1/signature/signers/1 valid',
      '/components/10/signature/signers/0 valid',
      '/components/10/signature/signers/1 valid',
    ]);
  });
});
