/** Permission guidance: `permissionsUsed()`, `GET /_emulator/permissions`, and the lines of --report-permissions. */
import { describe, expect, it } from 'vitest';
import { SEED_IDS, startEmulator } from '../../src/emulator/index.js';
import { leastPrivileged, PermissionUsageLog, permissionLines } from '../../src/emulator/permission-usage.js';

const U = SEED_IDS.users;
const G = SEED_IDS.groups;

describe('leastPrivileged', () => {
  it('covers each list by its first entry unless a chosen one is in it, smallest lists first', () => {
    expect(leastPrivileged([['A.Read', 'A.ReadWrite']])).toEqual(['A.Read']);
    // The write needs A.ReadWrite; the read accepts it too, so A.Read is not asked for as well.
    expect(
      leastPrivileged([
        ['A.Read', 'A.ReadWrite', 'A.ReadWrite.All'],
        ['A.ReadWrite', 'A.ReadWrite.All'],
      ]),
    ).toEqual(['A.ReadWrite']);
    expect(leastPrivileged([['B.Read'], ['A.Read', 'A.ReadWrite']])).toEqual(['A.Read', 'B.Read']);
    expect(leastPrivileged([[], ['A']])).toEqual(['A']);
    expect(leastPrivileged([])).toEqual([]);
  });

  it('keeps callers apart, each need once, and at most 1000 callers', () => {
    const log = new PermissionUsageLog();
    for (let i = 0; i < 1001; i++)
      log.note({ kind: 'app', appId: `app-${i}` }, { operation: 'op', kind: 'application', alternatives: ['R'] });
    expect(log.report()).toHaveLength(1000);
    log.note({ kind: 'app', appId: 'app-0' }, { operation: 'op', kind: 'application', alternatives: ['R'] });
    expect(log.report()[0]!.operations).toEqual(['op']);
    log.clear();
    expect(log.report()).toEqual([]);
  });

  it('keeps a need once however it arrives: the same caller object or an equal one, the same list or an equal one', () => {
    const log = new PermissionUsageLog();
    const caller = { kind: 'user', id: 'u', userPrincipalName: 'adele@contoso.example' } as const;
    const list = ['Mail.Read', 'Mail.ReadWrite'];
    log.note(caller, { operation: 'listMessages', kind: 'delegated', alternatives: list });
    log.note(caller, { operation: 'listMessages', kind: 'delegated', alternatives: [...list] });
    log.note({ ...caller }, { operation: 'listMessages', kind: 'delegated', alternatives: list });
    // Another list for the same operation (another form of it) is another need.
    log.note(caller, { operation: 'listMessages', kind: 'delegated', alternatives: ['Mail.ReadBasic'] });
    log.note({ ...caller }, { operation: 'getMessage', kind: 'delegated', alternatives: list });
    expect(log.report()).toEqual([
      {
        caller,
        kind: 'delegated',
        permissions: ['Mail.Read', 'Mail.ReadBasic'],
        directoryRoles: [],
        operations: ['getMessage', 'listMessages'],
        unsupported: [],
      },
    ]);
    log.clear();
    log.note(caller, { operation: 'listMessages', kind: 'delegated', alternatives: [] });
    expect(log.report()).toEqual([
      {
        caller,
        kind: 'delegated',
        permissions: [],
        directoryRoles: [],
        operations: ['listMessages'],
        unsupported: ['listMessages'],
      },
    ]);
  });

  it('writes one line per caller', () => {
    expect(permissionLines([])).toEqual(['permissions: no calls reached an operation with a valid token']);
    expect(
      permissionLines([
        {
          caller: { kind: 'user', id: 'u', userPrincipalName: 'adele@contoso.example' },
          kind: 'delegated',
          permissions: ['Mail.ReadWrite'],
          directoryRoles: ['mailSystemAdministrator'],
          operations: ['createMessage'],
          unsupported: [],
        },
        {
          caller: { kind: 'app', appId: 'a1' },
          kind: 'application',
          permissions: [],
          directoryRoles: [],
          operations: ['replyToThread', 'x'],
          unsupported: ['replyToThread'],
        },
      ]),
    ).toEqual([
      'permissions: adele@contoso.example (delegated): Mail.ReadWrite; directory roles: mailSystemAdministrator (1 operation)',
      'permissions: app a1 (application): none; not callable with this kind of token: replyToThread (2 operations)',
    ]);
  });
});

describe('permissionsUsed()', () => {
  it('lists per caller the least-privileged permissions its calls needed, from the operations table', async () => {
    const e = await startEmulator();
    try {
      const adele = await e.token();
      const app = await e.token({ app: SEED_IDS.app });
      const call = (token: string, method: string, path: string, body?: unknown) =>
        fetch(`${e.url}/v1.0${path}`, {
          method,
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      expect((await call(adele, 'GET', '/me/authentication/phoneMethods')).status).toBe(200);
      // Another user's methods: the scopes that act on other users.
      expect((await call(adele, 'GET', `/users/${U.megan}/authentication/methods`)).status).toBe(200);
      expect((await call(adele, 'GET', `/groups/${G.release}`)).status).toBe(200);
      expect(
        (
          await call(adele, 'POST', `/groups/${G.release}/owners/$ref`, {
            '@odata.id': `${e.url}/v1.0/users/${U.megan}`,
          })
        ).status,
      ).toBe(204);
      expect(
        (await call(adele, 'DELETE', '/places/e5c4b3a2-a001-4b6c-8d7e-9f0a1b2c3d01/vendor.graph.building/map')).status,
      ).toBe(204);
      expect((await call(app, 'GET', `/users/${U.megan}/authentication/phoneMethods`)).status).toBe(200);
      expect(
        (await call(app, 'POST', `/groups/${G.release}/threads/x/reply`, { post: { body: { content: 'x' } } })).status,
      ).toBe(403);
      // Without a valid token nothing is noted.
      expect((await call('not-a-token', 'GET', '/me/authentication/methods')).status).toBe(401);
      const report = e.permissionsUsed();
      expect(report).toEqual([
        {
          caller: { kind: 'user', id: U.adele, userPrincipalName: 'adele@contoso.example' },
          kind: 'delegated',
          // getGroup's least privileged is GroupMember.Read.All, but addGroupOwner needs Group.ReadWrite.All,
          // which getGroup accepts as well.
          permissions: [
            'Group.ReadWrite.All',
            'Place.ReadWrite.All',
            'UserAuthenticationMethod.Read',
            'UserAuthenticationMethod.Read.All',
          ],
          directoryRoles: ['mailSystemAdministrator'],
          operations: [
            'addGroupOwner',
            'deleteBuildingMap',
            'getGroup',
            'listAuthenticationMethods',
            'listPhoneMethods',
          ],
          unsupported: [],
        },
        {
          caller: { kind: 'app', appId: SEED_IDS.app },
          kind: 'application',
          permissions: ['UserAuthenticationMethod.Read.All'],
          directoryRoles: [],
          operations: ['listPhoneMethods', 'replyToThread'],
          unsupported: ['replyToThread'],
        },
      ]);
      const wire = await fetch(`${e.url}/_emulator/permissions`);
      expect(await wire.json()).toEqual({ value: JSON.parse(JSON.stringify(report)) });
      expect((await fetch(`${e.url}/_emulator/permissions`, { method: 'DELETE' })).status).toBe(405);
      // A reset starts the tenant again, not the run's guidance.
      await e.reset();
      expect(e.permissionsUsed()).toHaveLength(2);
    } finally {
      await e.close();
    }
  });
});
