/**
 * The emulator's test-double routes under /_emulator/, for callers on loopback only (as token minting is): the
 * request journal, reset, snapshots, fault rules and permission guidance. Each is a thin wire form of a method of
 * the running emulator.
 */
import type { IncomingMessage } from 'node:http';
import { BomwrightError } from '../errors.js';
import type { HandlerResult } from './context.js';
import type { FaultRule } from './fault-rules.js';
import { badRequest, forbidden, ServiceFault } from './faults.js';
import type { PermissionUsage } from './permission-usage.js';
import type { RequestJournal } from './requests.js';
import type { Stub } from './stubs.js';

export interface Control {
  reset(): Promise<void>;
  snapshot(name: unknown): void;
  restore(name: unknown): Promise<void>;
  setFaults(rules: unknown): void;
  deleteSnapshot(name: unknown): boolean;
  addStub(stub: unknown): Stub;
  removeStub(id: string): boolean;
  clearStubs(): void;
}

interface ControlViews {
  readonly requests: RequestJournal;
  snapshots(): string[];
  faults(): readonly FaultRule[];
  stubs(): Stub[];
  permissions(): PermissionUsage[];
}

/** Only these callers may use the emulator's own routes: 127.0.0.1, ::1, and 127.0.0.1 as a dual-stack socket reports it. */
export function isLoopbackAddress(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

/** Host names that are loopback by definition, not by what a resolver says today. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const HOST_AND_PORT = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/;

/**
 * Why a request may not use the emulator's own routes (tokens, journal, reset, faults…), or undefined when it may:
 * - its socket is not on loopback;
 * - its Host is not localhost, 127.0.0.1 or [::1]: a page on `attacker.example`, once that name resolves to
 *   127.0.0.1 (DNS rebinding), reaches loopback with its own name as Host;
 * - a browser made it for another site: an Origin other than the emulator's own, or Sec-Fetch-Site other than
 *   same-origin or none (curl, test code and the SDKs send neither).
 */
export function controlCallerRefusal(request: IncomingMessage): string | undefined {
  if (!isLoopbackAddress(request.socket.remoteAddress))
    return 'The emulator’s control routes answer loopback callers only.';
  const host = request.headers.host;
  const name = host === undefined ? undefined : HOST_AND_PORT.exec(host)?.[1]?.toLowerCase();
  if (name === undefined || !LOOPBACK_HOSTS.has(name))
    return `The emulator’s control routes answer requests addressed to localhost, 127.0.0.1 or [::1] only, not Host ${JSON.stringify((host ?? '').slice(0, 100))}.`;
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  if (
    (origin !== undefined && !sameOrigin(origin, host!)) ||
    (site !== undefined && site !== 'same-origin' && site !== 'none')
  )
    return 'The emulator’s control routes refuse requests a browser makes for another site.';
  return undefined;
}

function sameOrigin(origin: string, host: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
}

/**
 * The JSON body of a POST to a control route. Only `application/json` is read: a browser sends a cross-site POST
 * without asking first only as text/plain, a form or multipart, so no web page can reset or fault the emulator.
 * An empty body is `{}`.
 */
export function controlBody(text: string | undefined, request: IncomingMessage): unknown {
  const type = request.headers['content-type'];
  if (type === undefined || !/^application\/json\s*(;|$)/i.test(type))
    throw new ServiceFault(
      415,
      'UnsupportedMediaType',
      `The emulator’s control routes take application/json; got ${type === undefined ? 'no Content-Type' : `'${type.slice(0, 60)}'`}.`,
    );
  if (text === undefined || text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest('The request body is not valid JSON.');
  }
}

const NO_CONTENT: HandlerResult = { status: 204 };
const SNAPSHOT_RESTORE = /^\/_emulator\/snapshots\/([^/]{1,200})\/restore$/;
const STUB = /^\/_emulator\/stubs\/([^/]{1,200})$/;
const SNAPSHOT = /^\/_emulator\/snapshots\/([^/]{1,200})$/;
const REQUEST_FILTERS = ['method', 'path', 'operation', 'unmatched'];

function only(body: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('The body is a JSON object.');
  for (const key of Object.keys(body))
    if (!allowed.includes(key))
      throw badRequest(`Unknown member '${key.slice(0, 40)}'; this route takes ${allowed.join(', ')}.`);
  return body as Record<string, unknown>;
}

/** A usage error of a control method as the wire's 400 (or 404 for a snapshot that is not kept). */
async function attempt<T>(step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof BomwrightError && error.code === 'E_USAGE')
      throw error.message.startsWith('No snapshot')
        ? new ServiceFault(404, 'itemNotFound', error.message)
        : badRequest(error.message);
    throw error;
  }
}

