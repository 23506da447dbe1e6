/**
 * Operational failures (I/O, usage, internal). Document defects are never thrown:
 * they are returned as {@link Diagnostic} values.
 */
export const ERROR_CODES = [
  'E_USAGE',
  'E_NOT_FOUND',
  'E_NO_MATCH',
  'E_READ',
  'E_WRITE',
  'E_INPUT',
  'E_KEY',
  'E_SCHEMA_MISSING',
  'E_NOT_BUILT',
  'E_STATE',
  'E_SEED',
  'E_INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class BomwrightError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BomwrightError';
    this.code = code;
  }
}

export function isBomwrightError(value: unknown): value is BomwrightError {
  return value instanceof BomwrightError;
}

/** One line, safe to print: never a stack, never file contents. */
export function describeError(error: unknown): string {
  if (isBomwrightError(error)) return `${error.code}: ${error.message}`;
  const message = error instanceof Error ? error.message : String(error);
  return `E_INTERNAL: ${message.split('\n')[0]}`;
}
