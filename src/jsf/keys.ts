/**
 * Key material from PEM (PKCS#8, SEC1, PKCS#1, SPKI, certificates), JWK, JWKS and hex secrets, as plain data.
 * Nothing here ever puts key bytes into an error message.
 */
import { createPrivateKey, createPublicKey, createSecretKey, X509Certificate, type KeyObject } from 'node:crypto';
import { BomwrightError } from '../errors.js';
import type { KeyFamily } from './algorithms.js';
import { decodeBase64url } from './base64url.js';

export interface KeyMaterial {
  family: KeyFamily;
  /** EC or OKP curve, JOSE spelling (P-256, P-384, P-521, Ed25519, Ed448). */
  curve?: string;
  publicKey?: KeyObject;
  privateKey?: KeyObject;
  /** HMAC secret. */
  secret?: KeyObject;
  keyId?: string;
  /** Leaf first, as in JSF certificatePath. */
  certificates?: X509Certificate[];
  /** Where it came from, for reports (a file name, "JWKS entry example.com:p256"). */
  source: string;
}

/** JSF's public JWK subset for a key: exactly the members the spec allows, in JOSE form. */
export type PublicJwk =
  | { kty: 'EC'; crv: string; x: string; y: string }
  | { kty: 'OKP'; crv: string; x: string }
  | { kty: 'RSA'; n: string; e: string };

const CURVE_NAMES: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };
const COORDINATE_BYTES: Record<string, number> = { 'P-256': 32, 'P-384': 48, 'P-521': 66, Ed25519: 32, Ed448: 57 };

function keyError(source: string, reason: string, cause?: unknown): BomwrightError {
  return new BomwrightError('E_KEY', `Cannot use the key in ${source}: ${reason}`, { cause });
}

/** Family and curve of an asymmetric key. */
export function describeKey(key: KeyObject, source: string): { family: KeyFamily; curve?: string } {
  switch (key.asymmetricKeyType) {
    case 'ec': {
      const curve = CURVE_NAMES[key.asymmetricKeyDetails?.namedCurve ?? ''];
      if (curve === undefined)
        throw keyError(source, `unsupported EC curve ${key.asymmetricKeyDetails?.namedCurve ?? 'unknown'}`);
      return { family: 'EC', curve };
    }
    case 'rsa':
      return { family: 'RSA' };
    case 'ed25519':
      return { family: 'OKP', curve: 'Ed25519' };
    case 'ed448':
      return { family: 'OKP', curve: 'Ed448' };
    default:
      throw keyError(
        source,
        `unsupported key type ${key.asymmetricKeyType ?? 'unknown'} (JSF signs with EC, RSA, Ed25519, Ed448 or HMAC keys)`,
      );
  }
}

function fromAsymmetric(
  privateKey: KeyObject | undefined,
  publicKey: KeyObject,
  source: string,
  extra: Partial<KeyMaterial>,
): KeyMaterial {
  return { ...describeKey(publicKey, source), publicKey, ...(privateKey ? { privateKey } : {}), source, ...extra };
}

/** Every key in a file's content: a PEM bundle (key and/or certificates), a JWK, a JWKS, or a hex secret. */
export function parseKeyMaterial(
  content: string,
  source: string,
  options: { passphrase?: string } = {},
): KeyMaterial[] {
  const text = content.trim();
  if (text.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw keyError(source, 'not valid JSON');
    }
    const record = json as Record<string, unknown>;
    if (Array.isArray(record.keys)) {
      return record.keys.map((jwk, i) =>
        fromJwk(
          jwk,
          `${source} (JWKS entry ${typeof (jwk as { kid?: unknown })?.kid === 'string' ? (jwk as { kid: string }).kid : i})`,
        ),
      );
    }
    return [fromJwk(record, source)];
  }
  if (text.includes('-----BEGIN ')) return [fromPem(text, source, options.passphrase)];
  if (/^(?:[0-9a-fA-F]{2}){16,}$/.test(text)) {
    return [{ family: 'oct', secret: createSecretKey(Buffer.from(text, 'hex')), source }];
  }
  throw keyError(source, 'not a PEM key or certificate, a JWK, a JWKS, or a hex secret');
}

