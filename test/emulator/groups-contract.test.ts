/**
 * The groups and teams operations as the spec's rows and rules say, to the letter: error codes and messages,
 * limits on both sides, the exact records a clone creates (read back from the emulator's state folder), and that a
 * refused request changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED, SEED_IDS, type EmulatorOptions } from '../../src/emulator/index.js';
import { loadState } from '../../src/emulator/journal.js';
import type { JsonRecord } from '../../src/emulator/store.js';
import { tempDirs } from '../helpers.js';
import { Harness, useEmulator, type Reply } from './harness.js';

const U = SEED_IDS.users;
const G = SEED_IDS.groups;
const SP = SEED_IDS.servicePrincipal;
const APPS = SEED_IDS.teamsApps;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const THREAD = `/groups/${G.release}/threads/${SEED_IDS.threads.suppliers}`;
const BUILDS = SEED_IDS.channels.builds;
const GENERAL = SEED_IDS.channels.general;
const tabsOf = (channel: string, team: string = G.release): string =>
  `/teams/${team}/channels/${encodeURIComponent(channel)}/tabs`;

/** State folders made by this file, removed after it. */
const stateFolder = tempDirs('bomwright-emulator-');

const api = useEmulator({ clonePolls: 1 });

/** The error body of a refused request: status, code and message, all three. */
function expectFault(reply: Reply, status: number, code: string, message: string | RegExp): void {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.body.error.code).toBe(code);
  if (typeof message === 'string') expect(reply.body.error.message).toBe(message);
  else expect(reply.body.error.message).toMatch(message);
}

/** An emulator of its own, for tests that change state another test reads. */
async function withEmulator(options: EmulatorOptions, run: (local: Harness) => Promise<void>): Promise<void> {
  const local = new Harness(options);
  await local.start();
  try {
    await run(local);
  } finally {
    await local.emulator.close();
  }
}

/** What the emulator has written to its state folder (every acknowledged write is there at once). */
function storedRecord(stateDir: string, collection: 'groups' | 'teams' | 'teamOperations', id: string): JsonRecord {
  const record = loadState(stateDir, true).store.get(collection, id);
  expect(record, `${collection}/${id}`).toBeDefined();
  return record!;
}

const file = (bytes: number, extra: Record<string, unknown> = {}) => ({
  '@odata.type': '#vendor.graph.fileAttachment',
  name: `f${bytes}.bin`,
  contentBytes: Buffer.alloc(bytes, 1).toString('base64'),
  ...extra,
});
const event = {
  '@odata.type': 'vendor.graph.event',
  subject: 'Release party',
  body: { contentType: 'HTML', content: '<p>Cake</p>' },
  start: { dateTime: '2026-12-02T18:00:00', timeZone: 'Pacific Standard Time' },
  end: { dateTime: '2026-12-02T19:00:00', timeZone: 'Pacific Standard Time' },
};
const reference = (extra: Record<string, unknown> = {}) => ({
  '@odata.type': '#vendor.graph.referenceAttachment',
  name: 'Signed SBOMs',
  sourceUrl: 'https://contoso.example/sites/releng/Documents/SBOMs',
  providerType: 'driveConsumer',
  permission: 'Edit',
  ...extra,
});
const reply = (attachments: unknown[], content = 'See attached') => ({
  post: { body: { contentType: 'text', content }, attachments },
});

async function posts(local: Harness = api, thread = THREAD): Promise<JsonRecord[]> {
  const listed = await local.call('GET', `${thread}/posts`);
  expect(listed.status, listed.text).toBe(200);
  return listed.body.value;
}

