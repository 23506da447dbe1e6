import { BomwrightError } from '../errors.js';
import type { DecodeResult } from '../json/decode.js';
import { readDocumentText } from './inputs.js';
import { parseJsonText } from '../json/parse.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';

export interface LoadedJson {
  text: string;
  value: unknown;
  /** Indentation to write it back with: the first indented line's, or none for one-line documents. */
  indent: string | number;
  trailingNewline: boolean;
}

/** String literals (skipped) or number literals long enough to exceed a double's precision. */
const LONG_NUMBERS = /"(?:[^"\\]|\\.)*"|(-?\d[\d.eE+-]{15,})/g;

/**
 * A JSON file that every parser reads the same way, or the reasons it is not (syntax, duplicate member names,
 * unpaired surrogates). Read without an intermediate buffer (see readDocumentText): a large document costs its
 * text and its tree, as with JSON.parse, not its bytes as well.
 */
export function loadJsonFile(file: string): LoadedJson | { problems: Diagnostic[] } {
  return loadDecoded(readDocumentText(file).decoded);
}

/**
 * A previous release named on purpose (--baseline FILE): it must be a readable JSON document, or the version
 * rule would pass by having nothing to compare with.
 */
export function loadBaselineFile(file: string): unknown {
  const loaded = loadJsonFile(file);
  if ('problems' in loaded) throw describeProblems(file, loaded.problems);
  return loaded.value;
}

function loadDecoded(decoded: DecodeResult): LoadedJson | { problems: Diagnostic[] } {
  if (decoded.text === undefined) return { problems: decoded.diagnostics };
  const parsed = parseJsonText(decoded.text);
  const problems = parsed.diagnostics.filter((d) => d.severity === 'error');
  if (!('value' in parsed) || problems.length > 0)
    return { problems: problems.length > 0 ? problems : parsed.diagnostics };
  const text = decoded.text;
  const indentMatch = /\n([ \t]+)\S/.exec(text);
  return {
    text,
    value: parsed.value,
    indent: indentMatch ? indentMatch[1]! : '',
    trailingNewline: text.endsWith('\n'),
  };
}

/** `0.digits × 10^point`, signed, without leading or trailing zeros: equal for numerically equal literals. */
function normalizeNumber(literal: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (match === null) return literal;
  const [, sign, int, frac = '', exp = '0'] = match as unknown as [string, string, string, string?, string?];
  let digits = int + frac;
  let point = int.length + Number(exp);
  const lead = /^0*/.exec(digits)![0].length;
  digits = digits.slice(lead).replace(/0+$/, '');
  point -= lead;
  return digits === '' ? '0' : `${sign}${digits}e${point}`;
}

/** Number literals whose value a double cannot hold exactly: rewriting the document would change them. */
export function numbersThatWouldChange(text: string): string[] {
  const changed: string[] = [];
  for (const [, literal] of text.matchAll(LONG_NUMBERS)) {
    if (literal !== undefined && normalizeNumber(literal) !== normalizeNumber(String(Number(literal))))
      changed.push(literal);
  }
  return changed;
}

/** How a document is laid out, to write it back the same way. */
export function layoutOf(text: string): Pick<LoadedJson, 'indent' | 'trailingNewline'> {
  const indentMatch = /\n([ \t]+)\S/.exec(text);
  return { indent: indentMatch ? indentMatch[1]! : '', trailingNewline: text.endsWith('\n') };
}

export function serializeJson(value: unknown, like: Pick<LoadedJson, 'indent' | 'trailingNewline'>): string {
  const text = JSON.stringify(value, null, like.indent === '' ? undefined : like.indent);
  return like.trailingNewline || like.indent !== '' ? `${text}\n` : text;
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
