/**
 * Identity governance, policies, labels, eDiscovery, places, planner, engagement roles, print, cloud PCs and
 * bundles, each to the letter: error codes and messages, the exact resource shapes and contexts, and the state a
 * write leaves (read back from the emulator's state folder) or, when refused, does not change.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED, SEED_IDS } from '../../src/emulator/index.js';
import { loadState } from '../../src/emulator/journal.js';
import type { JsonRecord } from '../../src/emulator/store.js';
import { tempDirs } from '../helpers.js';
import { useEmulator, type Reply } from './harness.js';
import { BUILDING, CASE, LEVEL, SEARCH, userSourceUrl } from './samples.js';

const U = SEED_IDS.users;
const GOVERNANCE = '/identityGovernance/entitlementManagement';
const REQUESTS = `${GOVERNANCE}/assignmentRequests`;
const OTHER_PACKAGE = '1f2e3d4c-50ff-4a6b-9c8d-7e6f5a4b3cff';
const GHOST_REQUEST = '7999249e-249e-7999-9e24-9979ffffffff';
const SECOND_SEARCH = 'c61a5860-90ff-4f6a-8b7c-9d0e1f2a3bff';
const MEGAN_CUSTODIAN = '0053a61a-9002-4f6a-8b7c-9d0e1f2a3b02';
const MEGAN_SOURCE = '2b4ff8f1-9003-4f6a-8b7c-9d0e1f2a3b03';
const MEGAN_SECOND_SOURCE = '2b4ff8f1-90ff-4f6a-8b7c-9d0e1f2a3bff';
const ADELE_SOURCE = '2b4ff8f1-9005-4f6a-8b7c-9d0e1f2a3b05';
const ROOM = 'e5c4b3a2-a0ff-4b6c-8d7e-9f0a1b2c3dff';
const NO_MAP = 'e5c4b3a2-a0fe-4b6c-8d7e-9f0a1b2c3dfe';
const OWNERS_GROUP = '2a7d9e10-30ff-4b2c-8d3e-4f5a6b7c8dff';
const TASK = '01gzSlKkIUSUl6DF_EilrmQAKDhh';
const ETAG_TASK = '03owners_only_task_with_etag';
const ROLE = 'ec759127-b001-4c5d-8e6f-7a8b9c0d1e01';
const CLOUD_PC = '662009bc-d001-4e5f-8a6b-7c8d9e0f1a01';
const SNAPSHOT = 'A00009UV000_93aff428-61f2-467f-a879-1102af6fd4a8';

/** The default tenant plus the cases it has no example of. */
function seed(): unknown {
  const s = structuredClone(DEFAULT_SEED) as unknown as Record<string, Record<string, unknown>[]>;
  s.accessPackages!.push({ id: OTHER_PACKAGE, displayName: 'Other package' });
  s.assignmentPolicies!.push({
    id: '1f2e3d4c-50fe-4a6b-9c8d-7e6f5a4b3cfe',
    accessPackageId: OTHER_PACKAGE,
    displayName: 'Other policy',
    allowedRequestors: [U.adele],
    requirements: null,
  });
  s.assignmentRequests!.push({
    id: GHOST_REQUEST,
    accessPackageId: SEED_IDS.accessPackage,
    requestorId: 'ghost',
    requestType: 'userAdd',
    state: 'submitted',
    status: 'Submitted',
    createdDateTime: '2026-11-21T08:00:00Z',
  });
  const theCase = s.ediscoveryCases![0]! as { custodians: JsonRecord[]; searches: JsonRecord[] };
  (theCase.custodians[0]!.userSources as JsonRecord[]).push({
    id: MEGAN_SECOND_SOURCE,
    email: 'megan2@contoso.example',
  });
  theCase.searches.push({ id: SECOND_SEARCH, displayName: 'Second search', custodianSources: [] });
  s.places!.push(
    { id: ROOM, type: 'room', displayName: 'Room 1' },
    { id: NO_MAP, type: 'building', displayName: 'B42' },
  );
  s.groups!.push({
    id: OWNERS_GROUP,
    displayName: 'Owners only',
    groupTypes: ['Unified'],
    securityEnabled: false,
    owners: [U.lee],
    members: [],
  });
  s.plannerTasks!.push({
    id: ETAG_TASK,
    groupId: OWNERS_GROUP,
    etag: 'W1234',
    progressTaskBoardFormat: { orderHint: '8585+' },
  });
  return s;
}

