/**
 * Identity governance and policy, labels and eDiscovery, places, planner, employee experience, print, cloud PCs
 * and drive bundles: each operation as its row of the spec says.
 */
import type { Handler, HandlerContext } from '../context.js';
import { badRequest, ServiceFault } from '../faults.js';
import { applySelect, parseCount, parseEqualityFilter, parseExpand, parseSelect, type ExpandItem } from '../odata.js';
import type { Json, JsonRecord } from '../store.js';
import { collection, decodeMember, entity, list, noContent, strings, truncate } from './common.js';

const resourceNotFound = (what: string, id: string): ServiceFault =>
  new ServiceFault(404, 'ResourceNotFound', `${what} '${truncate(id, 80)}' was not found.`);

// Entitlement management

const REQUEST_FIELDS = ['id', 'requestType', 'state', 'status', 'createdDateTime', 'completedDateTime', 'schedule'];
const REQUEST_EXPAND = { accessPackage: {}, requestor: {}, assignment: { target: {} } } as const;

function subject(context: HandlerContext, userId: unknown): Json {
  const user = typeof userId === 'string' ? context.store.get('users', userId) : undefined;
  if (user === undefined) return null;
  return {
    id: user.id ?? null,
    objectId: user.id ?? null,
    displayName: user.displayName ?? null,
    principalName: user.userPrincipalName ?? null,
    email: user.mail ?? null,
    onPremisesSecurityIdentifier: null,
    subjectType: 'user',
  };
}

function expandRequest(
  context: HandlerContext,
  request: JsonRecord,
  items: readonly ExpandItem[],
): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const item of items) {
    if (item.name === 'accessPackage') {
      const accessPackage = context.store.get('accessPackages', String(request.accessPackageId));
      out.accessPackage = accessPackage === undefined ? null : { ...accessPackage };
    } else if (item.name === 'requestor') out.requestor = subject(context, request.requestorId);
    else {
      const assignment = request.assignment as JsonRecord | null | undefined;
      if (assignment === undefined || assignment === null) out.assignment = null;
      else {
        const { targetId, ...view } = assignment;
        out.assignment = item.expand.some((nested) => nested.name === 'target')
          ? { ...view, target: subject(context, targetId) }
          : view;
      }
    }
  }
  return out;
}

export const getAssignmentRequest: Handler = (context) => {
  const request = context.store.get('assignmentRequests', context.params.request!);
  if (request === undefined) throw resourceNotFound('Access package assignment request', context.params.request!);
  const expand = parseExpand(
    context.query.get('$expand'),
    REQUEST_EXPAND,
    'vendor.graph.accessPackageAssignmentRequest',
  );
  const select = parseSelect(
    context.query.get('$select'),
    REQUEST_FIELDS,
    'vendor.graph.accessPackageAssignmentRequest',
  );
  const view: Record<string, Json> = {};
  for (const field of REQUEST_FIELDS) if (request[field] !== undefined) view[field] = request[field];
  return entity(context, 'assignmentRequests/$entity', {
    ...applySelect(view, select),
    ...expandRequest(context, request, expand),
  });
};

const REQUIREMENT_DEFAULTS = {
  isApprovalRequiredForAdd: false,
  isApprovalRequiredForUpdate: false,
  allowCustomAssignmentSchedule: false,
  isRequestorJustificationRequired: false,
  questions: null,
  schedule: null,
} as const;

export const getApplicablePolicyRequirements: Handler = (context) => {
  const accessPackage = context.store.get('accessPackages', context.params.accessPackage!);
  if (accessPackage === undefined) throw resourceNotFound('Access package', context.params.accessPackage!);
  const caller = context.principal.kind === 'user' ? context.principal.userId : '';
  const items: JsonRecord[] = [];
  for (const policy of context.store.all('assignmentPolicies')) {
    if (policy.accessPackageId !== accessPackage.id) continue;
    const allowed =
      policy.allowedRequestors === 'allMemberUsers' || strings(policy, 'allowedRequestors').includes(caller);
    if (!allowed) continue;
    const requirements = (policy.requirements ?? {}) as JsonRecord;
    items.push({
      '@odata.type': '#vendor.graph.accessPackageAssignmentRequestRequirements',
      policyId: policy.id ?? null,
      policyDisplayName: policy.displayName ?? null,
      policyDescription: policy.description ?? null,
      ...REQUIREMENT_DEFAULTS,
      ...requirements,
    });
  }
  return collection(context, 'Collection(vendor.graph.accessPackageAssignmentRequestRequirements)', items);
};

export const deleteAssignmentPolicy: Handler = (context) => {
  const id = context.params.policy!;
  if (context.tx.get('assignmentPolicies', id) === undefined)
    throw resourceNotFound('Access package assignment policy', id);
  context.tx.remove('assignmentPolicies', id);
  return noContent;
};

const HRD_FIELDS = ['id', 'deletedDateTime', 'definition', 'displayName', 'isOrganizationDefault', 'description'];

