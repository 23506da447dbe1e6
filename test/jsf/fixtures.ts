import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseKeyMaterial, type JsfAlgorithm, type KeyMaterial } from '../../src/index.js';
import { algorithmInfo } from '../../src/jsf/algorithms.js';
import { CONFORMANCE } from '../helpers.js';

/** The third-party JSF vectors, read in place; tests skip (with this warning) when ../shared is absent. */
export const JSF_DIR = path.join(CONFORMANCE, 'jsf');
export const KEYS = path.join(JSF_DIR, 'keys');
export const SIGNATURES = path.join(JSF_DIR, 'signatures');
export const HAVE_VECTORS = existsSync(JSF_DIR);
if (!HAVE_VECTORS)
  console.warn(`JSF conformance vectors not found at ${JSF_DIR} (../shared/conformance/jsf): skipping`);

/** Inside the certificates' validity (leaves: 2018–2030), so the tests do not depend on today's date. */
export const NOW = new Date('2025-06-01T00:00:00Z');
/** The verifier policy the vectors were generated with (see the vectors' README). */
export const ALLOW_EXCLUDES = ['myUnsignedData'];
export const ALLOW_EXTENSIONS = ['otherExt', 'https://example.com/extension'];

/**
 * A fresh key for `algorithm` as text: the private key (PKCS#8 PEM, or an `oct` JWK for HMAC) and what a
 * verifier trusts (the SPKI PEM, or the same JWK).
 */
export function freshKeyTexts(algorithm: JsfAlgorithm, kid = 'hmac'): { privateKey: string; trusted: string } {
  const info = algorithmInfo(algorithm)!;
  if (info.family === 'oct') {
    const jwk = JSON.stringify({ kty: 'oct', k: randomBytes(info.signatureLength!).toString('base64url'), kid });
    return { privateKey: jwk, trusted: jwk };
  }
  const pair =
    info.family === 'EC'
      ? generateKeyPairSync('ec', { namedCurve: info.curve! })
      : info.family === 'RSA'
        ? generateKeyPairSync('rsa', { modulusLength: 2048 })
        : info.curve === 'Ed448'
          ? generateKeyPairSync('ed448')
          : generateKeyPairSync('ed25519');
  return {
    privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    trusted: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** A fresh signing key for `algorithm`, read as `source` names it. */
export function freshKey(algorithm: JsfAlgorithm, source = 'key'): KeyMaterial {
  return parseKeyMaterial(freshKeyTexts(algorithm).privateKey, source)[0]!;
}