/** State folders made by this file, removed after it. */
const stateFolder = tempDirs('bomwright-emulator-');

const stateDir = stateFolder();
const api = useEmulator({ seed: seed(), stateDir });
const stored = (collection: 'ediscoveryCases' | 'cloudPcs' | 'bundles' | 'engagementRoles', id: string) =>
  loadState(stateDir, true).store.get(collection, id)!;

function expectFault(reply: Reply, status: number, code: string, message: string): void {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.body.error.code).toBe(code);
  expect(reply.body.error.message).toBe(message);
}

const notFound = (reply: Reply, message: string) => expectFault(reply, 404, 'ResourceNotFound', message);

describe('access package assignment requests', () => {
  it('shows the request’s own fields only, under the assignmentRequests/$entity context', async () => {
    const pending = await api.call('GET', `${REQUESTS}/${SEED_IDS.assignmentRequests.pending}`);
    expect(pending.body).toEqual({
      '@odata.context': `${api.emulator.url}/v1.0/$metadata#assignmentRequests/$entity`,
      id: SEED_IDS.assignmentRequests.pending,
      requestType: 'userAdd',
      state: 'pendingApproval',
      status: 'PendingApproval',
      createdDateTime: '2026-11-20T08:00:00Z',
      completedDateTime: null,
      schedule: {
        '@odata.type': 'vendor.graph.entitlementManagementSchedule',
        startDateTime: null,
        expiration: { type: 'afterDuration', duration: 'P90D' },
        recurrence: null,
      },
    });
  });

  it('expands the requestor and the assignment’s target as subjects, and the package as it is', async () => {
    const expanded = await api.call(
      'GET',
      `${REQUESTS}/${SEED_IDS.assignmentRequests.delivered}?$select=id&$expand=accessPackage,requestor,assignment($expand=target)`,
    );
    const megan = {
      id: U.megan,
      objectId: U.megan,
      displayName: 'Megan Bowen',
      principalName: 'megan@contoso.example',
      email: 'megan@contoso.example',
      onPremisesSecurityIdentifier: null,
      subjectType: 'user',
    };
    expect(expanded.body).toEqual({
      '@odata.context': `${api.emulator.url}/v1.0/$metadata#assignmentRequests/$entity`,
      id: SEED_IDS.assignmentRequests.delivered,
      accessPackage: {
        id: SEED_IDS.accessPackage,
        displayName: 'Release approvers',
        description: 'People who approve a release for publication',
        catalogId: 'c0ffee00-5000-4a6b-9c8d-7e6f5a4b3c00',
      },
      requestor: megan,
      assignment: {
        id: '44b6ddd0-5005-4a6b-9c8d-7e6f5a4b3c05',
        state: 'delivered',
        status: 'Delivered',
        expiredDateTime: null,
        schedule: { startDateTime: '2026-11-11T22:55:11.623Z', expiration: { type: 'noExpiration' }, recurrence: null },
        target: megan,
      },
    });
  });

  it('expands to null: a requestor who is not a user, and an assignment that is null or absent', async () => {
    for (const id of [SEED_IDS.assignmentRequests.pending, GHOST_REQUEST]) {
      const reply = await api.call('GET', `${REQUESTS}/${id}?$select=state&$expand=assignment`);
      expect(reply.body.assignment, id).toBeNull();
    }
    const ghost = await api.call('GET', `${REQUESTS}/${GHOST_REQUEST}?$expand=requestor`);
    expect(ghost.status).toBe(200);
    expect(ghost.body.requestor).toBeNull();
    expect(ghost.body).not.toHaveProperty('completedDateTime');
  });

  it('refuses unknown names with the type in the message, and answers 404 naming the request', async () => {
    const type = 'vendor.graph.accessPackageAssignmentRequest';
    expectFault(
      await api.call('GET', `${REQUESTS}/${GHOST_REQUEST}?$expand=policy`),
      400,
      'BadRequest',
      `Could not find a navigation property named 'policy' on type '${type}'.`,
    );
    expectFault(
      await api.call('GET', `${REQUESTS}/${GHOST_REQUEST}?$select=requestorId`),
      400,
      'BadRequest',
      `Could not find a property named 'requestorId' on type '${type}'.`,
    );
    notFound(await api.call('GET', `${REQUESTS}/nope`), "Access package assignment request 'nope' was not found.");
    notFound(
      await api.call('GET', `${REQUESTS}/${'r'.repeat(100)}`),
      `Access package assignment request '${'r'.repeat(79)}…' was not found.`,
    );
  });
});

