import { describe, expect, it } from 'vitest';
import { verify } from '../../src/index.js';
import { signDocument as sign } from '../../src/jsf/sign-document.js';
import { resolveTargets } from '../../src/jsf/sign-document.js';
import { expectErrorCode, minimalBom } from '../helpers.js';
import { freshKey } from './fixtures.js';

const key = freshKey('ES256');

const document = () =>
  minimalBom('1.6', {
    metadata: {
      component: {
        type: 'application',
        name: 'app',
        'bom-ref': 'app',
        components: [{ type: 'library', name: 'm', 'bom-ref': 'm' }],
      },
    },
    components: [
      { type: 'library', name: 'a', 'bom-ref': 'a', components: [{ type: 'library', name: 'a1', 'bom-ref': 'a1' }] },
      { type: 'library', name: 'b', 'bom-ref': 'b' },
    ],
    services: [{ name: 's', 'bom-ref': 's' }],
  });

// Which objects `sign --target` signs, innermost first so that outer signatures cover the inner ones.
describe('signing targets', () => {
  it.each<[string[], string[]]>([
    [['root'], ['']],
    [
      ['components'],
      [
        '/metadata/component/components/0',
        '/components/0/components/0',
        '/metadata/component',
        '/components/0',
        '/components/1',
      ],
    ],
    [['services'], ['/services/0']],
    [['/components/1'], ['/components/1']],
    [
      ['a1', 's'],
      ['/components/0/components/0', '/services/0'],
    ],
    [
      ['root', 'b', 'root'],
      ['/components/1', ''],
    ],
  ])('%j → %j', (targets, pointers) => {
    expect(resolveTargets(document(), targets)).toEqual(pointers);
  });

  it('signs everything allowed with "all", innermost first', () => {
    const pointers = resolveTargets(document(), ['all']);
    expect(new Set(pointers)).toEqual(
      new Set([
        '',
        '/metadata/component',
        '/metadata/component/components/0',
        '/components/0',
        '/components/0/components/0',
        '/components/1',
        '/services/0',
      ]),
    );
    const depths = pointers.map((p) => (p === '' ? 0 : p.split('/').length - 1));
    expect(depths).toEqual([...depths].sort((a, b) => b - a));
    expect(pointers.at(-1)).toBe('');
  });

  it('signs a plain JSON object at its root only', () => {
    expect(resolveTargets({ a: 1 }, ['root'])).toEqual(['']);
    expect(expectErrorCode(() => resolveTargets({ a: 1 }, ['components']), 'E_USAGE').message).toBe(
      '--target components needs a CycloneDX document',
    );
  });

  it.each<[string, Record<string, unknown>, string[], string]>([
    [
      'a version without signatures',
      minimalBom('1.3'),
      ['root'],
      'CycloneDX 1.3 has no signatures; JSF signatures start with 1.4',
    ],
    ['a pointer to a non-object', document(), ['/components/0/name'], '/components/0/name does not point to an object'],
    ['a place the format does not allow', document(), ['/metadata'], 'CycloneDX 1.6 allows no signature at /metadata'],
    ['an unknown bom-ref', document(), ['nope'], 'No signable element has bom-ref "nope"'],
  ])('refuses %s with E_USAGE', (_name, doc, targets, message) => {
    expect(expectErrorCode(() => resolveTargets(doc, targets), 'E_USAGE').message).toBe(message);
  });

  it('produces a document whose every signature verifies, and leaves the input unchanged', () => {
    const input = document();
    const signed = sign(input, { key, targets: ['all'] }) as Record<string, unknown>;
    expect(input).toEqual(document());
    const { reports, signedObjects } = verify(signed, { trust: { keys: [key], roots: [] } });
    expect(signedObjects).toBe(7);
    expect(reports.map((r) => [r.signedPointer, r.verdict, r.trust]).sort()).toEqual(
      resolveTargets(document(), ['all'])
        .map((p) => [p, 'valid', 'trusted'])
        .sort(),
    );
  });

  it('refuses to sign inside an object whose signature it would break, and a document with nothing to sign', () => {
    const rootSigned = sign(document(), { key }) as Record<string, unknown>;
    expect(expectErrorCode(() => sign(rootSigned, { key, targets: ['b'] }), 'E_USAGE').message).toBe(
      'Signing /components/1 would invalidate the existing signature of the document root; sign it too (--target root)',
    );
    const innerSigned = sign(document(), { key, targets: ['a'] }) as Record<string, unknown>;
    expect(expectErrorCode(() => sign(innerSigned, { key, targets: ['a1'] }), 'E_USAGE').message).toBe(
      'Signing /components/0/components/0 would invalidate the existing signature of /components/0; sign it too (--target all)',
    );
    expect(expectErrorCode(() => sign(minimalBom(), { key, targets: ['services'] }), 'E_USAGE').message).toBe(
      'Nothing to sign: the document has no services',
    );
    expect(expectErrorCode(() => sign([1], { key }), 'E_USAGE').message).toBe(
      'Only a JSON object can hold an enveloped signature',
    );
  });

  it('refuses to add signers to an object and to one inside it when the outer one is signed', () => {
    const signed = sign(document(), { key, mode: 'add', targets: ['root', 'a'] }) as Record<string, unknown>;
    expect(expectErrorCode(() => sign(signed, { key, mode: 'add', targets: ['root', 'a'] }), 'E_USAGE').message).toBe(
      'Adding signers to the document root and to /components/0 inside it would invalidate its existing signers; add to the outer object alone',
    );
    const added = sign(signed, { key, mode: 'add', targets: ['root'] }) as Record<string, unknown>;
    const { reports } = verify(added, { trust: { keys: [key], roots: [] } });
    expect(reports.map((r) => [r.signedPointer, r.verdict])).toEqual([
      ['', 'valid'],
      ['', 'valid'],
      ['/components/0', 'valid'],
    ]);
  });
});
