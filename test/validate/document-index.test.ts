import { describe, expect, it } from 'vitest';
import { validate } from '../../src/index.js';

const bom = (extra: Record<string, unknown>) => ({ bomFormat: 'CycloneDX', specVersion: '1.6', version: 1, ...extra });
const found = async (document: Record<string, unknown>) =>
  (await validate(document)).diagnostics.map((d) => [d.ruleId, d.pointer, d.message]);
const notASignature = 'Invalid signature (implicit): the signature is not a JSF signature object';

describe('signature members that are not signature objects', () => {
  it.each([null, [], 'abc', 1, true])('reports "signature": %j once, as not a JSF signature object', async (value) => {
    expect(await found(bom({ signature: value }))).toEqual([['signature/invalid', '/signature', notASignature]]);
  });

  it('reports each of them where it is, and a misplaced one as misplaced too', async () => {
    expect(await found(bom({ signature: null, components: [{ type: 'library', name: 'a', signature: 'x' }] }))).toEqual(
      [
        ['signature/invalid', '/signature', notASignature],
        ['signature/invalid', '/components/0/signature', notASignature],
      ],
    );
    expect(await found(bom({ metadata: { signature: null } }))).toEqual([
      ['signature/invalid', '/metadata/signature', notASignature],
      ['signature/misplaced', '/metadata/signature', 'A signature where the format allows none'],
    ]);
  });

  it('leaves them alone when signatures are ignored', async () => {
    expect((await validate(bom({ signature: null }), { signatures: 'ignore' })).diagnostics).toEqual([]);
  });
});

describe('bom-refs across the document', () => {
  it('names the first definition of every repeated bom-ref, at any depth', async () => {
    const components = [
      { type: 'library', name: 'a', 'bom-ref': 'a' },
      { type: 'library', name: 'b', 'bom-ref': 'a' },
      { type: 'library', name: 'c', 'bom-ref': 'a', components: [{ type: 'library', name: 'd', 'bom-ref': 'a' }] },
    ];
    const first = 'bom-ref "a" is already defined by /components/0/bom-ref';
    expect(await found(bom({ components }))).toEqual([
      ['ref/duplicate-bom-ref', '/components/1/bom-ref', first],
      ['ref/duplicate-bom-ref', '/components/2/bom-ref', first],
      ['ref/duplicate-bom-ref', '/components/2/components/0/bom-ref', first],
    ]);
  });

  it('does not look inside signatures for bom-refs', async () => {
    const document = bom({ components: [{ type: 'library', name: 'a', 'bom-ref': 'a' }] });
    const index = await validate({
      ...document,
      signature: { algorithm: 'ES256', value: 'x', publicKey: { kty: 'EC', 'bom-ref': 'a' } },
    });
    expect(index.diagnostics.map((d) => d.ruleId)).not.toContain('ref/duplicate-bom-ref');
  });
});
