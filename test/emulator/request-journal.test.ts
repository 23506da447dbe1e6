/** The request journal: `emulator.requests()`, `clearRequests()` and `GET|DELETE /_emulator/requests`. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { SEED_IDS, startEmulator } from '../../src/emulator/index.js';
import { keptBody, queryObject, RequestJournal, type RawRequest } from '../../src/emulator/requests.js';
import { useEmulator } from './harness.js';

const api = useEmulator();
const U = SEED_IDS.users;

describe('the request journal, through the library', () => {
  it('keeps method, path, decoded query, body, status, time, operation and caller (never the token), newest last', async () => {
    api.emulator.clearRequests();
    const token = await api.token();
    const before = Date.now();
    await api.call('GET', `/users/${U.megan}/authentication/phoneMethods`);
    await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: 'journal: hello' } });
    await api.call('GET', '/me/mailFolders/inbox/messages/delta?$select=subject&$top=2');
    const requests = api.emulator.requests();
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `GET /v1.0/users/${U.megan}/authentication/phoneMethods 200`,
      'POST /v1.0/me/mailFolders/inbox/messages 201',
      'GET /v1.0/me/mailFolders/inbox/messages/delta 200',
    ]);
    const [first, post, delta] = requests as [(typeof requests)[0], (typeof requests)[0], (typeof requests)[0]];
    expect(first.caller).toEqual({ kind: 'user', id: U.adele, userPrincipalName: 'adele@contoso.example' });
    expect(first.operation).toBe('listPhoneMethods');
    expect(first.body).toBeUndefined();
    expect(post.body).toEqual({ subject: 'journal: hello' });
    expect(delta.query).toEqual({ $select: 'subject', $top: '2' });
    expect(post.seq).toBe(first.seq + 1);
    expect(Date.parse(first.time)).toBeGreaterThanOrEqual(before - 1000);
    expect(first.durationMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(requests)).not.toContain(token);
    expect(JSON.stringify(requests)).not.toContain(token.split('.')[2]);
  });

  it('filters by method, by path with or without /v1.0, by a regular expression and by operation', async () => {
    api.emulator.clearRequests();
    await api.call('GET', '/me/authentication/phoneMethods');
    await api.call('GET', '/me/authentication/methods');
    await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: 'filter' } });
    const e = api.emulator;
    expect(e.requests({ method: 'post' }).map((r) => r.operation)).toEqual(['createMessage']);
    expect(e.requests({ method: 'GET' })).toHaveLength(2);
    expect(e.requests({ path: '/me/authentication/methods' }).map((r) => r.operation)).toEqual([
      'listAuthenticationMethods',
    ]);
    expect(e.requests({ path: '/v1.0/me/authentication/methods' })).toHaveLength(1);
    expect(e.requests({ path: '/me/authentication' })).toHaveLength(0);
    expect(e.requests({ path: /\/authentication\//g })).toHaveLength(2);
    // A global regular expression keeps no state between entries.
    expect(e.requests({ path: /\/authentication\//g })).toHaveLength(2);
    expect(e.requests({ operation: 'listPhoneMethods', method: 'GET' })).toHaveLength(1);
    expect(e.requests({ operation: 'listPhoneMethods', method: 'POST' })).toHaveLength(0);
  });

  it('records refusals too: no caller without a valid token, the caller and operation on a 403, no operation for an unknown path', async () => {
    api.emulator.clearRequests();
    await api.call('GET', '/me/authentication/phoneMethods', { token: null });
    await api.call('GET', '/me/authentication/phoneMethods', { token: await api.token({ scopes: ['User.Read'] }) });
    await api.call('GET', '/nowhere');
    const [anonymous, refused, unknown] = api.emulator.requests();
    expect(anonymous).toMatchObject({ status: 401, operation: 'listPhoneMethods' });
    expect(anonymous!.caller).toBeUndefined();
    expect(refused).toMatchObject({ status: 403, caller: { kind: 'user', id: U.adele } });
    expect(unknown).toMatchObject({ status: 400, path: '/v1.0/nowhere' });
    expect(unknown!.operation).toBeUndefined();
  });

  it('names an application caller by its app id', async () => {
    api.emulator.clearRequests();
    const app = await api.token({ app: SEED_IDS.app, roles: ['UserAuthenticationMethod.Read.All'] });
    await api.call('GET', `/users/${U.megan}/authentication/phoneMethods`, { token: app });
    expect(api.emulator.requests()[0]!.caller).toEqual({ kind: 'app', appId: SEED_IDS.app });
  });

  it('keeps a body that is not JSON as its text, and leaves out the emulator’s own routes', async () => {
    api.emulator.clearRequests();
    await api.call('POST', '/me/mailFolders/inbox/messages', {
      rawBody: '{not json',
      headers: { 'Content-Type': 'application/json' },
    });
    await fetch(`${api.emulator.url}/_emulator/health`);
    const requests = api.emulator.requests();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ status: 400, body: '{not json' });
  });

  it('clearRequests() empties it; sequence numbers go on', async () => {
    await api.call('GET', '/me/authentication/methods');
    const last = api.emulator.requests().at(-1)!.seq;
    api.emulator.clearRequests();
    expect(api.emulator.requests()).toEqual([]);
    await api.call('GET', '/me/authentication/methods');
    expect(api.emulator.requests().map((r) => r.seq)).toEqual([last + 1]);
  });
});

describe('the request journal on the wire', () => {
  it('GET /_emulator/requests lists it with the same filters; DELETE empties it', async () => {
    api.emulator.clearRequests();
    await api.call('GET', '/me/authentication/phoneMethods');
    await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: 'wire' } });
    const all = (await (await fetch(`${api.emulator.url}/_emulator/requests`)).json()) as { value: unknown[] };
    expect(all.value).toEqual(JSON.parse(JSON.stringify(api.emulator.requests())));
    const posts = (await (
      await fetch(
        `${api.emulator.url}/_emulator/requests?method=POST&path=${encodeURIComponent('/me/mailFolders/inbox/messages')}`,
      )
    ).json()) as { value: { body: unknown }[] };
    expect(posts.value.map((r) => r.body)).toEqual([{ subject: 'wire' }]);
    const byOperation = (await (
      await fetch(`${api.emulator.url}/_emulator/requests?operation=listPhoneMethods`)
    ).json()) as { value: unknown[] };
    expect(byOperation.value).toHaveLength(1);
    const unknownFilter = await fetch(`${api.emulator.url}/_emulator/requests?status=200`);
    expect(unknownFilter.status).toBe(400);
    expect(((await unknownFilter.json()) as { error: { message: string } }).error.message).toBe(
      "Unknown filter 'status'; the filters are method, path, operation, unmatched.",
    );
    const put = await fetch(`${api.emulator.url}/_emulator/requests`, { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, DELETE');
    expect((await fetch(`${api.emulator.url}/_emulator/requests`, { method: 'DELETE' })).status).toBe(204);
    expect(api.emulator.requests()).toEqual([]);
  });
});

describe('its bounds', () => {
  it('keeps at most maxRequests entries, the oldest going first', () => {
    const journal = new RequestJournal({ maxRequests: 3, maxBytes: 1_000_000, maxBodyBytes: 100 });
    for (let i = 1; i <= 5; i++)
      journal.record({ method: 'GET', path: `/p${i}`, query: {}, status: 200, time: 't', durationMs: 0 });
    expect(journal.list().map((r) => r.path)).toEqual(['/p3', '/p4', '/p5']);
    expect(journal.size().requests).toBe(3);
  });

  it('keeps at most maxBytes of entries (their JSON), whichever bound comes first', () => {
    const one = { method: 'GET', path: '/p', query: {}, status: 200, time: 't', durationMs: 0 };
    const size = Buffer.byteLength(JSON.stringify({ seq: 1, ...one }));
    const exact = new RequestJournal({ maxRequests: 100, maxBytes: size * 2, maxBodyBytes: 100 });
    for (let i = 0; i < 5; i++) exact.record(one);
    expect(exact.size()).toEqual({ requests: 2, bytes: size * 2 });
    const under = new RequestJournal({ maxRequests: 100, maxBytes: size * 2 - 1, maxBodyBytes: 100 });
    for (let i = 0; i < 5; i++) under.record(one);
    expect(under.size()).toEqual({ requests: 1, bytes: size });
  });

  it('counts an entry as the UTF-8 bytes of its JSON, whatever its body, query and caller hold', () => {
    const bodies: unknown[] = [
      { subject: 'plain' },
      { subject: 'quote " backslash \\ newline \n tab \t nul \u0000' },
      { subject: 'é € 漢 😀', lone: '\ud800', n: [1e21, -0, 5e-324, 0.1] },
      [[[{ deep: [null, true, false] }]]],
      'text that is not JSON: ü',
    ];
    const caller = { kind: 'user', id: 'ü-id', userPrincipalName: 'ädele@contoso.example' } as const;
    for (const body of bodies) {
      const entry = {
        method: 'POST',
        path: '/v1.0/me/messages/ä',
        query: { $select: 'subject', ключ: '"€"' },
        body,
        status: 201,
        time: '2026-01-01T00:00:00.000Z',
        durationMs: 12.34,
        caller,
        operation: 'createMessage',
      };
      const size = Buffer.byteLength(JSON.stringify({ seq: 1, ...entry }));
      const fits = new RequestJournal({ maxRequests: 10, maxBytes: size, maxBodyBytes: 100 });
      fits.record(entry);
      expect(fits.size()).toEqual({ requests: 1, bytes: size });
      const over = new RequestJournal({ maxRequests: 10, maxBytes: size - 1, maxBodyBytes: 100 });
      over.record(entry);
      expect(over.size()).toEqual({ requests: 0, bytes: 0 });
    }
  });

  describe('requests kept as the server saw them, built when read', () => {
    const raw = (overrides: Partial<RawRequest> = {}): RawRequest => ({
      method: 'POST',
      path: '/v1.0/me/messages',
      rawQuery: '',
      body: undefined,
      status: 201,
      arrivedMs: Date.UTC(2026, 0, 2, 3, 4, 5, 678),
      durationMs: 1.25,
      ...overrides,
    });
    const builtOf = (request: RawRequest, maxBodyBytes = 16 * 1024) => {
      const journal = new RequestJournal({ maxRequests: 10, maxBytes: 1e9, maxBodyBytes });
      journal.recordRaw(request);
      return journal.list()[0]!;
    };

    it('builds the entry a built one would be, member for member and in the same order', () => {
      const caller = { kind: 'user', id: 'u', userPrincipalName: 'u@contoso.example' } as const;
      const request = raw({
        rawQuery: '%24select=subject&x=%E2%82%AC',
        body: Buffer.from('{"subject": "hi"}'),
        caller,
        operation: 'createMessage',
        fault: 'rule-1',
      });
      const entry = builtOf(request);
      expect(JSON.stringify(entry)).toBe(
        JSON.stringify({
          seq: 1,
          method: 'POST',
          path: '/v1.0/me/messages',
          query: { $select: 'subject', x: '€' },
          body: { subject: 'hi' },
          status: 201,
          time: '2026-01-02T03:04:05.678Z',
          durationMs: 1.25,
          caller,
          operation: 'createMessage',
          fault: 'rule-1',
        }),
      );
      const bare = builtOf(raw({ method: 'GET', status: 200, body: Buffer.alloc(0) }));
      expect(Object.keys(bare)).toEqual(['seq', 'method', 'path', 'query', 'status', 'time', 'durationMs']);
      // No query: the one frozen object shared by every entry without one.
      expect(Object.isFrozen(bare.query)).toBe(true);
      expect(builtOf(raw()).query).toBe(bare.query);
      expect(JSON.stringify(builtOf(raw({ method: 'GET', status: 200, body: Buffer.alloc(0) })))).toBe(
        '{"seq":1,"method":"GET","path":"/v1.0/me/messages","query":{},"status":200,"time":"2026-01-02T03:04:05.678Z","durationMs":1.25}',
      );
    });

    it('cuts a body longer than maxBodyBytes to its first bytes (a copy), with its full length', () => {
      const body = Buffer.from('{"subject":"0123456789"}');
      expect(builtOf(raw({ body }), body.length)).toMatchObject({ body: { subject: '0123456789' } });
      const cut = builtOf(raw({ body }), body.length - 1);
      expect(cut).toMatchObject({ body: '{"subject":"0123456789"', bodyTruncatedFrom: body.length });
      body.fill(0x20);
      expect(builtOf(raw({ body: Buffer.from('not json') }))).toMatchObject({ body: 'not json' });
    });

    it('holds no reference to a body it cut, only to its first bytes', async () => {
      setFlagsFromString('--expose-gc');
      const gc = runInNewContext('gc') as () => void;
      const journal = new RequestJournal({ maxRequests: 10, maxBytes: 1e9, maxBodyBytes: 10 });
      let whole: WeakRef<Buffer> | undefined;
      (() => {
        const body = Buffer.alloc(1_000_000, 0x61);
        whole = new WeakRef(body);
        journal.recordRaw(raw({ body }));
      })();
      // A WeakRef's target is kept until the current job ends.
      await new Promise((resolve) => setTimeout(resolve, 0));
      gc();
      expect(whole!.deref()).toBeUndefined();
      expect(journal.list()[0]).toMatchObject({ body: 'aaaaaaaaaa', bodyTruncatedFrom: 1_000_000 });
    });

    it('filters on the raw request and builds each entry once', () => {
      const journal = new RequestJournal({ maxRequests: 10, maxBytes: 1e9, maxBodyBytes: 100 });
      journal.recordRaw(raw({ method: 'GET', path: '/v1.0/me/a', operation: 'a' }));
      journal.recordRaw(raw({ path: '/v1.0/me/b', operation: 'b' }));
      expect(journal.list({ method: 'get' }).map((r) => r.path)).toEqual(['/v1.0/me/a']);
      expect(journal.list({ operation: 'b' }).map((r) => r.path)).toEqual(['/v1.0/me/b']);
      expect(journal.list({ path: '/me/b' }).map((r) => r.seq)).toEqual([2]);
      expect(journal.list({ path: /\/a$/ }).map((r) => r.seq)).toEqual([1]);
      expect(journal.list()[1]).toBe(journal.list()[1]);
    });

    // Entries whose JSON is as large as possible for their raw size: escapes, non-ASCII text, numbers that
    // JSON.stringify writes longer than they were sent, a query that decodes to many members.
    const heavy: RawRequest[] = [
      raw({ body: Buffer.from(`[${Array(50).fill('1e20').join(',')}]`) }),
      raw({ body: Buffer.from(`[${Array(50).fill('-9E+20').join(',')}]`) }),
      raw({ body: Buffer.from('\u0001\u0002 not json \u001f') }),
      raw({ body: Buffer.from('"\\" " \u0001 é 😀') }),
      raw({ path: '/v1.0/users/\u00e4\u0001"\\/x', rawQuery: 'a&b&c&d&e&f&g&h&%01=%01&%22=%5C' }),
      raw({ body: Buffer.from('{"a":1,"b":2}'.repeat(40)), operation: '\u0001\u0002', fault: '"\\"' }),
      raw({ method: 'GET', body: undefined, durationMs: 1.2345678901234567e21, status: 599 }),
      // Each part of the entry alone outgrowing the fixed allowance.
      raw({ path: '/v1.0/' + '\u0001'.repeat(500) }),
      raw({ rawQuery: 'a%01=%01&'.repeat(200) + 'z' }),
      raw({ method: '\u0001'.repeat(300) }),
      raw({ operation: '\u0001'.repeat(300) }),
      raw({ fault: '\u0001'.repeat(300) }),
      raw({ caller: { kind: 'user', id: 'x'.repeat(600), userPrincipalName: '\u0001'.repeat(300) } }),
    ];

    it.each(heavy.map((request, i) => [i, request] as const))(
      'heavy entry %i: kept when its JSON fits maxBytes exactly, dropped one byte below; size() exact',
      (_i, request) => {
        const exact = Buffer.byteLength(JSON.stringify(builtOf(request, 4096)));
        const fits = new RequestJournal({ maxRequests: 10, maxBytes: exact, maxBodyBytes: 4096 });
        fits.recordRaw(request);
        expect(fits.size()).toEqual({ requests: 1, bytes: exact });
        const over = new RequestJournal({ maxRequests: 10, maxBytes: exact - 1, maxBodyBytes: 4096 });
        over.recordRaw(request);
        expect(over.list()).toEqual([]);
        expect(over.size()).toEqual({ requests: 0, bytes: 0 });
      },
    );

    it('keeps the newest entries whose JSON fits maxBytes after every request, mixing raw and built ones', () => {
      const sizes: number[] = [];
      const maxBytes = 6_000;
      const journal = new RequestJournal({ maxRequests: 1_000, maxBytes, maxBodyBytes: 4096 });
      for (let i = 0; i < 60; i++) {
        const request = heavy[i % heavy.length]!;
        if (i % 5 === 4) {
          const { seq: _seq, ...entry } = builtOf(request, 4096);
          journal.record(entry);
        } else journal.recordRaw(request);
        const kept = journal.list();
        // This entry's size on its own (with its own seq), kept or not.
        sizes[i + 1] = Buffer.byteLength(JSON.stringify({ ...builtOf(request, 4096), seq: i + 1 }));
        const expected: number[] = [];
        let total = 0;
        for (let seq = sizes.length - 1; seq >= 1; seq--) {
          total += sizes[seq]!;
          if (total > maxBytes) break;
          expected.unshift(seq);
        }
        expect(kept.map((r) => r.seq)).toEqual(expected);
        expect(journal.size().bytes).toBe(kept.reduce((sum, r) => sum + Buffer.byteLength(JSON.stringify(r)), 0));
      }
    });
  });

  it('keeps a body up to maxBodyBytes whole; a longer one as its first bytes of text, with its full length', () => {
    expect(keptBody(Buffer.from('{"a":1}'), 7)).toEqual({ body: { a: 1 } });
    expect(keptBody(Buffer.from('{"a":1}'), 6)).toEqual({ body: '{"a":1', bodyTruncatedFrom: 7 });
    expect(keptBody(Buffer.alloc(0), 6)).toEqual({});
    expect(keptBody(undefined, 6)).toEqual({});
  });

  it('decodes the query, keeps what cannot be decoded as sent, and builds no prototype', () => {
    const query = queryObject('a=1&b=x%20y&c=%E0%A4&__proto__=p&flag&&d=a+b');
    expect({ ...query }).toEqual({ a: '1', b: 'x y', c: '%E0%A4', ['__proto__']: 'p', flag: '', d: 'a b' });
    expect(Object.getPrototypeOf(query)).toBeNull();
    expect(queryObject('')).toEqual({});
  });

  it('over HTTP, keeps after every request the newest entries whose JSON fits maxBytes, whatever they hold', async () => {
    const maxBytes = 1_500;
    const emulator = await startEmulator({ requestJournal: { maxBytes } });
    try {
      const token = await emulator.token();
      const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
      const calls: (() => Promise<Response>)[] = [
        () => fetch(`${emulator.url}/v1.0/me/authentication/phoneMethods`, { headers }),
        () =>
          fetch(`${emulator.url}/v1.0/me/mailFolders/inbox/messages`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ subject: 'é € 漢 😀 "quoted" \\ \n\t\u0001' }),
          }),
        () => fetch(`${emulator.url}/v1.0/me/authentication/phoneMethods?%24top=2&x=%E2%82%AC%22`, { headers }),
        () =>
          fetch(`${emulator.url}/v1.0/me/mailFolders/inbox/messages`, {
            method: 'POST',
            headers,
            body: '{"subject": "not JSON \u00e9',
          }),
        () => fetch(`${emulator.url}/v1.0/users/%C3%A4%22/authentication/phoneMethods`, { headers }),
      ];
      const sizes = new Map<number, number>();
      for (let i = 0; i < 25; i++) {
        await (await calls[i % calls.length]!()).arrayBuffer();
        const kept = emulator.requests();
        const newest = kept.at(-1)!;
        sizes.set(newest.seq, Buffer.byteLength(JSON.stringify(newest)));
        // The longest run of newest entries whose sizes add up to maxBytes at most.
        const expected: number[] = [];
        let total = 0;
        for (const seq of [...sizes.keys()].reverse()) {
          total += sizes.get(seq)!;
          if (total > maxBytes) break;
          expected.unshift(seq);
        }
        expect(kept.map((r) => r.seq)).toEqual(expected);
      }
      expect(emulator.requests().length).toBeLessThan(25);
    } finally {
      await emulator.close();
    }
  });

  it('applies the requestJournal option over HTTP, cutting a long body', async () => {
    const emulator = await startEmulator({ requestJournal: { maxRequests: 2, maxBodyBytes: 10 } });
    try {
      const token = await emulator.token();
      for (const subject of ['one', 'two', 'three'])
        await fetch(`${emulator.url}/v1.0/me/mailFolders/inbox/messages`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ subject }),
        });
      const kept = emulator.requests();
      expect(kept).toHaveLength(2);
      expect(kept.map((r) => r.body)).toEqual(['{"subject"', '{"subject"']);
      expect(kept.map((r) => r.bodyTruncatedFrom)).toEqual([17, 19]);
    } finally {
      await emulator.close();
    }
  });
});
