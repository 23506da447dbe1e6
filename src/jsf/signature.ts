/**
 * Reading a JSF signature object strictly (JSF 0.82 §3): its shape (single, signers, chain), the members each
 * level may hold, and every field's syntax. Problems are returned as text, never thrown.
 */
import { X509Certificate, type KeyObject } from 'node:crypto';
import { algorithmInfo, type AlgorithmInfo } from './algorithms.js';
import { decodeBase64url } from './base64url.js';
import { importPublicJwk, type PublicJwk } from './keys.js';
import { isRecord } from '../values.js';

type SignatureShape = 'single' | 'signers' | 'chain';

export interface SignerEntry {
  /** The signaturecore object itself (inside the document). */
  core: Record<string, unknown>;
  /** Pointer of the signaturecore object. */
  pointer: string;
  index?: number;
  algorithm?: string;
  info?: AlgorithmInfo;
  value?: Buffer;
  keyId?: string;
  publicKey?: { key: KeyObject; jwk: PublicJwk };
  certificates?: X509Certificate[];
  /** Syntax problems of this signer; a signer with problems is never verified. */
  problems: string[];
}

export interface ParsedSignature {
  shape: SignatureShape;
  /** The JSF object (the value of the signature property). */
  object: Record<string, unknown>;
  pointer: string;
  signers: SignerEntry[];
  excludes?: string[];
  extensions?: string[];
  /** Problems of the signature object as a whole (they make every signer fail). */
  problems: string[];
}

export interface SignaturePolicy {
  /** Names the verifier accepts in `excludes` (JSF: unsigned, so only by configuration). Default none. */
  allowExcludes?: readonly string[];
  /** Names the verifier accepts in `extensions`. Default none. */
  allowExtensions?: readonly string[];
  /** CycloneDX's jsf-0.82 profile: no extensions, and excludes only on a single signature. */
  cyclonedx?: boolean;
}

const CORE = ['algorithm', 'keyId', 'publicKey', 'certificatePath', 'value'];
const GLOBAL = ['extensions', 'excludes'];
const RESERVED = new Set([...CORE, 'chain', 'signers', ...GLOBAL]);

function stringList(value: unknown, name: string, problems: string[]): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string')) {
    problems.push(`${name} must be a non-empty array of strings`);
    return undefined;
  }
  if (new Set(value).size !== value.length) problems.push(`${name} has duplicate names`);
  return value as string[];
}

export function parseSignature(
  value: unknown,
  pointer: string,
  holder: Record<string, unknown> | unknown[],
  policy: SignaturePolicy,
): ParsedSignature {
  const problems: string[] = [];
  if (!isRecord(value)) {
    return { shape: 'single', object: {}, pointer, signers: [], problems: ['the signature must be a JSON object'] };
  }
  const isSigners = 'signers' in value;
  const isChain = 'chain' in value;
  const shape: SignatureShape = isSigners ? 'signers' : isChain ? 'chain' : 'single';
  if (isSigners && isChain) problems.push('a signature cannot have both "signers" and "chain"');

  const extensions = stringList(value.extensions, 'extensions', problems);
  if (extensions) {
    if (policy.cyclonedx) problems.push('CycloneDX signatures cannot use JSF extensions');
    for (const name of extensions) {
      if (RESERVED.has(name)) problems.push(`extension name "${name}" is a reserved JSF word`);
      else if (!(policy.allowExtensions ?? []).includes(name))
        problems.push(`extension "${name}" is not allowed (see --allow-extensions)`);
    }
  }
  const excludes = stringList(value.excludes, 'excludes', problems);
  if (excludes) {
    if (policy.cyclonedx && shape !== 'single') problems.push('CycloneDX allows "excludes" only on a single signature');
    for (const name of excludes) {
      if (!(policy.allowExcludes ?? []).includes(name))
        problems.push(`excluded property "${name}" is not allowed (see --allow-excludes)`);
      else if (Array.isArray(holder) || !Object.hasOwn(holder, name))
        problems.push(`excluded property "${name}" is not in the signed object`);
    }
  }

  const signers: SignerEntry[] = [];
  if (shape === 'single') {
    const extra = Object.keys(value).filter(
      (k) => !CORE.includes(k) && !GLOBAL.includes(k) && !(extensions ?? []).includes(k),
    );
    if (extra.length > 0)
      problems.push(`unknown member${extra.length > 1 ? 's' : ''} in the signature: ${extra.join(', ')}`);
    signers.push(parseCore(value, pointer, undefined, extensions));
  } else {
    const list = value[shape];
    const extra = Object.keys(value).filter((k) => k !== shape && !GLOBAL.includes(k));
    if (extra.length > 0)
      problems.push(`unknown member${extra.length > 1 ? 's' : ''} beside "${shape}": ${extra.join(', ')}`);
    if (!Array.isArray(list) || list.length === 0) problems.push(`"${shape}" must be a non-empty array`);
    else
      list.forEach((entry: unknown, index) => {
        const entryPointer = `${pointer}/${shape}/${index}`;
        if (!isRecord(entry)) {
          signers.push({ core: {}, pointer: entryPointer, index, problems: ['a signer must be a JSON object'] });
          return;
        }
        const signer = parseCore(entry, entryPointer, index, extensions);
        const extraInner = Object.keys(entry).filter((k) => !CORE.includes(k) && !(extensions ?? []).includes(k));
        if (extraInner.length > 0)
          signer.problems.push(
            `unknown member${extraInner.length > 1 ? 's' : ''} in the signer: ${extraInner.join(', ')}`,
          );
        signers.push(signer);
      });
  }
  return {
    shape,
    object: value,
    pointer,
    signers,
    ...(excludes ? { excludes } : {}),
    ...(extensions ? { extensions } : {}),
    problems,
  };
}

