import { judgeSignatures, misplacedSignatures, unsafeSignedNumbers } from '../jsf/judge.js';
import type { SpecFormat } from '../formats/formats.js';
import { malformedSignatureReport, verifySignatureOf } from '../jsf/verify.js';
import type { TrustStore } from '../jsf/trust.js';
import type { DecodeResult } from '../json/decode.js';
import { decodeDocumentBytes } from '../document/decode.js';
import { locatePointers, offsetsToPositions } from '../json/locate.js';
import { parseJsonText, parseJsonTextLettingGo, type ParseResult } from '../json/parse.js';
import { routeDocument } from '../formats/route.js';
import { findPlaces } from '../formats/signable.js';
import { checkIdentity } from './checks/identity.js';
import { checkReferences } from './checks/references.js';
import { indexDocument, type DocumentIndex } from './document-index.js';
import { countBySeverity, type Diagnostic } from '../diagnostics/diagnostic.js';
import { loadValidator, runValidator } from './schema.js';
import { schemaDiagnostics } from './schema-errors.js';
import { validationDetails, type ValidationDetails } from './details.js';
import { versionRule, versionRuleWithVerdict, type Baseline, type VersionVerdict } from './version-rule.js';
import { validateXmlText } from './xml.js';
import { syntaxOf } from '../document/syntax.js';
import { evaluateProfiles, type ProfileResult } from './profiles/evaluate.js';
import type { Profile } from './profiles/model.js';
import type { SignerReport } from '../jsf/verify.js';

/** What validate does with JSF signatures: check them, also require one on the document, or skip them. */
export const SIGNATURE_MODES = ['verify', 'require', 'ignore'] as const;
export type SignatureMode = (typeof SIGNATURE_MODES)[number];

export const DEFAULT_MAX_SIZE = 512 * 1024 * 1024;

export interface ValidateOptions {
  /** Validate against this specVersion's schema whatever the document says. */
  specVersion?: string;
  /** `verify` (default) checks signatures, `require` also fails unsigned documents, `ignore` skips them entirely. */
  signatures?: SignatureMode;
  /** Byte limit for byte and string input (default 512 MiB). */
  maxSize?: number;
  /** Keys and roots that make signatures trusted; untrusted valid signatures are warnings. */
  trust?: TrustStore;
  /** Untrusted or unverifiable signatures become errors. */
  requireTrusted?: boolean;
  /** Signatures that cannot be checked (no key for their keyId) are warnings instead of errors. */
  allowUnverifiable?: boolean;
  /** Top-level members a signature may leave unsigned through JSF `excludes`. */
  allowExcludes?: readonly string[];
  /** Check signature objects against the schema only, without cryptographic verification (for fresh signatures). */
  skipSignatureVerification?: boolean;
  /**
   * The version rule: the previous release of this document, as text, bytes or a parsed value. Text that is not
   * a JSON object (the file was not a BOM then) has nothing to compare with.
   */
  baseline?: Baseline;
  /**
   * Also return {@link ValidationResult.details}: each signer's verdict and trust, the version rule's verdict and
   * the dependency graph, for rich reports (html). Off by default: the other reports pay nothing for it.
   */
  details?: boolean;
  /**
   * Compliance profiles and organisation policies to check (see {@link loadProfiles} in the Node entry): each
   * unmet requirement is a diagnostic `profile/<name>/<id>`, and {@link ValidationResult.profiles} has the verdicts.
   */
  profiles?: readonly Profile[];
}

export interface ValidationResult {
  /** Id of the format the document was validated as, e.g. `cyclonedx-1.6`; absent when it could not be routed. */
  formatId?: string;
  /**
   * The syntax the document was read as: `json`, or `xml` (CycloneDX XML; its diagnostics' `pointer` is then an
   * XML location path such as `/bom/components/component[3]/purl`). Absent when the input could not be decoded.
   */
  syntax?: 'json' | 'xml';
  diagnostics: Diagnostic[];
  errors: number;
  warnings: number;
  /** True when there is no error (warnings allowed). */
  valid: boolean;
  /** Only with `details: true`: signatures, the version rule's verdict and the dependency graph. */
  details?: ValidationDetails;
  /** Only with `profiles`: each profile's verdict on this document (absent when it could not be read as a BOM). */
  profiles?: ProfileResult[];
}

