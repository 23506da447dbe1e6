import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED, SEED_IDS } from '../../src/emulator/index.js';
import { Harness, useEmulator } from './harness.js';

const U = SEED_IDS.users;
const G = SEED_IDS.groups;
const api = useEmulator({ clonePolls: 1 });
const THREAD = `/groups/${G.release}/threads/${SEED_IDS.threads.suppliers}`;
const userRef = (id: string): { '@odata.id': string } => ({ '@odata.id': `${api.emulator.url}/v1.0/users/${id}` });
const member = (id: string): Record<string, string> => ({
  '@odata.type': 'vendor.graph.dirUserConversationMember',
  'user@odata.bind': `${api.emulator.url}/v1.0/users('${id}')`,
});

const file = (bytes: number) => ({
  '@odata.type': '#vendor.graph.fileAttachment',
  name: `f${bytes}.bin`,
  contentBytes: Buffer.alloc(bytes, 1).toString('base64'),
});
const item = {
  '@odata.type': '#vendor.graph.itemAttachment',
  name: 'Holiday event',
  item: {
    '@odata.type': 'vendor.graph.event',
    subject: 'Release party',
    body: { contentType: 'HTML', content: '<p>Cake</p>' },
    start: { dateTime: '2026-12-02T18:00:00', timeZone: 'Pacific Standard Time' },
    end: { dateTime: '2026-12-02T19:00:00', timeZone: 'Pacific Standard Time' },
  },
};
const reference = {
  '@odata.type': '#vendor.graph.referenceAttachment',
  name: 'Signed SBOMs',
  sourceUrl: 'https://contoso.example/sites/releng/Documents/SBOMs',
  providerType: 'driveConsumer',
  permission: 'Edit',
  isFolder: 'True',
};
const reply = (attachments: unknown[]) => ({
  post: { body: { contentType: 'text', content: 'See attached' }, attachments },
});

describe('thread replies with attachments', () => {
  it('accepts the three attachment types (202) and the reply appears in the thread, through either path form', async () => {
    const sent = await api.call('POST', `${THREAD}/reply`, { body: reply([file(10), item, reference]) });
    expect(sent.status, sent.text).toBe(202);
    expect(sent.text).toBe('');
    const viaConversation = await api.call(
      'POST',
      `/groups/${G.release}/conversations/${SEED_IDS.conversations.suppliers}/threads/${SEED_IDS.threads.suppliers}/reply`,
      {
        body: reply([]),
      },
    );
    expect(viaConversation.status).toBe(202);
    const posts = await api.call('GET', `${THREAD}/posts`);
    expect(posts.body.value).toHaveLength(2);
    const [first] = posts.body.value;
    expect(first.from.emailAddress.address).toBe('adele@contoso.example');
    expect(first.attachments.map((a: { '@odata.type': string; size: number }) => [a['@odata.type'], a.size])).toEqual([
      ['#vendor.graph.fileAttachment', 10],
      ['#vendor.graph.itemAttachment', expect.any(Number)],
      ['#vendor.graph.referenceAttachment', expect.any(Number)],
    ]);
  });

  it('refuses an attachment of 3 MB or more, and takes one just under', async () => {
    const limit = 3 * 1024 * 1024;
    const over = await api.call('POST', `${THREAD}/reply`, { body: reply([file(limit)]) });
    expect(over.status).toBe(413);
    expect(over.body.error.message).toContain('3 MB');
    expect((await api.call('POST', `${THREAD}/reply`, { body: reply([file(limit - 1)]) })).status).toBe(202);
  });

  it('refuses malformed attachments with a message naming the attachment', async () => {
    const cases: [unknown, RegExp][] = [
      [{ '@odata.type': '#vendor.graph.fileAttachment', name: 'x' }, /needs contentBytes/],
      [{ ...file(3), contentBytes: 'not base64!' }, /not base64/],
      [{ ...file(3), sourceUrl: 'https://x.example' }, /does not belong to a fileAttachment/],
      [{ '@odata.type': '#vendor.graph.itemAttachment', name: 'x' }, /needs an item/],
      [{ ...reference, sourceUrl: 'ftp://x' }, /sourceUrl/],
      [{ ...reference, isFolder: 'maybe' }, /isFolder/],
      [{ '@odata.type': '#vendor.graph.driveAttachment', name: 'x' }, /attachments/],
    ];
    for (const [attachment, message] of cases) {
      const refused = await api.call('POST', `${THREAD}/reply`, { body: reply([attachment]) });
      expect(refused.status, JSON.stringify(attachment)).toBe(400);
      expect(refused.body.error.message).toMatch(message);
    }
  });

  it('answers 404 for a thread of another group or conversation', async () => {
    expect(
      (await api.call('POST', `/groups/${G.physics}/threads/${SEED_IDS.threads.review}/reply`, { body: reply([]) }))
        .status,
    ).toBe(404);
    const wrongConversation = `/groups/${G.release}/conversations/${SEED_IDS.conversations.review}/threads/${SEED_IDS.threads.suppliers}/reply`;
    expect((await api.call('POST', wrongConversation, { body: reply([]) })).status).toBe(404);
  });
});

