/**
 * The typed client (createClient) against the emulator over real HTTP: every operation of the table through its
 * typed function, written out here by hand so that `tsc` checks the types users see as well; response shapes
 * checked; an unexpected shape is E_RESPONSE_SHAPE.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import {
  createClient,
  OPERATIONS,
  type AuthenticationMethod,
  type Message,
  type ServiceApi,
} from '../../src/service/index.js';
import { useEmulator } from '../emulator/harness.js';
import { BUILDING, CASE, LEVEL, SEARCH, userSourceUrl } from '../emulator/samples.js';

const api = useEmulator();
let service: ServiceApi;
let asApp: ServiceApi;
const U = SEED_IDS.users;
const G = SEED_IDS.groups;
const item = SEED_IDS.workbook;

beforeAll(() => {
  service = createClient({ baseUrl: api.emulator.url, getToken: () => api.token() });
  asApp = createClient({ baseUrl: api.emulator.url, getToken: () => api.token({ app: SEED_IDS.app }) });
});
afterAll(async () => {
  await service.close();
  await asApp.close();
});

describe('the typed client', () => {
  it('has one function per operation of the table, in its family', () => {
    for (const operation of OPERATIONS) {
      const family = (service as unknown as Record<string, Record<string, unknown>>)[operation.family];
      expect(typeof family?.[operation.name], operation.name).toBe('function');
    }
    const functions = Object.entries(service)
      .filter(([key]) => key !== 'transport' && key !== 'close')
      .flatMap(([, family]) => Object.keys(family as object));
    expect(functions.sort()).toEqual([...OPERATIONS.map((o) => o.name), 'syncMessages'].sort());
  });

  it('authentication methods: typed items, users as me or an id or user principal name', async () => {
    const mine = await service.authenticationMethods.listPhoneMethods({}).all();
    const byMe = await service.authenticationMethods.listPhoneMethods({ user: 'me' }).all();
    expect(byMe).toEqual(mine);
    const megan = await service.authenticationMethods.listPhoneMethods({ user: U.megan }).all();
    expect(megan).toHaveLength(1);
    expect(typeof megan[0]!.id).toBe('string');
    const methods: AuthenticationMethod[] = await service.authenticationMethods
      .listAuthenticationMethods({ user: U.megan })
      .all();
    expect(methods.length).toBeGreaterThan(0);
    for (const method of methods)
      if (method['@odata.type'] === '#vendor.graph.fido2AuthenticationMethod')
        expect(Array.isArray(method.attestationCertificates ?? [])).toBe(true);
      else expect(method['@odata.type']).toBe('#vendor.graph.deviceHelloForBusinessAuthenticationMethod');
  });

  it('groups and teams: every operation', async () => {
    const g = service.groupsAndTeams;
    const group = await g.getGroup({ group: G.release, select: ['id', 'displayName'] });
    expect(group.id).toBe(G.release);
    const channels = await g.listChannels({ team: G.release }).all();
    expect(channels.length).toBeGreaterThan(0);
    const tabs = await g.listChannelTabs({ team: G.release, channel: SEED_IDS.channels.builds }).all();
    expect(Array.isArray(tabs)).toBe(true);
    await g.replyToThread({
      group: G.release,
      thread: SEED_IDS.threads.review,
      body: { post: { body: { contentType: 'text', content: 'Typed reply' } } },
    });
    const posts = await g.listThreadPosts({ group: G.release, thread: SEED_IDS.threads.review }).all();
    expect(posts.some((post) => post.body?.content === 'Typed reply')).toBe(true);
    await g.addGroupOwner({ group: G.release, body: { '@odata.id': `${api.emulator.url}/v1.0/users/${U.megan}` } });
    const tab = await g.addChannelTab({
      team: G.release,
      channel: SEED_IDS.channels.general,
      body: {
        displayName: 'Dashboard',
        'teamsApp@odata.bind': `${api.emulator.url}/v1.0/appCatalogs/teamsApps/${SEED_IDS.teamsApps.dashboard}`,
        configuration: { entityId: 'x', contentUrl: 'https://dashboard.contoso.example/x' },
      },
    });
    expect(tab.displayName).toBe('Dashboard');
    const results = await g.removeTeamMembers({ team: G.release, users: [U.lee, 'nobody@contoso.example'] });
    expect(results.map((r) => [r.user, r.error === null])).toEqual([
      [U.lee, true],
      ['nobody@contoso.example', false],
    ]);
    const clone = await g.cloneTeam({
      team: G.release,
      body: { displayName: 'Typed clone', partsToClone: 'apps,tabs,settings,channels' },
    });
    const done = await clone.wait({ intervalMs: 10 });
    expect(done.status).toBe('succeeded');
    const operationId = /operations\(([^)]+)\)/.exec(clone.operationUrl)![1]!;
    const operation = await g.getTeamOperation({ team: G.release, operation: operationId });
    expect(operation.status).toBe('succeeded');
  });

  it('mail and calendar: every operation, delta as typed changes', async () => {
    const m = service.mailAndCalendar;
    const created: Message = await m.createMessage({ folder: 'inbox', body: { subject: 'Typed' } });
    expect(created.subject).toBe('Typed');
    const updated = await m.updateMessage({ message: created.id, body: { isRead: true } });
    expect(updated.isRead).toBe(true);
    const moved = await m.moveMessage({ message: created.id, body: { destinationId: 'archive' } });
    expect(typeof moved.id).toBe('string');
    const pages = [];
    for await (const page of m.messageDelta({ folder: 'inbox', select: ['subject'] }).pages()) pages.push(page);
    expect(pages.at(-1)!.deltaLink).toMatch(/deltatoken/i);
    const changes = pages.flatMap((page) => page.items);
    expect(changes.length).toBeGreaterThan(0);
    await m.deleteMessage({ message: moved.id });
    const next = await m.messageDelta({ folder: 'archive' }).all();
    expect(next.every((change) => typeof change.id === 'string')).toBe(true);
    const event = await m.getEvent({ event: 'evt-adele-gonogo', select: 'subject' });
    expect(event.subject).toBeTruthy();
    await m
      .forwardEvent({
        calendarGroup: 'cg-unknown',
        calendar: 'c',
        event: 'evt-adele-gonogo',
        body: { ToRecipients: [{ EmailAddress: { Address: 'dana@fabrikam.example' } }] },
      })
      .catch((error: { code?: string; status?: number }) => expect(error.status).toBe(404));
    await m.forwardEvent({
      event: 'evt-adele-gonogo',
      template: '/me/calendar/events/{event}/forward',
      body: { ToRecipients: [{ EmailAddress: { Address: 'dana@fabrikam.example' } }] },
    });
    await m.permanentDeleteEvent({ user: U.adele, event: 'evt-adele-planning' });
  });

  it('workbook: every operation, the session header where given', async () => {
    const w = service.workbook;
    const session = await w.createWorkbookSession({ item, body: { persistChanges: true } });
    const border = await w.updateNamedRangeBorder({
      item,
      name: 'Header',
      sideIndex: 'EdgeTop',
      body: { style: 'Continuous' },
      workbookSessionId: session.id,
    });
    expect(border.style).toBe('Continuous');
    const read = await w.getRangeBorder({ item, name: 'Header', sideIndex: 'EdgeTop', workbookSessionId: session.id });
    expect(read.style).toBe('Continuous');
    await w.updateRangeBorder({
      item,
      worksheet: 'Components',
      address: 'A2:F2',
      sideIndex: 'EdgeBottom',
      body: { color: '#FF0000' },
      workbookSessionId: session.id,
    });
    await w.updateColumnRangeBorder({
      itemPath: 'Documents/Inventory.xlsx',
      table: 'ComponentTable',
      column: 'license',
      sideIndex: 'EdgeLeft',
      body: { weight: 'Thick' },
      workbookSessionId: session.id,
    });
    const columns = await w.listTableColumns({ item, table: 'ComponentTable', top: 2, skip: 1 }).all();
    expect(columns).toHaveLength(2);
    expect(typeof columns[0]!.index).toBe('number');
    const point = await w.getChartPoint({ item, worksheet: 'Summary', chart: 'LicenseChart', series: 0, index: 1 });
    expect(typeof point).toBe('object');
    await w.closeWorkbookSession({ item, workbookSessionId: session.id });
  });

  it('governance, labels, places, planner, employee experience, print, cloud PCs and drive bundles', async () => {
    const request = await service.governance.getAssignmentRequest({
      request: SEED_IDS.assignmentRequests.delivered,
      expand: 'accessPackage',
    });
    expect(request.id).toBe(SEED_IDS.assignmentRequests.delivered);
    expect(request.accessPackage).toBeTruthy();
    const requirements = await service.governance
      .getApplicablePolicyRequirements({ accessPackage: SEED_IDS.accessPackage })
      .all();
    expect(Array.isArray(requirements)).toBe(true);
    const policies = await service.governance.listHomeRealmDiscoveryPolicies({ top: 1 }).all();
    expect(policies.every((policy) => typeof policy.id === 'string')).toBe(true);
    await service.governance.deleteAssignmentPolicy({ policy: SEED_IDS.assignmentPolicies.adminsOnly });
    const template = await service.labelsAndEdiscovery.getSubcategoryTemplate({
      category: '0d4c3b2a-8002-4e5f-9a6b-7c8d9e0f1a02',
      subcategory: '4ce5bb37-fd0d-0155-a404-b4dba3a580c2',
    });
    expect(template.id).toBe('4ce5bb37-fd0d-0155-a404-b4dba3a580c2');
    await service.labelsAndEdiscovery.addCustodianSource({
      case: CASE,
      search: SEARCH,
      body: { '@odata.id': userSourceUrl(api.emulator.url) },
    });
    const fixtures = await service.places.listFixtures({ building: BUILDING, level: LEVEL }).all();
    expect(fixtures.every((fixture) => typeof fixture.properties === 'string')).toBe(true);
    await service.places.deleteBuildingMap({ building: BUILDING });
    const format = await service.planner.getProgressTaskBoardFormat({ task: '01gzSlKkIUSUl6DF_EilrmQAKDhh' });
    expect(typeof format.orderHint).toBe('string');
    await service.employeeExperience.deleteEngagementRoleMember({
      role: 'ec759127-b001-4c5d-8e6f-7a8b9c0d1e01',
      member: 'f3e2d1c0-b003-4c5d-8e6f-7a8b9c0d1e03',
    });
    await asApp.print.deletePrintTaskDefinition({ taskDefinition: 'fab143fd-c002-4d5e-8f6a-7b8c9d0e1f02' });
    await service.cloudPcs.restoreCloudPc({
      cloudPc: '662009bc-d001-4e5f-8a6b-7c8d9e0f1a01',
      body: { cloudPcSnapshotId: 'A00009UV000_93aff428-61f2-467f-a879-1102af6fd4a8' },
    });
    await service.driveBundles.addBundleItem({ bundle: '123456!90', body: { id: '123456!87' } });
  });

  it('refuses unknown request members and bad bodies before sending, naming what it takes', async () => {
    const untyped = service.authenticationMethods.listPhoneMethods as unknown as (r: object) => {
      all(): Promise<unknown>;
    };
    await expect(untyped({ usr: 'x' }).all()).rejects.toThrow(/listPhoneMethods takes no "usr" \(it takes user\)/);
    const untypedBorder = service.workbook.updateNamedRangeBorder as unknown as (r: object) => Promise<unknown>;
    await expect(
      untypedBorder({ item, name: 'Header', sideIndex: 'EdgeTop', body: { style: 'Wavy' } }),
    ).rejects.toMatchObject({ code: 'E_REQUEST_SHAPE' });
  });
});

describe('response shapes', () => {
  let server: ReturnType<typeof createServer>;
  let base: string;
  const answers = new Map<string, unknown>();
  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = new URL(request.url!, 'http://x').pathname.replace(/^\/v1\.0/, '');
      response.writeHead(200, { 'Content-Type': 'application/json', 'request-id': 'req-1' });
      response.end(JSON.stringify(answers.get(path) ?? {}));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('an item of the wrong shape is E_RESPONSE_SHAPE naming the operation, the item and the member', async () => {
    const odd = createClient({ baseUrl: base, token: 't' });
    answers.set('/me/authentication/phoneMethods', { value: [{ id: 'a' }, { id: 7 }] });
    await expect(odd.authenticationMethods.listPhoneMethods({}).all()).rejects.toMatchObject({
      code: 'E_RESPONSE_SHAPE',
      status: 200,
      requestId: 'req-1',
      message: expect.stringMatching(/^listPhoneMethods: item 1: \/id must be string/),
    });
    answers.set('/me/authentication/phoneMethods', { items: [] });
    await expect(odd.authenticationMethods.listPhoneMethods({}).all()).rejects.toThrow(/has no "value" array/);
    answers.set('/me/authentication/phoneMethods', { value: [], '@odata.nextLink': 42 });
    await expect(odd.authenticationMethods.listPhoneMethods({}).all()).rejects.toThrow(/must be strings/);
    answers.set(`/groups/g`, ['not', 'a', 'group']);
    await expect(odd.groupsAndTeams.getGroup({ group: 'g' })).rejects.toThrow(/^getGroup: the body must be object/);
    answers.set('/planner/tasks/t/progressTaskBoardFormat', { id: 'x', orderHint: 12 });
    await expect(odd.planner.getProgressTaskBoardFormat({ task: 't' })).rejects.toThrow(
      /\/orderHint must be string,null/,
    );
    answers.set('/me/mailFolders/inbox/messages/delta', { value: [{ subject: 'no id' }] });
    await expect(odd.mailAndCalendar.messageDelta({ folder: 'inbox' }).all()).rejects.toMatchObject({
      code: 'E_RESPONSE_SHAPE',
    });
    // Members the spec does not show, and nulls, are read as they come.
    answers.set('/me/authentication/phoneMethods', {
      value: [{ id: 'a', phoneNumber: null, extra: { deep: true } }],
      '@odata.context': 'x',
    });
    expect(await odd.authenticationMethods.listPhoneMethods({}).all()).toEqual([
      { id: 'a', phoneNumber: null, extra: { deep: true } },
    ]);
    await odd.close();
  });

  it('follows next links across empty pages, lazily', async () => {
    const paged = createClient({ baseUrl: base, token: 't' });
    answers.set('/policies/homeRealmDiscoveryPolicies', {
      value: [],
      '@odata.nextLink': `${base}/v1.0/page2`,
    });
    answers.set('/page2', { value: [{ id: 'p1' }], '@odata.nextLink': `${base}/v1.0/page3` });
    answers.set('/page3', { value: [{ id: 'p2' }] });
    const pager = paged.governance.listHomeRealmDiscoveryPolicies({});
    const ids = [];
    for await (const policy of pager) ids.push(policy.id);
    expect(ids).toEqual(['p1', 'p2']);
    await paged.close();
  });
});

describe('the typed client, edges', () => {
  let server: ReturnType<typeof createServer>;
  let base: string;
  const seen: string[] = [];
  const answers = new Map<string, unknown>();
  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(request.url!);
      const path = new URL(request.url!, 'http://x').pathname.replace(/^\/v1\.0/, '');
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(answers.get(path) ?? {}));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('writes query options as the service reads them: lists joined with commas, numbers as they are', async () => {
    const odd = createClient({ baseUrl: base, token: 't' });
    answers.set('/policies/homeRealmDiscoveryPolicies', { value: [] });
    await odd.governance
      .listHomeRealmDiscoveryPolicies({
        select: ['id', 'displayName'],
        top: 5,
        expand: 'appliesTo',
        filter: "displayName eq 'x'",
      })
      .all();
    const query = new URL(seen.at(-1)!, 'http://x').searchParams;
    expect(Object.fromEntries(query)).toEqual({
      $select: 'id,displayName',
      $top: '5',
      $expand: 'appliesTo',
      $filter: "displayName eq 'x'",
    });
    await odd.close();
  });

  it('stops a link loop at maxPages, and refuses a delta link that is not a string', async () => {
    const odd = createClient({ baseUrl: base, token: 't' });
    answers.set('/policies/homeRealmDiscoveryPolicies', {
      value: [{ id: 'p' }],
      '@odata.nextLink': `${base}/v1.0/policies/homeRealmDiscoveryPolicies`,
    });
    // A nextLink back at the page itself is a loop: stopped at once, whatever maxPages allows.
    await expect(odd.governance.listHomeRealmDiscoveryPolicies({ maxPages: 3 }).all()).rejects.toMatchObject({
      code: 'E_LINK_LOOP',
      message:
        'listHomeRealmDiscoveryPolicies: the service sent a link to a page already read (page 2 would repeat one): a loop, stopped',
    });
    const pages: number[] = [];
    await expect(
      (async () => {
        for await (const page of odd.governance.listHomeRealmDiscoveryPolicies({}).pages())
          pages.push(page.items.length);
      })(),
    ).rejects.toThrow(/a loop, stopped/);
    expect(pages).toEqual([1]);
    answers.set('/policies/homeRealmDiscoveryPolicies', { value: [], '@odata.deltaLink': 5 });
    await expect(odd.governance.listHomeRealmDiscoveryPolicies({}).all()).rejects.toThrow(/must be strings/);
    answers.set('/policies/homeRealmDiscoveryPolicies', null);
    await expect(odd.governance.listHomeRealmDiscoveryPolicies({}).all()).rejects.toThrow(/has no "value" array/);
    await odd.close();
  });

  it('refuses a wrapped answer without its value, and says how the helpers are called', async () => {
    const odd = createClient({ baseUrl: base, token: 't' });
    answers.set('/security/labels/categories/c/subcategories/s', { id: 's' });
    await expect(odd.labelsAndEdiscovery.getSubcategoryTemplate({ category: 'c', subcategory: 's' })).rejects.toThrow(
      'getSubcategoryTemplate: the answer has no "value"',
    );
    const untyped = odd.groupsAndTeams as unknown as Record<string, (request?: object) => Promise<unknown>>;
    await expect(untyped.removeTeamMembers!({ team: 't' })).rejects.toThrow(
      'removeTeamMembers takes { team, users: [...] }',
    );
    await expect(untyped.removeTeamMembers!({ users: [] })).rejects.toThrow(
      'removeTeamMembers takes { team, users: [...] }',
    );
    await expect(untyped.cloneTeam!({ body: {} })).rejects.toThrow('cloneTeam takes { team, body }');
    const tables = odd.workbook.listTableColumns as unknown as (r: object) => { all(): Promise<unknown> };
    await expect(tables({ item: 'i', table: 't', colour: 'red' }).all()).rejects.toThrow(
      'listTableColumns takes no "colour" (it takes item, table, itemPath, worksheet, filter, orderby, select, top, skip, count)',
    );
    // A long problem is cut to a line.
    answers.set('/planner/tasks/t/progressTaskBoardFormat', { id: 'x', ['x'.repeat(400)]: 1, orderHint: 5 });
    const error = await odd.planner.getProgressTaskBoardFormat({ task: 't' }).catch((e: Error) => e);
    expect((error as Error).message.length).toBeLessThanOrEqual(340);
    await odd.close();
  });
});

/** Never called: `tsc` (run over the tests by `npm run lint` in CI) checks that wrong requests do not compile. */
export function wrongRequestsDoNotCompile(s: ServiceApi): void {
  // @ts-expect-error a path parameter is missing
  void s.groupsAndTeams.getGroup({});
  // @ts-expect-error listPhoneMethods takes no query options
  void s.authenticationMethods.listPhoneMethods({ select: 'id' });
  // @ts-expect-error the body is required
  void s.cloudPcs.restoreCloudPc({ cloudPc: 'x' });
  // @ts-expect-error the border style is one of the spec's values
  void s.workbook.updateNamedRangeBorder({ item: 'i', name: 'n', sideIndex: 's', body: { style: 'Wavy' } });
  // @ts-expect-error $top is a number
  void s.governance.listHomeRealmDiscoveryPolicies({ top: 'ten' });
  // @ts-expect-error a session header only where the operation reads one
  void s.places.listFixtures({ building: 'b', level: 'l', workbookSessionId: 's' });
}