describe('applicable policy requirements', () => {
  it('lists the policies of this access package only, each item complete, under its collection context', async () => {
    const reply = await api.call(
      'POST',
      `${GOVERNANCE}/accessPackages/${SEED_IDS.accessPackage}/getApplicablePolicyRequirements`,
    );
    expect(reply.body['@odata.context']).toBe(
      `${api.emulator.url}/v1.0/$metadata#Collection(vendor.graph.accessPackageAssignmentRequestRequirements)`,
    );
    expect(reply.body.value).toHaveLength(2);
    expect(reply.body.value[1]).toEqual({
      '@odata.type': '#vendor.graph.accessPackageAssignmentRequestRequirements',
      policyId: SEED_IDS.assignmentPolicies.selfService,
      policyDisplayName: 'Self-service for members',
      policyDescription: 'Any member may request',
      isApprovalRequiredForAdd: false,
      isApprovalRequiredForUpdate: false,
      allowCustomAssignmentSchedule: false,
      isRequestorJustificationRequired: false,
      questions: null,
      schedule: null,
    });
    const other = await api.call(
      'POST',
      `${GOVERNANCE}/accessPackages/${OTHER_PACKAGE}/getApplicablePolicyRequirements`,
    );
    expect(other.body.value.map((r: JsonRecord) => [r.policyDisplayName, r.policyDescription])).toEqual([
      ['Other policy', null],
    ]);
    notFound(
      await api.call('POST', `${GOVERNANCE}/accessPackages/nope/getApplicablePolicyRequirements`),
      "Access package 'nope' was not found.",
    );
  });

  it('deletes a policy once; the second time is 404 naming it', async () => {
    const path = `${GOVERNANCE}/assignmentPolicies/${SEED_IDS.assignmentPolicies.adminsOnly}`;
    expect((await api.call('DELETE', path)).status).toBe(204);
    notFound(
      await api.call('DELETE', path),
      `Access package assignment policy '${SEED_IDS.assignmentPolicies.adminsOnly}' was not found.`,
    );
  });
});

describe('home realm discovery policies', () => {
  const path = '/policies/homeRealmDiscoveryPolicies';

  it('lists the policy fields under their context, filters by id, and limits with $top', async () => {
    const all = await api.call('GET', path);
    expect(all.body['@odata.context']).toBe(`${api.emulator.url}/v1.0/$metadata#policies/homeRealmDiscoveryPolicies`);
    expect(all.body.value[1]).toEqual({
      id: '6c2a4e8b-7001-4d3f-9a1b-2c3d4e5f6a02',
      deletedDateTime: null,
      definition: [
        '{"HomeRealmDiscoveryPolicy":{"AccelerateToFederatedDomain":false,"AlternateIdLogin":{"Enabled":false}}}',
      ],
      displayName: 'Build agent sign-in',
      isOrganizationDefault: false,
    });
    const byId = await api.call(
      'GET',
      `${path}?$filter=id eq '6c2a4e8b-7001-4d3f-9a1b-2c3d4e5f6a02'&$expand=appliesTo`,
    );
    expect(byId.body.value).toEqual([
      expect.objectContaining({
        displayName: 'Build agent sign-in',
        appliesTo: [{ '@odata.type': '#vendor.graph.servicePrincipal', id: SEED_IDS.servicePrincipal }],
      }),
    ]);
    expect((await api.call('GET', `${path}?$top=0`)).body.value).toEqual([]);
    expect((await api.call('GET', `${path}?$top=2147483647`)).body.value).toHaveLength(2);
    for (const top of ['-1', '2147483648'])
      expectFault(
        await api.call('GET', `${path}?$top=${top}`),
        400,
        'BadRequest',
        `Invalid value '${top}' for query option $top: expected a non-negative 32-bit integer.`,
      );
    expectFault(
      await api.call('GET', `${path}?$select=appliesTo`),
      400,
      'BadRequest',
      "Could not find a property named 'appliesTo' on type 'vendor.graph.homeRealmDiscoveryPolicy'.",
    );
    expectFault(
      await api.call('GET', `${path}?$expand=owners`),
      400,
      'BadRequest',
      "Could not find a navigation property named 'owners' on type 'vendor.graph.homeRealmDiscoveryPolicy'.",
    );
  });
});

