/**
 * The typed client's contract at its edges, against a scripted server on 127.0.0.1: how requests are split into
 * path, query and body (and what is refused, with which code), how collection pages are read and where paging
 * stops, and what a body of the wrong kind gives.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type ServiceApi } from '../../src/service/index.js';
import { ServiceError } from '../../src/service/errors.js';

let server: Server;
let base: string;
let service: ServiceApi;
const seen: URL[] = [];
/** Path (without /v1.0) → the exact body text to answer with; 404 otherwise. */
const answers = new Map<string, string>();
const answer = (path: string, body: unknown) => answers.set(path, JSON.stringify(body));

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url!, 'http://x');
    seen.push(url);
    const text = answers.get(url.pathname.replace(/^\/v1\.0/, ''));
    if (text === undefined) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":{"code":"itemNotFound","message":"No such thing"}}');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req-9' });
    response.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  service = createClient({ baseUrl: base, token: 't' });
});
afterAll(async () => {
  await service.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  answers.clear();
  seen.length = 0;
});

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as ServiceError,
  );
const POLICIES = '/policies/homeRealmDiscoveryPolicies';
const list = (request: object = {}) =>
  (
    service.governance.listHomeRealmDiscoveryPolicies as unknown as (
      r: object,
    ) => ReturnType<ServiceApi['governance']['listHomeRealmDiscoveryPolicies']>
  )(request);

/** Three pages: p1 → p2 → p3, one policy each. */
function threePages(): void {
  answer(POLICIES, { value: [{ id: 'a' }], '@odata.nextLink': `${base}/v1.0/p2` });
  answer('/p2', { value: [{ id: 'b' }], '@odata.nextLink': `${base}/v1.0/p3` });
  answer('/p3', { value: [{ id: 'c' }], '@odata.deltaLink': `${base}/v1.0/d` });
}

describe('paging', () => {
  it('all() and pages() read every page up to and including maxPages, and refuse one more', async () => {
    threePages();
    expect((await list().all()).map((p) => p.id)).toEqual(['a', 'b', 'c']);
    expect((await list({ maxPages: 3 }).all()).map((p) => p.id)).toEqual(['a', 'b', 'c']);
    const pages = [];
    for await (const page of list({ maxPages: 3 }).pages()) pages.push(page);
    expect(pages.map((p) => p.items.map((i) => i.id))).toEqual([['a'], ['b'], ['c']]);
    await expect(list({ maxPages: 2 }).all()).rejects.toMatchObject({
      code: 'E_LINK_LOOP',
      message:
        'listHomeRealmDiscoveryPolicies: stopped after 2 pages of @odata.nextLink (raise maxPages if the collection is really that long)',
    });
    const partial: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const page of list({ maxPages: 2 }).pages()) partial.push(...page.items.map((i) => String(i.id)));
      })(),
    );
    expect(error).toMatchObject({ code: 'E_LINK_LOOP' });
    expect(partial).toEqual(['a', 'b']);
  });

  it('a page carries nextLink and deltaLink only when the service gave them', async () => {
    threePages();
    const pages = [];
    for await (const page of list().pages()) pages.push(page);
    expect(Object.keys(pages[0]!).sort()).toEqual(['items', 'nextLink']);
    expect(Object.keys(pages[1]!).sort()).toEqual(['items', 'nextLink']);
    expect(Object.keys(pages[2]!).sort()).toEqual(['deltaLink', 'items']);
    expect(pages[2]!.deltaLink).toBe(`${base}/v1.0/d`);
  });

  it('a page that is null, a list or has no value array is E_RESPONSE_SHAPE with the status and request id', async () => {
    for (const body of [null, ['x'], 'text', { value: 'x' }, {}]) {
      answer(POLICIES, body);
      const error = await rejection(list().all());
      expect(error, JSON.stringify(body)).toBeInstanceOf(ServiceError);
      expect(error, JSON.stringify(body)).toMatchObject({
        code: 'E_RESPONSE_SHAPE',
        message: 'listHomeRealmDiscoveryPolicies: a collection page has no "value" array',
        status: 200,
        requestId: 'req-9',
      });
    }
  });

  it('a wrapped answer that is null or has no value is E_RESPONSE_SHAPE', async () => {
    const path = '/security/labels/categories/c/subcategories/s';
    for (const body of [null, 'text', { id: 's' }]) {
      answer(path, body);
      await expect(
        service.labelsAndEdiscovery.getSubcategoryTemplate({ category: 'c', subcategory: 's' }),
        JSON.stringify(body),
      ).rejects.toMatchObject({
        code: 'E_RESPONSE_SHAPE',
        message: 'getSubcategoryTemplate: the answer has no "value"',
      });
    }
  });

  it('cuts a long shape problem to 300 characters after the operation name', async () => {
    answer('/planner/tasks/t/progressTaskBoardFormat', { id: 'x', orderHint: 5, ['k'.repeat(400)]: 1 });
    const bad = { id: 'x', orderHint: 5 };
    answer('/planner/tasks/t/progressTaskBoardFormat', { ...bad, orderHint: 'y'.repeat(400) });
    answer('/planner/tasks/t/progressTaskBoardFormat', { ...bad, id: 'z'.repeat(400), orderHint: [1] });
    const error = await rejection(service.planner.getProgressTaskBoardFormat({ task: 't' }));
    expect(error!.code).toBe('E_RESPONSE_SHAPE');
    expect(error!.message.startsWith('getProgressTaskBoardFormat: ')).toBe(true);
    expect(error!.message.length).toBeLessThanOrEqual('getProgressTaskBoardFormat: '.length + 300);
  });
});

