/**
 * XML signatures through the CLI, and interoperability with CycloneDX CLI (`cyclonedx sign bom`, `verify all`),
 * which signs with .NET SignedXml: an enveloped Signature appended to the root, canonical XML 1.0, RSA-SHA256,
 * a SHA-256 digest of Reference URI="" with only the enveloped-signature transform, no KeyInfo, saved with a
 * UTF-8 byte-order mark. The fixtures below are made by this test (kept in test/xml/fixtures/signatures and
 * checked to be reproduced exactly): one in that form, computed by hand from the specification (the document is
 * written already canonical, so its digest is the SHA-256 of its text), and one signed by `bomwright sign`.
 */
import { createHash, generateKeyPairSync, sign as cryptoSign } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDirs } from '../helpers.js';

const FIXTURES = path.join(ROOT, 'test/xml/fixtures/signatures');
const NS = 'http://cyclonedx.org/schema/bom/1.6';
const SERIAL = 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79';
const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
const newDir = tempDirs('bomwright-xml-sig-');

/** Canonical already: attributes in c14n order, no empty-element tags, no declaration inside the element. */
const ROOT_ELEMENT = `<bom xmlns="${NS}" serialNumber="${SERIAL}" version="1">
  <components>
    <component bom-ref="lib-a" type="library"><name>lib-a</name><version>1.0.0</version></component>
  </components>
</bom>`;
const PROLOG = '\uFEFF<?xml version="1.0" encoding="utf-8"?>\n';

/** The RSA test key (made once by this test; it signs nothing but these fixtures). */
function testKey(): { privateFile: string; publicFile: string; privatePem: string } {
  const privateFile = path.join(FIXTURES, 'TEST-KEY-rsa.private.pem');
  const publicFile = path.join(FIXTURES, 'TEST-KEY-rsa.public.pem');
  if (!existsSync(privateFile)) {
    mkdirSync(FIXTURES, { recursive: true });
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const note = 'TEST KEY made by test/xml/signature-cli.test.ts: it signs nothing but these test fixtures.\n';
    writeFileSync(privateFile, note + (privateKey.export({ type: 'pkcs8', format: 'pem' }) as string));
    writeFileSync(publicFile, note + (publicKey.export({ type: 'spki', format: 'pem' }) as string));
  }
  return { privateFile, publicFile, privatePem: readFileSync(privateFile, 'utf8') };
}

/** The signed document as .NET SignedXml computes and XmlDocument.Save writes it, made from the specification. */
function cycloneDxCliForm(privatePem: string): string {
  const digest = createHash('sha256').update(ROOT_ELEMENT).digest('base64');
  const signedInfo = (end: (name: string) => string) =>
    `<SignedInfo><CanonicalizationMethod Algorithm="${C14N}"${end('CanonicalizationMethod')}<SignatureMethod Algorithm="${RSA_SHA256}"${end('SignatureMethod')}<Reference URI=""><Transforms><Transform Algorithm="${ENVELOPED}"${end('Transform')}</Transforms><DigestMethod Algorithm="${SHA256}"${end('DigestMethod')}<DigestValue>${digest}</DigestValue></Reference></SignedInfo>`;
  // Canonical SignedInfo: the Signature's namespace declaration moves onto it; empty elements get end tags.
  const canonical = signedInfo((name) => `></${name}>`).replace('<SignedInfo>', `<SignedInfo xmlns="${DSIG}">`);
  const value = cryptoSign('sha256', Buffer.from(canonical), privatePem).toString('base64');
  const signature = `<Signature xmlns="${DSIG}">${signedInfo(() => ' />')}<SignatureValue>${value}</SignatureValue></Signature>`;
  return PROLOG + ROOT_ELEMENT.replace(/\n<\/bom>$/, `\n${signature}</bom>`);
}

/** A fixture this test makes: written when absent, else it must be reproduced byte for byte. */
function keepFixture(name: string, content: string): string {
  const file = path.join(FIXTURES, name);
  if (!existsSync(file)) writeFileSync(file, content);
  expect(readFileSync(file, 'utf8'), `${name} is no longer reproduced; delete it to make it again`).toBe(content);
  return file;
}

