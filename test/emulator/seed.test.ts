import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED, parseSeed, seedProblems } from '../../src/emulator/index.js';
import type { Body } from './harness.js';

const seed = (): Body => structuredClone(DEFAULT_SEED);

describe('the default tenant', () => {
  it('is a valid seed with data for every family', () => {
    expect(seedProblems(DEFAULT_SEED)).toEqual([]);
    const s = seed();
    for (const family of [
      'users',
      'servicePrincipals',
      'groups',
      'threads',
      'teams',
      'teamsApps',
      'messages',
      'events',
      'workbooks',
      'accessPackages',
      'assignmentPolicies',
      'assignmentRequests',
      'homeRealmDiscoveryPolicies',
      'labelCategories',
      'ediscoveryCases',
      'places',
      'plannerTasks',
      'engagementRoles',
      'printTaskDefinitions',
      'cloudPcs',
      'driveItems',
      'bundles',
    ])
      expect(s[family].length, family).toBeGreaterThan(0);
    const adele = s.users[0];
    expect(adele.phoneMethods.map((m: { phoneType: string }) => m.phoneType)).toEqual([
      'mobile',
      'alternateMobile',
      'office',
    ]);
    expect(adele.authenticationMethods.map((m: Record<string, string>) => m['@odata.type'])).toEqual(
      expect.arrayContaining([
        '#vendor.graph.fido2AuthenticationMethod',
        '#vendor.graph.deviceHelloForBusinessAuthenticationMethod',
      ]),
    );
    expect(s.teams.some((t: { isOrganizationWide: boolean }) => t.isOrganizationWide)).toBe(true);
    expect(s.teams.some((t: { specialization: string }) => t.specialization === 'educationClass')).toBe(true);
    expect(s.teamsApps.some((a: { staticTabs: unknown[] }) => a.staticTabs.length > 0)).toBe(true);
    expect(s.teamsApps.some((a: { configurableTabs: unknown[] }) => a.configurableTabs.length > 0)).toBe(true);
  });
});

describe('a seed file', () => {
  it('is refused with every problem and its pointer: schema first', () => {
    const s = seed();
    s.users[0].phoneMethods.push({
      id: 'x',
      phoneNumber: '+1 2065550000',
      phoneType: 'mobile',
      smsSignInState: 'ready',
    });
    s.users[1].phoneMethods[0].phoneType = 'pager';
    s.colour = 'blue';
    const problems = seedProblems(s);
    expect(problems).toEqual(
      expect.arrayContaining([
        "/: must NOT have additional properties 'colour'",
        '/users/0/phoneMethods: must NOT have more than 3 items',
        '/users/1/phoneMethods/0/phoneType: must be equal to one of the allowed values',
      ]),
    );
  });

  it('is refused for references that do not resolve and ids used twice', () => {
    const s = seed();
    s.messages[0].folderId = 'no-such-folder';
    s.threads[0].groupId = 'no-such-group';
    s.groups[1].id = s.groups[0].id;
    s.tenant.defaultUser = 'ghost@contoso.example';
    s.bundles[0].children.push('999!9');
    expect(seedProblems(s)).toEqual(
      expect.arrayContaining([
        `/groups/1/id: duplicate id '${s.groups[0].id}'`,
        "/tenant/defaultUser: no user has the user principal name 'ghost@contoso.example'",
        `/messages/0/folderId: user '${s.users[0].id}' has no mail folder 'no-such-folder'`,
        "/threads/0/groupId: no group 'no-such-group'",
        "/bundles/0/children/1: no drive item '999!9'",
      ]),
    );
  });

  it('gives one line naming the file, the first problems and how many more', () => {
    const s = seed();
    for (const user of s.users) user.userType = 'robot';
    let message = '';
    try {
      parseSeed(JSON.stringify(s), 'tenant.json');
    } catch (error) {
      expect((error as { code: string }).code).toBe('E_SEED');
      message = (error as Error).message;
    }
    expect(message).toMatch(
      /^tenant\.json is not a valid seed: \/users\/0\/userType: must be equal to one of the allowed values; .*; and 1 more$/,
    );
    expect(message).not.toContain('\n');
    expect(() => parseSeed('{"tenant":', 'broken.json')).toThrow(/^broken\.json is not JSON: /);
  });
});
