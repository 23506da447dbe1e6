/**
 * Signing again what was signed before (after a bump): the same shape and the same kind of key information,
 * so a document that verified with `--trust-root` or a keyId still does. What cannot be kept is refused with
 * the reason, never silently changed.
 */
import type { X509Certificate } from 'node:crypto';
import { BomwrightError } from '../errors.js';
import { isRecord } from '../values.js';
import { algorithmInfo, type JsfAlgorithm } from './algorithms.js';
import { resolvePointer } from '../json/pointer.js';
import type { KeyMaterial } from './keys.js';
import type { SignOptions } from './sign.js';
import { signDocumentCounted } from './sign-document.js';

export interface ResignRequest {
  /** The keyId to write where the old signature had one (default: the old keyId). */
  keyId?: string;
  /** The certificate path to write where the old signature had one (it cannot be rebuilt from the key). */
  certificatePath?: readonly X509Certificate[];
}

/** The signing options that reproduce the shape and key information of `signature` (the value that was there). */
export function resignOptions(
  signature: unknown,
  where: string,
  request: ResignRequest = {},
): Omit<SignOptions, 'key'> {
  if (!isRecord(signature)) throw new BomwrightError('E_USAGE', `${where} holds no signature object to re-sign`);
  let core: Record<string, unknown> = signature;
  let mode: SignOptions['mode'] = 'single';
  for (const list of ['signers', 'chain'] as const) {
    const entries = signature[list];
    if (!Array.isArray(entries)) continue;
    if (entries.length === 1 && !isRecord(entries[0]))
      throw new BomwrightError(
        'E_USAGE',
        `${where} has a ${list === 'signers' ? 'signer' : 'chain entry'} that is not a JSON object; bump cannot re-sign it: bump with --drop-signatures, then sign again`,
      );
    if (entries.length !== 1)
      throw new BomwrightError(
        'E_USAGE',
        `${where} has ${entries.length} ${list === 'signers' ? 'signers' : 'chain entries'}; bump re-signs with one key: bump with --drop-signatures, then have each signer run bomwright sign --${list === 'signers' ? 'add' : 'chain'}`,
      );
    core = entries[0];
    mode = list === 'signers' ? 'add' : 'chain';
  }
  const options: Omit<SignOptions, 'key'> = { mode };
  const algorithm = core.algorithm;
  if (typeof algorithm === 'string' && algorithmInfo(algorithm) !== undefined)
    options.algorithm = algorithm as JsfAlgorithm;
  if (core.certificatePath !== undefined) {
    if (request.certificatePath === undefined)
      throw new BomwrightError(
        'E_USAGE',
        `${where} was signed with a certificate path; give it again with --cert-chain (a key alone cannot rebuild it)`,
      );
    options.certificatePath = request.certificatePath;
  }
  options.publicKey = core.publicKey !== undefined;
  const keyId = typeof core.keyId === 'string' ? (request.keyId ?? core.keyId) : undefined;
  if (keyId !== undefined) options.keyId = keyId;
  if (mode === 'single' && Array.isArray(signature.excludes))
    options.excludes = signature.excludes.filter((e): e is string => typeof e === 'string');
  return options;
}

/**
 * Signs `changed` again wherever a change removed a signature (`removed`: pointers of the signature members),
 * each object with the shape and kind of key information its old signature had in `before`. Innermost first and
 * the root last, so every signature verifies.
 */
export function resignRemoved(
  changed: unknown,
  before: unknown,
  removed: readonly string[],
  key: KeyMaterial,
  request: ResignRequest = {},
): { document: unknown; signed: number } {
  const plan = new Map(
    removed.map((pointer) => {
      const holder = pointer.replace(/\/signature$/, '');
      return [holder, resignOptions(resolvePointer(before, pointer), holder || 'the document root', request)] as const;
    }),
  );
  const targets = removed.map((pointer) => pointer.replace(/\/signature$/, '') || 'root');
  return signDocumentCounted(changed, { key, targets }, plan);
}
