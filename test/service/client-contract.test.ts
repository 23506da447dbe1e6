/**
 * The transport's contract at its edges, against scripted servers on 127.0.0.1: what each error says and counts,
 * which methods are retried, stream bodies, empty answers, the response size bound, query values, dispatchers it
 * owns or borrows, and tokens in messages.
 */
import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../src/service/client.js';
import { ServiceError } from '../../src/service/errors.js';
import { scripted, servers, serviceClient as client } from './scripted.js';

const ok = () => ({ status: 200, body: { value: [] } });
const unavailable = () => ({ status: 503, body: { error: { code: 'ServiceUnavailable', message: 'Busy' } } });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as ServiceError,
  );

const extraAgents: Agent[] = [];
afterEach(async () => {
  for (const agent of extraAgents.splice(0)) await agent.close();
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('errors say what happened, and count the attempts', () => {
  it('a refused connection: E_NETWORK with the system code and message, one attempt, the cause kept', async () => {
    const closed = await scripted([ok]);
    await new Promise((resolve) => closed.server.close(resolve));
    servers.splice(servers.indexOf(closed.server), 1);
    const port = new URL(closed.url).port;
    const error = await failure(client(closed.url).call({ method: 'GET', path: '/x' }));
    expect(error).toBeInstanceOf(ServiceError);
    expect(error!.code).toBe('E_NETWORK');
    expect(error!.message).toBe(`The request failed: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port}`);
    expect(error!.attempts).toBe(1);
    expect(error!.clientRequestId).toMatch(/^[0-9a-f-]{36}$/);
    expect((error as Error & { cause?: unknown }).cause).toBeInstanceOf(Error);
  });

  it('a failure without a code says only its first line, with the tokens redacted', async () => {
    const failing = {
      request: () => Promise.reject(new Error('socket gone for plain-secret-token-123\nstack details')),
      close: () => Promise.resolve(),
    };
    const api = createServiceClient({
      baseUrl: 'http://127.0.0.1:9',
      token: 'plain-secret-token-123',
      dispatcher: failing as unknown as Agent,
    });
    const error = await failure(api.call({ method: 'GET', path: '/x' }));
    expect(error!.code).toBe('E_NETWORK');
    expect(error!.message).toBe('The request failed: socket gone for [token]');
    const thrownString = createServiceClient({
      baseUrl: 'http://127.0.0.1:9',
      dispatcher: { request: () => Promise.reject('just text'), close: () => Promise.resolve() } as unknown as Agent,
    });
    expect((await failure(thrownString.call({ method: 'GET', path: '/x' })))!.message).toBe(
      'The request failed: just text',
    );
  });

  it('no answer in time: E_TIMEOUT naming the limit and undici’s code', async () => {
    const url = await listen(createServer(() => undefined));
    const error = await failure(client(url, { timeoutMs: 100 }).call({ method: 'GET', path: '/x' }));
    expect(error!.code).toBe('E_TIMEOUT');
    expect(error!.message).toBe('No complete answer within 100 ms (headers and body)');
    expect(error!.attempts).toBe(1);
    expect((error as Error & { cause?: unknown }).cause).toBeInstanceOf(Error);
  });

  it('cancelled before it starts: E_ABORTED after no attempt, nothing sent', async () => {
    const server = await scripted([ok]);
    const controller = new AbortController();
    controller.abort();
    const error = await failure(client(server.url).call({ method: 'GET', path: '/x', signal: controller.signal }));
    expect(error).toMatchObject({ code: 'E_ABORTED', message: 'The call was cancelled', attempts: 0 });
    expect(server.seen).toHaveLength(0);
  });

  it('cancelled while waiting for the answer, or for a retry: E_ABORTED counting the attempts made', async () => {
    const url = await listen(createServer(() => undefined));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const during = await failure(client(url).call({ method: 'GET', path: '/x', signal: controller.signal }));
    expect(during).toMatchObject({ code: 'E_ABORTED', message: 'The call was cancelled', attempts: 1 });
    const throttled = await scripted([() => ({ status: 429, headers: { 'retry-after': '30' } })]);
    const waiting = new AbortController();
    setTimeout(() => waiting.abort(), 50);
    const between = await failure(
      client(throttled.url, { retry: { maxDelaySeconds: 60 } }).call({
        method: 'GET',
        path: '/x',
        signal: waiting.signal,
      }),
    );
    expect(between).toMatchObject({ code: 'E_ABORTED', attempts: 1 });
  });

  it('giving up says after how many attempts, and the last answer', async () => {
    const server = await scripted([unavailable]);
    const error = await failure(
      client(server.url, { retry: { maxRetries: 2, delaySeconds: 0, maxDelaySeconds: 0.01 } }).call({
        method: 'GET',
        path: '/x',
      }),
    );
    expect(error!.message).toBe('Gave up after 3 attempts: ServiceUnavailable: Busy');
    expect(error!.innerCodes).toEqual([]);
    const once = await scripted([unavailable]);
    const none = await failure(client(once.url, { retry: { maxRetries: 0 } }).call({ method: 'GET', path: '/x' }));
    expect(none!.message).toBe('Gave up after 1 attempts: ServiceUnavailable: Busy');
    expect(once.seen).toHaveLength(1);
  });

  it('a redirect loop or a redirect off http(s) is E_REDIRECT with the status and the attempt', async () => {
    const loop = await scripted([() => ({ status: 302, headers: { location: '/v1.0/again' } })]);
    const error = await failure(client(loop.url, { maxRedirects: 2 }).call({ method: 'GET', path: '/x' }));
    expect(error).toMatchObject({ code: 'E_REDIRECT', message: 'More than 2 redirects', status: 302, attempts: 1 });
    expect(loop.seen).toHaveLength(3);
    const ftp = await scripted([() => ({ status: 301, headers: { location: 'ftp://files.example/x' } })]);
    const refused = await failure(client(ftp.url).call({ method: 'GET', path: '/x' }));
    expect(refused).toMatchObject({
      code: 'E_REDIRECT',
      message: 'Redirect to a ftp: URL refused',
      status: 301,
      attempts: 1,
    });
    const https = await scripted([() => ({ status: 307, headers: { location: 'https://127.0.0.1:9/x' } })]);
    // Followed (https is allowed); the connection then fails, as nothing speaks TLS there.
    expect((await failure(client(https.url).call({ method: 'GET', path: '/x' })))!.code).toMatch(
      /^E_(NETWORK|TIMEOUT)$/,
    );
  });
});

describe('what is retried', () => {
  it('idempotent methods (GET, HEAD, PUT, DELETE, OPTIONS) are retried without Retry-After; POST and PATCH are not', async () => {
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']) {
      const server = await scripted([unavailable, ok]);
      const response = await client(server.url).call({ method, path: '/x' });
      expect(response.status, method).toBe(200);
      expect(server.seen, method).toHaveLength(2);
    }
    for (const method of ['POST', 'PATCH']) {
      const server = await scripted([unavailable, ok]);
      expect((await failure(client(server.url).call({ method, path: '/x', body: {} })))!.status, method).toBe(503);
      expect(server.seen, method).toHaveLength(1);
    }
  });

  it('sends a stream body as it is, and never retries it (it cannot be read twice)', async () => {
    const server = await scripted([() => ({ status: 503, headers: { 'retry-after': '0' } }), ok]);
    const error = await failure(
      client(server.url).call({ method: 'PUT', path: '/x', body: Readable.from(['raw ', 'bytes']) }),
    );
    expect(error).toMatchObject({ code: 'E_SERVICE', status: 503 });
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]!.body).toBe('raw bytes');
    const object = await scripted([ok]);
    await client(object.url).call({ method: 'PUT', path: '/x', body: { pipe: 'not a function' } });
    expect(object.seen[0]!.body).toBe('{"pipe":"not a function"}');
  });
});

