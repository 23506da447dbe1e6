/** Number literals that a JSON parser cannot hold exactly (beyond a double's precision). */

/** String literals (skipped) or number literals long enough to exceed a double's precision. */
const LONG_NUMBERS = /"(?:[^"\\]|\\.)*"|(-?\d[\d.eE+-]{15,})/g;

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
