/**
 * Trust is separate from integrity: a signature that verifies with its own embedded key proves only that
 * someone held that key. Trust material is plain data: pinned keys (with optional key ids) and root
 * certificates that certificate paths must chain to.
 */
import type { KeyObject, X509Certificate } from 'node:crypto';
import type { KeyMaterial } from './keys.js';
import { sameKey } from './keys.js';

export interface TrustStore {
  /** Keys resolved by keyId, tried for signatures without key information, and pinned for embedded keys. */
  keys: readonly KeyMaterial[];
  /** Trust anchors for certificatePath. */
  roots: readonly X509Certificate[];
}

export const EMPTY_TRUST: TrustStore = { keys: [], roots: [] };

/** Every trusted key named `keyId` (one name per key: its kid, else its file name). */
export function keysWithId(store: TrustStore, keyId: string): KeyMaterial[] {
  return store.keys.filter((k) => k.keyId === keyId);
}

/** The trusted entries that pin a public key, directly or as the key of one of their certificates. */
export function pinsOf(store: TrustStore, key: KeyObject): KeyMaterial[] {
  return store.keys.filter(
    (k) =>
      (k.publicKey !== undefined && sameKey(k.publicKey, key)) ||
      (k.certificates ?? []).some((c) => sameKey(c.publicKey, key)),
  );
}

/** Why a certificate path does not lead to a trust root at `now`, or undefined when it does. */
export function certificatePathProblem(
  path: readonly X509Certificate[],
  roots: readonly X509Certificate[],
  now: Date,
): string | undefined {
  if (roots.length === 0) return 'no trust roots are configured (--trust-root)';
  for (const [i, cert] of path.entries()) {
    if (now < new Date(cert.validFrom) || now > new Date(cert.validTo)) {
      return `certificate ${i + 1} (${cert.subject.replaceAll('\n', ', ')}) is not valid at ${now.toISOString()}`;
    }
    const issuer = path[i + 1];
    if (issuer === undefined) break;
    if (!issuer.ca) return `certificate ${i + 2} is not a CA certificate`;
    if (!cert.checkIssued(issuer) || !cert.verify(issuer.publicKey))
      return `certificate ${i + 1} is not issued by certificate ${i + 2}`;
  }
  const last = path[path.length - 1]!;
  for (const root of roots) {
    if (root.fingerprint256 === last.fingerprint256) return undefined;
    if (last.checkIssued(root) && last.verify(root.publicKey)) {
      if (now < new Date(root.validFrom) || now > new Date(root.validTo)) return 'the trust root is not valid now';
      return undefined;
    }
  }
  return 'the certificate path does not chain to a configured trust root';
}
