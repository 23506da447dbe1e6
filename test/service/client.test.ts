import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { backoffSeconds, createServiceClient, parseRetryAfter, type ServiceClient } from '../../src/service/client.js';
import { isServiceError, readErrorBody, redactTokens, ServiceError } from '../../src/service/errors.js';
import { BomwrightError, isBomwrightError } from '../../src/errors.js';
import { useEmulator } from '../emulator/harness.js';
import { scripted, servers, serviceClient as client } from './scripted.js';

const ok = () => ({ status: 200, body: { value: [] } });
const throttled = (retryAfter?: string) => () => ({
  status: 429,
  headers: (retryAfter === undefined ? {} : { 'retry-after': retryAfter }) as Record<string, string>,
  body: { error: { code: 'TooManyRequests', message: 'Slow down' } },
});

describe('every request', () => {
  it('carries the token (also to http://localhost), a client-request-id, a User-Agent naming bomwright, and JSON where there is a body', async () => {
    const server = await scripted([ok]);
    const api = client(server.url, { toolVersion: '9.9.9', userAgent: 'my-tool/1' });
    await api.call({ method: 'GET', path: '/me/authentication/methods' });
    await api.call({
      method: 'POST',
      path: '/teams/t/clone',
      body: { displayName: 'x' },
      headers: { 'Workbook-Session-Id': 's1' },
    });
    const [get, post] = server.seen;
    expect(get!.url).toBe('/v1.0/me/authentication/methods');
    expect(get!.headers.authorization).toBe('Bearer test-token-abcdefgh');
    expect(get!.headers['client-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(get!.headers['user-agent']).toBe('bomwright/9.9.9 my-tool/1');
    expect(get!.headers['content-type']).toBeUndefined();
    expect(post!.headers['content-type']).toBe('application/json');
    expect(post!.headers['workbook-session-id']).toBe('s1');
    expect(JSON.parse(post!.body)).toEqual({ displayName: 'x' });
    expect(post!.headers['client-request-id']).not.toBe(get!.headers['client-request-id']);
  });
});

describe('retries', () => {
  it('retries 429, 503 and 504 honouring Retry-After, with the same client-request-id and a Retry-Attempt header', async () => {
    const server = await scripted([
      throttled('0.05'),
      () => ({ status: 503, headers: { 'retry-after': '0' } }),
      () => ({ status: 504 }),
      ok,
    ]);
    const api = client(server.url);
    const started = performance.now();
    const response = await api.call({ method: 'GET', path: '/x' });
    expect(response.status).toBe(200);
    expect(response.attempts).toBe(4);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    const ids = new Set(server.seen.map((s) => s.headers['client-request-id']));
    expect(ids.size).toBe(1);
    expect(server.seen.map((s) => s.headers['retry-attempt'])).toEqual([undefined, '1', '2', '3']);
  });

  it('retries a POST only when the service asked with Retry-After', async () => {
    const asked = await scripted([throttled('0.01'), () => ({ status: 201, body: { id: 'x' } })]);
    expect((await client(asked.url).call({ method: 'POST', path: '/x', body: {} })).status).toBe(201);
    const notAsked = await scripted([throttled(), ok]);
    const error = await client(notAsked.url)
      .call({ method: 'POST', path: '/x', body: {} })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'E_SERVICE', status: 429, serviceCode: 'TooManyRequests', attempts: 1 });
    expect(notAsked.seen).toHaveLength(1);
  });

  it('gives up after the retries or the time budget, with its own code and the last answer', async () => {
    const server = await scripted([throttled('0.01')]);
    const error = (await client(server.url, { retry: { maxRetries: 2, delaySeconds: 0.01, maxDelaySeconds: 0.05 } })
      .call({ method: 'GET', path: '/x' })
      .catch((e: unknown) => e)) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({
      code: 'E_RETRY_EXHAUSTED',
      status: 429,
      serviceCode: 'TooManyRequests',
      attempts: 3,
    });
    expect(server.seen).toHaveLength(3);
    const slow = await scripted([throttled('30')]);
    const budget = (await client(slow.url, { retry: { budgetMs: 1000, maxDelaySeconds: 60 } })
      .call({ method: 'GET', path: '/x' })
      .catch((e: unknown) => e)) as ServiceError;
    expect(budget.code).toBe('E_RETRY_EXHAUSTED');
    expect(budget.message).toMatch(/retry budget of 1000 ms/);
  });

  it('returns when cancelled during a Retry-After wait, not after it', async () => {
    const server = await scripted([throttled('30')]);
    const controller = new AbortController();
    const pending = client(server.url, { retry: { maxDelaySeconds: 60 } }).call({
      method: 'GET',
      path: '/x',
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ code: 'E_ABORTED' });
    // A wait that ignored the signal would take 10–30 s: this test's own timeout, 15 s, catches it.
  }, 15_000);

  it('reads Retry-After as seconds, decimals or an HTTP date, and backs off as the SDKs do without it', () => {
    expect(parseRetryAfter('2.128')).toBe(2.128);
    expect(parseRetryAfter('5')).toBe(5);
    expect(parseRetryAfter(new Date(Date.UTC(2030, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(10);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect([1, 2, 3].map((r) => backoffSeconds(r, 3, () => 0))).toEqual([3, 5, 7]);
    expect(backoffSeconds(1, 3, () => 0.1234)).toBe(3.123);
  });
});

describe('redirects', () => {
  it('follows a redirect to another host without the token, and keeps it on the same host', async () => {
    const other = await scripted([ok]);
    const origin = await scripted([
      () => ({ status: 307, headers: { location: '/v1.0/moved' } }),
      () => ({ status: 302, headers: { location: `${other.url.replace('127.0.0.1', 'localhost')}/v1.0/elsewhere` } }),
    ]);
    const response = await client(origin.url).call({ method: 'GET', path: '/start', headers: { Cookie: 'a=b' } });
    expect(response.status).toBe(200);
    expect(origin.seen.map((s) => s.url)).toEqual(['/v1.0/start', '/v1.0/moved']);
    expect(origin.seen[1]!.headers.authorization).toBe('Bearer test-token-abcdefgh');
    expect(other.seen[0]!.url).toBe('/v1.0/elsewhere');
    expect(other.seen[0]!.headers.authorization).toBeUndefined();
    expect(other.seen[0]!.headers.cookie).toBeUndefined();
  });

  it('turns 303 into a GET of the new URL, and stops after 5 redirects', async () => {
    const server = await scripted([() => ({ status: 303, headers: { location: '/v1.0/result' } }), ok]);
    await client(server.url).call({ method: 'POST', path: '/x', body: { a: 1 } });
    expect(server.seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ['POST', '/v1.0/x', '{"a":1}'],
      ['GET', '/v1.0/result', ''],
    ]);
    const loop = await scripted([() => ({ status: 302, headers: { location: '/v1.0/again' } })]);
    await expect(client(loop.url).call({ method: 'GET', path: '/x' })).rejects.toMatchObject({ code: 'E_REDIRECT' });
    expect(loop.seen).toHaveLength(6);
  });
});

describe('errors', () => {
  it('reads the error body, innerError or innererror, walking nested inner errors', () => {
    expect(
      readErrorBody({
        error: {
          code: 'BadRequest',
          message: 'No',
          innererror: {
            code: 'outer',
            date: '2026-01-01T00:00:00',
            'request-id': 'r1',
            innerError: { code: 'inner', 'client-request-id': 'c1' },
          },
        },
      }),
    ).toEqual({
      code: 'BadRequest',
      message: 'No',
      requestId: 'r1',
      clientRequestId: 'c1',
      date: '2026-01-01T00:00:00',
      innerCodes: ['outer', 'inner'],
    });
    expect(readErrorBody('oops')).toEqual({ innerCodes: [] });
    expect(readErrorBody({ error: 5 })).toEqual({ innerCodes: [] });
  });

  it('names network failures and timeouts with their own codes', async () => {
    const closed = await scripted([ok]);
    const url = closed.url;
    await new Promise((resolve) => closed.server.close(resolve));
    servers.splice(servers.indexOf(closed.server), 1);
    await expect(client(url).call({ method: 'GET', path: '/x' })).rejects.toMatchObject({ code: 'E_NETWORK' });
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    servers.push(silent);
    const port = (silent.address() as AddressInfo).port;
    await expect(
      client(`http://127.0.0.1:${port}`, { timeoutMs: 100 }).call({ method: 'GET', path: '/x' }),
    ).rejects.toMatchObject({ code: 'E_TIMEOUT' });
  });

  it('never puts a token in an error message', async () => {
    const token = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJzZWNyZXQtdXNlciJ9.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    const echo = await scripted([
      (seen) => ({
        status: 401,
        body: {
          error: { code: 'InvalidAuthenticationToken', message: `Token ${String(seen.headers.authorization)} is bad` },
        },
      }),
    ]);
    const error = (await client(echo.url, { token })
      .call({ method: 'GET', path: '/x' })
      .catch((e: unknown) => e)) as ServiceError;
    expect(error.message).not.toContain(token);
    expect(error.message).toContain('[token]');
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(token);
    expect(redactTokens(`a ${token} b`)).toBe('a [token] b');
    expect(redactTokens('Authorization: Bearer abc.def-ghi')).toBe('Authorization: Bearer [token]');
  });
});

describe('against the emulator', () => {
  const api = useEmulator();
  let service: ServiceClient;
  beforeAll(async () => {
    service = createServiceClient({ baseUrl: api.emulator.url, getToken: () => api.token() });
  });
  afterAll(() => service.close());

  it('calls an operation and reads the collection', async () => {
    const response = await service.call({ method: 'GET', path: '/me/authentication/phoneMethods' });
    expect(response.status).toBe(200);
    expect((response.body as { value: unknown[] }).value).toHaveLength(3);
    expect(response.headers['client-request-id']).toBe(response.clientRequestId);
  });

  it('turns the service’s error into a ServiceError with status, code, message and both request ids', async () => {
    const error = (await service
      .call({ method: 'GET', path: '/users/nobody@contoso.example/authentication/methods' })
      .catch((e: unknown) => e)) as ServiceError;
    expect(error).toMatchObject({ code: 'E_SERVICE', status: 404, serviceCode: 'Request_ResourceNotFound' });
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.clientRequestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.message).toMatch(/^Request_ResourceNotFound: Resource 'nobody@contoso.example' does not exist/);
    const forbidden = (await createServiceClient({
      baseUrl: api.emulator.url,
      token: await api.token({ scopes: ['User.Read'] }),
    })
      .call({ method: 'GET', path: `/users/${SEED_IDS.users.megan}/authentication/methods` })
      .catch((e: unknown) => e)) as ServiceError;
    expect(forbidden).toMatchObject({ status: 403, serviceCode: 'Authorization_RequestDenied' });
  });
});

describe('options and edges', () => {
  it('refuses a base URL that is not one, or not http(s), and retry settings out of range', () => {
    expect(() => createServiceClient({ baseUrl: 'not a url' })).toThrow(/^baseUrl is not a URL: "not a url"$/);
    expect(() => createServiceClient({ baseUrl: 'ftp://x.example' })).toThrow(
      /^baseUrl must be http or https, not ftp:$/,
    );
    for (const maxRetries of [-1, 11, 1.5])
      expect(() => createServiceClient({ baseUrl: 'http://x', retry: { maxRetries } }), String(maxRetries)).toThrow(
        /^retry\.maxRetries must be a whole number from 0 to 10$/,
      );
    for (const maxRetries of [0, 10])
      expect(() => createServiceClient({ baseUrl: 'http://x', retry: { maxRetries } })).not.toThrow();
    expect(() => createServiceClient({ baseUrl: 'http://x', retry: { delaySeconds: -1 } })).toThrow(
      /retry\.delaySeconds/,
    );
    expect(() => createServiceClient({ baseUrl: 'http://x', retry: { delaySeconds: 5, maxDelaySeconds: 4 } })).toThrow(
      /^retry\.delaySeconds must be from 0 to retry\.maxDelaySeconds$/,
    );
    expect(() =>
      createServiceClient({ baseUrl: 'http://x', retry: { delaySeconds: 4, maxDelaySeconds: 4 } }),
    ).not.toThrow();
    expect(createServiceClient({ baseUrl: 'http://x.example//' }).baseUrl).toBe('http://x.example');
    expect(createServiceClient({ baseUrl: 'http://x.example', concurrency: 0 }).concurrency).toBe(1);
    expect(createServiceClient({ baseUrl: 'http://x.example' }).concurrency).toBe(4);
  });

  it('names bomwright and its version in the User-Agent, the caller after it; sends no Authorization without a token', async () => {
    const server = await scripted([ok]);
    await client(server.url, { token: undefined, toolVersion: '9.8.7', userAgent: 'release-bot/2' }).call({
      method: 'GET',
      path: '/a',
    });
    await client(server.url, { token: '' }).call({ method: 'GET', path: '/b' });
    expect(server.seen[0]!.headers['user-agent']).toBe('bomwright/9.8.7 release-bot/2');
    expect(server.seen[1]!.headers['user-agent']).toBe('bomwright/unknown');
    expect(server.seen.map((s) => s.headers.authorization)).toEqual([undefined, undefined]);
    expect(server.seen[0]!.headers.accept).toBe('application/json');
    expect(server.seen[0]!.headers['content-type']).toBeUndefined();
  });

  it('asks getToken for each attempt, with the URL it is for', async () => {
    const server = await scripted([throttled('0'), ok]);
    const asked: string[] = [];
    let n = 0;
    await client(server.url, {
      token: undefined,
      getToken: ({ url }) => {
        asked.push(url.pathname);
        return `token-number-${++n}`;
      },
    }).call({ method: 'GET', path: '/x' });
    expect(asked).toEqual(['/v1.0/x', '/v1.0/x']);
    expect(server.seen.map((s) => s.headers.authorization)).toEqual(['Bearer token-number-1', 'Bearer token-number-2']);
  });

  it('keeps the method and body on 307 and 308, turns a POST into a GET on 301 and 302, and drops its content type', async () => {
    for (const [status, method, body] of [
      [307, 'POST', '{"a":1}'],
      [308, 'PATCH', '{"a":1}'],
      [301, 'GET', ''],
      [302, 'GET', ''],
    ] as const) {
      const server = await scripted([() => ({ status, headers: { location: '/v1.0/there' } }), ok]);
      await client(server.url).call({ method: status === 308 ? 'PATCH' : 'POST', path: '/here', body: { a: 1 } });
      expect([server.seen[1]!.method, server.seen[1]!.body], String(status)).toEqual([method, body]);
      if (body === '') expect(server.seen[1]!.headers['content-type'], String(status)).toBeUndefined();
    }
    // A GET stays a GET on 301/302; a redirect to another scheme is refused.
    const plain = await scripted([() => ({ status: 301, headers: { location: '/v1.0/there' } }), ok]);
    await client(plain.url).call({ method: 'DELETE', path: '/here' });
    expect(plain.seen[1]!.method).toBe('DELETE');
    const away = await scripted([() => ({ status: 302, headers: { location: 'file:///etc/passwd' } })]);
    await expect(client(away.url).call({ method: 'GET', path: '/x' })).rejects.toMatchObject({
      code: 'E_REDIRECT',
      message: 'Redirect to a file: URL refused',
    });
    // A redirect status without a Location is an answer like any other.
    const bare = await scripted([() => ({ status: 304 })]);
    await expect(client(bare.url).call({ method: 'GET', path: '/x' })).rejects.toMatchObject({ status: 304 });
  });

  it('reads Retry-After with spaces around it; rejects partial numbers', () => {
    expect(parseRetryAfter(' 3 ')).toBe(3);
    expect(parseRetryAfter('10')).toBe(10);
    expect(parseRetryAfter('x2')).toBeUndefined();
    expect(parseRetryAfter('2.')).toBeUndefined();
    expect(backoffSeconds(2, 3, () => 0.5)).toBe(5.5);
  });

  it('says the status and the service code when the error body has none, and the answer when it is not JSON', async () => {
    const empty = await scripted([() => ({ status: 418 })]);
    await expect(client(empty.url).call({ method: 'GET', path: '/x' })).rejects.toMatchObject({
      code: 'E_SERVICE',
      status: 418,
      serviceCode: 'HTTP418',
      message: 'HTTP418: The service answered 418',
    });
    const headerId = await scripted([
      () => ({
        status: 400,
        headers: { 'request-id': 'from-header' },
        body: { error: { code: 'BadRequest', message: 'no', innerError: { 'request-id': 'from-body', date: 'd' } } },
      }),
    ]);
    await expect(client(headerId.url).call({ method: 'GET', path: '/x' })).rejects.toMatchObject({
      requestId: 'from-header',
      date: 'd',
    });
  });
});

describe('reading error bodies and redacting', () => {
  it('bounds what it keeps: codes of 100 characters, messages of 500, 16 inner levels; empty strings are absent', () => {
    let nested: Record<string, unknown> = { code: 'deepest' };
    for (let i = 0; i < 20; i++) nested = { code: `level${19 - i}`, innerError: nested };
    const read = readErrorBody({
      error: {
        code: 'c'.repeat(150),
        message: 'm'.repeat(600),
        innerError: { ...nested, code: 'x'.repeat(150), date: '' },
      },
    });
    expect(read.code).toBe('c'.repeat(100));
    expect(read.message).toBe('m'.repeat(500));
    expect(read.innerCodes).toHaveLength(16);
    expect(read.innerCodes[0]).toBe('x'.repeat(100));
    expect(read.date).toBeUndefined();
    expect(readErrorBody({ error: { code: '', message: '' } })).toEqual({
      code: undefined,
      message: undefined,
      requestId: undefined,
      clientRequestId: undefined,
      date: undefined,
      innerCodes: [],
    });
    for (const body of [null, undefined, 'text', { error: null }, { error: 'flat' }])
      expect(readErrorBody(body)).toEqual({ innerCodes: [] });
    // The first of each id wins, from either spelling.
    expect(
      readErrorBody({
        error: { innererror: { requestId: 'r1', clientRequestId: 'c1', innerError: { 'request-id': 'r2' } } },
      }),
    ).toMatchObject({ requestId: 'r1', clientRequestId: 'c1' });
  });

  it('redacts the tokens it is given (8 characters or more), bearer credentials and JWTs', () => {
    expect(redactTokens('key 1234567 and 12345678', ['1234567', '12345678'])).toBe('key 1234567 and [token]');
    expect(redactTokens('Authorization: bearer abc.def-ghi~jkl+/=')).toBe('Authorization: Bearer [token]');
    expect(redactTokens('Bearerabc stays')).toBe('Bearerabc stays');
    expect(redactTokens('x eyJhbGciOiJFUzI1.eyJzdWIiOiJhYmNk.sig y')).toBe('x [token] y');
    const error = new ServiceError('E_SERVICE', 'boom');
    expect(error.name).toBe('ServiceError');
    expect(error.innerCodes).toEqual([]);
  });
});

describe('recognising a ServiceError', () => {
  it('from this module or from another copy of it (the CLI loads the client from its own bundle)', () => {
    expect(isServiceError(new ServiceError('E_SERVICE', 'x'))).toBe(true);
    const fromAnotherBundle = Object.assign(new Error('x'), {
      name: 'ServiceError',
      code: 'E_SERVICE',
      innerCodes: [],
    });
    expect(isServiceError(fromAnotherBundle)).toBe(true);
    expect(isBomwrightError(fromAnotherBundle)).toBe(true);
    for (const other of [
      new Error('x'),
      new BomwrightError('E_USAGE', 'x'),
      Object.assign(new Error('x'), { name: 'ServiceError', code: 5, innerCodes: [] }),
      Object.assign(new Error('x'), { name: 'ServiceError', code: 'E_SERVICE' }),
      Object.assign(new Error('x'), { name: 'Other', code: 'E_SERVICE', innerCodes: [] }),
      { name: 'ServiceError', code: 'E_SERVICE', innerCodes: [] },
      null,
    ])
      expect(isServiceError(other)).toBe(false);
  });
});