describe('thread replies', () => {
  it('stores the post with its author, its body and hasAttachments, and lists it under a context naming group and thread', async () => {
    expect((await api.call('POST', `${THREAD}/reply`, { body: reply([], 'no files') })).status).toBe(202);
    expect((await api.call('POST', `${THREAD}/reply`, { body: reply([file(10)], 'one file') })).status).toBe(202);
    const jordan = await api.token({ user: U.jordan });
    expect((await api.call('POST', `${THREAD}/reply`, { token: jordan, body: reply([], 'guest') })).status).toBe(202);

    const listed = await api.call('GET', `${THREAD}/posts`);
    expect(listed.body['@odata.context']).toBe(
      `${api.emulator.url}/v1.0/$metadata#groups('${G.release}')/threads('${SEED_IDS.threads.suppliers}')/posts`,
    );
    const byContent = (content: string) =>
      listed.body.value.find((p: { body: { content: string } }) => p.body.content === content);
    const plain = byContent('no files');
    expect(plain).toEqual({
      id: expect.stringMatching(GUID),
      body: { contentType: 'text', content: 'no files' },
      createdDateTime: expect.any(String),
      receivedDateTime: plain.createdDateTime,
      from: { emailAddress: { name: 'Adele Vance', address: 'adele@contoso.example' } },
      hasAttachments: false,
      attachments: [],
    });
    expect(byContent('one file').hasAttachments).toBe(true);
    // The sender's address is their mail, not their user principal name, when they have one.
    expect(byContent('guest').from).toEqual({
      emailAddress: { name: 'Jordan Miller (Fabrikam)', address: 'jordan@fabrikam.example' },
    });
  });

  it('names a sender without a mail address by their user principal name', async () => {
    const seed = structuredClone(DEFAULT_SEED) as unknown as { users: Record<string, unknown>[] };
    seed.users.push({
      id: '8b3f1a2c-10ff-4d5e-9f60-7a8b9c0d1eff',
      userPrincipalName: 'nomail@contoso.example',
      displayName: 'No Mail',
      mail: null,
    });
    await withEmulator({ seed }, async (local) => {
      const token = await local.token({ user: 'nomail@contoso.example' });
      expect((await local.call('POST', `${THREAD}/reply`, { token, body: reply([]) })).status).toBe(202);
      expect((await posts(local)).at(-1)!.from).toEqual({
        emailAddress: { name: 'No Mail', address: 'nomail@contoso.example' },
      });
    });
  });

  it('keeps each attachment as sent, with its full type name, a new id and its size in bytes', async () => {
    const url = 'http://contoso.example/a';
    const sent = await api.call('POST', `${THREAD}/reply`, {
      body: reply(
        [
          file(1, { contentType: 'application/octet-stream', isInline: false }),
          { ...file(2), '@odata.type': 'vendor.graph.fileAttachment' },
          file(3),
          {
            '@odata.type': 'vendor.graph.itemAttachment',
            name: 'Party',
            item: event,
            contentType: 'x',
            isInline: true,
          },
          reference({ sourceUrl: url, isFolder: true, contentType: 'text/html', isInline: false }),
          reference({ isFolder: 'FALSE' }),
          reference(),
        ],
        'sizes',
      ),
    });
    expect(sent.status, sent.text).toBe(202);
    const post = (await posts()).find((p) => (p.body as JsonRecord).content === 'sizes')!;
    const attachments = post.attachments as JsonRecord[];
    expect(attachments[0]).toEqual({
      '@odata.type': '#vendor.graph.fileAttachment',
      name: 'f1.bin',
      contentBytes: 'AQ==',
      contentType: 'application/octet-stream',
      isInline: false,
      id: expect.stringMatching(GUID),
      size: 1,
    });
    expect(attachments.map((a) => [a['@odata.type'], a.size])).toEqual([
      ['#vendor.graph.fileAttachment', 1],
      ['#vendor.graph.fileAttachment', 2],
      ['#vendor.graph.fileAttachment', 3],
      ['#vendor.graph.itemAttachment', Buffer.byteLength(JSON.stringify(event))],
      ['#vendor.graph.referenceAttachment', url.length],
      ['#vendor.graph.referenceAttachment', reference().sourceUrl.length],
      ['#vendor.graph.referenceAttachment', reference().sourceUrl.length],
    ]);
    expect(new Set(attachments.map((a) => a.id)).size).toBe(7);
    expect(attachments[4]).toMatchObject({ isFolder: true, contentType: 'text/html', isInline: false });
  });

  it('refuses an attachment of exactly 3 MB with 413, takes one byte less, and stores nothing when refused', async () => {
    const limit = 3 * 1024 * 1024;
    const before = (await posts()).length;
    const over = await api.call('POST', `${THREAD}/reply`, { body: reply([file(10), file(limit)]) });
    expectFault(
      over,
      413,
      'RequestEntityTooLarge',
      `attachments[1] ('f${limit}.bin') is ${limit} bytes; an attachment must stay under 3 MB (${limit} bytes).`,
    );
    expect(await posts()).toHaveLength(before);
    expect((await api.call('POST', `${THREAD}/reply`, { body: reply([file(limit - 1)]) })).status).toBe(202);
    expect(await posts()).toHaveLength(before + 1);
  });

  it('refuses a malformed attachment with 400 and a message naming it by index and name', async () => {
    const long = 'n'.repeat(100);
    const cases: [unknown[], string][] = [
      [
        [{ '@odata.type': '#vendor.graph.fileAttachment', name: 'x' }],
        "attachments[0] ('x'): a fileAttachment needs contentBytes.",
      ],
      [[file(3), { ...file(3), contentBytes: 'AQ=' }], "attachments[1] ('f3.bin'): contentBytes is not base64."],
      [
        [{ ...file(3), name: long, contentBytes: '!!!!' }],
        `attachments[0] ('${'n'.repeat(59)}…'): contentBytes is not base64.`,
      ],
      [
        [{ ...file(3), sourceUrl: 'https://x.example' }],
        "attachments[0] ('f3.bin'): property 'sourceUrl' does not belong to a fileAttachment.",
      ],
      [
        [{ '@odata.type': '#vendor.graph.itemAttachment', name: 'i', item: event, sourceUrl: 'https://x.example' }],
        "attachments[0] ('i'): property 'sourceUrl' does not belong to a itemAttachment.",
      ],
      [
        [reference({ contentBytes: 'AQ==' })],
        "attachments[0] ('Signed SBOMs'): property 'contentBytes' does not belong to a referenceAttachment.",
      ],
      [
        [{ '@odata.type': '#vendor.graph.itemAttachment', name: 'i' }],
        "attachments[0] ('i'): an itemAttachment needs an item (an event).",
      ],
    ];
    const needsUrl = "attachments[0] ('Signed SBOMs'): a referenceAttachment needs sourceUrl, an http or https URL.";
    for (const sourceUrl of ['ftp://x.example', 'see https://x.example', 'https://', 'https:///path'])
      cases.push([[reference({ sourceUrl })], needsUrl]);
    cases.push([[{ ...reference(), sourceUrl: undefined }], needsUrl]);
    for (const member of ['providerType', 'permission'])
      for (const value of [undefined, ''])
        cases.push([
          [{ ...reference(), [member]: value }],
          `attachments[0] ('Signed SBOMs'): a referenceAttachment needs ${member}.`,
        ]);
    for (const isFolder of ['maybe', 'xtrue', 'truex', ''])
      cases.push([[reference({ isFolder })], "attachments[0] ('Signed SBOMs'): isFolder must be true or false."]);

    const before = (await posts()).length;
    for (const [attachments, message] of cases) {
      const refused = await api.call('POST', `${THREAD}/reply`, { body: reply(attachments) });
      expectFault(refused, 400, 'BadRequest', message);
    }
    expect(await posts()).toHaveLength(before);
  });

  it('answers 404 for an unknown group or thread, in both path forms and when listing', async () => {
    const missingGroup =
      "Resource 'no-such-group' does not exist or one of its queried reference-property objects are not present.";
    expectFault(
      await api.call('POST', `/groups/no-such-group/threads/${SEED_IDS.threads.suppliers}/reply`, { body: reply([]) }),
      404,
      'Request_ResourceNotFound',
      missingGroup,
    );
    expectFault(
      await api.call('GET', `/groups/no-such-group/threads/${SEED_IDS.threads.suppliers}/posts`),
      404,
      'Request_ResourceNotFound',
      missingGroup,
    );
    for (const path of [
      `/groups/${G.release}/threads/no-thread/reply`,
      `/groups/${G.release}/conversations/${SEED_IDS.conversations.suppliers}/threads/no-thread/reply`,
    ])
      expectFault(
        await api.call('POST', path, { body: reply([]) }),
        404,
        'itemNotFound',
        "Thread 'no-thread' was not found.",
      );
    expectFault(
      await api.call('GET', `/groups/${G.physics}/threads/${SEED_IDS.threads.suppliers}/posts`),
      404,
      'itemNotFound',
      `Thread '${SEED_IDS.threads.suppliers}' was not found.`,
    );
    const viaConversation = await api.call(
      'GET',
      `/groups/${G.release}/conversations/${SEED_IDS.conversations.review}/threads/${SEED_IDS.threads.review}/posts`,
    );
    expect(viaConversation.status).toBe(200);
    expect(viaConversation.body.value[0].id).toBe('AAMkAGPostRelease42-1');
  });
});

