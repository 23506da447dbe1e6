/**
 * JSF verification as a fixed pipeline per signer: syntax (signature.ts) → key resolution → signed data
 * (JCS of the holding object with this signer's `value` removed, per shape) → cryptographic check → trust.
 */
import {
  constants,
  createHmac,
  timingSafeEqual,
  verify as cryptoVerify,
  type KeyObject,
  type X509Certificate,
} from 'node:crypto';
import { appendPointer } from '../json/pointer.js';
import { forEachObject } from '../json/walk.js';
import type { AlgorithmInfo } from './algorithms.js';
import { canonicalize } from './jcs.js';
import { keyMismatch, keyRefusal, listKeyIds, sameKey, usableKey, type KeyMaterial } from './keys.js';
import { parseSignature, type ParsedSignature, type SignaturePolicy, type SignerEntry } from './signature.js';
import { certificatePathProblem, EMPTY_TRUST, keysWithId, pinsOf, type TrustStore } from './trust.js';

export type KeySource = 'publicKey' | 'keyId' | 'certificatePath' | 'implicit';
export type Verdict = 'valid' | 'invalid' | 'unverifiable';
export type Trust = 'trusted' | 'untrusted';

export interface SignerReport {
  /** Pointer of the signaturecore object (e.g. `/signature`, `/components/3/signature/signers/1`). */
  pointer: string;
  /** Pointer of the object the signature covers. */
  signedPointer: string;
  shape: ParsedSignature['shape'];
  index?: number;
  algorithm?: string;
  keySource: KeySource;
  keyId?: string;
  /** Subjects of the certificatePath's certificates, the signer's first (one line each). */
  certificates?: string[];
  verdict: Verdict;
  /** Why it is invalid or unverifiable. */
  reason?: string;
  /** Only meaningful for valid signatures. */
  trust: Trust;
  trustReason?: string;
  /** What made a trusted signature trusted: a key the trust store pins, or a root its certificate path reaches. */
  trustedBy?: 'key' | 'root';
}

export interface VerifyOptions extends SignaturePolicy {
  /** Member that holds signatures (JSF's default and CycloneDX's: `signature`). */
  property?: string;
  trust?: TrustStore;
  /** Clock for certificate validity. */
  now?: Date;
}

function keySourceOf(signer: SignerEntry): KeySource {
  if (signer.certificates) return 'certificatePath';
  if (signer.publicKey) return 'publicKey';
  if (signer.keyId !== undefined) return 'keyId';
  return 'implicit';
}

/** The report on a `signature` member of a BOM that is not a signature object at all (`"signature": "abc"`). */
export function malformedSignatureReport(pointer: string): SignerReport {
  return {
    pointer,
    signedPointer: pointer.slice(0, pointer.lastIndexOf('/')),
    shape: 'single',
    keySource: 'implicit',
    verdict: 'invalid',
    reason: 'the signature is not a JSF signature object',
    trust: 'untrusted',
  };
}

/** Verifies the signature held by `holder[property]` (or, for an array, its last element). */
export function verifySignatureOf(
  holder: Record<string, unknown> | unknown[],
  holderPointer: string,
  options: VerifyOptions = {},
): SignerReport[] {
  const property = options.property ?? 'signature';
  const isArray = Array.isArray(holder);
  const value = isArray ? holder[holder.length - 1] : holder[property];
  const pointer = isArray ? appendPointer(holderPointer, holder.length - 1) : appendPointer(holderPointer, property);
  const parsed = parseSignature(value, pointer, holder, options);
  const reports: SignerReport[] = [];
  if (parsed.signers.length === 0) {
    return [
      {
        pointer,
        signedPointer: holderPointer,
        shape: parsed.shape,
        keySource: 'implicit',
        verdict: 'invalid',
        reason: parsed.problems.join('; '),
        trust: 'untrusted',
      },
    ];
  }
  for (const signer of parsed.signers) {
    const base: SignerReport = {
      pointer: signer.pointer,
      signedPointer: holderPointer,
      shape: parsed.shape,
      ...(signer.index === undefined ? {} : { index: signer.index }),
      ...(signer.algorithm === undefined ? {} : { algorithm: signer.algorithm }),
      keySource: keySourceOf(signer),
      ...(signer.keyId === undefined ? {} : { keyId: signer.keyId }),
      ...(signer.certificates === undefined
        ? {}
        : { certificates: signer.certificates.map((c) => c.subject.replaceAll('\n', ', ')) }),
      verdict: 'invalid',
      trust: 'untrusted',
    };
    const problems = [...parsed.problems, ...signer.problems];
    if (problems.length > 0) {
      reports.push({ ...base, reason: problems.join('; ') });
      continue;
    }
    reports.push({ ...base, ...checkSigner(holder, property, parsed, signer, options) });
  }
  return reports;
}

