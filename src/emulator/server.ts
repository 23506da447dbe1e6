/**
 * The emulator's HTTP transport (node:http): one pipeline per request — route from the operations table, bearer
 * token, permission, query options, body (content type, size, depth, shape), handler in a transaction, durable
 * commit, response — with the service's headers and error body, throttling and latency on demand, and one log
 * line per request (never a token).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ErrorObject } from 'ajv';
import { matchRoute, type RouteMatch } from '../service/paths.js';
import { BODY_SHAPES } from '../service/shapes.js';
import { inDeclaredNames, shapeProblem } from '../service/shape-check.js';
import type { Operation } from '../service/operations.js';
import { TokenRefusal, type Principal } from './auth.js';
import type { EmulatorSettings, HandlerResult, LinkTokens } from './context.js';
import { badRequest, ServiceFault } from './faults.js';
import { HANDLERS } from './handlers/index.js';
import { FAULT_ERRORS, type FaultDecision, type FaultPlan } from './fault-rules.js';
import type { StubSet } from './stubs.js';
import { checkPermission, permissionNeeded, type PermissionNeed } from './permissions.js';
import { renameInText, renameTypes, SPEC_NAMESPACE, specPath, type ODataNamespace } from './namespace.js';
import { keptHeaders, queryObject, type Caller, type RawRequest } from './requests.js';
import { constantJson } from './json-bytes.js';
import { Transaction, type Change, type Store } from './store.js';

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
const MAX_JSON_DEPTH = 64;
const CLIENT_REQUEST_ID = /^[\w.:{}-]{1,128}$/;
const DIAGNOSTIC = JSON.stringify({
  ServerInfo: { DataCenter: 'Local', Slice: 'E', Ring: '0', ScaleUnit: '000', RoleInstance: 'bomwright-emulator' },
});
/** Routes kept by the route cache, and the longest path it keeps one for. */
const MAX_CACHED_ROUTES = 1_024;
const MAX_CACHED_PATH = 512;
const JSON_TYPE =
  'application/json; odata.metadata=minimal; odata.streaming=true; IEEE754Compatible=false; charset=utf-8';

export interface ThrottleOptions {
  /** Share of requests answered 429 (0 to 1). */
  readonly rate: number;
  /** The Retry-After of a new throttling window, in seconds (decimals allowed). */
  readonly retryAfterSeconds: number;
  /** The draw against `rate` (default Math.random; a test makes it a fixed sequence). */
  readonly random?: () => number;
}

interface RateLimitOptions {
  /** Requests each caller may make per window… */
  readonly limit: number;
  /** …of this many seconds (fixed windows, from the caller's first request). */
  readonly windowSeconds: number;
}

interface ServerOptions {
  readonly host: string;
  readonly port: number;
  readonly throttle?: ThrottleOptions;
  /** Added delay per request: fixed, or uniformly random in [min, max]. */
  readonly latencyMs?: readonly [number, number];
  readonly maxBodyBytes: number;
  readonly requestTimeoutMs: number;
  readonly log?: (line: string) => void;
  /** False: no line per request in `log` (internal errors still go there). */
  readonly logRequests?: boolean;
  /** Serve HTTPS with this certificate and key (PEM). */
  readonly tls?: { readonly cert: string; readonly key: string };
  /** The namespace of type names on the wire (default the spec's, vendor.graph). */
  readonly odataNamespace?: ODataNamespace;
  /** A quota per caller, told in RateLimit-* headers and enforced with 429 once spent. */
  readonly rateLimit?: RateLimitOptions;
}

/** A Host header that is a host name or IP address with an optional port; anything else is not echoed into links. */
const HOST_HEADER = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** What the transport needs from the emulator. */
export interface EmulatorCore {
  readonly store: Store;
  readonly settings: EmulatorSettings;
  readonly links: LinkTokens;
  authenticate(token: string): Principal | Promise<Principal>;
  /** Applies changes and resolves once they are durable (at once without --state). */
  commit(changes: readonly Change[]): Promise<void>;
  /** Undefined when every change up to this journal seq is durable, else a promise of it (see Store.readHorizon). */
  durable(seq: number): Promise<void> | undefined;
  /** The emulator's own routes under /_emulator/ (token minting, health, journal, reset...). */
  admin(
    method: string,
    path: string,
    /** A POST's body text (undefined for other methods). */
    text: string | undefined,
    request: IncomingMessage,
    query: Readonly<Record<string, string>>,
  ): Promise<HandlerResult | undefined>;
  now(): Date;
  /** Keeps a request in the request journal (requests to /_emulator/ are not kept). */
  record?(request: RawRequest): void;
  /** The fault rules in force, if any. */
  faults?(): FaultPlan | undefined;
  /** The stubs in force, if any. */
  stubs?(): StubSet | undefined;
  /** Notes what a call with a valid token to an operation needed (permission guidance). */
  noteCall?(caller: Caller, need: PermissionNeed, held?: ReadonlySet<string>): void;
}

