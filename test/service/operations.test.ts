import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HANDLERS } from '../../src/emulator/handlers/index.js';
import { OPERATIONS } from '../../src/service/operations.js';
import { buildPath, matchRoute, normalizeKeySegments, routeTemplates } from '../../src/service/paths.js';
import { BODY_SHAPES } from '../../src/service/shapes.js';
import { SHARED } from '../helpers.js';

const SPEC = path.join(SHARED, 'spec/service-and-bom-spec.md');
const HAVE_SPEC = existsSync(SPEC);
if (!HAVE_SPEC) console.warn(`The spec was not found at ${SPEC} (../shared/spec): skipping its endpoint tables`);

/** The rows of the spec's endpoint tables: `METHOD path-cell`, exactly as written. */
function specRows(): string[] {
  const rows: string[] = [];
  let inTable = false;
  for (const line of readFileSync(SPEC, 'utf8').split('\n')) {
    if (/^\| Method \| Path \|/.test(line)) {
      inTable = true;
      continue;
    }
    if (!line.startsWith('|')) {
      inTable = false;
      continue;
    }
    if (!inTable || line.startsWith('|---')) continue;
    // Split on cell bars, not on the escaped \| inside a path.
    const cells = line.split(/(?<!\\)\|/).map((cell) => cell.trim());
    rows.push(`${cells[1]} ${cells[2]}`);
  }
  return rows;
}

/**
 * Every path form each row lists, written out by hand from the spec (not from the table under test), with the
 * method. Each must route to the operation that claims the row.
 */
