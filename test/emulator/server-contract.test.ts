/**
 * The emulator's transport as the service's contract describes it (spec: Errors, Limits): every refusal with its
 * status, code and exact message; the body limits at their edges, however the body arrives; the response framing;
 * the request log; the emulator's own routes; throttling windows per caller and workload; latency, timeouts and
 * shutdown.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SEED, SEED_IDS, startEmulator } from '../../src/emulator/index.js';
import { Harness, useEmulator, type Body } from './harness.js';
import { BUILDING, LEVEL, SAMPLES } from './samples.js';

const lines: string[] = [];
const LIMIT = 200;
const api = useEmulator({ log: (line) => lines.push(line), maxBodyBytes: LIMIT, requestTimeoutMs: 10_000 });

const THREAD = `/groups/${SEED_IDS.groups.release}/threads/${SEED_IDS.threads.review}/reply`;
const JSON_HEADERS = { 'Content-Type': 'application/json' };
const FIXTURES = `/places/${BUILDING}/vendor.graph.building/map/levels/${LEVEL}/fixtures`;

/** A thread reply of exactly `bytes` bytes of JSON. */
function replyOfSize(bytes: number): string {
  const frame = JSON.stringify({ post: { body: { contentType: 'text', content: '' } } });
  return JSON.stringify({ post: { body: { contentType: 'text', content: 'x'.repeat(bytes - frame.length) } } });
}

function expectFault(reply: { status: number; body: Body }, status: number, code: string, message: string): void {
  expect(reply.status).toBe(status);
  expect(reply.body.error.code).toBe(code);
  expect(reply.body.error.message).toBe(message);
}

interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Body;
}

/** A request through node:http, so a body can be chunked (no Content-Length) or sent with any method. */
function nodeRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  chunks: readonly string[],
): Promise<RawReply> {
  const url = new URL(`/v1.0${path}`, base);
  return new Promise((resolve, reject) => {
    // Node frames a GET or DELETE body only when told to.
    const framing =
      chunks.length > 0 && headers['Content-Length'] === undefined ? { 'Transfer-Encoding': 'chunked' } : {};
    const req = httpRequest(url, { method, headers: { ...headers, ...framing }, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) }),
      );
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

/** Bytes written as is on a fresh connection; resolves with the answer once the server closes it. */
function rawExchange(base: string, bytes: string | Buffer): Promise<{ text: string; ms: number }> {
  const { port } = new URL(base);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve({ text, ms: performance.now() - started }));
  });
}

function rawBody(text: string): Body {
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
}

describe('routing refusals', () => {
  it('names the version it does not serve, cut to 40 characters, with BadRequest', async () => {
    expectFault(
      await api.call('GET', `${api.emulator.url}/beta/me/authentication/methods`),
      400,
      'BadRequest',
      "Invalid version: 'beta'. The emulator serves v1.0.",
    );
    expectFault(
      await api.call('GET', `${api.emulator.url}/`),
      400,
      'BadRequest',
      "Invalid version: ''. The emulator serves v1.0.",
    );
    const long = 'v'.repeat(60);
    expect((await api.call('GET', `${api.emulator.url}/${long}/me`)).body.error.message).toBe(
      `Invalid version: '${'v'.repeat(40)}'. The emulator serves v1.0.`,
    );
  });

  it('names the last segment of an unknown path, percent-decoded when it can be and cut to 100 characters', async () => {
    const message = async (path: string): Promise<string> => {
      const reply = await api.call('GET', `${api.emulator.url}/v1.0${path}`);
      expect(reply.status, path).toBe(400);
      expect(reply.body.error.code, path).toBe('BadRequest');
      return reply.body.error.message as string;
    };
    expect(await message('/me/authentication/passwords/')).toBe("Resource not found for the segment 'passwords'.");
    expect(await message('/me/authentication/pass%77ords')).toBe("Resource not found for the segment 'passwords'.");
    expect(await message('/me/bad%E0%A4%A')).toBe("Resource not found for the segment 'bad%E0%A4%A'.");
    expect(await message('')).toBe("Resource not found for the segment ''.");
    expect(await message('/')).toBe("Resource not found for the segment ''.");
    expect(await message(`/me/${'s'.repeat(150)}`)).toBe(`Resource not found for the segment '${'s'.repeat(100)}'.`);
  });

  it('answers a method the path does not take with 405, the method (cut to 10) and every allowed one', async () => {
    const post = await api.call('POST', '/me/messages/AAMkAGMsgAdele0004', { body: {} });
    expectFault(post, 405, 'BadRequest', "The HTTP method 'POST' is not allowed for this resource.");
    expect(post.headers.get('allow')).toBe('GET, PATCH, DELETE');
    const long = await api.call('UNSUBSCRIBE', '/me/authentication/methods');
    expectFault(long, 405, 'BadRequest', "The HTTP method 'UNSUBSCRIB' is not allowed for this resource.");
    expect(long.headers.get('allow')).toBe('GET');
  });

  it('refuses a path parameter that is not valid percent-encoding or longer than 1024 characters, naming it', async () => {
    expectFault(
      await api.call('GET', '/users/%E0%A4%A/authentication/methods'),
      400,
      'BadRequest',
      'Path parameter user is not valid percent-encoding.',
    );
    expectFault(
      await api.call('GET', `/users/${'a'.repeat(1025)}/authentication/methods`),
      400,
      'BadRequest',
      'Path parameter user is longer than 1024 characters.',
    );
    expect((await api.call('GET', `/users/${'a'.repeat(1024)}/authentication/methods`)).status).toBe(404);
  });
});

