/**
 * The client's credential rule, through the library against hostile node:http servers on 127.0.0.1: the token goes
 * only to the base URL's origin and the origins the user allowed (links in bodies and headers, a saved delta link,
 * redirects: one check), one deadline bounds each attempt, every field of an error is redacted, a 2xx that is not
 * what the operation answers is refused, and every walk across links is bounded.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { deltaLinkFile } from '../../src/node/delta-link-file.js';
import { createClient } from '../../src/service/api.js';
import { createServiceClient, type ServiceClient } from '../../src/service/client.js';
import { ServiceError } from '../../src/service/errors.js';
import { startTeamClone, syncMessages, type DeltaLinkStore } from '../../src/service/flows.js';
import { invoke, pages } from '../../src/service/invoke.js';
import { OriginPolicy, parseAllowedHost } from '../../src/service/origin.js';
import { tempDir } from '../helpers.js';
import { hostile, json, page, type Hostile } from './hostile.js';

const TOKEN = 'opaque-SECRET-0123456789abcdef';
const POLICIES = '/v1.0/policies/homeRealmDiscoveryPolicies';
const clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

function typed(baseUrl: string, options: { allowedHosts?: string[]; timeoutMs?: number; token?: string } = {}) {
  const api = createClient({
    baseUrl,
    token: options.token ?? TOKEN,
    retry: { maxRetries: 1, delaySeconds: 0, maxDelaySeconds: 0 },
    ...options,
  });
  clients.push(api);
  return api;
}

function transport(baseUrl: string, options: Partial<Parameters<typeof createServiceClient>[0]> = {}): ServiceClient {
  const client = createServiceClient({
    baseUrl,
    token: TOKEN,
    retry: { maxRetries: 1, delaySeconds: 0, maxDelaySeconds: 0 },
    ...options,
  });
  clients.push(client);
  return client;
}

async function rejection(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    for (const client of clients.splice(0)) await client.close();
    return error as ServiceError;
  }
  for (const client of clients.splice(0)) await client.close();
  throw new Error('expected a rejection');
}

function refusal(what: string, foreign: Hostile, base: Hostile): string {
  return `${what} points to ${foreign.origin}, not ${base.origin}: refused, nothing was sent to it (allow it with allowedHosts, --allow-host on the command line)`;
}

/** A server that would answer anything with an empty page: what a foreign origin must never see. */
const sink = () => hostile((_request, response) => json(response, 200, page([])));

/** Every request the foreign servers of these tests received (the figure for the issue: want 0). */
const foreignRequests: number[] = [];
function countForeign(server: Hostile): number {
  foreignRequests.push(server.requests.length);
  return server.requests.length;
}

