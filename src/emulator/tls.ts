/**
 * The emulator's HTTPS certificate: a small CA of its own and a server certificate it signs for `localhost`,
 * `127.0.0.1` and `::1`, made at first start and kept in a folder (the state folder, or a per-user one), so it
 * stays the same across restarts and a user trusts the CA once (`NODE_EXTRA_CA_CERTS`, or an undici Agent's
 * `connect.ca`). Node's crypto cannot make X.509 certificates; @peculiar/x509 does, with WebCrypto keys, and is
 * loaded only when a certificate has to be made. Private keys are written with mode 0600.
 */
import { webcrypto, X509Certificate } from 'node:crypto';

type Key = webcrypto.CryptoKey;
type KeyPair = webcrypto.CryptoKeyPair;
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import path from 'node:path';
import { BomwrightError } from '../errors.js';
import { writeFileAtomic } from '../node/write.js';

export interface TlsMaterial {
  /** The server certificate (PEM). */
  cert: string;
  /** Its private key (PEM, PKCS #8). */
  key: string;
  /** The CA certificate to trust (PEM). */
  ca: string;
  /** Where the CA certificate is, to point NODE_EXTRA_CA_CERTS at; absent for certificates given by the user. */
  caPath?: string;
}

const FILES = { ca: 'ca.pem', caKey: 'ca.key.pem', cert: 'server.pem', key: 'server.key.pem' } as const;
const CA_DAYS = 3650;
const SERVER_DAYS = 825;
/** A server certificate this close to its end is made again (with the same CA). */
const RENEW_WITHIN_MS = 30 * 24 * 3600 * 1000;
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** The per-user folder for the certificate when there is no state folder: `$BOMWRIGHT_HOME` or `~/.bomwright`. */
export function defaultTlsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.BOMWRIGHT_HOME ?? path.join(homedir(), '.bomwright'), 'emulator-tls');
}

function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new BomwrightError('E_STATE', `Cannot read ${file}: ${(error as Error).message.split('\n')[0]}`);
  }
}

function pem(label: string, der: ArrayBuffer): string {
  const base64 = Buffer.from(der).toString('base64');
  return `-----BEGIN ${label}-----\n${base64.match(/.{1,64}/g)!.join('\n')}\n-----END ${label}-----\n`;
}

/** Whether `certPem` is signed by `caPem`, still good for a while, and (for a server) made for localhost. */
function stillGood(certPem: string, caPem: string, now: number, server: boolean): boolean {
  try {
    const cert = new X509Certificate(certPem);
    const ca = new X509Certificate(caPem);
    return (
      cert.verify(ca.publicKey) &&
      Date.parse(cert.validTo) - now > RENEW_WITHIN_MS &&
      (!server || (cert.checkHost('localhost') !== undefined && cert.checkIP('127.0.0.1') !== undefined))
    );
  } catch {
    return false;
  }
}

async function importPrivateKey(keyPem: string): Promise<Key> {
  const body = keyPem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  return webcrypto.subtle.importKey('pkcs8', Buffer.from(body, 'base64'), ALGORITHM, true, ['sign']);
}

/**
 * The certificate kept in `dir`: read when it is there and good, made (and written) otherwise. The CA is kept
 * whenever it can be, so a user who trusted it once does not have to again.
 */
export async function ensureTlsMaterial(dir: string, now = Date.now()): Promise<TlsMaterial> {
  const file = (name: keyof typeof FILES) => path.join(dir, FILES[name]);
  let ca = readIfPresent(file('ca'));
  let caKey = readIfPresent(file('caKey'));
  const cert = readIfPresent(file('cert'));
  const key = readIfPresent(file('key'));
  if (
    ca !== undefined &&
    caKey !== undefined &&
    cert !== undefined &&
    key !== undefined &&
    stillGood(cert, ca, now, true)
  )
    return { cert, key, ca, caPath: file('ca') };
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new BomwrightError('E_STATE', `Cannot create ${dir}: ${(error as Error).message.split('\n')[0]}`);
  }
  // require, not import(): the CLI runs this module from a bundle compiled with vm.Script, which has no import().
  const x509 = createRequire(import.meta.url)('@peculiar/x509') as typeof import('@peculiar/x509');
  x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
  let caKeys: { privateKey: Key; publicKey: Key };
  let caCert: InstanceType<typeof x509.X509Certificate>;
  if (ca !== undefined && caKey !== undefined && stillGood(ca, ca, now, false)) {
    caCert = new x509.X509Certificate(ca);
    caKeys = {
      privateKey: await importPrivateKey(caKey),
      publicKey: (await caCert.publicKey.export(ALGORITHM, ['verify'])) as Key,
    };
  } else {
    caKeys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as KeyPair;
    caCert = await x509.X509CertificateGenerator.createSelfSigned({
      // A first hex digit of 1-7: positive, and never a leading zero byte, which DER would drop (a 7-byte serial).
      serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(8)))
        .toString('hex')
        .replace(/^[089a-f]/, '1'),
      name: 'CN=bomwright emulator local CA, O=bomwright',
      notBefore: new Date(now - 60_000),
      notAfter: new Date(now + CA_DAYS * 86_400_000),
      keys: caKeys as KeyPair,
      signingAlgorithm: ALGORITHM,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
      ],
    });
    ca = caCert.toString('pem');
    caKey = pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', caKeys.privateKey));
  }
  const serverKeys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as KeyPair;
  const server = await x509.X509CertificateGenerator.create({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(8)))
      .toString('hex')
      .replace(/^[089a-f]/, '1'),
    subject: 'CN=localhost',
    issuer: caCert.subject,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + SERVER_DAYS * 86_400_000),
    signingKey: caKeys.privateKey,
    publicKey: serverKeys.publicKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: 'dns', value: 'localhost' },
        { type: 'ip', value: '127.0.0.1' },
        { type: 'ip', value: '::1' },
      ]),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const material: TlsMaterial = {
    cert: server.toString('pem'),
    key: pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', serverKeys.privateKey)),
    ca: ca!,
    caPath: file('ca'),
  };
  // Keys first, each private key readable by its owner only; the CA certificate last.
  writeFileAtomic(file('caKey'), caKey!, 0o600);
  writeFileAtomic(file('key'), material.key, 0o600);
  writeFileAtomic(file('cert'), material.cert);
  writeFileAtomic(file('ca'), material.ca);
  return material;
}