describe('groups, channels and tabs as read', () => {
  it('returns the group fields only, under the groups/$entity context, and $select keeps id and the names asked for', async () => {
    const full = await api.call('GET', `/groups/${G.physics}`);
    expect(full.body).toEqual({
      '@odata.context': `${api.emulator.url}/v1.0/$metadata#groups/$entity`,
      id: G.physics,
      displayName: 'Physics 101',
      description: 'Introductory physics, autumn term',
      mailNickname: 'physics101',
      classification: 'Education',
      visibility: 'HiddenMembership',
      groupTypes: ['Unified'],
      mailEnabled: true,
      securityEnabled: false,
      resourceProvisioningOptions: ['Team'],
    });
    const selected = await api.call('GET', `/groups/${G.physics}?$select=visibility`);
    expect(selected.body).toEqual({
      '@odata.context': `${api.emulator.url}/v1.0/$metadata#groups/$entity`,
      id: G.physics,
      visibility: 'HiddenMembership',
    });
    expectFault(
      await api.call('GET', `/groups/${G.physics}?$select=owners`),
      400,
      'BadRequest',
      "Could not find a property named 'owners' on type 'vendor.graph.group'.",
    );
  });

  it('lists channels without their tabs and message counts, and a channel’s tabs with their app as teamsApp', async () => {
    const channels = await api.call('GET', `/teams/${G.physics}/channels`);
    expect(channels.body).toEqual({
      '@odata.context': `${api.emulator.url}/v1.0/$metadata#teams('${G.physics}')/channels`,
      value: [
        {
          id: '19:general-physics@thread.tacv2',
          displayName: 'General',
          description: 'Class',
          membershipType: 'standard',
        },
      ],
    });
    const tabs = await api.call('GET', tabsOf('19:general-company@thread.tacv2', G.company));
    expect(tabs.body).toEqual({
      '@odata.context': `${api.emulator.url}/v1.0/$metadata#teams('${G.company}')/channels('19:general-company@thread.tacv2')/tabs`,
      value: [],
    });
    expectFault(await api.call('GET', tabsOf('nope')), 404, 'NotFound', "Channel 'nope' was not found.");
    expectFault(await api.call('GET', '/teams/nope/channels'), 404, 'NotFound', 'No team found with Group Id nope');
  });
});

