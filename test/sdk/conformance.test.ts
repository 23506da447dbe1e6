/**
 * SDK conformance: the stock Kiota request builders (@microsoft/msgraph-sdk with -users and -teams) driven
 * through every operation of the table those packages cover, unchanged but for the base URL and the token, in both
 * namespace modes. An operation passes when the SDK call returns without an error, the emulator's journal shows it
 * reached that operation with the answer the table gives, and its typed model reads what was sent or seeded.
 * Four more (getGroup, getProgressTaskBoardFormat, restoreCloudPc, deleteEngagementRoleMember) use a stock builder
 * and typed model of these packages pointed at the table's route with Kiota's withUrl. The rest, under /groups,
 * /drive, /identityGovernance, /policies, /security, /places and /print, need packages that are not installed
 * (-groups is not published at this version; -drives, ...): they are counted as not covered.
 */
import { AllowedHostsValidator, BaseBearerTokenAuthenticationProvider } from '@microsoft/kiota-abstractions';
import { HeadersInspectionOptions } from '@microsoft/kiota-http-fetchlibrary';
import { createGraphServiceClient, GraphRequestAdapter, type GraphServiceClient } from '@microsoft/msgraph-sdk';
import type {
  AadUserConversationMember,
  AadUserConversationMemberResult,
  Channel,
  ConversationMember,
  Fido2AuthenticationMethod,
  Group,
  Message,
  PhoneAuthenticationMethod,
  PlannerProgressTaskBoardTaskFormat,
  TeamsAsyncOperation,
  TeamsTab,
} from '@microsoft/msgraph-sdk/models/index.js';
import '@microsoft/msgraph-sdk-users';
import '@microsoft/msgraph-sdk-teams';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS, startEmulator, type ODataNamespace, type RunningEmulator } from '../../src/emulator/index.js';
import { OPERATIONS } from '../../src/service/operations.js';

const U = SEED_IDS.users;
const G = SEED_IDS.groups;
const recipient = (address: string) => ({ emailAddress: { address, name: address.split('@')[0] } });

interface Driver {
  /** The call, through the stock builders; what it returns is checked by `typed`. */
  run(graph: GraphServiceClient, emulator: RunningEmulator): Promise<unknown>;
  /** The status the journal must show. */
  status: number;
  /** What the typed model must read (throws an assertion error otherwise). */
  typed?(result: unknown, namespace: ODataNamespace): void;
}

async function newMessage(graph: GraphServiceClient, subject: string): Promise<Message> {
  const created = await graph.me.mailFolders.byMailFolderId('inbox').messages.post({ subject });
  return created!;
}