describe('routes seen before', () => {
  const phoneMethods = (user: string) => `/users/${user}/authentication/phoneMethods`;
  const contextOf = async (path: string): Promise<string> => {
    const reply = await api.call('GET', path);
    expect(reply.status, path).toBe(200);
    return reply.body['@odata.context'] as string;
  };

  it('answers a path the same every time, whatever other paths and methods came between', async () => {
    const { adele, megan } = SEED_IDS.users;
    const first = await contextOf(phoneMethods(megan));
    expect(first).toContain(`users('${megan}')`);
    // The same template with another parameter: nothing of the first match is reused.
    expect(await contextOf(phoneMethods(adele))).toContain(`users('${adele}')`);
    expect((await api.call('POST', phoneMethods(megan), { body: {} })).status).toBe(405);
    expect(await contextOf(phoneMethods(megan))).toBe(first);
    for (let round = 0; round < 2; round++) {
      expect((await api.call('GET', '/users/%E0%A4%A/authentication/methods')).body.error.message).toBe(
        'Path parameter user is not valid percent-encoding.',
      );
      expect((await api.call('GET', `/users/${'a'.repeat(1025)}/authentication/methods`)).status).toBe(400);
      expect((await api.call('GET', `/users/${'b'.repeat(1024)}/authentication/methods`)).status).toBe(404);
      expect((await api.call('GET', `${api.emulator.url}/beta/me`)).body.error.message).toBe(
        "Invalid version: 'beta'. The emulator serves v1.0.",
      );
    }
  });

  it('still answers every path right after more distinct paths than it keeps', async () => {
    const { megan } = SEED_IDS.users;
    const before = await contextOf(phoneMethods(megan));
    for (let batch = 0; batch < 22; batch++)
      await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const reply = await api.call('GET', phoneMethods(`nobody-${batch}-${i}`));
          expect(reply.status).toBe(404);
        }),
      );
    expect(await contextOf(phoneMethods(megan))).toBe(before);
    expect((await api.call('GET', phoneMethods('nobody-0-0'))).status).toBe(404);
  });
});

