/**
 * Certificate paths the conformance vectors cannot show, made here with @peculiar/x509: an impostor CA that has the
 * issuer's name but not its key, subjects of several name parts, and a trust root that has expired while the path
 * below it is still valid.
 */
import { webcrypto, X509Certificate } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { beforeAll, describe, expect, it } from 'vitest';
import { certificatePathProblem } from '../../src/jsf/trust.js';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const YEAR = 365 * 86_400_000;
const NOW = new Date('2026-06-01T00:00:00Z');

type Keys = webcrypto.CryptoKeyPair;
const newKeys = async (): Promise<Keys> =>
  (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as Keys;

let serial = 1;
/** No key identifier extensions: Node's checkIssued then compares names only, so only the signature tells. */
async function certificate(options: {
  subject: string;
  issuer: string;
  keys: Keys;
  signer: Keys;
  ca: boolean;
  notBefore?: Date;
  notAfter?: Date;
}): Promise<X509Certificate> {
  const made = await x509.X509CertificateGenerator.create({
    serialNumber: (serial++).toString(16).padStart(2, '0'),
    subject: options.subject,
    issuer: options.issuer,
    notBefore: options.notBefore ?? new Date(NOW.getTime() - YEAR),
    notAfter: options.notAfter ?? new Date(NOW.getTime() + YEAR),
    signingKey: options.signer.privateKey,
    publicKey: options.keys.publicKey,
    signingAlgorithm: ALGORITHM,
    extensions: [new x509.BasicConstraintsExtension(options.ca, undefined, true)],
  });
  return new X509Certificate(made.toString('pem'));
}

describe('certificatePathProblem with generated certificates', () => {
  const ROOT = 'CN=Example Root CA, O=Example Corp, C=DE';
  const SUB = 'CN=Example Signing CA, O=Example Corp, C=DE';
  let root: X509Certificate;
  let impostorRoot: X509Certificate;
  let expiredRoot: X509Certificate;
  let futureRoot: X509Certificate;
  let rootFromNow: X509Certificate;
  let rootUntilNow: X509Certificate;
  let sub: X509Certificate;
  let leaf: X509Certificate;
  let forgedLeaf: X509Certificate;

  beforeAll(async () => {
    const rootKeys = await newKeys();
    const impostorKeys = await newKeys();
    const subKeys = await newKeys();
    const leafKeys = await newKeys();
    root = await certificate({ subject: ROOT, issuer: ROOT, keys: rootKeys, signer: rootKeys, ca: true });
    impostorRoot = await certificate({
      subject: ROOT,
      issuer: ROOT,
      keys: impostorKeys,
      signer: impostorKeys,
      ca: true,
    });
    expiredRoot = await certificate({
      subject: ROOT,
      issuer: ROOT,
      keys: rootKeys,
      signer: rootKeys,
      ca: true,
      notBefore: new Date(NOW.getTime() - 3 * YEAR),
      notAfter: new Date(NOW.getTime() - 1000),
    });
    futureRoot = await certificate({
      subject: ROOT,
      issuer: ROOT,
      keys: rootKeys,
      signer: rootKeys,
      ca: true,
      notBefore: new Date(NOW.getTime() + 1000),
      notAfter: new Date(NOW.getTime() + 3 * YEAR),
    });
    // Certificates count in whole seconds: a root valid from (or until) this very second is valid now.
    rootFromNow = await certificate({
      ...{ subject: ROOT, issuer: ROOT, keys: rootKeys, signer: rootKeys, ca: true },
      notBefore: NOW,
    });
    rootUntilNow = await certificate({
      ...{ subject: ROOT, issuer: ROOT, keys: rootKeys, signer: rootKeys, ca: true },
      notAfter: NOW,
    });
    sub = await certificate({ subject: SUB, issuer: ROOT, keys: subKeys, signer: rootKeys, ca: true });
    leaf = await certificate({
      subject: 'CN=release signer, OU=Build, O=Example Corp, C=DE',
      issuer: SUB,
      keys: leafKeys,
      signer: subKeys,
      ca: false,
    });
    // Names the sub CA as its issuer, but the impostor's key signed it.
    forgedLeaf = await certificate({
      subject: 'CN=release signer, OU=Build, O=Example Corp, C=DE',
      issuer: SUB,
      keys: leafKeys,
      signer: impostorKeys,
      ca: false,
    });
  });

  it('accepts the genuine path', () => {
    expect(certificatePathProblem([leaf, sub], [root], NOW)).toBeUndefined();
    expect(certificatePathProblem([leaf, sub, root], [root], NOW)).toBeUndefined();
  });

  it('refuses an issuer whose name matches but whose key did not sign', () => {
    expect(certificatePathProblem([forgedLeaf, sub], [root], NOW)).toBe('certificate 1 is not issued by certificate 2');
  });

  it('refuses a root whose name matches but whose key did not sign the last certificate', () => {
    expect(certificatePathProblem([leaf, sub], [impostorRoot], NOW)).toBe(
      'the certificate path does not chain to a configured trust root',
    );
    // The genuine root among others still counts.
    expect(certificatePathProblem([leaf, sub], [impostorRoot, root], NOW)).toBeUndefined();
  });

  it('names a certificate by every part of its subject', () => {
    const later = new Date(NOW.getTime() + 2 * YEAR);
    expect(certificatePathProblem([leaf, sub], [root], later)).toBe(
      `certificate 1 (CN=release signer, OU=Build, O=Example Corp, C=DE) is not valid at ${later.toISOString()}`,
    );
  });

  it('holds the trust root to its own validity when the path below it is valid', () => {
    expect(certificatePathProblem([leaf, sub], [expiredRoot], NOW)).toBe('the trust root is not valid now');
    expect(certificatePathProblem([leaf, sub], [futureRoot], NOW)).toBe('the trust root is not valid now');
    expect(certificatePathProblem([leaf, sub], [rootFromNow], NOW)).toBeUndefined();
    expect(certificatePathProblem([leaf, sub], [rootUntilNow], NOW)).toBeUndefined();
  });
});