function describeBodyError(shape: string, error: ErrorObject | undefined): string {
  const typeName = BODY_SHAPES[shape]!.typeName;
  if (error === undefined) return `The request body is not a valid ${typeName}.`;
  const where = error.instancePath === '' ? 'the body' : error.instancePath;
  if (error.keyword === 'additionalProperties')
    return `Property '${String((error.params as { additionalProperty: string }).additionalProperty)}' does not exist on type '${typeName}' (at ${where}).`;
  if (error.keyword === 'required')
    return `Missing required property '${String((error.params as { missingProperty: string }).missingProperty)}' on type '${typeName}' (at ${where}).`;
  return `Invalid value at ${where}: ${error.message ?? 'not valid'}.`;
}

/** Rejects nesting deeper than MAX_JSON_DEPTH before parsing, in one linear pass. */
function jsonDepthExceeded(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** A body over the limit of its route (the emulator's own routes take less than the service's). */
class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`The request body is larger than ${limit} bytes.`);
  }
}

const EMPTY = Buffer.alloc(0);

function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  // Most requests (GET, DELETE) carry no body at all: no need to wait for one.
  if (request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined) {
    request.resume();
    return Promise.resolve(EMPTY);
  }
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    request.resume();
    return Promise.reject(new BodyTooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    request.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > limit) {
        refused = true;
        reject(new BodyTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      if (!refused) resolve(Buffer.concat(chunks));
    });
    request.on('error', reject);
  });
}

let isoMs = -1;
let isoText = '';

/** A clock reading as ISO 8601, through the same once-per-millisecond text (an invalid date throws, as always). */
function isoOf(date: Date): string {
  const ms = date.getTime();
  if (ms !== isoMs) {
    const text = date.toISOString();
    isoMs = ms;
    isoText = text;
  }
  return isoText;
}

/** One caller per principal (principals of verified tokens are kept and reused), frozen and counted once. */
const callers = new WeakMap<Principal, Caller>();