describe('subcategory templates', () => {
  const category = '0d4c3b2a-8001-4e5f-9a6b-7c8d9e0f1a01';
  const path = `/security/labels/categories/${category}/subcategories`;

  it('answers under the category’s context, with $select keeping the type and id', async () => {
    const reply = await api.call('GET', `${path}/3bd4aa26-ecfc-f044-93f3-a3ca92946fb1?$select=displayName`);
    expect(reply.body).toEqual({
      '@odata.context': `${api.emulator.url}/v1.0/$metadata#security/labels/categories('${category}')/subcategories/$entity`,
      value: {
        '@odata.type': '#vendor.graph.security.subcategoryTemplate',
        id: '3bd4aa26-ecfc-f044-93f3-a3ca92946fb1',
        displayName: 'Finance',
      },
    });
    expectFault(
      await api.call('GET', `${path}/3bd4aa26-ecfc-f044-93f3-a3ca92946fb1?$select=name`),
      400,
      'BadRequest',
      "Could not find a property named 'name' on type 'vendor.graph.security.subcategoryTemplate'.",
    );
  });

  it('answers 404 naming the category or the subcategory that does not exist', async () => {
    notFound(
      await api.call('GET', '/security/labels/categories/nope/subcategories/x'),
      "Category template 'nope' was not found.",
    );
    notFound(await api.call('GET', `${path}/nope`), "Subcategory template 'nope' was not found.");
  });
});

describe('custodian sources', () => {
  const path = (search = SEARCH) => `/security/cases/ediscoveryCases/${CASE}/searches/${search}/custodianSources/$ref`;
  const add = (url: string, search = SEARCH) => api.call('POST', path(search), { body: { '@odata.id': url } });
  const sources = (search: string) =>
    (stored('ediscoveryCases', CASE).searches as JsonRecord[]).find((s) => s.id === search)!.custodianSources;

  it('refuses what is not a user source of a custodian of this case, naming why, and adds nothing', async () => {
    const base = api.emulator.url;
    expectFault(
      await add(`${base}/v1.0/users/${U.megan}`),
      400,
      'BadRequest',
      'Invalid @odata.id: expected the URL of a user source of a custodian in this case (…/ediscoveryCases/{case}/custodians/{custodian}/userSources/{source}).',
    );
    expect((await add(`${userSourceUrl(base)}/extra`)).status).toBe(400);
    expectFault(
      await add(userSourceUrl(base, 'other-case')),
      400,
      'BadRequest',
      'The data source belongs to another eDiscovery case.',
    );
    notFound(await add(userSourceUrl(base, CASE, 'nobody')), `Custodian user source '${MEGAN_SOURCE}' was not found.`);
    // Adele's source is not one of Megan's.
    notFound(
      await add(userSourceUrl(base, CASE, MEGAN_CUSTODIAN, ADELE_SOURCE)),
      `Custodian user source '${ADELE_SOURCE}' was not found.`,
    );
    notFound(
      await api.call('POST', `/security/cases/ediscoveryCases/nope/searches/${SEARCH}/custodianSources/$ref`, {
        body: { '@odata.id': userSourceUrl(base) },
      }),
      "eDiscovery case 'nope' was not found.",
    );
    notFound(await add(userSourceUrl(base), 'nope'), "eDiscovery search 'nope' was not found.");
    expect(sources(SEARCH)).toEqual([]);
  });

  it('adds any source of the custodian to the search named, once, and leaves the other searches alone', async () => {
    const base = api.emulator.url;
    expect((await add(`${userSourceUrl(base, CASE, MEGAN_CUSTODIAN, MEGAN_SECOND_SOURCE)}/`)).status).toBe(204);
    expect((await add(userSourceUrl(base, encodeURIComponent(CASE)))).status).toBe(204);
    expect(sources(SEARCH)).toEqual([MEGAN_SECOND_SOURCE, MEGAN_SOURCE]);
    expect(sources(SECOND_SEARCH)).toEqual([]);
    expectFault(
      await add(userSourceUrl(base)),
      400,
      'BadRequest',
      'The data source is already a custodian source of this search.',
    );
    expect((await add(userSourceUrl(base), SECOND_SEARCH)).status).toBe(204);
    expect(sources(SECOND_SEARCH)).toEqual([MEGAN_SOURCE]);
  });
});

