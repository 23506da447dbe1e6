/**
 * Signatures made by Debian's xmlsec1 in the KeyInfo forms XMLDSig allows and other tools write (issue 43):
 * X509Data with X509SubjectName, X509IssuerSerial or X509SKI beside X509Certificate (CycloneDX's own
 * valid-xml-signature fixtures, .NET), names alone, KeyName, KeyValue. Each verifies with xmlsec1 and with
 * bomwright, trust from --trust-root (or a pinned certificate where no certificate is carried); a tampered copy
 * fails; a wrapped signature is refused. Certificates are made by openssl in a temp folder.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDirs } from '../helpers.js';

const XMLSEC1 = '/usr/bin/xmlsec1';
const OPENSSL = '/usr/bin/openssl';
const missing = [XMLSEC1, OPENSSL].filter((tool) => !existsSync(tool));
const tempDir = tempDirs();

const DOCUMENT = (keyInfo: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<bom xmlns="http://cyclonedx.org/schema/bom/1.6" version="1"><components>` +
  `<component type="library"><name>lib-a</name></component></components>` +
  `<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo>` +
  `<CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/>` +
  `<SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>` +
  `<Reference URI=""><Transforms><Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/></Transforms>` +
  `<DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><DigestValue/></Reference></SignedInfo>` +
  `<SignatureValue/><KeyInfo>${keyInfo}</KeyInfo></Signature></bom>\n`;

function run(command: string, args: string[], cwd: string): string {
  const done = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (done.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${done.stderr}`);
  return done.stdout;
}

describe.skipIf(missing.length > 0)(
  `signatures made by xmlsec1${missing.length > 0 ? ` (skipped: ${missing.join(' and ')} not installed; CI installs them)` : ''}`,
  () => {
    let dir = '';
    /** The signed document of a KeyInfo template, made (and checked) by xmlsec1. */
    const signWith = (name: string, keyInfo: string): string => {
      writeFileSync(path.join(dir, `${name}.template.xml`), DOCUMENT(keyInfo));
      run(
        XMLSEC1,
        ['--sign', '--privkey-pem:signer', 'leaf.key,leaf.pem', '--output', `${name}.xml`, `${name}.template.xml`],
        dir,
      );
      return `${name}.xml`;
    };
    /** An X509Data child as xmlsec1 fills it from the certificate (its own spelling of names and numbers). */
    const filled = (element: string): string => {
      const file = signWith(`fill-${element}`, `<X509Data><${element}/></X509Data>`);
      const text = readFileSync(path.join(dir, file), 'utf8');
      return new RegExp(`<${element}>[\\s\\S]*?</${element}>`).exec(text)![0];
    };

    beforeAll(() => {
      dir = tempDir();
      writeFileSync(
        path.join(dir, 'leaf.cnf'),
        'basicConstraints=CA:false\nkeyUsage=digitalSignature\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n',
      );
      const subject = (cn: string) => `/C=US/O=Acme/CN=${cn}`;
      run(
        OPENSSL,
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          'ca.key',
          '-out',
          'ca.pem',
          '-days',
          '30',
          '-subj',
          subject('Acme Root'),
          '-addext',
          'basicConstraints=critical,CA:true',
          '-addext',
          'keyUsage=keyCertSign',
        ],
        dir,
      );
      run(
        OPENSSL,
        [
          'req',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          'leaf.key',
          '-out',
          'leaf.csr',
          '-subj',
          subject('Acme Signer, Build'),
        ],
        dir,
      );
      run(
        OPENSSL,
        [
          'x509',
          '-req',
          '-in',
          'leaf.csr',
          '-CA',
          'ca.pem',
          '-CAkey',
          'ca.key',
          '-set_serial',
          '1234567890123',
          '-days',
          '30',
          '-out',
          'leaf.pem',
          '-extfile',
          'leaf.cnf',
        ],
        dir,
      );
      run(OPENSSL, ['x509', '-in', 'leaf.pem', '-pubkey', '-noout', '-out', 'signer.pem'], dir);
    });

    const verify = (file: string, ...trust: string[]) => runCli(['verify', file, ...trust], { cwd: dir });

    it('every X509Data form with the certificate verifies with xmlsec1 and bomwright, trusted by --trust-root', async () => {
      const forms: Record<string, string> = {
        certificate: '<X509Data><X509Certificate/></X509Data>',
        'subject-name': `<X509Data>${filled('X509SubjectName')}<X509Certificate/></X509Data>`,
        'issuer-serial': `<X509Data>${filled('X509IssuerSerial')}<X509Certificate/></X509Data>`,
        ski: `<X509Data>${filled('X509SKI')}<X509Certificate/></X509Data>`,
        all: `<X509Data>${filled('X509SubjectName')}${filled('X509IssuerSerial')}${filled('X509SKI')}<X509Certificate/></X509Data>`,
        // xmlsec1 leaves the template's other names empty: they name nothing.
        leftovers: '<X509Data><X509Certificate/><X509SubjectName/><X509IssuerSerial/><X509SKI/></X509Data>',
        'two-x509data': `<X509Data>${filled('X509SubjectName')}</X509Data><X509Data><X509Certificate/></X509Data>`,
      };
      for (const [name, keyInfo] of Object.entries(forms)) {
        const file = signWith(name, keyInfo);
        expect(run(XMLSEC1, ['--verify', '--trusted-pem', 'ca.pem', file], dir), name).toBe('');
        const verified = await verify(file, '--trust-root', 'ca.pem', '--require-trusted');
        expect(verified.stdout, name).toContain('valid, trusted (certificate path chains to a trust root)');
        expect(verified.code, name).toBe(0);
        const validated = await runCli(['validate', file, '--trust-root', 'ca.pem', '--require-trusted'], { cwd: dir });
        expect(validated.code, `${name}: ${validated.stdout}`).toBe(0);
        // Tampered: the signed content changed.
        const tampered = `tampered-${file}`;
        writeFileSync(path.join(dir, tampered), readFileSync(path.join(dir, file), 'utf8').replace('lib-a', 'lib-b'));
        const refused = await verify(tampered, '--trust-root', 'ca.pem');
        expect(refused.stdout, name).toContain('it was changed after signing');
        expect(refused.code, name).toBe(1);
      }
    }, 120_000);

    it('names alone: the key comes only from a certificate the trust options pin', async () => {
      for (const element of ['X509SubjectName', 'X509IssuerSerial', 'X509SKI']) {
        const file = signWith(`alone-${element}`, `<X509Data>${filled(element)}</X509Data>`);
        expect(run(XMLSEC1, ['--verify', '--trusted-pem', 'ca.pem', '--untrusted-pem', 'leaf.pem', file], dir)).toBe(
          '',
        );
        const pinned = await verify(file, '--trust', 'leaf.pem', '--require-trusted');
        expect(pinned.stdout, element).toContain('valid, trusted');
        expect(pinned.code, element).toBe(0);
        // The root alone does not hold the named certificate: nothing to verify with.
        const unpinned = await verify(file, '--trust-root', 'ca.pem');
        expect(unpinned.stdout, element).toContain(`unverifiable: X509Data names a certificate (${element}`);
        expect(unpinned.code, element).toBe(1);
      }
    }, 120_000);

    it('KeyName and KeyValue as xmlsec1 writes them', async () => {
      const named = signWith('key-name', '<KeyName/>');
      expect(readFileSync(path.join(dir, named), 'utf8')).toContain('<KeyName>signer</KeyName>');
      const byName = await verify(named, '--trust', 'signer.pem', '--require-trusted');
      expect(byName.stdout).toContain('valid, trusted (verified with signer.pem)');
      expect(byName.code).toBe(0);
      const valued = signWith('key-value', '<KeyValue/>');
      const byValue = await verify(valued, '--trust', 'signer.pem', '--require-trusted');
      expect(byValue.stdout).toContain('valid, trusted (the embedded key is in the trust store)');
      expect(byValue.code).toBe(0);
    }, 120_000);

    it('wrapping stays refused: the same signature moved into a component', async () => {
      const file = signWith('wrapped', `<X509Data>${filled('X509SubjectName')}<X509Certificate/></X509Data>`);
      const text = readFileSync(path.join(dir, file), 'utf8');
      const signature = /<Signature[\s\S]*<\/Signature>/.exec(text)![0];
      const wrapped = text.replace(signature, '').replace('</component>', `${signature}</component>`);
      writeFileSync(path.join(dir, 'wrapped-moved.xml'), wrapped);
      const refused = await verify('wrapped-moved.xml', '--trust-root', 'ca.pem');
      expect(refused.stdout).toContain('signature wrapping is refused');
      expect(refused.code).toBe(1);
    }, 120_000);

    it('X509Data children XMLDSig does not define are refused', async () => {
      const file = signWith('foreign', '<X509Data><X509Certificate/><X509Thumbprint>AAAA</X509Thumbprint></X509Data>');
      const refused = await verify(file, '--trust-root', 'ca.pem');
      expect(refused.stdout).toContain('<X509Thumbprint> inside <X509Data> is not accepted');
      expect(refused.code).toBe(1);
    }, 120_000);
  },
);