function fromJwk(value: unknown, source: string): KeyMaterial {
  if (value === null || typeof value !== 'object') throw keyError(source, 'a JWK must be an object');
  const jwk = value as Record<string, unknown>;
  const keyId = typeof jwk.kid === 'string' ? jwk.kid : undefined;
  const extra: Partial<KeyMaterial> = keyId === undefined ? {} : { keyId };
  if (Array.isArray(jwk.x5c)) {
    try {
      extra.certificates = jwk.x5c.map((c) => new X509Certificate(Buffer.from(String(c), 'base64')));
    } catch (error) {
      throw keyError(source, 'x5c holds an invalid certificate', error);
    }
  }
  if (jwk.kty === 'oct') {
    const secret = typeof jwk.k === 'string' ? decodeBase64url(jwk.k) : undefined;
    if (secret === undefined || secret.length === 0) throw keyError(source, 'an oct JWK needs a base64url "k"');
    return { family: 'oct', secret: createSecretKey(secret), source, ...extra };
  }
  // Node reads only the members it knows; kid, alg, use and x5c are ignored there.
  try {
    if (typeof jwk.d === 'string') {
      const privateKey = createPrivateKey({ key: jwk as never, format: 'jwk' });
      return fromAsymmetric(privateKey, createPublicKey(privateKey), source, extra);
    }
    return fromAsymmetric(undefined, createPublicKey({ key: jwk as never, format: 'jwk' }), source, extra);
  } catch (error) {
    if (error instanceof BomwrightError) throw error;
    throw keyError(source, 'invalid JWK', error);
  }
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

function fromPem(text: string, source: string, passphrase: string | undefined): KeyMaterial {
  let privateKey: KeyObject | undefined;
  let publicKey: KeyObject | undefined;
  const certificates: X509Certificate[] = [];
  for (const match of text.matchAll(PEM_BLOCK)) {
    const [block, label] = match as unknown as [string, string];
    try {
      if (label === 'CERTIFICATE') certificates.push(new X509Certificate(block));
      else if (label.endsWith('PRIVATE KEY')) {
        if (label === 'ENCRYPTED PRIVATE KEY' && passphrase === undefined)
          throw keyError(source, 'the private key is encrypted; give its passphrase');
        privateKey =
          label === 'PRIVATE KEY'
            ? readPkcs8(block)
            : createPrivateKey({ key: block, format: 'pem', ...(passphrase === undefined ? {} : { passphrase }) });
      } else if (label.endsWith('PUBLIC KEY')) publicKey = createPublicKey({ key: block, format: 'pem' });
    } catch (error) {
      if (error instanceof BomwrightError) throw error;
      throw keyError(source, `unreadable ${label} block`, error);
    }
  }
  publicKey ??= privateKey ? createPublicKey(privateKey) : certificates[0]?.publicKey;
  if (publicKey === undefined) throw keyError(source, 'no key or certificate found in the PEM text');
  if (certificates[0] !== undefined && !sameKey(certificates[0].publicKey, publicKey)) {
    throw keyError(source, 'the first certificate is not for the key in the same file');
  }
  return fromAsymmetric(privateKey, publicKey, source, certificates.length > 0 ? { certificates } : {});
}

/**
 * PKCS#8 as OpenSSL 3.0 reads it. RFC 5958 version 2 (OneAsymmetricKey with the public key in field [1], as
 * some tools write Ed25519/Ed448 keys) is refused by the OpenSSL in Node 20, so it is re-encoded as version 1
 * without the public key, and the public key that OpenSSL derives is checked against the one the file carried.
 */
function readPkcs8(pem: string): KeyObject {
  try {
    return createPrivateKey({ key: pem, format: 'pem' });
  } catch (error) {
    const der = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
    const downgraded = downgradeOneAsymmetricKey(der);
    if (downgraded === undefined) throw error;
    const key = createPrivateKey({ key: downgraded.der, format: 'der', type: 'pkcs8' });
    const derived = createPublicKey(key).export({ format: 'der', type: 'spki' });
    // SPKI ends with the raw public key bits for Ed25519/Ed448; the file's copy must be the same key.
    if (
      downgraded.publicKey !== undefined &&
      !derived.subarray(derived.length - downgraded.publicKey.length).equals(downgraded.publicKey)
    ) {
      throw new Error('the public key in the PKCS#8 file does not belong to its private key');
    }
    return key;
  }
}

/** DER TLV reader: [tag, header length, content length] at `offset`. */
function readTlv(der: Buffer, offset: number): [number, number, number] | undefined {
  const tag = der[offset];
  let length = der[offset + 1];
  if (tag === undefined || length === undefined) return undefined;
  let header = 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 3) return undefined;
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + (der[offset + 2 + i] ?? 0);
    header += bytes;
  }
  return offset + header + length <= der.length ? [tag, header, length] : undefined;
}

function encodeLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function downgradeOneAsymmetricKey(der: Buffer): { der: Buffer; publicKey?: Buffer } | undefined {
  const outer = readTlv(der, 0);
  if (outer === undefined || outer[0] !== 0x30) return undefined;
  const parts: Buffer[] = [];
  let publicKey: Buffer | undefined;
  let offset = outer[1];
  const end = outer[1] + outer[2];
  let first = true;
  while (offset < end) {
    const tlv = readTlv(der, offset);
    if (tlv === undefined) return undefined;
    const [tag, header, length] = tlv;
    const whole = der.subarray(offset, offset + header + length);
    if (first) {
      // version: must be 1 (v2); becomes 0 (v1).
      if (tag !== 0x02 || length !== 1 || der[offset + header] !== 1) return undefined;
      parts.push(Buffer.from([0x02, 0x01, 0x00]));
      first = false;
    } else if (tag === 0x81 || tag === 0xa1) {
      // [1] publicKey (BIT STRING, implicit or explicit): drop it, keep its bits for the check.
      const content = der.subarray(offset + header, offset + header + length);
      publicKey = tag === 0x81 ? content.subarray(1) : content.subarray(3);
    } else parts.push(whole);
    offset += header + length;
  }
  const body = Buffer.concat(parts);
  return {
    der: Buffer.concat([Buffer.from([0x30]), encodeLength(body.length), body]),
    ...(publicKey ? { publicKey } : {}),
  };
}

const publicJwks = new WeakMap<KeyObject, PublicJwk>();

/** The public key in JSF's JWK subset (coordinates at full length, no leading zero in RSA integers). */
export function publicJwk(key: KeyObject): PublicJwk {
  let cached = publicJwks.get(key);
  if (cached === undefined) {
    const jwk = key.export({ format: 'jwk' }) as Record<string, string>;
    if (jwk.kty === 'EC') cached = { kty: 'EC', crv: jwk.crv!, x: jwk.x!, y: jwk.y! };
    else if (jwk.kty === 'OKP') cached = { kty: 'OKP', crv: jwk.crv!, x: jwk.x! };
    else if (jwk.kty === 'RSA') cached = { kty: 'RSA', n: jwk.n!, e: jwk.e! };
    else throw keyError('the key', `no JSF public key form for key type ${String(jwk.kty)}`);
    publicJwks.set(key, cached);
  }
  // A copy: the caller may put it into a document and edit it.
  return { ...cached };
}

const MAX_CACHED_KEYS = 1024;
const importedKeys = new Map<string, KeyObject>();
const fingerprints = new WeakMap<KeyObject, string>();

