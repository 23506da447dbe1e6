/** Fault rules: parsing, the decision per request, what goes over the wire, and the client's retry policy on each. */
import { describe, expect, it } from 'vitest';
import { BomwrightError } from '../../src/errors.js';
import { FaultPlan, parseFaultRules, type FaultRule } from '../../src/emulator/fault-rules.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { createServiceClient, ServiceError } from '../../src/service/index.js';

function refusal(value: unknown): string {
  try {
    parseFaultRules(value, 'faults.json');
  } catch (error) {
    expect(error).toBeInstanceOf(BomwrightError);
    expect((error as BomwrightError).code).toBe('E_USAGE');
    return (error as Error).message;
  }
  throw new Error('accepted');
}

const rule = (extra: Record<string, unknown>) => ({ rules: [{ fault: 500, ...extra }] });

describe('parseFaultRules', () => {
  it('takes { rules: [...] } or the list itself', () => {
    const rules = [{ operation: 'listPhoneMethods', fault: 503, first: 2, retryAfterSeconds: 0.5 }];
    expect(parseFaultRules({ rules }, 'f')).toEqual(rules);
    expect(parseFaultRules(rules, 'f')).toEqual(rules);
    expect(parseFaultRules([{ path: '/me/**', method: 'get', latencyMs: [5, 10] }], 'f')).toEqual([
      { path: '/me/**', method: 'GET', latencyMs: [5, 10] },
    ]);
  });

  it('refuses what is not a rule list, naming the file, the rule and the member, with the nearest name', () => {
    expect(refusal('x')).toBe('faults.json: holds { "rules": [ ... ] }, a list of fault rules');
    expect(refusal({ rule: [] })).toBe("faults.json: unknown member 'rule' (did you mean rules?)");
    expect(refusal({ rules: [7] })).toBe('faults.json: rules[0]: is not an object');
    expect(refusal(rule({ rat: 0.5 }))).toBe("faults.json: rules[0]: unknown member 'rat' (did you mean rate?)");
    expect(refusal(rule({ operation: 'listPhoneMethod' }))).toBe(
      'faults.json: rules[0].operation: "listPhoneMethod" is not an operation (did you mean listPhoneMethods?)',
    );
    expect(refusal({ rules: [{ fault: 501 }] })).toBe(
      'faults.json: rules[0].fault: is one of 429, 500, 502, 503, 504, reset, truncate, not 501',
    );
    expect(refusal(rule({ method: 'HEAD' }))).toBe(
      'faults.json: rules[0].method: is one of GET, POST, PATCH, PUT, DELETE',
    );
    expect(refusal(rule({ path: 'me' }))).toMatch(/^faults\.json: rules\[0\]\.path: is a path after \/v1\.0/);
    expect(refusal(rule({ first: 1, every: 2 }))).toBe(
      'faults.json: rules[0]: takes one of rate, first and every, not first and every',
    );
    expect(refusal({ rules: [{ operation: 'getGroup' }] })).toBe(
      'faults.json: rules[0]: needs a fault, a latencyMs or both',
    );
    expect(refusal(rule({ retryAfterSeconds: 1 }))).toBe(
      'faults.json: rules[0].retryAfterSeconds: goes with fault 429 or 503',
    );
    expect(refusal(rule({ name: '' }))).toBe('faults.json: rules[0].name: is a text of 1 to 100 characters');
    expect(refusal({ rules: Array.from({ length: 1001 }, () => ({ fault: 500 })) })).toBe(
      'faults.json: has more than 1000 rules',
    );
    expect(parseFaultRules({ rules: Array.from({ length: 1000 }, () => ({ fault: 500 })) }, 'f')).toHaveLength(1000);
  });

  it('takes a path written with /v1.0 as the path after it, and refuses another version', () => {
    expect(parseFaultRules(rule({ path: '/v1.0/me/**' }), 'f')[0]!.path).toBe('/me/**');
    expect(parseFaultRules(rule({ path: '/v1.0' }), 'f')[0]!.path).toBe('/');
    expect(refusal(rule({ path: '/v1.0me' }))).toMatch(/serves v1\.0 only/);
    expect(parseFaultRules(rule({ path: '/vendors' }), 'f')[0]!.path).toBe('/vendors');
    expect(parseFaultRules(rule({ path: '/me/**' }), 'f')[0]!.path).toBe('/me/**');
    expect(refusal(rule({ path: '/beta/me/**' }))).toBe(
      'faults.json: rules[0].path: is a path after /v1.0 (the emulator serves v1.0 only), not /beta/me/**',
    );
    expect(refusal(rule({ path: '/v2.0/me' }))).toMatch(/serves v1\.0 only/);
  });

  it('checks each number on both sides of its range', () => {
    expect(parseFaultRules(rule({ rate: 0 }), 'f')[0]!.rate).toBe(0);
    expect(parseFaultRules(rule({ rate: 1 }), 'f')[0]!.rate).toBe(1);
    expect(refusal(rule({ rate: -0.01 }))).toBe('faults.json: rules[0].rate: is a share from 0 to 1, not -0.01');
    expect(refusal(rule({ rate: 1.01 }))).toBe('faults.json: rules[0].rate: is a share from 0 to 1, not 1.01');
    expect(parseFaultRules(rule({ first: 0 }), 'f')[0]!.first).toBe(0);
    expect(refusal(rule({ first: -1 }))).toBe('faults.json: rules[0].first: must be a whole number from 0, not -1');
    expect(refusal(rule({ first: 1.5 }))).toBe('faults.json: rules[0].first: must be a whole number from 0, not 1.5');
    expect(parseFaultRules(rule({ every: 1 }), 'f')[0]!.every).toBe(1);
    expect(refusal(rule({ every: 0 }))).toBe('faults.json: rules[0].every: must be a whole number from 1, not 0');
    const retry = (seconds: unknown) => ({ rules: [{ fault: 503, retryAfterSeconds: seconds }] });
    expect(parseFaultRules(retry(0), 'f')[0]!.retryAfterSeconds).toBe(0);
    expect(parseFaultRules(retry(3600), 'f')[0]!.retryAfterSeconds).toBe(3600);
    expect(refusal(retry(3600.5))).toBe(
      'faults.json: rules[0].retryAfterSeconds: takes seconds from 0 to 3600, not 3600.5',
    );
    expect(refusal(retry(-1))).toBe('faults.json: rules[0].retryAfterSeconds: takes seconds from 0 to 3600, not -1');
    expect(parseFaultRules(rule({ latencyMs: [0, 600_000] }), 'f')[0]!.latencyMs).toEqual([0, 600_000]);
    expect(refusal(rule({ latencyMs: 600_001 }))).toBe(
      'faults.json: rules[0].latencyMs: takes whole milliseconds from 0 to 600000, not 600001',
    );
    expect(refusal(rule({ latencyMs: [10, 9] }))).toBe(
      'faults.json: rules[0].latencyMs: has its maximum below its minimum',
    );
    expect(parseFaultRules(rule({ latencyMs: [10, 10] }), 'f')[0]!.latencyMs).toEqual([10, 10]);
    expect(refusal(rule({ latencyMs: [1, 2, 3] }))).toBe(
      'faults.json: rules[0].latencyMs: is a number or a [min, max] pair',
    );
  });
});

