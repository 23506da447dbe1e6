/**
 * The request journal: what callers asked of the emulator, for a test to assert on (`emulator.requests()`,
 * `GET /_emulator/requests`). Held in memory only and bounded twice, by entries and by bytes, the oldest going
 * first; a body is kept up to a size and marked when cut. Only a few headers are kept (KEPT_HEADERS), never a
 * credential, so never a token: the caller is named by the user or application the token spoke for.
 */
import { constantJson, jsonBytes } from './json-bytes.js';

/** Who made a request, as its token said (absent when it had no valid token). */
export type Caller =
  | { readonly kind: 'user'; readonly id: string; readonly userPrincipalName: string }
  | { readonly kind: 'app'; readonly appId: string };

export interface RecordedRequest {
  /** Its place in the journal, from 1, never reused (also across `clearRequests()`). */
  readonly seq: number;
  readonly method: string;
  /** The path as sent, without the query (`/v1.0/me/messages/…`). */
  readonly path: string;
  /** The query options, decoded; a name given twice keeps its last value. */
  readonly query: Readonly<Record<string, string>>;
  /** The body: parsed JSON, its text when it is not JSON, or undefined without one. */
  readonly body?: unknown;
  /** Set when the body was longer than the journal keeps: its full length in bytes (`body` is then its text, cut). */
  readonly bodyTruncatedFrom?: number;
  /** The status answered; 0 when the connection was reset (a fault rule) or closed before an answer. */
  readonly status: number;
  /** When the request arrived, ISO 8601. */
  readonly time: string;
  readonly durationMs: number;
  readonly caller?: Caller;
  /** The operation of the table the request reached (absent for a path outside it). */
  readonly operation?: string;
  /** The fault rule that answered it instead of the emulator, when one did. */
  readonly fault?: string;
  /** The fault rule that decided it (a fault, a latency or both), when one did. */
  readonly rule?: string;
  /** The stub that answered it in place of the emulator, when one did. */
  readonly stub?: string;
  /**
   * The request headers a test asserts on, by lower-case name: {@link KEPT_HEADERS} only, so never Authorization,
   * a cookie or another credential; a value that holds a JWT or a bearer credential is kept as `[redacted]`.
   */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The request headers the journal keeps (others, credentials above all, are never kept). */
export const KEPT_HEADERS = [
  'prefer',
  'workbook-session-id',
  'client-request-id',
  'return-client-request-id',
  'if-match',
  'if-none-match',
  'consistencylevel',
  'retry-attempt',
  'content-type',
  'accept',
  'user-agent',
  'sdkversion',
] as const;

/** Three base64url parts starting with a JSON object: a JWT, wherever a client put it. */
const JWT = /eyJ[\w-]{4,}\.[\w-]{4,}\./;

/** The kept headers of a request, or undefined when it sent none of them. */
export function keptHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string> | undefined {
  let kept: Record<string, string> | undefined;
  for (const name of KEPT_HEADERS) {
    const value = headers[name];
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    (kept ??= {})[name] = JWT.test(text) || /\bbearer\s/i.test(text) ? '[redacted]' : text.slice(0, 1_024);
  }
  return kept;
}

export interface RequestFilter {
  /** Only this method (any case). */
  method?: string;
  /**
   * Only this path: a string is the path with or without `/v1.0` (`/me/messages` or `/v1.0/me/messages`); a regular
   * expression is tested against the path as sent.
   */
  path?: string | RegExp;
  /** Only requests that reached this operation of the table. */
  operation?: string;
  /** Only requests no operation of the table and no stub matched (WireMock's unmatched requests). */
  unmatched?: boolean;
}

/** The journal keeps at most this many requests… */
export const DEFAULT_MAX_REQUESTS = 1_000;
/** …and at most about this many bytes of them (JSON), whichever limit is reached first. */
export const DEFAULT_MAX_REQUEST_BYTES = 8 * 1024 * 1024;
/** A body longer than this (bytes) is kept as its first this-many bytes of text. */
export const DEFAULT_MAX_BODY_BYTES_KEPT = 16 * 1024;

interface RequestJournalLimits {
  readonly maxRequests: number;
  readonly maxBytes: number;
  readonly maxBodyBytes: number;
}

/** The body as the journal keeps it: parsed JSON when it is JSON and short enough, else its text, cut. */
export function keptBody(
  bytes: Buffer | undefined,
  maxBodyBytes: number,
): { body?: unknown; bodyTruncatedFrom?: number } {
  if (bytes === undefined || bytes.length === 0) return {};
  if (bytes.length > maxBodyBytes)
    return { body: bytes.subarray(0, maxBodyBytes).toString('utf8'), bodyTruncatedFrom: bytes.length };
  const text = bytes.toString('utf8');
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return { body: text };
  }
}

