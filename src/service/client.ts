/**
 * The service client's transport: one call = one logical request, sent with undici through a pipeline that adds
 * the headers every call needs, retries what the service asks to be retried (honouring Retry-After), follows
 * redirects safely, and turns failures into ServiceError. The typed operations sit on top of `call()`.
 *
 * Numbers are the Graph SDKs' (JS v3 and Kiota): retry on 429, 503 and 504; 3 retries after a 3 s delay; backoff
 * without Retry-After `delay + rand` then `round(0.5 * (2^r - 1)) + delay + rand`; at most 180 s per wait; the
 * `Retry-Attempt` header on retries; never a retried stream body. Redirects: at most 5, `Authorization`, `Cookie`
 * and `Proxy-Authorization` stripped when the new URL's origin may not have the token (origin.ts), 303 turns into
 * a GET of the new URL. An absolute URL given to `call()` (a link from a response) to such an origin is refused
 * before anything is sent. One deadline bounds each attempt, headers and body.
 */
import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, type Dispatcher } from 'undici';
import { readErrorBody, redactTokens, ServiceError } from './errors.js';
import { bareToken } from './token.js';
import { tlsCause } from './tls-cause.js';
import { OriginPolicy } from './origin.js';
import { ODATA_NAMESPACES, SPEC_NAMESPACE, type ODataNamespace } from './namespace.js';

export interface RetryOptions {
  /** Retries after the first attempt (default 3, at most 10). */
  maxRetries: number;
  /** Base delay in seconds when the service gives no Retry-After (default 3). */
  delaySeconds: number;
  /** Longest single wait in seconds (default 180). */
  maxDelaySeconds: number;
  /** Total time a call may spend, waits included, in milliseconds (default 5 minutes). */
  budgetMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxRetries: 3, delaySeconds: 3, maxDelaySeconds: 180, budgetMs: 300_000 };
const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 503, 504]);
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const SENSITIVE_ON_REDIRECT = ['authorization', 'cookie', 'proxy-authorization'];
const DEFAULT_MAX_REDIRECTS = 5;
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
const IDEMPOTENT: ReadonlySet<string> = new Set(['GET', 'HEAD', 'DELETE', 'PUT', 'OPTIONS']);
const DECLARED_LENGTH = /^\d{1,16}$/;

/**
 * The deadline of one attempt, as the abort signal undici takes. undici accepts an AbortSignal or anything with
 * EventEmitter's `on`/`once`/`removeListener` and `aborted`/`reason`; this is the least of the latter, a fraction of
 * an AbortController's cost per call (a request adds one listener and takes it off when done).
 */
class Deadline {
  aborted = false;
  reason: unknown = undefined;
  private listeners: (() => void)[] = [];

  on(event: string, listener: () => void): this {
    if (event === 'abort') this.listeners.push(listener);
    return this;
  }

  once(event: string, listener: () => void): this {
    return this.on(event, listener);
  }

  removeListener(event: string, listener: () => void): this {
    const at = event === 'abort' ? this.listeners.indexOf(listener) : -1;
    if (at !== -1) this.listeners.splice(at, 1);
    return this;
  }

  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason ?? new DOMException('This operation was aborted', 'AbortError');
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }
}

export interface ClientOptions {
  /** `{base_url}`: calls go to `${baseUrl}/v1.0/...`. */
  baseUrl: string;
  /** A bearer token, or a function that returns one (called once per attempt, so it may refresh). */
  token?: string;
  getToken?: (context: { url: URL }) => string | Promise<string>;
  /** An undici dispatcher (Agent, MockAgent...); default: one keep-alive Agent per client. */
  dispatcher?: Dispatcher;
  /**
   * Certificate authorities to trust for HTTPS (PEM), e.g. the emulator's `ca`, instead of the system's (with the
   * default Agent; NODE_EXTRA_CA_CERTS adds to the system's instead).
   */
  ca?: string | readonly string[];
  retry?: Partial<RetryOptions>;
  /**
   * One deadline for each attempt, from sending the request to the last byte of the body (redirects included), in
   * milliseconds (default 30 s): a body that drips slowly fails with E_TIMEOUT at the deadline.
   */
  timeoutMs?: number;
  /**
   * Origins besides the base URL's that may receive the token, so that links the service hands back to them are
   * followed (others are refused with E_FOREIGN_ORIGIN): `host` (any port), `host:port`, or an origin
   * `scheme://host[:port]`. A host entry never allows http under an https base; name the http origin for that.
   */
  allowedHosts?: readonly string[];
  /** Appended to bomwright's own User-Agent. */
  userAgent?: string;
  /** Requests at once in fan-out helpers (bulk removal, lookups); default 4. */
  concurrency?: number;
  maxRedirects?: number;
  /** bomwright's version, for the User-Agent (default: unknown). */
  toolVersion?: string;
  /** Random numbers for backoff jitter (tests make them fixed). */
  random?: () => number;
  /**
   * The namespace of type names in the bodies the typed operations send: the spec's `vendor.graph` (default) or
   * the real service's `microsoft.graph`. Answers are read in either.
   */
  odataNamespace?: ODataNamespace;
}