describe('group owners', () => {
  const ref = (url: string) => ({ body: { '@odata.id': url } });
  const users = (id: string) => `${api.emulator.url}/v1.0/users/${id}`;

  it('refuses a reference that is not one of this service, or to something other than a user or service principal', async () => {
    expectFault(
      await api.call('POST', `/groups/${G.physics}/owners/$ref`, ref('https://elsewhere.example/x')),
      400,
      'BadRequest',
      "Invalid @odata.id: 'https://elsewhere.example/x' is not a reference to an object of this service.",
    );
    expectFault(
      await api.call('POST', `/groups/${G.physics}/owners/$ref`, ref(`${api.emulator.url}/v1.0/groups/${G.release}`)),
      400,
      'BadRequest',
      "Invalid @odata.id: an owner is a user or a service principal, not 'groups'.",
    );
  });

  it('finds a user under users/ or directoryObjects/, a service principal under servicePrincipals/ or directoryObjects/, and nothing across', async () => {
    const app = { token: await api.token({ app: SEED_IDS.app }) };
    const base = `${api.emulator.url}/v1.0`;
    const missing = (id: string) =>
      `Resource '${id}' does not exist or one of its queried reference-property objects are not present.`;
    expectFault(
      await api.call('POST', `/groups/${G.physics}/owners/$ref`, {
        ...app,
        ...ref(`${base}/servicePrincipals/${U.alex}`),
      }),
      404,
      'Request_ResourceNotFound',
      missing(U.alex),
    );
    expectFault(
      await api.call('POST', `/groups/${G.physics}/owners/$ref`, { ...app, ...ref(`${base}/users/${SP}`) }),
      404,
      'Request_ResourceNotFound',
      missing(SP),
    );
    expectFault(
      await api.call('POST', `/groups/${G.physics}/owners/$ref`, {
        ...app,
        ...ref(`${base}/servicePrincipals/nobody`),
      }),
      404,
      'Request_ResourceNotFound',
      missing('nobody'),
    );
    expect(
      (
        await api.call('POST', `/groups/${G.physics}/owners/$ref`, {
          ...app,
          ...ref(`${base}/directoryObjects/${U.alex}`),
        })
      ).status,
    ).toBe(204);
    expect(
      (await api.call('POST', `/groups/${G.physics}/owners/$ref`, { ...app, ...ref(`${base}/directoryObjects/${SP}`) }))
        .status,
    ).toBe(204);
    // Both are owners now: adding either again is refused.
    for (const url of [`${base}/users/${U.alex}`, `${base}/servicePrincipals/${SP}`])
      expectFault(
        await api.call('POST', `/groups/${G.physics}/owners/$ref`, { ...app, ...ref(url) }),
        400,
        'BadRequest',
        "One or more added object references already exist for the following modified properties: 'owners'.",
      );
  });

  it('follows the directory-role table: all groups, user owners only, unified groups only, security groups only', async () => {
    // Megan holds no role and owns neither group; each role is given to her token in turn.
    const spUrl = `${api.emulator.url}/v1.0/servicePrincipals/${SP}`;
    const cases: [string, string, string, number][] = [
      ['directoryWriters', G.release, users(U.jordan), 204],
      ['directoryWriters', G.buildServers, spUrl, 403],
      ['userAdministrator', G.buildServers, users(U.jordan), 204],
      ['collaborationAdministrator', G.release, spUrl, 204],
      ['communityAdministrator', G.buildServers, users(U.patti), 403],
      ['knowledgeManager', G.buildServers, spUrl, 204],
      ['cloudDesktopAdministrator', G.release, users(U.patti), 403],
      ['knowledgeAdministrator', G.release, users(U.patti), 403],
      ['sitesAdministrator', G.buildServers, users(U.patti), 403],
    ];
    for (const [role, group, object, status] of cases) {
      const token = await api.token({ user: 'megan@contoso.example', directoryRoles: [role] });
      const result = await api.call('POST', `/groups/${group}/owners/$ref`, { token, ...ref(object) });
      if (status === 204) expect(result.status, `${role} on ${group}: ${result.text}`).toBe(204);
      else
        expectFault(
          result,
          403,
          'Authorization_RequestDenied',
          'Insufficient privileges to complete the operation: your directory roles do not allow changing the owners of this group.',
        );
    }
    // The refusals added nobody: a groups administrator can still add Patti to the release group.
    const patti = await api.token({ user: 'patti@contoso.example' });
    expect(
      (await api.call('POST', `/groups/${G.release}/owners/$ref`, { token: patti, ...ref(users(U.patti)) })).status,
    ).toBe(204);
  });

  it('refuses owners for a distribution list with 400, whoever asks', async () => {
    const app = await api.token({ app: SEED_IDS.app });
    expectFault(
      await api.call('POST', `/groups/${G.announcements}/owners/$ref`, { token: app, ...ref(users(U.adele)) }),
      400,
      'BadRequest',
      'Owners can be added to unified (Microsoft 365) and security groups only.',
    );
  });
});