/** The query of most requests: one object without a prototype, frozen, shared by their entries. */
const NO_QUERY = constantJson(Object.create(null) as Record<string, string>);

/** `a=1&b=x%20y` as an object; an undecodable part is kept as sent. Built without a prototype. */
export function queryObject(rawQuery: string): Readonly<Record<string, string>> {
  if (rawQuery === '') return NO_QUERY;
  const query = Object.create(null) as Record<string, string>;
  for (const part of rawQuery.split('&')) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const decode = (text: string): string => {
      try {
        return decodeURIComponent(text.replaceAll('+', ' '));
      } catch {
        return text;
      }
    };
    query[decode(equals === -1 ? part : part.slice(0, equals))] = decode(equals === -1 ? '' : part.slice(equals + 1));
  }
  return query;
}

/**
 * A request as the server saw it. The journal turns it into a {@link RecordedRequest} only when it is read: most
 * entries are evicted unread, and decoding the query, parsing the body and formatting the time cost more than the
 * request's own handling of a simple call.
 */
export interface RawRequest {
  readonly method: string;
  /** The path as sent, without the query. */
  readonly path: string;
  /** The query as sent, without the `?`. */
  readonly rawQuery: string;
  /** The body's bytes as received (the journal keeps at most maxBodyBytes of them). */
  readonly body: Buffer | undefined;
  readonly status: number;
  /** `Date.now()` when the request arrived. */
  readonly arrivedMs: number;
  readonly durationMs: number;
  readonly caller?: Caller;
  readonly operation?: string;
  readonly fault?: string;
  readonly rule?: string;
  readonly stub?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

interface Slot {
  readonly seq: number;
  /** Until the entry is built. */
  raw: RawRequest | undefined;
  /** The body as kept (at most maxBodyBytes of it), and its full length when it was cut. */
  body: Buffer | undefined;
  readonly bodyTruncatedFrom: number | undefined;
  request: RecordedRequest | undefined;
  /** The entry's JSON bytes when `exact`, else a bound they cannot exceed. */
  bytes: number;
  exact: boolean;
}

/**
 * Bytes of JSON any entry's fixed parts take at most: member names, punctuation, `seq`, `status`, `durationMs`
 * and `bodyTruncatedFrom` (numbers of at most 24 characters), and `time` (an ISO 8601 text of at most 27).
 */
const ENTRY_FIXED_BOUND = 256;

/**
 * At most how many bytes of JSON a text of `length` UTF-16 units or bytes becomes, in any of the forms the journal
 * keeps: a string (an escape is at most 6 bytes for one unit), the decoded query (each part adds quotes, a colon
 * and a comma), or a JSON body written again (a number literal grows at most from `1e20` to 21 digits).
 */
const textBound = (length: number): number => 12 * length + 8;

function headersBound(headers: Readonly<Record<string, string>>): number {
  let bytes = 16;
  for (const name in headers) bytes += textBound(name.length) + textBound(headers[name]!.length);
  return bytes;
}

export class RequestJournal {
  /** Evicted slots before `head` are emptied at once (a kept raw body goes with them). */
  private slots: (Slot | undefined)[] = [];
  private head = 0;
  /** The sum of the kept slots' `bytes`: exact when every kept slot is, else a bound. */
  private bytes = 0;
  private seq = 0;

  constructor(readonly limits: RequestJournalLimits) {}

  /** Keeps an entry already built (its `seq` is assigned here). */
  record(request: Omit<RecordedRequest, 'seq'>): void {
    const entry = { seq: ++this.seq, ...request };
    this.keep({
      seq: entry.seq,
      raw: undefined,
      body: undefined,
      bodyTruncatedFrom: undefined,
      request: entry,
      bytes: jsonBytes(entry)!,
      exact: true,
    });
  }

  /** Keeps a request as the server saw it; the entry is built when the journal is read. */
  recordRaw(request: RawRequest): void {
    const max = this.limits.maxBodyBytes;
    let body = request.body === undefined || request.body.length === 0 ? undefined : request.body;
    let bodyTruncatedFrom: number | undefined;
    let raw = request;
    if (body !== undefined && body.length > max) {
      bodyTruncatedFrom = body.length;
      // A copy, and the request without its body: either would hold the whole body in memory.
      body = Buffer.from(body.subarray(0, max));
      raw = { ...request, body: undefined };
    }
    const bound =
      ENTRY_FIXED_BOUND +
      textBound(request.method.length) +
      textBound(request.path.length) +
      textBound(request.rawQuery.length) +
      (body === undefined ? 0 : textBound(body.length)) +
      // Exact: the server's callers are counted once, when it makes them (constantJson).
      (request.caller === undefined ? 0 : jsonBytes(request.caller)!) +
      (request.operation === undefined ? 0 : textBound(request.operation.length)) +
      (request.fault === undefined ? 0 : textBound(request.fault.length)) +
      (request.rule === undefined ? 0 : textBound(request.rule.length)) +
      (request.stub === undefined ? 0 : textBound(request.stub.length)) +
      (request.headers === undefined ? 0 : headersBound(request.headers));
    this.keep({
      seq: ++this.seq,
      raw,
      body,
      bodyTruncatedFrom,
      request: undefined,
      bytes: bound,
      exact: false,
    });
  }