describe('group owners', () => {
  it('adds an owner (204), refuses one already there (400) and an object that does not exist (404)', async () => {
    const added = await api.call('POST', `/groups/${G.company}/owners/$ref`, { body: userRef(U.isaiah) });
    expect(added.status, added.text).toBe(204);
    const again = await api.call('POST', `/groups/${G.company}/owners/$ref`, { body: userRef(U.isaiah) });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('BadRequest');
    const missing = await api.call('POST', `/groups/${G.company}/owners/$ref`, {
      body: userRef('00000000-0000-0000-0000-000000000000'),
    });
    expect(missing.status).toBe(404);
    const noGroup = await api.call('POST', '/groups/no-such-group/owners/$ref', { body: userRef(U.isaiah) });
    expect(noGroup.status).toBe(404);
  });

  it('takes a service principal or a user principal name as the object', async () => {
    const app = await api.call('POST', `/groups/${G.buildServers}/owners/$ref`, {
      token: await api.token({ app: SEED_IDS.app }),
      body: { '@odata.id': `${api.emulator.url}/v1.0/servicePrincipals/${SEED_IDS.servicePrincipal}` },
    });
    expect(app.status, app.text).toBe(204);
    const byUpn = await api.call('POST', `/groups/${G.buildServers}/owners/$ref`, {
      token: await api.token({ user: 'isaiah@contoso.example' }),
      body: { '@odata.id': `${api.emulator.url}/v1.0/users('megan@contoso.example')` },
    });
    expect(byUpn.status, byUpn.text).toBe(204);
  });

  it('enforces the directory-role table for delegated callers', async () => {
    const as = (user: string) => api.token({ user });
    const cases: [string, string, string, number][] = [
      // [caller, group, object, status]
      ['megan@contoso.example', G.release, U.lee, 403], // a member without a role
      ['lee@contoso.example', G.release, U.alex, 204], // user administrator, adding a user
      ['lee@contoso.example', G.release, 'sp', 403], // ... but not a service principal
      ['isaiah@contoso.example', G.release, U.isaiah, 403], // device management: security groups only
      ['adele@contoso.example', G.physics, U.adele, 204], // mail-system administrator: unified groups
      ['adele@contoso.example', G.buildServers, U.adele, 403], // ... but not security groups
      ['patti@contoso.example', G.buildServers, U.patti, 204], // groups administrator: any group
      ['megan@contoso.example', G.physics, U.lee, 204], // an owner of the group
    ];
    for (const [caller, group, object, status] of cases) {
      const body =
        object === 'sp'
          ? { '@odata.id': `${api.emulator.url}/v1.0/servicePrincipals/${SEED_IDS.servicePrincipal}` }
          : userRef(object);
      const result = await api.call('POST', `/groups/${group}/owners/$ref`, { token: await as(caller), body });
      expect(result.status, `${caller} on ${group}: ${result.text}`).toBe(status);
      if (status === 403) expect(result.body.error.code).toBe('Authorization_RequestDenied');
    }
  });

  it('refuses owners for a group that is neither unified nor security', async () => {
    const result = await api.call('POST', `/groups/${G.announcements}/owners/$ref`, {
      token: await api.token({ user: 'patti@contoso.example' }),
      body: userRef(U.adele),
    });
    expect(result.status).toBe(400);
  });
});