const FORMS: Record<string, string[]> = {
  'GET /me/authentication/phoneMethods': ['/me/authentication/phoneMethods'],
  'GET /users/{id \\| userPrincipalName}/authentication/phoneMethods': [
    '/users/8b3f1a2c-1001-4d5e-9f60-7a8b9c0d1e01/authentication/phoneMethods',
    '/users/adele%40contoso.example/authentication/phoneMethods',
    '/users/adele@contoso.example/authentication/phoneMethods',
  ],
  'GET /me/authentication/methods': ['/me/authentication/methods'],
  'GET /users/{id \\| userPrincipalName}/authentication/methods': [
    '/users/u1/authentication/methods',
    '/users/a@b.example/authentication/methods',
  ],
  'POST /groups/{id}/threads/{id}/reply': ['/groups/g1/threads/t1/reply'],
  'POST /groups/{id}/conversations/{id}/threads/{id}/reply': ['/groups/g1/conversations/c1/threads/t1/reply'],
  'POST /groups/{id}/owners/$ref': ['/groups/g1/owners/$ref'],
  'POST /teams/{team-id}/members/remove': ['/teams/t1/members/remove'],
  'POST /teams/{id}/clone': ['/teams/t1/clone'],
  'POST /teams/{team-id}/channels/{channel-id}/tabs': ['/teams/t1/channels/19%3Aabc%40thread.tacv2/tabs'],
  'GET /me/mailFolders/{id}/messages/delta': [
    '/me/mailFolders/inbox/messages/delta',
    '/me/mailfolders/inbox/messages/delta',
  ],
  'GET /users/{id}/mailFolders/{id}/messages/delta': ['/users/u1/mailFolders/f1/messages/delta'],
  'POST /me/events/{id}/forward, /users/{id \\| userPrincipalName}/events/{id}/forward, /groups/{id}/events/{id}/forward, the same with /calendar/ or /calendars/{id}/ or /calendarGroups/{id}/calendars/{id}/ before /events for me and users (calendar also for groups)':
    [
      '/me/events/e1/forward',
      '/users/u1/events/e1/forward',
      '/users/a@b.example/events/e1/forward',
      '/groups/g1/events/e1/forward',
      '/me/calendar/events/e1/forward',
      '/users/u1/calendar/events/e1/forward',
      '/me/calendars/c1/events/e1/forward',
      '/users/u1/calendars/c1/events/e1/forward',
      '/me/calendarGroups/cg1/calendars/c1/events/e1/forward',
      '/users/u1/calendarGroups/cg1/calendars/c1/events/e1/forward',
      '/groups/g1/calendar/events/e1/forward',
    ],
  'POST /users/{id}/events/{id}/permanentDelete, /groups/{id}/events/{id}/permanentDelete, /users/{id}/calendarView/{id}/permanentDelete, /groups/{id}/calendarView/{id}/permanentDelete, /users/{id}/messages/{id}/event/permanentDelete, and the same message event forms through /event/instances/{id}, /event/calendar/events/{id}, /event/exceptionOccurrences/{id}, /event/calendar/calendarView/{id}':
    [
      '/users/u1/events/e1/permanentDelete',
      '/groups/g1/events/e1/permanentDelete',
      '/users/u1/calendarView/e1/permanentDelete',
      '/groups/g1/calendarView/e1/permanentDelete',
      '/users/u1/messages/m1/event/permanentDelete',
      '/users/u1/messages/m1/event/instances/e1/permanentDelete',
      '/users/u1/messages/m1/event/calendar/events/e1/permanentDelete',
      '/users/u1/messages/m1/event/exceptionOccurrences/e1/permanentDelete',
      '/users/u1/messages/m1/event/calendar/calendarView/e1/permanentDelete',
    ],
  'PATCH /me/drive/items/{id}/workbook/names/{name}/range/format/borders/{sideIndex}': [
    '/me/drive/items/i1/workbook/names/Header/range/format/borders/EdgeTop',
  ],
  'PATCH /me/drive/root:/{item-path}:/workbook/names/{name}/range/format/borders/{sideIndex}': [
    '/me/drive/root:/Documents/Inventory.xlsx:/workbook/names/Header/range/format/borders/EdgeTop',
  ],
  "PATCH /me/drive/items/{id}/workbook/worksheets/{id\\|name}/range(address='<address>')/format/borders/{sideIndex} (also under drive/root:/{item-path}:)":
    [
      "/me/drive/items/i1/workbook/worksheets/Components/range(address='A1:B2')/format/borders/EdgeLeft",
      "/me/drive/root:/Inventory.xlsx:/workbook/worksheets/%7B0001%7D/range(address='Components!A1')/format/borders/EdgeLeft",
      '/me/drive/items/i1/workbook/worksheets/Components/range(address=%27A1%27)/format/borders/EdgeLeft',
    ],
  'PATCH /me/drive/items/{id}/workbook/tables/{id\\|name}/columns/{id\\|name}/range/format/borders/{sideIndex} (also under drive/root:/{item-path}:)':
    [
      '/me/drive/items/i1/workbook/tables/ComponentTable/columns/license/range/format/borders/EdgeBottom',
      '/me/drive/root:/a/b.xlsx:/workbook/tables/1/columns/5/range/format/borders/EdgeBottom',
    ],
  'GET /me/drive/items/{id}/workbook/tables/{id\\|name}/columns and /me/drive/items/{id}/workbook/worksheets/{id\\|name}/tables/{id\\|name}/columns (also under drive/root:/{item-path}:)':
    [
      '/me/drive/items/i1/workbook/tables/t/columns',
      '/me/drive/items/i1/workbook/worksheets/w/tables/t/columns',
      '/me/drive/root:/x.xlsx:/workbook/tables/t/columns',
      '/me/drive/root:/x.xlsx:/workbook/worksheets/w/tables/t/columns',
    ],
  'GET /me/drive/items/{id}/workbook/worksheets/{id\\|name}/charts/{name}/series/{series-id}/points/itemAt(index={index}) (also under drive/root:/{item-path}:)':
    [
      '/me/drive/items/i1/workbook/worksheets/Summary/charts/LicenseChart/series/0/points/itemAt(index=2)',
      '/me/drive/root:/x.xlsx:/workbook/worksheets/Summary/charts/LicenseChart/series/0/points/itemAt(index=2)',
    ],
  'GET /identityGovernance/entitlementManagement/assignmentRequests/{accessPackageAssignmentRequestId}': [
    '/identityGovernance/entitlementManagement/assignmentRequests/r1',
  ],
  'POST /identityGovernance/entitlementManagement/accessPackages/{accessPackageId}/getApplicablePolicyRequirements': [
    '/identityGovernance/entitlementManagement/accessPackages/p1/getApplicablePolicyRequirements',
  ],
  'DELETE /identityGovernance/entitlementManagement/assignmentPolicies/{accessPackageAssignmentPolicyId}': [
    '/identityGovernance/entitlementManagement/assignmentPolicies/p1',
  ],
  'GET /policies/homeRealmDiscoveryPolicies': ['/policies/homeRealmDiscoveryPolicies'],
  'GET /security/labels/categories/{categoryTemplateId}/subcategories/{subcategoryTemplateId}': [
    '/security/labels/categories/c1/subcategories/s1',
  ],
  'POST /security/cases/ediscoveryCases/{ediscoveryCaseId}/searches/{ediscoverySearchId}/custodianSources/$ref': [
    '/security/cases/ediscoveryCases/c1/searches/s1/custodianSources/$ref',
  ],
  'GET /places/{buildingPlaceId}/vendor.graph.building/map/levels/{levelMapId}/fixtures': [
    '/places/b1/vendor.graph.building/map/levels/l1/fixtures',
  ],
  'DELETE /places/{buildingPlaceId}/vendor.graph.building/map': ['/places/b1/vendor.graph.building/map'],
  'GET /planner/tasks/{id}/progressTaskBoardFormat': ['/planner/tasks/t1/progressTaskBoardFormat'],
  'DELETE /employeeExperience/roles/{engagementRoleId}/members/{engagementRoleMemberId}': [
    '/employeeExperience/roles/r1/members/m1',
  ],
  'DELETE /print/taskDefinitions/{printTaskDefinitionId}': ['/print/taskDefinitions/d1'],
  'POST /deviceManagement/virtualEndpoint/cloudPCs/{id}/restore': [
    '/deviceManagement/virtualEndpoint/cloudPCs/c1/restore',
  ],
  'POST /drive/bundles/{bundle-id}/children': ['/drive/bundles/123456!90/children'],
};

