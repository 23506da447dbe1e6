import { readsAsRoundedInteger } from './numbers.js';
import { MAX_DEPTH } from './scan.js';

/**
 * The fast path of the checks JSON.parse does not make (duplicate member names, surrogate escapes, nesting depth,
 * numbers that read as rounded integers), split between the text and the parsed tree so that neither needs a
 * character loop over the whole text or any allocation per token:
 *
 * - {@link countMembers} hops from string to string with indexOf (most of a document's characters are inside
 *   strings), counts member names (strings followed by a colon), looks into the strings that hold a backslash for
 *   surrogate escapes, and reads the number after each colon.
 * - {@link treeAgrees} walks the parsed value: a duplicate name leaves fewer members in the tree than in the text,
 *   and it sees the depth and the numbers inside arrays, which the text pass does not look at.
 *
 * Together they answer "certainly clean" or "maybe": then the exact scan ({@link scanJson}) decides and reports.
 * A clean answer never hides a finding; a "maybe" only costs the exact scan.
 */

/** Member names in `text`, or -1 when the text may hold a surrogate escape or a rounded integer (or is malformed). */
export function countMembers(text: string): number {
  const n = text.length;
  let members = 0;
  let nextBackslash = backslashFrom(text, 0);
  let i = text.indexOf('"');
  while (i >= 0) {
    let end = text.indexOf('"', i + 1);
    if (end < 0) return -1;
    if (nextBackslash < end) {
      // Escapes: walk this literal from its first backslash (a quote after one may be content, not the end).
      let k = nextBackslash > i ? nextBackslash : i + 1;
      for (;;) {
        const d = text.charCodeAt(k);
        if (d === 0x22 /* " */) break;
        if (k >= n) return -1;
        if (d === 0x5c /* \ */) {
          if (text.charCodeAt(k + 1) === 0x75 /* u */) {
            // Any escaped surrogate, paired or not: the exact scan judges it.
            const unit = parseInt(text.slice(k + 2, k + 6), 16);
            if (!(unit < 0xd800 || unit > 0xdfff)) return -1;
            k += 6;
          } else k += 2;
        } else k++;
      }
      end = k;
      nextBackslash = backslashFrom(text, end + 1);
    }
    let k = end + 1;
    let d = text.charCodeAt(k);
    while (d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) d = text.charCodeAt(++k);
    if (d === 0x3a /* : */) {
      members++;
      d = text.charCodeAt(++k);
      while (d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) d = text.charCodeAt(++k);
      if (d === 0x22) {
        i = k;
        continue;
      }
      if (d === 0x2d /* - */ || (d >= 0x30 && d <= 0x39)) {
        // Only a fraction or an exponent can make a literal an inexact integer.
        const start = k;
        let exact = true;
        while (d === 0x2d || d === 0x2b || d === 0x2e || (d >= 0x30 && d <= 0x39) || (d | 0x20) === 0x65) {
          if (d === 0x2e || (d | 0x20) === 0x65) exact = false;
          d = text.charCodeAt(++k);
        }
        if (!exact && readsAsRoundedInteger(text.slice(start, k))) return -1;
      }
    }
    i = text.indexOf('"', k);
  }
  return members;
}

/**
 * Whether the parsed `value` has exactly `members` members in all, nesting within MAX_DEPTH, and no integer
 * directly inside an array (the text pass reads only the numbers that are member values; an integer item may be
 * a rounded one). Recursion is bounded by MAX_DEPTH.
 */
export function treeAgrees(value: unknown, members: number): boolean {
  return countTree(value, 1) === members;
}

/** Members under `value` (at nesting level `level`), or -1 when it is too deep or holds an integer array item. */
export function countTree(value: unknown, level: number): number {
  if (value === null || typeof value !== 'object') return 0;
  if (level > MAX_DEPTH) return -1;
  let count = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'number') {
        if (Number.isInteger(item)) return -1;
      } else if (item !== null && typeof item === 'object') {
        const inner = countTree(item, level + 1);
        if (inner < 0) return -1;
        count += inner;
      }
    }
    return count;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    // An enumerable inherited member (a polluted prototype) would make the count mean nothing.
    if (!Object.hasOwn(record, key)) return -1;
    count++;
    const member = record[key];
    if (member !== null && typeof member === 'object') {
      const inner = countTree(member, level + 1);
      if (inner < 0) return -1;
      count += inner;
    }
  }
  return count;
}

function backslashFrom(text: string, from: number): number {
  const at = text.indexOf('\\', from);
  return at < 0 ? text.length : at;
}
