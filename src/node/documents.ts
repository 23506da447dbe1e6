/**
 * Documents read from files and standard input through the one reader (src/document/), in either syntax, and
 * written back atomically: JSON strictly (duplicate keys and unsafe numbers refused), CycloneDX XML with its
 * layout kept where only values change.
 */
import { BomwrightError, isBomwrightError } from '../errors.js';
import type { DecodeResult } from '../json/decode.js';
import { DEFAULT_MAX_DOCUMENT, readBaselineBytes, readDocumentText, readInput } from './files.js';
import { STDIN } from './discover.js';
import { validateAndParse } from '../validate/index.js';
import { writeFileAtomic } from './write.js';
import { parseJsonText } from '../json/parse.js';
import { numbersThatWouldChange } from '../json/numbers.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import {
  decodeDocumentBytes,
  jsonDocument,
  readDocument,
  xmlDocument,
  type BomDocument,
  type DocumentRead,
} from '../document/read.js';
import { writeDocument, type DroppedMember } from '../document/write.js';
import { outputSyntax, syntaxOf, type Syntax } from '../document/syntax.js';
import { isRecord } from '../values.js';

interface LoadedJson {
  text: string;
  value: unknown;
}

/**
 * A JSON file that every parser reads the same way (a package.json), or the reasons it is not (syntax, duplicate
 * member names, unpaired surrogates). Read without an intermediate buffer (see readDocumentText).
 */
export function loadJsonFile(file: string): LoadedJson | { problems: Diagnostic[] } {
  const decoded = readDocumentText(file).decoded;
  if (decoded.text === undefined) return { problems: decoded.diagnostics };
  const parsed = parseJsonText(decoded.text);
  const problems = parsed.diagnostics.filter((d) => d.severity === 'error');
  if (!('value' in parsed) || problems.length > 0)
    return { problems: problems.length > 0 ? problems : parsed.diagnostics };
  return { text: decoded.text, value: parsed.value };
}

/** The decoded text of a file, or of standard input for `-` (read with the document size bound). */
async function decodedInput(source: string): Promise<DecodeResult> {
  if (source !== STDIN) return readDocumentText(source).decoded;
  const { bytes, size } = await readInput(STDIN, DEFAULT_MAX_DOCUMENT);
  if (bytes === undefined)
    throw new BomwrightError(
      'E_READ',
      `Cannot read standard input: over the limit of ${DEFAULT_MAX_DOCUMENT} bytes (${size})`,
    );
  return decodeDocumentBytes(bytes);
}

/** The text to read: with its byte-order mark again, so a document written back in its syntax keeps it. */
function withMark(decoded: DecodeResult & { text: string }): string {
  return decoded.mark === true || decoded.diagnostics.some((d) => d.ruleId === 'read/byte-order-mark')
    ? `\uFEFF${decoded.text}`
    : decoded.text;
}

/** Why a document cannot be read; with its text and syntax when it could at least be decoded. */
interface UnreadDocument {
  problems: Diagnostic[];
  text?: string;
  syntax?: Syntax;
}

/** A document (JSON or CycloneDX XML) from a file, or standard input for `-`, or the reasons it cannot be read. */
export async function loadDocument(source: string): Promise<BomDocument | UnreadDocument> {
  const decoded = await decodedInput(source);
  if (decoded.text === undefined) return { problems: decoded.diagnostics };
  const read = readDocument(withMark({ ...decoded, text: decoded.text }));
  return read.ok ? read.document : { problems: read.diagnostics, text: decoded.text, syntax: syntaxOf(decoded.text) };
}

/**
 * A previous release named on purpose (--baseline FILE), in either syntax: its model, or E_INPUT when it cannot
 * be read, since the version rule would otherwise pass by having nothing to compare with.
 */
export function loadBaselineFile(file: string): unknown {
  let decoded: DecodeResult;
  try {
    decoded = decodeDocumentBytes(readBaselineBytes(file));
  } catch (error) {
    // Reported beside the document checked against it: say which file could not be read.
    if (isBomwrightError(error))
      throw new BomwrightError(error.code, `the baseline: ${error.message}`, { cause: error });
    throw error;
  }
  if (decoded.text === undefined) throw describeProblems(file, decoded.diagnostics);
  const read = readDocument(decoded.text);
  if (!read.ok) throw describeProblems(file, read.diagnostics);
  return read.document.model;
}

export function describeProblems(name: string, problems: readonly Diagnostic[]): BomwrightError {
  const first = problems[0];
  const where = first?.line === undefined ? '' : `:${first.line}:${first.column ?? 1}`;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return new BomwrightError(
    'E_INPUT',
    `${name}${where}: ${first?.message ?? 'unreadable'} [${first?.ruleId ?? 'json/syntax'}]${more}`,
  );
}

/** A document read for rewriting, with what is needed to write it back the same way. */
export interface EditableDocument {
  file: string;
  /** The document as read: its syntax, its text and the way to write a changed model back into it. */
  source: BomDocument;
  value: Record<string, unknown>;
  diagnostics: Diagnostic[];
  valid: boolean;
}

/**
 * Reads a BOM that a command will rewrite (bump, normalize, add, set, sign), JSON or CycloneDX XML: validated,
 * strictly read (duplicate keys and unreadable text refused), and refused when a rewrite would change a JSON
 * number literal that a double cannot hold.
 */
