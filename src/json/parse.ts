import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { DecodeResult } from './decode.js';
import { firstSyntaxError } from './syntax.js';
import { offsetsToPositions } from './locate.js';
import { markRoundedInteger } from './numbers.js';
import { forEachRoundedInteger, MAX_DEPTH, scanJson } from './scan.js';
import { countMembers, treeAgrees } from './quick-scan.js';

export interface ParseResult {
  /** Present when the text is well-formed JSON within the depth limit. */
  value?: unknown;
  diagnostics: Diagnostic[];
}

/**
 * Whether a parsed value agrees with its text's member count (see quick-scan.ts): {@link treeAgrees}, or a walk
 * of the caller's own that computes the same, so that a caller that walks the tree anyway walks it once.
 */
type TreeCheck = (value: unknown, members: number) => boolean;

/**
 * Text → value with JSON.parse speed, plus the checks JSON.parse does not make: duplicate member names,
 * unpaired surrogates, excessive depth. Syntax errors carry line:column. Numbers that JSON.parse rounds to an
 * integer (`1.0000000000000001`) are marked on the value, so integer checks judge their text. A text the quick
 * pass (quick-scan.ts) finds certainly clean skips the exact scan, whose findings are the same but which costs
 * several times as much.
 */
export function parseJsonText(text: string, agrees: TreeCheck = treeAgrees): ParseResult {
  const members = countMembers(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { diagnostics: [syntaxDiagnostic(text, error)] };
  }
  if (members >= 0 && agrees(value, members)) return { value, diagnostics: illFormed(text) };
  return exactChecks(text, value);
}

/** What {@link parseJsonTextLettingGo} gives back: a parse result, and the text when it had to read it again. */
interface LetGoParseResult extends ParseResult {
  /** The text read again for the exact scan (positions can come from it); absent when it was not read again. */
  readAgain?: string;
}

/**
 * {@link parseJsonText} for a caller that can read the text again: the caller hands the text over (`take` must
 * leave no reference to it behind), and it is let go of as soon as JSON.parse has returned, before the tree is
 * walked. A full collection V8 started during a large parse then finds the text garbage, where it would otherwise
 * keep it, beside the tree, until the end of the validation (about 110 MB for a 115 MB document). The text is
 * read again only for the exact scan, which a tree that disagrees with its text needs (duplicate member names,
 * numbers JSON.parse rounds, nesting too deep, an integer directly inside an array); the whole parse is then made
 * on what was read again, so a file that changed in between is judged as it is now.
 */
export function parseJsonTextLettingGo(
  take: () => string,
  readAgain: () => DecodeResult,
  agrees: TreeCheck,
): LetGoParseResult {
  let text: string | undefined = take();
  const members = countMembers(text);
  const lone = illFormed(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { diagnostics: [syntaxDiagnostic(text, error)] };
  }
  text = undefined;
  if (members >= 0 && agrees(value, members)) return { value, diagnostics: lone };
  value = undefined;
  const again = readAgain();
  if (again.text === undefined) return { diagnostics: again.diagnostics };
  return { ...parseJsonText(again.text, agrees), readAgain: again.text };
}

/** The exact scan's findings on text that JSON.parse accepted as `value`. */
function exactChecks(text: string, value: unknown): ParseResult {
  const findings = scanJson(text);
  const diagnostics: Diagnostic[] = [];
  if (findings.some((f) => f.kind === 'rounded-integer')) markRoundedIntegers(text, value);
  const reported = findings.filter((f) => f.kind !== 'rounded-integer');
  const positions = offsetsToPositions(
    text,
    reported.map((f) => f.offset),
  );
  let tooDeep = false;
  for (const finding of reported) {
    const position = positions.get(finding.offset);
    if (finding.kind === 'duplicate-key') {
      diagnostics.push({
        ruleId: 'json/duplicate-key',
        severity: 'error',
        message: `Duplicate member name ${JSON.stringify(finding.key)}`,
        pointer: finding.pointer,
        ...position,
      });
    } else if (finding.kind === 'lone-surrogate') {
      diagnostics.push({
        ruleId: 'json/lone-surrogate',
        severity: 'error',
        message: 'String contains an unpaired surrogate escape',
        pointer: finding.pointer,
        ...position,
      });
    } else {
      tooDeep = true;
      diagnostics.push({
        ruleId: 'json/too-deep',
        severity: 'error',
        message: `Nesting is deeper than ${MAX_DEPTH} levels`,
        pointer: finding.pointer,
        ...position,
      });
    }
  }
  diagnostics.push(...illFormed(text));
  return tooDeep ? { diagnostics } : { value, diagnostics };
}

/** Unescaped lone surrogates can only reach us through a JS string (decoded files are well-formed UTF-8). */
function illFormed(text: string): Diagnostic[] {
  if (text.isWellFormed()) return [];
  const offset = firstIllFormed(text);
  return [
    {
      ruleId: 'json/lone-surrogate',
      severity: 'error',
      message: 'Text contains an unpaired surrogate',
      pointer: '',
      ...offsetsToPositions(text, [offset]).get(offset),
    },
  ];
}

/** Marks every number of `text` that reads as an integer but is not one on the parsed `value`: a second pass. */
function markRoundedIntegers(text: string, value: unknown): void {
  forEachRoundedInteger(text, (path, literal) => {
    let holder = value;
    for (let i = 0; i < path.length - 1; i++) {
      if (holder === null || typeof holder !== 'object' || !Object.hasOwn(holder, path[i]!)) return;
      holder = (holder as Record<string, unknown>)[path[i]!];
    }
    if (holder !== null && typeof holder === 'object') markRoundedInteger(holder, path[path.length - 1]!, literal);
  });
}

function syntaxDiagnostic(text: string, error: unknown): Diagnostic {
  const raw = error instanceof Error ? error.message : String(error);
  const match = /(?: in JSON)? at position (\d+)/.exec(raw);
  // V8 names a position for some errors and quotes a snippet of the text for others: the snippet goes (it is
  // document content, and may span lines), the position is found when V8 gives none.
  const offset = match ? Number(match[1]) : firstSyntaxError(text);
  let message = match ? raw.slice(0, match.index) : raw;
  message = message
    .replace(/, (?:\.\.\.)?"[\s\S]*is not valid JSON$/, '')
    .replace(/ \(line \d+ column \d+\)$/, '')
    .replace(/^Unexpected end of JSON input$/, 'Unexpected end of input')
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  // A document cut short (a truncated download, a pipe that stopped) fails where the text ends: say so first, then
  // what V8 was waiting for.
  if (offset >= text.trimEnd().length && offset <= text.length && message !== 'Unexpected end of input')
    message = `Unexpected end of input: the document is cut short (${message.charAt(0).toLowerCase()}${message.slice(1)})`;
  const position = offsetsToPositions(text, [offset]).get(offset);
  return { ruleId: 'json/syntax', severity: 'error', message, pointer: '', ...position };
}

function firstIllFormed(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
      else return i;
    } else if (c >= 0xdc00 && c <= 0xdfff) return i;
  }
  return 0;
}