function checkSigner(
  holder: Record<string, unknown> | unknown[],
  property: string,
  parsed: ParsedSignature,
  signer: SignerEntry,
  options: VerifyOptions,
): Pick<SignerReport, 'verdict' | 'reason' | 'trust' | 'trustReason' | 'trustedBy'> {
  const info = signer.info!;
  const store = options.trust ?? EMPTY_TRUST;
  let data: Buffer;
  try {
    data = Buffer.from(canonicalize(signedView(holder, property, parsed, signer)), 'utf8');
  } catch (error) {
    return {
      verdict: 'invalid',
      reason: `the signed data cannot be canonicalized: ${(error as Error).message}`,
      trust: 'untrusted',
    };
  }

  // Embedded key material first; the trust store supplies keys for keyId-only and implicit signatures.
  const embedded = signer.certificates?.[0]?.publicKey ?? signer.publicKey?.key;
  if (embedded !== undefined) {
    if (signer.certificates && signer.publicKey && !sameKey(signer.certificates[0]!.publicKey, signer.publicKey.key)) {
      return {
        verdict: 'invalid',
        reason: 'publicKey is not the key of the first certificate in certificatePath',
        trust: 'untrusted',
      };
    }
    const mismatch = keyMismatch(info, embedded);
    if (mismatch) return { verdict: 'invalid', reason: mismatch, trust: 'untrusted' };
    if (!checkBytes(info, embedded, data, signer.value!))
      return { verdict: 'invalid', reason: 'the signature does not match the signed data', trust: 'untrusted' };
    if (signer.certificates) return certificateTrust(signer.certificates, store, options.now ?? new Date());
    return pinTrust(info, pinsOf(store, embedded));
  }

  if (signer.keyId !== undefined) {
    const named = namedKeys(store, signer.keyId, 'keyId', info);
    return Array.isArray(named) ? tryKeys(info, named, data, signer.value!) : named;
  }
  const candidates = store.keys.filter((k) => keyRefusal(info, k) === undefined);
  if (candidates.length === 0) {
    return {
      verdict: 'unverifiable',
      reason: 'the signature carries no key and no trusted key fits it (--trust)',
      trust: 'untrusted',
    };
  }
  return tryKeys(info, candidates, data, signer.value!);
}

/** A signer's keyId in a message: quoted, and cut short (it comes from the document). */
function clipId(keyId: string): string {
  return JSON.stringify(keyId.length > 100 ? `${keyId.slice(0, 100)}…` : keyId);
}

/**
 * The trusted keys a signature names (JSF `keyId`, XML `KeyName`) that fit its algorithm, or the verdict when the
 * store holds none by that name (unverifiable) or none that fits (invalid).
 */
export function namedKeys(
  store: TrustStore,
  name: string,
  label: 'keyId' | 'KeyName',
  info: AlgorithmInfo,
): KeyMaterial[] | Pick<SignerReport, 'verdict' | 'reason' | 'trust'> {
  const named = keysWithId(store, name);
  if (named.length === 0)
    return {
      verdict: 'unverifiable',
      reason: `no key with keyId ${clipId(name)} in the trust store (--trust); ${
        store.keys.length === 0 ? 'it is empty' : `it has ${listKeyIds(store.keys)}`
      }`,
      trust: 'untrusted',
    };
  const fitting = named.filter((k) => keyRefusal(info, k) === undefined);
  if (fitting.length > 0) return fitting;
  return {
    verdict: 'invalid',
    reason: `${label} ${clipId(name)} names a key that does not fit: ${keyRefusal(info, named[0]!)}`,
    trust: 'untrusted',
  };
}

/** Trust in a signature that verified with the leaf of its embedded certificate path (JSF and XML alike). */
export function certificateTrust(
  certificates: readonly X509Certificate[],
  store: TrustStore,
  now: Date,
): Pick<SignerReport, 'verdict' | 'trust' | 'trustReason' | 'trustedBy'> {
  const problem = certificatePathProblem(certificates, store.roots, now);
  return problem === undefined
    ? { verdict: 'valid', trust: 'trusted', trustReason: 'certificate path chains to a trust root', trustedBy: 'root' }
    : { verdict: 'valid', trust: 'untrusted', trustReason: problem };
}

/** Trust in an embedded key the store pins: only for an algorithm the pinning entry allows. */
export function pinTrust(
  info: AlgorithmInfo,
  pins: readonly KeyMaterial[],
): Pick<SignerReport, 'verdict' | 'trust' | 'trustReason' | 'trustedBy'> {
  if (pins.length === 0)
    return { verdict: 'valid', trust: 'untrusted', trustReason: 'the embedded key is not in the trust store' };
  // The embedded key fits the algorithm already; what is left is each entry's own binding (alg, use, key_ops).
  const refusals = pins.map(
    (k) =>
      k.unusable ??
      (k.algorithm !== undefined && k.algorithm !== info.name
        ? `it is a ${k.algorithm} key (its alg), not for ${info.name}`
        : undefined),
  );
  if (refusals.includes(undefined))
    return {
      verdict: 'valid',
      trust: 'trusted',
      trustReason: 'the embedded key is in the trust store',
      trustedBy: 'key',
    };
  return {
    verdict: 'valid',
    trust: 'untrusted',
    trustReason: `the embedded key is in the trust store (${pins[0]!.source}), but ${refusals[0]!}`,
  };
}

