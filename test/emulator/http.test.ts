import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { Harness, useEmulator, type Body } from './harness.js';

const lines: string[] = [];
const api = useEmulator({ log: (line) => lines.push(line), maxBodyBytes: 64 * 1024 });
const THREAD = `/groups/${SEED_IDS.groups.release}/threads/${SEED_IDS.threads.review}/reply`;

function expectErrorBody(body: Body, code: string, clientRequestId?: string): void {
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error).toEqual({
    code,
    message: expect.any(String),
    innerError: {
      date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
      'request-id': expect.stringMatching(/^[0-9a-f-]{36}$/),
      'client-request-id': clientRequestId ?? expect.any(String),
    },
  });
}

describe('the service’s error body and headers', () => {
  it('echoes the caller’s client-request-id in the headers and the error body', async () => {
    const id = '5e8f1a2b-0c3d-4e5f-8a9b-0c1d2e3f4a5b';
    const reply = await api.call('GET', '/me/authentication/phoneMethods?$top=1', {
      headers: { 'client-request-id': id },
    });
    expect(reply.status).toBe(400);
    expectErrorBody(reply.body, 'BadRequest', id);
    expect(reply.headers.get('client-request-id')).toBe(id);
    expect(reply.headers.get('request-id')).toBe(reply.body.error.innerError['request-id']);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    const ok = await api.call('GET', '/me/authentication/phoneMethods', { headers: { 'client-request-id': id } });
    expect(ok.headers.get('client-request-id')).toBe(id);
  });

  it('does not echo a client-request-id that is not a plain identifier', async () => {
    const reply = await api.call('GET', '/nowhere', { headers: { 'client-request-id': '<script>alert(1)</script>' } });
    expect(reply.headers.get('client-request-id')).toBe(reply.headers.get('request-id'));
  });

  it('answers unknown routes, versions and methods as the service does', async () => {
    const segment = await api.call('GET', '/me/authentication/passwords');
    expect(segment.status).toBe(400);
    expect(segment.body.error.message).toBe("Resource not found for the segment 'passwords'.");
    const version = await api.call('GET', `${api.emulator.url}/beta/me/authentication/methods`);
    expect(version.status).toBe(400);
    expect(version.body.error.message).toMatch(/Invalid version/);
    const method = await api.call('DELETE', '/me/authentication/methods');
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('GET');
    expectErrorBody(method.body, 'BadRequest');
    expect((await api.call('GET', `${api.emulator.url}/`)).status).toBe(400);
  });

  it('refuses malformed JSON (400), a wrong content type (415), unknown members (400) and an oversized body (413)', async () => {
    const json = { 'Content-Type': 'application/json' };
    const malformed = await api.call('POST', THREAD, { rawBody: '{"post": ', headers: json });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toMatch(/not valid JSON/);
    const wrongType = await api.call('POST', THREAD, { rawBody: '{}', headers: { 'Content-Type': 'text/plain' } });
    expect(wrongType.status).toBe(415);
    expect((await api.call('POST', THREAD, { rawBody: '{}' })).status).toBe(415);
    const unknown = await api.call('POST', THREAD, {
      body: { post: { body: { contentType: 'text', content: 'x' }, importance: 'high' } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe(
      "Property 'importance' does not exist on type 'vendor.graph.post' (at /post).",
    );
    const big = await api.call('POST', THREAD, {
      rawBody: JSON.stringify({ post: { body: { contentType: 'text', content: 'x'.repeat(70_000) } } }),
      headers: json,
    });
    expect(big.status).toBe(413);
    expectErrorBody(big.body, 'RequestEntityTooLarge');
    const empty = await api.call('POST', THREAD, { rawBody: '', headers: json });
    expect(empty.status).toBe(400);
  });

  it('refuses JSON nested deeper than 64 levels without parsing it', async () => {
    const deep = `${'['.repeat(65)}${']'.repeat(65)}`;
    const reply = await api.call('POST', THREAD, {
      rawBody: `{"post":${deep}}`,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error.message).toMatch(/deeper than 64/);
    const inString = await api.call('POST', THREAD, {
      rawBody: JSON.stringify({ post: { body: { contentType: 'text', content: '['.repeat(100) } } }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(inString.status).toBe(202);
  });

  it('treats __proto__, constructor and prototype as ids like Body other, and pollutes nothing', async () => {
    for (const id of ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString']) {
      for (const path of [`/groups/${id}/owners/$ref`, `/teams/${id}/clone`]) {
        const reply = await api.call('POST', path, {
          body: { '@odata.id': `${api.emulator.url}/v1.0/users/${id}`, displayName: 'x', partsToClone: 'apps' },
        });
        expect([400, 404], `${path}: ${reply.text}`).toContain(reply.status);
      }
      expect((await api.call('GET', `/users/${id}/authentication/methods`)).status, id).toBe(404);
      expect(
        (await api.call('GET', `/identityGovernance/entitlementManagement/assignmentRequests/${id}`)).status,
        id,
      ).toBe(404);
    }
    const polluting = await api.call('POST', THREAD, {
      rawBody: '{"__proto__":{"polluted":true},"post":{"body":{"contentType":"text","content":"x"}}}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(polluting.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses an oversized path parameter or query string', async () => {
    expect((await api.call('GET', `/users/${'a'.repeat(2000)}/authentication/methods`)).status).toBe(400);
    expect((await api.call('GET', `/policies/homeRealmDiscoveryPolicies?$select=${'a'.repeat(10_000)}`)).status).toBe(
      400,
    );
  });

  it('logs one line per request with method, path, status, time and request-id, and never a token', async () => {
    const token = await api.token();
    const reply = await api.call('GET', '/me/authentication/methods', { token });
    const line = lines.find((l) => l.includes(reply.headers.get('request-id')!));
    expect(line).toMatch(/^GET \/v1\.0\/me\/authentication\/methods 200 \d+\.\dms request-id=[0-9a-f-]{36}$/);
    expect(lines.join('\n')).not.toContain(token.split('.')[2]);
  });
});

describe('the Authorization header', () => {
  it('takes the Bearer scheme in any case, and refuses other schemes or a malformed value', async () => {
    const token = await api.token();
    const headers = (value: string) => ({ token: null, headers: { Authorization: value } });
    expect((await api.call('GET', '/me/authentication/methods', headers(`bearer ${token}`))).status).toBe(200);
    expect((await api.call('GET', '/me/authentication/methods', headers(`Bearer   ${token}  `))).status).toBe(200);
    for (const value of [`Basic ${token}`, 'Bearer', 'Bearer ', `Bearer ${token} extra`, token]) {
      const reply = await api.call('GET', '/me/authentication/methods', headers(value));
      expect(reply.status, value.slice(0, 20)).toBe(401);
      expect(reply.body.error.code).toBe('InvalidAuthenticationToken');
    }
  });

  it('checks every header afresh between requests that repeat a good one', async () => {
    const token = await api.token();
    const good = { token: null, headers: { Authorization: `Bearer ${token}` } };
    const refusals: [Record<string, string>, string][] = [
      [{}, 'Access token is empty.'],
      [{ Authorization: '' }, 'Access token is empty.'],
      [{ Authorization: `Basic ${token}` }, 'The Authorization header must be "Bearer <access token>".'],
      [{ Authorization: `Bearer ${token}\tx` }, 'The Authorization header must be "Bearer <access token>".'],
      [{ Authorization: `Bearer ${token}x` }, 'Access token validation failure: invalid signature.'],
    ];
    for (const [headers, message] of refusals) {
      expect((await api.call('GET', '/me/authentication/methods', good)).status).toBe(200);
      const reply = await api.call('GET', '/me/authentication/methods', { token: null, headers });
      expect(reply.status).toBe(401);
      expect(reply.body.error.message).toBe(message);
    }
  });
});

describe('slow clients', () => {
  it('times out a request that is never completed (408) and keeps serving others', async () => {
    const slow = new Harness({ requestTimeoutMs: 300 });
    await slow.start();
    try {
      const { port } = new URL(slow.emulator.url);
      const token = await slow.token();
      const answer = await new Promise<string>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(
            `POST /v1.0/teams/x/clone HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"displ`,
          );
        });
        let data = '';
        socket.on('data', (chunk) => (data += chunk.toString()));
        socket.on('close', () => resolve(data));
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      expect((await slow.call('GET', '/me/authentication/methods')).status).toBe(200);
    } finally {
      await slow.emulator.close();
    }
  });
});

describe('throttling and latency', () => {
  it('answers 429 TooManyRequests with Retry-After in whole seconds (RFC 9110), refuses again until the window ends', async () => {
    const throttled = new Harness({ throttle: { rate: 1, retryAfterSeconds: 2.4 } });
    await throttled.start();
    try {
      const first = await throttled.call('GET', '/me/authentication/methods');
      expect(first.status).toBe(429);
      expectErrorBody(first.body, 'TooManyRequests');
      // Rounded up: a client that waits what it says is never refused again for waiting too little.
      expect(first.headers.get('retry-after')).toBe('3');
      const again = await throttled.call('GET', '/me/authentication/methods');
      expect(again.status).toBe(429);
      expect(again.headers.get('retry-after')).toMatch(/^[1-3]$/);
    } finally {
      await throttled.emulator.close();
    }
    const none = new Harness({ throttle: { rate: 0 } });
    await none.start();
    try {
      for (let i = 0; i < 20; i++) expect((await none.call('GET', '/me/authentication/methods')).status).toBe(200);
    } finally {
      await none.emulator.close();
    }
  });

  it('serves a request after its throttling window has passed', async () => {
    const throttled = new Harness({ throttle: { rate: 0.5, retryAfterSeconds: 0.05 } });
    await throttled.start();
    try {
      let served = 0;
      let refused = 0;
      for (let i = 0; i < 40; i++) {
        const reply = await throttled.call('GET', '/me/authentication/methods');
        if (reply.status === 200) served++;
        else {
          refused++;
          // The window is 50 ms; its Retry-After says 1 s, the least whole number of seconds that covers it.
          expect(reply.headers.get('retry-after')).toBe('1');
          await new Promise((resolve) => setTimeout(resolve, 55));
        }
      }
      expect(served).toBeGreaterThan(5);
      expect(refused).toBeGreaterThan(5);
    } finally {
      await throttled.emulator.close();
    }
  });

  it('adds the latency asked for', async () => {
    const slow = new Harness({ latencyMs: [120, 150] });
    await slow.start();
    try {
      const started = performance.now();
      expect((await slow.call('GET', '/me/authentication/methods')).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(115);
    } finally {
      await slow.emulator.close();
    }
  });
});