describe('answers', () => {
  it('an empty answer has no body; a text answer is kept as text', async () => {
    const server = await scripted([() => ({ status: 204 }), () => ({ status: 200, body: undefined })]);
    const empty = await client(server.url).call({ method: 'DELETE', path: '/x' });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeUndefined();
    const text = await listen(
      createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('plain words');
      }),
    );
    expect((await client(text).call({ method: 'GET', path: '/x' })).body).toBe('plain words');
  });

  it('refuses an answer larger than 64 MiB, whatever its chunks', async () => {
    const limit = 64 * 1024 * 1024;
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const url = await listen(
      createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        let sent = 0;
        const more = () => {
          while (sent <= limit) {
            sent += chunk.length;
            if (!response.write(chunk)) return void response.once('drain', more);
          }
          response.end('1');
        };
        more();
      }),
    );
    const error = await failure(client(url).call({ method: 'GET', path: '/x' }));
    expect(error).toMatchObject({
      code: 'E_RESPONSE_SHAPE',
      message: `The response is larger than ${limit} bytes`,
      attempts: 1,
    });
    expect(error!.clientRequestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a declared Content-Length over 64 MiB at once, and reads one of exactly 64 MiB', async () => {
    const limit = 64 * 1024 * 1024;
    let over = 0;
    const declaredOver = await listen(
      createServer((_request, response) => {
        // Announced, never sent: the answer must come from the declaration, not from waiting for the bytes.
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(limit + 1) });
        response.write('[');
        over++;
      }),
    );
    const error = await failure(client(declaredOver, { timeoutMs: 20_000 }).call({ method: 'GET', path: '/x' }));
    expect(error).toMatchObject({
      code: 'E_RESPONSE_SHAPE',
      message: `The response is larger than ${limit} bytes`,
      attempts: 1,
    });
    expect(over).toBe(1);
    const exact = await listen(
      createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(limit) });
        response.end(Buffer.concat([Buffer.alloc(limit - 1, 0x20), Buffer.from('7')]));
      }),
    );
    const answer = await client(exact, { timeoutMs: 60_000 }).call({ method: 'GET', path: '/x' });
    expect(answer).toMatchObject({ status: 200, body: 7, bodyType: 'json' });
  });

  it('reads a body the same with or without a Content-Length: a byte order mark is kept, so it is text', async () => {
    const bodies: unknown[] = [];
    for (const declared of [true, false]) {
      const url = await listen(
        createServer((_request, response) => {
          const bytes = Buffer.from('\uFEFF{"a":"é"}', 'utf8');
          response.writeHead(200, {
            'content-type': 'application/json',
            ...(declared ? { 'content-length': String(bytes.length) } : {}),
          });
          response.end(bytes);
        }),
      );
      const answer = await client(url).call({ method: 'GET', path: '/x' });
      bodies.push([answer.bodyType, answer.body]);
    }
    expect(bodies).toEqual([
      ['text', '\uFEFF{"a":"é"}'],
      ['text', '\uFEFF{"a":"é"}'],
    ]);
  });

  it('a body with a Content-Length that stalls: E_TIMEOUT at the deadline, E_ABORTED when the caller cancels', async () => {
    const url = await listen(
      createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        response.write('{"value":');
      }),
    );
    const timedOut = await failure(client(url, { timeoutMs: 200 }).call({ method: 'GET', path: '/x' }));
    expect(timedOut).toMatchObject({
      code: 'E_TIMEOUT',
      message: 'No complete answer within 200 ms (headers and body)',
      attempts: 1,
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const cancelled = await failure(
      client(url, { timeoutMs: 10_000 }).call({ method: 'GET', path: '/x', signal: controller.signal }),
    );
    expect(cancelled).toMatchObject({ code: 'E_ABORTED', message: 'The call was cancelled', attempts: 1 });
  });

  it("takes its listener off the caller's signal after each call, answered or failed", async () => {
    const server = await scripted([ok, unavailable, ok]);
    const controller = new AbortController();
    const api = client(server.url, { retry: { maxRetries: 0 } });
    await api.call({ method: 'GET', path: '/x', signal: controller.signal });
    expect(await failure(api.call({ method: 'GET', path: '/x', signal: controller.signal }))).toMatchObject({
      code: 'E_RETRY_EXHAUSTED',
    });
    await api.call({ method: 'GET', path: '/x', signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('keeps every response header as one string, the first of a repeated one', async () => {
    const url = await listen(
      createServer((_request, response) => {
        response.setHeader('x-one', 'a');
        response.setHeader('x-many', ['b', 'c']);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{}');
      }),
    );
    const answer = await client(url).call({ method: 'GET', path: '/x' });
    expect(answer.headers['x-one']).toBe('a');
    expect(answer.headers['x-many']).toBe('b');
    expect(Object.values(answer.headers).every((v) => typeof v === 'string')).toBe(true);
  });
});

describe('requests', () => {
  it('a path is relative to the base unless it starts with http(s)://; undefined query values are left out', async () => {
    const server = await scripted([ok]);
    await client(server.url).call({
      method: 'GET',
      path: '/search?next=https://other.example/x',
      query: { a: undefined, b: 2, c: 'x y' },
    });
    const seen = new URL(server.seen[0]!.url, 'http://h');
    expect(seen.pathname).toBe('/v1.0/search');
    expect([...seen.searchParams.entries()]).toEqual([
      ['next', 'https://other.example/x'],
      ['b', '2'],
      ['c', 'x y'],
    ]);
  });

  it('redacts the token it was given from the service’s message even when it is not a JWT; with no token, says the message as it is', async () => {
    const echo = await scripted([
      (seen) => ({
        status: 400,
        body: { error: { code: 'BadRequest', message: `Saw ${String(seen.headers.authorization)}` } },
      }),
    ]);
    const secret = 'opaque-secret-value-42';
    const withToken = await failure(client(echo.url, { token: secret }).call({ method: 'GET', path: '/x' }));
    expect(withToken!.message).not.toContain(secret);
    const tokenFromGetter = await failure(
      createServiceClient({ baseUrl: echo.url, getToken: () => secret }).call({ method: 'GET', path: '/x' }),
    );
    expect(tokenFromGetter!.message).not.toContain(secret);
    const noToken = await failure(client(echo.url, { token: undefined }).call({ method: 'GET', path: '/x' }));
    expect(noToken!.message).toBe('BadRequest: Saw undefined');
  });

  it('refuses a bad base URL with E_REQUEST_SHAPE, quoting at most 100 characters of it', () => {
    const long = `not a url ${'x'.repeat(200)}`;
    let error: ServiceError | undefined;
    try {
      createServiceClient({ baseUrl: long });
    } catch (e) {
      error = e as ServiceError;
    }
    expect(error).toBeInstanceOf(ServiceError);
    expect(error!.code).toBe('E_REQUEST_SHAPE');
    expect(error!.message).toBe(`baseUrl is not a URL: ${JSON.stringify(long.slice(0, 100))}`);
    for (const options of [
      { baseUrl: 'ftp://x' },
      { baseUrl: 'http://x', retry: { maxRetries: 11 } },
      { baseUrl: 'http://x', retry: { delaySeconds: 2, maxDelaySeconds: 1 } },
    ])
      expect(() => createServiceClient(options)).toThrow(expect.objectContaining({ code: 'E_REQUEST_SHAPE' }));
    expect(() => createServiceClient({ baseUrl: 'http://x', retry: { delaySeconds: 0 } })).not.toThrow();
  });
});

describe('connections', () => {
  it('opens up to twice its concurrency in connections (at least 8) on its own agent', async () => {
    const sockets = new Set<Socket>();
    const waiting: (() => void)[] = [];
    const url = await listen(
      createServer((request, response) => {
        sockets.add(request.socket);
        waiting.push(() => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end('{}');
        });
      }),
    );
    const api: ServiceClient = client(url, { concurrency: 8 });
    const calls = Array.from({ length: 12 }, () => api.call({ method: 'GET', path: '/x' }));
    const deadline = Date.now() + 5000;
    while (sockets.size < 12 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sockets.size).toBe(12);
    for (const answer of waiting.splice(0)) answer();
    await Promise.all(calls);
  });

  it('closes its own agent, and leaves a dispatcher it was given open', async () => {
    const server = await scripted([ok]);
    const own = createServiceClient({ baseUrl: server.url });
    await own.call({ method: 'GET', path: '/x' });
    await own.close();
    expect((await failure(own.call({ method: 'GET', path: '/x' })))!.code).toBe('E_NETWORK');
    const agent = new Agent();
    extraAgents.push(agent);
    const borrowed = createServiceClient({ baseUrl: server.url, dispatcher: agent });
    await borrowed.close();
    expect((await borrowed.call({ method: 'GET', path: '/x' })).status).toBe(200);
  });
});