describe('bulk member removal', () => {
  const bind = (local: Harness, id: string, kind = 'users') => ({
    '@odata.type': 'vendor.graph.dirUserConversationMember',
    'user@odata.bind': `${local.emulator.url}/v1.0/${kind}('${id}')`,
  });
  const remove = (local: Harness, team: string, values: unknown[]) =>
    local.call('POST', `/teams/${team}/members/remove`, { body: { values } });
  const notFound = (userId: string) => ({
    '@odata.type': '#vendor.graph.dirUserConversationMemberResult',
    userId,
    error: { code: 'NotFound', message: 'Could not find resource' },
  });

  it('takes 20 members in one request and refuses 21, removing nobody then', async () => {
    await withEmulator({}, async (local) => {
      const twentyOne = Array.from({ length: 21 }, (_, i) => bind(local, `0000000${i}`.slice(-8)));
      twentyOne[0] = bind(local, U.megan);
      expectFault(
        await remove(local, G.release, twentyOne),
        400,
        'BadRequest',
        'At most 20 members can be removed in one request; got 21.',
      );
      const twenty = twentyOne.slice(1);
      const taken = await remove(local, G.release, twenty);
      expect(taken.status, taken.text).toBe(207);
      expect(taken.body['@odata.context']).toBe(
        `${local.emulator.url}/v1.0/$metadata#Collection(vendor.graph.dirUserConversationMemberResult)`,
      );
      expect(taken.body.value).toHaveLength(20);
      expect(taken.body.value[0]).toEqual(notFound('00000001'));
      // Megan was not removed by the refused request.
      expect((await remove(local, G.release, [bind(local, U.megan)])).status).toBe(204);
    });
  });

  it('refuses an empty list and a bind that is not a reference, and then removes nobody', async () => {
    await withEmulator({}, async (local) => {
      expectFault(await remove(local, G.release, []), 400, 'BadRequest', 'values must name at least one member.');
      expectFault(
        await remove(local, G.release, [bind(local, U.megan), { 'user@odata.bind': 'megan' }]),
        400,
        'BadRequest',
        "Invalid user@odata.bind: 'megan' is not a reference to an object of this service.",
      );
      expect((await remove(local, G.release, [bind(local, U.megan)])).status).toBe(204);
      expectFault(
        await remove(local, 'no-team', [bind(local, U.megan)]),
        404,
        'NotFound',
        'No team found with Group Id no-team',
      );
    });
  });

  it('only removes users: a bind to another kind of object with a member’s id is not found', async () => {
    await withEmulator({}, async (local) => {
      const result = await remove(local, G.release, [bind(local, U.megan, 'groups')]);
      expect(result.status).toBe(207);
      expect(result.body.value).toEqual([notFound(U.megan)]);
      expect((await remove(local, G.release, [bind(local, U.megan)])).status).toBe(204);
    });
  });

  it('takes a removed user out of the group’s members and owners, and leaves everyone else', async () => {
    await withEmulator({}, async (local) => {
      const task = '/planner/tasks/01gzSlKkIUSUl6DF_EilrmQAKDhh/progressTaskBoardFormat';
      const as = async (user: string) => ({ token: await local.token({ user: `${user}@contoso.example` }) });
      const patti = await as('patti');
      const ownerRef = (id: string) => ({ ...patti, body: { '@odata.id': `${local.emulator.url}/v1.0/users/${id}` } });
      expect((await local.call('POST', `/groups/${G.release}/owners/$ref`, ownerRef(U.alex))).status).toBe(204);
      expect((await local.call('GET', task, await as('megan'))).status).toBe(200);

      // Adele (owner and member) and Megan (member) leave.
      expect((await remove(local, G.release, [bind(local, U.adele), bind(local, U.megan)])).status).toBe(204);
      for (const user of ['adele', 'megan'])
        expectFault(
          await local.call('GET', task, await as(user)),
          403,
          'Forbidden',
          /only members of the plan’s group/,
        );
      expect((await local.call('GET', task, await as('lee'))).status).toBe(200);
      // Adele is no longer an owner; Alex still is.
      expect((await local.call('POST', `/groups/${G.release}/owners/$ref`, ownerRef(U.adele))).status).toBe(204);
      expect((await local.call('POST', `/groups/${G.release}/owners/$ref`, ownerRef(U.alex))).status).toBe(400);
    });
  });
});