/** One driver per operation the installed packages cover. */
const DRIVERS: Record<string, Driver> = {
  listPhoneMethods: {
    run: (graph) => graph.me.authentication.phoneMethods.get(),
    status: 200,
    typed: (result) => {
      const phones = (result as { value: PhoneAuthenticationMethod[] }).value;
      expect(phones.map((p) => p.phoneType).sort()).toEqual(['alternateMobile', 'mobile', 'office']);
    },
  },
  listAuthenticationMethods: {
    run: (graph) => graph.users.byUserId(U.megan).authentication.methods.get(),
    status: 200,
    typed: (result) => {
      // The typed class is picked by the real namespace's type name: in the spec's, the model sits in additionalData.
      const [fido2] = (result as { value: Fido2AuthenticationMethod[] }).value;
      expect(fido2!.model).toBe('Feitian BioPass K26');
    },
  },
  messageDelta: {
    run: (graph) => graph.me.mailFolders.byMailFolderId('inbox').messages.delta.get(),
    status: 200,
    typed: (result) => {
      const page = result as { value: Message[]; odataDeltaLink?: string; odataNextLink?: string };
      expect(page.value.length).toBeGreaterThan(0);
      expect(page.odataDeltaLink ?? page.odataNextLink).toEqual(expect.any(String));
    },
  },
  listMessages: {
    run: (graph) => graph.me.messages.get({ queryParameters: { top: 2, select: ['subject', 'receivedDateTime'] } }),
    status: 200,
    typed: (result) => {
      const page = result as { value: Message[]; odataNextLink?: string };
      expect(page.value).toHaveLength(2);
      expect(page.odataNextLink).toContain('$skip=2');
    },
  },
  listFolderMessages: {
    run: (graph) => graph.me.mailFolders.byMailFolderId('inbox').messages.get(),
    status: 200,
    typed: (result) => expect((result as { value: Message[] }).value.length).toBeGreaterThan(0),
  },
  getMessage: {
    run: async (graph) => {
      const created = await graph.me.mailFolders.byMailFolderId('inbox').messages.post({
        subject: 'Typed read',
        importance: 'high',
        toRecipients: [recipient('megan@contoso.example')],
      });
      return graph.me.messages.byMessageId(created!.id!).get();
    },
    status: 200,
    typed: (result) => {
      const message = result as Message;
      expect(message.subject).toBe('Typed read');
      expect(message.importance).toBe('high');
      expect(message.toRecipients?.[0]?.emailAddress?.address).toBe('megan@contoso.example');
    },
  },
  createMessage: {
    run: (graph) =>
      graph.me.mailFolders.byMailFolderId('inbox').messages.post({
        subject: 'Typed create',
        body: { contentType: 'text', content: 'hello' },
        importance: 'low',
        toRecipients: [recipient('alex@contoso.example')],
        ccRecipients: [recipient('megan@contoso.example')],
        categories: ['release'],
      }),
    status: 201,
    typed: (result) => {
      const message = result as Message;
      expect(message.subject).toBe('Typed create');
      expect(message.importance).toBe('low');
      expect(message.ccRecipients?.[0]?.emailAddress?.address).toBe('megan@contoso.example');
      expect(message.categories).toEqual(['release']);
    },
  },
  updateMessage: {
    run: async (graph) => {
      const created = await newMessage(graph, 'Typed update');
      return graph.me.messages.byMessageId(created.id!).patch({ isRead: true, importance: 'high' });
    },
    status: 200,
    typed: (result) => expect(result as Message).toMatchObject({ isRead: true, importance: 'high' }),
  },
  moveMessage: {
    run: async (graph) => {
      const created = await newMessage(graph, 'Typed move');
      // Kiota writes the action's parameter as DestinationId.
      return graph.me.messages.byMessageId(created.id!).move.post({ destinationId: 'archive' });
    },
    status: 201,
    typed: (result) => expect((result as Message).subject).toBe('Typed move'),
  },
  deleteMessage: {
    run: async (graph) => {
      const created = await newMessage(graph, 'Typed delete');
      return graph.me.messages.byMessageId(created.id!).delete();
    },
    status: 204,
  },
  forwardEvent: {
    run: (graph) =>
      graph.me.events.byEventId('evt-adele-gonogo').forward.post({
        comment: 'FYI',
        toRecipients: [recipient('dana@fabrikam.example')],
      }),
    status: 202,
  },
  getEvent: {
    run: (graph) => graph.me.events.byEventId('evt-adele-gonogo').get(),
    status: 200,
    typed: (result) => expect((result as { id?: string }).id).toBe('evt-adele-gonogo'),
  },
  listTeamMembers: {
    run: (graph) => graph.teams.byTeamId(G.release).members.get(),
    status: 200,
    typed: (result) => {
      const members = (result as { value: ConversationMember[] }).value;
      expect(members.length).toBeGreaterThan(0);
      expect((members[0] as AadUserConversationMember).userId).toEqual(expect.any(String));
    },
  },
  removeTeamMembers: {
    run: (graph, emulator) =>
      graph.teams.byTeamId(G.company).members.remove.post({
        values: [U.adele, U.lee].map((id): AadUserConversationMember => ({
          odataType: '#microsoft.graph.aadUserConversationMember',
          additionalData: { 'user@odata.bind': `${emulator.url}/v1.0/users('${id}')` },
        })),
      }),
    status: 207,
    typed: (result) => {
      // Kiota reads each result as AadUserConversationMemberResult by its type name, userId typed.
      const items = (result as { value: AadUserConversationMemberResult[] }).value;
      expect(items.map((item) => [item.userId, item.errorEscaped?.code ?? null])).toEqual([
        [U.adele, null],
        [U.lee, 'NotFound'],
      ]);
    },
  },
  cloneTeam: {
    run: (graph) =>
      graph.teams.byTeamId(G.release).clone.post({
        displayName: 'Release Engineering (Kiota copy)',
        mailNickname: 'releasekiota',
        partsToClone: ['apps', 'tabs', 'settings', 'channels', 'members'],
        visibility: 'public',
      }),
    status: 202,
  },
  getTeamOperation: {
    run: async (graph) => {
      // The clone's Location, read the way Kiota's docs say: a headers inspection option.
      const inspect = new HeadersInspectionOptions({ inspectResponseHeaders: true });
      await graph.teams
        .byTeamId(G.release)
        .clone.post({ displayName: 'Polled copy', partsToClone: ['channels'] }, { options: [inspect] });
      const location = [...(inspect.getResponseHeaders().get('location') ?? [])][0]!;
      const operation = /operations\('?([^')]+)'?\)/.exec(location)![1]!;
      return graph.teams.byTeamId(G.release).operations.byTeamsAsyncOperationId(operation).get();
    },
    status: 200,
    typed: (result) => {
      const operation = result as TeamsAsyncOperation;
      expect(operation.operationType).toBe('cloneTeam');
      expect(['notStarted', 'inProgress', 'succeeded']).toContain(operation.status);
    },
  },
  listChannels: {
    run: (graph) => graph.teams.byTeamId(G.release).channels.get(),
    status: 200,
    typed: (result) =>
      expect((result as { value: Channel[] }).value.map((c) => c.id)).toContain(SEED_IDS.channels.general),
  },
  listChannelTabs: {
    run: (graph) => graph.teams.byTeamId(G.release).channels.byChannelId(SEED_IDS.channels.builds).tabs.get(),
    status: 200,
    typed: (result) => expect((result as { value: TeamsTab[] }).value[0]!.displayName).toEqual(expect.any(String)),
  },
  addChannelTab: {
    run: (graph, emulator) =>
      graph.teams
        .byTeamId(G.release)
        .channels.byChannelId(SEED_IDS.channels.general)
        .tabs.post({
          displayName: 'Dashboard',
          configuration: { entityId: 'kiota', contentUrl: 'https://dashboard.contoso.example/kiota' },
          additionalData: {
            'teamsApp@odata.bind': `${emulator.url}/v1.0/appCatalogs/teamsApps/${SEED_IDS.teamsApps.dashboard}`,
          },
        }),
    status: 201,
    typed: (result) => {
      const tab = result as TeamsTab;
      expect(tab.displayName).toBe('Dashboard');
      expect(tab.configuration?.contentUrl).toBe('https://dashboard.contoso.example/kiota');
    },
  },
  permanentDeleteEvent: {
    run: (graph) => graph.users.byUserId(U.adele).events.byEventId('evt-adele-planning').permanentDelete.post(),
    status: 204,
  },
};