describe('FaultPlan.decide', () => {
  const fired = (plan: FaultPlan, times: number, path = '/me/x', operation?: string) =>
    Array.from({ length: times }, () => plan.decide('GET', path, operation)?.fault ?? '-').join(' ');

  it('first N fires on calls 1..N, every N on calls N, 2N, ...; first 0 never', () => {
    expect(fired(new FaultPlan([{ fault: 500, first: 2 }]), 4)).toBe('500 500 - -');
    expect(fired(new FaultPlan([{ fault: 500, first: 0 }]), 2)).toBe('- -');
    expect(fired(new FaultPlan([{ fault: 502, every: 3 }]), 7)).toBe('- - 502 - - 502 -');
    expect(fired(new FaultPlan([{ fault: 502, every: 1 }]), 2)).toBe('502 502');
    expect(fired(new FaultPlan([{ fault: 504 }]), 2)).toBe('504 504');
  });

  it('a share fires when the draw is below it; 0 never draws', () => {
    const draws = [0.49, 0.5, 0.51];
    let i = 0;
    expect(fired(new FaultPlan([{ fault: 503, rate: 0.5 }], () => draws[i++]!), 3)).toBe('503 - -');
    let drawn = 0;
    expect(fired(new FaultPlan([{ fault: 503, rate: 0 }], () => (drawn++, 0)), 2)).toBe('- -');
    expect(drawn).toBe(0);
  });

  it('matches operation, method and path (* within a segment, ** across); the first matching rule decides', () => {
    const rules: FaultRule[] = [
      { operation: 'getGroup', fault: 500, name: 'group' },
      { path: '/teams/*/channels', fault: 502 },
      { path: '/me/**', method: 'POST', fault: 503 },
      { path: '/me/**', fault: 504 },
    ];
    const plan = new FaultPlan(rules);
    expect(plan.decide('GET', '/groups/g', 'getGroup')).toEqual({ rule: 'group', fault: 500 });
    expect(plan.decide('GET', '/teams/t/channels', 'listChannels')?.fault).toBe(502);
    expect(plan.decide('GET', '/teams/t/x/channels', undefined)).toBeUndefined();
    expect(plan.decide('POST', '/me/mailFolders/inbox/messages', 'createMessage')).toEqual({
      rule: 'rule 3',
      fault: 503,
      retryAfterSeconds: 1,
    });
    expect(plan.decide('GET', '/me/messages', undefined)).toEqual({ rule: 'rule 4', fault: 504 });
    expect(plan.decide('GET', '/med', undefined)).toBeUndefined();
    // A dot in a pattern is a dot.
    expect(new FaultPlan([{ path: '/a.b', fault: 500 }]).decide('GET', '/axb', undefined)).toBeUndefined();
  });

  it('counts per rule; restart() starts the counts again', () => {
    const plan = new FaultPlan([
      { path: '/a', fault: 500, first: 1 },
      { path: '/b', fault: 502, first: 1 },
    ]);
    expect([fired(plan, 2, '/a'), fired(plan, 2, '/b')]).toEqual(['500 -', '502 -']);
    plan.restart();
    expect(fired(plan, 1, '/a')).toBe('500');
  });

  it('a rule that does not select a request (spent first N, not an Nth, not drawn) leaves it to the later rules', () => {
    // The emulator page's example: once the first two calls have had their 503, the latency rule decides the rest.
    const plan = new FaultPlan(
      [
        { operation: 'listPhoneMethods', fault: 503, first: 2 },
        { path: '/me/**', method: 'GET', latencyMs: 50 },
      ],
      () => 0,
    );
    const path = '/me/authentication/phoneMethods';
    const decisions = Array.from({ length: 4 }, () => plan.decide('GET', path, 'listPhoneMethods'));
    expect(decisions.map((d) => `${d?.rule}:${d?.fault ?? d?.latencyMs}`)).toEqual([
      'rule 1:503',
      'rule 1:503',
      'rule 2:50',
      'rule 2:50',
    ]);
    const every = new FaultPlan([
      { path: '/x', fault: 502, every: 2, name: 'second' },
      { path: '/x', fault: 500, name: 'rest' },
    ]);
    expect(Array.from({ length: 4 }, () => every.decide('GET', '/x', undefined)?.rule)).toEqual([
      'rest',
      'second',
      'rest',
      'second',
    ]);
    const drawn = new FaultPlan(
      [
        { path: '/x', fault: 502, rate: 0.5 },
        { path: '/x', latencyMs: 1 },
      ],
      () => 0.9,
    );
    expect(drawn.decide('GET', '/x', undefined)).toEqual({ rule: 'rule 2', latencyMs: 1 });
  });

  it('matches a rule path against the path as sent or percent-decoded, casts in either namespace', () => {
    const plan = new FaultPlan([
      { path: '/users/adele@contoso.example/**', fault: 500, name: 'adele' },
      { path: '/places/*/microsoft.graph.building/map', fault: 502, name: 'map' },
    ]);
    expect(plan.decide('GET', '/users/adele%40contoso.example/authentication/methods', undefined)?.rule).toBe('adele');
    expect(plan.decide('GET', '/users/adele@contoso.example/authentication/methods', undefined)?.rule).toBe('adele');
    expect(plan.decide('GET', '/users/megan%40contoso.example/authentication/methods', undefined)).toBeUndefined();
    expect(plan.decide('GET', '/users/%E0%A4%A/x', undefined)).toBeUndefined();
    expect(plan.decide('DELETE', '/places/b/vendor.graph.building/map', undefined)?.rule).toBe('map');
  });

  it('draws a latency within its range', () => {
    const at = (draw: number) => new FaultPlan([{ latencyMs: [10, 20] }], () => draw).decide('GET', '/x', undefined);
    expect(at(0)).toEqual({ rule: 'rule 1', latencyMs: 10 });
    expect(at(0.999)).toEqual({ rule: 'rule 1', latencyMs: 20 });
    expect(new FaultPlan([{ latencyMs: 7 }]).decide('GET', '/x', undefined)).toEqual({ rule: 'rule 1', latencyMs: 7 });
  });
});