export async function loadEditable(file: string): Promise<EditableDocument> {
  // Read as text without an intermediate buffer: the text and the tree, no more.
  const decoded = await decodedInput(file);
  if (decoded.text === undefined) throw describeProblems(file, decoded.diagnostics);
  // A rewritten document is written as UTF-8, which a UTF-16 declaration would then contradict.
  if (decoded.encoding !== undefined)
    throw new BomwrightError(
      'E_INPUT',
      `${file} is ${decoded.encoding}: bomwright rewrites XML in UTF-8 (convert it first, e.g. iconv -f ${decoded.encoding} -t UTF-8)`,
    );
  const syntax = syntaxOf(decoded.text);
  const { result, value, text } = await validateAndParse(decoded.text, {
    signatures: 'verify',
    skipSignatureVerification: true,
  });
  const unreadable = result.diagnostics.filter(
    (d) =>
      d.severity === 'error' &&
      (d.ruleId.startsWith('read/') ||
        d.ruleId.startsWith('json/') ||
        // XML that is not a CycloneDX <bom> has no model at all (JSON that is no BOM still has its value).
        (syntax === 'xml' && (d.ruleId.startsWith('xml/') || (d.pointer === '' && d.ruleId.startsWith('bom/'))))),
  );
  if (unreadable.length > 0) throw describeProblems(file, unreadable);
  let source: BomDocument;
  if (syntax === 'xml') {
    // The model validate read on its way; read here only when it had none (then with the reason why).
    // XML's one mark is no warning (document/decode.ts): the decoder says it was there.
    const marked = decoded.mark === true || decoded.diagnostics.some((d) => d.ruleId === 'read/byte-order-mark');
    if (isRecord(value) && text !== undefined) source = xmlDocument(text, value, marked);
    else {
      const read = readDocument(withMark({ ...decoded, text: decoded.text }));
      if (!read.ok) throw describeProblems(file, read.diagnostics);
      source = read.document;
    }
  } else {
    if (text === undefined || value === undefined) throw describeProblems(file, result.diagnostics);
    const changed = numbersThatWouldChange(text);
    if (changed.length > 0) {
      throw new BomwrightError(
        'E_INPUT',
        `${file} holds ${changed[0]}, which a JSON parser cannot represent exactly; rewriting or signing would change it (write it as a string)`,
      );
    }
    source = jsonDocument(text, value);
  }
  if (!isRecord(source.model)) throw new BomwrightError('E_INPUT', `${file} is not a JSON object`);
  return { file, source, value: source.model, diagnostics: result.diagnostics, valid: result.valid };
}

/** Whether the document was signed in its own syntax (an XML signature), or the model still holds a JSF one. */
function isSigned(document: EditableDocument, value: unknown): boolean {
  if (document.source.xmlSigned) return true;
  const stack: unknown[] = [value];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (Array.isArray(node)) stack.push(...(node as unknown[]));
    else if (isRecord(node)) {
      if (Object.hasOwn(node, 'signature')) return true;
      stack.push(...Object.values(node));
    }
  }
  return false;
}

interface WriteDocumentOptions {
  /** Write here rather than in place. */
  output?: string | undefined;
  /** The syntax to write (default: the output's extension, else the document's own). */
  to?: Syntax | undefined;
  /** Told of each member the output syntax cannot carry (left out). */
  onDrop?: (dropped: DroppedMember) => void;
  /** Write the document afresh rather than patch its text in place (normalize). */
  fresh?: boolean;
  /** A last step on the text in its syntax (an XML signature made or removed). */
  finish?: (text: string, syntax: Syntax) => string;
  /**
   * The caller has dealt with signatures that cannot be carried into the other syntax (made them again, or was
   * asked to drop them); otherwise writing a signed document in the other syntax is refused.
   */
  signaturesHandled?: boolean;
}

/** The syntax {@link writeEditable} writes `document` in with these options. */
export function editSyntax(document: EditableDocument, options: WriteDocumentOptions = {}): Syntax {
  return outputSyntax({ to: options.to, output: options.output, input: document.source.syntax });
}

/**
 * Writes the changed model atomically (to `output` when given, else in place), in the syntax the options choose,
 * keeping the source's layout where it can. Returns the file written.
 */
export function writeEditable(document: EditableDocument, value: unknown, options: WriteDocumentOptions = {}): string {
  const target = options.output ?? document.file;
  const syntax = editSyntax(document, options);
  // JSF signatures have no XML form and an XML signature no JSON one: never lost without a word.
  if (syntax !== document.source.syntax && options.signaturesHandled !== true && isSigned(document, value))
    throw new BomwrightError(
      'E_USAGE',
      `${document.file} is signed, and its signatures cannot be carried into ${syntax.toUpperCase()}: write ${document.source.syntax.toUpperCase()}, or drop the signatures (--drop-signatures) and sign the output with bomwright sign`,
    );
  const text = document.source.write(value, {
    to: syntax,
    ...(options.fresh === true ? { fresh: true } : {}),
    ...(options.onDrop === undefined ? {} : { onDrop: options.onDrop }),
  });
  writeFileAtomic(target, options.finish === undefined ? text : options.finish(text, syntax));
  return target;
}

/**
 * The library's file reading: a document file (or standard input for `-`) in either syntax, read by
 * {@link readDocument}. A file that cannot be read at all throws (E_NOT_FOUND, E_READ); a document that cannot
 * be read as one comes back as its diagnostics.
 */
export async function readDocumentFile(source: string): Promise<DocumentRead> {
  const loaded = await loadDocument(source);
  return 'problems' in loaded ? { ok: false, diagnostics: loaded.problems } : { ok: true, document: loaded };
}

/**
 * Writes a model to a file atomically, in `to`, else the syntax the file's extension names, else JSON; the
 * syntax written is returned. A CBOM, or a version without an XML form, cannot be written as XML (E_USAGE).
 */
export function writeDocumentFile(file: string, model: unknown, options: { to?: Syntax } = {}): Syntax {
  const syntax = outputSyntax({ to: options.to, output: file });
  writeFileAtomic(file, writeDocument(model, syntax));
  return syntax;
}