describe('query options', () => {
  it('refuses an option the operation does not take, listing those it does', async () => {
    expectFault(
      await api.call('GET', '/me/authentication/phoneMethods?$top=1'),
      400,
      'BadRequest',
      "Query option '$top' is not supported: listPhoneMethods takes no query options.",
    );
    expectFault(
      await api.call('GET', `/groups/${SEED_IDS.groups.release}?$top=1`),
      400,
      'BadRequest',
      "Query option '$top' is not supported by getGroup; supported: $select.",
    );
    expectFault(
      await api.call('GET', '/policies/homeRealmDiscoveryPolicies?$skip=1'),
      400,
      'BadRequest',
      "Query option '$skip' is not supported by listHomeRealmDiscoveryPolicies; supported: $expand, $filter, $select, $top.",
    );
    const name = `$${'n'.repeat(59)}`;
    expect((await api.call('GET', `/me/authentication/phoneMethods?${name}=1`)).body.error.message).toBe(
      `Query option '${name.slice(0, 40)}' is not supported: listPhoneMethods takes no query options.`,
    );
    expect((await api.call('GET', `/groups/${SEED_IDS.groups.release}?${name}=1`)).body.error.message).toBe(
      `Query option '${name.slice(0, 40)}' is not supported by getGroup; supported: $select.`,
    );
  });

  it('takes option names in any case, and refuses one given twice in any spelling', async () => {
    const group = await api.call('GET', `/groups/${SEED_IDS.groups.release}?$SELECT=displayName`);
    expect(group.status).toBe(200);
    expect(
      Object.keys(group.body)
        .filter((key) => !key.startsWith('@'))
        .sort(),
    ).toEqual(['displayName', 'id']);
    for (const query of ['$select=id&$select=id', '$SELECT=id&$select=displayName'])
      expectFault(
        await api.call('GET', `/groups/${SEED_IDS.groups.release}?${query}`),
        400,
        'BadRequest',
        "Query option '$select' was given more than once.",
      );
  });

  it('reads a query string of 8192 characters and refuses one of 8193', async () => {
    const filter = '$filter=isOrganizationDefault+eq+true';
    const fits = await api.call('GET', `/policies/homeRealmDiscoveryPolicies?${filter.padEnd(8192, '+')}`);
    expect(fits.status).toBe(200);
    expectFault(
      await api.call('GET', `/policies/homeRealmDiscoveryPolicies?${filter.padEnd(8193, '+')}`),
      400,
      'BadRequest',
      'The query string is longer than 8192 characters.',
    );
  });
});

