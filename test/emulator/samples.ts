/** One working request per operation against the default tenant: the path, the body, and what succeeds. */
import { SEED_IDS } from '../../src/emulator/index.js';

const U = SEED_IDS.users;
const G = SEED_IDS.groups;
export const BOOK = `/me/drive/items/${SEED_IDS.workbook}/workbook`;
export const BOOK_BY_PATH = '/me/drive/root:/Documents/Inventory.xlsx:/workbook';
export const CASE = 'b0073e4e-9001-4f6a-8b7c-9d0e1f2a3b01';
export const SEARCH = 'c61a5860-9006-4f6a-8b7c-9d0e1f2a3b06';
export const BUILDING = 'e5c4b3a2-a001-4b6c-8d7e-9f0a1b2c3d01';
export const LEVEL = 'e537d463-a002-4b6c-8d7e-9f0a1b2c3d02';

export function userSourceUrl(
  base: string,
  caseId = CASE,
  custodian = '0053a61a-9002-4f6a-8b7c-9d0e1f2a3b02',
  source = '2b4ff8f1-9003-4f6a-8b7c-9d0e1f2a3b03',
): string {
  return `${base}/v1.0/security/cases/ediscoveryCases/${caseId}/custodians/${custodian}/userSources/${source}`;
}

export interface Sample {
  method: string;
  path: string;
  body?: (base: string) => unknown;
  /** Status with the default (delegated) token, or 'app' when only an application token works. */
  status: number;
  app?: boolean;
}

