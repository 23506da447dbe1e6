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
  'E_SERVICE',
  'E_NETWORK',
  'E_TIMEOUT',
  'E_ABORTED',
  'E_RETRY_EXHAUSTED',
  'E_REDIRECT',
  'E_RESPONSE_SHAPE',
  'E_REQUEST_SHAPE',
  'E_FOREIGN_ORIGIN',
  'E_LINK_LOOP',
  'E_REFUSED',
  'E_MERGE',
  'E_CONVERT',
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

/**
 * Also true for an error from another copy of this module (a separately loaded bundle, such as the emulator's),
 * which `instanceof` would not recognise.
 */
export function isBomwrightError(value: unknown): value is BomwrightError {
  if (value instanceof BomwrightError) return true;
  const candidate = value as { name?: unknown; code?: unknown } | null;
  return (
    value instanceof Error &&
    // A ServiceError is a BomwrightError too (from the service bundle, another copy of these classes).
    (candidate?.name === 'BomwrightError' || candidate?.name === 'ServiceError') &&
    (ERROR_CODES as readonly unknown[]).includes(candidate.code)
  );
}

/** One line, safe to print: never a stack, never file contents. */
export function describeError(error: unknown): string {
  if (isBomwrightError(error)) return `${error.code}: ${error.message}`;
  const message = error instanceof Error ? error.message : String(error);
  return `E_INTERNAL: ${message.split('\n')[0]}`;
}