export const listHomeRealmDiscoveryPolicies: Handler = (context) => {
  const filter = parseEqualityFilter(context.query.get('$filter'), ['id', 'displayName', 'isOrganizationDefault']);
  const select = parseSelect(context.query.get('$select'), HRD_FIELDS, 'vendor.graph.homeRealmDiscoveryPolicy');
  const expand = parseExpand(context.query.get('$expand'), { appliesTo: {} }, 'vendor.graph.homeRealmDiscoveryPolicy');
  const top = parseCount('$top', context.query.get('$top'));
  let policies = [...context.store.all('homeRealmDiscoveryPolicies')];
  if (filter !== undefined) policies = policies.filter(filter);
  if (top !== undefined) policies = policies.slice(0, top);
  const items = policies.map((policy) => {
    const view: Record<string, Json> = {};
    for (const field of HRD_FIELDS) if (policy[field] !== undefined) view[field] = policy[field];
    const selected: Record<string, Json> = { ...applySelect(view, select) };
    if (expand.length > 0) selected.appliesTo = (policy.appliesTo ?? []) as Json;
    return selected;
  });
  return collection(context, 'policies/homeRealmDiscoveryPolicies', items);
};

// Labels and eDiscovery

const SUBCATEGORY_FIELDS = ['id', 'displayName', 'createdBy', 'createdDateTime'];

export const getSubcategoryTemplate: Handler = (context) => {
  const category = context.store.get('labelCategories', context.params.category!);
  if (category === undefined) throw resourceNotFound('Category template', context.params.category!);
  const subcategory = list(category, 'subcategories').find((s) => s.id === context.params.subcategory);
  if (subcategory === undefined) throw resourceNotFound('Subcategory template', context.params.subcategory!);
  const select = parseSelect(
    context.query.get('$select'),
    SUBCATEGORY_FIELDS,
    'vendor.graph.security.subcategoryTemplate',
  );
  return {
    status: 200,
    body: {
      '@odata.context': `${context.baseUrl}/v1.0/$metadata#security/labels/categories('${String(category.id)}')/subcategories/$entity`,
      value: applySelect({ '@odata.type': '#vendor.graph.security.subcategoryTemplate', ...subcategory }, select),
    },
  };
};

const USER_SOURCE = /\/security\/cases\/ediscoveryCases\/([^/]+)\/custodians\/([^/]+)\/userSources\/([^/]+)\/?$/;

export const addCustodianSource: Handler = (context) => {
  const theCase = context.tx.get('ediscoveryCases', context.params.case!);
  if (theCase === undefined) throw resourceNotFound('eDiscovery case', context.params.case!);
  const searches = list(theCase, 'searches');
  const search = searches.find((s) => s.id === context.params.search);
  if (search === undefined) throw resourceNotFound('eDiscovery search', context.params.search!);
  const reference = String((context.body as JsonRecord)['@odata.id']);
  const match = USER_SOURCE.exec(reference);
  if (match === null)
    throw badRequest(
      'Invalid @odata.id: expected the URL of a user source of a custodian in this case (…/ediscoveryCases/{case}/custodians/{custodian}/userSources/{source}).',
    );
  const [caseId, custodianId, sourceId] = match.slice(1).map((part) => decodeMember(part, reference, '@odata.id'));
  if (caseId !== theCase.id) throw badRequest('The data source belongs to another eDiscovery case.');
  const custodian = list(theCase, 'custodians').find((c) => c.id === custodianId);
  if (custodian === undefined || !list(custodian, 'userSources').some((s) => s.id === sourceId))
    throw resourceNotFound('Custodian user source', sourceId!);
  const sources = strings(search, 'custodianSources');
  if (sources.includes(sourceId!)) throw badRequest('The data source is already a custodian source of this search.');
  context.tx.put('ediscoveryCases', String(theCase.id), {
    ...theCase,
    searches: searches.map((s) => (s === search ? { ...s, custodianSources: [...sources, sourceId!] } : s)),
  });
  return noContent;
};

export const listCustodianSources: Handler = (context) => {
  const theCase = context.tx.get('ediscoveryCases', context.params.case!);
  if (theCase === undefined) throw resourceNotFound('eDiscovery case', context.params.case!);
  const search = list(theCase, 'searches').find((s) => s.id === context.params.search);
  if (search === undefined) throw resourceNotFound('eDiscovery search', context.params.search!);
  const sources = list(theCase, 'custodians').flatMap((custodian) => list(custodian, 'userSources'));
  const value = strings(search, 'custodianSources').flatMap((id): Json[] => {
    const source = sources.find((s) => s.id === id);
    return source === undefined
      ? []
      : [{ '@odata.type': '#vendor.graph.security.userSource', id, email: source.email ?? null }];
  });
  return collection(
    context,
    `security/cases/ediscoveryCases('${String(theCase.id)}')/searches('${String(search.id)}')/custodianSources`,
    value,
  );
};

// Places

function building(context: HandlerContext): JsonRecord {
  const place = context.tx.get('places', context.params.building!);
  if (place === undefined || place.type !== 'building') throw resourceNotFound('Building', context.params.building!);
  return place;
}

