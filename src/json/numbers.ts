/** Number literals that a JSON parser cannot hold exactly (beyond a double's precision). */

/** `0.digits × 10^point`, signed, without leading or trailing zeros: equal for numerically equal literals. */
export function normalizeNumber(literal: string): string {
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

/** Digits, and the characters a number literal may hold besides them. */
const isNumberChar = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d || c === 0x2b || (c | 0x20) === 0x65;

/**
 * Number literals whose value a double cannot hold exactly: rewriting the document would change them (1e400
 * overflows to Infinity, which a rewrite would write as null).
 *
 * `text` is a JSON text that parsed. It hops from string to string with indexOf and reads only the characters
 * between strings, so a large document costs one pass with no allocation per string. Numbers outside strings are
 * few in a BOM, so each is compared whole.
 */
export function numbersThatWouldChange(text: string): string[] {
  const changed: string[] = [];
  const n = text.length;
  let from = 0;
  while (from < n) {
    const quote = text.indexOf('"', from);
    const gapEnd = quote === -1 ? n : quote;
    for (let k = from; k < gapEnd; k++) {
      const c = text.charCodeAt(k);
      if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        // A literal ends at a delimiter or white space, never at the quote of the next string.
        const start = k;
        while (isNumberChar(text.charCodeAt(k + 1))) k++;
        const literal = text.slice(start, k + 1);
        if (normalizeNumber(literal) !== normalizeNumber(String(Number(literal)))) changed.push(literal);
      }
    }
    if (quote === -1) break;
    from = stringEnd(text, quote) + 1;
  }
  return changed;
}

/** The index of the quote that closes the string opened at `open` (the text's length when none does). */
function stringEnd(text: string, open: number): number {
  let close = text.indexOf('"', open + 1);
  while (close !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(close - 1 - backslashes) === 0x5c /* \ */) backslashes++;
    if (backslashes % 2 === 0) return close;
    close = text.indexOf('"', close + 1);
  }
  return text.length;
}

const NUMBER_PARTS = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * Whether a number literal's exact value is an integer, judged on its text: `1.0`, `1e0`, `10e-1`, `0.1e1` are;
 * `1.0000000000000001` is not, though it reads as 1.
 */
export function isIntegerLiteral(literal: string): boolean {
  const match = NUMBER_PARTS.exec(literal);
  if (match === null) return false;
  const [, int, frac = '', exp = '0'] = match as unknown as [string, string, string?, string?];
  // Significant digits and where the point falls among them: an integer has none after the point.
  let digits = int + frac;
  let point = int.length + Number(exp);
  const lead = /^0*/.exec(digits)![0].length;
  digits = digits.slice(lead).replace(/0+$/, '');
  point -= lead;
  return digits.length === 0 || digits.length <= point;
}

/** A literal that is not an integer but that JSON.parse rounds to one (the integer checks would miss it). */
export function readsAsRoundedInteger(literal: string): boolean {
  return Number.isInteger(Number(literal)) && !isIntegerLiteral(literal);
}

/**
 * The literal text of numbers that read as integers but are not, keyed by the object or array holding them and
 * the member name or index. Set by the parser on the value it returns; read by the integer checks (the schema's
 * `integer`, the version rules). Weak, so marks go with the value. Kept under a registered symbol on globalThis
 * because each precompiled validator is a bundle with its own copy of this module, and all must see one table.
 */
interface RoundedIntegers {
  marks: WeakMap<object, Map<string, string>>;
  /** Whether anything was ever marked: most processes never see such a literal, and skip the lookups. */
  any: boolean;
}
const REGISTRY = Symbol.for('bomwright.rounded-integers');
const shared = globalThis as { [REGISTRY]?: RoundedIntegers };
const roundedIntegers: RoundedIntegers = (shared[REGISTRY] ??= { marks: new WeakMap(), any: false });

export function markRoundedInteger(holder: object, key: string | number, literal: string): void {
  let members = roundedIntegers.marks.get(holder);
  if (members === undefined) roundedIntegers.marks.set(holder, (members = new Map()));
  members.set(String(key), literal);
  roundedIntegers.any = true;
}

/** The literal of the number at `holder[key]` when it is not an integer though it reads as one. */
export function roundedIntegerLiteral(holder: unknown, key: unknown): string | undefined {
  if (!roundedIntegers.any || holder === null || typeof holder !== 'object') return undefined;
  return roundedIntegers.marks.get(holder)?.get(String(key));
}
