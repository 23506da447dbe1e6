/** Process exit codes, as documented in docs/exit-codes.md. */
export const EXIT_OK = 0;
/** A document has an error (or warnings exceed --max-warnings). */
export const EXIT_INVALID = 1;
/** Usage error, unreadable input, a pattern matching nothing, or an internal failure. */
export const EXIT_USAGE = 2;