describe('team clone', () => {
  const ALL = 'apps,tabs,settings,channels,members';
  const release = DEFAULT_SEED.teams.find((t) => t.id === G.release)!;

  /** Starts a clone and polls it to the end; returns the new team's id. */
  async function cloneOf(local: Harness, team: string, body: Record<string, unknown>, token?: string): Promise<string> {
    const started = await local.call('POST', `/teams/${team}/clone`, { body, token });
    expect(started.status, started.text).toBe(202);
    const done = await local.call('GET', started.headers.get('location')!);
    expect(done.body.status, done.text).toBe('succeeded');
    return done.body.targetResourceId as string;
  }

  it('answers 202 with a text/plain Location, and the operation shows only its own fields', async () => {
    const started = await api.call('POST', `/teams/${G.release}/clone`, {
      body: { displayName: 'Shape', partsToClone: 'apps' },
    });
    expect(started.status).toBe(202);
    expect(started.headers.get('content-type')).toMatch(/^text\/plain/);
    const location = started.headers.get('location')!;
    const opId = /operations\(([^)]+)\)$/.exec(location)![1]!;
    const first = await api.call('GET', location);
    expect(first.body).toEqual({
      '@odata.context': `${api.emulator.url}/v1.0/$metadata#teams('${G.release}')/operations/$entity`,
      id: opId,
      operationType: 'cloneTeam',
      createdDateTime: expect.any(String),
      lastActionDateTime: expect.any(String),
      status: 'running',
      attemptsCount: 1,
      targetResourceId: null,
      targetResourceLocation: null,
      error: null,
    });
    expectFault(
      await api.call('GET', `/teams/${G.release}/operations/nope`),
      404,
      'NotFound',
      "Operation 'nope' was not found.",
    );
    expectFault(
      await api.call('GET', `/teams/${G.physics}/operations/${opId}`),
      404,
      'NotFound',
      `Operation '${opId}' was not found.`,
    );
  });

  it('refuses the organization-wide team and an unknown part with exact messages', async () => {
    expectFault(
      await api.call('POST', `/teams/${G.company}/clone`, { body: { displayName: 'x', partsToClone: 'apps' } }),
      400,
      'BadRequest',
      'Cloning is not supported for organization-wide teams.',
    );
    expectFault(
      await api.call('POST', `/teams/${G.release}/clone`, { body: { displayName: 'x', partsToClone: 'apps, wiki' } }),
      400,
      'BadRequest',
      "Invalid partsToClone 'apps, wiki': each part is one of apps, tabs, settings, channels, members.",
    );
  });

  it('copies every part asked for: the group as asked, channels with unconfigured tabs, settings, apps, members and owners', async () => {
    const stateDir = stateFolder();
    await withEmulator({ stateDir, clonePolls: 0 }, async (local) => {
      const id = await cloneOf(local, G.release, {
        displayName: 'Release Copy',
        description: 'A copy',
        mailNickname: 'Rel-Copy',
        classification: 'Secret',
        visibility: 'public',
        partsToClone: ALL,
      });
      expect(storedRecord(stateDir, 'groups', id)).toEqual({
        id,
        displayName: 'Release Copy',
        description: 'A copy',
        mailNickname: 'relcopy',
        classification: 'Secret',
        visibility: 'Public',
        groupTypes: ['Unified'],
        mailEnabled: true,
        securityEnabled: false,
        resourceProvisioningOptions: ['Team'],
        owners: [U.adele],
        members: [U.adele, U.megan, U.alex, U.lee],
      });
      const team = storedRecord(stateDir, 'teams', id);
      const channelId = expect.stringMatching(/^19:[0-9a-f]{32}@thread\.tacv2$/);
      expect(team).toEqual({
        id,
        displayName: 'Release Copy',
        specialization: 'none',
        isOrganizationWide: false,
        settings: release.settings,
        installedApps: release.installedApps,
        channels: [
          {
            id: channelId,
            displayName: 'General',
            description: 'Release engineering',
            membershipType: 'standard',
            messageCount: 0,
            tabs: [],
          },
          {
            id: channelId,
            displayName: 'Builds',
            description: 'Nightly and release builds',
            membershipType: 'standard',
            messageCount: 0,
            tabs: [
              {
                id: expect.stringMatching(GUID),
                displayName: 'SBOM dashboard',
                teamsAppId: APPS.dashboard,
                configuration: { entityId: null, contentUrl: null, websiteUrl: null, removeUrl: null },
                webUrl: null,
              },
            ],
          },
        ],
        members: release.members.map((m) => ({ ...m, id: expect.stringMatching(GUID) })),
        clonedFrom: G.release,
      });
      const op = [...loadState(stateDir, true).store.all('teamOperations')][0]!;
      expect(op).toMatchObject({ requestedBy: U.adele, request: { partsToClone: ALL } });
    });
  });

  it('without members, channels, tabs, settings or apps: the caller alone, the General channel bare, no settings, no apps', async () => {
    const stateDir = stateFolder();
    await withEmulator({ stateDir, clonePolls: 0 }, async (local) => {
      // A tab on General shows that tabs are copied only when asked for.
      const pinned = await local.call('POST', tabsOf(GENERAL), {
        body: {
          displayName: 'On general',
          'teamsApp@odata.bind': `${local.emulator.url}/v1.0/appCatalogs/teamsApps/${APPS.dashboard}`,
        },
      });
      expect(pinned.status, pinned.text).toBe(201);
      const apps = await cloneOf(local, G.release, { displayName: 'Apps only', partsToClone: 'APPS' });
      expect(storedRecord(stateDir, 'groups', apps)).toMatchObject({
        description: '',
        mailNickname: 'appsonly',
        classification: 'Internal',
        visibility: 'Private',
        owners: [U.adele],
        members: [U.adele],
      });
      const team = storedRecord(stateDir, 'teams', apps);
      expect(team).toMatchObject({ settings: {}, installedApps: release.installedApps });
      expect(team.members).toEqual([{ id: expect.stringMatching(GUID), userId: U.adele, roles: ['owner'] }]);
      expect(team.channels).toEqual([
        expect.objectContaining({ displayName: 'General', description: 'Release engineering', tabs: [] }),
      ]);

      const tabs = await cloneOf(local, G.release, { displayName: 'Tabs', partsToClone: 'tabs ,settings' });
      const tabsTeam = storedRecord(stateDir, 'teams', tabs);
      expect(tabsTeam).toMatchObject({ settings: release.settings, installedApps: [] });
      expect(tabsTeam.channels).toEqual([
        expect.objectContaining({
          displayName: 'General',
          tabs: [expect.objectContaining({ displayName: 'On general', teamsAppId: APPS.dashboard, webUrl: null })],
        }),
      ]);

      // An application has no user to make owner.
      const app = await local.token({ app: SEED_IDS.app });
      const byApp = await cloneOf(local, G.release, { displayName: 'By app', partsToClone: 'channels' }, app);
      expect(storedRecord(stateDir, 'groups', byApp)).toMatchObject({ owners: [], members: [] });
      expect(storedRecord(stateDir, 'teams', byApp).members).toEqual([]);
      expect(
        [...loadState(stateDir, true).store.all('teamOperations')].find(
          (o) => o.request && (o.request as JsonRecord).displayName === 'By app',
        )!.requestedBy,
      ).toBeNull();
    });
  });

  it('computes the mail nickname: letters and digits of the name, at most 56, "team" when none, a number when taken', async () => {
    const stateDir = stateFolder();
    await withEmulator({ stateDir, clonePolls: 0 }, async (local) => {
      const nickname = async (body: Record<string, unknown>) =>
        storedRecord(stateDir, 'groups', await cloneOf(local, G.release, { partsToClone: 'apps', ...body }))
          .mailNickname;
      expect(await nickname({ displayName: 'Q4 Release!' })).toBe('q4release');
      expect(await nickname({ displayName: 'Q4 Release!' })).toBe('q4release2');
      expect(await nickname({ displayName: 'Q4 Release!' })).toBe('q4release3');
      expect(await nickname({ displayName: '* * *' })).toBe('team');
      expect(await nickname({ displayName: 'A'.repeat(70) })).toBe('a'.repeat(56));
      // A nickname asked for is used (cleaned the same way) instead of the display name.
      expect(await nickname({ displayName: 'Q4 Release!', mailNickname: 'RelEng' })).toBe('releng2');
    });
  });

  it('makes an education class clone HiddenMembership and a class, whatever visibility is asked for', async () => {
    const stateDir = stateFolder();
    await withEmulator({ stateDir, clonePolls: 0 }, async (local) => {
      const id = await cloneOf(local, G.physics, {
        displayName: 'Physics 102',
        partsToClone: 'members',
        visibility: 'Public',
      });
      expect(storedRecord(stateDir, 'groups', id)).toMatchObject({
        visibility: 'HiddenMembership',
        classification: 'Education',
        owners: [U.megan],
        members: [U.megan, U.lee],
      });
      expect(storedRecord(stateDir, 'teams', id).specialization).toBe('educationClass');
    });
  });

  it('takes what the original does not say from defaults: Private, no classification, standard channels, specialization none', async () => {
    const seed = structuredClone(DEFAULT_SEED) as unknown as {
      groups: Record<string, unknown>[];
      teams: Record<string, unknown>[];
    };
    const bare = '2a7d9e10-30ff-4b2c-8d3e-4f5a6b7c8dff';
    seed.groups.push({
      id: bare,
      displayName: 'Bare',
      groupTypes: ['Unified'],
      securityEnabled: false,
      owners: [],
      members: [],
    });
    seed.teams.push({
      id: bare,
      installedApps: [],
      members: [],
      channels: [{ id: '19:lobby@thread.tacv2', displayName: 'Lobby', tabs: [] }],
    });
    // The release group is public here: an omitted visibility copies it.
    seed.groups.find((g) => g.id === G.release)!.visibility = 'Public';
    const stateDir = stateFolder();
    await withEmulator({ seed, stateDir, clonePolls: 0 }, async (local) => {
      const copy = await cloneOf(local, bare, { displayName: 'Bare copy', partsToClone: 'channels,settings' });
      expect(storedRecord(stateDir, 'groups', copy)).toMatchObject({ visibility: 'Private', classification: null });
      expect(storedRecord(stateDir, 'teams', copy)).toMatchObject({
        specialization: 'none',
        settings: {},
        channels: [
          {
            id: expect.any(String),
            displayName: 'Lobby',
            description: null,
            membershipType: 'standard',
            messageCount: 0,
            tabs: [],
          },
        ],
      });
      // Without channels asked for, only a General channel is copied; this team has none.
      const noGeneral = await cloneOf(local, bare, { displayName: 'Bare again', partsToClone: 'apps' });
      expect(storedRecord(stateDir, 'teams', noGeneral).channels).toEqual([]);
      const publicCopy = await cloneOf(local, G.release, { displayName: 'Public copy', partsToClone: 'apps' });
      expect(storedRecord(stateDir, 'groups', publicCopy).visibility).toBe('Public');
      const privateCopy = await cloneOf(local, G.release, {
        displayName: 'Private copy',
        partsToClone: 'apps',
        visibility: 'private',
      });
      expect(storedRecord(stateDir, 'groups', privateCopy).visibility).toBe('Private');
    });
  });

  it('fails with the error the original team reports, and creates nothing', async () => {
    const seed = structuredClone(DEFAULT_SEED) as unknown as { teams: Record<string, unknown>[] };
    const error = { code: 'TeamArchiving', message: 'The team is being archived.' };
    seed.teams.find((t) => t.id === G.physics)!.cloneError = error;
    const stateDir = stateFolder();
    await withEmulator({ seed, stateDir, clonePolls: 0 }, async (local) => {
      const teamsBefore = [...loadState(stateDir, true).store.all('teams')].length;
      const started = await local.call('POST', `/teams/${G.physics}/clone`, {
        body: { displayName: 'Physics 102', partsToClone: 'members' },
      });
      const failed = await local.call('GET', started.headers.get('location')!);
      expect(failed.body).toMatchObject({ status: 'failed', error, targetResourceId: null, attemptsCount: 1 });
      const again = await local.call('GET', started.headers.get('location')!);
      expect(again.body).toMatchObject({ status: 'failed', error, attemptsCount: 2 });
      expect([...loadState(stateDir, true).store.all('teams')]).toHaveLength(teamsBefore);
    });
  });
});