function callerOf(principal: Principal): Caller {
  let caller = callers.get(principal);
  if (caller === undefined) {
    caller = constantJson<Caller>(
      principal.kind === 'user'
        ? { kind: 'user', id: principal.userId, userPrincipalName: principal.userPrincipalName }
        : { kind: 'app', appId: principal.appId },
    );
    callers.set(principal, caller);
  }
  return caller;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A throttling window still open: the seconds left, and the fault rule that opened it (none for --throttle). */
interface OpenWindow {
  readonly seconds: number;
  readonly rule?: string;
}

/**
 * Throttling windows per caller and workload, as the real service and Dev Proxy's RetryAfterPlugin keep them:
 * opened by `--throttle`'s draw or by a fault rule's 429, and enforced until they end.
 */
class Throttle {
  private readonly windows = new Map<string, { readonly until: number; readonly rule?: string }>();

  constructor(private readonly options: ThrottleOptions | undefined) {}

  /** Whether a request must be looked at at all (no key is made for one when neither draws nor windows exist). */
  get watching(): boolean {
    return this.windows.size > 0 || (this.options !== undefined && this.options.rate > 0);
  }

  clear(): void {
    this.windows.clear();
  }

  /** The window `key` is inside, if any. */
  open(key: string, now: number): OpenWindow | undefined {
    const window = this.windows.get(key);
    if (window === undefined) return undefined;
    if (now < window.until)
      return { seconds: (window.until - now) / 1000, ...(window.rule === undefined ? {} : { rule: window.rule }) };
    this.windows.delete(key);
    return undefined;
  }

  /** Opens a window of `seconds` for `key`. */
  hold(key: string, seconds: number, now: number, rule?: string): void {
    if (this.windows.size > 10_000)
      for (const [k, window] of this.windows) if (window.until <= now) this.windows.delete(k);
    this.windows.set(key, { until: now + seconds * 1000, ...(rule === undefined ? {} : { rule }) });
  }

  /** `--throttle`'s draw: the seconds of a new window, or undefined when the request may go ahead. */
  draw(key: string, now: number): number | undefined {
    const options = this.options;
    if (options === undefined || options.rate <= 0 || (options.random ?? Math.random)() >= options.rate)
      return undefined;
    this.hold(key, options.retryAfterSeconds, now);
    return options.retryAfterSeconds;
  }
}

/**
 * A fixed-window quota per caller, told on every answer as the IETF RateLimit header fields say it (and as Dev
 * Proxy's RateLimitingPlugin sends them): `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (seconds
 * left) and `RateLimit-Policy`. A request over the quota is answered 429 with `Retry-After` until the window ends.
 */
class RateLimiter {
  private readonly windows = new Map<string, { start: number; used: number }>();
  private readonly policy: string;

  constructor(private readonly options: RateLimitOptions) {
    this.policy = `${options.limit};w=${options.windowSeconds}`;
  }

  clear(): void {
    this.windows.clear();
  }

  /** Counts a request of `key`: the headers to send, and whether it is over the quota. */
  take(key: string, now: number): { headers: Record<string, string>; over: boolean } {
    const length = this.options.windowSeconds * 1000;
    let window = this.windows.get(key);
    if (window === undefined || now >= window.start + length) {
      if (this.windows.size > 10_000)
        for (const [k, w] of this.windows) if (now >= w.start + length) this.windows.delete(k);
      window = { start: now, used: 0 };
      this.windows.set(key, window);
    }
    window.used++;
    const over = window.used > this.options.limit;
    const reset = wholeSeconds((window.start + length - now) / 1000);
    const headers: Record<string, string> = {
      'RateLimit-Limit': String(this.options.limit),
      'RateLimit-Remaining': String(Math.max(0, this.options.limit - window.used)),
      'RateLimit-Reset': reset,
      'RateLimit-Policy': this.policy,
    };
    if (over) headers['Retry-After'] = reset;
    return { headers, over };
  }
}

/** A fault rule's Retry-After as it wrote it (the service's own samples use decimals), to the millisecond. */
function formatSeconds(seconds: number): string {
  return String(Math.max(0.001, Math.ceil(seconds * 1000) / 1000));
}

/** RFC 9110 delay-seconds (a whole number; urllib3 and others refuse "1.5"), rounded up so waiting it is enough. */
function wholeSeconds(seconds: number): string {
  return String(Math.max(1, Math.ceil(seconds - 1e-9)));
}

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  /** Forgets throttling windows (a reset of the emulator). */
  forgetThrottling(): void;
  /** Stops accepting, lets requests in flight finish, then resolves. */
  close(): Promise<void>;
}

