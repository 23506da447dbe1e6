import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseKeyMaterial, verify as verifyDocument } from '../../src/index.js';
import { signObject } from '../../src/jsf/sign.js';
import { CONFORMANCE } from '../helpers.js';

const KEYS = path.join(CONFORMANCE, 'jsf/keys');
if (!existsSync(KEYS)) console.warn(`JSF conformance keys not found at ${KEYS}: skipping the certificate edge cases`);

describe('JSF edge cases', () => {
  it('only object values of the signature member are signatures', () => {
    const { reports, signedObjects } = verifyDocument({ x: { signature: 'not a JSF object' }, y: { signature: [1] } });
    expect(reports).toEqual([]);
    expect(signedObjects).toBe(0);
  });

  it('a JSF object that is not a valid signature is reported, not skipped', () => {
    const { reports } = verifyDocument({ a: 1, signature: { algorithm: 'ES256' } });
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ verdict: 'invalid', pointer: '/signature' });
  });

  describe.skipIf(!existsSync(KEYS))('certificates', () => {
    const read = (file: string) => readFileSync(path.join(KEYS, file), 'utf8');

    it('refuses to sign with a certificate path that is not for the signing key', () => {
      const [key] = parseKeyMaterial(read('p256privatekey.jwk'), 'p256');
      const otherPath = parseKeyMaterial(read('p384certpath.pem'), 'p384')[0]!.certificates!;
      expect(() => signObject({ a: 1 }, { key: key!, certificatePath: otherPath })).toThrow(/not for the signing key/);
    });

    it('refuses a PEM file whose certificate belongs to another key', () => {
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const certificate = new X509Certificate(read('p256certpath.pem')).toString();
      const mixed = privateKey.export({ type: 'pkcs8', format: 'pem' }) + certificate;
      expect(() => parseKeyMaterial(mixed, 'mixed.pem')).toThrow(
        expect.objectContaining({ code: 'E_KEY', message: expect.stringContaining('not for the key') }),
      );
    });
  });
});