export interface CallRequest {
  method: string;
  /**
   * A path relative to `${baseUrl}/v1.0` (starting with /), or an absolute URL (a nextLink, a Location), which
   * must be on the base URL's origin or an allowed one (E_FOREIGN_ORIGIN otherwise, nothing sent).
   */
  path: string;
  /** Where an absolute `path` came from, for the refusal's message (default "the URL"). */
  linkFrom?: string;
  query?: Readonly<Record<string, string | number | undefined>>;
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
  /** Whether a retry is safe without the service asking (default: GET, HEAD, DELETE and PUT). */
  idempotent?: boolean;
}

export interface CallResponse {
  status: number;
  headers: Readonly<Record<string, string>>;
  /** Parsed JSON, the text when it is not JSON, or undefined for an empty body. */
  body: unknown;
  /** Whether `body` is parsed JSON, text that is not JSON, or absent (an empty body). */
  bodyType: 'json' | 'text' | 'empty';
  clientRequestId: string;
  attempts: number;
  /** The URL that answered (after redirects). */
  url: string;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Retry-After in seconds: a number (decimals allowed) or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  // An HTTP date starts with its day name (all three forms of RFC 9110); Date.parse alone takes "2." for a date.
  if (!/^[A-Za-z]{3}/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now) / 1000);
}

/** The SDKs' backoff for retry number `attempt` (1-based), in seconds, before the cap. */
export function backoffSeconds(attempt: number, delaySeconds: number, random: () => number): number {
  const jitter = Math.round(random() * 1000) / 1000;
  if (attempt <= 1) return delaySeconds + jitter;
  return Math.round(0.5 * (2 ** attempt - 1)) + delaySeconds + jitter;
}

// A function, so the compiler does not keep the narrowing of an earlier check across an await.
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function isStreamBody(body: unknown): boolean {
  return body !== null && typeof body === 'object' && typeof (body as { pipe?: unknown }).pipe === 'function';
}

export class ServiceClient {
  readonly baseUrl: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownDispatcher: boolean;
  private readonly retry: RetryOptions;
  private readonly timeoutMs: number;
  private readonly userAgent: string;
  private readonly maxRedirects: number;
  private readonly random: () => number;
  private readonly origins: OriginPolicy;
  /** Tokens this client has sent, taken out of every error it makes (the last few, for a refreshing getToken). */
  private readonly sentTokens: string[] = [];
  /** The token last given, as given: the same one again needs no second look. */
  private lastGiven: string | undefined;
  private lastBare: string | undefined;
  readonly concurrency: number;
  readonly odataNamespace: ODataNamespace;

  constructor(private readonly options: ClientOptions) {
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw new ServiceError(
        'E_REQUEST_SHAPE',
        `baseUrl is not a URL: ${JSON.stringify(String(options.baseUrl).slice(0, 100))}`,
      );
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:')
      throw new ServiceError('E_REQUEST_SHAPE', `baseUrl must be http or https, not ${base.protocol}`);
    this.baseUrl = base.href.replace(/\/+$/, '');
    this.origins = new OriginPolicy(base, options.allowedHosts);
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    if (this.retry.maxRetries < 0 || this.retry.maxRetries > 10 || !Number.isInteger(this.retry.maxRetries))
      throw new ServiceError('E_REQUEST_SHAPE', 'retry.maxRetries must be a whole number from 0 to 10');
    if (this.retry.delaySeconds < 0 || this.retry.delaySeconds > this.retry.maxDelaySeconds)
      throw new ServiceError('E_REQUEST_SHAPE', 'retry.delaySeconds must be from 0 to retry.maxDelaySeconds');
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxRedirects = Math.min(options.maxRedirects ?? DEFAULT_MAX_REDIRECTS, 20);
    this.userAgent = `bomwright/${options.toolVersion ?? 'unknown'}${options.userAgent === undefined ? '' : ` ${options.userAgent}`}`;
    this.random = options.random ?? Math.random;
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    if (options.odataNamespace !== undefined && !ODATA_NAMESPACES.includes(options.odataNamespace))
      throw new ServiceError(
        'E_REQUEST_SHAPE',
        `odataNamespace is ${ODATA_NAMESPACES.join(' or ')}, not ${JSON.stringify(String(options.odataNamespace).slice(0, 60))}`,
      );
    this.odataNamespace = options.odataNamespace ?? SPEC_NAMESPACE;
    // A fixed token that can never be sent is refused now, not at the first request.
    if (options.token !== undefined && options.token !== '') this.noteSent(options.token);
    this.ownDispatcher = options.dispatcher === undefined;
    this.dispatcher =
      options.dispatcher ??
      new Agent({
        keepAliveTimeout: 10_000,
        connections: Math.max(8, this.concurrency * 2),
        ...(options.ca === undefined
          ? {}
          : { connect: { ca: typeof options.ca === 'string' ? options.ca : [...options.ca] } }),
      });
  }