describe('bulk member removal', () => {
  it('refuses more than 20 members in one request', async () => {
    const values = Array.from({ length: 21 }, () => member(U.megan));
    const result = await api.call('POST', `/teams/${G.company}/members/remove`, { body: { values } });
    expect(result.status).toBe(400);
    expect(result.body.error.message).toContain('20');
  });

  it('answers 207 with one result per member when some fail, and applies the ones that succeed', async () => {
    const result = await api.call('POST', `/teams/${G.company}/members/remove`, {
      body: { values: [member(U.adele), member(U.megan), member('lee@contoso.example')] },
    });
    expect(result.status, result.text).toBe(207);
    expect(result.body.value).toEqual([
      { '@odata.type': '#vendor.graph.dirUserConversationMemberResult', userId: U.adele, error: null },
      {
        '@odata.type': '#vendor.graph.dirUserConversationMemberResult',
        userId: U.megan,
        error: { code: 'NotFound', message: 'Could not find resource' },
      },
      {
        '@odata.type': '#vendor.graph.dirUserConversationMemberResult',
        userId: U.lee,
        error: { code: 'NotFound', message: 'Could not find resource' },
      },
    ]);
    const again = await api.call('POST', `/teams/${G.company}/members/remove`, { body: { values: [member(U.adele)] } });
    expect(again.status).toBe(207);
    expect(again.body.value[0].error.code).toBe('NotFound');
  });

  it('answers 204 when every member was removed', async () => {
    const result = await api.call('POST', `/teams/${G.physics}/members/remove`, {
      body: { values: [member('lee@contoso.example')] },
    });
    expect(result.status, result.text).toBe(204);
  });
});