function tryKeys(
  info: AlgorithmInfo,
  keys: readonly KeyMaterial[],
  data: Buffer,
  value: Buffer,
): Pick<SignerReport, 'verdict' | 'reason' | 'trust' | 'trustReason' | 'trustedBy'> {
  for (const candidate of keys) {
    if (checkBytes(info, usableKey(candidate)!, data, value))
      return { verdict: 'valid', trust: 'trusted', trustReason: `verified with ${candidate.source}`, trustedBy: 'key' };
  }
  return { verdict: 'invalid', reason: 'the signature does not match the signed data', trust: 'untrusted' };
}

function hashLength(hash: AlgorithmInfo['hash']): number {
  return hash === 'sha384' ? 48 : hash === 'sha512' ? 64 : 32;
}

export function checkBytes(info: AlgorithmInfo, key: KeyObject, data: Buffer, signature: Buffer): boolean {
  try {
    switch (info.family) {
      case 'oct': {
        const expected = createHmac(info.hash!, key).update(data).digest();
        return expected.length === signature.length && timingSafeEqual(expected, signature);
      }
      case 'EC':
        return cryptoVerify(info.hash, data, { key, dsaEncoding: 'ieee-p1363' }, signature);
      case 'OKP':
        return cryptoVerify(null, data, key, signature);
      case 'RSA':
        return info.pss
          ? cryptoVerify(
              info.hash,
              data,
              { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: hashLength(info.hash) },
              signature,
            )
          : cryptoVerify(info.hash, data, { key, padding: constants.RSA_PKCS1_PADDING }, signature);
    }
  } catch {
    return false;
  }
}

function withoutValue(core: Record<string, unknown>): Record<string, unknown> {
  const { value: _value, ...rest } = core;
  return rest;
}

/**
 * What a signer signed (JSF §6): the holding object with this signer's `value` removed; for `signers` only this
 * signer in the array; for `chain` the earlier signers (with their values) and this one; without `excludes`
 * and the properties it names. Shallow copies along the path only: the document is never copied or mutated.
 */
export function signedView(
  holder: Record<string, unknown> | unknown[],
  property: string,
  parsed: Pick<ParsedSignature, 'shape' | 'object' | 'excludes'>,
  signer: Pick<SignerEntry, 'core' | 'index'>,
): unknown {
  let signature: Record<string, unknown>;
  if (parsed.shape === 'single') signature = withoutValue(signer.core);
  else if (parsed.shape === 'signers') signature = { ...parsed.object, signers: [withoutValue(signer.core)] };
  else {
    const chain = parsed.object.chain as unknown[];
    signature = { ...parsed.object, chain: [...chain.slice(0, signer.index), withoutValue(signer.core)] };
  }
  if (parsed.excludes) delete signature.excludes;
  if (Array.isArray(holder)) return [...holder.slice(0, -1), signature];
  const view: Record<string, unknown> = { ...holder, [property]: signature };
  for (const name of parsed.excludes ?? []) delete view[name];
  return view;
}

export interface DocumentSignatures {
  reports: SignerReport[];
  /** Number of objects that hold a signature. */
  signedObjects: number;
  /** The objects that hold a signature, with their pointers. */
  holders: { record: Record<string, unknown>; pointer: string }[];
}

/**
 * Verifies every signature in a document: each object member named `property` whose value is an object, at
 * any depth (signature objects themselves are not searched), and the array form (a top-level array whose last
 * element is a signature object). Iterative: depth is attacker-controlled.
 */
export function verifyDocument(document: unknown, options: VerifyOptions = {}): DocumentSignatures {
  const property = options.property ?? 'signature';
  const reports: SignerReport[] = [];
  const holders: DocumentSignatures['holders'] = [];
  if (Array.isArray(document)) {
    const last: unknown = document[document.length - 1];
    if (last !== null && typeof last === 'object' && !Array.isArray(last) && 'algorithm' in last && 'value' in last) {
      return { reports: verifySignatureOf(document, '', options), signedObjects: 1, holders: [] };
    }
  }
  // Signature objects themselves are not searched: a signature inside a signature is not a thing.
  forEachObject(
    document,
    (record, pointer) => {
      const signature = Object.hasOwn(record, property) ? record[property] : undefined;
      // A JSF signature is an object. Another value under that name is someone else's data in JSON at large,
      // but in a BOM it is a broken signature.
      if (signature !== null && typeof signature === 'object' && !Array.isArray(signature)) {
        const at = pointer();
        holders.push({ record, pointer: at });
        reports.push(...verifySignatureOf(record, at, options));
      } else if (options.cyclonedx === true && Object.hasOwn(record, property)) {
        reports.push(malformedSignatureReport(appendPointer(pointer(), property)));
      }
    },
    (key) => key === property,
  );
  return { reports, signedObjects: holders.length, holders };
}
