/**
 * The emulator's own certificate (tls.ts): where it is kept, what it is (a CA for signing certificates only, a
 * server certificate for localhost, 127.0.0.1 and ::1 that is no CA, positive 8-byte serial numbers, PKCS #8 keys
 * in 64-column PEM), when it is kept and when it is made again, and the refusals of a folder it cannot use.
 */
import { webcrypto, X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import * as x509 from '@peculiar/x509';
import { describe, expect, it, vi } from 'vitest';
import { defaultTlsDir, ensureTlsMaterial, type TlsMaterial } from '../../src/emulator/index.js';
import { tempDir } from '../helpers.js';

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY = 86_400_000;
const RENEW_WITHIN_MS = 30 * DAY;
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const read = (dir: string, name: string): string => readFileSync(path.join(dir, name), 'utf8');

/** A certificate for `names`, signed with the CA kept in `dir`, valid for a year. */
async function signedByCa(dir: string, names: x509.JsonGeneralName[]): Promise<string> {
  const caKeyPem = read(dir, 'ca.key.pem');
  const der = Buffer.from(caKeyPem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  const signingKey = await webcrypto.subtle.importKey('pkcs8', der, ALGORITHM, false, ['sign']);
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '01',
    subject: 'CN=other',
    issuer: new x509.X509Certificate(read(dir, 'ca.pem')).subject,
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 365 * DAY),
    signingKey,
    publicKey: keys.publicKey,
    signingAlgorithm: ALGORITHM,
    extensions: [new x509.SubjectAlternativeNameExtension(names)],
  });
  return cert.toString('pem');
}

function pemLines(text: string, label: string): string[] {
  const lines = text.trimEnd().split('\n');
  expect(lines[0]).toBe(`-----BEGIN ${label}-----`);
  expect(lines.at(-1)).toBe(`-----END ${label}-----`);
  return lines.slice(1, -1);
}

describe('where the certificate is kept', () => {
  it('is $BOMWRIGHT_HOME/emulator-tls, else ~/.bomwright/emulator-tls', () => {
    expect(defaultTlsDir({ BOMWRIGHT_HOME: '/srv/bw' })).toBe(path.join('/srv/bw', 'emulator-tls'));
    expect(defaultTlsDir({})).toBe(path.join(homedir(), '.bomwright', 'emulator-tls'));
  });
});

describe('the certificates made', () => {
  it('are a CA that signs certificates only, and a localhost server certificate that is no CA', async () => {
    const dir = tempDir();
    const material = await ensureTlsMaterial(dir);
    const ca = new x509.X509Certificate(material.ca);
    expect(new X509Certificate(material.ca).subject).toBe('CN=bomwright emulator local CA\nO=bomwright');
    const caConstraints = ca.getExtension(x509.BasicConstraintsExtension)!;
    expect({ ca: caConstraints.ca, pathLength: caConstraints.pathLength, critical: caConstraints.critical }).toEqual({
      ca: true,
      pathLength: 0,
      critical: true,
    });
    const caUsages = ca.getExtension(x509.KeyUsagesExtension)!;
    expect(caUsages.usages).toBe(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign);
    expect(caUsages.critical).toBe(true);

    const server = new x509.X509Certificate(material.cert);
    expect(new X509Certificate(material.cert).subject).toBe('CN=localhost');
    expect(server.issuer).toBe(ca.subject);
    const serverConstraints = server.getExtension(x509.BasicConstraintsExtension)!;
    expect({ ca: serverConstraints.ca, critical: serverConstraints.critical }).toEqual({ ca: false, critical: true });
    const serverUsages = server.getExtension(x509.KeyUsagesExtension)!;
    expect(serverUsages.usages).toBe(x509.KeyUsageFlags.digitalSignature);
    expect(serverUsages.critical).toBe(true);
    const names = server.getExtension(x509.SubjectAlternativeNameExtension)!.names.toJSON();
    expect(names).toEqual([
      { type: 'dns', value: 'localhost' },
      { type: 'ip', value: '127.0.0.1' },
      { type: 'ip', value: '::1' },
    ]);
  });

  it('are valid from a minute before they are made: the CA for 3650 days, the server certificate for 825', async () => {
    const now = Date.UTC(2030, 0, 1);
    const material = await ensureTlsMaterial(tempDir(), now);
    const ca = new X509Certificate(material.ca);
    const server = new X509Certificate(material.cert);
    for (const cert of [ca, server]) expect(Date.parse(cert.validFrom)).toBe(now - 60_000);
    expect(Date.parse(ca.validTo)).toBe(now + 3650 * DAY);
    expect(Date.parse(server.validTo)).toBe(now + 825 * DAY);
  });

  it('have positive 8-byte serial numbers and keep their keys as PKCS #8 PEM in 64-column lines', async () => {
    for (let i = 0; i < 4; i++) {
      const dir = tempDir();
      const material = await ensureTlsMaterial(dir);
      for (const pem of [material.ca, material.cert])
        expect(new X509Certificate(pem).serialNumber).toMatch(/^[1-7][0-9A-F]{15}$/);
      for (const key of [material.key, read(dir, 'ca.key.pem')]) {
        const lines = pemLines(key, 'PRIVATE KEY');
        expect(lines.length).toBeGreaterThan(1);
        for (const line of lines.slice(0, -1)) expect(line).toMatch(/^[A-Za-z0-9+/]{64}$/);
        expect(lines.at(-1)!.length).toBeLessThanOrEqual(64);
      }
    }
  });
  it('keep all 8 bytes of a serial whose random bytes start with zeros (DER drops a leading zero byte)', async () => {
    const random = vi
      .spyOn(webcrypto, 'getRandomValues')
      .mockImplementation(<T extends ArrayBufferView | null>(array: T): T => array);
    try {
      const material = await ensureTlsMaterial(tempDir());
      for (const pem of [material.ca, material.cert])
        expect(new X509Certificate(pem).serialNumber).toBe('1000000000000000');
    } finally {
      random.mockRestore();
    }
  });
});