/** The answer of a control route, or undefined when the path is none of them. */
export async function controlRoute(
  control: Control,
  views: ControlViews,
  method: string,
  path: string,
  text: string | undefined,
  request: IncomingMessage,
  query: Readonly<Record<string, string>>,
): Promise<HandlerResult | undefined> {
  const known =
    path === '/_emulator/requests' ||
    path === '/_emulator/requests/unmatched' ||
    path === '/_emulator/stubs' ||
    STUB.test(path) ||
    SNAPSHOT.test(path) ||
    path === '/_emulator/reset' ||
    path === '/_emulator/snapshots' ||
    path === '/_emulator/faults' ||
    path === '/_emulator/permissions' ||
    SNAPSHOT_RESTORE.test(path);
  if (!known) return undefined;
  const refused = controlCallerRefusal(request);
  if (refused !== undefined) throw forbidden(refused);
  // Read only once the caller may use the route, and only as JSON.
  const body = method === 'POST' ? controlBody(text, request) : undefined;
  const allow = (methods: string): ServiceFault =>
    new ServiceFault(405, 'BadRequest', `The HTTP method '${method.slice(0, 10)}' is not allowed for ${path}.`, {
      Allow: methods,
    });
  switch (path) {
    case '/_emulator/requests':
    case '/_emulator/requests/unmatched': {
      const unmatchedRoute = path.endsWith('/unmatched');
      if (method === 'DELETE' && !unmatchedRoute) {
        views.requests.clear();
        return NO_CONTENT;
      }
      if (method !== 'GET') throw allow(unmatchedRoute ? 'GET' : 'GET, DELETE');
      for (const key of Object.keys(query))
        if (!REQUEST_FILTERS.includes(key))
          throw badRequest(`Unknown filter '${key.slice(0, 40)}'; the filters are ${REQUEST_FILTERS.join(', ')}.`);
      if (query.unmatched !== undefined && query.unmatched !== 'true' && query.unmatched !== 'false')
        throw badRequest('The filter unmatched is true or false.');
      return {
        status: 200,
        body: {
          value: views.requests.list({
            method: query.method,
            path: query.path,
            operation: query.operation,
            unmatched: unmatchedRoute || query.unmatched === 'true',
          }),
        },
      };
    }
    case '/_emulator/stubs': {
      if (method === 'GET') return { status: 200, body: { value: views.stubs() } };
      if (method === 'DELETE') {
        control.clearStubs();
        return NO_CONTENT;
      }
      if (method !== 'POST') throw allow('GET, POST, DELETE');
      return { status: 201, body: await attempt(() => control.addStub(body)) };
    }
    case '/_emulator/reset':
      if (method !== 'POST') throw allow('POST');
      await control.reset();
      return NO_CONTENT;
    case '/_emulator/snapshots': {
      if (method === 'GET') return { status: 200, body: { value: views.snapshots() } };
      if (method !== 'POST') throw allow('GET, POST');
      const name = only(body, ['name']).name;
      await attempt(() => control.snapshot(name));
      return { status: 201, body: { name } };
    }
    case '/_emulator/faults': {
      if (method === 'GET') return { status: 200, body: { rules: views.faults() } };
      if (method !== 'POST') throw allow('GET, POST');
      await attempt(() => control.setFaults(body));
      return { status: 200, body: { rules: views.faults() } };
    }
    case '/_emulator/permissions':
      if (method !== 'GET') throw allow('GET');
      return { status: 200, body: { value: views.permissions() } };
    default: {
      const snapshot = SNAPSHOT.exec(path);
      if (snapshot !== null) {
        if (method !== 'DELETE') throw allow('DELETE');
        let name: string;
        try {
          name = decodeURIComponent(snapshot[1]!);
        } catch {
          throw badRequest('The snapshot name is not valid percent-encoding.');
        }
        if (!(await attempt(() => control.deleteSnapshot(name))))
          throw new ServiceFault(404, 'itemNotFound', `No snapshot '${name}'.`);
        return NO_CONTENT;
      }
      const stub = STUB.exec(path);
      if (stub !== null) {
        if (method !== 'DELETE') throw allow('DELETE');
        // Ids are `stub-N`: nothing to decode.
        const id = stub[1]!;
        if (!control.removeStub(id)) throw new ServiceFault(404, 'itemNotFound', `No stub '${id.slice(0, 100)}'.`);
        return NO_CONTENT;
      }
      if (method !== 'POST') throw allow('POST');
      const encoded = SNAPSHOT_RESTORE.exec(path)![1]!;
      let name: string;
      try {
        name = decodeURIComponent(encoded);
      } catch {
        throw badRequest('The snapshot name is not valid percent-encoding.');
      }
      await attempt(() => control.restore(name));
      return NO_CONTENT;
    }
  }
}
