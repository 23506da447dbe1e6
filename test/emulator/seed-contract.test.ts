/**
 * The seed's contract (seed.ts): every broken reference reported alone with its pointer and the id it names,
 * schema problems all at once, the one-line E_SEED message (at most 8 problems, then a count), and the store
 * changes a seed turns into.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED, parseSeed, seedProblems } from '../../src/emulator/index.js';
import { seedChanges, type Seed } from '../../src/emulator/seed.js';
import type { Body } from './harness.js';

const seed = (): Body => structuredClone(DEFAULT_SEED);

/** The smallest valid seed: a tenant and its default user. */
const minimal = (): Body => ({
  tenant: { id: 't1', defaultUser: 'Ada@Example.org' },
  users: [{ id: 'u1', userPrincipalName: 'ada@example.org', displayName: 'Ada' }],
});

function seedError(value: unknown): { code: string; message: string } {
  try {
    parseSeed(JSON.stringify(value), 'tenant.json');
  } catch (error) {
    return { code: (error as { code: string }).code, message: (error as Error).message };
  }
  throw new Error('the seed was accepted');
}

describe('references between seed records', () => {
  it('accepts the smallest seed, with collections left out and the default user in another case', () => {
    expect(seedProblems(minimal())).toEqual([]);
  });

  it.each([
    [
      'a user principal name used twice, in any case',
      (s: Body) => (s.users[2].userPrincipalName = 'Megan@Contoso.example'),
      ["/users/2/userPrincipalName: duplicate 'megan@contoso.example'"],
    ],
    [
      'a message of a user who does not exist',
      (s: Body) => (s.messages[1].userId = 'ghost'),
      ["/messages/1/userId: no user 'ghost'"],
    ],
    [
      'a message pointing at an event that does not exist',
      (s: Body) => (s.messages[0].eventId = 'evt-none'),
      ["/messages/0/eventId: no event 'evt-none'"],
    ],
    [
      'a team without its group',
      (s: Body) => (s.teams[1].id = 'no-group'),
      ["/teams/1/id: a team shares its group's id; no group 'no-group'"],
    ],
    [
      'a team with an app that is not in the catalogue',
      (s: Body) => s.teams[0].installedApps.push('app-none'),
      ["/teams/0/installedApps/3: no Teams app 'app-none'"],
    ],
    [
      'an event of a user who does not exist',
      (s: Body) => (s.events[1].owner = 'users/ghost'),
      ["/events/1/owner: no user 'ghost'"],
    ],
    [
      'an event of a group that does not exist',
      (s: Body) => (s.events[8].owner = 'groups/ghost'),
      ["/events/8/owner: no group 'ghost'"],
    ],
    [
      'an occurrence of a series that does not exist, and a copy of an organizer event that does not exist',
      (s: Body) => {
        s.events[4].seriesMasterId = 'evt-none';
        s.events[1].organizerEventId = 'evt-other';
      },
      ["/events/1/organizerEventId: no event 'evt-other'", "/events/4/seriesMasterId: no event 'evt-none'"],
    ],
    [
      'a workbook of a user who does not exist',
      (s: Body) => (s.workbooks[0].ownerId = 'ghost'),
      ["/workbooks/0/ownerId: no user 'ghost'"],
    ],
    [
      'a policy and a request for an access package that does not exist',
      (s: Body) => {
        s.assignmentPolicies[2].accessPackageId = 'pkg-none';
        s.assignmentRequests[0].accessPackageId = 'pkg-other';
      },
      [
        "/assignmentPolicies/2/accessPackageId: no access package 'pkg-none'",
        "/assignmentRequests/0/accessPackageId: no access package 'pkg-other'",
      ],
    ],
    [
      'a planner task of a group that does not exist',
      (s: Body) => (s.plannerTasks[1].groupId = 'ghost'),
      ["/plannerTasks/1/groupId: no group 'ghost'"],
    ],
    [
      'an id used twice in one collection (the same id in two collections is fine)',
      (s: Body) => {
        s.places[1].id = s.places[0].id;
        s.cloudPcs[0].id = s.places[0].id;
      },
      [`/places/1/id: duplicate id '${DEFAULT_SEED.places[0]!.id}'`],
    ],
  ])('reports %s, and only that', (_, breakIt, problems) => {
    const s = seed();
    breakIt(s);
    expect(seedProblems(s)).toEqual(problems);
  });

  it('does not check the folder of a message whose user does not exist', () => {
    const s = seed();
    s.messages[0].userId = 'ghost';
    s.messages[0].folderId = 'nowhere';
    expect(seedProblems(s)).toEqual(["/messages/0/userId: no user 'ghost'"]);
  });
});

