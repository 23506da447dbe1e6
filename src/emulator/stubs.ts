/**
 * Per-test stubs, as WireMock's `stubFor`: an answer of a test's choosing for the requests a stub matches, in place
 * of the emulator's, until the stub is removed or the emulator is reset. The newest matching stub answers. Pure:
 * parsing and matching; the transport answers with it.
 */
import { BomwrightError } from '../errors.js';
import { didYouMean, nearestNames } from '../nearest.js';
import { OPERATIONS } from '../service/operations.js';
import { bodyFragment, bodyHas, pathPattern, routeMatches, routePattern } from './fault-rules.js';

export interface StubResponse {
  /** The status (100 to 599). */
  readonly status: number;
  /** Headers besides the service's own (request-id, client-request-id, ...); a name given here wins. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON body (sent as application/json); none without it. */
  readonly body?: unknown;
}

export interface StubSpec {
  /** A name for the journal and the log (default the stub's id). */
  readonly name?: string;
  /** Requests to this operation of the table… */
  readonly operation?: string;
  /** …with this method… */
  readonly method?: string;
  /** …whose path after `/v1.0` matches (`*` within a segment, `**` any text; as sent or percent-decoded)… */
  readonly path?: string;
  /** …and whose body contains this text (any case). */
  readonly bodyContains?: string;
  readonly response: StubResponse;
}

export interface Stub extends StubSpec {
  /** Given when the stub is added: what removes it. */
  readonly id: string;
}

const STUB_KEYS = ['name', 'operation', 'method', 'path', 'bodyContains', 'response'] as const;
const RESPONSE_KEYS = ['status', 'headers', 'body'] as const;
const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];
/** Headers the transport owns: a stub cannot make the framing lie. */
const FRAMING = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade']);
export const MAX_STUBS = 1_000;
const MAX_STUB_BODY_BYTES = 4 * 1024 * 1024;

function refuse(where: string, message: string): BomwrightError {
  return new BomwrightError('E_USAGE', `${where}: ${message}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function onlyKeys(value: Record<string, unknown>, keys: readonly string[], where: string): void {
  for (const key of Object.keys(value))
    if (!keys.includes(key))
      throw refuse(where, `unknown member '${key.slice(0, 40)}'${didYouMean(nearestNames(key, keys))}`);
}

/** A stub as a test writes it, checked member by member; each refusal names the member and the nearest name. */
export function parseStub(value: unknown, source: string): StubSpec {
  if (!isObject(value)) throw refuse(source, 'is an object with a response (and what it matches)');
  onlyKeys(value, STUB_KEYS, source);
  const out: { -readonly [K in keyof StubSpec]: StubSpec[K] } = { response: { status: 200 } };
  if (value.name !== undefined) {
    if (typeof value.name !== 'string' || value.name.length === 0 || value.name.length > 100)
      throw refuse(`${source}.name`, 'is a text of 1 to 100 characters');
    out.name = value.name;
  }
  if (value.operation !== undefined) {
    const names = OPERATIONS.map((operation) => operation.name);
    if (typeof value.operation !== 'string' || !names.includes(value.operation))
      throw refuse(
        `${source}.operation`,
        `${JSON.stringify(String(value.operation).slice(0, 60))} is not an operation${didYouMean(nearestNames(String(value.operation), names))}`,
      );
    out.operation = value.operation;
  }
  if (value.method !== undefined) {
    const method = typeof value.method === 'string' ? value.method.toUpperCase() : '';
    if (!METHODS.includes(method)) throw refuse(`${source}.method`, `is one of ${METHODS.join(', ')}`);
    out.method = method;
  }
  if (value.path !== undefined) out.path = routePattern(value.path, `${source}.path`);
  if (value.bodyContains !== undefined) out.bodyContains = bodyFragment(value.bodyContains, `${source}.bodyContains`);
  if (out.operation === undefined && out.path === undefined)
    throw refuse(source, 'needs an operation or a path to match');
  const response = value.response;
  if (!isObject(response)) throw refuse(`${source}.response`, 'is an object with a status, headers and body');
  onlyKeys(response, RESPONSE_KEYS, `${source}.response`);
  const status = response.status;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599)
    throw refuse(`${source}.response.status`, `is a whole number from 100 to 599, not ${JSON.stringify(status)}`);
  const headers: Record<string, string> = {};
  if (response.headers !== undefined) {
    if (!isObject(response.headers)) throw refuse(`${source}.response.headers`, 'is an object of texts');
    for (const [name, text] of Object.entries(response.headers)) {
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/.test(name) || FRAMING.has(name.toLowerCase()))
        throw refuse(`${source}.response.headers`, `cannot set '${name.slice(0, 40)}'`);
      if (typeof text !== 'string' || text.length > 8_192 || /[\r\n\0]/.test(text))
        throw refuse(`${source}.response.headers.${name}`, 'is a text of one line (at most 8192 characters)');
      headers[name] = text;
    }
  }
  if (response.body !== undefined && Buffer.byteLength(JSON.stringify(response.body)) > MAX_STUB_BODY_BYTES)
    throw refuse(`${source}.response.body`, `is larger than ${MAX_STUB_BODY_BYTES} bytes of JSON`);
  if (response.body !== undefined && (status === 204 || status === 304 || status < 200))
    throw refuse(`${source}.response.body`, `cannot go with status ${status}, which has no body`);
  out.response = {
    status,
    ...(Object.keys(headers).length === 0 ? {} : { headers }),
    ...(response.body === undefined ? {} : { body: structuredClone(response.body) }),
  };
  return out;
}

/** The stubs in force, newest first when matching. */
export class StubSet {
  private entries: { readonly stub: Stub; readonly pattern?: RegExp }[] = [];
  private next = 1;

  get size(): number {
    return this.entries.length;
  }

  /** Whether some stub looks at the body (the transport reads it before matching only then). */
  get needsBody(): boolean {
    return this.entries.some((entry) => entry.stub.bodyContains !== undefined);
  }

  add(value: unknown): Stub {
    const spec = parseStub(value, 'the stub');
    if (this.entries.length >= MAX_STUBS)
      throw new BomwrightError('E_USAGE', `At most ${MAX_STUBS} stubs are kept; remove some first`);
    const stub: Stub = { id: `stub-${this.next++}`, ...spec };
    this.entries.push({ stub, ...(spec.path === undefined ? {} : { pattern: pathPattern(spec.path) }) });
    return stub;
  }

  remove(id: string): boolean {
    const before = this.entries.length;
    this.entries = this.entries.filter((entry) => entry.stub.id !== id);
    return this.entries.length !== before;
  }

  clear(): void {
    this.entries = [];
  }

  list(): Stub[] {
    return this.entries.map((entry) => entry.stub);
  }

  /** The newest stub that matches the request, if any. */
  match(method: string, path: string, operation: string | undefined, body: string | undefined): Stub | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const { stub, pattern } = this.entries[i]!;
      if (stub.operation !== undefined && stub.operation !== operation) continue;
      if (stub.method !== undefined && stub.method !== method) continue;
      if (pattern !== undefined && !routeMatches(pattern, path)) continue;
      if (stub.bodyContains !== undefined && !bodyHas(body, stub.bodyContains)) continue;
      return stub;
    }
    return undefined;
  }
}