/**
 * Validates one document: bytes (a file's content), text, or an already-parsed value (then without positions
 * and without the duplicate-key check, which needs the text). Document defects come back as diagnostics;
 * only operational failures (a missing build) throw.
 */
export async function validate(
  input: Uint8Array | string | object,
  options: ValidateOptions = {},
): Promise<ValidationResult> {
  return (await validateAndParse(input, options)).result;
}

/** {@link validate}, also handing back the parsed value and its text, so a caller that edits does not parse twice. */
export async function validateAndParse(
  input: Uint8Array | string | object,
  options: ValidateOptions = {},
): Promise<{ result: ValidationResult; value?: unknown; text?: string }> {
  const parsedInput: { value?: unknown; text?: string } = {};
  const result = await validateInto(input, options, parsedInput);
  return { result, ...parsedInput };
}

/**
 * A document that can be read again, as decoded text. Validating one releases the text once it is parsed and
 * reads the source again only to give positions to diagnostics: a 100 MB document then needs little more
 * memory than JSON.parse of it. The caller has checked the size.
 */
export class RereadableSource {
  constructor(readonly read: () => DecodeResult) {}
}

async function validateInto(
  input: Uint8Array | string | object,
  options: ValidateOptions,
  parsedInput: { value?: unknown; text?: string },
): Promise<ValidationResult> {
  const seen: Seen = { reports: [] };
  const result = await check(input, options, parsedInput, seen);
  if (options.details === true)
    result.details = validationDetails(seen.document, result.diagnostics, seen.reports, seen.verdict);
  return result;
}

/** What the checks saw on the way, for {@link ValidationResult.details}. */
interface Seen {
  document?: Record<string, unknown>;
  reports: SignerReport[];
  verdict?: VersionVerdict;
}

