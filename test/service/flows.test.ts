import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SEED, SEED_IDS } from '../../src/emulator/index.js';
import { createServiceClient, type ServiceClient } from '../../src/service/client.js';
import {
  cloneTeam,
  operationUrl,
  removeTeamMembers,
  syncMessages,
  type DeltaLinkStore,
} from '../../src/service/flows.js';
import { invoke } from '../../src/service/invoke.js';
import { useEmulator } from '../emulator/harness.js';

// A tenant with a 40-member team, for bulk removal.
const seed = structuredClone(DEFAULT_SEED) as unknown as {
  users: Record<string, unknown>[];
  teams: Record<string, unknown>[];
  groups: Record<string, unknown>[];
};
const extra = Array.from({ length: 40 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
for (const [i, id] of extra.entries())
  seed.users.push({ id, userPrincipalName: `member${i}@contoso.example`, displayName: `Member ${i}` });
const release = seed.teams.find((t) => t.id === SEED_IDS.groups.release)!;
release.members = [
  ...(release.members as unknown[]),
  ...extra.map((userId, i) => ({ id: `m-${i}`, userId, roles: [] })),
];

const api = useEmulator({ seed, clonePolls: 2 });
let client: ServiceClient;
beforeAll(() => {
  client = createServiceClient({ baseUrl: api.emulator.url, getToken: () => api.token(), concurrency: 2 });
});
afterAll(() => client.close());

function memoryStore(initial?: string): DeltaLinkStore & { link?: string } {
  const store: DeltaLinkStore & { link?: string } = {
    link: initial,
    load: () => store.link,
    save: (link) => {
      store.link = link;
    },
  };
  return store;
}

describe('syncMessages', () => {
  it('runs a full round, saves the link, then resumes from it in another client with only what changed', async () => {
    const store = memoryStore();
    const first = await syncMessages(client, { folder: 'inbox', pageSize: 2, store, select: ['subject'] });
    expect(first.changed.length).toBeGreaterThanOrEqual(5);
    expect(first.pages).toBeGreaterThanOrEqual(3);
    expect(store.link).toMatch(/\$deltatoken=/);
    const created = await invoke(client, 'createMessage', {
      params: { folder: 'inbox' },
      body: { subject: 'resumed' },
    });
    await invoke(client, 'deleteMessage', { params: { message: 'AAMkAGMsgAdele0005' } });
    const another = createServiceClient({ baseUrl: api.emulator.url, getToken: () => api.token() });
    const second = await syncMessages(another, { folder: 'inbox', store });
    await another.close();
    expect(second.restarted).toBe(false);
    expect(second.changed.map((m) => m.id)).toEqual([(created.body as { id: string }).id]);
    expect(second.changed[0]).toEqual({
      '@odata.type': '#vendor.graph.message',
      '@odata.etag': expect.any(String),
      id: expect.any(String),
      subject: 'resumed',
    });
    expect(second.removed).toEqual(['AAMkAGMsgAdele0005']);
  });

  it('restarts with a full round when the saved link is refused, and says why', async () => {
    const store = memoryStore(
      `${api.emulator.url}/v1.0/me/mailFolders('adele-inbox')/messages/delta?$deltatoken=forged.token`,
    );
    const result = await syncMessages(client, { folder: 'inbox', store });
    expect(result.restarted).toBe(true);
    expect(result.restartReason).toMatch(/^syncStateNotFound: /);
    expect(result.changed.length).toBeGreaterThan(0);
    expect(store.link).not.toContain('forged');
  });
});

describe('cloneTeam', () => {
  it('polls the operation until it completes and yields the new team', async () => {
    const result = await cloneTeam(
      client,
      SEED_IDS.groups.release,
      { displayName: 'Cloned', partsToClone: 'channels,members' },
      { intervalMs: 10 },
    );
    expect(result).toMatchObject({ status: 'succeeded', polls: 3 });
    const group = await invoke(client, 'getGroup', { params: { group: result.teamId } });
    expect((group.body as { displayName: string }).displayName).toBe('Cloned');
  });

  it('gives up at the deadline and resolves the Location under /v1.0', async () => {
    await expect(
      cloneTeam(
        client,
        SEED_IDS.groups.release,
        { displayName: 'Slow', partsToClone: 'apps' },
        { intervalMs: 1000, deadlineMs: 50 },
      ),
    ).rejects.toMatchObject({
      code: 'E_TIMEOUT',
    });
    expect(operationUrl('http://h:1', '/teams(a)/operations(b)')).toBe('http://h:1/v1.0/teams(a)/operations(b)');
    expect(operationUrl('http://h:1', '/v1.0/teams(a)/operations(b)')).toBe('http://h:1/v1.0/teams(a)/operations(b)');
    expect(operationUrl('http://h:1', 'https://other/x')).toBe('https://other/x');
  });
});

describe('removeTeamMembers', () => {
  it('removes 45 members in three requests, some missing, and returns every result in input order', async () => {
    const users = [
      ...extra,
      'ghost1@contoso.example',
      SEED_IDS.users.megan,
      'ghost2@contoso.example',
      'member0@contoso.example',
      SEED_IDS.users.patti,
    ];
    const results = await removeTeamMembers(client, SEED_IDS.groups.release, users);
    expect(results).toHaveLength(45);
    expect(results.map((r) => r.user)).toEqual(users);
    const failed = results.filter((r) => r.error !== null).map((r) => r.user);
    // member0 was removed earlier in the same call (first chunk), Patti is not a member of the team.
    expect(failed).toEqual([
      'ghost1@contoso.example',
      'ghost2@contoso.example',
      'member0@contoso.example',
      SEED_IDS.users.patti,
    ]);
    expect(results.find((r) => r.user === 'ghost1@contoso.example')!.error).toEqual({
      code: 'NotFound',
      message: 'Could not find resource',
    });
  });
});