  private keep(slot: Slot): void {
    this.slots.push(slot);
    this.bytes += slot.bytes;
    while (this.slots.length - this.head > this.limits.maxRequests) this.dropOldest();
    if (this.bytes > this.limits.maxBytes) {
      // Over by the bounds: count exactly, then drop the oldest while the exact total is still over.
      this.countExactly();
      while (this.bytes > this.limits.maxBytes) this.dropOldest();
    }
    // Drop the evicted prefix once it is half the array, so eviction stays amortized O(1).
    if (this.head > 0 && this.head * 2 >= this.slots.length) {
      this.slots = this.slots.slice(this.head);
      this.head = 0;
    }
  }

  private dropOldest(): void {
    this.bytes -= this.slots[this.head]!.bytes;
    this.slots[this.head++] = undefined;
  }

  /** Every kept slot counted exactly (each is counted once in its life). */
  private countExactly(): void {
    for (let i = this.head; i < this.slots.length; i++) {
      const slot = this.slots[i]!;
      if (slot.exact) continue;
      const exact = jsonBytes(built(slot))!;
      this.bytes += exact - slot.bytes;
      slot.bytes = exact;
      slot.exact = true;
    }
  }

  /** The requests kept that pass the filter, oldest first (newest last). */
  list(filter: RequestFilter = {}): RecordedRequest[] {
    const method = filter.method?.toUpperCase();
    const path = filter.path;
    const out: RecordedRequest[] = [];
    for (let i = this.head; i < this.slots.length; i++) {
      const slot = this.slots[i]!;
      // Filtered on what the raw request already says: only the entries listed are built.
      const seen = slot.request ?? slot.raw!;
      if (method !== undefined && seen.method !== method) continue;
      if (filter.operation !== undefined && seen.operation !== filter.operation) continue;
      if (filter.unmatched === true && (seen.operation !== undefined || seen.stub !== undefined)) continue;
      if (typeof path === 'string' && !samePath(seen.path, path)) continue;
      if (path instanceof RegExp) {
        path.lastIndex = 0;
        if (!path.test(seen.path)) continue;
      }
      out.push(built(slot));
    }
    return out;
  }

  /** How many requests and bytes (exactly) are kept now. */
  size(): { requests: number; bytes: number } {
    this.countExactly();
    return { requests: this.slots.length - this.head, bytes: this.bytes };
  }

  clear(): void {
    this.slots = [];
    this.head = 0;
    this.bytes = 0;
  }
}

function decoded(path: string): string {
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** A path filter against a path as sent: with or without /v1.0, either as sent or percent-decoded (`19:b@thread`). */
function samePath(sent: string, wanted: string): boolean {
  if (sent === wanted || sent === `/v1.0${wanted}`) return true;
  const plain = decoded(sent);
  const asked = decoded(wanted);
  return plain === asked || plain === `/v1.0${asked}`;
}

/** The slot's entry, built from its raw request on first use (in the order a built entry has its members). */
function built(slot: Slot): RecordedRequest {
  if (slot.request !== undefined) return slot.request;
  const raw = slot.raw!;
  const head = { seq: slot.seq, method: raw.method, path: raw.path, query: queryObject(raw.rawQuery) };
  const body =
    slot.body === undefined
      ? undefined
      : slot.bodyTruncatedFrom !== undefined
        ? { body: slot.body.toString('utf8'), bodyTruncatedFrom: slot.bodyTruncatedFrom }
        : keptBody(slot.body, slot.body.length);
  const entry: { -readonly [K in keyof RecordedRequest]: RecordedRequest[K] } = {
    ...head,
    ...body,
    status: raw.status,
    time: new Date(raw.arrivedMs).toISOString(),
    durationMs: raw.durationMs,
  };
  if (raw.caller !== undefined) entry.caller = raw.caller;
  if (raw.operation !== undefined) entry.operation = raw.operation;
  if (raw.fault !== undefined) entry.fault = raw.fault;
  if (raw.rule !== undefined) entry.rule = raw.rule;
  if (raw.stub !== undefined) entry.stub = raw.stub;
  if (raw.headers !== undefined) entry.headers = raw.headers;
  slot.request = entry;
  slot.raw = undefined;
  slot.body = undefined;
  return entry;
}
