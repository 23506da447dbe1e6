/**
 * Committing what a flow changed in a document: nothing at all when the content is the same (a second run with no
 * change in the service leaves the document, and its version, as they were); otherwise the next version (bumped by
 * one, serial number kept), every signature the change invalidated signed again or removed as asked (never left
 * stale), and the result validated before anyone writes it.
 */
import { bumpDocument } from '../author/bump.js';
import { contentChanged } from '../compare/content.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { BomwrightError } from '../errors.js';
import { resignRemoved, type ResignRequest } from '../jsf/resign.js';
import type { KeyMaterial } from '../jsf/keys.js';
import { validate } from '../validate/index.js';

export interface SignaturePolicy {
  /** Sign again, with this key, everything that was signed (each in its old shape). */
  key?: KeyMaterial;
  /** keyId or certificate path for the new signatures (see `bump --key`). */
  resign?: ResignRequest;
  /** Remove the signatures the change invalidates instead (each is reported as a warning). */
  dropSignatures?: boolean;
}

export interface CommitOptions extends SignaturePolicy {
  /** The new metadata.timestamp (default: now). */
  now?: Date;
  /** `original` is a new document, not yet written anywhere: validated, but not bumped. */
  fresh?: boolean;
}

export interface CommitResult {
  /** The document to write: the original object itself when nothing changed. */
  document: Record<string, unknown>;
  changed: boolean;
  /** False when the changed document does not validate: it must not be written (see `diagnostics`). */
  valid: boolean;
  diagnostics: Diagnostic[];
  /** The document's version after the commit. */
  version: number;
  /** Objects signed again with the key. */
  resigned: number;
  /** Signatures removed (pointers), with `dropSignatures`. */
  droppedSignatures: string[];
}

/**
 * The committed form of `edited`, a changed copy of `original`. Refuses (E_USAGE) to leave a signature stale; a
 * result that does not validate comes back with `valid: false` and its diagnostics, not to be written.
 */
export async function commitChange(
  original: Record<string, unknown>,
  edited: Record<string, unknown>,
  options: CommitOptions = {},
): Promise<CommitResult> {
  const version = typeof original.version === 'number' ? original.version : 1;
  if (options.fresh === true) {
    const result = await validate(edited, { signatures: 'ignore' });
    return {
      document: edited,
      changed: true,
      valid: result.valid,
      diagnostics: result.diagnostics,
      version,
      resigned: 0,
      droppedSignatures: [],
    };
  }
  if (!contentChanged(original, edited))
    return {
      document: original,
      changed: false,
      valid: true,
      diagnostics: [],
      version,
      resigned: 0,
      droppedSignatures: [],
    };
  const bumped = bumpDocument(edited, options.now === undefined ? {} : { now: options.now });
  let document: Record<string, unknown> = bumped.document;
  let resigned = 0;
  let droppedSignatures: string[] = [];
  if (bumped.removedSignatures.length > 0) {
    if (options.key !== undefined) {
      const signed = resignRemoved(document, edited, bumped.removedSignatures, options.key, options.resign);
      document = signed.document as Record<string, unknown>;
      resigned = signed.signed;
    } else if (options.dropSignatures === true) droppedSignatures = bumped.removedSignatures;
    else {
      const count = bumped.removedSignatures.length;
      throw new BomwrightError(
        'E_USAGE',
        `The document is signed (${count} signature${count === 1 ? '' : 's'}) and this change invalidates ${count === 1 ? 'it' : 'them'}: re-sign with --key, or remove ${count === 1 ? 'it' : 'them'} with --drop-signatures`,
      );
    }
  }
  const result = await validate(document, { signatures: resigned > 0 ? 'verify' : 'ignore' });
  return {
    document,
    changed: true,
    valid: result.valid,
    diagnostics: result.diagnostics,
    version: bumped.version,
    resigned,
    droppedSignatures,
  };
}