describe('interoperability with CycloneDX CLI', () => {
  const key = testKey();

  it('what CycloneDX CLI signs verifies (verify, validate), trusted by the public key', async () => {
    const file = keepFixture('cyclonedx-cli-signed.xml', cycloneDxCliForm(key.privatePem));
    const verified = await runCli(['verify', file, '--trust', key.publicFile, '--require-trusted']);
    expect(verified.stdout).toBe(
      `${path.relative(ROOT, file)}: OK\n  /bom/Signature  RS256  implicit  valid, trusted (verified with ${key.publicFile})\n1 signature in 1 document: 1 valid (1 trusted), 0 not valid\n`,
    );
    expect(verified.code).toBe(0);
    const validated = await runCli(['validate', file, '--trust', key.publicFile, '--require-trusted', '-f', 'json']);
    expect(validated.code).toBe(0);
    // Its byte-order mark is XML's, no warning (issue 43).
    expect(JSON.parse(validated.stdout).documents[0].diagnostics).toEqual([]);
  });

  it('what bomwright signs is what CycloneDX CLI writes, byte for byte (empty-element spelling aside)', async () => {
    const dir = newDir();
    const file = path.join(dir, 'bom.xml');
    writeFileSync(file, `${PROLOG}${ROOT_ELEMENT}\n`);
    const run = await runCli(['sign', file, '--key', key.privateFile]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`Signed ${file} (XML signature over the whole document) with RS256\n`);
    const signed = readFileSync(file, 'utf8');
    keepFixture('bomwright-signed.xml', signed);
    // .NET writes `<X a="b" />`, xmldom `<X a="b"/>`; canonical XML reads both as `<X a="b"></X>`.
    expect(signed.replaceAll('"/>', '" />')).toBe(cycloneDxCliForm(key.privatePem) + '\n');
  });
});

