/**
 * XML signatures through the library: sign and verify take XML text or bytes; the verdicts, trust and codes are
 * JSF's; the one accepted form is an enveloped signature of the whole document, and every other form (wrapping,
 * extra references or transforms, HMAC, SHA-1, comments in signature values, a DOCTYPE) is refused.
 */
import { createHmac, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  loadKey,
  sign,
  validate,
  verify,
  type KeyMaterial,
  type SignOptions,
  type TrustStore,
} from '../../src/index.js';
import { expectErrorCode } from '../helpers.js';

const NS = 'http://cyclonedx.org/schema/bom/1.6';
const SERIAL = 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79';
const DSIG = 'http://www.w3.org/2000/09/xmldsig#';

const bomText = (
  components = '<component type="library" bom-ref="lib-a"><name>lib-a</name><version>1.0.0</version></component>',
) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<bom xmlns="${NS}" serialNumber="${SERIAL}" version="1">\n  <components>\n    ${components}\n  </components>\n</bom>\n`;

interface Pair {
  signer: KeyMaterial;
  trusted: KeyMaterial;
  publicKey: KeyObject;
}

function pair(type: 'rsa' | 'ec', alg?: string, name = `${type}.pem`): Pair {
  const keys =
    type === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const header = alg === undefined ? '' : `alg: ${alg}\n`;
  return {
    signer: loadKey(header + (keys.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string)),
    trusted: loadKey(header + (keys.publicKey.export({ type: 'spki', format: 'pem' }) as string), { source: name }),
    publicKey: keys.publicKey,
  };
}

const RSA = pair('rsa');
const EC = pair('ec');
const trust = (...keys: KeyMaterial[]): TrustStore => ({ keys, roots: [] });

async function signed(key: KeyMaterial, options: Record<string, unknown> = {}, text = bomText()): Promise<string> {
  const result = await sign(text, { key, ...options });
  expect(result.signed).toBe(true);
  return result.document as string;
}

const only = (document: string, store?: TrustStore) => {
  const { reports } = verify(document, store === undefined ? {} : { trust: store });
  expect(reports).toHaveLength(1);
  return reports[0]!;
};

const ids = async (document: string, options: Parameters<typeof validate>[1] = {}) =>
  (await validate(document, options)).diagnostics.map((d) => [d.ruleId, d.severity, d.message]);

describe('signing CycloneDX XML', () => {
  it('an RSA key signs in CycloneDX CLI form: last child of the root, canonical XML, RS256, SHA-256, no KeyInfo', async () => {
    const document = await signed(RSA.signer);
    const signature = document.slice(document.indexOf('<Signature'), document.indexOf('</bom>'));
    expect(signature).toMatch(
      new RegExp(
        `^<Signature xmlns="${DSIG}"><SignedInfo><CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/><SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/><Reference URI=""><Transforms><Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/></Transforms><DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><DigestValue>[A-Za-z0-9+/=]{44}</DigestValue></Reference></SignedInfo><SignatureValue>[A-Za-z0-9+/=]{344}</SignatureValue></Signature>$`,
      ),
    );
    // Nothing else of the document is rewritten.
    expect(document.replace(signature, '')).toBe(bomText());
    expect(only(document, trust(RSA.trusted))).toMatchObject({
      pointer: '/bom/Signature',
      signedPointer: '/bom',
      algorithm: 'RS256',
      keySource: 'implicit',
      verdict: 'valid',
      trust: 'trusted',
      trustReason: 'verified with rsa.pem',
      line: 6,
      column: 1,
    });
  });

  it('an EC key signs ES256; --public-key embeds an ECKeyValue, --key-id a KeyName', async () => {
    const withKey = await signed(EC.signer, { publicKey: true });
    expect(withKey).toContain('<SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256"/>');
    expect(withKey).toContain('<dsig11:NamedCurve URI="urn:oid:1.2.840.10045.3.1.7"/>');
    expect(only(withKey)).toMatchObject({ keySource: 'publicKey', verdict: 'valid', trust: 'untrusted' });
    expect(only(withKey, trust(EC.trusted))).toMatchObject({ verdict: 'valid', trust: 'trusted', trustedBy: 'key' });

    const named = await signed(EC.signer, { keyId: 'release-2026' });
    expect(named).toContain('<KeyInfo><KeyName>release-2026</KeyName></KeyInfo>');
    const trustedByName = { ...EC.trusted, keyId: 'release-2026' };
    expect(only(named, trust(RSA.trusted, trustedByName))).toMatchObject({
      keySource: 'keyId',
      keyId: 'release-2026',
      verdict: 'valid',
      trust: 'trusted',
    });
    expect(only(named, trust(RSA.trusted))).toMatchObject({ verdict: 'unverifiable' });
    expect(only(named, trust(RSA.trusted)).reason).toMatch(/^no key with keyId "release-2026" in the trust store/);
  });

  it('re-signing replaces the signature; bytes in, text out; an invalid BOM is refused unsigned', async () => {
    const once = await signed(RSA.signer);
    const twice = await signed(EC.signer, {}, once);
    expect(twice.match(/<Signature /g)).toHaveLength(1);
    expect(only(twice, trust(EC.trusted)).verdict).toBe('valid');
    const fromBytes = await sign(new TextEncoder().encode(bomText()), { key: RSA.signer });
    expect(fromBytes.document).toBe(await signed(RSA.signer));
    const broken = bomText('<component type="library"></component>');
    const refused = await sign(broken, { key: RSA.signer });
    expect(refused).toMatchObject({ signed: false, document: broken, objects: 0 });
    expect(refused.diagnostics.map((d) => d.ruleId)).toEqual(['schema/required']);
  });

  it('JSON-only options, HMAC secrets and public keys do not sign XML', async () => {
    const jsonOnly: Partial<SignOptions>[] = [
      { targets: ['components'] },
      { mode: 'add' },
      { property: 'sig' },
      { excludes: ['x'] },
    ];
    for (const option of jsonOnly) {
      const error = await sign(bomText(), { key: RSA.signer, ...option }).catch((e: unknown) => e);
      expect((error as { code: string }).code).toBe('E_USAGE');
    }
    const secret = loadKey(JSON.stringify({ kty: 'oct', k: Buffer.alloc(32, 7).toString('base64url') }));
    const hmac = await sign(bomText(), { key: secret }).catch((e: unknown) => e);
    expect(hmac).toMatchObject({ code: 'E_KEY' });
    expect((hmac as Error).message).toBe(
      'Cannot sign XML with the key: XML signatures take an RSA, EC, Ed25519 or Ed448 private key, not HS256',
    );
    const publicOnly = await sign(bomText(), { key: RSA.trusted }).catch((e: unknown) => e);
    expect(publicOnly).toMatchObject({ code: 'E_KEY' });
  });
});

describe('the algorithm comes from the trusted key', () => {
  it('a key bound to another algorithm, or of another type, verifies nothing', async () => {
    const document = await signed(RSA.signer);
    const psOnly = { ...RSA.trusted, algorithm: 'PS256' as const };
    expect(only(document, trust(psOnly, EC.trusted))).toMatchObject({
      verdict: 'unverifiable',
      reason: 'the signature carries no key and no trusted key allows RS256 (--trust)',
    });
    expect(only(document, trust({ ...RSA.trusted, algorithm: 'RS256' })).verdict).toBe('valid');
  });

  it('an embedded EC key under an RSA signature method is invalid', async () => {
    const document = (await signed(EC.signer, { publicKey: true })).replace(
      'xmldsig-more#ecdsa-sha256',
      'xmldsig-more#rsa-sha256',
    );
    expect(only(document)).toMatchObject({ verdict: 'invalid', reason: 'RS256 needs an RSA key, not EC' });
  });

  it('an HMAC method keyed with the public key (algorithm confusion) and "none" are refused', async () => {
    const pem = RSA.publicKey.export({ type: 'spki', format: 'pem' }) as string;
    const template = await signed(RSA.signer);
    const hmacUri = 'http://www.w3.org/2001/04/xmldsig-more#hmac-sha256';
    const signedInfo = template.slice(template.indexOf('<SignedInfo>'), template.indexOf('</SignedInfo>') + 13);
    const forged = template
      .replace('xmldsig-more#rsa-sha256', 'xmldsig-more#hmac-sha256')
      .replace(
        /<SignatureValue>[^<]*/,
        `<SignatureValue>${createHmac('sha256', pem).update(signedInfo.replace('xmldsig-more#rsa-sha256', 'xmldsig-more#hmac-sha256')).digest('base64')}`,
      );
    expect(only(forged, trust(RSA.trusted))).toMatchObject({
      verdict: 'invalid',
      reason: `SignatureMethod "${hmacUri}" is an HMAC: a shared secret does not say who signed, and bomwright accepts no HMAC XML signature`,
    });
    expect(
      only(template.replace('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256', 'none'), trust(RSA.trusted)).reason,
    ).toBe('SignatureMethod "none" is not accepted (RSA, RSA-PSS or ECDSA with SHA-256/384/512, Ed25519, Ed448)');
    expect(
      only(
        template.replace(
          'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
          'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
        ),
        trust(RSA.trusted),
      ).reason,
    ).toBe('SignatureMethod "http://www.w3.org/2000/09/xmldsig#rsa-sha1" uses SHA-1, which is not accepted');
  });
});

describe('signature wrapping and other forms are refused before any cryptography', () => {
  const reasonOf = async (edit: (document: string) => string) =>
    verify(edit(await signed(RSA.signer)), { trust: trust(RSA.trusted) }).reports.map((r) => [r.verdict, r.reason]);

  it('a Reference to an element, a second Reference, a second Signature, a Signature elsewhere', async () => {
    expect(await reasonOf((d) => d.replace('<Reference URI="">', '<Reference URI="#lib-a">'))).toEqual([
      [
        'invalid',
        'the Reference points at "#lib-a", not at the whole document (URI=""): signature wrapping is refused',
      ],
    ]);
    expect(await reasonOf((d) => d.replace('<Reference URI="">', '<Reference>'))).toEqual([
      [
        'invalid',
        'the Reference points at nothing (no URI), not at the whole document (URI=""): signature wrapping is refused',
      ],
    ]);
    expect(
      await reasonOf((d) => {
        const reference = /<Reference URI="">.*<\/Reference>/.exec(d)![0];
        return d.replace(reference, reference + reference);
      }),
    ).toEqual([['invalid', 'SignedInfo has more than one Reference: only one, to the whole document, is accepted']]);
    const twice = (d: string) => {
      const signature = d.slice(d.indexOf('<Signature'), d.indexOf('</bom>'));
      return d.replace('<components>', `<components>${signature}`);
    };
    const wrapped =
      'the document holds 2 XML signatures; one is accepted, over the whole document, as a child of the root (signature wrapping is refused)';
    expect(await reasonOf(twice)).toEqual([
      ['invalid', wrapped],
      ['invalid', wrapped],
    ]);
    const moved = (d: string) => {
      const signature = d.slice(d.indexOf('<Signature'), d.indexOf('</bom>'));
      return d.replace(signature, '').replace('<components>', `<components>${signature}`);
    };
    expect(await reasonOf(moved)).toEqual([
      [
        'invalid',
        'the Signature is not a child of the root element; an enveloped signature of the whole document stands there (signature wrapping is refused)',
      ],
    ]);
    expect(verify(moved(await signed(RSA.signer))).reports[0]!.pointer).toBe('/bom/components/Signature');
  });

  it('transforms other than enveloped and canonical XML, with-comments canonicalization, SHA-1 digests, objects', async () => {
    const xpath = '<Transform Algorithm="http://www.w3.org/TR/1999/REC-xpath-19991116"/>';
    expect(await reasonOf((d) => d.replace('</Transforms>', `${xpath}</Transforms>`))).toEqual([
      [
        'invalid',
        'Transform "http://www.w3.org/TR/1999/REC-xpath-19991116" is not accepted (only enveloped-signature and canonical XML without comments)',
      ],
    ]);
    expect(
      await reasonOf((d) =>
        d.replace('<Transforms>', '<Transforms><Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>'),
      ),
      // Accepted as a form: the edit to SignedInfo is what the signature then refuses.
    ).toEqual([['invalid', 'the signature does not match the signed data']]);
    expect(await reasonOf((d) => d.replace(/<Transforms>.*<\/Transforms>/, ''))).toEqual([
      ['invalid', 'the Reference lacks the enveloped-signature transform'],
    ]);
    expect(await reasonOf((d) => d.replace('REC-xml-c14n-20010315"', 'REC-xml-c14n-20010315#WithComments"'))).toEqual([
      [
        'invalid',
        'CanonicalizationMethod "http://www.w3.org/TR/2001/REC-xml-c14n-20010315#WithComments" is not accepted (canonical XML 1.0 or exclusive, without comments)',
      ],
    ]);
    expect(
      await reasonOf((d) =>
        d.replace('http://www.w3.org/2001/04/xmlenc#sha256', 'http://www.w3.org/2000/09/xmldsig#sha1'),
      ),
    ).toEqual([
      [
        'invalid',
        'DigestMethod "http://www.w3.org/2000/09/xmldsig#sha1" is not accepted (SHA-256, SHA-384 or SHA-512)',
      ],
    ]);
    expect(await reasonOf((d) => d.replace('</Signature>', '<Object>x</Object></Signature>'))).toEqual([
      ['invalid', '<Object> inside <Signature> is not accepted'],
    ]);
  });

  it('comments, CDATA or markup inside signature values are refused (readers that stop at the first text node)', async () => {
    expect(await reasonOf((d) => d.replace('<DigestValue>', '<DigestValue><!-- x -->'))).toEqual([
      ['invalid', '<DigestValue> holds a comment; only text is accepted'],
    ]);
    expect(await reasonOf((d) => d.replace(/<SignatureValue>(....)/, '<SignatureValue><![CDATA[$1]]>'))).toEqual([
      ['invalid', '<SignatureValue> holds a CDATA section; only text is accepted'],
    ]);
    expect(await reasonOf((d) => d.replace('<SignedInfo>', '<SignedInfo><!-- x -->'))).toEqual([
      ['invalid', '<SignedInfo> holds a comment'],
    ]);
  });

  it('a comment in signed text is not signed, and every reader reads the text around it the same way', async () => {
    const document = await signed(RSA.signer);
    const commented = document.replace('<name>lib-a</name>', '<name>lib<!-- -->-a</name>');
    expect(only(commented, trust(RSA.trusted)).verdict).toBe('valid');
    expect((await validate(commented, { trust: trust(RSA.trusted) })).diagnostics).toEqual([]);
    // Text changed around a comment is content changed.
    const changed = document.replace('<name>lib-a</name>', '<name>lib<!-- -->-b</name>');
    expect(only(changed, trust(RSA.trusted)).reason).toBe(
      'the document does not match the digest it was signed with (it was changed after signing)',
    );
  });
});

describe('verdicts under validate and verify', () => {
  it('a component changed after signing is invalid: an error, whatever the trust policy', async () => {
    const changed = (await signed(RSA.signer)).replace('<version>1.0.0</version>', '<version>1.0.1</version>');
    expect(await ids(changed, { trust: trust(RSA.trusted) })).toEqual([
      [
        'signature/invalid',
        'error',
        'Invalid RS256 (implicit): the document does not match the digest it was signed with (it was changed after signing)',
      ],
    ]);
    const result = await validate(changed, { trust: trust(RSA.trusted) });
    expect(result.diagnostics[0]).toMatchObject({ pointer: '/bom/Signature', line: 6, column: 1 });
  });

  it("a signature value that is not the key's is invalid; an unsigned document fails require only", async () => {
    const other = pair('rsa');
    expect(only(await signed(other.signer), trust(RSA.trusted))).toMatchObject({
      verdict: 'invalid',
      reason: 'the signature does not match the signed data',
    });
    expect(await ids(bomText())).toEqual([]);
    expect(await ids(bomText(), { signatures: 'require' })).toEqual([
      ['signature/missing', 'error', 'The document is not signed (signatures are required)'],
    ]);
  });

  it('a KeyInfo key that is not trusted: a warning, an error with requireTrusted; no key at all: unverifiable', async () => {
    const document = await signed(EC.signer, { publicKey: true });
    const untrusted = [
      'signature/untrusted',
      'warning',
      'Valid but untrusted ES256 (publicKey): the embedded key is not in the trust store',
    ];
    expect(await ids(document, { trust: trust(RSA.trusted) })).toEqual([untrusted]);
    expect(await ids(document, { trust: trust(RSA.trusted), requireTrusted: true })).toEqual([
      [untrusted[0], 'error', untrusted[2]],
    ]);
    expect(await ids(document, { trust: trust(EC.trusted), requireTrusted: true })).toEqual([]);
    const bare = await signed(RSA.signer);
    const cannot =
      'Cannot verify RS256 (implicit): the signature carries no key and no trusted key allows RS256 (--trust)';
    expect(await ids(bare)).toEqual([['signature/unverifiable', 'error', cannot]]);
    expect(await ids(bare, { allowUnverifiable: true })).toEqual([['signature/unverifiable', 'warning', cannot]]);
    expect(await ids(bare, { signatures: 'ignore' })).toEqual([]);
    // details carry each signer's report, as for JSON.
    const details = (await validate(bare, { trust: trust(RSA.trusted), details: true })).details!;
    expect(JSON.stringify(details)).toContain('verified with rsa.pem');
  });

  it('a malformed signature is invalid, not skipped', async () => {
    const document = bomText().replace('</bom>', `<Signature xmlns="${DSIG}"><SignedInfo/></Signature></bom>`);
    expect(await ids(document)).toEqual([
      [
        'signature/invalid',
        'error',
        'Invalid signature (implicit): <Signature> lacks <SignatureValue>; <SignedInfo> lacks <CanonicalizationMethod>',
      ],
    ]);
  });

  it('a DOCTYPE refuses the document before its signature is read, in verify as in validate', async () => {
    const document = (await signed(RSA.signer)).replace('<bom ', '<!DOCTYPE bom [<!ENTITY x "y">]>\n<bom ');
    const error = expectErrorCode(() => verify(document, { trust: trust(RSA.trusted) }), 'E_INPUT');
    expect(error.message).toBe(
      'The document has a DOCTYPE; bomwright reads CycloneDX XML without DTDs or entity declarations at line 2, column 1 [xml/doctype]',
    );
    expect((await ids(document, { trust: trust(RSA.trusted) })).map((d) => d[0])).toEqual(['xml/doctype']);
  });

  it('a processing instruction, outside the root or inside signed text, is refused by verify and by sign', async () => {
    const reason = (name: string) =>
      `the document holds a processing instruction ("${name}"), which canonicalizers disagree on (outside the root: whether it is signed; inside: whether it is text)`;
    const document = await signed(RSA.signer);
    expect(only(document.replace('<bom ', '<?render x?>\n<bom '), trust(RSA.trusted)).reason).toBe(reason('render'));
    // xml-crypto would read `<?x -a?>` as the text "-a", so this would verify as the signed name "lib-a".
    const rewritten = document.replace('<name>lib-a</name>', '<name>lib<?x -a?></name>');
    expect(only(rewritten, trust(RSA.trusted))).toMatchObject({ verdict: 'invalid', reason: reason('x') });
    const error = await sign(bomText().replace('<components>', '<components><?x y?>'), { key: RSA.signer }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'E_INPUT' });
    expect((error as Error).message).toBe(
      'Cannot sign: the document holds a processing instruction ("x"), which XML signature verifiers read differently; remove it',
    );
  });

  it('JSON values still go to JSF', () => {
    expect(verify({ bomFormat: 'CycloneDX' }).reports).toEqual([]);
  });
});