describe('schema problems', () => {
  it('are all reported at once, before any reference is checked', () => {
    const s = seed();
    s.users[0].userType = 'robot';
    s.users[1].accountType = 'alien';
    s.messages[0].userId = 'ghost';
    expect(seedProblems(s)).toEqual([
      '/users/0/userType: must be equal to one of the allowed values',
      '/users/1/accountType: must be equal to one of the allowed values',
    ]);
  });

  it('name a missing member at the record, and a seed that is not an object at the root', () => {
    expect(seedProblems({ users: minimal().users })).toEqual(["/: must have required property 'tenant'"]);
    expect(seedProblems([])).toEqual(['/: must be object']);
  });
});

describe('parseSeed', () => {
  it('refuses text that is not JSON with E_SEED and the parser’s first line', () => {
    let reason = '';
    try {
      JSON.parse('{"tenant":');
    } catch (error) {
      reason = (error as Error).message.split('\n')[0]!;
    }
    expect(reason.length).toBeGreaterThan(1);
    expect(() => parseSeed('{"tenant":', 'broken.json')).toThrow(
      expect.objectContaining({ code: 'E_SEED', message: `broken.json is not JSON: ${reason}` }),
    );
  });

  it('lists up to 8 problems with nothing after them', () => {
    const s = seed();
    for (let i = 0; i < 8; i++) s.users[i].userType = 'robot';
    const { code, message } = seedError(s);
    expect(code).toBe('E_SEED');
    const problems = Array.from(
      { length: 8 },
      (_, i) => `/users/${i}/userType: must be equal to one of the allowed values`,
    );
    expect(message).toBe(`tenant.json is not a valid seed: ${problems.join('; ')}`);
  });

  it('lists the first 8 of 9 problems, then how many more', () => {
    const s = seed();
    for (const user of s.users) user.userType = 'robot';
    const problems = Array.from(
      { length: 8 },
      (_, i) => `/users/${i}/userType: must be equal to one of the allowed values`,
    );
    expect(seedError(s).message).toBe(`tenant.json is not a valid seed: ${problems.join('; ')}; and 1 more`);
  });

  it('returns the seed it parsed', () => {
    expect(parseSeed(JSON.stringify(minimal()), 'x')).toEqual(minimal());
  });
});

describe('seedChanges', () => {
  it('puts the tenant, every record by id, messages numbered in order, and the last message number', () => {
    const s = minimal();
    s.users[0].mailFolders = [{ id: 'inbox', displayName: 'Inbox' }];
    s.groups = [
      {
        id: 'g1',
        displayName: 'G',
        mailNickname: 'g',
        visibility: 'Private',
        groupTypes: [],
        securityEnabled: false,
        owners: [],
        members: [],
      },
    ];
    s.messages = [
      { id: 'm1', userId: 'u1', folderId: 'inbox', subject: 'one', receivedDateTime: '2026-01-01T00:00:00Z' },
      { id: 'm2', userId: 'u1', folderId: 'inbox', subject: 'two', receivedDateTime: '2026-01-02T00:00:00Z' },
    ];
    const input = structuredClone(s);
    const problems = seedProblems(s);
    expect(problems).toEqual([]);
    const changes = seedChanges(s as Seed);
    expect(changes).toEqual([
      ['meta', 'tenant', { id: 't1', defaultUser: 'Ada@Example.org' }],
      ['users', 'u1', s.users[0]],
      ['groups', 'g1', s.groups[0]],
      ['messages', 'm1', { ...s.messages[0], createdSeq: 1, changeSeq: 1 }],
      ['messages', 'm2', { ...s.messages[1], createdSeq: 2, changeSeq: 2 }],
      ['meta', 'mailChangeSeq', { value: 2 }],
    ]);
    expect(changes[0]![2]).not.toBe(s.tenant);
    expect(s).toEqual(input);
  });

  it('numbers no message in a seed without messages', () => {
    expect(seedChanges(minimal() as Seed).slice(-1)).toEqual([['meta', 'mailChangeSeq', { value: 0 }]]);
  });
});