function parseCore(
  core: Record<string, unknown>,
  pointer: string,
  index: number | undefined,
  extensions: string[] | undefined,
): SignerEntry {
  const problems: string[] = [];
  const entry: SignerEntry = { core, pointer, ...(index === undefined ? {} : { index }), problems };
  if (typeof core.algorithm !== 'string') problems.push('"algorithm" is missing or not a string');
  else {
    entry.algorithm = core.algorithm;
    const info = algorithmInfo(core.algorithm);
    if (info) entry.info = info;
    else if (core.algorithm === 'EdDSA')
      problems.push('"EdDSA" is not a JSF algorithm name; JSF uses "Ed25519" or "Ed448"');
    else problems.push(`unsupported algorithm ${JSON.stringify(core.algorithm)}`);
  }
  if (typeof core.value !== 'string') problems.push('"value" is missing or not a string');
  else {
    const value = decodeBase64url(core.value);
    if (value === undefined) problems.push('"value" is not strict base64url (no padding, URL-safe alphabet)');
    else {
      entry.value = value;
      const expected = entry.info?.signatureLength;
      if (expected !== undefined && value.length !== expected) {
        const der = entry.info?.family === 'EC' && value[0] === 0x30;
        problems.push(
          `"value" is ${value.length} bytes; ${entry.algorithm} needs ${expected}${der ? ' (it looks DER-encoded; JSF uses raw R‖S)' : ''}`,
        );
      }
    }
  }
  if (core.keyId !== undefined) {
    if (typeof core.keyId !== 'string') problems.push('"keyId" must be a string');
    else entry.keyId = core.keyId;
  }
  if (core.publicKey !== undefined) {
    const imported = importPublicJwk(core.publicKey);
    if ('problem' in imported) problems.push(imported.problem);
    else entry.publicKey = imported;
  }
  if (core.certificatePath !== undefined) {
    const list = core.certificatePath;
    if (!Array.isArray(list) || list.length === 0) problems.push('"certificatePath" must be a non-empty array');
    else {
      const certificates: X509Certificate[] = [];
      for (const item of list) {
        const der = typeof item === 'string' ? decodeBase64url(item) : undefined;
        if (der === undefined) {
          problems.push('"certificatePath" items must be strict base64url DER certificates');
          break;
        }
        try {
          certificates.push(new X509Certificate(der));
        } catch {
          problems.push('"certificatePath" holds something that is not an X.509 certificate');
          break;
        }
      }
      if (certificates.length === list.length) entry.certificates = certificates;
    }
  }
  void extensions;
  return entry;
}
