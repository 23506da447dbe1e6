/** Documents read as JSON (strictly: duplicate keys and unsafe numbers refused) and written back in their layout. */
import { closeSync, openSync, readSync } from 'node:fs';
import { BomwrightError, isBomwrightError } from '../errors.js';
import type { DecodeResult } from '../json/decode.js';
import { DEFAULT_MAX_DOCUMENT, readBaselineBytes, readDocumentText, readInput } from './files.js';
import { STDIN } from './discover.js';
import { decodeJsonBytes } from '../json/decode.js';
import { validateAndParse } from '../validate/index.js';
import { writeFileAtomic } from './write.js';
import { parseJsonText } from '../json/parse.js';
import { layoutOf, serializeJson, type JsonLayout } from '../json/layout.js';
import { numbersThatWouldChange } from '../json/numbers.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { scanXml } from '../xml/scan.js';

export interface LoadedJson extends JsonLayout {
  text: string;
  value: unknown;
}

/**
 * A JSON file that every parser reads the same way, or the reasons it is not (syntax, duplicate member names,
 * unpaired surrogates). Read without an intermediate buffer (see readDocumentText): a large document costs its
 * text and its tree, as with JSON.parse, not its bytes as well.
 */
export function loadJsonFile(file: string): LoadedJson | { problems: Diagnostic[] } {
  return loadDecoded(readDocumentText(file).decoded);
}

/** {@link loadJsonFile}, or standard input for `-` (read with the document size bound). */
export async function loadJsonInput(source: string): Promise<LoadedJson | { problems: Diagnostic[] }> {
  if (source !== STDIN) return loadJsonFile(source);
  const { bytes, size } = await readInput(STDIN, DEFAULT_MAX_DOCUMENT);
  if (bytes === undefined)
    throw new BomwrightError(
      'E_READ',
      `Cannot read standard input: over the limit of ${DEFAULT_MAX_DOCUMENT} bytes (${size})`,
    );
  return loadDecoded(decodeJsonBytes(bytes));
}

/** Whether a file's first bytes are markup (CycloneDX XML) rather than JSON; unreadable files say no. */
export function startsWithMarkup(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(1024);
    const read = readSync(fd, head, 0, head.length, 0);
    return /^(?:\uFEFF)?[\t\n\r ]*</.test(head.subarray(0, read).toString('utf8'));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** {@link loadJsonInput}, except that CycloneDX XML (text that starts with markup) comes back as its text. */
export async function loadDocumentInput(
  source: string,
): Promise<LoadedJson | { xml: string } | { problems: Diagnostic[] }> {
  let decoded: DecodeResult;
  if (source !== STDIN) decoded = readDocumentText(source).decoded;
  else {
    const { bytes, size } = await readInput(STDIN, DEFAULT_MAX_DOCUMENT);
    if (bytes === undefined)
      throw new BomwrightError(
        'E_READ',
        `Cannot read standard input: over the limit of ${DEFAULT_MAX_DOCUMENT} bytes (${size})`,
      );
    decoded = decodeJsonBytes(bytes);
  }
  if (decoded.text !== undefined && /^[\t\n\r ]*</.test(decoded.text)) return { xml: decoded.text };
  return loadDecoded(decoded);
}

/**
 * A previous release named on purpose (--baseline FILE): it must be a readable JSON document, or the version
 * rule would pass by having nothing to compare with.
 */
export function loadBaselineFile(file: string): unknown {
  let decoded: DecodeResult;
  try {
    decoded = decodeJsonBytes(readBaselineBytes(file));
  } catch (error) {
    // Reported beside the document checked against it: say which file could not be read.
    if (isBomwrightError(error))
      throw new BomwrightError(error.code, `the baseline: ${error.message}`, { cause: error });
    throw error;
  }
  // CycloneDX XML: handed on as text, which validate reads with the same mapping reader as the document.
  if (decoded.text !== undefined && /^[\t\n\r ]*</.test(decoded.text)) {
    const scanned = scanXml(decoded.text);
    if (!scanned.ok)
      throw new BomwrightError(
        'E_INPUT',
        `${file}: ${scanned.message} [${scanned.kind === 'syntax' ? 'xml/syntax' : `xml/${scanned.kind}`}]`,
      );
    return decoded.text;
  }
  const loaded = loadDecoded(decoded);
  if ('problems' in loaded) throw describeProblems(file, loaded.problems);
  return loaded.value;
}

function loadDecoded(decoded: DecodeResult): LoadedJson | { problems: Diagnostic[] } {
  if (decoded.text === undefined) return { problems: decoded.diagnostics };
  const parsed = parseJsonText(decoded.text);
  const problems = parsed.diagnostics.filter((d) => d.severity === 'error');
  if (!('value' in parsed) || problems.length > 0)
    return { problems: problems.length > 0 ? problems : parsed.diagnostics };
  return { text: decoded.text, value: parsed.value, ...layoutOf(decoded.text) };
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
  value: Record<string, unknown>;
  layout: JsonLayout;
  diagnostics: Diagnostic[];
  valid: boolean;
}

/**
 * Reads a BOM that a command will rewrite (bump, normalize, add, set): strictly parsed (duplicate keys and
 * unreadable text refused), and refused when a rewrite would change a number literal that a double cannot hold.
 */
export async function loadEditable(file: string): Promise<EditableDocument> {
  // Read as text without an intermediate buffer: bump and normalize then need the text and the tree, no more.
  const { decoded } = readDocumentText(file);
  if (decoded.text === undefined) throw describeProblems(file, decoded.diagnostics);
  const { result, value, text } = await validateAndParse(decoded.text, {
    signatures: 'verify',
    skipSignatureVerification: true,
  });
  const unreadable = result.diagnostics.filter(
    (d) => d.severity === 'error' && (d.ruleId.startsWith('read/') || d.ruleId.startsWith('json/')),
  );
  if (text === undefined || value === undefined || unreadable.length > 0)
    throw describeProblems(file, unreadable.length > 0 ? unreadable : result.diagnostics);
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new BomwrightError('E_INPUT', `${file} is not a JSON object`);
  const changed = numbersThatWouldChange(text);
  if (changed.length > 0) {
    throw new BomwrightError(
      'E_INPUT',
      `${file} holds ${changed[0]}, which a JSON parser cannot represent exactly; rewriting or signing would change it (write it as a string)`,
    );
  }
  return {
    file,
    value: value as Record<string, unknown>,
    layout: layoutOf(text),
    diagnostics: result.diagnostics,
    valid: result.valid,
  };
}

/** Writes the document back atomically with the source's layout (to `output` when given). */
export function writeEditable(document: EditableDocument, value: unknown, output?: string): string {
  const target = output ?? document.file;
  writeFileAtomic(target, serializeJson(value, document.layout));
  return target;
}