export async function startServer(core: EmulatorCore, options: ServerOptions): Promise<RunningServer> {
  const scheme = options.tls === undefined ? 'http' : 'https';
  /** `{base_url}` as this request reached the emulator: links follow the scheme, host and port it came in on. */
  // The last Host header seen and its base URL: clients send the same one on every request.
  let lastHost: string | undefined;
  let lastHostBase = '';
  const requestBaseUrl = (request: IncomingMessage): string => {
    const host = request.headers.host;
    if (host === undefined) return core.settings.baseUrl;
    if (host === lastHost) return lastHostBase;
    if (!HOST_HEADER.test(host)) return core.settings.baseUrl;
    lastHost = host;
    return (lastHostBase = `${scheme}://${host}`);
  };
  const throttle = new Throttle(options.throttle);
  const rateLimiter = options.rateLimit === undefined ? undefined : new RateLimiter(options.rateLimit);
  const namespace = options.odataNamespace ?? SPEC_NAMESPACE;
  const requestLog = options.logRequests === false ? undefined : options.log;
  const lastBearer: LastBearer = { header: undefined, token: '' };
  let inFlight = 0;
  let idle: (() => void) | undefined;

  // Routes by method and path as sent: clients call the same few paths again and again, and matching one against
  // the table costs more than a lookup. Bounded, and emptied when full.
  const routes = new Map<string, { readonly path: string; readonly route: RouteMatch }>();
  const routeOf = (method: string, rawPath: string): { readonly path: string; readonly route: RouteMatch } => {
    const key = rawPath.length <= MAX_CACHED_PATH ? `${method} ${rawPath}` : undefined;
    const known = key === undefined ? undefined : routes.get(key);
    if (known !== undefined) return known;
    const version = /^\/([^/]+)(\/.*)?$/.exec(rawPath);
    if (version === null || version[1] !== 'v1.0')
      throw new ServiceFault(
        400,
        'BadRequest',
        `Invalid version: '${(version?.[1] ?? '').slice(0, 40)}'. The emulator serves v1.0.`,
      );
    const path = specPath(version[2] ?? '/', namespace);
    const route = matchRoute(method, path);
    // Shared by every request to the path from now on: nothing may change its parameters.
    if (route.kind === 'matched') Object.freeze(route.params);
    const found = { path, route };
    if (key !== undefined) {
      if (routes.size >= MAX_CACHED_ROUTES) routes.clear();
      routes.set(key, found);
    }
    return found;
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // performance.now(): a double, where a bigint difference costs a runtime call per request.
    const started = performance.now();
    // Durable before visible: the newest not-yet-durable change this request's answer was computed from.
    let dependsOn = 0;
    /** Runs a synchronous step that reads the store, noting what it read. */
    const observe = <T>(step: () => T): T => {
      core.store.takeReadHorizon();
      try {
        return step();
      } finally {
        dependsOn = Math.max(dependsOn, core.store.takeReadHorizon());
      }
    };
    const requestId = randomUUID();
    const given = request.headers['client-request-id'];
    const clientRequestId = typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : requestId;
    const rawUrl = request.url ?? '/';
    const queryStart = rawUrl.indexOf('?');
    const rawPath = queryStart === -1 ? rawUrl : rawUrl.slice(0, queryStart);
    const rawQuery = queryStart === -1 ? '' : rawUrl.slice(queryStart + 1);
    const method = request.method ?? 'GET';
    const common: Record<string, string> = {
      'request-id': requestId,
      'client-request-id': clientRequestId,
      'x-ms-ags-diagnostic': DIAGNOSTIC,
      'Cache-Control': 'no-store',
      'OData-Version': '4.0',
    };

    // For the request journal and permission guidance: what the request was, as far as it got.
    const admin = rawPath.startsWith('/_emulator/');
    let bodyBytes: Buffer | undefined;
    let caller: Caller | undefined;
    let operationName: string | undefined;
    let decision: FaultDecision | undefined;
    let faulted: string | undefined;
    /** The fault rule that decided the request (a fault, latency or both), for the journal. */
    let ruleName: string | undefined;
    /** The stub that answered it. */
    let stubName: string | undefined;
    const arrivedMs = core.record === undefined || admin ? 0 : Date.now();

    /** Headers every answer to this request carries besides the common ones (the caller's quota). */
    let quota: Record<string, string> | undefined;
    const send = (result: HandlerResult): void => {
      const base = quota === undefined ? common : { ...common, ...quota };
      const headers = result.headers === undefined ? base : { ...base, ...result.headers };
      let payload: string | undefined;
      if (result.body !== undefined) {
        payload = JSON.stringify(
          namespace === SPEC_NAMESPACE || admin ? result.body : renameTypes(result.body, SPEC_NAMESPACE, namespace),
        );
        headers['Content-Type'] ??= JSON_TYPE;
      }
      // A known length lets Node send headers and body in one write, instead of chunked encoding.
      if (result.status !== 204)
        headers['Content-Length'] = String(payload === undefined ? 0 : Buffer.byteLength(payload));
      if (decision?.fault === 'truncate' && faulted === undefined) {
        faulted = decision.rule;
        // A fault rule: the work is done and the answer lost. An answer without a body (a 202 or 204) has nothing
        // to cut in half, so the connection is cut before its status line.
        if (payload === undefined || payload.length === 0) {
          cut(request);
          return;
        }
        // Otherwise the whole length is announced, half the bytes are sent, and the connection is cut.
        const bytes = Buffer.from(payload);
        response.writeHead(result.status, headers);
        response.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => cut(request));
        return;
      }
      response.writeHead(result.status, headers);
      response.end(payload);
    };

    const fail = (fault: ServiceFault): void => {
      send({
        status: fault.status,
        headers: fault.headers,
        body: {
          error: {
            code: fault.code,
            // The service's messages name types in its own namespace ("… on type 'microsoft.graph.message'").
            message:
              namespace === SPEC_NAMESPACE || admin
                ? fault.message
                : renameInText(fault.message, SPEC_NAMESPACE, namespace),
            innerError: {
              date: new Date().toISOString().replace(/\.\d{3}Z$/, ''),
              'request-id': requestId,
              'client-request-id': clientRequestId,
            },
          },
        },
      });
    };

    let recorded = false;
    const record = (status: number): void => {
      if (recorded || core.record === undefined || admin) return;
      recorded = true;
      const raw: { -readonly [K in keyof RawRequest]: RawRequest[K] } = {
        method,
        path: rawPath,
        rawQuery,
        body: bodyBytes,
        status,
        arrivedMs,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
      };
      if (caller !== undefined) raw.caller = caller;
      if (operationName !== undefined) raw.operation = operationName;
      if (faulted !== undefined) raw.fault = faulted;
      if (ruleName !== undefined) raw.rule = ruleName;
      if (stubName !== undefined) raw.stub = stubName;
      const kept = keptHeaders(request.headers);
      if (kept !== undefined) raw.headers = kept;
      core.record(raw);
    };
    // One listener per request: 'close' follows 'finish' for an answer sent whole, and comes alone for one that was
    // not (a reset or a cut body from fault rules, or the client went away).
    response.on('close', () => {
      if (response.writableFinished) {
        record(response.statusCode);
        if (requestLog !== undefined) {
          const ms = performance.now() - started;
          requestLog(
            `${method} ${rawPath.slice(0, 300)} ${response.statusCode} ${ms.toFixed(1)}ms request-id=${requestId}`,
          );
        }
        return;
      }
      record(response.headersSent ? response.statusCode : 0);
      requestLog?.(
        `${method} ${rawPath.slice(0, 300)} ${faulted === undefined ? 'closed' : `fault ${faulted}`} request-id=${requestId}`,
      );
    });

    try {
      if (options.latencyMs !== undefined) {
        const [min, max] = options.latencyMs;
        await delay(min + Math.random() * (max - min));
      }
      if (admin) {
        // Parsed by the route, once it knows the caller may use it (and that it sent JSON).
        const text = method === 'POST' ? bodyText(await readBody(request, 64 * 1024)) : undefined;
        const result = await core.admin(method, rawPath, text, request, queryObject(rawQuery));
        if (result === undefined)
          throw new ServiceFault(404, 'NotFound', `No emulator route ${method} ${rawPath.slice(0, 100)}.`);
        send(result);
        return;
      }
      const { path, route } = routeOf(method, rawPath);
      const hasBody =
        request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined;
      const stubs = core.stubs?.();
      const plan = core.faults?.();
      // Read before matching only when a stub or rule looks at it (the request is then handled from these bytes).
      if (hasBody && (stubs?.needsBody === true || plan?.needsBody === true))
        bodyBytes = await readBody(request, options.maxBodyBytes);
      const matchText = bodyBytes === undefined ? undefined : bodyBytes.toString('utf8');
      if (stubs !== undefined && stubs.size > 0) {
        const stub = stubs.match(method, path, route.kind === 'matched' ? route.operation.name : undefined, matchText);
        if (stub !== undefined) {
          // A test's answer in place of the emulator's, for any path (one the table does not have too).
          if (route.kind === 'matched') operationName = route.operation.name;
          stubName = stub.name ?? stub.id;
          if (bodyBytes === undefined && hasBody) bodyBytes = await readBody(request, options.maxBodyBytes);
          else if (!hasBody) request.resume();
          send({
            status: stub.response.status,
            ...(stub.response.headers === undefined ? {} : { headers: { ...stub.response.headers } }),
            ...(stub.response.body === undefined ? {} : { body: stub.response.body }),
          });
          return;
        }
      }
      if (route.kind === 'none') {
        const segment = path.split('/').filter(Boolean).slice(-1)[0] ?? '';
        throw new ServiceFault(
          400,
          'BadRequest',
          `Resource not found for the segment '${decodeSafe(segment).slice(0, 100)}'.`,
        );
      }
      if (route.kind === 'method')
        throw new ServiceFault(
          405,
          'BadRequest',
          `The HTTP method '${method.slice(0, 10)}' is not allowed for this resource.`,
          {
            Allow: route.allowed.join(', '),
          },
        );
      if (route.kind === 'badParameter') throw badRequest(`Path parameter ${route.name} ${route.reason}.`);
      operationName = route.operation.name;

      const authenticated = authenticate(core, request, lastBearer);
      const principal = authenticated instanceof Promise ? await authenticated : authenticated;
      caller = callerOf(principal);
      if (core.noteCall !== undefined) {
        const need = observe(() => permissionNeeded(route.operation, route.params, principal, core.store));
        core.noteCall(caller, need, principal.kind === 'user' ? principal.scopes : principal.roles);
      }
      if (rateLimiter !== undefined) {
        const taken = rateLimiter.take(principal.kind === 'user' ? principal.userId : principal.appId, Date.now());
        quota = taken.headers;
        if (taken.over)
          throw new ServiceFault(
            429,
            'TooManyRequests',
            'Too many requests; retry after the time in the Retry-After header.',
          );
      }
      // Inside a throttling window (a fault rule's 429 or --throttle's): refused again with the time left, before
      // any rule counts the request, as the service and Dev Proxy's RetryAfterPlugin do.
      const throttleKey = throttle.watching
        ? `${principal.kind === 'user' ? principal.userId : principal.appId} ${path.split('/')[1] ?? ''}`
        : undefined;
      if (throttleKey !== undefined) {
        const open = throttle.open(throttleKey, Date.now());
        if (open !== undefined) {
          if (open.rule !== undefined) faulted = ruleName = open.rule;
          throw new ServiceFault(
            429,
            'TooManyRequests',
            'Too many requests; retry after the time in the Retry-After header.',
            { 'Retry-After': open.rule === undefined ? wholeSeconds(open.seconds) : formatSeconds(open.seconds) },
          );
        }
      }
      decision = plan?.decide(method, path, route.operation.name, matchText);
      if (decision !== undefined) {
        ruleName = decision.rule;
        if (decision.latencyMs !== undefined && decision.latencyMs > 0) await delay(decision.latencyMs);
        // Answered in place of the emulator: the body is read first, so the journal shows what was sent.
        if ((decision.fault === 'reset' || typeof decision.fault === 'number') && hasBody && bodyBytes === undefined)
          bodyBytes = await readBody(request, options.maxBodyBytes);
        if (decision.fault === 'reset') {
          faulted = decision.rule;
          cut(request);
          return;
        }
        if (typeof decision.fault === 'number') {
          faulted = decision.rule;
          const [code, message] = FAULT_ERRORS[decision.fault];
          // A 429 holds the caller to its Retry-After: an earlier retry is refused again (the service's way).
          if (decision.fault === 429 && decision.retryAfterSeconds !== undefined && decision.retryAfterSeconds > 0)
            throttle.hold(
              `${principal.kind === 'user' ? principal.userId : principal.appId} ${path.split('/')[1] ?? ''}`,
              decision.retryAfterSeconds,
              Date.now(),
              decision.rule,
            );
          throw new ServiceFault(
            decision.fault,
            code,
            message,
            decision.retryAfterSeconds === undefined || decision.retryAfterSeconds === 0
              ? {}
              : { 'Retry-After': formatSeconds(decision.retryAfterSeconds) },
          );
        }
      }
      if (throttleKey !== undefined) {
        const wait = throttle.draw(throttleKey, Date.now());
        if (wait !== undefined)
          throw new ServiceFault(
            429,
            'TooManyRequests',
            'Too many requests; retry after the time in the Retry-After header.',
            { 'Retry-After': wholeSeconds(wait) },
          );
      }
      const refusal = observe(() =>
        checkPermission(route.operation, route.template, route.params, principal, core.store),
      );
      if (refusal !== undefined) throw refusal;
      const query = parseQuery(rawQuery, route.operation);
      // Most requests (GET, DELETE) neither expect nor carry a body: no promise for them.
      const body =
        route.operation.body === undefined && !hasBody
          ? (request.resume(), undefined)
          : requestBody(
              request,
              route.operation,
              bodyBytes ?? (bodyBytes = await readBody(request, options.maxBodyBytes)),
              namespace,
            );

      const handler = HANDLERS[route.operation.name];
      if (handler === undefined)
        throw new ServiceFault(501, 'NotImplemented', `${route.operation.name} is not implemented.`);
      const tx = new Transaction(core.store);
      const now = core.now();
      const result = observe(() =>
        handler({
          operation: route.operation,
          template: route.template,
          params: route.params,
          query,
          header: (name) => {
            const value = request.headers[name.toLowerCase()];
            return Array.isArray(value) ? value[0] : value;
          },
          principal,
          body,
          tx,
          store: core.store,
          settings: core.settings,
          baseUrl: requestBaseUrl(request),
          now: isoOf(now),
          newId: randomUUID,
          links: core.links,
        }),
      );
      const changes = tx.changes();
      // The request's own record is durable after every record before it (group commit keeps the order).
      if (changes.length > 0) await core.commit(changes);
      const pending = core.durable(dependsOn);
      if (pending !== undefined) await pending;
      send(result);
    } catch (error) {
      // A refusal that read not-yet-durable state waits for it too (or it would reveal a write a crash can lose).
      const pending = dependsOn === 0 ? undefined : core.durable(dependsOn);
      if (pending !== undefined)
        try {
          await pending;
        } catch (journalError) {
          error = journalError;
        }
      if (error instanceof ServiceFault) fail(error);
      else if (error instanceof BodyTooLarge) fail(new ServiceFault(413, 'RequestEntityTooLarge', error.message));
      else if (error instanceof SyntaxError) fail(badRequest('The request body is not valid JSON.'));
      else {
        options.log?.(
          `internal error on ${method} ${rawPath.slice(0, 200)} request-id=${requestId}: ${(error as Error).message?.split('\n')[0] ?? 'unknown'}`,
        );
        fail(new ServiceFault(500, 'generalException', 'An internal error occurred in the emulator.'));
      }
    } finally {
      // In flight until its handler has answered (or failed).
      if (--inFlight === 0) idle?.();
    }
  }

  const serverOptions = {
    requestTimeout: options.requestTimeoutMs,
    headersTimeout: Math.min(options.requestTimeoutMs, 60_000),
    // Node checks the timeouts on this period (30 s by default): a slow client would outlive its timeout.
    connectionsCheckingInterval: Math.max(50, Math.min(options.requestTimeoutMs / 4, 2_000)),
  };
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    // Counted down by handle itself: no listener or promise chain per request on the hot path.
    inFlight++;
    void handle(request, response);
  };
  const server: Server =
    options.tls === undefined
      ? createServer(serverOptions, listener)
      : createHttpsServer({ ...serverOptions, cert: options.tls.cert, key: options.tls.key }, listener);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `${scheme}://${host}:${address.port}`,
    forgetThrottling: () => {
      throttle.clear();
      rateLimiter?.clear();
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
      server.closeIdleConnections();
      await closed;
    },
  };
}