describe('requests', () => {
  it('leaves undefined options out, writes numbers, lists and other values as text', async () => {
    answer(POLICIES, { value: [] });
    await list({ top: undefined, select: ['id', 'displayName'], filter: true, skip: 3 })
      .all()
      .catch(() => undefined);
    answer(POLICIES, { value: [] });
    await list({ top: undefined, select: ['id'], expand: 'appliesTo' }).all();
    const query = Object.fromEntries(seen.at(-1)!.searchParams);
    expect(query).toEqual({ $select: 'id', $expand: 'appliesTo' });
  });

  it('passes an option whose name has no $ as it is (changeType of the message delta)', async () => {
    answer('/me/mailFolders/inbox/messages/delta', { value: [], '@odata.deltaLink': `${base}/v1.0/next` });
    const delta = service.mailAndCalendar.messageDelta as unknown as (r: object) => { all(): Promise<unknown[]> };
    await delta({ folder: 'inbox', changeType: 'created', top: 2 }).all();
    expect(Object.fromEntries(seen.at(-1)!.searchParams)).toEqual({ changeType: 'created', $top: '2' });
  });

  it('refuses an option the operation does not take with E_REQUEST_SHAPE, naming at most 60 characters of it', async () => {
    const columns = service.workbook.listTableColumns as unknown as (r: object) => { all(): Promise<unknown> };
    const long = `c${'o'.repeat(100)}`;
    const error = await rejection(columns({ item: 'i', table: 't', [long]: 'red' }).all());
    expect(error).toMatchObject({
      code: 'E_REQUEST_SHAPE',
      message: `listTableColumns takes no ${JSON.stringify(long.slice(0, 60))} (it takes item, table, itemPath, worksheet, filter, orderby, select, top, skip, count)`,
    });
    const none = service.authenticationMethods.listPhoneMethods as unknown as (r: object) => {
      all(): Promise<unknown>;
    };
    expect((await rejection(none({ colour: 'red' }).all()))!.message).toMatch(/\(it takes user\)$/);
    expect(seen).toHaveLength(0);
  });

  it('refuses a helper called without its parameters, with E_REQUEST_SHAPE', async () => {
    const untyped = service.groupsAndTeams as unknown as Record<string, (request?: object) => Promise<unknown>>;
    for (const call of [
      () => untyped.removeTeamMembers!({ team: 't' }),
      () => untyped.removeTeamMembers!(),
      () => untyped.cloneTeam!({ body: {} }),
      () => untyped.cloneTeam!(),
    ])
      expect(await rejection(call())).toMatchObject({ code: 'E_REQUEST_SHAPE' });
    expect(seen).toHaveLength(0);
  });

  it('a helper takes a cancelled signal and sends nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const untyped = service.groupsAndTeams as unknown as Record<string, (request?: object) => Promise<unknown>>;
    expect(
      await rejection(untyped.removeTeamMembers!({ team: 't', users: ['u'], signal: controller.signal })),
    ).toMatchObject({ code: 'E_ABORTED' });
    expect(
      await rejection(
        untyped.cloneTeam!({ team: 't', body: { displayName: 'x', partsToClone: 'apps' }, signal: controller.signal }),
      ),
    ).toMatchObject({ code: 'E_ABORTED' });
    expect(seen).toHaveLength(0);
  });

  it('names bomwright’s own version in the User-Agent unless told another', async () => {
    const agents: string[] = [];
    const echo = createServer((request, response) => {
      agents.push(String(request.headers['user-agent']));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"value":[]}');
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
    const { readFileSync } = await import('node:fs');
    const version = (
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
        version: string;
      }
    ).version;
    for (const options of [{}, { toolVersion: '1.2.3' }]) {
      const api = createClient({ baseUrl: url, token: 't', ...options });
      await api.governance.listHomeRealmDiscoveryPolicies({}).all();
      await api.close();
    }
    await new Promise<void>((resolve) => echo.close(() => resolve()));
    expect(agents).toEqual([`bomwright/${version}`, 'bomwright/1.2.3']);
  });

  it('syncMessages is the message delta flow, bound to this client', async () => {
    answer('/me/mailFolders/inbox/messages/delta', { value: [], '@odata.deltaLink': `${base}/v1.0/next` });
    const store = { load: () => undefined, save: () => undefined };
    const sync = service.mailAndCalendar.syncMessages as unknown as (o: object) => Promise<unknown>;
    await sync({ folder: 'inbox', store }).catch(() => undefined);
    expect(seen.some((url) => url.pathname.endsWith('/messages/delta'))).toBe(true);
  });
});