export const listFixtures: Handler = (context) => {
  const place = building(context);
  const map = place.map as JsonRecord | null | undefined;
  if (map === undefined || map === null) throw resourceNotFound('Building map of', String(place.id));
  const level = list(map, 'levels').find((l) => l.id === context.params.level);
  if (level === undefined) throw resourceNotFound('Level map', context.params.level!);
  const select = parseSelect(context.query.get('$select'), ['id', 'placeId', 'properties'], 'vendor.graph.fixtureMap');
  return collection(
    context,
    'Collection(vendor.graph.fixtureMap)',
    list(level, 'fixtures').map((f) => applySelect(f, select)),
  );
};

export const deleteBuildingMap: Handler = (context) => {
  const place = building(context);
  if (place.map === undefined || place.map === null) throw resourceNotFound('Building map of', String(place.id));
  context.tx.put('places', String(place.id), { ...place, map: null });
  return noContent;
};

// Planner, employee experience, print, cloud PCs, bundles

export const getProgressTaskBoardFormat: Handler = (context) => {
  const task = context.store.get('plannerTasks', context.params.task!);
  if (task === undefined)
    throw new ServiceFault(404, 'NotFound', `The requested item '${truncate(context.params.task!, 80)}' is not found.`);
  const group = context.store.get('groups', String(task.groupId));
  const principal = context.principal;
  if (
    principal.kind === 'user' &&
    !strings(group, 'members').includes(principal.userId) &&
    !strings(group, 'owners').includes(principal.userId)
  )
    throw new ServiceFault(
      403,
      'Forbidden',
      'You do not have the required permissions to access this item: only members of the plan’s group can read its tasks.',
    );
  const format = (task.progressTaskBoardFormat ?? {}) as JsonRecord;
  return entity(context, `planner/tasks('${String(task.id)}')/progressTaskBoardFormat/$entity`, {
    '@odata.etag': `W/"${String(task.etag ?? 'JzEtVGFzayAgQEBAQEBAQEBAQEBAQEBAWCc=')}"`,
    id: task.id ?? null,
    orderHint: format.orderHint ?? ' !',
  });
};

export const deleteEngagementRoleMember: Handler = (context) => {
  const role = context.tx.get('engagementRoles', context.params.role!);
  if (role === undefined) throw resourceNotFound('Engagement role', context.params.role!);
  const members = list(role, 'members');
  if (!members.some((m) => m.id === context.params.member))
    throw resourceNotFound('Engagement role member', context.params.member!);
  context.tx.put('engagementRoles', String(role.id), {
    ...role,
    members: members.filter((m) => m.id !== context.params.member),
  });
  return noContent;
};

export const deletePrintTaskDefinition: Handler = (context) => {
  const id = context.params.taskDefinition!;
  if (context.tx.get('printTaskDefinitions', id) === undefined) throw resourceNotFound('Print task definition', id);
  context.tx.remove('printTaskDefinitions', id);
  return noContent;
};

export const restoreCloudPc: Handler = (context) => {
  const cloudPc = context.tx.get('cloudPcs', context.params.cloudPc!);
  if (cloudPc === undefined) throw resourceNotFound('Cloud PC', context.params.cloudPc!);
  const snapshotId = String((context.body as JsonRecord).cloudPcSnapshotId);
  if (!list(cloudPc, 'snapshots').some((s) => s.id === snapshotId))
    throw badRequest(`The snapshot '${truncate(snapshotId, 80)}' does not belong to this Cloud PC.`);
  context.tx.put('cloudPcs', String(cloudPc.id), {
    ...cloudPc,
    status: 'restoring',
    restores: [...list(cloudPc, 'restores'), { snapshotId, requestedDateTime: context.now }],
  });
  return noContent;
};

export const addBundleItem: Handler = (context) => {
  const bundle = context.tx.get('bundles', context.params.bundle!);
  const principal = context.principal;
  if (bundle === undefined || (principal.kind === 'user' && bundle.ownerId !== principal.userId))
    throw new ServiceFault(404, 'itemNotFound', 'The resource could not be found.');
  const itemId = String((context.body as JsonRecord).id);
  const item = context.store.get('driveItems', itemId);
  if (item === undefined || item.ownerId !== bundle.ownerId)
    throw new ServiceFault(404, 'itemNotFound', `The drive item '${truncate(itemId, 80)}' could not be found.`);
  const children = strings(bundle, 'children');
  if (children.includes(itemId)) throw new ServiceFault(409, 'nameAlreadyExists', 'The item is already in the bundle.');
  context.tx.put('bundles', String(bundle.id), { ...bundle, children: [...children, itemId] });
  return noContent;
};

/** The drive items of a bundle, in the order they were added. */
export const listBundleChildren: Handler = (context) => {
  const bundle = context.tx.get('bundles', context.params.bundle!);
  const principal = context.principal;
  if (bundle === undefined || (principal.kind === 'user' && bundle.ownerId !== principal.userId))
    throw new ServiceFault(404, 'itemNotFound', 'The resource could not be found.');
  const children = strings(bundle, 'children').flatMap((id): Json[] => {
    const item = context.store.get('driveItems', id);
    return item === undefined ? [] : [{ id, name: item.name ?? null }];
  });
  return collection(context, `drive/bundles('${String(bundle.id)}')/children`, children);
};