describe('links to another origin are refused before anything is sent', () => {
  it("the typed client's pager: a nextLink to another port of the same host", async () => {
    const foreign = await sink();
    const base = await hostile((_q, r) => json(r, 200, page([{ id: 'a' }], { next: `${foreign.url}${POLICIES}?p=2` })));
    const error = await rejection(typed(base.url).governance.listHomeRealmDiscoveryPolicies({}).all());
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({
      code: 'E_FOREIGN_ORIGIN',
      message: refusal('listHomeRealmDiscoveryPolicies: @odata.nextLink', foreign, base),
    });
    expect(base.requests).toHaveLength(1);
    expect(countForeign(foreign)).toBe(0);
  });

  it('invoke + pages(), and a link given to call() directly', async () => {
    const foreign = await sink();
    const base = await hostile((_q, r) => json(r, 200, page([{ id: 'a' }], { next: `${foreign.url}/v1.0/x` })));
    const client = transport(base.url);
    const first = await invoke(client, 'listHomeRealmDiscoveryPolicies');
    const items: unknown[] = [];
    const error = await rejection(
      (async () => {
        for await (const item of pages(client, first)) items.push(item);
      })(),
    );
    expect(error).toMatchObject({ code: 'E_FOREIGN_ORIGIN', message: refusal('@odata.nextLink', foreign, base) });
    expect(items).toEqual([{ id: 'a' }]);
    const direct = await rejection(transport(base.url).call({ method: 'GET', path: `${foreign.url}/v1.0/me` }));
    expect(direct).toMatchObject({ code: 'E_FOREIGN_ORIGIN', message: refusal('the URL', foreign, base) });
    // Not http(s) at all: refused the same way, never handed to the dispatcher.
    const file = await rejection(transport(base.url).call({ method: 'GET', path: 'file:///etc/passwd' }));
    expect(file.code).toBe('E_FOREIGN_ORIGIN');
    expect(countForeign(foreign)).toBe(0);
  });

  it('syncMessages: a nextLink of a delta round, a deltaLink (not saved), and a saved delta link from a file', async () => {
    const foreign = await sink();
    let answer: 'next' | 'delta' = 'next';
    const base = await hostile((_q, r) =>
      json(
        r,
        200,
        page(
          [{ id: 'm1', subject: 's' }],
          answer === 'next' ? { next: `${foreign.url}/v1.0/d?n=2` } : { delta: `${foreign.url}/v1.0/d?t=1` },
        ),
      ),
    );
    const saved: string[] = [];
    const store: DeltaLinkStore = { load: () => undefined, save: (link) => void saved.push(link) };
    const next = await rejection(syncMessages(transport(base.url), { folder: 'inbox', store }));
    expect(next).toMatchObject({ code: 'E_FOREIGN_ORIGIN', message: refusal('@odata.nextLink', foreign, base) });
    answer = 'delta';
    const delta = await rejection(syncMessages(transport(base.url), { folder: 'inbox', store }));
    expect(delta).toMatchObject({ code: 'E_FOREIGN_ORIGIN', message: refusal('@odata.deltaLink', foreign, base) });
    expect(saved).toEqual([]);
    const file = path.join(tempDir(), 'inbox.link');
    writeFileSync(file, `${foreign.url}/v1.0/me/mailFolders/inbox/messages/delta?$deltatoken=x\n`);
    const before = base.requests.length;
    const fromFile = await rejection(
      syncMessages(transport(base.url), { folder: 'inbox', store: deltaLinkFile(file) }),
    );
    expect(fromFile).toMatchObject({
      code: 'E_FOREIGN_ORIGIN',
      message: refusal('the saved delta link', foreign, base),
    });
    // Refused, not taken for an expired link and restarted.
    expect(base.requests.length).toBe(before);
    expect(countForeign(foreign)).toBe(0);
  });

  it("a clone's Location to another origin is refused when the clone is accepted, before any poll", async () => {
    const foreign = await sink();
    const base = await hostile((_q, r) => {
      r.writeHead(202, { location: `${foreign.url}/teams('t')/operations('o')` });
      r.end();
    });
    const error = await rejection(
      startTeamClone(transport(base.url), 't', { displayName: 'Copy', partsToClone: 'apps' }),
    );
    expect(error).toMatchObject({ code: 'E_FOREIGN_ORIGIN', message: refusal("the clone's Location", foreign, base) });
    const viaTyped = await rejection(
      typed(base.url).groupsAndTeams.cloneTeam({ team: 't', body: { displayName: 'Copy', partsToClone: 'apps' } }),
    );
    expect(viaTyped.code).toBe('E_FOREIGN_ORIGIN');
    expect(countForeign(foreign)).toBe(0);
  });

  it('allowedHosts widens it: host:port and a bare host are followed with the token, another port or name is not', async () => {
    const other = await hostile((_q, r) => json(r, 200, page([{ id: 'b' }])));
    const base = await hostile((_q, r) => json(r, 200, page([{ id: 'a' }], { next: `${other.url}${POLICIES}?p=2` })));
    for (const allowed of [`127.0.0.1:${other.port}`, '127.0.0.1', other.origin]) {
      const items = await typed(base.url, { allowedHosts: [allowed] })
        .governance.listHomeRealmDiscoveryPolicies({})
        .all();
      expect(items, allowed).toEqual([{ id: 'a' }, { id: 'b' }]);
    }
    expect(other.requests.map((r) => r.authorization)).toEqual([
      `Bearer ${TOKEN}`,
      `Bearer ${TOKEN}`,
      `Bearer ${TOKEN}`,
    ]);
    for (const allowed of [`127.0.0.1:${other.port + 1}`, 'localhost', `https://127.0.0.1:${other.port}`]) {
      const error = await rejection(
        typed(base.url, { allowedHosts: [allowed] })
          .governance.listHomeRealmDiscoveryPolicies({})
          .all(),
      );
      expect(error.code, allowed).toBe('E_FOREIGN_ORIGIN');
    }
    expect(other.requests).toHaveLength(3);
  });

  it('https base: a host entry never allows http; only the http origin named in full does', async () => {
    const plain = await sink();
    const link = `${plain.url}/v1.0/me`;
    // The https base is never contacted: the link is refused (or followed) before that matters.
    const base = `https://127.0.0.1:${plain.port + 1}`;
    for (const allowed of [[], ['127.0.0.1'], [`127.0.0.1:${plain.port}`]]) {
      const error = await rejection(transport(base, { allowedHosts: allowed }).call({ method: 'GET', path: link }));
      expect(error, allowed.join()).toMatchObject({
        code: 'E_FOREIGN_ORIGIN',
        message: `the URL points to ${plain.origin}, not ${base}: refused, nothing was sent to it (allow it with allowedHosts, --allow-host on the command line)`,
      });
    }
    expect(countForeign(plain)).toBe(0);
    await transport(base, { allowedHosts: [plain.origin] }).call({ method: 'GET', path: link });
    expect(plain.requests.map((r) => r.authorization)).toEqual([`Bearer ${TOKEN}`]);
  });

  it('redirects share the check: kept for an allowed origin, dropped for any other', async () => {
    const target = await hostile((_q, r) => json(r, 200, { value: [] }));
    const base = await hostile((_q, r) => {
      r.writeHead(307, { location: `${target.url}/v1.0/moved` });
      r.end();
    });
    await transport(base.url).call({ method: 'GET', path: '/x' });
    await transport(base.url, { allowedHosts: [`127.0.0.1:${target.port}`] }).call({ method: 'GET', path: '/x' });
    expect(target.requests.map((r) => r.authorization)).toEqual([undefined, `Bearer ${TOKEN}`]);
  });

  it('allowed entries are a host, host:port or an origin; anything else is refused naming the forms', () => {
    expect(parseAllowedHost('Graph.Example')).toEqual({ hostname: 'graph.example', entry: 'Graph.Example' });
    expect(parseAllowedHost('graph.example:8443')).toEqual({
      hostname: 'graph.example',
      port: '8443',
      entry: 'graph.example:8443',
    });
    expect(parseAllowedHost('https://graph.example')).toMatchObject({ protocol: 'https:', port: '443' });
    expect(parseAllowedHost('http://graph.example')).toMatchObject({ protocol: 'http:', port: '80' });
    expect(parseAllowedHost('[::1]:8080')).toMatchObject({ hostname: '[::1]', port: '8080' });
    for (const bad of [
      '',
      ' ',
      '*.example',
      'graph.example/v1.0',
      'https://graph.example/v1.0',
      'ftp://graph.example',
      'https://u:p@graph.example',
      'https://graph.example?x=1',
      'a b',
    ])
      expect(() => parseAllowedHost(bad), bad).toThrow(
        expect.objectContaining({
          code: 'E_REQUEST_SHAPE',
          message: expect.stringMatching(
            /^allowed host ".*" (is not a host|has a path|has the scheme ftp:|has more than a scheme, host and port): give a host \(api\.example\.com\), host:port \(api\.example\.com:8443\) or an origin \(https:\/\/api\.example\.com\)$/,
          ),
        }),
      );
    expect(() => createServiceClient({ baseUrl: 'http://127.0.0.1:1', allowedHosts: ['*'] })).toThrow(
      expect.objectContaining({ code: 'E_REQUEST_SHAPE' }),
    );
    // Default ports count as the port: https://h and https://h:443 are one origin.
    const policy = new OriginPolicy(new URL('https://base.example'), ['https://graph.example', 'api.example:8443']);
    expect(policy.trusts(new URL('https://graph.example:443/x'))).toBe(true);
    expect(policy.trusts(new URL('https://graph.example:444/x'))).toBe(false);
    expect(policy.trusts(new URL('https://api.example:8443/x'))).toBe(true);
    expect(policy.trusts(new URL('http://api.example:8443/x'))).toBe(false);
    expect(policy.trusts(new URL('https://api.example/x'))).toBe(false);
    expect(policy.trusts(new URL('https://base.example:443/y'))).toBe(true);
    expect(policy.trusts(new URL('http://base.example/y'))).toBe(false);
  });
});