async function check(
  input: Uint8Array | string | object,
  options: ValidateOptions,
  parsedInput: { value?: unknown; text?: string },
  seen: Seen,
): Promise<ValidationResult> {
  const maxSize = options.maxSize ?? DEFAULT_MAX_SIZE;
  const diagnostics: Diagnostic[] = [];
  let text: string | undefined;
  let value: unknown;
  // How to get the text back for positions once it has been released (only for rereadable sources).
  let reread: (() => string | undefined) | undefined;
  let readAgain: (() => DecodeResult) | undefined;
  // XML read from UTF-16 (its declaration may say so).
  let encoding: DecodeResult['encoding'];
  // The index of the parsed tree, when the parser had it built.
  let parsedIndex: DocumentIndex | undefined;

  if (input instanceof RereadableSource) {
    const source = input;
    readAgain = () => source.read();
    reread = () => source.read().text;
    // Handed on as a string, so the text path below parses it; positions come from `reread`. Nothing else may
    // hold the text: it is released after parsing (a 100 MB document's text outweighs the validation's work).
    let read: DecodeResult | undefined = source.read();
    diagnostics.push(...read.diagnostics);
    if (read.text === undefined) return finish(diagnostics, undefined);
    input = read.text;
    encoding = read.encoding;
    read = undefined;
  }
  if (input instanceof Uint8Array || typeof input === 'string') {
    const size = typeof input === 'string' ? input.length : input.byteLength;
    if (size > maxSize) return tooLargeResult(size, maxSize);
    if (input instanceof Uint8Array) {
      const decoded = decodeDocumentBytes(input);
      // Release the bytes: from here on only the text is needed.
      input = '';
      diagnostics.push(...decoded.diagnostics);
      if (decoded.text === undefined) return finish(diagnostics, undefined);
      text = decoded.text;
      encoding = decoded.encoding;
    } else {
      text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
      if (/^[\t\n\r ]*$/.test(text))
        return finish(
          [{ ruleId: 'read/empty', severity: 'error', message: 'The document is empty', pointer: '' }],
          undefined,
        );
    }
    if (syntaxOf(text) === 'xml') {
      const xml = await validateXmlText(text, {
        ...(encoding === undefined ? {} : { encoding }),
        ...(options.specVersion === undefined ? {} : { specVersion: options.specVersion }),
        ...(options.signatures === undefined ? {} : { signatures: options.signatures }),
        ...(options.baseline === undefined ? {} : { baseline: options.baseline }),
        ...(options.trust === undefined ? {} : { trust: options.trust }),
        requireTrusted: options.requireTrusted === true,
        allowUnverifiable: options.allowUnverifiable === true,
        skipSignatureVerification: options.skipSignatureVerification === true,
        reportsOut: seen.reports,
        ...(options.profiles === undefined ? {} : { profiles: options.profiles }),
      });
      if (xml.document !== undefined) {
        seen.document = xml.document;
        // A caller that edits the document reads its model from here rather than reading the text again.
        parsedInput.value = xml.document;
        parsedInput.text = text;
      }
      return {
        ...finish([...diagnostics, ...xml.diagnostics], xml.formatId),
        syntax: 'xml',
        ...(xml.profiles === undefined ? {} : { profiles: xml.profiles }),
      };
    }
    // The document index's walk doubles as the parser's check of the tree (one walk, not two).
    const indexAndAgree = (tree: unknown, members: number): boolean => {
      parsedIndex = indexDocument(tree);
      return parsedIndex.members === members;
    };
    let parsed: ParseResult;
    if (readAgain !== undefined && !keepsTextForProfiles(options, text)) {
      // Handed over, both references: the parsed value is all that is needed once JSON.parse is done.
      const letGo = parseJsonTextLettingGo(
        () => {
          const handed = text!;
          text = undefined;
          input = '';
          return handed;
        },
        readAgain,
        indexAndAgree,
      );
      // Read again for the exact scan: positions come from that text rather than a third read.
      text = letGo.readAgain;
      parsed = letGo;
    } else parsed = parseJsonText(text, indexAndAgree);
    diagnostics.push(...parsed.diagnostics);
    if (!('value' in parsed)) return { ...finish(diagnostics, undefined), syntax: 'json' };
    value = parsed.value;
    if (reread === undefined) parsedInput.text = text;
  } else {
    value = input;
  }
  parsedInput.value = value;

  const route = routeDocument(value, options.specVersion);
  diagnostics.push(...route.diagnostics);
  const format = route.format;
  if (format === undefined) return { ...finish(locate(diagnostics, text, reread), undefined), syntax: 'json' };
  const document = value as Record<string, unknown>;
  seen.document = document;

  const index = parsedIndex ?? indexDocument(document);
  // Profiles take the refs the rules could not resolve rather than looking every ref up again.
  const profiling = options.profiles !== undefined && options.profiles.length > 0;
  const misses: { pointer: string; ref: string }[] | undefined = profiling ? [] : undefined;
  const ruleDiagnostics = [...checkIdentity(document, format), ...checkReferences(document, format, index, misses)];
  const mode = options.signatures ?? 'verify';
  if (mode === 'require' && document.signature === undefined) {
    ruleDiagnostics.push({
      ruleId: 'signature/missing',
      severity: 'error',
      message: 'The document is not signed (signatures are required)',
      pointer: '',
    });
  }

  if (options.baseline !== undefined && options.details === true) {
    const { diagnostics: found, verdict } = versionRuleWithVerdict(document, options.baseline);
    ruleDiagnostics.push(...found);
    seen.verdict = verdict;
  } else if (options.baseline !== undefined) ruleDiagnostics.push(...versionRule(document, options.baseline));

  if (mode !== 'ignore' && options.skipSignatureVerification !== true)
    ruleDiagnostics.push(...signatureDiagnostics(document, format, index, options, seen.reports));

  const validator = loadValidator(format);
  let fromSchema = schemaDiagnostics(runValidator(validator, document), document);
  // A rule that explains a location better than the schema does replaces the schema's complaint there. A
  // signature's verdict explains nothing about where it stands (a valid signature where the format allows none
  // is still the schema's unknown member), but a `signature` that is no object at all is explained by its own
  // report: the schema's reading of it (a null matches several JSF forms) would only confuse.
  const explained = new Set([
    ...ruleDiagnostics
      .filter((d) => d.pointer !== '' && (!d.ruleId.startsWith('signature/') || d.ruleId === 'signature/misplaced'))
      .map((d) => d.pointer),
    ...(mode === 'ignore' ? [] : index.malformedSignatures),
  ]);
  fromSchema = fromSchema.filter((d) => !explained.has(d.pointer));
  if (mode === 'ignore' && fromSchema.some((d) => d.pointer.includes('/signature'))) {
    const allowed = new Set(findPlaces(document, format.signable));
    fromSchema = fromSchema.filter((d) => !atAllowedSignature(d.pointer, allowed));
  }

  // Profiles read the same parsed document, after the rules; their findings never hide the schema's.
  const profiled = profiling ? evaluateProfiles(document, options.profiles!, { ...index, misses }) : undefined;
  diagnostics.push(...ruleDiagnostics, ...fromSchema, ...(profiled?.diagnostics ?? []));
  return {
    ...finish(locate(diagnostics, text, reread), format.id),
    syntax: 'json',
    ...(profiled === undefined ? {} : { profiles: profiled.results }),
  };
}

