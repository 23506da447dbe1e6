/**
 * The ajv options that give draft-07's `$ref` rule (§8.3: "All other properties in a "$ref" object MUST be
 * ignored"), for every ajv bomwright compiles a schema with. ajv 8 reads every schema with the 2019-09 rule
 * otherwise, where `$ref` is one keyword among its siblings. ajv flags the option as deprecated on every
 * construction and names each `$ref` whose siblings it ignores; those two notices, and only they, are dropped so
 * that no command prints them (the build lists the ignored siblings: see build/schema-transform.ts).
 */
const DEPRECATION = 'DEPRECATED: option ignoreKeywordsWithRef.';
const IGNORED = '$ref: keywords ignored in schema at path ';

const logger = {
  log: (...args: unknown[]) => console.log(...args),
  warn: (...args: unknown[]) => {
    const message = args[0];
    if (typeof message === 'string' && (message.trim() === DEPRECATION || message.startsWith(IGNORED))) return;
    console.warn(...args);
  },
  error: (...args: unknown[]) => console.error(...args),
};

export const DRAFT_07_REF = { ignoreKeywordsWithRef: true, logger } as const;
