/**
 * The client's one error type. A failed call is a ServiceError whatever went wrong; `code` says what: the
 * service answered with an error (E_SERVICE, with status, the service's own error code, message, request ids and
 * date), or the call never got a usable answer (network, timeout, abort, retry budget, redirects, a response of
 * the wrong shape), or the request was refused before it was sent. No message ever contains a token.
 */
import { BomwrightError, type ErrorCode } from '../errors.js';

export type ServiceErrorCode = Extract<
  ErrorCode,
  | 'E_SERVICE'
  | 'E_NETWORK'
  | 'E_TIMEOUT'
  | 'E_ABORTED'
  | 'E_RETRY_EXHAUSTED'
  | 'E_REDIRECT'
  | 'E_RESPONSE_SHAPE'
  | 'E_REQUEST_SHAPE'
  | 'E_FOREIGN_ORIGIN'
  | 'E_LINK_LOOP'
>;

interface ServiceErrorDetails {
  /** HTTP status of the last response, when there was one. */
  status?: number;
  /** The service's error code (`error.code`), e.g. `Authorization_RequestDenied`. */
  serviceCode?: string;
  /** The service's `request-id` (response header or inner error). */
  requestId?: string;
  /** The `client-request-id` this call sent (the same on every retry). */
  clientRequestId?: string;
  /** The `date` of the inner error, when the service gave one. */
  date?: string;
  /** Inner error codes, outermost first (both `innerError` and `innererror` are walked). */
  innerCodes?: string[];
  /** Attempts made, retries included. */
  attempts?: number;
  /** Credentials to take out of every field above and the message (not kept). */
  secrets?: readonly string[];
}

export class ServiceError extends BomwrightError {
  readonly status?: number;
  readonly serviceCode?: string;
  readonly requestId?: string;
  readonly clientRequestId?: string;
  readonly date?: string;
  readonly innerCodes: readonly string[];
  readonly attempts?: number;

  constructor(
    code: ServiceErrorCode,
    message: string,
    details: ServiceErrorDetails = {},
    options?: { cause?: unknown },
  ) {
    // Every field may come from the service (or a proxy) and may echo the Authorization header back.
    const clean = (value: string | undefined) =>
      value === undefined ? undefined : redactTokens(value, details.secrets);
    super(code, redactTokens(message, details.secrets), options);
    this.name = 'ServiceError';
    this.status = details.status;
    this.serviceCode = clean(details.serviceCode);
    this.requestId = clean(details.requestId);
    this.clientRequestId = clean(details.clientRequestId);
    this.date = clean(details.date);
    this.innerCodes = (details.innerCodes ?? []).map((inner) => redactTokens(inner, details.secrets));
    this.attempts = details.attempts;
  }
}

/** Also true for a ServiceError of another copy of this module (the CLI loads the client from its own bundle). */
export function isServiceError(value: unknown): value is ServiceError {
  if (value instanceof ServiceError) return true;
  const candidate = value as { name?: unknown; code?: unknown; innerCodes?: unknown } | null;
  return (
    value instanceof Error &&
    candidate?.name === 'ServiceError' &&
    typeof candidate.code === 'string' &&
    Array.isArray(candidate.innerCodes)
  );
}

const MAX_MESSAGE = 500;
const MAX_INNER_DEPTH = 16;
const MAX_ID = 200;

function rawText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The service's error body `{ error: { code, message, innerError | innererror: {...} } }`, read defensively;
 * every text is redacted of `secrets` (and of anything that looks like a bearer token) before it is shortened, so
 * no piece of a credential survives a cut.
 */
export function readErrorBody(
  body: unknown,
  secrets: readonly string[] = [],
): {
  code?: string;
  message?: string;
  requestId?: string;
  clientRequestId?: string;
  date?: string;
  innerCodes: string[];
} {
  const error = (body as { error?: unknown } | null)?.error;
  if (error === null || typeof error !== 'object') return { innerCodes: [] };
  const text = (value: unknown) => {
    const raw = rawText(value);
    return raw === undefined ? undefined : redactTokens(raw, secrets);
  };
  const record = error as Record<string, unknown>;
  const innerCodes: string[] = [];
  let requestId: string | undefined;
  let clientRequestId: string | undefined;
  let date: string | undefined;
  let inner = (record.innerError ?? record.innererror) as Record<string, unknown> | undefined;
  for (let depth = 0; inner !== null && typeof inner === 'object' && depth < MAX_INNER_DEPTH; depth++) {
    requestId ??= (text(inner['request-id']) ?? text(inner.requestId))?.slice(0, MAX_ID);
    clientRequestId ??= (text(inner['client-request-id']) ?? text(inner.clientRequestId))?.slice(0, MAX_ID);
    date ??= text(inner.date)?.slice(0, MAX_ID);
    const code = text(inner.code);
    if (code !== undefined) innerCodes.push(code.slice(0, 100));
    inner = (inner.innerError ?? inner.innererror) as Record<string, unknown> | undefined;
  }
  const message = text(record.message);
  return {
    code: text(record.code)?.slice(0, 100),
    message: message === undefined ? undefined : message.slice(0, MAX_MESSAGE),
    requestId,
    clientRequestId,
    date,
    innerCodes,
  };
}

/** Removes anything that looks like a bearer token or a JWT from text meant for a message or a log. */
export function redactTokens(value: string, tokens: readonly string[] = []): string {
  let out = value;
  for (const token of tokens) {
    if (token.length < 8) continue;
    // Also the forms a server may echo it in: percent-encoded, or escaped as in JSON.
    for (const form of new Set([token, encodeURIComponent(token), JSON.stringify(token).slice(1, -1)]))
      out = out.split(form).join('[token]');
  }
  return out
    .replace(/\bBearer\s+[\w.~+/=-]+/gi, 'Bearer [token]')
    .replace(/\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]*/g, '[token]');
}
