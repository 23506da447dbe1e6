/**
 * JSF signing: the mirror of verification. The signature object is built without `value`, the holding object
 * is canonicalized with it (signers: alone in the array; chain: after the earlier signers), and the signature
 * bytes are added as strict base64url.
 */
import { constants, createHmac, sign as cryptoSign, type KeyObject, type X509Certificate } from 'node:crypto';
import { BomwrightError } from '../errors.js';
import { algorithmInfo, defaultAlgorithm, type AlgorithmInfo, type JsfAlgorithm } from './algorithms.js';
import { encodeBase64url } from './base64url.js';
import { canonicalize } from './jcs.js';
import { keyRefusal, publicJwk, sameKey, type KeyMaterial } from './keys.js';
import { signedView } from './verify.js';
import { isRecord } from '../values.js';

export type SignMode = 'single' | 'add' | 'chain';

export interface SignOptions {
  key: KeyMaterial;
  /** Default: follows from the key (ES256/384/512 by curve, RS256, Ed25519/Ed448, HS256). */
  algorithm?: JsfAlgorithm;
  /** Embed the public key (default for asymmetric keys). */
  publicKey?: boolean;
  keyId?: string;
  /** Embed this certificate path (leaf first) as certificatePath. */
  certificatePath?: readonly X509Certificate[];
  /** `single` replaces any signature; `add` makes or extends `signers`; `chain` makes or extends `chain`. */
  mode?: SignMode;
  property?: string;
  /** Top-level members of the holder left unsigned (single signatures only). */
  excludes?: readonly string[];
}

/**
 * The algorithm to sign with: the requested one, else the key's own (its alg), else the one its type implies.
 * A request that contradicts the key's own algorithm is refused, never silently obeyed or ignored.
 */
export function resolveAlgorithm(key: KeyMaterial, requested?: string): AlgorithmInfo {
  const name = requested ?? key.algorithm ?? defaultAlgorithm(key.family, key.curve);
  const info = algorithmInfo(name);
  if (info === undefined) throw new BomwrightError('E_USAGE', `Unknown algorithm ${JSON.stringify(name)}`);
  const signingKey = key.secret ?? key.privateKey;
  if (signingKey === undefined)
    throw new BomwrightError('E_KEY', `${key.source} holds no private key or secret to sign with`);
  const refusal = keyRefusal(info, key);
  if (refusal) throw new BomwrightError('E_KEY', `Cannot sign with ${key.source}: ${refusal}`);
  return info;
}

export function signBytes(info: AlgorithmInfo, key: KeyObject, data: Buffer): Buffer {
  switch (info.family) {
    case 'oct':
      return createHmac(info.hash!, key).update(data).digest();
    case 'EC':
      return cryptoSign(info.hash, data, { key, dsaEncoding: 'ieee-p1363' });
    case 'OKP':
      return cryptoSign(null, data, key);
    case 'RSA':
      return info.pss
        ? cryptoSign(info.hash, data, {
            key,
            padding: constants.RSA_PKCS1_PSS_PADDING,
            saltLength: info.hash === 'sha384' ? 48 : info.hash === 'sha512' ? 64 : 32,
          })
        : cryptoSign(info.hash, data, { key, padding: constants.RSA_PKCS1_PADDING });
  }
}

/**
 * Adds a signature to `holder` in place (callers pass their own copy): the building block for signing many
 * objects of one document, innermost first.
 */
export function applySignature(holder: Record<string, unknown>, options: SignOptions): void {
  const property = options.property ?? 'signature';
  const info = resolveAlgorithm(options.key, options.algorithm);
  const core: Record<string, unknown> = { algorithm: info.name };
  if (options.keyId !== undefined) core.keyId = options.keyId;
  const embedKey = options.publicKey ?? (info.family !== 'oct' && options.certificatePath === undefined);
  if (embedKey) {
    if (info.family === 'oct')
      throw new BomwrightError('E_USAGE', 'An HMAC secret cannot be embedded as publicKey; use a keyId');
    core.publicKey = publicJwk(options.key.publicKey!);
  }
  if (options.certificatePath !== undefined) {
    const leaf = options.certificatePath[0];
    if (leaf === undefined || options.key.publicKey === undefined || !sameKey(leaf.publicKey, options.key.publicKey)) {
      throw new BomwrightError('E_KEY', 'The first certificate of the certificate path is not for the signing key');
    }
    core.certificatePath = options.certificatePath.map((c) => encodeBase64url(c.raw));
  }

  const mode = options.mode ?? 'single';
  const existing = holder[property];
  let object: Record<string, unknown>;
  let index: number | undefined;
  // JSF's global excludes (beside signers/chain) apply to every signer, the new one included.
  let inheritedExcludes: string[] | undefined;
  if (mode === 'single') {
    if (options.excludes && options.excludes.length > 0) core.excludes = [...options.excludes];
    object = core;
  } else {
    if (options.excludes && options.excludes.length > 0)
      throw new BomwrightError('E_USAGE', 'excludes is supported for single signatures only');
    const list = mode === 'add' ? 'signers' : 'chain';
    if (existing === undefined) {
      object = { [list]: [core] };
      index = 0;
    } else if (isRecord(existing) && Array.isArray(existing[list])) {
      const earlier = existing[list] as unknown[];
      object = { ...existing, [list]: [...earlier, core] };
      index = earlier.length;
      if (Array.isArray(existing.excludes)) inheritedExcludes = existing.excludes as string[];
    } else {
      const other =
        isRecord(existing) && 'signers' in existing
          ? 'multi-signature (signers)'
          : isRecord(existing) && 'chain' in existing
            ? 'signature chain'
            : 'single signature';
      throw new BomwrightError(
        'E_USAGE',
        `The object already has a ${other}; ${mode === 'add' ? '--add extends signers' : '--chain extends a chain'} only (a signature cannot change shape without being remade by its signer)`,
      );
    }
  }
  const shape = mode === 'single' ? 'single' : mode === 'add' ? 'signers' : 'chain';
  const excludes =
    mode === 'single' && options.excludes && options.excludes.length > 0 ? [...options.excludes] : inheritedExcludes;
  for (const name of excludes ?? []) {
    if (!Object.hasOwn(holder, name))
      throw new BomwrightError('E_USAGE', `Cannot exclude ${JSON.stringify(name)}: the object has no such member`);
  }
  const view = signedView(
    holder,
    property,
    { shape, object, ...(excludes ? { excludes } : {}) },
    { core, ...(index === undefined ? {} : { index }) },
  );
  const value = encodeBase64url(
    signBytes(info, (options.key.secret ?? options.key.privateKey)!, Buffer.from(canonicalize(view), 'utf8')),
  );
  core.value = value;
  holder[property] = object;
}

/** A copy of `holder` with one more signature (see {@link SignOptions.mode}). */
export function signObject<T extends Record<string, unknown>>(holder: T, options: SignOptions): T {
  const copy = { ...holder };
  applySignature(copy, options);
  return copy;
}
