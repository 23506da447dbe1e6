import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { useEmulator } from './harness.js';
import { BUILDING, CASE, LEVEL, SEARCH, userSourceUrl } from './samples.js';

const U = SEED_IDS.users;
const api = useEmulator();
const REQUESTS = '/identityGovernance/entitlementManagement/assignmentRequests';
const REQUIREMENTS = `/identityGovernance/entitlementManagement/accessPackages/${SEED_IDS.accessPackage}/getApplicablePolicyRequirements`;

describe('access package assignment requests', () => {
  it('returns the request, and expands accessPackage, requestor and assignment (with its target)', async () => {
    const plain = await api.call('GET', `${REQUESTS}/${SEED_IDS.assignmentRequests.delivered}`);
    expect(plain.body).toMatchObject({
      id: SEED_IDS.assignmentRequests.delivered,
      requestType: 'adminAdd',
      state: 'delivered',
      status: 'Delivered',
    });
    expect(plain.body.schedule['@odata.type']).toBe('vendor.graph.entitlementManagementSchedule');
    expect(plain.body).not.toHaveProperty('accessPackage');
    expect(plain.body).not.toHaveProperty('requestorId');
    const expanded = await api.call(
      'GET',
      `${REQUESTS}/${SEED_IDS.assignmentRequests.delivered}?$expand=accessPackage,requestor,assignment($expand=target)`,
    );
    expect(expanded.body.accessPackage).toMatchObject({ id: SEED_IDS.accessPackage, displayName: 'Release approvers' });
    expect(expanded.body.requestor).toMatchObject({
      id: U.megan,
      principalName: 'megan@contoso.example',
      subjectType: 'user',
    });
    expect(expanded.body.assignment).toMatchObject({ state: 'delivered', target: { id: U.megan } });
    const noTarget = await api.call('GET', `${REQUESTS}/${SEED_IDS.assignmentRequests.delivered}?$expand=assignment`);
    expect(noTarget.body.assignment).not.toHaveProperty('target');
    const selected = await api.call('GET', `${REQUESTS}/${SEED_IDS.assignmentRequests.pending}?$select=state`);
    expect(selected.body).toEqual({
      '@odata.context': expect.any(String),
      id: SEED_IDS.assignmentRequests.pending,
      state: 'pendingApproval',
    });
  });

  it('refuses an unknown expansion or nested option, and answers 404 for an unknown request', async () => {
    for (const query of [
      '$expand=policy',
      '$expand=assignment($select=id)',
      '$expand=assignment($expand=owner)',
      '$expand=requestor(',
      "$filter=state eq 'delivered'",
    ]) {
      expect(
        (await api.call('GET', `${REQUESTS}/${SEED_IDS.assignmentRequests.delivered}?${query}`)).status,
        query,
      ).toBe(400);
    }
    const missing = await api.call('GET', `${REQUESTS}/00000000-0000-0000-0000-000000000000`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('ResourceNotFound');
  });
});

describe('applicable policy requirements', () => {
  it('lists one item per policy the caller may request under, with false and null for a policy without requirements', async () => {
    const adele = await api.call('POST', REQUIREMENTS);
    expect(adele.status).toBe(200);
    expect(adele.body.value.map((r: { policyId: string }) => r.policyId)).toEqual([
      SEED_IDS.assignmentPolicies.direct,
      SEED_IDS.assignmentPolicies.selfService,
    ]);
    expect(adele.body.value[0]).toMatchObject({
      isApprovalRequiredForAdd: true,
      isRequestorJustificationRequired: true,
    });
    expect(adele.body.value[1]).toMatchObject({
      isApprovalRequiredForAdd: false,
      isApprovalRequiredForUpdate: false,
      allowCustomAssignmentSchedule: false,
      isRequestorJustificationRequired: false,
      questions: null,
      schedule: null,
    });
    const patti = await api.call('POST', REQUIREMENTS, { token: await api.token({ user: 'patti@contoso.example' }) });
    expect(patti.body.value.map((r: { policyId: string }) => r.policyId)).toEqual([
      SEED_IDS.assignmentPolicies.selfService,
      SEED_IDS.assignmentPolicies.adminsOnly,
    ]);
    expect(
      (
        await api.call(
          'POST',
          '/identityGovernance/entitlementManagement/accessPackages/nope/getApplicablePolicyRequirements',
        )
      ).status,
    ).toBe(404);
  });

  it('is empty when the caller may request under no policy', async () => {
    await api.call(
      'DELETE',
      `/identityGovernance/entitlementManagement/assignmentPolicies/${SEED_IDS.assignmentPolicies.selfService}`,
    );
    const lee = await api.call('POST', REQUIREMENTS, { token: await api.token({ user: 'lee@contoso.example' }) });
    expect(lee.status).toBe(200);
    expect(lee.body.value).toEqual([]);
  });
});

describe('home realm discovery policies', () => {
  it('lists, filters, selects, expands and limits', async () => {
    const all = await api.call('GET', '/policies/homeRealmDiscoveryPolicies');
    expect(all.body.value).toHaveLength(2);
    expect(all.body.value[0]).toMatchObject({
      deletedDateTime: null,
      isOrganizationDefault: true,
      definition: [expect.stringContaining('HomeRealmDiscoveryPolicy')],
    });
    expect(all.body.value[0]).not.toHaveProperty('appliesTo');
    const filtered = await api.call(
      'GET',
      "/policies/homeRealmDiscoveryPolicies?$filter=isOrganizationDefault eq false and displayName eq 'Build agent sign-in'",
    );
    expect(filtered.body.value.map((p: { displayName: string }) => p.displayName)).toEqual(['Build agent sign-in']);
    const selected = await api.call(
      'GET',
      '/policies/homeRealmDiscoveryPolicies?$select=displayName&$top=1&$expand=appliesTo',
    );
    expect(selected.body.value).toEqual([
      { id: '8f865ec2-2b02-405f-91e7-cb580dfdfa56', displayName: 'Contoso federated sign-in', appliesTo: [] },
    ]);
    for (const query of [
      "$filter=startswith(displayName,'C')",
      '$filter=color eq true',
      '$select=secret',
      '$expand=owners',
      '$orderby=displayName',
      '$top=x',
    ]) {
      expect((await api.call('GET', `/policies/homeRealmDiscoveryPolicies?${query}`)).status, query).toBe(400);
    }
  });
});

describe('labels and eDiscovery', () => {
  it('returns a subcategory template under a value property', async () => {
    const reply = await api.call(
      'GET',
      '/security/labels/categories/0d4c3b2a-8002-4e5f-9a6b-7c8d9e0f1a02/subcategories/4ce5bb37-fd0d-0155-a404-b4dba3a580c2',
    );
    expect(reply.body.value).toEqual({
      '@odata.type': '#vendor.graph.security.subcategoryTemplate',
      id: '4ce5bb37-fd0d-0155-a404-b4dba3a580c2',
      displayName: 'Vendor Invoice',
      createdBy: { user: { id: U.patti, displayName: 'Patti Fernandez' } },
      createdDateTime: '2026-04-01T12:00:00Z',
    });
    const wrongCategory = await api.call(
      'GET',
      '/security/labels/categories/0d4c3b2a-8001-4e5f-9a6b-7c8d9e0f1a01/subcategories/4ce5bb37-fd0d-0155-a404-b4dba3a580c2',
    );
    expect(wrongCategory.status).toBe(404);
  });

  it('adds a custodian source once (204), and refuses a source outside the case', async () => {
    const path = `/security/cases/ediscoveryCases/${CASE}/searches/${SEARCH}/custodianSources/$ref`;
    expect((await api.call('POST', path, { body: { '@odata.id': userSourceUrl(api.emulator.url) } })).status).toBe(204);
    expect((await api.call('POST', path, { body: { '@odata.id': userSourceUrl(api.emulator.url) } })).status).toBe(400);
    expect(
      (await api.call('POST', path, { body: { '@odata.id': userSourceUrl(api.emulator.url, 'other-case') } })).status,
    ).toBe(400);
    expect(
      (await api.call('POST', path, { body: { '@odata.id': userSourceUrl(api.emulator.url, CASE, 'nobody') } })).status,
    ).toBe(404);
    expect(
      (await api.call('POST', path, { body: { '@odata.id': `${api.emulator.url}/v1.0/users/${U.megan}` } })).status,
    ).toBe(400);
    expect(
      (
        await api.call('POST', `/security/cases/ediscoveryCases/${CASE}/searches/nope/custodianSources/$ref`, {
          body: { '@odata.id': userSourceUrl(api.emulator.url) },
        })
      ).status,
    ).toBe(404);
  });
});

describe('places', () => {
  it('lists the fixtures of a level, with $select; a linked fixture names its place in properties', async () => {
    const path = `/places/${BUILDING}/vendor.graph.building/map/levels/${LEVEL}/fixtures`;
    const reply = await api.call('GET', path);
    expect(reply.body.value).toHaveLength(2);
    const [unlinked, linked] = reply.body.value;
    expect(unlinked.placeId).toBeNull();
    const feature = JSON.parse(linked.properties);
    expect(feature).toMatchObject({
      type: 'Feature',
      feature_type: 'fixture',
      geometry: { type: 'Polygon' },
      properties: { directory_id: linked.placeId, level_id: LEVEL },
    });
    const ring = feature.geometry.coordinates[0];
    expect(ring[0]).toEqual(ring.at(-1));
    expect((await api.call('GET', `${path}?$select=placeId`)).body.value[1]).toEqual({
      id: linked.id,
      placeId: linked.placeId,
    });
    expect((await api.call('GET', `${path}?$top=1`)).status).toBe(400);
    expect((await api.call('GET', `/places/${BUILDING}/vendor.graph.building/map/levels/nope/fixtures`)).status).toBe(
      404,
    );
  });

  it('deletes a building map (204) once; a building without a map is 404', async () => {
    const map = `/places/${BUILDING}/vendor.graph.building/map`;
    expect((await api.call('DELETE', map)).status).toBe(204);
    expect((await api.call('DELETE', map)).status).toBe(404);
    expect((await api.call('GET', `${map}/levels/${LEVEL}/fixtures`)).status).toBe(404);
    expect(
      (await api.call('DELETE', '/places/e5c4b3a2-a006-4b6c-8d7e-9f0a1b2c3d06/vendor.graph.building/map')).status,
    ).toBe(404);
  });
});

describe('planner, engagement roles, print, cloud PCs, bundles', () => {
  it('returns a task board format to a member of the plan’s group, 403 to others and 404 for an unknown task', async () => {
    const reply = await api.call('GET', '/planner/tasks/01gzSlKkIUSUl6DF_EilrmQAKDhh/progressTaskBoardFormat');
    expect(reply.body).toMatchObject({
      id: '01gzSlKkIUSUl6DF_EilrmQAKDhh',
      orderHint: '85752723360752+',
      '@odata.etag': expect.stringMatching(/^W\//),
    });
    expect((await api.call('GET', '/planner/tasks/02hAtmLlJVTVm7EG_FjmsnRBLEii/progressTaskBoardFormat')).status).toBe(
      403,
    );
    expect((await api.call('GET', '/planner/tasks/nope/progressTaskBoardFormat')).status).toBe(404);
  });

  it('restores a cloud PC from one of its snapshots only', async () => {
    const path = '/deviceManagement/virtualEndpoint/cloudPCs/662009bc-d001-4e5f-8a6b-7c8d9e0f1a01/restore';
    expect(
      (
        await api.call('POST', path, {
          body: { cloudPcSnapshotId: 'A00009UV000_b7c5a1d2-72e3-478f-b98a-2213bf7fe5b9' },
        })
      ).status,
    ).toBe(204);
    expect((await api.call('POST', path, { body: { cloudPcSnapshotId: 'someone-elses-snapshot' } })).status).toBe(400);
    expect((await api.call('POST', path, { body: {} })).status).toBe(400);
    expect(
      (
        await api.call('POST', '/deviceManagement/virtualEndpoint/cloudPCs/nope/restore', {
          body: { cloudPcSnapshotId: 'x' },
        })
      ).status,
    ).toBe(404);
  });

  it('adds an item to a bundle once, only from the owner’s drive', async () => {
    expect((await api.call('POST', '/drive/bundles/123456!90/children', { body: { id: '123456!87' } })).status).toBe(
      204,
    );
    expect((await api.call('POST', '/drive/bundles/123456!90/children', { body: { id: '123456!87' } })).status).toBe(
      409,
    );
    expect((await api.call('POST', '/drive/bundles/123456!90/children', { body: { id: '654321!12' } })).status).toBe(
      404,
    );
    const megan = await api.token({ user: 'megan@contoso.example' });
    expect(
      (await api.call('POST', '/drive/bundles/123456!90/children', { token: megan, body: { id: '654321!12' } })).status,
    ).toBe(404);
  });
});
