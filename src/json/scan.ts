import { readsAsRoundedInteger } from './numbers.js';
import { toPointer } from './pointer.js';
import { StringSkipper } from './strings.js';

/** Deeper nesting than this is refused: no BOM needs it, and recursive consumers would overflow. */
export const MAX_DEPTH = 512;

type ScanFindingKind = 'duplicate-key' | 'lone-surrogate' | 'too-deep' | 'rounded-integer';

interface ScanFinding {
  kind: ScanFindingKind;
  /** UTF-16 offset in the text: the member name for duplicate keys, the string for surrogates. */
  offset: number;
  /** Pointer to the duplicated member, the string value, the number, or the container that is too deep. */
  pointer: string;
  key?: string;
}

/** Called with the path (member names and array indexes) and the text of a literal that reads as a rounded integer. */
type RoundedIntegerVisitor = (path: (string | number)[], literal: string) => void;

interface Frame {
  isObject: boolean;
  expectKey: boolean;
  /** Member names seen so far; a short array first, a Set once the object grows. */
  keys: string[] | Set<string> | null;
  currentKey: string;
  index: number;
}

const SMALL_OBJECT = 12;

/**
 * One linear pass over JSON text: finds duplicate member names, unpaired surrogate escapes, excessive depth and
 * number literals that are not integers but read as one (JSON.parse rounds `1.0000000000000001` to 1). It never
 * builds a value tree, so it keeps JSON.parse speed. Malformed text gives meaningless findings but never a loop
 * or a throw; callers use the findings only when JSON.parse accepts the text. Only the first rounded integer
 * is a finding (a document has none, or is hostile and may have millions): {@link forEachRoundedInteger} then
 * visits every one of them in a second pass.
 */
export function scanJson(text: string, maxFindings = 1000): ScanFinding[] {
  return scan(text, maxFindings);
}

/** Every number literal in `text` that is not an integer but reads as one, with its path; in one linear pass. */
export function forEachRoundedInteger(text: string, visit: RoundedIntegerVisitor): void {
  scan(text, Infinity, visit);
}

function scan(text: string, maxFindings: number, visit?: RoundedIntegerVisitor): ScanFinding[] {
  const findings: ScanFinding[] = [];
  const stack: Frame[] = [];
  const n = text.length;
  const strings = new StringSkipper(text);
  let i = 0;
  let counted = 0;
  let seenRounded = false;

  const pathArray = (): (string | number)[] => {
    const path: (string | number)[] = [];
    for (const f of stack) path.push(f.isObject ? f.currentKey : f.index);
    return path;
  };
  const pathOf = (): string => toPointer(pathArray());

  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      const end = strings.end(start);
      const hasEscape = strings.hadEscape;
      i = end + 1;
      const frame = stack[stack.length - 1];
      if (frame !== undefined && frame.isObject && frame.expectKey) {
        const key = strings.value(start, end);
        frame.expectKey = false;
        frame.currentKey = key;
        if (hasSeen(frame, key)) {
          findings.push({ kind: 'duplicate-key', offset: start, pointer: pathOf(), key });
          if (++counted >= maxFindings) return findings;
        }
      }
      if (hasEscape && hasLoneSurrogateEscape(text, start + 1, end)) {
        findings.push({ kind: 'lone-surrogate', offset: start, pointer: pathOf() });
        if (++counted >= maxFindings) return findings;
      }
      continue;
    }
    switch (c) {
      case 0x7b /* { */:
      case 0x5b /* [ */:
        stack.push({ isObject: c === 0x7b, expectKey: true, keys: null, currentKey: '', index: 0 });
        if (stack.length > MAX_DEPTH) {
          stack.pop();
          findings.push({ kind: 'too-deep', offset: i, pointer: pathOf() });
          return findings;
        }
        break;
      case 0x7d /* } */:
      case 0x5d /* ] */:
        stack.pop();
        break;
      case 0x2c /* , */: {
        const frame = stack[stack.length - 1];
        if (frame === undefined) break; // malformed text; JSON.parse reports it
        if (frame.isObject) frame.expectKey = true;
        else frame.index++;
        break;
      }
      default:
        if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
          // Only a fraction or an exponent can make a literal an inexact integer.
          const start = i;
          let exact = true;
          let d = c;
          while (d === 0x2d || d === 0x2b || d === 0x2e || (d >= 0x30 && d <= 0x39) || (d | 0x20) === 0x65) {
            if (d === 0x2e || (d | 0x20) === 0x65) exact = false;
            d = text.charCodeAt(++i);
          }
          if (!exact && stack.length > 0 && (visit !== undefined || !seenRounded)) {
            const literal = text.slice(start, i);
            if (readsAsRoundedInteger(literal)) {
              if (visit !== undefined) visit(pathArray(), literal);
              else {
                seenRounded = true;
                findings.push({ kind: 'rounded-integer', offset: start, pointer: pathOf() });
              }
            }
          }
          continue;
        }
        break;
    }
    i++;
  }
  return findings;
}

function hasSeen(frame: Frame, key: string): boolean {
  const keys = frame.keys;
  if (keys === null) {
    frame.keys = [key];
    return false;
  }
  if (Array.isArray(keys)) {
    if (keys.includes(key)) return true;
    keys.push(key);
    if (keys.length > SMALL_OBJECT) frame.keys = new Set(keys);
    return false;
  }
  if (keys.has(key)) return true;
  keys.add(key);
  return false;
}

/** Raw text between the quotes of a JSON string literal that is known to contain escapes. */
function hasLoneSurrogateEscape(text: string, from: number, to: number): boolean {
  // Index just past a high-surrogate escape; the next escape must start exactly there and be a low surrogate.
  let highEnd = -1;
  let i = text.indexOf('\\', from);
  while (i >= 0 && i < to) {
    const isUnicode = text.charCodeAt(i + 1) === 0x75; /* u */
    const unit = isUnicode ? parseInt(text.slice(i + 2, i + 6), 16) : -1;
    const isHigh = unit >= 0xd800 && unit <= 0xdbff;
    const isLow = unit >= 0xdc00 && unit <= 0xdfff;
    if (highEnd >= 0) {
      if (!(isLow && i === highEnd)) return true;
      highEnd = -1;
    } else if (isLow) {
      return true;
    } else if (isHigh) {
      highEnd = i + 6;
    }
    i = text.indexOf('\\', i + (isUnicode ? 6 : 2));
  }
  return highEnd >= 0;
}
