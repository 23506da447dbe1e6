import { readdirSync, statSync } from 'node:fs';
import { readFileOrFail } from './files.js';
import { X509Certificate } from 'node:crypto';
import path from 'node:path';
import { BomwrightError } from '../errors.js';
import { parseKeyMaterial, selectKey, type KeyMaterial } from '../jsf/keys.js';
import type { TrustStore } from '../jsf/trust.js';

const KEY_FILE = /\.(pem|crt|cer|der|jwk|jwks|json|hex|key)$/i;

/** The key files a --trust or --trust-root operand names: the file, or the key files in the folder. */
export function filesOf(target: string): string[] {
  let stat;
  try {
    stat = statSync(target);
  } catch {
    throw new BomwrightError('E_NOT_FOUND', `No such file or directory: ${target}`);
  }
  if (!stat.isDirectory()) return [target];
  return readdirSync(target, { recursive: true, encoding: 'utf8' })
    .filter((f) => KEY_FILE.test(f))
    .sort()
    .map((f) => path.join(target, f));
}

/**
 * Keys from a file, each with one keyId: its own kid (a JWK's, or a PEM file's `kid:` line) when it has one,
 * else the file name without its extension. Never both: a key named by its owner is not found by another name.
 */
export function loadKeyFile(file: string, options: { passphrase?: string } = {}): KeyMaterial[] {
  const bytes = readFileOrFail(file);
  // DER certificates (.cer/.der) are binary; everything else is text.
  if (/\.(cer|der)$/i.test(file) && bytes[0] === 0x30) {
    try {
      const certificate = new X509Certificate(bytes);
      return parseKeyMaterial(certificate.toString(), file).map((k) => named(k, file));
    } catch (error) {
      if (error instanceof BomwrightError) throw error;
      throw new BomwrightError('E_KEY', `Cannot use the key in ${file}: not a DER certificate`);
    }
  }
  return parseKeyMaterial(bytes.toString('utf8'), file, options).map((k) => named(k, file));
}

function named(key: KeyMaterial, file: string): KeyMaterial {
  return key.keyId === undefined ? { ...key, keyId: path.parse(file).name, keyIdFrom: 'file' } : key;
}

/** The signing key: a JWKS entry is chosen by --key-id; any other file must hold exactly one key. */
export function chooseKey(file: string, keyId: string | undefined, passphrase: string | undefined): KeyMaterial {
  return selectKey(loadKeyFile(file, passphrase === undefined ? {} : { passphrase }), keyId, file);
}

export function loadTrustStore(trustPaths: readonly string[], rootPaths: readonly string[]): TrustStore {
  const keys = trustPaths.flatMap((p) => filesOf(p).flatMap((f) => loadKeyFile(f)));
  const roots = rootPaths.flatMap((p) =>
    filesOf(p).flatMap((f) => {
      const certificates = loadKeyFile(f).flatMap((k) => k.certificates ?? []);
      if (certificates.length === 0)
        throw new BomwrightError('E_KEY', `${f} holds no certificate to use as a trust root`);
      return certificates;
    }),
  );
  return { keys, roots };
}