describe('keeping and renewing', () => {
  async function made(now?: number): Promise<{ dir: string; material: TlsMaterial }> {
    const dir = tempDir();
    return { dir, material: await ensureTlsMaterial(dir, now) };
  }

  it('keeps the server certificate until 30 days before it ends, then makes a new one with the same CA', async () => {
    const { dir, material } = await made();
    const caKey = read(dir, 'ca.key.pem');
    const end = Date.parse(new X509Certificate(material.cert).validTo);
    expect(await ensureTlsMaterial(dir, end - RENEW_WITHIN_MS - 1)).toEqual(material);
    const renewed = await ensureTlsMaterial(dir, end - RENEW_WITHIN_MS);
    expect(renewed.cert).not.toBe(material.cert);
    expect(renewed.key).not.toBe(material.key);
    expect(renewed.ca).toBe(material.ca);
    expect(read(dir, 'server.pem')).toBe(renewed.cert);
    expect(read(dir, 'ca.key.pem')).toBe(caKey);
  });

  it('makes a new CA too once the CA is within 30 days of its end', async () => {
    const { dir, material } = await made();
    const caEnd = Date.parse(new X509Certificate(material.ca).validTo);
    const renewed = await ensureTlsMaterial(dir, caEnd - RENEW_WITHIN_MS);
    expect(renewed.ca).not.toBe(material.ca);
    expect(new X509Certificate(renewed.cert).verify(new X509Certificate(renewed.ca).publicKey)).toBe(true);
  });

  it('makes a new server certificate, keeping the CA, when the server certificate or its key is missing or unreadable', async () => {
    for (const change of [
      (dir: string) => rmSync(path.join(dir, 'server.pem')),
      (dir: string) => rmSync(path.join(dir, 'server.key.pem')),
      (dir: string) => writeFileSync(path.join(dir, 'server.pem'), 'not a certificate'),
    ]) {
      const { dir, material } = await made();
      const caKey = read(dir, 'ca.key.pem');
      change(dir);
      const renewed = await ensureTlsMaterial(dir);
      expect(renewed.ca).toBe(material.ca);
      expect(renewed.cert).not.toBe(material.cert);
      expect(read(dir, 'ca.key.pem')).toBe(caKey);
      expect(read(dir, 'server.key.pem')).toBe(renewed.key);
      expect(new X509Certificate(renewed.cert).verify(new X509Certificate(material.ca).publicKey)).toBe(true);
    }
  });

  it('makes a new CA when its key or certificate is missing', async () => {
    for (const name of ['ca.key.pem', 'ca.pem']) {
      const { dir, material } = await made();
      rmSync(path.join(dir, name));
      const renewed = await ensureTlsMaterial(dir);
      expect(renewed.ca, name).not.toBe(material.ca);
      expect(read(dir, 'ca.pem')).toBe(renewed.ca);
    }
  });

  it('makes a new server certificate when the kept one is not for both localhost and 127.0.0.1', async () => {
    const cases: x509.JsonGeneralName[][] = [
      [{ type: 'dns', value: 'localhost' }],
      [{ type: 'ip', value: '127.0.0.1' }],
      [{ type: 'dns', value: 'example.org' }],
    ];
    for (const names of cases) {
      const { dir, material } = await made();
      const other = await signedByCa(dir, names);
      writeFileSync(path.join(dir, 'server.pem'), other);
      const renewed = await ensureTlsMaterial(dir);
      expect(renewed.cert, JSON.stringify(names)).not.toBe(other);
      expect(renewed.ca).toBe(material.ca);
    }
    // Both names present: kept, though it is not the certificate the emulator made.
    const { dir } = await made();
    const both = await signedByCa(dir, [
      { type: 'dns', value: 'localhost' },
      { type: 'ip', value: '127.0.0.1' },
    ]);
    writeFileSync(path.join(dir, 'server.pem'), both);
    expect((await ensureTlsMaterial(dir)).cert).toBe(both);
  });

  it('makes a new server certificate when the kept one is the CA itself', async () => {
    const { dir, material } = await made();
    writeFileSync(path.join(dir, 'server.pem'), material.ca);
    const renewed = await ensureTlsMaterial(dir);
    expect(renewed.cert).not.toBe(material.ca);
    expect(new X509Certificate(renewed.cert).checkHost('localhost')).toBe('localhost');
  });
});

describe('a folder it cannot use', () => {
  it('refuses a file it cannot read with E_STATE and the first line of the reason', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'ca.pem'));
    await expect(ensureTlsMaterial(dir)).rejects.toMatchObject({
      code: 'E_STATE',
      message: `Cannot read ${path.join(dir, 'ca.pem')}: EISDIR: illegal operation on a directory, read`,
    });
  });

  it('refuses a folder it cannot create with E_STATE and the reason', async () => {
    const dir = path.join(tempDir(), 'link');
    symlinkSync(path.join(path.dirname(dir), 'missing', 'target'), dir);
    await expect(ensureTlsMaterial(dir)).rejects.toMatchObject({
      code: 'E_STATE',
      message: `Cannot create ${dir}: ENOENT: no such file or directory, mkdir '${dir}'`,
    });
  });
});