// The spec is read only when the tests run: a skipped describe still runs its body to collect the tests.
describe.skipIf(!HAVE_SPEC)('the operations table against the spec', () => {
  let rows: string[] = [];
  beforeAll(() => {
    rows = specRows();
  });

  it('reads the 33 endpoint rows of the spec', () => {
    expect(rows).toHaveLength(33);
  });

  it('covers every row exactly once, and claims no row the spec does not have', () => {
    const claimed = OPERATIONS.flatMap((operation) => operation.specRows);
    expect([...claimed].sort()).toEqual([...rows].sort());
    expect(Object.keys(FORMS).sort()).toEqual([...rows].sort());
  });

  it('routes every path form of every row to the operation that claims the row', () => {
    for (const [row, paths] of Object.entries(FORMS)) {
      const method = row.split(' ')[0]!;
      const owner = OPERATIONS.find((operation) => operation.specRows.includes(row))!;
      expect(owner.method, row).toBe(method);
      for (const form of paths) {
        const route = matchRoute(method, form);
        expect(route.kind === 'matched' ? route.operation.name : route, `${method} ${form}`).toBe(owner.name);
      }
    }
  });
});

describe('the operations table', () => {
  it('has unique names, a handler for every operation, and a known body shape for every body', () => {
    const names = OPERATIONS.map((operation) => operation.name);
    expect(new Set(names).size).toBe(names.length);
    for (const operation of OPERATIONS) {
      expect(HANDLERS[operation.name], operation.name).toBeTypeOf('function');
      if (operation.body !== undefined) expect(BODY_SHAPES[operation.body], operation.name).toBeDefined();
    }
    expect(Object.keys(HANDLERS).sort()).toEqual([...names].sort());
  });

  it('marks spec operations with rows and extensions without', () => {
    for (const operation of OPERATIONS) {
      if (operation.source === 'spec') expect(operation.specRows.length, operation.name).toBeGreaterThan(0);
      else expect(operation.specRows, operation.name).toEqual([]);
    }
  });

  it('routes no path form to two operations of the same method', () => {
    for (const { operation, template } of routeTemplates()) {
      const params = Object.fromEntries([...template.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, `x-${name!}`]));
      const sample = buildPath(template, params);
      const route = matchRoute(operation.method, sample);
      expect(route.kind === 'matched' ? `${route.operation.name} ${route.template}` : route.kind, template).toBe(
        `${operation.name} ${template}`,
      );
    }
  });

  it('builds paths that route back to the same parameters, however odd the values', () => {
    const template =
      "/me/drive/root:/{itemPath}:/workbook/worksheets/{worksheet}/range(address='{address}')/format/borders/{sideIndex}";
    const params = {
      itemPath: 'Reports 2026/Q4 (final).xlsx',
      worksheet: "Bob's sheet/1",
      address: "'My Sheet'!A1:B2",
      sideIndex: 'EdgeTop',
    };
    const built = buildPath(template, params);
    const route = matchRoute('PATCH', built);
    expect(route.kind).toBe('matched');
    if (route.kind === 'matched') expect({ ...route.params }).toEqual(params);
    expect(() => buildPath('/users/{user}', {})).toThrow(/missing path parameter user/);
  });

  it('reads OData key syntax as a path segment, outside an item path', () => {
    expect(normalizeKeySegments("/teams('t1')/operations('o''1')")).toBe("/teams/t1/operations/o'1");
    expect(normalizeKeySegments('/teams(t1)/operations(o1)')).toBe('/teams/t1/operations/o1');
    expect(normalizeKeySegments('/me/drive/root:/Book(1)/x(2):/workbook')).toBe(
      '/me/drive/root:/Book(1)/x(2):/workbook',
    );
    expect(normalizeKeySegments("/x/range(address='A1')/itemAt(index=1)/delta()")).toBe(
      "/x/range(address='A1')/itemAt(index=1)/delta()",
    );
    const route = matchRoute('GET', "/me/mailfolders('inbox')/messages/delta()");
    expect(route.kind === 'matched' && route.operation.name).toBe('messageDelta');
  });

  it('keeps an item path as it is, keys and all, and reads keys again once it closes', () => {
    expect(normalizeKeySegments("/me/drive/root:/a/Book(1)/c:/workbook/tables('t')")).toBe(
      '/me/drive/root:/a/Book(1)/c:/workbook/tables/t',
    );
    expect(normalizeKeySegments("/me/drive/ROOT:/Book(1):/workbook/names('n')")).toBe(
      '/me/drive/ROOT:/Book(1):/workbook/names/n',
    );
    expect(normalizeKeySegments("/me/drive/root:Book(1):/x('y')")).toBe('/me/drive/root:Book(1):/x/y');
    expect(normalizeKeySegments('/me/drive/root:/Book(1)')).toBe('/me/drive/root:/Book(1)');
  });

  it('unquotes a key only when it is quoted at both ends, and leaves functions and empty keys alone', () => {
    expect(normalizeKeySegments("/users('a''b')/x(')/y('c)/z(d')/w(k=v)/v()/Range('A1')/e('')")).toBe(
      "/users/a'b/x/'/y/'c/z/d'/w(k=v)/v()/Range('A1')/e/",
    );
  });

  it('reads a percent-encoded quote in a key, and names the parameter it refuses', () => {
    const quoted = matchRoute('GET', '/users(%27a%40b.example%27)/authentication/methods');
    expect(quoted.kind === 'matched' && quoted.params.user).toBe('a@b.example');
    expect(matchRoute('GET', `/users/${'a'.repeat(1024)}/authentication/methods`).kind).toBe('matched');
    expect(matchRoute('GET', `/users/${'a'.repeat(1025)}/authentication/methods`)).toEqual({
      kind: 'badParameter',
      name: 'user',
      reason: 'is longer than 1024 characters',
    });
    expect(matchRoute('GET', '/users/%E0%A4%A/authentication/methods')).toEqual({
      kind: 'badParameter',
      name: 'user',
      reason: 'is not valid percent-encoding',
    });
    expect(matchRoute('GET', '/Me/authentication/phoneMethods').kind).toBe('matched');
    expect(matchRoute('GET', '/nothing')).toEqual({ kind: 'none' });
  });

  it('tells a wrong method from an unknown path, and refuses bad or oversized parameters', () => {
    expect(matchRoute('DELETE', '/me/authentication/phoneMethods')).toEqual({ kind: 'method', allowed: ['GET'] });
    expect(matchRoute('GET', '/me/nothing/here')).toEqual({ kind: 'none' });
    expect(matchRoute('GET', '/users/%E0%A4%A/authentication/methods').kind).toBe('badParameter');
    expect(matchRoute('GET', `/users/${'a'.repeat(1025)}/authentication/methods`).kind).toBe('badParameter');
  });
});