  /** Releases the client's own connections (not a dispatcher it was given). */
  async close(): Promise<void> {
    if (this.ownDispatcher) await this.dispatcher.close();
  }

  /** The token for an attempt: at once when it is a fixed one (no promise), else from getToken. */
  private token(url: URL): string | undefined | Promise<string | undefined> {
    if (this.options.getToken === undefined) return this.noteSent(this.options.token);
    return Promise.resolve(this.options.getToken({ url })).then((token) => this.noteSent(token));
  }

  private noteSent(given: string | undefined): string | undefined {
    if (given === undefined || given === '') return given;
    if (given === this.lastGiven) return this.lastBare;
    // A token pasted with its scheme ("Bearer eyJ…") is sent once as Bearer, not as "Bearer Bearer …".
    const bare = bareToken(given);
    if ('problem' in bare)
      throw new ServiceError('E_REQUEST_SHAPE', `The token cannot be sent: ${bare.problem}; pass the token alone`);
    const token = bare.token;
    if (!this.sentTokens.includes(token)) {
      this.sentTokens.push(token);
      if (this.sentTokens.length > 4) this.sentTokens.shift();
    }
    this.lastGiven = given;
    this.lastBare = token;
    return token;
  }

  /** Takes every token this client has sent (and anything that looks like one) out of `text`. */
  redact(text: string): string {
    return redactTokens(text, this.secrets());
  }

  private secrets(): string[] {
    const configured = this.options.token;
    return configured === undefined || this.sentTokens.includes(configured)
      ? [...this.sentTokens]
      : [configured, ...this.sentTokens];
  }

  /**
   * A URL the service handed back (`what` says where from), parsed and checked before anything is sent: another
   * origin than the base URL's that was not allowed is E_FOREIGN_ORIGIN.
   */
  checkLink(link: string, what: string): URL {
    // A relative link goes under the base URL, as call() sends it.
    return /^[a-z][a-z0-9+.-]*:/i.test(link) ? this.origins.check(link, what) : new URL(`${this.baseUrl}/v1.0${link}`);
  }

  private resolve(request: CallRequest): URL {
    const url = this.checkLink(request.path, request.linkFrom ?? 'the URL');
    for (const [name, value] of Object.entries(request.query ?? {}))
      if (value !== undefined) url.searchParams.set(name, String(value));
    return url;
  }