describe('bomwright sign and verify on CycloneDX XML', () => {
  const bom = (name = 'lib-a') =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<bom xmlns="${NS}" serialNumber="${SERIAL}" version="1">\n  <components>\n    <component type="library"><name>${name}</name></component>\n  </components>\n</bom>\n`;

  async function keys(dir: string, alg: string, out: string): Promise<void> {
    expect((await runCli(['keygen', '--alg', alg, '--out', out], { cwd: dir })).code).toBe(0);
  }

  it('keygen keys sign (RSA, EC); the trust options decide trusted, untrusted and unverifiable', async () => {
    const dir = newDir();
    await keys(dir, 'ES256', 'ec');
    await keys(dir, 'RS256', 'rsa');
    writeFileSync(path.join(dir, 'bom.xml'), bom());
    const sign = await runCli(['sign', 'bom.xml', '--key', 'ec.private.pem', '--public-key'], { cwd: dir });
    expect(sign.stdout).toBe('Signed bom.xml (XML signature over the whole document) with ES256\n');
    const trusted = await runCli(['verify', 'bom.xml', '--trust', 'ec.public.jwk', '--require-trusted'], { cwd: dir });
    expect(trusted.stdout).toContain(
      '/bom/Signature  ES256  publicKey  valid, trusted (the embedded key is in the trust store)',
    );
    expect(trusted.code).toBe(0);
    // With --trust, verify is a gate: a key it does not hold fails, unless --allow-untrusted.
    const untrusted = await runCli(['verify', 'bom.xml', '--trust', 'rsa.public.pem'], { cwd: dir });
    expect(untrusted.stdout).toContain('valid, untrusted (the embedded key is not in the trust store)');
    expect(untrusted.code).toBe(1);
    const allowed = await runCli(['verify', 'bom.xml', '--trust', 'rsa.public.pem', '--allow-untrusted'], {
      cwd: dir,
    });
    expect(allowed.code).toBe(0);
    const required = await runCli(['verify', 'bom.xml', '--trust', 'rsa.public.pem', '--require-trusted'], {
      cwd: dir,
    });
    expect(required.code).toBe(1);
    const unsigned = await runCli(['verify', '-'], { cwd: dir, input: bom() });
    expect([unsigned.code, unsigned.stdout]).toEqual([1, expect.stringContaining('no signature')]);
    expect((await runCli(['verify', '-', '--allow-unsigned'], { cwd: dir, input: bom() })).code).toBe(0);
    const gate = await runCli(['validate', 'bom.xml', '--trust', 'rsa.public.pem', '--require-trusted'], { cwd: dir });
    expect(gate.stdout).toContain('signature/untrusted');
    expect(gate.code).toBe(1);

    const rsaSigned = await runCli(['sign', 'bom.xml', '--key', 'rsa.private.pem', '-o', 'rsa.xml'], { cwd: dir });
    expect(rsaSigned.stdout).toBe('Signed bom.xml (XML signature over the whole document) with RS256 → rsa.xml\n');
    const bare = await runCli(['verify', 'rsa.xml', '--trust', 'ec.public.pem'], { cwd: dir });
    expect(bare.stdout).toContain(
      'unverifiable: the signature carries no key and no trusted key allows RS256 (--trust)',
    );
    expect(bare.code).toBe(1);
    expect(
      (
        await runCli(['verify', '-', '--trust', 'rsa.public.pem'], {
          cwd: dir,
          input: readFileSync(path.join(dir, 'rsa.xml')),
        })
      ).code,
    ).toBe(0);
  });

  it('a changed component fails verify and validate; a DOCTYPE is refused before the signature is read', async () => {
    const dir = newDir();
    await keys(dir, 'RS256', 'rsa');
    writeFileSync(path.join(dir, 'bom.xml'), bom());
    expect((await runCli(['sign', 'bom.xml', '--key', 'rsa.private.pem'], { cwd: dir })).code).toBe(0);
    const signed = readFileSync(path.join(dir, 'bom.xml'), 'utf8');
    writeFileSync(path.join(dir, 'changed.xml'), signed.replace('<name>lib-a</name>', '<name>lib-b</name>'));
    const changed = await runCli(['verify', 'changed.xml', '--trust', 'rsa.public.pem'], { cwd: dir });
    expect(changed.stdout).toContain(
      'invalid: the document does not match the digest it was signed with (it was changed after signing)',
    );
    expect(changed.code).toBe(1);
    writeFileSync(
      path.join(dir, 'doctype.xml'),
      signed.replace('<bom ', '<!DOCTYPE bom SYSTEM "file:///etc/passwd">\n<bom '),
    );
    const doctype = await runCli(['verify', 'doctype.xml', '--trust', 'rsa.public.pem'], { cwd: dir });
    expect(doctype.stdout).toContain(
      'doctype.xml: FAILED — The document has a DOCTYPE; bomwright reads CycloneDX XML without DTDs or entity declarations at line 2, column 1 [xml/doctype]',
    );
    expect(doctype.code).toBe(1);
  });

  it('refusals leave the file untouched: an invalid BOM, JSON-only options, a key that cannot sign XML', async () => {
    const dir = newDir();
    await keys(dir, 'RS256', 'rsa');
    await keys(dir, 'HS256', 'mac');
    const invalid = `<?xml version="1.0"?>\n<bom xmlns="${NS}" version="1"><components><component type="library"/></components></bom>\n`;
    writeFileSync(path.join(dir, 'invalid.xml'), invalid);
    const refused = await runCli(['sign', 'invalid.xml', '--key', 'rsa.private.pem'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refusing to sign invalid.xml');
    expect(readFileSync(path.join(dir, 'invalid.xml'), 'utf8')).toBe(invalid);

    writeFileSync(path.join(dir, 'bom.xml'), bom());
    const target = await runCli(['sign', 'bom.xml', '--key', 'rsa.private.pem', '--target', 'components', '--add'], {
      cwd: dir,
    });
    expect(target.code).toBe(2);
    expect(target.stderr).toContain('--target, --add apply to JSON only: an XML signature covers the whole document');
    const hmac = await runCli(['sign', 'bom.xml', '--key', 'mac.secret.jwk'], { cwd: dir });
    expect(hmac.code).toBe(2);
    expect(hmac.stderr).toContain('XML signatures take an RSA, EC, Ed25519 or Ed448 private key, not HS256');
    expect(readFileSync(path.join(dir, 'bom.xml'), 'utf8')).toBe(bom());
  });
});