describe('places', () => {
  const fixtures = (building: string, level = LEVEL) =>
    `/places/${building}/vendor.graph.building/map/levels/${level}/fixtures`;

  it('lists fixtures under their collection context; $select takes id, placeId and properties', async () => {
    const all = await api.call('GET', fixtures(BUILDING));
    expect(all.body['@odata.context']).toBe(`${api.emulator.url}/v1.0/$metadata#Collection(vendor.graph.fixtureMap)`);
    const [first] = all.body.value;
    expect((await api.call('GET', `${fixtures(BUILDING)}?$select=properties`)).body.value[0]).toEqual({
      id: first.id,
      properties: first.properties,
    });
    expect((await api.call('GET', `${fixtures(BUILDING)}?$select=id`)).body.value[0]).toEqual({ id: first.id });
    expectFault(
      await api.call('GET', `${fixtures(BUILDING)}?$select=name`),
      400,
      'BadRequest',
      "Could not find a property named 'name' on type 'vendor.graph.fixtureMap'.",
    );
  });

  it('answers 404 for a place that is not a building, a building without a map, and a level that does not exist', async () => {
    for (const place of [ROOM, 'nope']) {
      notFound(await api.call('GET', fixtures(place)), `Building '${place}' was not found.`);
      notFound(
        await api.call('DELETE', `/places/${place}/vendor.graph.building/map`),
        `Building '${place}' was not found.`,
      );
    }
    notFound(await api.call('GET', fixtures(NO_MAP)), `Building map of '${NO_MAP}' was not found.`);
    notFound(
      await api.call('DELETE', `/places/${NO_MAP}/vendor.graph.building/map`),
      `Building map of '${NO_MAP}' was not found.`,
    );
    notFound(await api.call('GET', fixtures(BUILDING, 'nope')), "Level map 'nope' was not found.");
  });

  it('deletes a building map: the building stays, without a map', async () => {
    expect((await api.call('DELETE', `/places/${BUILDING}/vendor.graph.building/map`)).status).toBe(204);
    notFound(await api.call('GET', fixtures(BUILDING)), `Building map of '${BUILDING}' was not found.`);
    notFound(
      await api.call('DELETE', `/places/${BUILDING}/vendor.graph.building/map`),
      `Building map of '${BUILDING}' was not found.`,
    );
  });
});

describe('planner task board format', () => {
  const format = (task: string) => `/planner/tasks/${task}/progressTaskBoardFormat`;

  it('answers members and owners of the plan’s group with the format under its context', async () => {
    const megan = await api.call('GET', format(TASK), { token: await api.token({ user: 'megan@contoso.example' }) });
    expect(megan.body).toEqual({
      '@odata.context': `${api.emulator.url}/v1.0/$metadata#planner/tasks('${TASK}')/progressTaskBoardFormat/$entity`,
      '@odata.etag': 'W/"JzEtVGFzayAgQEBAQEBAQEBAQEBAQEBAWCc="',
      id: TASK,
      orderHint: '85752723360752+',
    });
    // Lee owns the group of this task without being a member; the task has an etag of its own.
    const lee = await api.call('GET', format(ETAG_TASK), { token: await api.token({ user: 'lee@contoso.example' }) });
    expect(lee.status, lee.text).toBe(200);
    expect(lee.body).toMatchObject({ '@odata.etag': 'W/"W1234"', id: ETAG_TASK, orderHint: '8585+' });
  });

  it('refuses others with 403 Forbidden, and an unknown task with 404 NotFound', async () => {
    expectFault(
      await api.call('GET', format(ETAG_TASK)),
      403,
      'Forbidden',
      'You do not have the required permissions to access this item: only members of the plan’s group can read its tasks.',
    );
    expectFault(await api.call('GET', format('nope')), 404, 'NotFound', "The requested item 'nope' is not found.");
  });
});