  /** One logical call: retries and redirects included; a non-2xx answer is a ServiceError. */
  async call(request: CallRequest): Promise<CallResponse> {
    const clientRequestId = randomUUID();
    const started = Date.now();
    const method = request.method.toUpperCase();
    const idempotent = request.idempotent ?? IDEMPOTENT.has(method);
    const body =
      request.body === undefined ? undefined : isStreamBody(request.body) ? request.body : JSON.stringify(request.body);
    const url = this.resolve(request);
    for (let attempt = 0; ; attempt++) {
      if (request.signal?.aborted === true) throw this.aborted(clientRequestId, attempt);
      const given = this.token(url);
      const token = given instanceof Promise ? await given : given;
      const headers: Record<string, string> = {
        accept: 'application/json',
        'user-agent': this.userAgent,
        'client-request-id': clientRequestId,
      };
      if (request.headers !== undefined)
        for (const name of Object.keys(request.headers)) headers[name.toLowerCase()] = request.headers[name]!;
      if (token !== undefined && token !== '') headers.authorization = `Bearer ${token}`;
      if (body !== undefined) headers['content-type'] ??= 'application/json';
      if (attempt > 0) headers['retry-attempt'] = String(attempt);
      let response: CallResponse;
      // One deadline for the attempt: headers, body and redirects. undici's own timeouts only bound the gaps.
      const deadline = new Deadline();
      const timer = setTimeout(() => deadline.abort(), this.timeoutMs);
      // The caller's signal ends the attempt too (its reason kept); the catch below tells the two apart.
      const callerSignal = request.signal;
      const onCallerAbort = (): void => deadline.abort(callerSignal?.reason);
      callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
      if (callerSignal?.aborted === true) onCallerAbort();
      try {
        response = await this.sendFollowingRedirects(
          method,
          url,
          headers,
          body,
          deadline,
          clientRequestId,
          attempt + 1,
        );
      } catch (error) {
        if (deadline.aborted && !isAborted(request.signal))
          throw new ServiceError(
            'E_TIMEOUT',
            `No complete answer within ${this.timeoutMs} ms (headers and body)`,
            { clientRequestId, attempts: attempt + 1 },
            { cause: error },
          );
        if (error instanceof ServiceError) throw error;
        throw this.transportError(error, request.signal, clientRequestId, attempt + 1, this.secrets());
      } finally {
        clearTimeout(timer);
        callerSignal?.removeEventListener('abort', onCallerAbort);
      }
      if (response.status >= 200 && response.status < 300) return response;
      // Every token sent so far, this attempt's included: taken out of what the error carries.
      const secrets = this.secrets();
      const retryAfter = parseRetryAfter(response.headers['retry-after']);
      const retryable =
        RETRY_STATUSES.has(response.status) && !isStreamBody(request.body) && (idempotent || retryAfter !== undefined);
      if (!retryable) throw this.serviceError(response, secrets);
      if (attempt >= this.retry.maxRetries) throw this.exhausted(response, secrets, `after ${attempt + 1} attempts`);
      const wait = Math.min(
        retryAfter ?? backoffSeconds(attempt + 1, this.retry.delaySeconds, this.random),
        this.retry.maxDelaySeconds,
      );
      if (Date.now() - started + wait * 1000 > this.retry.budgetMs)
        throw this.exhausted(
          response,
          secrets,
          `waiting ${wait} s more would pass the retry budget of ${this.retry.budgetMs} ms`,
        );
      try {
        await sleep(wait * 1000, undefined, { signal: request.signal });
      } catch {
        throw this.aborted(clientRequestId, attempt + 1);
      }
    }
  }

  private async sendFollowingRedirects(
    method: string,
    start: URL,
    headers: Record<string, string>,
    body: unknown,
    signal: Deadline,
    clientRequestId: string,
    attempts: number,
  ): Promise<CallResponse> {
    let url = start;
    let currentMethod = method;
    let currentBody = body;
    // The attempt's own object (call() makes one per attempt): a redirect may take headers out of it.
    const currentHeaders = headers;
    for (let redirects = 0; ; redirects++) {
      const response = await this.dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: currentMethod as Dispatcher.HttpMethod,
        headers: currentHeaders,
        body: currentBody as string | undefined,
        // undici takes an EventEmitter-like signal (see Deadline); its type names EventEmitter only.
        signal: signal as unknown as EventEmitter,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      const responseHeaders: Record<string, string> = {};
      for (const name of Object.keys(response.headers)) {
        const single = header(response.headers, name);
        if (single !== undefined) responseHeaders[name] = single;
      }
      const location = responseHeaders.location;
      if (REDIRECT_STATUSES.has(response.statusCode) && location !== undefined) {
        await response.body.dump();
        if (redirects >= this.maxRedirects)
          throw new ServiceError('E_REDIRECT', `More than ${this.maxRedirects} redirects`, {
            status: response.statusCode,
            clientRequestId,
            attempts,
          });
        const next = new URL(location, url);
        if (next.protocol !== 'http:' && next.protocol !== 'https:')
          throw new ServiceError('E_REDIRECT', `Redirect to a ${next.protocol} URL refused`, {
            status: response.statusCode,
            clientRequestId,
            attempts,
          });
        // The same rule as for links: only an origin that may have the token keeps it (and once dropped it stays so).
        if (!this.origins.trusts(next)) for (const name of SENSITIVE_ON_REDIRECT) delete currentHeaders[name];
        if (
          response.statusCode === 303 ||
          ((response.statusCode === 301 || response.statusCode === 302) && currentMethod === 'POST')
        ) {
          currentMethod = 'GET';
          currentBody = undefined;
          delete currentHeaders['content-type'];
        }
        url = next;
        continue;
      }
      const text = await readText(response.body, responseHeaders['content-length'], clientRequestId, attempts);
      let parsed: unknown;
      let bodyType: CallResponse['bodyType'] = 'empty';
      if (text !== '') {
        try {
          parsed = JSON.parse(text) as unknown;
          bodyType = 'json';
        } catch {
          parsed = text;
          bodyType = 'text';
        }
      }
      return {
        status: response.statusCode,
        headers: responseHeaders,
        body: parsed,
        bodyType,
        clientRequestId,
        attempts,
        url: url.href,
      };
    }
  }