/** The v1.0 root the SDK is pointed at (localhost: Kiota sends a token over http to localhost only). */
const root = (emulator: RunningEmulator) => `http://localhost:${new URL(emulator.url).port}/v1.0`;

/**
 * Operations whose route the installed packages lack, but whose stock request builder and typed model they have
 * under another route: the builder is pointed at the table's route with Kiota's own withUrl (as for a nextLink).
 */
const BY_URL: Record<string, Driver> = {
  getGroup: {
    run: (graph, emulator) =>
      graph.teams
        .byTeamId(G.release)
        .group.withUrl(`${root(emulator)}/groups/${G.release}`)
        .get(),
    status: 200,
    typed: (result) => expect(result as Group).toMatchObject({ id: G.release, displayName: 'Release Engineering' }),
  },
  getProgressTaskBoardFormat: {
    run: (graph, emulator) =>
      graph.me.planner.tasks
        .byPlannerTaskId(TASK)
        .progressTaskBoardFormat.withUrl(`${root(emulator)}/planner/tasks/${TASK}/progressTaskBoardFormat`)
        .get(),
    status: 200,
    typed: (result) => expect((result as PlannerProgressTaskBoardTaskFormat).orderHint).toBe('85752723360752+'),
  },
  restoreCloudPc: {
    run: (graph, emulator) =>
      graph.me.cloudPCs
        .byCloudPCId(CLOUD_PC)
        .restore.withUrl(`${root(emulator)}/deviceManagement/virtualEndpoint/cloudPCs/${CLOUD_PC}/restore`)
        .post({ cloudPcSnapshotId: 'A00009UV000_93aff428-61f2-467f-a879-1102af6fd4a8' }),
    status: 204,
  },
  deleteEngagementRoleMember: {
    run: (graph, emulator) =>
      graph.me.employeeExperience.assignedRoles
        .byEngagementRoleId(ROLE)
        .members.byEngagementRoleMemberId(ROLE_MEMBER)
        .withUrl(`${root(emulator)}/employeeExperience/roles/${ROLE}/members/${ROLE_MEMBER}`)
        .delete(),
    status: 204,
  },
};
const TASK = '01gzSlKkIUSUl6DF_EilrmQAKDhh';
const CLOUD_PC = '662009bc-d001-4e5f-8a6b-7c8d9e0f1a01';
const ROLE = 'ec759127-b001-4c5d-8e6f-7a8b9c0d1e01';
const ROLE_MEMBER = 'f3e2d1c0-b002-4c5d-8e6f-7a8b9c0d1e02';

async function graphClient(emulator: RunningEmulator): Promise<GraphServiceClient> {
  const base = `http://localhost:${new URL(emulator.url).port}`;
  const token = await emulator.token();
  const auth = new BaseBearerTokenAuthenticationProvider({
    getAuthorizationToken: async () => token,
    getAllowedHostsValidator: () => new AllowedHostsValidator(new Set([new URL(base).host])),
  });
  const adapter = new GraphRequestAdapter(auth);
  adapter.baseUrl = `${base}/v1.0`;
  return createGraphServiceClient(adapter);
}