/**
 * Profiles find many things to place (a BOM that misses a field misses it in every component), so the text is
 * kept for them rather than read a second time, up to a size where its memory matters more than the read.
 */
const PROFILE_TEXT_KEPT_UP_TO = 32 * 1024 * 1024;

function keepsTextForProfiles(options: ValidateOptions, text: string): boolean {
  return (options.profiles?.length ?? 0) > 0 && text.length <= PROFILE_TEXT_KEPT_UP_TO;
}

/** The result for a document over the size limit, which is not read any further. */
export function tooLargeResult(size: number, maxSize: number): ValidationResult {
  return finish(
    [
      {
        ruleId: 'read/too-large',
        severity: 'error',
        message: `The document is ${size} bytes, over the --max-size limit of ${maxSize} bytes`,
        pointer: '',
      },
    ],
    undefined,
  );
}

/** The object holding a `signature` member, from the member's pointer. */
function holderOf(signaturePointer: string): { pointer: string } {
  return { pointer: signaturePointer.slice(0, signaturePointer.lastIndexOf('/')) };
}

/** Every JSF signature in the document, judged exactly as `bomwright verify` judges it. */
function signatureDiagnostics(
  document: Record<string, unknown>,
  format: SpecFormat,
  index: DocumentIndex,
  options: ValidateOptions,
  reportsOut: SignerReport[],
): Diagnostic[] {
  const verifyOptions = {
    cyclonedx: true,
    ...(options.trust ? { trust: options.trust } : {}),
    ...(options.allowExcludes ? { allowExcludes: options.allowExcludes } : {}),
  };
  const reports = [
    ...index.signed.flatMap(({ record, pointer }) => verifySignatureOf(record, pointer, verifyOptions)),
    ...index.malformedSignatures.map(malformedSignatureReport),
  ];
  reportsOut.push(...reports);
  return [
    ...judgeSignatures(reports, {
      requireTrusted: options.requireTrusted === true,
      allowUnverifiable: options.allowUnverifiable === true,
    }),
    ...unsafeSignedNumbers(index.signed),
    ...misplacedSignatures(document, [...index.signed, ...index.malformedSignatures.map(holderOf)], format.signable),
  ];
}

/**
 * With signatures ignored, nothing at or inside a signature at a place the format allows is checked; a
 * signature where the format allows none stays the schema's error.
 */
function atAllowedSignature(pointer: string, allowed: ReadonlySet<string>): boolean {
  const segments = pointer.split('/');
  const at = segments.indexOf('signature');
  return at !== -1 && allowed.has(segments.slice(0, at).join('/'));
}

/** Fills in line:column for diagnostics that only have a pointer, in one pass over the text. */
function locate(diagnostics: Diagnostic[], kept: string | undefined, reread?: () => string | undefined): Diagnostic[] {
  const missing = diagnostics.filter((d) => d.line === undefined);
  if (missing.length === 0) return diagnostics;
  const text = kept ?? reread?.();
  if (text === undefined) return diagnostics;
  // The parser reports every repeated member name; without one, root members may be found from the text's end.
  const uniqueMemberNames = !diagnostics.some((d) => d.ruleId === 'json/duplicate-key');
  const offsets = locatePointers(
    text,
    missing.map((d) => d.pointer),
    { uniqueMemberNames },
  );
  const positions = offsetsToPositions(text, offsets.values());
  for (const d of missing) {
    const offset = offsets.get(d.pointer);
    const position = offset === undefined ? undefined : positions.get(offset);
    if (position !== undefined) {
      d.line = position.line;
      d.column = position.column;
    }
  }
  return diagnostics;
}

function finish(diagnostics: Diagnostic[], formatId: string | undefined): ValidationResult {
  diagnostics.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  const { errors, warnings } = countBySeverity(diagnostics);
  return { ...(formatId === undefined ? {} : { formatId }), diagnostics, errors, warnings, valid: errors === 0 };
}