describe('channel tabs', () => {
  const bind = (app: string) => `${api.emulator.url}/v1.0/appCatalogs/teamsApps/${app}`;
  const tabNames = async (channel: string): Promise<string[]> =>
    (await api.call('GET', tabsOf(channel))).body.value.map((t: { displayName: string }) => t.displayName);

  it('answers 201 with the tab under its context, its webUrl built from channel, tab, label and group', async () => {
    const created = await api.call('POST', tabsOf(BUILDS), {
      body: {
        displayName: 'Release 6 & 7',
        'teamsApp@odata.bind': `${api.emulator.url}/v1.0/appCatalogs/teamsApps('${APPS.dashboard}')`,
        configuration: { entityId: 'release-6' },
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toEqual({
      '@odata.context': `${api.emulator.url}/v1.0/$metadata#teams('${G.release}')/channels('${BUILDS}')/tabs/$entity`,
      id: expect.stringMatching(GUID),
      displayName: 'Release 6 & 7',
      configuration: { entityId: 'release-6', contentUrl: null, websiteUrl: null, removeUrl: null },
      webUrl: `https://teams.bomwright.invalid/l/channel/${encodeURIComponent(BUILDS)}/tab%3a%3a${id}?label=Release%206%20%26%207&groupId=${G.release}`,
    });
    // The tab joins its own channel's tabs, after those already there, and no other channel's.
    expect(await tabNames(BUILDS)).toEqual(['SBOM dashboard', 'Release 6 & 7']);
    expect(await tabNames(GENERAL)).toEqual([]);
    const listed = await api.call('GET', tabsOf(BUILDS));
    expect(listed.body.value[1]).toEqual({
      id,
      displayName: 'Release 6 & 7',
      configuration: { entityId: 'release-6', contentUrl: null, websiteUrl: null, removeUrl: null },
      webUrl: created.body.webUrl,
      teamsApp: { id: APPS.dashboard },
    });
  });

  it('pins a static tab with the name and configuration the app declares', async () => {
    const pinned = await api.call('POST', tabsOf(GENERAL), { body: { 'teamsApp@odata.bind': bind(APPS.wiki) } });
    expect(pinned.status, pinned.text).toBe(201);
    expect(pinned.body).toMatchObject({
      displayName: 'Release wiki',
      configuration: {
        entityId: 'release-wiki',
        contentUrl: 'https://wiki.contoso.example/release',
        websiteUrl: 'https://wiki.contoso.example/release',
        removeUrl: null,
      },
    });
    expect(await tabNames(GENERAL)).toEqual(['Release wiki']);
  });

  it('refuses each bad request with its code and message, and pins nothing then', async () => {
    const before = await tabNames(BUILDS);
    const cases: [string, Record<string, unknown>, number, string, string][] = [
      [
        tabsOf('nope'),
        { displayName: 'x', 'teamsApp@odata.bind': bind(APPS.dashboard) },
        404,
        'NotFound',
        "Channel 'nope' was not found.",
      ],
      // Authorization before existence: a caller who is not a member learns nothing of a team that does not exist.
      [
        tabsOf(BUILDS, 'nope'),
        { displayName: 'x', 'teamsApp@odata.bind': bind(APPS.dashboard) },
        403,
        'Authorization_RequestDenied',
        'Only members of the team, or a team service administrator, can pin tabs to its channels.',
      ],
      [
        tabsOf(BUILDS),
        { displayName: 'x', 'teamsApp@odata.bind': 'https://elsewhere.example/app' },
        400,
        'BadRequest',
        `Invalid teamsApp@odata.bind: expected ${api.emulator.url}/v1.0/appCatalogs/teamsApps/<app_id>.`,
      ],
      [
        tabsOf(BUILDS),
        { displayName: 'x', 'teamsApp@odata.bind': bind('nope') },
        404,
        'NotFound',
        "Teams app 'nope' was not found in the app catalog.",
      ],
      [
        tabsOf(BUILDS),
        { displayName: 'x', 'teamsApp@odata.bind': bind(APPS.polls) },
        400,
        'BadRequest',
        "The app 'Polls' is not installed in the team; install it before pinning its tab.",
      ],
      [
        tabsOf(BUILDS),
        { displayName: 'x', 'teamsApp@odata.bind': bind(APPS.personalNotes) },
        400,
        'BadRequest',
        "The app 'Personal Notes' declares no configurable tabs.",
      ],
      [
        tabsOf(BUILDS),
        { 'teamsApp@odata.bind': bind(APPS.dashboard) },
        400,
        'BadRequest',
        'displayName is required for a configurable tab.',
      ],
      [
        tabsOf(BUILDS),
        { 'teamsApp@odata.bind': bind(APPS.wiki), configuration: {} },
        400,
        'BadRequest',
        'The app declares a static tab for teams: its displayName and configuration come from the app and must not be sent.',
      ],
    ];
    for (const [path, body, status, code, message] of cases)
      expectFault(await api.call('POST', path, { body }), status, code, message);
    const outsider = await api.call('POST', tabsOf(BUILDS), {
      token: await api.token({ user: 'isaiah@contoso.example' }),
      body: { displayName: 'x', 'teamsApp@odata.bind': bind(APPS.dashboard) },
    });
    expectFault(
      outsider,
      403,
      'Authorization_RequestDenied',
      'Only members of the team, or a team service administrator, can pin tabs to its channels.',
    );
    expect(await tabNames(BUILDS)).toEqual(before);
  });

  it('lets an application pin a tab without being a member', async () => {
    const pinned = await api.call('POST', tabsOf(BUILDS), {
      token: await api.token({ app: SEED_IDS.app }),
      body: { displayName: 'By app', 'teamsApp@odata.bind': bind(APPS.dashboard) },
    });
    expect(pinned.status, pinned.text).toBe(201);
  });
});