/** Ends a connection abruptly: a TCP reset where the socket can send one, else a plain destroy. */
function cut(request: IncomingMessage): void {
  const socket = request.socket as IncomingMessage['socket'] & { resetAndDestroy?: () => void };
  try {
    if (typeof socket.resetAndDestroy === 'function' && !('encrypted' in socket)) socket.resetAndDestroy();
    else socket.destroy();
  } catch {
    socket.destroy();
  }
}

function decodeSafe(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function challenge(core: EmulatorCore, error?: string): Record<string, string> {
  const base = `Bearer realm="", authorization_uri="https://login.bomwright.invalid/${core.settings.tenantId}/oauth2/authorize", client_id="00000003-0000-0000-c000-000000000000"`;
  return { 'WWW-Authenticate': error === undefined ? base : `${base}, error="${error}"` };
}

function refusal(error: unknown, core: EmulatorCore): unknown {
  return error instanceof TokenRefusal
    ? new ServiceFault(401, 'InvalidAuthenticationToken', error.message, challenge(core, 'invalid_token'))
    : error;
}

/** The last well-formed Authorization header and its token: a client sends the same one on every request. */
interface LastBearer {
  header: string | undefined;
  token: string;
}

/** The caller, at once when its token was verified before (no promise on the hot path), else once verified. */
function authenticate(core: EmulatorCore, request: IncomingMessage, last: LastBearer): Principal | Promise<Principal> {
  const header = request.headers.authorization;
  let token: string;
  if (header !== undefined && header === last.header) token = last.token;
  else {
    if (header === undefined || header.trim() === '')
      throw new ServiceFault(401, 'InvalidAuthenticationToken', 'Access token is empty.', challenge(core));
    // A split, not a regular expression over a token of a kilobyte or more.
    const space = header.indexOf(' ');
    token = space === -1 ? '' : header.slice(space + 1).trim();
    if (
      space === -1 ||
      header.slice(0, space).toLowerCase() !== 'bearer' ||
      token === '' ||
      token.includes(' ') ||
      token.includes('\t')
    )
      throw new ServiceFault(
        401,
        'InvalidAuthenticationToken',
        'The Authorization header must be "Bearer <access token>".',
        challenge(core),
      );
    last.header = header;
    last.token = token;
  }
  let result: Principal | Promise<Principal>;
  try {
    result = core.authenticate(token);
  } catch (error) {
    throw refusal(error, core);
  }
  return result instanceof Promise
    ? result.catch((error: unknown) => {
        throw refusal(error, core);
      })
    : result;
}

const NO_QUERY: ReadonlyMap<string, string> = new Map();

function parseQuery(rawQuery: string, operation: Operation): ReadonlyMap<string, string> {
  if (rawQuery === '') return NO_QUERY;
  const query = new Map<string, string>();
  if (rawQuery.length > 8_192) throw badRequest('The query string is longer than 8192 characters.');
  for (const [name, value] of decodeQuery(rawQuery)) {
    const allowed = (operation.query as readonly string[]).find(
      (option) => option.toLowerCase() === name.toLowerCase(),
    );
    if (allowed === undefined && name.startsWith('$') && operation.query.includes('$count'))
      // An operation with the whole OData set refuses the rest as the real service (ASP.NET OData) words it.
      throw badRequest(
        `Query option '${odataOptionName(name)}' is not allowed. To allow it, set the 'AllowedQueryOptions' property on EnableQueryAttribute or QueryValidationSettings.`,
      );
    if (allowed === undefined)
      throw badRequest(
        operation.query.length === 0
          ? `Query option '${name.slice(0, 40)}' is not supported: ${operation.name} takes no query options.`
          : `Query option '${name.slice(0, 40)}' is not supported by ${operation.name}; supported: ${operation.query.join(', ')}.`,
      );
    if (query.has(allowed)) throw badRequest(`Query option '${allowed}' was given more than once.`);
    query.set(allowed, value);
  }
  return query;
}

/**
 * `name=value&...` decoded strictly: URLSearchParams would keep a malformed escape as text and turn bytes that are
 * not UTF-8 into U+FFFD, so a value would silently differ from what was sent. Each is a 400 naming the option.
 */
/** `$skiptoken` → `SkipToken`: the AllowedQueryOptions name the real service's message uses. */
function odataOptionName(option: string): string {
  const names: Record<string, string> = { $skiptoken: 'SkipToken', $deltatoken: 'DeltaToken', $orderby: 'OrderBy' };
  const bare = option.slice(1, 41);
  return names[option.toLowerCase()] ?? bare.charAt(0).toUpperCase() + bare.slice(1).toLowerCase();
}

function decodeQuery(rawQuery: string): [string, string][] {
  const pairs: [string, string][] = [];
  for (const part of rawQuery.split('&')) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const rawName = equals === -1 ? part : part.slice(0, equals);
    const rawValue = equals === -1 ? '' : part.slice(equals + 1);
    const name = strictDecode(rawName);
    if (name === undefined)
      throw badRequest(`Query option name '${rawName.slice(0, 40)}' is not valid percent-encoding.`);
    const value = strictDecode(rawValue);
    if (value === undefined)
      throw badRequest(`The value of query option '${name.slice(0, 40)}' is not valid percent-encoding.`);
    pairs.push([name, value]);
  }
  return pairs;
}

function strictDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A body's text; bytes that are not UTF-8 are refused, never stored as U+FFFD. */
function bodyText(bytes: Buffer): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw badRequest('The request body is not valid UTF-8.');
  }
}

function requestBody(
  request: IncomingMessage,
  operation: Operation,
  bytes: Buffer,
  namespace: ODataNamespace,
): unknown {
  if (operation.body === undefined) return undefined;
  const contentType = request.headers['content-type'];
  if (bytes.length === 0 && operation.body === 'workbookSession') return {};
  if (contentType === undefined || !/^application\/json\s*(;|$)/i.test(contentType))
    throw new ServiceFault(
      415,
      'UnsupportedMediaType',
      `A request body must be sent as application/json; got ${contentType === undefined ? 'no Content-Type' : `'${contentType.slice(0, 60)}'`}.`,
    );
  if (bytes.length === 0) throw badRequest(`${operation.name} needs a request body.`);
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset))
    throw new ServiceFault(
      415,
      'UnsupportedMediaType',
      `A request body must be UTF-8 JSON; got charset '${charset.slice(0, 40)}'.`,
    );
  const text = bodyText(bytes);
  if (jsonDepthExceeded(text)) throw badRequest(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
  // Checked in the spec's names: a body in the real service's namespace is renamed first.
  const body: unknown = inDeclaredNames(
    operation.body,
    renameTypes(JSON.parse(text) as unknown, namespace, SPEC_NAMESPACE),
  );
  const problem = shapeProblem(operation.body, body);
  if (problem !== undefined) throw badRequest(describeBodyError(operation.body, problem));
  return body;
}