async function poll(
  location: string,
): Promise<{ status: string; targetResourceId: string | null; error: unknown; attemptsCount: number }> {
  const reply = await api.call('GET', location);
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

describe('team clone', () => {
  it('answers 202 with a Location, and the operation goes from running to succeeded with the new team', async () => {
    const started = await api.call('POST', `/teams/${G.release}/clone`, {
      body: {
        displayName: 'Release Engineering 5',
        partsToClone: 'channels, tabs ,members,APPS',
        visibility: 'public',
      },
    });
    expect(started.status, started.text).toBe(202);
    const location = started.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^/teams\\(${G.release}\\)/operations\\([0-9a-f-]{36}\\)$`));
    expect(started.text).toBe('');
    const first = await poll(location);
    expect(first).toMatchObject({ status: 'running', targetResourceId: null, attemptsCount: 1 });
    const done = await poll(location);
    expect(done).toMatchObject({ status: 'succeeded', error: null, attemptsCount: 2 });
    expect(done.targetResourceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await poll(location)).toMatchObject({ status: 'succeeded', targetResourceId: done.targetResourceId });

    // The new team: the channel structure, tabs copied unconfigured, members and owners copied.
    const channels = await api.call('GET', `/teams/${done.targetResourceId}/channels`);
    expect(channels.body.value.map((c: { displayName: string }) => c.displayName)).toEqual(['General', 'Builds']);
    const builds = channels.body.value[1].id as string;
    expect(builds).not.toBe(SEED_IDS.channels.builds);
    const copiedTabs = await api.call(
      'GET',
      `/teams/${done.targetResourceId}/channels/${encodeURIComponent(builds)}/tabs`,
    );
    expect(copiedTabs.body.value).toEqual([
      expect.objectContaining({
        displayName: 'SBOM dashboard',
        configuration: { entityId: null, contentUrl: null, websiteUrl: null, removeUrl: null },
        teamsApp: { id: SEED_IDS.teamsApps.dashboard },
      }),
    ]);
    const group = await api.call('GET', `/groups/${done.targetResourceId}`);
    expect(group.body).toMatchObject({
      displayName: 'Release Engineering 5',
      description: '',
      mailNickname: 'releaseengineering5',
      classification: 'Internal',
      visibility: 'Public',
      groupTypes: ['Unified'],
    });
    const removal = await api.call('POST', `/teams/${done.targetResourceId}/members/remove`, {
      body: { values: [member(U.megan)] },
    });
    expect(removal.status).toBe(204); // Megan was copied as a member
  });

  it('copies only the parts asked for; the caller alone is owner and member otherwise', async () => {
    const started = await api.call('POST', `/teams/${G.release}/clone`, {
      body: { displayName: 'Settings only', partsToClone: 'settings' },
    });
    const location = started.headers.get('location')!;
    await poll(location);
    const done = await poll(location);
    const removeMegan = await api.call('POST', `/teams/${done.targetResourceId}/members/remove`, {
      body: { values: [member(U.megan)] },
    });
    expect(removeMegan.status).toBe(207);
    const removeAdele = await api.call('POST', `/teams/${done.targetResourceId}/members/remove`, {
      body: { values: [member(U.adele)] },
    });
    expect(removeAdele.status).toBe(204);
  });

  it('refuses the organization-wide team, bad parts, and a body without the required members', async () => {
    const orgWide = await api.call('POST', `/teams/${G.company}/clone`, {
      body: { displayName: 'x', partsToClone: 'apps' },
    });
    expect(orgWide.status).toBe(400);
    expect(orgWide.body.error.message).toMatch(/organization-wide/);
    expect(
      (await api.call('POST', `/teams/${G.release}/clone`, { body: { displayName: 'x', partsToClone: 'apps,wiki' } }))
        .status,
    ).toBe(400);
    expect((await api.call('POST', `/teams/${G.release}/clone`, { body: { displayName: 'x' } })).status).toBe(400);
    expect((await api.call('POST', `/teams/${G.release}/clone`, { body: { partsToClone: 'apps' } })).status).toBe(400);
    expect(
      (
        await api.call('POST', `/teams/${G.release}/clone`, {
          body: { displayName: 'x', partsToClone: 'apps', visibility: 'Secret' },
        })
      ).status,
    ).toBe(400);
    expect(
      (await api.call('POST', '/teams/no-team/clone', { body: { displayName: 'x', partsToClone: 'apps' } })).status,
    ).toBe(404);
  });

  it('answers 404 for an operation of another team, or one that does not exist', async () => {
    const started = await api.call('POST', `/teams/${G.release}/clone`, {
      body: { displayName: 'x', partsToClone: 'apps' },
    });
    const location = started.headers.get('location')!;
    const opId = /operations\(([^)]+)\)/.exec(location)![1]!;
    expect((await api.call('GET', `/teams/${G.physics}/operations/${opId}`)).status).toBe(404);
    expect((await api.call('GET', `/teams('${G.release}')/operations('${opId}')`)).status).toBe(200);
  });
});

describe('team clone: group rules and failures', () => {
  const seed = structuredClone(DEFAULT_SEED) as unknown as { teams: Record<string, unknown>[] };
  seed.teams.find((t) => t.id === G.physics)!.cloneError = {
    code: 'TeamUnavailable',
    message: 'The team is being archived.',
  };
  const local = new Harness({ seed, clonePolls: 0 });

  it('makes an education class team HiddenMembership, blanks an omitted description, computes the mail nickname, and fails where the seed says', async () => {
    await local.start();
    try {
      const classClone = await local.call('POST', `/teams/${G.physics}/clone`, {
        body: { displayName: 'Physics 102', partsToClone: 'members', visibility: 'Public' },
      });
      const failed = await local.call('GET', classClone.headers.get('location')!);
      expect(failed.body).toMatchObject({
        status: 'failed',
        error: { code: 'TeamUnavailable' },
        targetResourceId: null,
      });

      const started = await local.call('POST', `/teams/${G.release}/clone`, {
        body: { displayName: 'Release Engineering', partsToClone: 'channels', classification: 'Confidential' },
      });
      const done = await local.call('GET', started.headers.get('location')!);
      expect(done.body).toMatchObject({
        status: 'succeeded',
        targetResourceLocation: `/groups('${done.body.targetResourceId}')/team`,
      });
      const group = await local.call('GET', `/groups/${done.body.targetResourceId}`);
      // The original's nickname is releng; "releaseengineering" is free; a second clone gets a suffix.
      expect(group.body).toMatchObject({
        mailNickname: 'releaseengineering',
        classification: 'Confidential',
        visibility: 'Private',
        description: '',
      });
      const second = await local.call('POST', `/teams/${G.release}/clone`, {
        body: { displayName: 'Release Engineering', partsToClone: 'apps' },
      });
      const secondDone = await local.call('GET', second.headers.get('location')!);
      expect((await local.call('GET', `/groups/${secondDone.body.targetResourceId}`)).body.mailNickname).toBe(
        'releaseengineering2',
      );

      // An education class team's clone is a class too and HiddenMembership, whatever visibility was asked for.
      const seedless = new Harness({ clonePolls: 0 });
      await seedless.start();
      try {
        const classStarted = await seedless.call('POST', `/teams/${G.physics}/clone`, {
          body: { displayName: 'Physics 102', partsToClone: 'members', visibility: 'Public' },
        });
        const classDone = await seedless.call('GET', classStarted.headers.get('location')!);
        expect((await seedless.call('GET', `/groups/${classDone.body.targetResourceId}`)).body.visibility).toBe(
          'HiddenMembership',
        );
      } finally {
        await seedless.emulator.close();
      }
    } finally {
      await local.emulator.close();
    }
  });
});

describe('channel tabs', () => {
  const tabs = `/teams/${G.release}/channels/${encodeURIComponent(SEED_IDS.channels.builds)}/tabs`;
  const bind = (app: string) => `${api.emulator.url}/v1.0/appCatalogs/teamsApps/${app}`;

  it('pins a configurable tab (201) and answers with the tab, without the app binding', async () => {
    const configuration = {
      entityId: 'release-5',
      contentUrl: 'https://dashboard.contoso.example/tab?release=5',
      websiteUrl: 'https://dashboard.contoso.example/release/5',
      removeUrl: 'https://dashboard.contoso.example/remove',
    };
    const created = await api.call('POST', tabs, {
      body: { displayName: 'Release 5', 'teamsApp@odata.bind': bind(SEED_IDS.teamsApps.dashboard), configuration },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ displayName: 'Release 5', configuration });
    expect(created.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.body.webUrl).toMatch(/^https:\/\//);
    expect(created.body).not.toHaveProperty('teamsApp@odata.bind');
  });

  it("pins an app's static team tab only without displayName and configuration", async () => {
    const refused = await api.call('POST', tabs, {
      body: { displayName: 'Wiki', 'teamsApp@odata.bind': bind(SEED_IDS.teamsApps.wiki) },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/static tab/);
    const withConfiguration = await api.call('POST', tabs, {
      body: { 'teamsApp@odata.bind': bind(SEED_IDS.teamsApps.wiki), configuration: {} },
    });
    expect(withConfiguration.status).toBe(400);
    const pinned = await api.call('POST', tabs, { body: { 'teamsApp@odata.bind': bind(SEED_IDS.teamsApps.wiki) } });
    expect(pinned.status, pinned.text).toBe(201);
    expect(pinned.body).toMatchObject({ displayName: 'Release wiki', configuration: { entityId: 'release-wiki' } });
  });

  it('refuses an app that is not installed, declares no configurable tab, or does not exist', async () => {
    const notInstalled = await api.call('POST', tabs, {
      body: { displayName: 'Poll', 'teamsApp@odata.bind': bind(SEED_IDS.teamsApps.polls) },
    });
    expect(notInstalled.status).toBe(400);
    expect(notInstalled.body.error.message).toMatch(/not installed/);
    const personalOnly = await api.call('POST', tabs, {
      body: { displayName: 'Notes', 'teamsApp@odata.bind': bind(SEED_IDS.teamsApps.personalNotes) },
    });
    expect(personalOnly.status).toBe(400);
    expect(personalOnly.body.error.message).toMatch(/no configurable tabs/);
    expect(
      (await api.call('POST', tabs, { body: { displayName: 'x', 'teamsApp@odata.bind': bind('nope') } })).status,
    ).toBe(404);
    expect(
      (await api.call('POST', tabs, { body: { 'teamsApp@odata.bind': bind(SEED_IDS.teamsApps.dashboard) } })).status,
    ).toBe(400);
    expect(
      (
        await api.call('POST', tabs, {
          body: { displayName: 'x', 'teamsApp@odata.bind': 'https://elsewhere.example/app' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await api.call('POST', `/teams/${G.release}/channels/nope/tabs`, {
          body: { displayName: 'x', 'teamsApp@odata.bind': bind(SEED_IDS.teamsApps.dashboard) },
        })
      ).status,
    ).toBe(404);
  });

  it('lets a team service administrator who is not a member pin tabs, and nobody else from outside the team', async () => {
    const body = { displayName: 'Admin tab', 'teamsApp@odata.bind': bind(SEED_IDS.teamsApps.dashboard) };
    const outsider = await api.call('POST', tabs, { token: await api.token({ user: 'isaiah@contoso.example' }), body });
    expect(outsider.status).toBe(403);
    const admin = await api.call('POST', tabs, { token: await api.token({ user: 'patti@contoso.example' }), body });
    expect(admin.status, admin.text).toBe(201);
  });
});
