/**
 * Key material from PEM (PKCS#8, SEC1, PKCS#1, SPKI, certificates), JWK, JWKS and hex secrets, as plain data.
 * Nothing here ever puts key bytes into an error message.
 */
import { createPrivateKey, createPublicKey, createSecretKey, X509Certificate, type KeyObject } from 'node:crypto';
import { BomwrightError } from '../errors.js';
import { algorithmInfo, type AlgorithmInfo, type JsfAlgorithm, type KeyFamily } from './algorithms.js';
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
  /** Where keyId came from: the key's own name (a JWK's kid, a PEM file's `kid:` line) or its file name. */
  keyIdFrom?: 'kid' | 'file';
  /**
   * The one algorithm the key is for (RFC 7517 §4.4): a JWK's `alg`, or the `alg:` line before a PEM block. Such
   * a key signs with it alone and makes only its signatures trusted. Unset: any algorithm its type allows.
   */
  algorithm?: JsfAlgorithm;
  /** Why the key makes and checks no JSF signature at all (a JWK for encryption, or for another algorithm). */
  unusable?: string;
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
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw keyError(source, 'a JWK must be an object');
  const jwk = value as Record<string, unknown>;
  return bindAlgorithm(jwkKey(jwk, source), jwk.alg, source, purposeProblem(jwk));
}

/** Why a JWK says it is not for signatures (RFC 7517 §4.2 `use`, §4.3 `key_ops`), or undefined. */
function purposeProblem(jwk: Record<string, unknown>): string | undefined {
  if (jwk.use !== undefined && jwk.use !== 'sig') return `its use is ${JSON.stringify(jwk.use)}, not "sig"`;
  if (Array.isArray(jwk.key_ops) && !jwk.key_ops.some((op) => op === 'sign' || op === 'verify'))
    return 'its key_ops allow neither sign nor verify';
  return undefined;
}

function jwkKey(jwk: Record<string, unknown>, source: string): KeyMaterial {
  const keyId = typeof jwk.kid === 'string' ? jwk.kid : undefined;
  const extra: Partial<KeyMaterial> = keyId === undefined ? {} : { keyId, keyIdFrom: 'kid' };
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
  // Node reads only the members it knows; kid and x5c are read above, alg, use and key_ops by fromJwk.
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
  const { alg, kid } = pemHeaders(text, source);
  const material = fromAsymmetric(privateKey, publicKey, source, {
    ...(certificates.length > 0 ? { certificates } : {}),
    ...(kid === undefined ? {} : { keyId: kid, keyIdFrom: 'kid' as const }),
  });
  return bindAlgorithm(material, alg, source, undefined);
}

/**
 * The `alg:` and `kid:` lines of a PEM file's explanatory text (RFC 7468 §5.2: text outside the blocks, which
 * PEM readers skip). A PEM block carries no algorithm; keygen writes these lines so its PEM files are bound to
 * the algorithm and name of the JWK it writes beside them.
 */
function pemHeaders(text: string, source: string): { alg?: string; kid?: string } {
  const found: { alg?: string; kid?: string } = {};
  for (const line of text.replace(PEM_BLOCK, '\n').split(/\r?\n/)) {
    const match = /^(alg|kid):[ \t]*(\S+)[ \t]*$/.exec(line);
    if (match === null) continue;
    const [, name, value] = match as unknown as [string, 'alg' | 'kid', string];
    if (found[name] !== undefined && found[name] !== value)
      throw keyError(source, `it names two different values of ${name}`);
    found[name] = value;
  }
  return found;
}

/**
 * The key bound to the algorithm it names, if it names one. An algorithm the key cannot do (an EC P-256 key for
 * ES384, an RSA key for ES256) is a broken key file: refused. A name JSF does not define (a key for encryption in
 * a JWKS) leaves the key loaded but unusable, so the rest of a published key set still works.
 */
function bindAlgorithm(material: KeyMaterial, alg: unknown, source: string, purpose: string | undefined): KeyMaterial {
  if (purpose !== undefined) return { ...material, unusable: purpose };
  if (alg === undefined) return material;
  if (typeof alg !== 'string') throw keyError(source, '"alg" must be a string');
  // RFC 8037 names both Edwards-curve algorithms EdDSA; JSF names the curve, which the key fixes.
  const name = alg === 'EdDSA' && material.family === 'OKP' ? material.curve! : alg;
  const info = algorithmInfo(name);
  if (info === undefined)
    return { ...material, unusable: `it is for ${JSON.stringify(alg)}, which is not a JSF signature algorithm` };
  const mismatch = keyMismatch(info, usableKey(material));
  if (mismatch !== undefined) throw keyError(source, `its alg ${alg} does not fit the key: ${mismatch}`);
  return { ...material, algorithm: info.name };
}

/** The key object that makes or checks signatures: the secret, the public key, or the first certificate's key. */
export function usableKey(material: KeyMaterial): KeyObject | undefined {
  return material.secret ?? material.publicKey ?? material.certificates?.[0]?.publicKey;
}

function hashBytes(info: AlgorithmInfo): number {
  return info.hash === 'sha384' ? 48 : info.hash === 'sha512' ? 64 : 32;
}

