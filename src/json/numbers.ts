/** Number literals that a JSON parser cannot hold exactly (beyond a double's precision). */

/**
 * String literals (skipped), or number literals that may not survive a double: long enough to exceed its
 * precision, or with an exponent (1e400 overflows to Infinity, which a rewrite would write as null).
 */
const RISKY_NUMBERS = /"(?:[^"\\]|\\.)*"|(-?\d[\d.]*[eE][+-]?\d+|-?\d[\d.eE+-]{15,})/g;

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
  for (const [, literal] of text.matchAll(RISKY_NUMBERS)) {
    if (literal !== undefined && normalizeNumber(literal) !== normalizeNumber(String(Number(literal))))
      changed.push(literal);
  }
  return changed;
}