/** The members that define a public key, as one string; computed once per key object. */
export function keyFingerprint(key: KeyObject): string {
  let fingerprint = fingerprints.get(key);
  if (fingerprint === undefined) {
    fingerprint =
      key.type === 'secret' ? `secret:${key.export().toString('base64url')}` : JSON.stringify(publicJwk(key));
    fingerprints.set(key, fingerprint);
  }
  return fingerprint;
}

/**
 * A `publicKey` member as JSF constrains it (§3.2.2): exact members per key type, strict base64url, EC/OKP
 * coordinates at full length, RSA integers without leading zero bytes. Returns the key or a reason.
 */
export function importPublicJwk(value: unknown): { key: KeyObject; jwk: PublicJwk } | { problem: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { problem: 'publicKey must be an object' };
  const jwk = value as Record<string, unknown>;
  const allowed: Record<string, string[]> = {
    EC: ['kty', 'crv', 'x', 'y'],
    OKP: ['kty', 'crv', 'x'],
    RSA: ['kty', 'n', 'e'],
  };
  // Own members only: a `kty` of "constructor" must not find Object.prototype's.
  const members = typeof jwk.kty === 'string' && Object.hasOwn(allowed, jwk.kty) ? allowed[jwk.kty] : undefined;
  if (members === undefined) return { problem: `publicKey kty must be EC, OKP or RSA` };
  const extra = Object.keys(jwk).filter((k) => !members.includes(k));
  if (extra.length > 0) return { problem: `publicKey has members JSF does not allow: ${extra.join(', ')}` };
  for (const member of members) {
    if (typeof jwk[member] !== 'string') return { problem: `publicKey.${member} must be a string` };
  }
  if (jwk.kty === 'RSA') {
    for (const member of ['n', 'e']) {
      const bytes = decodeBase64url(jwk[member] as string);
      if (bytes === undefined || bytes.length === 0) return { problem: `publicKey.${member} is not strict base64url` };
      if (bytes[0] === 0) return { problem: `publicKey.${member} has a leading zero byte` };
    }
  } else {
    const crv = jwk.crv as string;
    const size = Object.hasOwn(COORDINATE_BYTES, crv) ? COORDINATE_BYTES[crv] : undefined;
    const curves = jwk.kty === 'EC' ? ['P-256', 'P-384', 'P-521'] : ['Ed25519', 'Ed448'];
    if (size === undefined || !curves.includes(crv))
      return { problem: `publicKey.crv ${JSON.stringify(crv)} is not allowed for ${String(jwk.kty)}` };
    for (const member of jwk.kty === 'EC' ? ['x', 'y'] : ['x']) {
      const bytes = decodeBase64url(jwk[member] as string);
      if (bytes === undefined) return { problem: `publicKey.${member} is not strict base64url` };
      if (bytes.length !== size)
        return { problem: `publicKey.${member} must be ${size} bytes for ${crv}, not ${bytes.length}` };
    }
  }
  // Documents often carry the same key thousands of times (a signature per component): import it once.
  const cacheKey = members.map((m) => jwk[m] as string).join('.');
  const cached = importedKeys.get(cacheKey);
  if (cached !== undefined) return { key: cached, jwk: jwk as unknown as PublicJwk };
  try {
    const key = createPublicKey({ key: jwk as never, format: 'jwk' });
    if (importedKeys.size >= MAX_CACHED_KEYS) importedKeys.clear();
    importedKeys.set(cacheKey, key);
    return { key, jwk: jwk as unknown as PublicJwk };
  } catch {
    return { problem: 'publicKey is not a valid key (for EC: the point is not on the curve)' };
  }
}

/** Same key? Compared by the JWK members that define it (RFC 7638's required members). */
export function sameKey(a: KeyObject, b: KeyObject): boolean {
  if (a === b) return true;
  if (a.type === 'secret' || b.type === 'secret') return a.type === b.type && a.equals(b);
  return keyFingerprint(a) === keyFingerprint(b);
}