  private serviceError(response: CallResponse, secrets: readonly string[]): ServiceError {
    const read = readErrorBody(response.body, secrets);
    const code = read.code ?? `HTTP${response.status}`;
    const message = read.message ?? `The service answered ${response.status}`;
    return new ServiceError('E_SERVICE', `${code}: ${message}`, {
      status: response.status,
      serviceCode: code,
      requestId: clip(response.headers['request-id'], secrets) ?? read.requestId,
      clientRequestId: response.clientRequestId,
      date: read.date ?? clip(response.headers.date, secrets),
      innerCodes: read.innerCodes,
      attempts: response.attempts,
      secrets,
    });
  }

  private exhausted(response: CallResponse, secrets: readonly string[], why: string): ServiceError {
    const last = this.serviceError(response, secrets);
    return new ServiceError('E_RETRY_EXHAUSTED', `Gave up ${why}: ${last.message}`, {
      status: last.status,
      serviceCode: last.serviceCode,
      requestId: last.requestId,
      clientRequestId: last.clientRequestId,
      date: last.date,
      innerCodes: [...last.innerCodes],
      attempts: last.attempts,
      secrets,
    });
  }

  private aborted(clientRequestId: string, attempts: number): ServiceError {
    return new ServiceError('E_ABORTED', 'The call was cancelled', { clientRequestId, attempts });
  }

  private transportError(
    error: unknown,
    signal: AbortSignal | undefined,
    clientRequestId: string,
    attempts: number,
    secrets: readonly string[],
  ): ServiceError {
    if (signal?.aborted === true) return this.aborted(clientRequestId, attempts);
    const code = (error as { code?: string }).code ?? '';
    const message = redactTokens(error instanceof Error ? error.message.split('\n')[0]! : String(error), secrets);
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
      return new ServiceError(
        'E_TIMEOUT',
        `No complete answer within ${this.timeoutMs} ms (headers and body)`,
        { clientRequestId, attempts },
        { cause: error },
      );
    const tls = tlsCause(error);
    if (tls !== undefined)
      return new ServiceError(
        'E_NETWORK',
        `The TLS connection failed: ${tls.reason} (${tls.code})${tls.untrusted ? '; trust the CA that signed it with the client option ca (--ca FILE or BOMWRIGHT_CA on the command line; for bomwright emulator --tls, the file bomwright emulator cert prints)' : ''}`,
        { clientRequestId, attempts },
        { cause: error },
      );
    return new ServiceError(
      'E_NETWORK',
      `The request failed: ${code === '' ? message : `${code}: ${message}`}`,
      { clientRequestId, attempts },
      { cause: error },
    );
  }
}

/** A header for an error's field: redacted first, then cut, so no piece of a token is left. */
function clip(value: string | undefined, secrets: readonly string[]): string | undefined {
  return value === undefined ? undefined : redactTokens(value, secrets).slice(0, 200);
}

/**
 * The body's text, at most MAX_RESPONSE_BYTES. With a Content-Length undici reads exactly that many bytes (more or
 * fewer is a protocol error), so a declared length within the bound is read in one piece; without one the bytes
 * are counted as they come.
 */
async function readText(
  body: Dispatcher.ResponseData['body'],
  declaredLength: string | undefined,
  clientRequestId: string,
  attempts: number,
): Promise<string> {
  const tooLarge = (): ServiceError =>
    new ServiceError('E_RESPONSE_SHAPE', `The response is larger than ${MAX_RESPONSE_BYTES} bytes`, {
      clientRequestId,
      attempts,
    });
  if (declaredLength !== undefined && DECLARED_LENGTH.test(declaredLength)) {
    if (Number(declaredLength) > MAX_RESPONSE_BYTES) {
      body.destroy();
      throw tooLarge();
    }
    return Buffer.from(await body.arrayBuffer()).toString('utf8');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer | Uint8Array | string>) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += bytes.length;
    if (size > MAX_RESPONSE_BYTES) throw tooLarge();
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function createServiceClient(options: ClientOptions): ServiceClient {
  return new ServiceClient(options);
}