async function withEmulator(faults: unknown, run: (e: RunningEmulator, token: string) => Promise<void>) {
  const e = await startEmulator({ faults });
  try {
    await run(e, await e.token());
  } finally {
    await e.close();
  }
}

describe('over HTTP', () => {
  it('answers 500, 502, 503, 504 and 429 with the service error body; Retry-After on 503 and 429 only', async () => {
    const statuses = [500, 502, 503, 504, 429] as const;
    await withEmulator(
      statuses.map((status) => ({ path: `/groups/s${status}`, fault: status })),
      async (e, token) => {
        const codes: Record<number, string> = {
          500: 'generalException',
          502: 'badGateway',
          503: 'serviceNotAvailable',
          504: 'gatewayTimeout',
          429: 'TooManyRequests',
        };
        for (const status of statuses) {
          const reply = await fetch(`${e.url}/v1.0/groups/s${status}`, {
            headers: { Authorization: `Bearer ${token}`, 'client-request-id': `c-${status}` },
          });
          expect(reply.status).toBe(status);
          expect(reply.headers.get('retry-after')).toBe(status === 503 || status === 429 ? '1' : null);
          expect(reply.headers.get('request-id')).toMatch(/^[0-9a-f-]{36}$/);
          const body = (await reply.json()) as {
            error: { code: string; message: string; innerError: Record<string, string> };
          };
          expect(body.error.code).toBe(codes[status]);
          expect(body.error.innerError['client-request-id']).toBe(`c-${status}`);
        }
        expect(e.requests().map((r) => `${r.status} ${r.fault}`)).toEqual(statuses.map((s, i) => `${s} rule ${i + 1}`));
      },
    );
  });

  it('sends retryAfterSeconds as given, and none for 0', async () => {
    await withEmulator(
      [
        { path: '/groups/a', fault: 503, retryAfterSeconds: 2.5 },
        { path: '/groups/b', fault: 503, retryAfterSeconds: 0 },
      ],
      async (e, token) => {
        const a = await fetch(`${e.url}/v1.0/groups/a`, { headers: { Authorization: `Bearer ${token}` } });
        expect(a.headers.get('retry-after')).toBe('2.5');
        const b = await fetch(`${e.url}/v1.0/groups/b`, { headers: { Authorization: `Bearer ${token}` } });
        expect(b.status).toBe(503);
        expect(b.headers.get('retry-after')).toBeNull();
      },
    );
  });

  it('a reset cuts the connection before the request is handled: nothing is written', async () => {
    await withEmulator([{ operation: 'createMessage', fault: 'reset', name: 'drop' }], async (e, token) => {
      await expect(
        fetch(`${e.url}/v1.0/me/mailFolders/inbox/messages`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ subject: 'never written' }),
        }),
      ).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(e.requests()).toMatchObject([{ status: 0, fault: 'drop', body: { subject: 'never written' } }]);
      const delta = await fetch(`${e.url}/v1.0/me/mailFolders/inbox/messages/delta?$select=subject`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(await delta.text()).not.toContain('never written');
    });
  });

  it('a cut body stops halfway after the request was handled: the write is done, the answer lost', async () => {
    await withEmulator([{ operation: 'createMessage', fault: 'truncate', first: 1 }], async (e, token) => {
      const reply = await fetch(`${e.url}/v1.0/me/mailFolders/inbox/messages`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ subject: 'written, answer cut' }),
      });
      expect(reply.status).toBe(201);
      const announced = Number(reply.headers.get('content-length'));
      expect(announced).toBeGreaterThan(0);
      await expect(reply.text()).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(e.requests()).toMatchObject([{ status: 201, fault: 'rule 1' }]);
      const delta = await fetch(`${e.url}/v1.0/me/mailFolders/inbox/messages/delta?$select=subject`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(await delta.text()).toContain('written, answer cut');
    });
  });

  it('a cut answer without a body (an action answering 202) loses the answer whole: the write is done', async () => {
    const group = '2a7d9e10-3001-4b2c-8d3e-4f5a6b7c8d01';
    const thread = 'AAQkAGSupplierQuestions';
    await withEmulator([{ operation: 'replyToThread', fault: 'truncate', name: 'lost' }], async (e, token) => {
      await expect(
        fetch(`${e.url}/v1.0/groups/${group}/threads/${thread}/reply`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ post: { body: { contentType: 'text', content: 'written, answer lost' } } }),
        }),
      ).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(e.requests()).toMatchObject([{ status: 0, fault: 'lost', rule: 'lost' }]);
      const posts = await fetch(`${e.url}/v1.0/groups/${group}/threads/${thread}/posts`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(await posts.text()).toContain('written, answer lost');
    });
  });

  it('holds the caller to a 429’s Retry-After: an early retry is refused again, naming the rule', async () => {
    await withEmulator(
      [{ operation: 'listPhoneMethods', fault: 429, first: 1, retryAfterSeconds: 5, name: 'busy' }],
      async (e, token) => {
        const get = (path: string, bearer = token) =>
          fetch(`${e.url}/v1.0${path}`, { headers: { Authorization: `Bearer ${bearer}` } });
        const first = await get('/me/authentication/phoneMethods');
        expect([first.status, first.headers.get('retry-after')]).toEqual([429, '5']);
        // The rule is spent, but the window it opened is not: the same caller and workload is refused again.
        const again = await get('/me/authentication/methods');
        expect(again.status).toBe(429);
        const left = Number(again.headers.get('retry-after'));
        expect(left).toBeGreaterThan(4);
        expect(left).toBeLessThanOrEqual(5);
        expect(((await again.json()) as { error: { code: string } }).error.code).toBe('TooManyRequests');
        // Another workload, another caller: their own windows.
        expect((await get('/groups/2a7d9e10-3001-4b2c-8d3e-4f5a6b7c8d01')).status).toBe(200);
        const megan = await e.token({ user: 'megan@contoso.example' });
        expect((await get('/me/authentication/phoneMethods', megan)).status).toBe(200);
        expect(e.requests().map((r) => `${r.status} ${r.fault ?? '-'}`)).toEqual([
          '429 busy',
          '429 busy',
          '200 -',
          '200 -',
        ]);
        // A reset ends the window.
        await e.reset();
        expect((await get('/me/authentication/methods')).status).toBe(200);
      },
    );
    // Retry-After 0: no window to hold.
    await withEmulator(
      [{ operation: 'listPhoneMethods', fault: 429, first: 1, retryAfterSeconds: 0 }],
      async (e, token) => {
        const get = () =>
          fetch(`${e.url}/v1.0/me/authentication/phoneMethods`, { headers: { Authorization: `Bearer ${token}` } });
        expect([(await get()).status, (await get()).status]).toEqual([429, 200]);
      },
    );
  });

  it('holds a matching request for the rule’s latency (at least its minimum)', async () => {
    await withEmulator([{ operation: 'listPhoneMethods', latencyMs: [150, 160] }], async (e, token) => {
      const reply = await fetch(`${e.url}/v1.0/me/authentication/phoneMethods`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(reply.status).toBe(200);
      await fetch(`${e.url}/v1.0/me/authentication/methods`, { headers: { Authorization: `Bearer ${token}` } });
      const [slow, other] = e.requests();
      expect(slow!.durationMs).toBeGreaterThanOrEqual(150);
      expect(slow!.fault).toBeUndefined();
      // The journal names the rule that decided it, a latency as much as a fault.
      expect(slow!.rule).toBe('rule 1');
      expect(other!.rule).toBeUndefined();
      expect(other!.durationMs).toBeLessThan(slow!.durationMs);
    });
  });

  it('setFaults() and POST /_emulator/faults replace the rules; GET /_emulator/faults shows them; bad rules are 400', async () => {
    await withEmulator(undefined, async (e, token) => {
      const call = async () =>
        (await fetch(`${e.url}/v1.0/groups/x`, { headers: { Authorization: `Bearer ${token}` } })).status;
      expect(await call()).toBe(404);
      e.setFaults({ rules: [{ path: '/groups/*', fault: 502 }] });
      expect(await call()).toBe(502);
      const set = await fetch(`${e.url}/_emulator/faults`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ rules: [{ path: '/groups/*', fault: 504, first: 1 }] }),
      });
      expect(set.status).toBe(200);
      expect(await set.json()).toEqual({ rules: [{ path: '/groups/*', fault: 504, first: 1 }] });
      expect([await call(), await call()]).toEqual([504, 404]);
      const bad = await fetch(`${e.url}/_emulator/faults`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ rules: [{ fault: 418 }] }),
      });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { message: string } }).error.message).toBe(
        'the fault rules: rules[0].fault: is one of 429, 500, 502, 503, 504, reset, truncate, not 418',
      );
      expect(await (await fetch(`${e.url}/_emulator/faults`)).json()).toEqual({
        rules: [{ path: '/groups/*', fault: 504, first: 1 }],
      });
      e.setFaults([]);
      expect(await (await fetch(`${e.url}/_emulator/faults`)).json()).toEqual({ rules: [] });
      expect(() => e.setFaults('x')).toThrow('the fault rules: holds { "rules": [ ... ] }, a list of fault rules');
    });
  });

  it('refuses bad rules at start', async () => {
    await expect(startEmulator({ faults: [{ fault: 'slow' }] })).rejects.toThrow(
      'the faults option: rules[0].fault: is one of 429, 500, 502, 503, 504, reset, truncate, not "slow"',
    );
  });
});