export const SAMPLES: Record<string, Sample> = {
  listPhoneMethods: { method: 'GET', path: '/me/authentication/phoneMethods', status: 200 },
  listAuthenticationMethods: { method: 'GET', path: `/users/${U.megan}/authentication/methods`, status: 200 },
  replyToThread: {
    method: 'POST',
    path: `/groups/${G.release}/threads/${SEED_IDS.threads.review}/reply`,
    body: () => ({ post: { body: { contentType: 'text', content: 'Looks good' } } }),
    status: 202,
  },
  getGroup: { method: 'GET', path: `/groups/${G.release}`, status: 200 },
  listChannels: { method: 'GET', path: `/teams/${G.release}/channels`, status: 200 },
  listChannelTabs: {
    method: 'GET',
    path: `/teams/${G.release}/channels/${encodeURIComponent(SEED_IDS.channels.builds)}/tabs`,
    status: 200,
  },
  listThreadPosts: {
    method: 'GET',
    path: `/groups/${G.release}/threads/${SEED_IDS.threads.review}/posts`,
    status: 200,
  },
  addGroupOwner: {
    method: 'POST',
    path: `/groups/${G.release}/owners/$ref`,
    body: (base) => ({ '@odata.id': `${base}/v1.0/users/${U.megan}` }),
    status: 204,
  },
  removeTeamMembers: {
    method: 'POST',
    path: `/teams/${G.release}/members/remove`,
    body: (base) => ({
      values: [
        {
          '@odata.type': 'vendor.graph.dirUserConversationMember',
          'user@odata.bind': `${base}/v1.0/users('${U.lee}')`,
        },
      ],
    }),
    status: 204,
  },
  cloneTeam: {
    method: 'POST',
    path: `/teams/${G.release}/clone`,
    body: () => ({ displayName: 'Release Engineering (copy)', partsToClone: 'apps,tabs,settings,channels,members' }),
    status: 202,
  },
  getTeamOperation: { method: 'GET', path: `/teams/${G.release}/operations/not-an-operation`, status: 404 },
  addChannelTab: {
    method: 'POST',
    path: `/teams/${G.release}/channels/${encodeURIComponent(SEED_IDS.channels.general)}/tabs`,
    body: (base) => ({
      displayName: 'Dashboard',
      'teamsApp@odata.bind': `${base}/v1.0/appCatalogs/teamsApps/${SEED_IDS.teamsApps.dashboard}`,
      configuration: { entityId: 'x', contentUrl: 'https://dashboard.contoso.example/x' },
    }),
    status: 201,
  },
  messageDelta: { method: 'GET', path: '/me/mailFolders/inbox/messages/delta', status: 200 },
  listMessages: { method: 'GET', path: '/me/messages', status: 200 },
  listFolderMessages: { method: 'GET', path: '/me/mailFolders/inbox/messages', status: 200 },
  getMessage: { method: 'GET', path: '/me/messages/AAMkAGMsgAdele0002', status: 200 },
  createMessage: {
    method: 'POST',
    path: '/me/mailFolders/inbox/messages',
    body: () => ({ subject: 'New' }),
    status: 201,
  },
  updateMessage: {
    method: 'PATCH',
    path: '/me/messages/AAMkAGMsgAdele0004',
    body: () => ({ isRead: true }),
    status: 200,
  },
  moveMessage: {
    method: 'POST',
    path: '/me/messages/AAMkAGMsgAdele0005/move',
    body: () => ({ destinationId: 'archive' }),
    status: 201,
  },
  deleteMessage: { method: 'DELETE', path: '/me/messages/AAMkAGMsgAdele0001', status: 204 },
  forwardEvent: {
    method: 'POST',
    path: '/me/events/evt-adele-gonogo/forward',
    body: () => ({
      Comment: 'FYI',
      ToRecipients: [{ EmailAddress: { Address: 'dana@fabrikam.example', Name: 'Dana' } }],
    }),
    status: 202,
  },
  getEvent: { method: 'GET', path: '/me/events/evt-adele-gonogo', status: 200 },
  permanentDeleteEvent: {
    method: 'POST',
    path: `/users/${U.adele}/events/evt-adele-planning/permanentDelete`,
    status: 204,
  },
  updateNamedRangeBorder: {
    method: 'PATCH',
    path: `${BOOK}/names/Header/range/format/borders/EdgeTop`,
    body: () => ({ style: 'Continuous' }),
    status: 200,
  },
  updateRangeBorder: {
    method: 'PATCH',
    path: `${BOOK}/worksheets/Components/range(address='A2:F2')/format/borders/EdgeBottom`,
    body: () => ({ color: '#FF0000' }),
    status: 200,
  },
  updateColumnRangeBorder: {
    method: 'PATCH',
    path: `${BOOK}/tables/ComponentTable/columns/license/range/format/borders/EdgeLeft`,
    body: () => ({ weight: 'Thick' }),
    status: 200,
  },
  getRangeBorder: { method: 'GET', path: `${BOOK}/names/Header/range/format/borders/EdgeTop`, status: 200 },
  listTableColumns: { method: 'GET', path: `${BOOK}/tables/ComponentTable/columns`, status: 200 },
  getTableRange: { method: 'GET', path: `${BOOK}/tables/ComponentTable/range`, status: 200 },
  getChartPoint: {
    method: 'GET',
    path: `${BOOK}/worksheets/Summary/charts/LicenseChart/series/0/points/itemAt(index=1)`,
    status: 200,
  },
  createWorkbookSession: {
    method: 'POST',
    path: `${BOOK}/createSession`,
    body: () => ({ persistChanges: true }),
    status: 201,
  },
  closeWorkbookSession: { method: 'POST', path: `${BOOK}/closeSession`, status: 400 },
  getAssignmentRequest: {
    method: 'GET',
    path: `/identityGovernance/entitlementManagement/assignmentRequests/${SEED_IDS.assignmentRequests.delivered}`,
    status: 200,
  },
  getApplicablePolicyRequirements: {
    method: 'POST',
    path: `/identityGovernance/entitlementManagement/accessPackages/${SEED_IDS.accessPackage}/getApplicablePolicyRequirements`,
    status: 200,
  },
  deleteAssignmentPolicy: {
    method: 'DELETE',
    path: `/identityGovernance/entitlementManagement/assignmentPolicies/${SEED_IDS.assignmentPolicies.adminsOnly}`,
    status: 204,
  },
  listHomeRealmDiscoveryPolicies: { method: 'GET', path: '/policies/homeRealmDiscoveryPolicies', status: 200 },
  getSubcategoryTemplate: {
    method: 'GET',
    path: '/security/labels/categories/0d4c3b2a-8002-4e5f-9a6b-7c8d9e0f1a02/subcategories/4ce5bb37-fd0d-0155-a404-b4dba3a580c2',
    status: 200,
  },
  addCustodianSource: {
    method: 'POST',
    path: `/security/cases/ediscoveryCases/${CASE}/searches/${SEARCH}/custodianSources/$ref`,
    body: (base) => ({ '@odata.id': userSourceUrl(base) }),
    status: 204,
  },
  listFixtures: {
    method: 'GET',
    path: `/places/${BUILDING}/vendor.graph.building/map/levels/${LEVEL}/fixtures`,
    status: 200,
  },
  deleteBuildingMap: { method: 'DELETE', path: `/places/${BUILDING}/vendor.graph.building/map`, status: 204 },
  getProgressTaskBoardFormat: {
    method: 'GET',
    path: '/planner/tasks/01gzSlKkIUSUl6DF_EilrmQAKDhh/progressTaskBoardFormat',
    status: 200,
  },
  deleteEngagementRoleMember: {
    method: 'DELETE',
    path: '/employeeExperience/roles/ec759127-b001-4c5d-8e6f-7a8b9c0d1e01/members/f3e2d1c0-b003-4c5d-8e6f-7a8b9c0d1e03',
    status: 204,
  },
  deletePrintTaskDefinition: {
    method: 'DELETE',
    path: '/print/taskDefinitions/fab143fd-c002-4d5e-8f6a-7b8c9d0e1f02',
    status: 204,
    app: true,
  },
  restoreCloudPc: {
    method: 'POST',
    path: '/deviceManagement/virtualEndpoint/cloudPCs/662009bc-d001-4e5f-8a6b-7c8d9e0f1a01/restore',
    body: () => ({ cloudPcSnapshotId: 'A00009UV000_93aff428-61f2-467f-a879-1102af6fd4a8' }),
    status: 204,
  },
  addBundleItem: {
    method: 'POST',
    path: '/drive/bundles/123456!90/children',
    body: () => ({ id: '123456!87' }),
    status: 204,
  },
  listBundleChildren: { method: 'GET', path: '/drive/bundles/123456!90/children', status: 200 },
  listGroupOwners: { method: 'GET', path: `/groups/${G.release}/owners`, status: 200 },
  listTeamMembers: { method: 'GET', path: `/teams/${G.release}/members`, status: 200 },
  listCustodianSources: {
    method: 'GET',
    path: `/security/cases/ediscoveryCases/${CASE}/searches/${SEARCH}/custodianSources`,
    status: 200,
  },
};