interface Outcome {
  operation: string;
  passed: boolean;
  /** What went wrong: the SDK's error, the journal, or the typed model. */
  problem?: string;
}

async function drive(namespace: ODataNamespace): Promise<Outcome[]> {
  const emulator = await startEmulator({ odataNamespace: namespace });
  try {
    const graph = await graphClient(emulator);
    const outcomes: Outcome[] = [];
    for (const [operation, driver] of Object.entries({ ...DRIVERS, ...BY_URL })) {
      emulator.clearRequests();
      let problem: string | undefined;
      try {
        const result = await driver.run(graph, emulator);
        const reached = emulator.requests({ operation });
        if (reached.length === 0)
          problem = `reached ${
            emulator
              .requests()
              .map((r) => `${r.method} ${r.path} ${r.status}`)
              .join(', ') || 'nothing'
          }`;
        else if (reached.at(-1)!.status !== driver.status)
          problem = `answered ${reached.at(-1)!.status}, not ${driver.status}`;
        else driver.typed?.(result, namespace);
      } catch (error) {
        problem = (error as Error).message.split('\n')[0]!.slice(0, 200);
      }
      outcomes.push({ operation, passed: problem === undefined, ...(problem === undefined ? {} : { problem }) });
    }
    return outcomes;
  } finally {
    await emulator.close();
  }
}

const covered = [...Object.keys(DRIVERS), ...Object.keys(BY_URL)];
const results = new Map<ODataNamespace, Outcome[]>();

describe('the stock Kiota request builders, operation by operation', () => {
  beforeAll(async () => {
    for (const namespace of ['microsoft.graph', 'vendor.graph'] as const)
      results.set(namespace, await drive(namespace));
  }, 60_000);
  afterAll(() => {
    for (const [namespace, outcomes] of results)
      process.stdout.write(
        `SDK conformance (${namespace}): ${OPERATIONS.length} operations, ${covered.length} covered by the installed packages, ${outcomes.filter((o) => o.passed).length} passing\n`,
      );
  });

  it('cover only operations of the table, and every operation of the table under /me or /users they can reach', () => {
    const names = OPERATIONS.map((operation) => operation.name);
    for (const name of covered) expect(names).toContain(name);
    // Every operation whose paths the users package reaches (a /me or /users form outside the drive) is driven.
    const reachable = OPERATIONS.filter((operation) =>
      operation.paths.some((path) => /^\/(me|users\/\{user\}|teams)\//.test(path) && !path.includes('/drive/')),
    ).map((operation) => operation.name);
    expect([...reachable].sort()).toEqual(Object.keys(DRIVERS).sort());
  });

  it("all pass in the real service's namespace, typed models included", () => {
    expect(results.get('microsoft.graph')!.filter((o) => !o.passed)).toEqual([]);
  });

  it("all pass in the spec's namespace, but for the typed classes the real namespace picks", () => {
    // Kiota picks Fido2AuthenticationMethod by #microsoft.graph.fido2AuthenticationMethod, a member and a removal
    // result by #microsoft.graph.aadUserConversationMember(Result): with #vendor.graph.* it reads base models (the
    // typed members in additionalData). Why odataNamespace exists.
    expect(results.get('vendor.graph')!.filter((o) => !o.passed)).toEqual([
      { operation: 'listAuthenticationMethods', passed: false, problem: expect.stringContaining('undefined') },
      { operation: 'listTeamMembers', passed: false, problem: expect.stringContaining('undefined') },
      { operation: 'removeTeamMembers', passed: false, problem: expect.stringContaining('undefined') },
      // The spec's running is not a value of Kiota's teamsAsyncOperationStatus (the real service says inProgress).
      { operation: 'getTeamOperation', passed: false, problem: expect.stringContaining('undefined') },
    ]);
  });

  it("fail in the spec's namespace for a reason in the stock models themselves, which no emulator answer can reach", () => {
    // The generated discriminators name only #microsoft.graph.* types, and the status enum has no "running" (the
    // spec's value): a service that speaks the spec cannot be read into these classes by the stock SDK.
    const models = readFileSync(fileURLToPath(import.meta.resolve('@microsoft/msgraph-sdk/models/index.js')), 'utf8');
    for (const type of ['fido2AuthenticationMethod', 'aadUserConversationMember', 'aadUserConversationMemberResult']) {
      expect(models).toContain(`case "#microsoft.graph.${type}":`);
      expect(models).not.toMatch(new RegExp(`case "#vendor\\.graph\\.`));
    }
    const status = /export const TeamsAsyncOperationStatusObject = \{([^}]*)\}/.exec(models)![1]!;
    expect(status).toContain('"inProgress"');
    expect(status).not.toContain('"running"');
  });
});