describe('timeoutMs is one deadline for headers and body', () => {
  it('a body that drips a byte every 250 ms fails with E_TIMEOUT at the deadline, long before the drip ends', async () => {
    let sent = 0;
    let dripEnded = false;
    const drip = await hostile((_q, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"value":[');
      // 40 drops over 10 s: the call must not wait for them.
      const timer = setInterval(() => {
        if (sent === 40) {
          clearInterval(timer);
          dripEnded = true;
          response.end(']}');
          return;
        }
        sent++;
        response.write(' ');
      }, 250);
      response.on('close', () => clearInterval(timer));
    });
    const error = await rejection(transport(drip.url, { timeoutMs: 300 }).call({ method: 'GET', path: '/x' }));
    expect(error).toMatchObject({
      code: 'E_TIMEOUT',
      message: 'No complete answer within 300 ms (headers and body)',
      attempts: 1,
    });
    expect(dripEnded).toBe(false);
    // Bytes before the deadline: a handful, not the 40 a per-chunk timer would have waited for.
    expect(sent).toBeLessThan(10);
  });

  it('a body complete within the deadline is read; a cancelled call is E_ABORTED, not E_TIMEOUT', async () => {
    const quick = await hostile((_q, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"value":');
      setTimeout(() => response.end('[]}'), 20);
    });
    const answer = await transport(quick.url, { timeoutMs: 5_000 }).call({ method: 'GET', path: '/x' });
    expect(answer.body).toEqual({ value: [] });
    const stalled = await hostile((_q, response) => {
      response.writeHead(200);
      response.write('{');
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await rejection(
      transport(stalled.url, { timeoutMs: 5_000 }).call({ method: 'GET', path: '/x', signal: controller.signal }),
    );
    expect(error.code).toBe('E_ABORTED');
  });
});

/** Echoes the Authorization header it received into every field a service error has. */
function echoingServer(status = 403) {
  return hostile((request, response) => {
    const auth = request.headers.authorization ?? '';
    const raw = auth.replace(/^Bearer /, '');
    response.writeHead(status, {
      'content-type': 'application/json',
      'request-id': `req ${auth}`,
      date: raw,
      'x-echo': auth,
    });
    response.end(
      JSON.stringify({
        error: {
          code: auth,
          // The token right at the 500-character cut, so a cut before the redaction would leave part of it.
          message: `${'x'.repeat(490)}${raw}`,
          innerError: {
            code: raw,
            'request-id': encodeURIComponent(raw),
            'client-request-id': auth,
            date: raw,
            innerError: { code: `inner ${raw}` },
          },
        },
      }),
    );
  });
}

function expectClean(error: unknown) {
  const everything = `${inspect(error, { depth: 20, showHidden: true })} ${JSON.stringify(error)} ${String(error)}`;
  expect(everything).not.toContain(TOKEN);
  // No piece of it either (the cut at 500 characters).
  expect(everything).not.toContain('SECRET-0123');
}

describe('no field of an error carries the token', () => {
  it('a service that echoes Authorization into code, message, request-id, innerError and date', async () => {
    const echo = await echoingServer();
    const error = await rejection(transport(echo.url).call({ method: 'GET', path: '/x' }));
    expect(error.code).toBe('E_SERVICE');
    expect(echo.requests[0]!.authorization).toBe(`Bearer ${TOKEN}`);
    expectClean(error);
    expect(error).toMatchObject({
      serviceCode: 'Bearer [token]',
      requestId: 'req Bearer [token]',
      date: '[token]',
      innerCodes: ['[token]', 'inner [token]'],
    });
    const typedError = await rejection(typed(echo.url).governance.listHomeRealmDiscoveryPolicies({}).all());
    expectClean(typedError);
  });

  it('the same through retries (E_RETRY_EXHAUSTED) and with a token from getToken', async () => {
    const echo = await echoingServer(503);
    const exhausted = await rejection(transport(echo.url).call({ method: 'GET', path: '/x' }));
    expect(exhausted.code).toBe('E_RETRY_EXHAUSTED');
    expectClean(exhausted);
    const refreshing = await rejection(
      transport(echo.url, { token: undefined, getToken: () => TOKEN }).call({ method: 'GET', path: '/x' }),
    );
    expectClean(refreshing);
  });

  it('a clone that failed carries the service text without the token', async () => {
    const echo = await hostile((request, response) => {
      if (request.method === 'POST') {
        response.writeHead(202, { location: "/teams('t')/operations('o')" });
        response.end();
        return;
      }
      const raw = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      json(response, 200, { id: 'o', status: 'failed', error: { code: raw, message: `denied for ${raw}` } });
    });
    const client = transport(echo.url);
    const operation = await startTeamClone(client, 't', { displayName: 'Copy', partsToClone: 'apps' });
    const result = await operation.wait({ intervalMs: 1 });
    expect(result.error).toEqual({ code: '[token]', message: 'denied for [token]' });
  });
});

describe('a 2xx that is not what the operation answers is refused', () => {
  it('text where JSON is expected, whatever the content-type says; an empty entity; a no-content body ignored', async () => {
    let mode: 'html' | 'lying' | 'empty' = 'html';
    const server = await hostile((_q, response) => {
      if (mode === 'html') response.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>');
      else if (mode === 'lying') response.writeHead(200, { 'content-type': 'application/json' }).end('not json');
      else response.writeHead(200, { 'content-type': 'application/json' }).end();
    });
    const api = typed(server.url);
    await expect(api.governance.listHomeRealmDiscoveryPolicies({}).all()).rejects.toMatchObject({
      code: 'E_RESPONSE_SHAPE',
      message: 'listHomeRealmDiscoveryPolicies: the 200 answer is not JSON (content-type "text/html")',
    });
    await expect(api.groupsAndTeams.getGroup({ group: 'g' })).rejects.toMatchObject({
      code: 'E_RESPONSE_SHAPE',
      message: 'getGroup: the 200 answer is not JSON (content-type "text/html")',
    });
    mode = 'lying';
    await expect(api.groupsAndTeams.getGroup({ group: 'g' })).rejects.toMatchObject({
      message: 'getGroup: the 200 answer is not JSON (content-type "application/json")',
    });
    mode = 'empty';
    await expect(api.groupsAndTeams.getGroup({ group: 'g' })).rejects.toMatchObject({
      code: 'E_RESPONSE_SHAPE',
      message: 'getGroup: the 200 answer has no body',
    });
    mode = 'html';
    await expect(
      api.mailAndCalendar.forwardEvent({
        event: 'e',
        body: { ToRecipients: [{ EmailAddress: { Address: 'dana@fabrikam.example' } }] },
      }),
    ).resolves.toBeUndefined();
  });
});

describe('every walk across links is bounded', () => {
  it('syncMessages: a nextLink back at itself ends with E_LINK_LOOP after two requests', async () => {
    const base = await hostile((request, response) =>
      json(
        response,
        200,
        page([{ id: 'm', subject: 's' }], { next: `http://127.0.0.1:${request.socket.localPort ?? 0}/v1.0/loop` }),
      ),
    );
    const saved: string[] = [];
    const error = await rejection(
      syncMessages(transport(base.url), {
        folder: 'inbox',
        store: { load: () => undefined, save: (l) => void saved.push(l) },
      }),
    );
    expect(error).toMatchObject({
      code: 'E_LINK_LOOP',
      message:
        'the delta round: the service sent a link to a page already read (page 3 would repeat one): a loop, stopped',
    });
    expect(base.requests.map((r) => r.url)).toEqual(['/v1.0/me/mailFolders/inbox/messages/delta', '/v1.0/loop']);
    expect(saved).toEqual([]);
  });

  it('syncMessages: distinct links end at maxPages, both sides of the bound', async () => {
    let n = 0;
    const base = await hostile((_q, response) => {
      n++;
      json(response, 200, page([{ id: `m${n}` }], n < 3 ? { next: `/p${n}` } : { delta: `/d${n}` }));
    });
    const saved: string[] = [];
    const store: DeltaLinkStore = { load: () => undefined, save: (l) => void saved.push(l) };
    const three = await syncMessages(transport(base.url), { folder: 'inbox', store, maxPages: 3 });
    expect(three.pages).toBe(3);
    n = 0;
    const error = await rejection(syncMessages(transport(base.url), { folder: 'inbox', store, maxPages: 2 }));
    expect(error).toMatchObject({
      code: 'E_LINK_LOOP',
      message:
        'the delta round: stopped after 2 pages of @odata.nextLink (raise maxPages if the collection is really that long)',
    });
    expect(base.requests).toHaveLength(5);
  });

  it('the pager: a link back to the first page is a loop too', async () => {
    let n = 0;
    const base = await hostile((request, response) => {
      n++;
      json(response, 200, page([{ id: `p${n}` }], { next: `http://127.0.0.1:${request.socket.localPort}${POLICIES}` }));
    });
    const error = await rejection(typed(base.url).governance.listHomeRealmDiscoveryPolicies({}).all());
    expect(error).toMatchObject({
      code: 'E_LINK_LOOP',
      message:
        'listHomeRealmDiscoveryPolicies: the service sent a link to a page already read (page 2 would repeat one): a loop, stopped',
    });
    expect(base.requests).toHaveLength(1);
  });

  it('clone polling: a service that says "running" with Retry-After 0 forever stops at maxPolls', async () => {
    const base = await hostile((request, response) => {
      if (request.method === 'POST') response.writeHead(202, { location: "/teams('t')/operations('o')" }).end();
      else json(response, 200, { id: 'o', status: 'running' }, { 'retry-after': '0' });
    });
    const operation = await startTeamClone(transport(base.url), 't', { displayName: 'Copy', partsToClone: 'apps' });
    const error = await rejection(operation.wait({ maxPolls: 5 }));
    expect(error).toMatchObject({ code: 'E_RETRY_EXHAUSTED', message: 'The clone was still running after 5 polls' });
    expect(base.requests).toHaveLength(6);
  });

  it('reports how many requests the foreign origins of this file received', () => {
    expect(foreignRequests.length).toBeGreaterThan(0);
    expect(foreignRequests.reduce((a, b) => a + b, 0)).toBe(0);
  });
});
