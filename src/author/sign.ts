/**
 * Signing a document as the CLI does: a BOM is validated first and refused when it is not valid for its format
 * (a signature vouches for a document), then signed with one key. The library's `sign`.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { BomwrightError } from '../errors.js';
import type { JsfAlgorithm } from '../jsf/algorithms.js';
import type { KeyMaterial } from '../jsf/keys.js';
import { resolveAlgorithm } from '../jsf/sign.js';
import { signDocumentCounted, type DocumentSignOptions } from '../jsf/sign-document.js';
import { validate } from '../validate/index.js';
import { isRecord } from '../values.js';
import { signXmlText } from '../xml/sign.js';
import { syntaxOf } from '../document/syntax.js';

export interface SignResult {
  /** The signed copy; the document itself, untouched, when signing was refused. */
  document: unknown;
  /** False when the document is not valid for its format: nothing was signed (see `diagnostics`). */
  signed: boolean;
  /** Refused: the document's errors. Signed: its warnings. */
  diagnostics: Diagnostic[];
  /** How many objects were signed (0 when refused). */
  objects: number;
  /** The algorithm of the signatures: the one asked for, else the key's own, else the one its type implies. */
  algorithm: JsfAlgorithm;
}

const FAMILIES = new Set(['EC', 'RSA', 'OKP', 'oct']);

/** One key, not a list (parseKeyMaterial's) or anything else a caller in plain JavaScript might pass. */
function checkKey(key: unknown): asserts key is KeyMaterial {
  if (Array.isArray(key))
    throw new BomwrightError(
      'E_USAGE',
      `options.key is a list of ${key.length} key${key.length === 1 ? '' : 's'}; sign takes one key: loadKey(pemOrJwk), or one entry of the list`,
    );
  if (!isRecord(key) || typeof key.family !== 'string' || !FAMILIES.has(key.family))
    throw new BomwrightError('E_USAGE', 'options.key must be a key: loadKey(pemOrJwk) makes one');
}

/**
 * A signed copy of `document` (see {@link DocumentSignOptions}). A BOM (a document with `bomFormat` or
 * `specVersion`) that is not valid comes back unsigned with its errors; a key that cannot sign, or an algorithm
 * that contradicts the key's own, throws `E_KEY`.
 */
export async function signBom(document: unknown, options: DocumentSignOptions): Promise<SignResult> {
  checkKey(options.key);
  const xml = xmlText(document);
  if (xml !== undefined) return signXmlBom(xml, options);
  const algorithm = resolveAlgorithm(options.key, options.algorithm).name;
  let warnings: Diagnostic[] = [];
  if (isRecord(document) && ('bomFormat' in document || 'specVersion' in document)) {
    // The same check as the CLI's: the signatures already there are read, not verified (signing adds its own).
    const result = await validate(document, { signatures: 'verify', skipSignatureVerification: true });
    if (!result.valid) {
      const errors = result.diagnostics.filter((d) => d.severity === 'error');
      return { document, signed: false, diagnostics: errors, objects: 0, algorithm };
    }
    warnings = result.diagnostics;
  }
  const { document: signed, signed: objects } = signDocumentCounted(document, { ...options, algorithm });
  return { document: signed, signed: true, diagnostics: warnings, objects, algorithm };
}

/** CycloneDX XML given as bytes or text (markup first), decoded strictly; undefined for anything else. */
export function xmlText(document: unknown): string | undefined {
  let text: string;
  if (typeof document === 'string') text = document;
  else if (document instanceof Uint8Array) {
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(document);
    } catch {
      throw new BomwrightError('E_INPUT', 'The document is not valid UTF-8');
    }
  } else return undefined;
  return syntaxOf(text) === 'xml' ? text : undefined;
}

/**
 * XML: the whole document, with one enveloped XML signature (CycloneDX CLI's form); the signed document comes
 * back as text. Options that only JSF has (targets, signers, chains, excludes, another member name) are refused.
 */
async function signXmlBom(text: string, options: DocumentSignOptions): Promise<SignResult> {
  const targets = options.targets ?? ['root'];
  if (
    targets.length !== 1 ||
    targets[0] !== 'root' ||
    (options.mode ?? 'single') !== 'single' ||
    (options.property ?? 'signature') !== 'signature' ||
    (options.excludes ?? []).length > 0
  )
    throw new BomwrightError(
      'E_USAGE',
      'targets, mode, property and excludes apply to JSON only: an XML signature covers the whole document',
    );
  const algorithm = resolveAlgorithm(options.key, options.algorithm).name;
  const result = await validate(text, { skipSignatureVerification: true });
  if (!result.valid) {
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    return { document: text, signed: false, diagnostics: errors, objects: 0, algorithm };
  }
  const signed = signXmlText(text, {
    key: options.key,
    algorithm,
    publicKey: options.publicKey === true,
    ...(options.keyId === undefined ? {} : { keyId: options.keyId }),
    ...(options.certificatePath === undefined ? {} : { certificatePath: options.certificatePath }),
  });
  return { document: signed.text, signed: true, diagnostics: result.diagnostics, objects: 1, algorithm };
}
