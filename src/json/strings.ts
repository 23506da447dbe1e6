/**
 * Finds the ends of string literals in JSON text (well-formed or not: it never loops or throws) with indexOf jumps instead of a character loop.
 * The position of the next backslash is cached, so a document without escapes is never rescanned (a fresh
 * indexOf per string would make the scan quadratic).
 */
export class StringSkipper {
  private nextBackslash: number;
  /** Whether the literal passed to the last {@link end} call contains escapes. */
  hadEscape = false;

  /** `from`: where the first literal asked about may start (no backslash before it is looked for). */
  constructor(
    private readonly text: string,
    from = 0,
  ) {
    this.nextBackslash = this.find(from);
  }

  /** Index of the closing quote of the literal whose opening quote is at `start`. */
  end(start: number): number {
    const text = this.text;
    let end = text.indexOf('"', start + 1);
    if (end < 0) return text.length; // unterminated (malformed text): the rest is the string
    this.hadEscape = this.nextBackslash < end;
    if (this.hadEscape) {
      // A quote preceded by an odd run of backslashes is content, not the end.
      while (end >= 0 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
      if (end < 0) return text.length;
      this.nextBackslash = this.find(end + 1);
    }
    return end;
  }

  /** The decoded value of the literal from `start` to `end` (inclusive quotes). */
  value(start: number, end: number): string {
    if (!this.hadEscape) return this.text.slice(start + 1, end);
    try {
      return JSON.parse(this.text.slice(start, end + 1)) as string;
    } catch {
      return this.text.slice(start + 1, end); // malformed escapes: JSON.parse reports the text anyway
    }
  }

  private find(from: number): number {
    const i = this.text.indexOf('\\', from);
    return i < 0 ? this.text.length : i;
  }
}

function isEscaped(text: string, quoteIndex: number): boolean {
  let backslashes = 0;
  for (let k = quoteIndex - 1; text.charCodeAt(k) === 0x5c; k--) backslashes++;
  return backslashes % 2 === 1;
}
