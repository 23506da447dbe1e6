/**
 * CycloneDX XML through validate (src/validate/xml.ts), at the edges the main tests (test/xml/validate.test.ts) do
 * not reach: a second byte-order mark, the declared encoding of UTF-16 bytes, 1.7's versionRange rule on the
 * metadata component and nested components, a rule's message naming another place by its XML path, a missing
 * element said before the one that follows it, and signatures skipped or malformed.
 */
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/index.js';

const NS = (v: string) => `http://cyclonedx.org/schema/bom/${v}`;
const findings = async (input: string | Uint8Array, options = {}) =>
  (await validate(input, options)).diagnostics.map((d) => [d.ruleId, d.pointer, d.message, d.line, d.column]);

function utf16le(text: string): Uint8Array {
  return new Uint8Array([0xff, 0xfe, ...Buffer.from(text, 'utf16le')]);
}

describe('reading XML', () => {
  it('a second byte-order mark is text before the document: not well-formed, at 1:1', async () => {
    expect(await findings(`\uFEFF\uFEFF<bom xmlns="${NS('1.6')}" version="1"/>`)).toEqual([
      ['xml/syntax', '', 'Not well-formed XML: a second byte-order mark (U+FEFF) stands before the document', 1, 1],
    ]);
    expect(await findings(`\uFEFF<bom xmlns="${NS('1.6')}" version="1"/>`)).toEqual([]);
  });

  it('UTF-16 bytes may declare UTF-16 (either order) or UTF-8; another encoding is named with the one read', async () => {
    const body = `<bom xmlns="${NS('1.6')}" version="1"/>`;
    for (const encoding of ['UTF-16', 'utf-16le', 'UTF-16BE', 'UTF-8', 'utf8'])
      expect(await findings(utf16le(`<?xml version="1.0" encoding="${encoding}"?>${body}`)), encoding).toEqual([]);
    expect(await findings(utf16le(`<?xml version="1.0" encoding="ascii"?>${body}`))).toEqual([
      [
        'read/unsupported-encoding',
        '',
        'The XML declaration names encoding "ascii", but the document is UTF-16LE; bomwright reads XML in UTF-8 or UTF-16',
        1,
        1,
      ],
    ]);
    // UTF-8 bytes may declare ASCII, but not UTF-16.
    expect(await findings(`<?xml version="1.0" encoding="US-ASCII"?>${body}`)).toEqual([]);
    expect(await findings(`<?xml version="1.0" encoding="UTF-16"?>${body}`)).toMatchObject([
      ['read/unsupported-encoding', '', expect.stringContaining('but the document is UTF-8'), 1, 1],
    ]);
  });
});

describe('1.7: versionRange only on a component marked isExternal="true"', () => {
  const component = (attributes: string, inner = '') =>
    `<component type="library"${attributes}><name>c</name><versionRange>vers:npm/1</versionRange>${inner}</component>`;

  it('on the metadata component and on nested components too, each at its XML path', async () => {
    const text = `<bom xmlns="${NS('1.7')}" version="1"><metadata>${component('')}</metadata><components>${component(
      ' isExternal="true"',
      `<components>${component(' isExternal="false"')}${component(' isExternal="true"')}</components>`,
    )}</components></bom>`;
    const found = await findings(text);
    expect(found.map((f) => [f[0], f[1], f[2]])).toEqual([
      [
        'schema/other',
        '/bom/metadata/component/versionRange',
        'versionRange is allowed only on a component marked isExternal="true"',
      ],
      [
        'schema/other',
        '/bom/components/component/components/component[1]/versionRange',
        'versionRange is allowed only on a component marked isExternal="true"',
      ],
    ]);
    expect(found[0]![4]).toBe(text.indexOf('<versionRange>') + 1);
  });

  it('before 1.7 there is no such rule (the XSD has no versionRange)', async () => {
    const text = `<bom xmlns="${NS('1.6')}" version="1"><components><component type="library"><name>c</name></component></components></bom>`;
    expect(await findings(text)).toEqual([]);
  });
});

describe('messages and places', () => {
  it("a rule's message that names another place names it by its XML path", async () => {
    const text = `<bom xmlns="${NS('1.6')}" version="1"><components><component type="library" bom-ref="a"><name>a</name></component><component type="library" bom-ref="a"><name>b</name></component></components></bom>`;
    expect(await findings(text)).toEqual([
      [
        'ref/duplicate-bom-ref',
        '/bom/components/component[2]/@bom-ref',
        'bom-ref "a" is already defined by /bom/components/component[1]/@bom-ref',
        1,
        text.lastIndexOf('bom-ref') + 1,
      ],
    ]);
  });

  it('a required element missing before the one found is said as such: at the parent, placed at the one found', async () => {
    const text = `<bom xmlns="${NS('1.6')}" version="1"><metadata><licenses><license><text>x</text></license></licenses></metadata></bom>`;
    expect(await findings(text)).toEqual([
      [
        'schema/required',
        '/bom/metadata/licenses/license',
        'Missing required <name> (before <text>)',
        1,
        text.indexOf('<text>') + 1,
      ],
    ]);
  });
});

describe('signatures', () => {
  const malformed = `<bom xmlns="${NS('1.6')}" version="1"><Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo/></Signature></bom>`;

  it('a malformed signature is an error unless signatures are ignored or their verification skipped', async () => {
    expect((await findings(malformed)).map((f) => f[0])).toEqual(['signature/invalid']);
    expect(await findings(malformed, { signatures: 'ignore' })).toEqual([]);
    expect(await findings(malformed, { skipSignatureVerification: true })).toEqual([]);
  });

  it('an unsigned document fails require only', async () => {
    const unsigned = `<bom xmlns="${NS('1.6')}" version="1"/>`;
    expect(await findings(unsigned, { signatures: 'require' })).toEqual([
      ['signature/missing', '', 'The document is not signed (signatures are required)', undefined, undefined],
    ]);
    expect(await findings(unsigned, { signatures: 'verify' })).toEqual([]);
  });
});