/** Why `key` cannot make or check an `info` signature (its type, curve, or an HMAC secret's size), or undefined. */
export function keyMismatch(info: AlgorithmInfo, key: KeyObject | undefined): string | undefined {
  if (key === undefined) return 'no usable key';
  if (info.family === 'oct') {
    if (key.type !== 'secret') return `${info.name} needs a secret key`;
    // RFC 7518 §3.2: a key of the same size as the hash output or larger MUST be used.
    const size = key.symmetricKeySize ?? 0;
    return size < hashBytes(info)
      ? `${info.name} needs a secret of at least ${hashBytes(info)} bytes (RFC 7518 §3.2), not ${size}`
      : undefined;
  }
  if (key.type === 'secret') return `${info.name} needs an ${info.family} key, not a secret`;
  const { family, curve } = describeKey(key, 'the key');
  if (family !== info.family) return `${info.name} needs an ${info.family} key, not ${family}`;
  if (info.curve !== undefined && curve !== info.curve) return `${info.name} needs curve ${info.curve}, not ${curve}`;
  return undefined;
}

/**
 * Why `material` may not make or check an `info` signature, or undefined when it may: a key bound to one
 * algorithm refuses every other (the algorithm-confusion rule of RFC 7517 §4.4 and JWS), and the key must fit.
 */
export function keyRefusal(info: AlgorithmInfo, material: KeyMaterial): string | undefined {
  if (material.unusable !== undefined) return material.unusable;
  if (material.algorithm !== undefined && material.algorithm !== info.name)
    return `it is a ${material.algorithm} key (its alg), not for ${info.name}`;
  return keyMismatch(info, usableKey(material));
}

/** How a key is named for keyId, for messages: `"kid" (kid of FILE)` or `"name" (file name of FILE)`. */
function describeKeyId(material: KeyMaterial): string {
  const id = material.keyId === undefined ? '(no keyId)' : JSON.stringify(clip(material.keyId));
  return `${id} (${material.keyIdFrom === 'file' ? 'file name of' : 'kid of'} ${clip(material.source)})`;
}

function clip(text: string, max = 100): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** At most `max` keys named as in {@link describeKeyId}, with how many more there are. */
export function listKeyIds(keys: readonly KeyMaterial[], max = 5): string {
  const shown = keys.slice(0, max).map(describeKeyId).join(', ');
  return keys.length > max ? `${shown} and ${keys.length - max} more` : shown;
}

/**
 * The one signing key among `keys` (a file's content): a file of several keys (a JWKS) needs `keyId`, and a key
 * with a kid of its own is named by it alone, so a keyId that contradicts it is refused rather than written
 * where no verifier would find the key.
 */
export function selectKey(keys: readonly KeyMaterial[], keyId: string | undefined, source: string): KeyMaterial {
  if (keys.length === 0) throw keyError(source, 'it holds no key');
  if (keys.length > 1) {
    if (keyId === undefined) throw keyError(source, `it holds ${keys.length} keys; choose one by its keyId`);
    const matches = keys.filter((k) => k.keyId === keyId);
    if (matches.length === 1) return matches[0]!;
    throw keyError(
      source,
      matches.length === 0
        ? `no key in it has keyId ${JSON.stringify(clip(keyId))}; it has ${listKeyIds(keys)}`
        : `${matches.length} keys in it have keyId ${JSON.stringify(clip(keyId))}`,
    );
  }
  const key = keys[0]!;
  if (keyId !== undefined && key.keyIdFrom === 'kid' && key.keyId !== keyId)
    throw keyError(
      source,
      `its kid is ${JSON.stringify(clip(key.keyId!))}, so keyId ${JSON.stringify(clip(keyId))} would name another key`,
    );
  return key;
}

export interface LoadKeyOptions {
  /** The passphrase of an encrypted PEM private key. */
  passphrase?: string;
  /** Bind the key to this algorithm; refused when the key names another or cannot do it. */
  algorithm?: JsfAlgorithm;
  /** The entry of a JWKS to use (by kid); for a single key, its kid must be this when it has one. */
  keyId?: string;
  /** What to call the key in messages (default "the key"). */
  source?: string;
}

/**
 * One key, ready to sign or trust: PEM text (with an optional `alg:` line), a JWK as an object or JSON text, a
 * JWKS entry chosen by `keyId`, or an HMAC secret (oct JWK, hex text).
 */
export function loadKey(input: string | object, options: LoadKeyOptions = {}): KeyMaterial {
  const source = options.source ?? 'the key';
  let text: string;
  if (typeof input === 'string') text = input;
  else if (input !== null && typeof input === 'object' && !Array.isArray(input)) text = JSON.stringify(input);
  else throw new BomwrightError('E_USAGE', 'loadKey takes PEM text, JWK text or a JWK object');
  const key = selectKey(
    parseKeyMaterial(text, source, options.passphrase === undefined ? {} : { passphrase: options.passphrase }),
    options.keyId,
    source,
  );
  if (options.algorithm === undefined) return key;
  const info = algorithmInfo(options.algorithm);
  if (info === undefined)
    throw new BomwrightError('E_USAGE', `Unknown algorithm ${JSON.stringify(clip(String(options.algorithm)))}`);
  const refusal = keyRefusal(info, key);
  if (refusal !== undefined) throw keyError(source, `not for ${info.name}: ${refusal}`);
  return { ...key, algorithm: info.name };
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
