/**
 * Per-test stubs (WireMock's stubFor), fault rules on the request body, the requests nothing matched, and the
 * request headers the journal keeps: through the library and the wire, against the emulator over real HTTP.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { BomwrightError } from '../../src/errors.js';
import { FaultPlan, parseFaultRules } from '../../src/emulator/fault-rules.js';
import { parseStub, SEED_IDS } from '../../src/emulator/index.js';
import { useEmulator } from './harness.js';

const api = useEmulator();
beforeEach(() => api.emulator.reset());
const G = SEED_IDS.groups.release;

function refusal(value: unknown): string {
  try {
    parseStub(value, 'stub');
  } catch (error) {
    expect(error).toBeInstanceOf(BomwrightError);
    expect((error as BomwrightError).code).toBe('E_USAGE');
    return (error as Error).message;
  }
  throw new Error('accepted');
}

describe('parseStub', () => {
  it('takes what it matches and a response, and refuses the rest member by member', () => {
    expect(parseStub({ operation: 'getGroup', response: { status: 200, body: { id: 'x' } } }, 's')).toEqual({
      operation: 'getGroup',
      response: { status: 200, body: { id: 'x' } },
    });
    expect(parseStub({ path: '/v1.0/groups/*', method: 'get', response: { status: 404 } }, 's')).toEqual({
      path: '/groups/*',
      method: 'GET',
      response: { status: 404 },
    });
    expect(refusal({ response: { status: 200 } })).toBe('stub: needs an operation or a path to match');
    expect(refusal({ operation: 'getGrop', response: { status: 200 } })).toBe(
      'stub.operation: "getGrop" is not an operation (did you mean getGroup?)',
    );
    expect(refusal({ path: '/x', respons: {} })).toBe("stub: unknown member 'respons' (did you mean response?)");
    expect(refusal({ path: '/x' })).toBe('stub.response: is an object with a status, headers and body');
    for (const [status, ok] of [
      [99, false],
      [100, true],
      [599, true],
      [600, false],
      [200.5, false],
    ] as const) {
      const stub = { path: '/x', response: { status } };
      if (ok) expect(parseStub(stub, 's').response.status).toBe(status);
      else expect(refusal(stub)).toMatch(/^stub\.response\.status: is a whole number from 100 to 599/);
    }
    expect(refusal({ path: '/x', response: { status: 200, headers: { 'Content-Length': '1' } } })).toBe(
      "stub.response.headers: cannot set 'Content-Length'",
    );
    expect(refusal({ path: '/x', response: { status: 200, headers: { A: 'x\r\nB: y' } } })).toBe(
      'stub.response.headers.A: is a text of one line (at most 8192 characters)',
    );
    expect(refusal({ path: '/x', response: { status: 204, body: {} } })).toBe(
      'stub.response.body: cannot go with status 204, which has no body',
    );
    expect(refusal({ path: '/x', bodyContains: '', response: { status: 200 } })).toBe(
      'stub.bodyContains: is a text of 1 to 1000 characters the request body contains',
    );
  });
});

describe('stubs', () => {
  it('answer for the requests they match, the newest first, until removed; the journal names the stub', async () => {
    const first = api.emulator.stub({
      operation: 'getGroup',
      response: { status: 200, headers: { ETag: 'W/"1"' }, body: { id: G, displayName: 'Stubbed' } },
    });
    expect(first.id).toMatch(/^stub-\d+$/);
    const stubbed = await api.call('GET', `/groups/${G}`);
    expect(stubbed.status).toBe(200);
    expect(stubbed.body).toEqual({ id: G, displayName: 'Stubbed' });
    expect(stubbed.headers.get('etag')).toBe('W/"1"');
    expect(stubbed.headers.get('request-id')).toMatch(/^[0-9a-f-]{36}$/);
    // A newer stub wins where both match; removing it brings the older one back, removing both the emulator.
    const second = api.emulator.stub({ name: 'gone', path: '/groups/*', response: { status: 404 } });
    expect((await api.call('GET', `/groups/${G}`)).status).toBe(404);
    expect(api.emulator.stubs().map((s) => s.id)).toEqual([first.id, second.id]);
    expect(api.emulator.removeStub(second.id)).toBe(true);
    expect(api.emulator.removeStub(second.id)).toBe(false);
    expect((await api.call('GET', `/groups/${G}`)).body.displayName).toBe('Stubbed');
    api.emulator.removeStub(first.id);
    expect((await api.call('GET', `/groups/${G}`)).body.displayName).not.toBe('Stubbed');
    expect(api.emulator.requests().map((r) => `${r.status} ${r.stub ?? '-'} ${r.operation}`)).toEqual([
      `200 ${first.id} getGroup`,
      '404 gone getGroup',
      `200 ${first.id} getGroup`,
      '200 - getGroup',
    ]);
  });

  it('answer a path the table does not have, match on the body, and last until a reset', async () => {
    api.emulator.stub({ path: '/me/presence', response: { status: 200, body: { availability: 'Busy' } } });
    expect((await api.call('GET', '/me/presence')).body).toEqual({ availability: 'Busy' });
    api.emulator.stub({
      operation: 'createMessage',
      bodyContains: 'URGENT',
      response: { status: 507, body: { error: { code: 'ErrorQuotaExceeded', message: 'full' } } },
    });
    const urgent = await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: 'urgent: x' } });
    expect(urgent.status).toBe(507);
    const calm = await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: 'calm' } });
    expect(calm.status).toBe(201);
    // The journal keeps the body of a stubbed request too.
    expect(api.emulator.requests({ operation: 'createMessage' })[0]).toMatchObject({
      status: 507,
      body: { subject: 'urgent: x' },
    });
    await api.emulator.reset();
    expect(api.emulator.stubs()).toEqual([]);
    expect((await api.call('GET', '/me/presence')).status).toBe(400);
  });

  it('on the wire: POST, GET and DELETE /_emulator/stubs, DELETE /_emulator/stubs/{id}', async () => {
    const json = { 'Content-Type': 'application/json' };
    const wire = (path: string, init?: RequestInit) => fetch(`${api.emulator.url}/_emulator${path}`, init);
    const made = await wire('/stubs', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ operation: 'getGroup', response: { status: 503 } }),
    });
    expect(made.status).toBe(201);
    const stub = (await made.json()) as { id: string };
    expect((await api.call('GET', `/groups/${G}`)).status).toBe(503);
    expect(((await (await wire('/stubs')).json()) as { value: unknown[] }).value).toEqual([
      { id: stub.id, operation: 'getGroup', response: { status: 503 } },
    ]);
    expect((await wire(`/stubs/${stub.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await wire(`/stubs/${stub.id}`, { method: 'DELETE' })).status).toBe(404);
    const bad = await wire('/stubs', { method: 'POST', headers: json, body: JSON.stringify({ path: 'x' }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toBe(
      'the stub.path: is a path after /v1.0, starting with / (at most 1000 characters)',
    );
    api.emulator.stub({ path: '/x', response: { status: 200 } });
    expect((await wire('/stubs', { method: 'DELETE' })).status).toBe(204);
    expect(api.emulator.stubs()).toEqual([]);
  });
});

describe('fault rules on the request body', () => {
  it('match a fragment of the body in any case; a request without a body never matches', async () => {
    expect(parseFaultRules([{ bodyContains: 'x', fault: 500 }], 'f')).toEqual([{ bodyContains: 'x', fault: 500 }]);
    const plan = new FaultPlan([{ bodyContains: 'Release', fault: 503 }]);
    expect(plan.needsBody).toBe(true);
    expect(plan.decide('POST', '/me/x', undefined, '{"subject":"RELEASE 4.2"}')?.fault).toBe(503);
    expect(plan.decide('POST', '/me/x', undefined, '{"subject":"other"}')).toBeUndefined();
    expect(plan.decide('GET', '/me/x', undefined, undefined)).toBeUndefined();
    expect(new FaultPlan([{ fault: 500 }]).needsBody).toBe(false);
    api.emulator.setFaults([{ operation: 'createMessage', bodyContains: 'poison', fault: 500, name: 'poison' }]);
    const poisoned = await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: 'Poison pill' } });
    expect(poisoned.status).toBe(500);
    const fine = await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: 'fine' } });
    expect(fine.status).toBe(201);
    expect(api.emulator.requests().map((r) => `${r.status} ${r.fault ?? '-'} ${JSON.stringify(r.body)}`)).toEqual([
      '500 poison {"subject":"Poison pill"}',
      '201 - {"subject":"fine"}',
    ]);
  });
});

describe('the requests nothing matched', () => {
  it('are listed by requests({ unmatched: true }) and GET /_emulator/requests/unmatched', async () => {
    api.emulator.stub({ path: '/me/presence', response: { status: 200 } });
    await api.call('GET', '/me/nothing/here');
    await api.call('GET', '/me/presence');
    await api.call('DELETE', `/groups/${G}`);
    await api.call('GET', `/groups/${G}`);
    const unmatched = api.emulator.requests({ unmatched: true });
    expect(unmatched.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'GET /v1.0/me/nothing/here 400',
      `DELETE /v1.0/groups/${G} 405`,
    ]);
    const wire = (await (await fetch(`${api.emulator.url}/_emulator/requests/unmatched`)).json()) as {
      value: unknown[];
    };
    expect(wire.value).toEqual(unmatched);
    const query = (await (await fetch(`${api.emulator.url}/_emulator/requests?unmatched=true`)).json()) as {
      value: unknown[];
    };
    expect(query.value).toEqual(unmatched);
    expect((await fetch(`${api.emulator.url}/_emulator/requests?unmatched=yes`)).status).toBe(400);
  });
});

describe('request headers in the journal', () => {
  it('keeps Prefer, Workbook-Session-Id and client-request-id, never Authorization or a token', async () => {
    const token = await api.token();
    await api.call('GET', '/me/mailFolders/inbox/messages/delta', {
      headers: {
        Prefer: 'odata.maxpagesize=2',
        'Workbook-Session-Id': 'session-1',
        'client-request-id': 'c-1',
        Cookie: 'secret=1',
        'X-Api-Key': 'k',
        'User-Agent': `tool Bearer ${token}`,
      },
    });
    const [entry] = api.emulator.requests();
    expect(entry!.headers).toMatchObject({
      prefer: 'odata.maxpagesize=2',
      'workbook-session-id': 'session-1',
      'client-request-id': 'c-1',
      'user-agent': '[redacted]',
    });
    const text = JSON.stringify(api.emulator.requests());
    expect(text).not.toContain(token.slice(0, 40));
    expect(text.toLowerCase()).not.toContain('authorization');
    expect(text).not.toContain('secret=1');
    expect(text).not.toContain('x-api-key');
  });
});
