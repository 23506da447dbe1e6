/**
 * The request journal: what callers asked of the emulator, for a test to assert on (`emulator.requests()`,
 * `GET /_emulator/requests`). Held in memory only and bounded twice, by entries and by bytes, the oldest going
 * first; a body is kept up to a size and marked when cut. Headers are never kept, so neither is a token: the caller
 * is named by the user or application the token spoke for.
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
}

/** The journal keeps at most this many requests… */
export const DEFAULT_MAX_REQUESTS = 1_000;
/** …and at most about this many bytes of them (JSON), whichever limit is reached first. */
export const DEFAULT_MAX_REQUEST_BYTES = 8 * 1024 * 1024;
/** A body longer than this (bytes) is kept as its first this-many bytes of text. */
export const DEFAULT_MAX_BODY_BYTES_KEPT = 16 * 1024;

export interface RequestJournalLimits {
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

export class RequestJournal {
  private entries: { readonly request: RecordedRequest; readonly bytes: number }[] = [];
  private head = 0;
  private bytes = 0;
  private seq = 0;

  constructor(readonly limits: RequestJournalLimits) {}

  record(request: Omit<RecordedRequest, 'seq'>): void {
    const entry = { seq: ++this.seq, ...request };
    const size = jsonBytes(entry)!;
    this.entries.push({ request: entry, bytes: size });
    this.bytes += size;
    while (this.entries.length - this.head > this.limits.maxRequests || this.bytes > this.limits.maxBytes) {
      const oldest = this.entries[this.head]!;
      this.bytes -= oldest.bytes;
      this.head++;
    }
    // Drop the evicted prefix once it is half the array, so eviction stays amortized O(1).
    if (this.head > 0 && this.head * 2 >= this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  /** The requests kept that pass the filter, oldest first (newest last). */
  list(filter: RequestFilter = {}): RecordedRequest[] {
    const method = filter.method?.toUpperCase();
    const path = filter.path;
    const out: RecordedRequest[] = [];
    for (let i = this.head; i < this.entries.length; i++) {
      const request = this.entries[i]!.request;
      if (method !== undefined && request.method !== method) continue;
      if (filter.operation !== undefined && request.operation !== filter.operation) continue;
      if (typeof path === 'string' && request.path !== path && request.path !== `/v1.0${path}`) continue;
      if (path instanceof RegExp) {
        path.lastIndex = 0;
        if (!path.test(request.path)) continue;
      }
      out.push(request);
    }
    return out;
  }

  /** How many requests and bytes are kept now. */
  size(): { requests: number; bytes: number } {
    return { requests: this.entries.length - this.head, bytes: this.bytes };
  }

  clear(): void {
    this.entries = [];
    this.head = 0;
    this.bytes = 0;
  }
}