describe("the client's retry policy against each fault", () => {
  /** A client that waits no time between attempts: Retry-After as the rule gives it, backoff 0 + jitter 0. */
  async function outcome(
    rule: Record<string, unknown>,
    method: 'GET' | 'POST' = 'GET',
  ): Promise<{ result: string; attempts: number | undefined; seen: number }> {
    const e = await startEmulator({ faults: [rule] });
    const client = createServiceClient({
      baseUrl: e.url,
      token: await e.token(),
      retry: { delaySeconds: 0, maxRetries: 2 },
      random: () => 0,
    });
    try {
      const response =
        method === 'GET'
          ? await client.call({ method, path: '/me/authentication/phoneMethods' })
          : await client.call({ method, path: '/me/mailFolders/inbox/messages', body: { subject: 'retry' } });
      return { result: String(response.status), attempts: response.attempts, seen: e.requests().length };
    } catch (error) {
      const failure = error as ServiceError;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { result: failure.code, attempts: failure.attempts, seen: e.requests().length };
    } finally {
      await client.close();
      await e.close();
    }
  }

  it('retries 503 (Retry-After honoured), 504 and 429 on a GET until the rule stops firing', async () => {
    expect(await outcome({ fault: 503, first: 2, retryAfterSeconds: 0.01 })).toEqual({
      result: '200',
      attempts: 3,
      seen: 3,
    });
    expect(await outcome({ fault: 504, first: 1 })).toEqual({ result: '200', attempts: 2, seen: 2 });
    expect(await outcome({ fault: 429, first: 1, retryAfterSeconds: 0.01 })).toEqual({
      result: '200',
      attempts: 2,
      seen: 2,
    });
  });

  it('gives up after its retries when every call fails', async () => {
    expect(await outcome({ fault: 503, retryAfterSeconds: 0.01 })).toEqual({
      result: 'E_RETRY_EXHAUSTED',
      attempts: 3,
      seen: 3,
    });
  });

  it('does not retry 500 or 502', async () => {
    expect(await outcome({ fault: 500, first: 1 })).toEqual({ result: 'E_SERVICE', attempts: 1, seen: 1 });
    expect(await outcome({ fault: 502, first: 1 })).toEqual({ result: 'E_SERVICE', attempts: 1, seen: 1 });
  });

  it('retries a POST only when the service names a Retry-After', async () => {
    expect(await outcome({ fault: 503, first: 1, retryAfterSeconds: 0.01 }, 'POST')).toEqual({
      result: '201',
      attempts: 2,
      seen: 2,
    });
    expect(await outcome({ fault: 503, first: 1, retryAfterSeconds: 0 }, 'POST')).toEqual({
      result: 'E_SERVICE',
      attempts: 1,
      seen: 1,
    });
    expect(await outcome({ fault: 504, first: 1 }, 'POST')).toEqual({ result: 'E_SERVICE', attempts: 1, seen: 1 });
  });

  it('reports a connection reset and a cut body as E_NETWORK, without retrying', async () => {
    expect(await outcome({ fault: 'reset', first: 1 })).toEqual({ result: 'E_NETWORK', attempts: 1, seen: 1 });
    expect(await outcome({ fault: 'truncate', first: 1 })).toEqual({ result: 'E_NETWORK', attempts: 1, seen: 1 });
  });
});