describe('request bodies', () => {
  it(`takes a body of exactly maxBodyBytes and refuses one byte more (413, naming the limit)`, async () => {
    expect((await api.call('POST', THREAD, { rawBody: replyOfSize(LIMIT), headers: JSON_HEADERS })).status).toBe(202);
    expectFault(
      await api.call('POST', THREAD, { rawBody: replyOfSize(LIMIT + 1), headers: JSON_HEADERS }),
      413,
      'RequestEntityTooLarge',
      `The request body is larger than ${LIMIT} bytes.`,
    );
  });

  it('refuses a declared length over the limit at once, without waiting for the body', async () => {
    const token = await api.token();
    const { text } = await rawExchange(
      api.emulator.url,
      `POST /v1.0${THREAD} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${LIMIT + 1}\r\n\r\n{`,
    );
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    // The body never comes: a server that waited for it would answer 408 at its request timeout, not 413.
    expect(rawBody(text).error.message).toBe(`The request body is larger than ${LIMIT} bytes.`);
  });

  it('reads a chunked body (no Content-Length) and counts it against the limit as it arrives', async () => {
    const headers = { Authorization: `Bearer ${await api.token()}`, 'Content-Type': 'application/json' };
    const small = replyOfSize(LIMIT);
    const ok = await nodeRequest(api.emulator.url, 'POST', THREAD, headers, [small.slice(0, 50), small.slice(50)]);
    expect(ok.status).toBe(202);
    const big = replyOfSize(LIMIT + 1);
    const refused = await nodeRequest(api.emulator.url, 'POST', THREAD, headers, [big.slice(0, 150), big.slice(150)]);
    expect(refused.status).toBe(413);
    expect(refused.body.error.message).toBe(`The request body is larger than ${LIMIT} bytes.`);
  });

  it('ignores a body sent to an operation that takes none, but still holds it to the limit', async () => {
    const headers = { Authorization: `Bearer ${await api.token()}` };
    const path = '/me/authentication/methods';
    expect((await nodeRequest(api.emulator.url, 'GET', path, headers, ['{"ignored":true}'])).status).toBe(200);
    const declared = await nodeRequest(
      api.emulator.url,
      'GET',
      path,
      { ...headers, 'Content-Length': String(LIMIT + 1) },
      ['x'.repeat(LIMIT + 1)],
    );
    expectFault(declared, 413, 'RequestEntityTooLarge', `The request body is larger than ${LIMIT} bytes.`);
    const chunked = await nodeRequest(api.emulator.url, 'GET', path, headers, ['x'.repeat(150), 'x'.repeat(100)]);
    expectFault(chunked, 413, 'RequestEntityTooLarge', `The request body is larger than ${LIMIT} bytes.`);
  });

  it('needs application/json (any case, with parameters), naming what came instead (cut to 60 characters)', async () => {
    const body = replyOfSize(80);
    const type = async (contentType: string) =>
      api.call('POST', THREAD, { rawBody: body, headers: { 'Content-Type': contentType } });
    expect((await type('Application/JSON; charset=utf-8')).status).toBe(202);
    expect((await type('application/json ;odata.metadata=minimal')).status).toBe(202);
    for (const refused of ['text/plain', 'application/jsonp', 'text/application/json', 'application/json-patch+json'])
      expectFault(
        await type(refused),
        415,
        'UnsupportedMediaType',
        `A request body must be sent as application/json; got '${refused}'.`,
      );
    const long = `application/x-${'y'.repeat(80)}`;
    expect((await type(long)).body.error.message).toBe(
      `A request body must be sent as application/json; got '${long.slice(0, 60)}'.`,
    );
  });

  it('says when a body came without a Content-Type, or with none at all', async () => {
    const token = await api.token();
    const post = (headers: string) =>
      rawExchange(
        api.emulator.url,
        `POST /v1.0${THREAD} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${token}\r\n${headers}\r\n`,
      );
    const untyped = await post('');
    expect(untyped.text).toMatch(/^HTTP\/1\.1 415 /);
    expect(rawBody(untyped.text).error.message).toBe(
      'A request body must be sent as application/json; got no Content-Type.',
    );
    const empty = await post('Content-Type: application/json\r\n');
    expect(empty.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(rawBody(empty.text).error.message).toBe('replyToThread needs a request body.');
    expectFault(
      await api.call('POST', THREAD, { rawBody: '', headers: JSON_HEADERS }),
      400,
      'BadRequest',
      'replyToThread needs a request body.',
    );
    expectFault(
      await api.call('POST', THREAD, { rawBody: '{"post": ', headers: JSON_HEADERS }),
      400,
      'BadRequest',
      'The request body is not valid JSON.',
    );
  });

  it('takes JSON nested 64 levels deep and refuses 65, objects and arrays alike, before parsing', async () => {
    const owners = `/groups/${SEED_IDS.groups.release}/owners/$ref`;
    const nested = (open: string, close: string, levels: number) => `${open.repeat(levels)}1${close.repeat(levels)}`;
    const objects = (levels: number) => `{"@odata.id":${nested('{"a":', '}', levels - 1)}}`;
    const deep = await new Harness({ maxBodyBytes: 4096 });
    await deep.start();
    try {
      const call = (rawBody: string) => deep.call('POST', owners, { rawBody, headers: JSON_HEADERS });
      expectFault(await call(objects(64)), 400, 'BadRequest', 'Invalid value at /@odata.id: must be string.');
      const message = 'The request body is nested deeper than 64 levels.';
      expectFault(await call(objects(65)), 400, 'BadRequest', message);
      expectFault(
        await call(`{"@odata.id":${nested('[', ']', 63)}}`),
        400,
        'BadRequest',
        'Invalid value at /@odata.id: must be string.',
      );
      expectFault(await call(`{"@odata.id":${nested('[', ']', 64)}}`), 400, 'BadRequest', message);
      // Depth is nesting, not a count of brackets: 70 siblings are one level.
      for (const sibling of ['[]', '{}'])
        expectFault(
          await call(`{"@odata.id":"x","a":[${`${sibling},`.repeat(70)}${sibling}]}`),
          400,
          'BadRequest',
          "Property 'a' does not exist on type 'vendor.graph.directoryObject' (at the body).",
        );
      // Brackets inside strings (also after an escaped quote) are text, not nesting.
      expectFault(
        await call(JSON.stringify({ '@odata.id': `\\"${'['.repeat(100)}`, [`"${'{'.repeat(100)}`]: 1 })),
        400,
        'BadRequest',
        `Property '"${'{'.repeat(100)}' does not exist on type 'vendor.graph.directoryObject' (at the body).`,
      );
    } finally {
      await deep.emulator.close();
    }
  });

  it('says which property is missing, unknown or of the wrong kind, and where', async () => {
    const owners = `/groups/${SEED_IDS.groups.release}/owners/$ref`;
    expectFault(
      await api.call('POST', owners, { body: {} }),
      400,
      'BadRequest',
      "Missing required property '@odata.id' on type 'vendor.graph.directoryObject' (at the body).",
    );
    expectFault(
      await api.call('POST', owners, { body: { '@odata.id': 'x', extra: 1 } }),
      400,
      'BadRequest',
      "Property 'extra' does not exist on type 'vendor.graph.directoryObject' (at the body).",
    );
    expectFault(
      await api.call('POST', owners, { body: { '@odata.id': 5 } }),
      400,
      'BadRequest',
      'Invalid value at /@odata.id: must be string.',
    );
    expectFault(
      await api.call('POST', THREAD, { body: { post: { body: { contentType: 'text' } } } }),
      400,
      'BadRequest',
      "Missing required property 'content' on type 'vendor.graph.post' (at /post/body).",
    );
  });
});

describe('response framing and the request log', () => {
  it('sends a JSON body with its type and exact length, and no body, type or length where there is none', async () => {
    const json = await api.call('GET', '/me/authentication/methods');
    expect(json.headers.get('content-type')).toBe(
      'application/json; odata.metadata=minimal; odata.streaming=true; IEEE754Compatible=false; charset=utf-8',
    );
    expect(json.headers.get('content-length')).toBe(String(Buffer.byteLength(json.text)));
    expect(json.headers.get('odata-version')).toBe('4.0');
    const accepted = await api.call('POST', THREAD, { rawBody: replyOfSize(60), headers: JSON_HEADERS });
    expect(accepted.status).toBe(202);
    expect(accepted.text).toBe('');
    expect(accepted.headers.get('content-type')).toBeNull();
    expect(accepted.headers.get('content-length')).toBe('0');
    const sample = SAMPLES.deleteAssignmentPolicy!;
    const none = await api.call(sample.method, sample.path);
    expect(none.status).toBe(204);
    expect(none.headers.get('content-type')).toBeNull();
    expect(none.headers.get('content-length')).toBeNull();
  });

  it('builds links from the Host the request came with, or its own address when that is missing or not a host', async () => {
    const token = await api.token();
    const context = async (request: string): Promise<string> => {
      const { text } = await rawExchange(
        api.emulator.url,
        `GET /v1.0/groups/${SEED_IDS.groups.release} ${request}Authorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
      );
      expect(text, request).toMatch(/^HTTP\/1\.1 200 /);
      return rawBody(text)['@odata.context'] as string;
    };
    const own = `${api.emulator.url}/v1.0/$metadata#groups/$entity`;
    expect(await context('HTTP/1.1\r\nHost: localhost:1234\r\n')).toBe(
      'http://localhost:1234/v1.0/$metadata#groups/$entity',
    );
    expect(await context('HTTP/1.0\r\n')).toBe(own);
    expect(await context('HTTP/1.1\r\nHost: evil.example/x\r\n')).toBe(own);
  });

  it('logs the path cut to 300 characters', async () => {
    const path = `/v1.0/me/${'p'.repeat(400)}`;
    const reply = await api.call('GET', `${api.emulator.url}${path}`);
    const line = lines.find((l) => l.includes(reply.headers.get('request-id')!));
    expect(line).toMatch(/^GET \/v1\.0\/me\/p+ 400 \d+\.\dms request-id=[0-9a-f-]{36}$/);
    expect(line!.split(' ')[1]).toBe(path.slice(0, 300));
  });
});

const JSON_TYPE = { 'Content-Type': 'application/json' };

describe("the emulator's own routes", () => {
  const admin = (method: string, path: string, rawBody?: string, headers: Record<string, string> = JSON_TYPE) =>
    api.call(method, `${api.emulator.url}/_emulator/${path}`, { token: null, rawBody, headers });
  const payload = (token: string): Record<string, unknown> =>
    JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

  it('reports health', async () => {
    const health = await admin('GET', 'health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok', tenantId: SEED_IDS.tenant });
  });

  it('mints a token for the default user from an empty body, and for the user a JSON body names', async () => {
    const empty = await admin('POST', 'token', '');
    expect(empty.status).toBe(200);
    expect(payload(empty.body.access_token).oid).toBe(SEED_IDS.users.adele);
    const megan = await admin('POST', 'token', JSON.stringify({ user: 'megan@contoso.example' }));
    expect(megan.status).toBe(200);
    expect(payload(megan.body.access_token).oid).toBe(SEED_IDS.users.megan);
  });

  it('refuses malformed JSON, a body over 64 KiB (naming that limit) and unknown routes', async () => {
    expectFault(await admin('POST', 'token', '{"user":'), 400, 'BadRequest', 'The request body is not valid JSON.');
    const padded = JSON.stringify({ user: 'megan@contoso.example', pad: '' });
    const fits = await admin('POST', 'token', `${padded}${' '.repeat(64 * 1024 - padded.length)}`);
    expectFault(fits, 400, 'BadRequest', "Unknown token option 'pad'.");
    expectFault(
      await admin('POST', 'token', `${padded}${' '.repeat(64 * 1024 - padded.length + 1)}`),
      413,
      'RequestEntityTooLarge',
      'The request body is larger than 65536 bytes.',
    );
    expectFault(await admin('GET', 'nope'), 404, 'NotFound', 'No emulator route GET /_emulator/nope.');
    expectFault(await admin('GET', 'token'), 404, 'NotFound', 'No emulator route GET /_emulator/token.');
    const long = `/_emulator/${'z'.repeat(200)}`;
    expect((await admin('DELETE', long.slice('/_emulator/'.length))).body.error.message).toBe(
      `No emulator route DELETE ${long.slice(0, 100)}.`,
    );
  });
});

describe('throttling windows', () => {
  let throttled: Harness | undefined;
  afterEach(async () => {
    await throttled?.emulator.close();
    throttled = undefined;
  });

  it('keeps one window per caller and workload, refusing inside it whatever the draw', async () => {
    const draws: number[] = [];
    // A second application the tenant knows (a token is minted only for an app it has a service principal for).
    const seed = structuredClone(DEFAULT_SEED) as unknown as { servicePrincipals: Record<string, unknown>[] };
    seed.servicePrincipals.push({
      id: 'c0ffee00-0000-4000-8000-0000000000aa',
      appId: 'c0ffee00-0000-4000-8000-000000000002',
      displayName: 'Second App',
    });
    throttled = new Harness({
      seed,
      throttle: { rate: 0.5, retryAfterSeconds: 2, random: () => draws.shift() ?? 0.9 },
    });
    await throttled.start();
    const t = throttled;
    const U = SEED_IDS.users;
    const as = async (token: string, path: string, draw?: number) => {
      if (draw !== undefined) draws.push(draw);
      return t.call('GET', path, { token });
    };
    const adele = await t.token();
    const megan = await t.token({ user: 'megan@contoso.example' });
    const app1 = await t.token({ app: SEED_IDS.app });
    const app2 = await t.token({ app: 'c0ffee00-0000-4000-8000-000000000002' });

    const first = await as(adele, `/users/${U.adele}/authentication/methods`, 0.1);
    expectFault(first, 429, 'TooManyRequests', 'Too many requests; retry after the time in the Retry-After header.');
    expect(first.headers.get('retry-after')).toBe('2');
    // Same caller, same workload, another path: still inside the window, and no draw is taken.
    const again = await as(adele, `/users/${U.adele}/authentication/phoneMethods`);
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toMatch(/^[12]$/);
    expect(draws).toEqual([]);
    // Another user, another application: their own windows.
    expect((await as(megan, `/users/${U.megan}/authentication/methods`, 0.9)).status).toBe(200);
    expect((await as(app1, `/users/${U.megan}/authentication/methods`, 0.1)).status).toBe(429);
    expect((await as(app2, `/users/${U.megan}/authentication/methods`, 0.9)).status).toBe(200);
    // The same user on another workload (both first segments start with "p").
    expect((await as(adele, FIXTURES, 0.1)).status).toBe(429);
    expect((await as(adele, '/policies/homeRealmDiscoveryPolicies', 0.9)).status).toBe(200);
    // A draw equal to the rate is served.
    expect((await as(megan, `/users/${U.megan}/authentication/methods`, 0.5)).status).toBe(200);
    expect(draws).toEqual([]);
  });

  it('draws nothing and refuses nothing at rate 0', async () => {
    const random = vi.fn(() => -1);
    throttled = new Harness({ throttle: { rate: 0, random } });
    await throttled.start();
    for (let i = 0; i < 3; i++) expect((await throttled.call('GET', '/me/authentication/methods')).status).toBe(200);
    expect(random).not.toHaveBeenCalled();
  });

  it('says Retry-After in whole seconds rounded up, never below 1', async () => {
    for (const [seconds, header] of [
      [0.0004, '1'],
      [1, '1'],
      [1.001, '2'],
      [2, '2'],
    ] as const) {
      throttled = new Harness({ throttle: { rate: 1, retryAfterSeconds: seconds } });
      await throttled.start();
      expect((await throttled.call('GET', '/me/authentication/methods')).headers.get('retry-after')).toBe(header);
      await throttled.emulator.close();
      throttled = undefined;
    }
  });
});

describe('latency, timeouts and shutdown', () => {
  afterEach(() => vi.restoreAllMocks());

  it('waits min + draw × (max − min) milliseconds', async () => {
    const logged: string[] = [];
    const slow = new Harness({ latencyMs: [1000, 1100], log: (line) => logged.push(line) });
    await slow.start();
    try {
      await slow.token();
      vi.spyOn(Math, 'random').mockReturnValue(0.999);
      const started = performance.now();
      expect((await slow.call('GET', '/me/authentication/methods')).status).toBe(200);
      const elapsed = performance.now() - started;
      // 1099.9 ms: not the minimum, nor min + draw × (max + min) = 3099 ms.
      expect(elapsed).toBeGreaterThanOrEqual(1_095);
      expect(elapsed).toBeLessThan(2_500);
      // The logged time is the request's own, latency included, in milliseconds.
      await vi.waitFor(() => expect(logged).toHaveLength(1));
      const ms = Number(/ (\d+\.\d)ms /.exec(logged[0]!)![1]);
      expect(ms).toBeGreaterThanOrEqual(1_095);
      expect(ms).toBeLessThan(2_500);
    } finally {
      vi.restoreAllMocks();
      await slow.emulator.close();
    }
  });

  it('answers 408 soon after requestTimeoutMs, not at the next 30-second check', async () => {
    const slow = new Harness({ requestTimeoutMs: 300 });
    await slow.start();
    try {
      const token = await slow.token();
      const { text, ms } = await rawExchange(
        slow.emulator.url,
        `POST /v1.0/teams/x/clone HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"displ`,
      );
      expect(text).toMatch(/^HTTP\/1\.1 408/);
      expect(ms).toBeGreaterThanOrEqual(290);
      // Wide enough for a busy two-core machine; the checking period's 30 s default would be far past it.
      expect(ms).toBeLessThan(1_500);
    } finally {
      await slow.emulator.close();
    }
  });

  it('lets a request in flight finish on close, then releases the port promptly', async () => {
    const slow = new Harness({ latencyMs: 300 });
    await slow.start();
    await slow.token();
    const reply = slow.call('GET', '/me/authentication/methods');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    await slow.emulator.close();
    expect(performance.now() - started).toBeLessThan(3_000);
    expect((await reply).status).toBe(200);
    await expect(fetch(`${slow.emulator.url}/_emulator/health`)).rejects.toThrow();
  });

  it('refuses to start on a port in use, naming it', async () => {
    const port = Number(new URL(api.emulator.url).port);
    await expect(startEmulator({ port })).rejects.toThrow(`Cannot listen on 127.0.0.1:${port}: EADDRINUSE`);
  });

  it('gives an IPv6 address in brackets in its URL', async () => {
    const v6 = await startEmulator({ host: '::1' });
    try {
      expect(v6.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
      expect((await fetch(`${v6.url}/_emulator/health`)).status).toBe(200);
    } finally {
      await v6.close();
    }
  });
});
