/**
 * The regular-expression engine the validators are compiled with: `new RegExp`, except for schema patterns known
 * to be hot, which are checked by a function that accepts exactly the same strings. ajv still emits its own
 * `pattern` keyword (same place in the keyword order, same error and params); only the `test` behind it differs.
 */

/** A hash value (`hash-content`): 32, 40, 64, 96 or 128 hexadecimal digits, either case. */
export function isHexDigest(text: string): boolean {
  const n = text.length;
  if (n !== 32 && n !== 40 && n !== 64 && n !== 96 && n !== 128) return false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x39) {
      if (c < 0x30) return false;
    } else {
      // Setting 0x20 folds A-F onto a-f; no other code unit lands in a-f that way.
      const lower = c | 0x20;
      if (lower < 0x61 || lower > 0x66) return false;
    }
  }
  return true;
}

/**
 * Patterns checked by code, by their exact text in the schema: the official hash-content pattern of every
 * version and its faster rewrite (build/schema-transform.ts), which the compiled schemas carry.
 */
export const CODED_PATTERNS: Readonly<Record<string, (text: string) => boolean>> = {
  '^([a-fA-F0-9]{32}|[a-fA-F0-9]{40}|[a-fA-F0-9]{64}|[a-fA-F0-9]{96}|[a-fA-F0-9]{128})$': isHexDigest,
  '^[a-fA-F0-9]{32}(?:[a-fA-F0-9]{8}|[a-fA-F0-9]{32}(?:[a-fA-F0-9]{32}(?:[a-fA-F0-9]{32})?)?)?$': isHexDigest,
};

interface PatternTest {
  test(text: string): boolean;
  toString(): string;
}

/**
 * ajv's RegExpEngine: what a `pattern` compiles to. The flags are ajv's (`u`); a coded pattern has no syntax
 * that `u` would change. `toString` is what ajv tells patterns apart by.
 */
export function schemaRegExp(pattern: string, flags: string): PatternTest {
  const coded = Object.hasOwn(CODED_PATTERNS, pattern) ? CODED_PATTERNS[pattern] : undefined;
  if (coded === undefined) return new RegExp(pattern, flags);
  return { test: coded, toString: () => `/${pattern}/${flags}` };
}
/** How the generated validators name it (build/ajv.ts). */
schemaRegExp.code = 'runtime.schemaRegExp';
