/**
 * Least privilege, over raw HTTP against the emulator: scopes for another user are only those that act on other
 * users, group forms take group scopes, authorization comes before existence, and the permission table of docs/emulator.md is
 * the one the emulator enforces.
 */
import { pageWith } from '../docs.js';
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { OPERATIONS, permissionTable } from '../../src/service/operations.js';
import { useEmulator, type Reply } from './harness.js';

const U = SEED_IDS.users;
const G = SEED_IDS.groups;
const api = useEmulator();

const denied = (reply: Reply, message: string | RegExp): void => {
  expect(reply.status, reply.text).toBe(403);
  expect(reply.body.error.code).toBe('Authorization_RequestDenied');
  if (typeof message === 'string') expect(reply.body.error.message).toBe(message);
  else expect(reply.body.error.message).toMatch(message);
};

describe('delegated scopes for another user act on other users only', () => {
  it('permanentDelete on another user’s event refuses Calendars.ReadWrite and takes Calendars.ReadWrite.Shared', async () => {
    const path = `/users/${U.megan}/events/evt-megan-gonogo/permanentDelete`;
    denied(
      await api.call('POST', path, { token: await api.token({ scopes: ['Calendars.ReadWrite'] }) }),
      'Insufficient privileges to complete the operation. Requires one of the delegated permissions: Calendars.ReadWrite.Shared.',
    );
    expect(
      (await api.call('POST', path, { token: await api.token({ scopes: ['Calendars.ReadWrite.Shared'] }) })).status,
    ).toBe(204);
    // The caller's own event through users/{self}: the caller's own scope.
    const own = `/users/${U.adele}/events/evt-adele-gonogo/permanentDelete`;
    denied(
      await api.call('POST', own, { token: await api.token({ scopes: ['Calendars.ReadWrite.Shared'] }) }),
      /Requires one of the delegated permissions: Calendars\.ReadWrite\.$/,
    );
  });

  it('group forms take group scopes, user forms calendar scopes', async () => {
    const groupEvent = `/groups/${G.release}/events/evt-release-freeze`;
    denied(
      await api.call('GET', groupEvent, { token: await api.token({ scopes: ['Calendars.Read'] }) }),
      'Insufficient privileges to complete the operation. Requires one of the delegated permissions: Group.Read.All, Group.ReadWrite.All.',
    );
    expect((await api.call('GET', groupEvent, { token: await api.token({ scopes: ['Group.Read.All'] }) })).status).toBe(
      200,
    );
    const app = await api.token({ app: SEED_IDS.app });
    denied(
      await api.call('GET', groupEvent, { token: app }),
      'Application permissions are not supported for getEvent; use a delegated (user) token.',
    );
    denied(
      await api.call('GET', '/me/events/evt-adele-gonogo', { token: await api.token({ scopes: ['Group.Read.All'] }) }),
      /Requires one of the delegated permissions: Calendars\.ReadBasic, Calendars\.Read, Calendars\.ReadWrite\.$/,
    );
  });

  it('every operation with a users/{id} form says which scopes act on other users; user-and-group operations say the group’s', () => {
    for (const operation of OPERATIONS) {
      const userForm = operation.paths.some((path) => path.startsWith('/users/{user}'));
      const groupForm = operation.paths.some((path) => path.startsWith('/groups/{group}'));
      if (userForm) expect(operation.permission.delegatedOther, operation.name).toBeDefined();
      if (userForm && groupForm) expect(operation.permission.group, operation.name).toBeDefined();
      // A scope that acts on the caller's own data is never one for another user.
      for (const scope of operation.permission.delegatedOther ?? [])
        expect(operation.permission.delegated, `${operation.name}: ${scope}`).not.toContain(scope);
    }
  });
});

describe('authorization before existence', () => {
  const DENIED_OWNERS =
    'Insufficient privileges to complete the operation: your directory roles do not allow changing the owners of this group.';
  const ref = (id: string) => ({ body: { '@odata.id': `${api.emulator.url}/v1.0/users/${id}` } });

  it('owners/$ref answers 403 to a caller who may not add owners at all, whether the group or object exists or not', async () => {
    // Megan holds no directory role and does not own the release group.
    const megan = await api.token({ user: U.megan, directoryRoles: [] });
    for (const [group, user] of [
      [G.release, U.alex],
      [G.release, '00000000-0000-0000-0000-000000000000'],
      ['00000000-0000-0000-0000-000000000001', U.alex],
    ] as const)
      denied(await api.call('POST', `/groups/${group}/owners/$ref`, { ...ref(user), token: megan }), DENIED_OWNERS);
    // Someone who may add owners learns that the object does not exist.
    const patti = await api.token({ user: U.patti });
    const missing = await api.call('POST', `/groups/${G.release}/owners/$ref`, {
      ...ref('00000000-0000-0000-0000-000000000000'),
      token: patti,
    });
    expect(missing.status, missing.text).toBe(404);
  });

  it('a tab is refused with 403 to a non-member who is not a teams administrator, whether the team exists or not', async () => {
    const megan = await api.token({ user: U.megan, directoryRoles: [] });
    const body = {
      'teamsApp@odata.bind': `${api.emulator.url}/v1.0/appCatalogs/teamsApps/${SEED_IDS.teamsApps.dashboard}`,
      displayName: 'x',
    };
    const message = 'Only members of the team, or a team service administrator, can pin tabs to its channels.';
    for (const team of [G.company, '00000000-0000-0000-0000-000000000001']) {
      const reply = await api.call('POST', `/teams/${team}/channels/19%3Anone%40thread.tacv2/tabs`, {
        body,
        token: megan,
      });
      denied(reply, message);
    }
    const admin = await api.token({ user: U.patti });
    const missing = await api.call('POST', '/teams/00000000-0000-0000-0000-000000000001/channels/c/tabs', {
      body,
      token: admin,
    });
    expect(missing.status, missing.text).toBe(404);
  });
});

describe('the emulator page’s permission table', () => {
  it('is the table the emulator enforces', () => {
    const page = pageWith('<!-- permissions:start -->').text;
    const table = /<!-- permissions:start -->\n([\s\S]*?)\n<!-- permissions:end -->/.exec(page);
    expect(table?.[1]).toBe(permissionTable());
    // One row per operation of the table.
    expect(table![1]!.split('\n')).toHaveLength(OPERATIONS.length + 2);
  });
});
