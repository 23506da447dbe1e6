/** Permission guidance: `permissionsUsed()`, `GET /_emulator/permissions`, and the lines of --report-permissions. */
import { describe, expect, it } from 'vitest';
import { SEED_IDS, startEmulator } from '../../src/emulator/index.js';
import { leastPrivileged, PermissionUsageLog, permissionLines } from '../../src/emulator/permission-usage.js';

const U = SEED_IDS.users;
const G = SEED_IDS.groups;

describe('leastPrivileged', () => {
  it('names the fewest permissions that cover every list, the least privileged of such sets', () => {
    // A read (Group.Read.All first) then a write that needs Group.ReadWrite.All: the write's permission covers both.
    expect(
      leastPrivileged([
        ['Group.Read.All', 'Group.ReadWrite.All'],
        ['Group.ReadWrite.All', 'Directory.ReadWrite.All'],
      ]),
    ).toEqual(['Group.ReadWrite.All']);
    // Covering each list by its first entry would name two; one covers both.
    expect(
      leastPrivileged([
        ['X', 'Z'],
        ['Y', 'Z'],
      ]),
    ).toEqual(['Z']);
    // Among the smallest covers, the one whose entries stand earliest in the lists.
    expect(
      leastPrivileged([
        ['A', 'B'],
        ['B', 'A'],
        ['A', 'B'],
      ]),
    ).toEqual(['A']);
    expect(leastPrivileged([['A'], ['B'], ['A', 'B']])).toEqual(['A', 'B']);
  });

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
        unneeded: [],
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
        unneeded: [],
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
          unneeded: ['Mail.Read', 'User.Read'],
        },
        {
          caller: { kind: 'app', appId: 'a1' },
          kind: 'application',
          permissions: [],
          directoryRoles: [],
          operations: ['replyToThread', 'x'],
          unsupported: ['replyToThread'],
          unneeded: [],
        },
      ]),
    ).toEqual([
      'permissions: adele@contoso.example (delegated): Mail.ReadWrite; directory roles: mailSystemAdministrator; held but not needed: Mail.Read, User.Read (1 operation)',
      'permissions: app a1 (application): none; not callable with this kind of token: replyToThread (2 operations)',
    ]);
  });
});

describe('permissionsUsed() against the tokens held', () => {
  it('reads a thread and adds an owner with Group.ReadWrite.All alone, and names what the token held beyond it', async () => {
    const e = await startEmulator();
    try {
      const token = await e.token({ scopes: ['Group.Read.All', 'Group.ReadWrite.All', 'Mail.Read'] });
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${e.url}/v1.0${path}`, {
          method,
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      expect((await call('GET', `/groups/${G.release}/threads/${SEED_IDS.threads.review}/posts`)).status).toBe(200);
      const owner = await call('POST', `/groups/${G.release}/owners/$ref`, {
        '@odata.id': `${e.url}/v1.0/users/${U.megan}`,
      });
      expect(owner.status).toBeLessThan(500);
      const [usage] = e.permissionsUsed();
      expect(usage).toMatchObject({
        permissions: ['Group.ReadWrite.All'],
        unneeded: ['Group.Read.All', 'Mail.Read'],
      });
      expect(permissionLines(e.permissionsUsed())[0]).toContain('held but not needed: Group.Read.All, Mail.Read');
    } finally {
      await e.close();
    }
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
          // The default token holds every scope some operation needs: all but these four went unused.
          unneeded: expect.arrayContaining(['Mail.ReadWrite', 'Group.Read.All']),
        },
        {
          caller: { kind: 'app', appId: SEED_IDS.app },
          kind: 'application',
          permissions: ['UserAuthenticationMethod.Read.All'],
          directoryRoles: [],
          operations: ['listPhoneMethods', 'replyToThread'],
          unsupported: ['replyToThread'],
          unneeded: expect.arrayContaining(['Group.Read.All']),
        },
      ]);
      for (const usage of report) for (const name of usage.permissions) expect(usage.unneeded).not.toContain(name);
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