describe('engagement role members, print task definitions', () => {
  it('removes one member of a role and keeps the others', async () => {
    const member = (id: string) => `/employeeExperience/roles/${ROLE}/members/${id}`;
    expect((await api.call('DELETE', member('f3e2d1c0-b002-4c5d-8e6f-7a8b9c0d1e02'))).status).toBe(204);
    expect(stored('engagementRoles', ROLE)).toMatchObject({
      displayName: 'Network Admin',
      members: [{ id: 'f3e2d1c0-b003-4c5d-8e6f-7a8b9c0d1e03', userId: U.alex }],
    });
    notFound(
      await api.call('DELETE', member('f3e2d1c0-b002-4c5d-8e6f-7a8b9c0d1e02')),
      "Engagement role member 'f3e2d1c0-b002-4c5d-8e6f-7a8b9c0d1e02' was not found.",
    );
    notFound(
      await api.call('DELETE', '/employeeExperience/roles/nope/members/x'),
      "Engagement role 'nope' was not found.",
    );
  });

  it('deletes a print task definition once', async () => {
    const app = { token: await api.token({ app: SEED_IDS.app }) };
    const path = '/print/taskDefinitions/fab143fd-c002-4d5e-8f6a-7b8c9d0e1f02';
    expect((await api.call('DELETE', path, app)).status).toBe(204);
    notFound(
      await api.call('DELETE', path, app),
      "Print task definition 'fab143fd-c002-4d5e-8f6a-7b8c9d0e1f02' was not found.",
    );
  });
});

describe('cloud PC restore', () => {
  const restore = (cloudPc: string, snapshot: string) =>
    api.call('POST', `/deviceManagement/virtualEndpoint/cloudPCs/${cloudPc}/restore`, {
      body: { cloudPcSnapshotId: snapshot },
    });

  it('refuses a snapshot of another cloud PC and changes nothing; restores from its own and records it', async () => {
    expectFault(
      await restore(CLOUD_PC, 'someone-elses-snapshot'),
      400,
      'BadRequest',
      "The snapshot 'someone-elses-snapshot' does not belong to this Cloud PC.",
    );
    expect(stored('cloudPcs', CLOUD_PC)).toMatchObject({ status: 'provisioned', restores: [] });
    expect((await restore(CLOUD_PC, SNAPSHOT)).status).toBe(204);
    const pc = stored('cloudPcs', CLOUD_PC);
    expect(pc).toMatchObject({ displayName: 'CPC-adele-01', status: 'restoring' });
    expect(pc.restores).toEqual([{ snapshotId: SNAPSHOT, requestedDateTime: expect.any(String) }]);
    expect((await restore(CLOUD_PC, SNAPSHOT)).status).toBe(204);
    expect(stored('cloudPcs', CLOUD_PC).restores).toHaveLength(2);
    notFound(await restore('nope', SNAPSHOT), "Cloud PC 'nope' was not found.");
  });
});

describe('drive bundles', () => {
  const add = async (id: string, user = 'adele', bundle = '123456!90') =>
    api.call('POST', `/drive/bundles/${bundle}/children`, {
      token: await api.token({ user: `${user}@contoso.example` }),
      body: { id },
    });

  it('adds an item of the owner’s drive after those already there, once', async () => {
    expect((await add('123456!87')).status).toBe(204);
    expect(stored('bundles', '123456!90').children).toEqual(['123456!88', '123456!87']);
    expectFault(await add('123456!87'), 409, 'nameAlreadyExists', 'The item is already in the bundle.');
  });

  it('hides another user’s bundle and items, and names an item that does not exist', async () => {
    expectFault(await add('123456!87', 'megan'), 404, 'itemNotFound', 'The resource could not be found.');
    expectFault(await add('123456!87', 'adele', 'nope'), 404, 'itemNotFound', 'The resource could not be found.');
    expectFault(await add('654321!12'), 404, 'itemNotFound', "The drive item '654321!12' could not be found.");
    expectFault(await add('nope'), 404, 'itemNotFound', "The drive item 'nope' could not be found.");
    expect(stored('bundles', '123456!90').children).toEqual(['123456!88', '123456!87']);
  });
});
