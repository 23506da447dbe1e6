/** Groups and teams: thread replies, group owners, bulk member removal, team clone (long-running), channel tabs. */
import type { DirectoryRole } from '../../service/operations.js';
import type { Handler, HandlerContext, HandlerResult } from '../context.js';
import { badRequest, forbidden, notFound, ServiceFault } from '../faults.js';
import type { Json, JsonRecord } from '../store.js';
import { applySelect, parseSelect } from '../odata.js';
import {
  accepted,
  collection,
  decodeMember,
  entity,
  list,
  noContent,
  parseReference,
  strings,
  truncate,
  userNotFound,
} from './common.js';

/** An attachment must stay under 3 MB (spec: Limits). */
export const MAX_ATTACHMENT_BYTES = 3 * 1024 * 1024;
/** At most 20 members per bulk removal request (spec: Limits). */
const MAX_MEMBERS_PER_REMOVAL = 20;

const CLONE_PARTS = ['apps', 'tabs', 'settings', 'channels', 'members'] as const;
type ClonePart = (typeof CLONE_PARTS)[number];

function group(context: HandlerContext): JsonRecord {
  const found = context.tx.get('groups', context.params.group!);
  if (found === undefined) throw userNotFound(context.params.group!);
  return found;
}

function team(context: HandlerContext): JsonRecord {
  const found = context.tx.get('teams', context.params.team!);
  if (found === undefined)
    throw new ServiceFault(404, 'NotFound', `No team found with Group Id ${truncate(context.params.team!)}`);
  return found;
}

// Thread replies

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function attachmentType(attachment: JsonRecord): string {
  return String(attachment['@odata.type']).replace(/^#?vendor\.graph\./, '');
}

/** Checks one attachment and returns what the post keeps of it. */
function acceptAttachment(attachment: JsonRecord, index: number, newId: () => string): JsonRecord {
  const type = attachmentType(attachment);
  const name = String(attachment.name);
  const where = `attachments[${index}] ('${truncate(name, 60)}')`;
  const only = (allowed: readonly string[]): void => {
    for (const key of Object.keys(attachment))
      if (!allowed.includes(key)) throw badRequest(`${where}: property '${key}' does not belong to a ${type}.`);
  };
  let size: number;
  switch (type) {
    case 'fileAttachment': {
      only(['@odata.type', 'name', 'contentBytes', 'contentType', 'isInline']);
      const content = attachment.contentBytes;
      if (typeof content !== 'string') throw badRequest(`${where}: a fileAttachment needs contentBytes.`);
      if (!STRICT_BASE64.test(content)) throw badRequest(`${where}: contentBytes is not base64.`);
      size = (content.length / 4) * 3 - (content.endsWith('==') ? 2 : content.endsWith('=') ? 1 : 0);
      break;
    }
    case 'itemAttachment': {
      only(['@odata.type', 'name', 'item', 'contentType', 'isInline']);
      if (attachment.item === undefined) throw badRequest(`${where}: an itemAttachment needs an item (an event).`);
      size = Buffer.byteLength(JSON.stringify(attachment.item));
      break;
    }
    default: {
      only(['@odata.type', 'name', 'sourceUrl', 'providerType', 'permission', 'isFolder', 'contentType', 'isInline']);
      const source = attachment.sourceUrl;
      if (typeof source !== 'string' || !/^https?:\/\/[^\s/]+/i.test(source))
        throw badRequest(`${where}: a referenceAttachment needs sourceUrl, an http or https URL.`);
      for (const member of ['providerType', 'permission'] as const)
        if (typeof attachment[member] !== 'string' || attachment[member] === '')
          throw badRequest(`${where}: a referenceAttachment needs ${member}.`);
      const folder = attachment.isFolder;
      if (folder !== undefined && typeof folder !== 'boolean' && !/^(true|false)$/i.test(String(folder)))
        throw badRequest(`${where}: isFolder must be true or false.`);
      size = Buffer.byteLength(source);
    }
  }
  if (size >= MAX_ATTACHMENT_BYTES)
    throw new ServiceFault(
      413,
      'RequestEntityTooLarge',
      `${where} is ${size} bytes; an attachment must stay under 3 MB (${MAX_ATTACHMENT_BYTES} bytes).`,
    );
  return { ...attachment, '@odata.type': `#vendor.graph.${type}`, id: newId(), size };
}

/** The thread a path names, within its group (and its conversation, when the path names one). */
function threadOf(context: HandlerContext, theGroup: JsonRecord): JsonRecord {
  const thread = context.tx.get('threads', context.params.thread!);
  if (
    thread === undefined ||
    thread.groupId !== theGroup.id ||
    (context.params.conversation !== undefined && thread.conversationId !== context.params.conversation)
  )
    throw notFound('Thread', context.params.thread!);
  return thread;
}

export const replyToThread: Handler = (context) => {
  const theGroup = group(context);
  const thread = threadOf(context, theGroup);
  const post = (context.body as { post: JsonRecord }).post;
  const attachments = list(post, 'attachments').map((attachment, i) => acceptAttachment(attachment, i, context.newId));
  const principal = context.principal;
  const author = principal.kind === 'user' ? context.store.get('users', principal.userId) : undefined;
  const reply: JsonRecord = {
    id: context.newId(),
    body: post.body ?? null,
    createdDateTime: context.now,
    receivedDateTime: context.now,
    from: {
      emailAddress: {
        name: (author?.displayName as Json) ?? null,
        address: (author?.mail as Json) ?? (principal.kind === 'user' ? principal.userPrincipalName : null),
      },
    },
    hasAttachments: attachments.length > 0,
    attachments,
  };
  context.tx.put('threads', String(thread.id), {
    ...thread,
    posts: [...list(thread, 'posts'), reply],
    lastDeliveredDateTime: context.now,
  });
  return accepted;
};

export const listThreadPosts: Handler = (context) => {
  const theGroup = group(context);
  const thread = threadOf(context, theGroup);
  return collection(
    context,
    `groups('${String(theGroup.id)}')/threads('${String(thread.id)}')/posts`,
    list(thread, 'posts'),
  );
};

const GROUP_FIELDS = [
  'id',
  'displayName',
  'description',
  'mailNickname',
  'classification',
  'visibility',
  'groupTypes',
  'mailEnabled',
  'securityEnabled',
  'resourceProvisioningOptions',
];

export const getGroup: Handler = (context) => {
  const found = group(context);
  const select = parseSelect(context.query.get('$select'), GROUP_FIELDS, 'vendor.graph.group');
  const view: Record<string, Json> = {};
  for (const field of GROUP_FIELDS) if (found[field] !== undefined) view[field] = found[field];
  return entity(context, 'groups/$entity', applySelect(view, select));
};

const CHANNEL_FIELDS = ['id', 'displayName', 'description', 'membershipType', 'email', 'webUrl', 'createdDateTime'];
const TAB_FIELDS = ['id', 'displayName', 'configuration', 'webUrl', 'sortOrderIndex', 'teamsApp'];

export const listChannels: Handler = (context) => {
  const theTeam = team(context);
  const select = parseSelect(context.query.get('$select'), CHANNEL_FIELDS, 'vendor.graph.channel');
  const channels = list(theTeam, 'channels').map(({ tabs: _tabs, messageCount: _count, ...channel }) =>
    applySelect(channel, select),
  );
  return collection(context, `teams('${String(theTeam.id)}')/channels`, channels);
};

export const listChannelTabs: Handler = (context) => {
  const theTeam = team(context);
  const channel = list(theTeam, 'channels').find((c) => c.id === context.params.channel);
  if (channel === undefined)
    throw new ServiceFault(404, 'NotFound', `Channel '${truncate(context.params.channel!)}' was not found.`);
  const select = parseSelect(context.query.get('$select'), TAB_FIELDS, 'vendor.graph.teamsTab');
  const tabs = list(channel, 'tabs').map(({ teamsAppId, ...tab }) =>
    applySelect({ ...tab, teamsApp: { id: teamsAppId ?? null } }, select),
  );
  return collection(context, `teams('${String(theTeam.id)}')/channels('${String(channel.id)}')/tabs`, tabs);
};

// Group owners

const ALL_GROUP_ROLES: readonly DirectoryRole[] = ['groupsAdministrator'];
const USER_OWNER_ROLES: readonly DirectoryRole[] = ['userAdministrator', 'directoryWriters'];
const UNIFIED_ROLES: readonly DirectoryRole[] = [
  'mailSystemAdministrator',
  'sitesAdministrator',
  'collaborationAdministrator',
  'communityAdministrator',
];
const SECURITY_ROLES: readonly DirectoryRole[] = [
  'deviceManagementAdministrator',
  'knowledgeAdministrator',
  'knowledgeManager',
  'cloudDesktopAdministrator',
];

function isUnified(theGroup: JsonRecord): boolean {
  return strings(theGroup, 'groupTypes').includes('Unified');
}

function isSecurity(theGroup: JsonRecord): boolean {
  return theGroup.securityEnabled === true && !isUnified(theGroup);
}

/** Authentication rule 5: which delegated callers may change the owners of which groups. */
function mayAddOwner(context: HandlerContext, theGroup: JsonRecord, objectIsUser: boolean): boolean {
  const principal = context.principal;
  if (principal.kind === 'app') return true;
  if (strings(theGroup, 'owners').includes(principal.userId)) return true;
  const holds = (roles: readonly DirectoryRole[]): boolean => roles.some((role) => principal.directoryRoles.has(role));
  if (holds(ALL_GROUP_ROLES)) return true;
  if (objectIsUser && holds(USER_OWNER_ROLES)) return true;
  if (isUnified(theGroup) && holds(UNIFIED_ROLES)) return true;
  return isSecurity(theGroup) && holds(SECURITY_ROLES);
}

/** Whether a delegated caller may change owners of some group at all: a role of rule 5, or owning this group. */
function mayAddOwnersAtAll(context: HandlerContext): boolean {
  const principal = context.principal;
  if (principal.kind === 'app') return true;
  const roles = [...ALL_GROUP_ROLES, ...USER_OWNER_ROLES, ...UNIFIED_ROLES, ...SECURITY_ROLES];
  if (roles.some((role) => principal.directoryRoles.has(role))) return true;
  const theGroup = context.tx.get('groups', context.params.group!);
  return theGroup !== undefined && strings(theGroup, 'owners').includes(principal.userId);
}

const OWNERS_DENIED =
  'Insufficient privileges to complete the operation: your directory roles do not allow changing the owners of this group.';

export const addGroupOwner: Handler = (context) => {
  // Authorization before existence: a caller who may not change owners learns nothing about the group or object.
  if (!mayAddOwnersAtAll(context)) throw forbidden(OWNERS_DENIED);
  const theGroup = group(context);
  const reference = parseReference(String((context.body as JsonRecord)['@odata.id']), '@odata.id');
  const kind = reference.kind.toLowerCase();
  let objectId: string | undefined;
  let objectIsUser = false;
  if (kind === 'users' || kind === 'directoryobjects') {
    const user = context.store.user(reference.id);
    if (user !== undefined) {
      objectId = String(user.id);
      objectIsUser = true;
    }
  }
  if (objectId === undefined && (kind === 'serviceprincipals' || kind === 'directoryobjects')) {
    const principal = context.store.get('servicePrincipals', reference.id);
    if (principal !== undefined) objectId = String(principal.id);
  }
  if (kind !== 'users' && kind !== 'serviceprincipals' && kind !== 'directoryobjects')
    throw badRequest(
      `Invalid @odata.id: an owner is a user or a service principal, not '${truncate(reference.kind)}'.`,
    );
  if (objectId === undefined) throw userNotFound(reference.id);
  if (!isUnified(theGroup) && !isSecurity(theGroup))
    throw badRequest('Owners can be added to unified (Microsoft 365) and security groups only.');
  if (!mayAddOwner(context, theGroup, objectIsUser)) throw forbidden(OWNERS_DENIED);
  const owners = strings(theGroup, 'owners');
  if (owners.includes(objectId))
    throw badRequest(
      "One or more added object references already exist for the following modified properties: 'owners'.",
    );
  context.tx.put('groups', String(theGroup.id), { ...theGroup, owners: [...owners, objectId] });
  return noContent;
};

/** The owners of a group, as the real service lists them: users and service principals with their type. */
export const listGroupOwners: Handler = (context) => {
  const theGroup = group(context);
  const owners = strings(theGroup, 'owners').flatMap((id): Json[] => {
    const user = context.store.get('users', id);
    if (user !== undefined)
      return [
        {
          '@odata.type': '#vendor.graph.user',
          id,
          displayName: user.displayName ?? null,
          userPrincipalName: user.userPrincipalName ?? null,
        },
      ];
    const principal = context.store.get('servicePrincipals', id);
    if (principal !== undefined)
      return [
        {
          '@odata.type': '#vendor.graph.servicePrincipal',
          id,
          displayName: principal.displayName ?? null,
          appId: principal.appId ?? null,
        },
      ];
    return [];
  });
  return collection(context, 'directoryObjects', owners);
};

/** The members of a team (aadUserConversationMember), as a bulk removal left them. */
export const listTeamMembers: Handler = (context) => {
  const theTeam = team(context);
  const members = list(theTeam, 'members').map((member): Json => {
    const user = context.store.get('users', String(member.userId));
    return {
      '@odata.type': '#vendor.graph.aadUserConversationMember',
      id: member.id ?? null,
      roles: member.roles ?? [],
      displayName: user?.displayName ?? null,
      userId: member.userId ?? null,
      email: user?.mail ?? null,
    };
  });
  return collection(context, `teams('${String(theTeam.id)}')/members`, members);
};

// Bulk member removal

export const removeTeamMembers: Handler = (context) => {
  const theTeam = team(context);
  const values = list(context.body as JsonRecord, 'values');
  if (values.length === 0) throw badRequest('values must name at least one member.');
  if (values.length > MAX_MEMBERS_PER_REMOVAL)
    throw badRequest(`At most ${MAX_MEMBERS_PER_REMOVAL} members can be removed in one request; got ${values.length}.`);
  let members = list(theTeam, 'members');
  const theGroup = context.tx.get('groups', String(theTeam.id));
  let groupMembers = strings(theGroup, 'members');
  let groupOwners = strings(theGroup, 'owners');
  const results: JsonRecord[] = [];
  let failed = false;
  for (const value of values) {
    const bind = String(value['user@odata.bind']);
    const reference = parseReference(bind, 'user@odata.bind');
    const user = reference.kind.toLowerCase() === 'users' ? context.store.user(reference.id) : undefined;
    const membership = user === undefined ? undefined : members.find((member) => member.userId === user.id);
    const userId = user === undefined ? reference.id : String(user.id);
    if (membership === undefined) {
      failed = true;
      results.push({
        '@odata.type': '#vendor.graph.dirUserConversationMemberResult',
        userId,
        error: { code: 'NotFound', message: 'Could not find resource' },
      });
      continue;
    }
    members = members.filter((member) => member !== membership);
    groupMembers = groupMembers.filter((id) => id !== userId);
    groupOwners = groupOwners.filter((id) => id !== userId);
    results.push({ '@odata.type': '#vendor.graph.dirUserConversationMemberResult', userId, error: null });
  }
  context.tx.put('teams', String(theTeam.id), { ...theTeam, members });
  if (theGroup !== undefined)
    context.tx.put('groups', String(theGroup.id), { ...theGroup, members: groupMembers, owners: groupOwners });
  if (!failed) return noContent;
  return {
    status: 207,
    body: {
      '@odata.context': `${context.baseUrl}/v1.0/$metadata#Collection(vendor.graph.dirUserConversationMemberResult)`,
      value: results,
    },
  };
};

// Team clone

function parseParts(text: string): Set<ClonePart> {
  const parts = new Set<ClonePart>();
  for (const raw of text.split(',')) {
    const part = raw.trim().toLowerCase();
    if (!(CLONE_PARTS as readonly string[]).includes(part))
      throw badRequest(`Invalid partsToClone '${truncate(text, 80)}': each part is one of ${CLONE_PARTS.join(', ')}.`);
    parts.add(part as ClonePart);
  }
  return parts;
}

export const cloneTeam: Handler = (context) => {
  const source = team(context);
  if (source.isOrganizationWide === true) throw badRequest('Cloning is not supported for organization-wide teams.');
  const body = context.body as JsonRecord;
  const parts = parseParts(String(body.partsToClone));
  const operationId = context.newId();
  const operation: JsonRecord = {
    id: operationId,
    teamId: String(source.id),
    operationType: 'cloneTeam',
    createdDateTime: context.now,
    lastActionDateTime: context.now,
    // The spec's States table: running, succeeded or failed (not the real service's notStarted/inProgress).
    status: 'running',
    attemptsCount: 0,
    targetResourceId: null,
    targetResourceLocation: null,
    error: null,
    request: { ...body, partsToClone: [...parts].join(',') },
    requestedBy: context.principal.kind === 'user' ? context.principal.userId : null,
  };
  context.tx.put('teamOperations', operationId, operation);
  return {
    ...accepted,
    headers: {
      Location: `/teams(${String(source.id)})/operations(${operationId})`,
      'Content-Type': 'text/plain',
    },
  };
};

function mailNicknameFrom(displayName: string, taken: (nickname: string) => boolean): string {
  const base =
    displayName
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .slice(0, 56) || 'team';
  let nickname = base;
  for (let n = 2; taken(nickname); n++) nickname = `${base}${n}`;
  return nickname;
}

function unconfiguredTab(tab: JsonRecord, newId: () => string): JsonRecord {
  return {
    id: newId(),
    displayName: tab.displayName ?? null,
    teamsAppId: tab.teamsAppId ?? null,
    configuration: { entityId: null, contentUrl: null, websiteUrl: null, removeUrl: null },
    webUrl: null,
  };
}

/** Runs a clone: the new group and team, from the parts asked for. Returns the new team's id. */
function runClone(context: HandlerContext, operation: JsonRecord, source: JsonRecord): string {
  const request = operation.request as JsonRecord;
  const parts = new Set(String(request.partsToClone).split(','));
  const sourceGroup = context.tx.get('groups', String(source.id)) ?? {};
  const newId = context.newId();
  const requester = typeof operation.requestedBy === 'string' ? operation.requestedBy : undefined;
  const nicknames = new Set([...context.store.all('groups')].map((g) => String(g.mailNickname ?? '').toLowerCase()));
  const educationClass = source.specialization === 'educationClass';
  const visibility = educationClass
    ? 'HiddenMembership'
    : typeof request.visibility === 'string'
      ? request.visibility[0]!.toUpperCase() + request.visibility.slice(1).toLowerCase()
      : (sourceGroup.visibility ?? 'Private');
  const owners = parts.has('members') ? strings(sourceGroup, 'owners') : requester === undefined ? [] : [requester];
  const members = parts.has('members') ? strings(sourceGroup, 'members') : requester === undefined ? [] : [requester];
  const requestedNickname = typeof request.mailNickname === 'string' ? request.mailNickname : undefined;
  context.tx.put('groups', newId, {
    id: newId,
    displayName: request.displayName ?? null,
    // The spec documents an omitted description both as blank and as the displayName: blank is chosen here.
    description: typeof request.description === 'string' ? request.description : '',
    mailNickname: mailNicknameFrom(requestedNickname ?? String(request.displayName), (n) => nicknames.has(n)),
    classification: request.classification ?? sourceGroup.classification ?? null,
    visibility,
    groupTypes: ['Unified'],
    mailEnabled: true,
    securityEnabled: false,
    resourceProvisioningOptions: ['Team'],
    owners: [...new Set(owners)],
    members: [...new Set([...members, ...owners])],
  });
  const sourceChannels = list(source, 'channels');
  const general = sourceChannels.find((channel) => channel.displayName === 'General');
  const channelsToCopy = parts.has('channels') ? sourceChannels : general === undefined ? [] : [general];
  const channels = channelsToCopy.map((channel) => ({
    id: `19:${context.newId().replaceAll('-', '')}@thread.tacv2`,
    displayName: channel.displayName ?? null,
    description: channel.description ?? null,
    membershipType: channel.membershipType ?? 'standard',
    messageCount: 0,
    tabs: parts.has('tabs') ? list(channel, 'tabs').map((tab) => unconfiguredTab(tab, context.newId)) : [],
  }));
  const teamMembers = parts.has('members')
    ? list(source, 'members').map((member) => ({ ...member, id: context.newId() }))
    : requester === undefined
      ? []
      : [{ id: context.newId(), userId: requester, roles: ['owner'] }];
  context.tx.put('teams', newId, {
    id: newId,
    displayName: request.displayName ?? null,
    specialization: source.specialization ?? 'none',
    isOrganizationWide: false,
    settings: parts.has('settings') ? (source.settings ?? {}) : {},
    installedApps: parts.has('apps') ? (source.installedApps ?? []) : [],
    channels,
    members: teamMembers,
    clonedFrom: String(source.id),
  });
  return newId;
}

export const getTeamOperation: Handler = (context) => {
  const operation = context.tx.get('teamOperations', context.params.operation!);
  if (operation === undefined || operation.teamId !== context.params.team)
    throw new ServiceFault(404, 'NotFound', `Operation '${truncate(context.params.operation!)}' was not found.`);
  let next: JsonRecord = {
    ...operation,
    attemptsCount: Number(operation.attemptsCount) + 1,
    lastActionDateTime: context.now,
  };
  // notStarted and inProgress: an operation in a state folder written before the spec's words were used.
  const running = ['running', 'notStarted', 'inProgress'].includes(String(operation.status));
  if (running && Number(operation.attemptsCount) >= context.settings.clonePolls) {
    const source = context.tx.get('teams', String(operation.teamId));
    const failure = source?.cloneError as JsonRecord | undefined;
    if (source === undefined || failure !== undefined) {
      next = {
        ...next,
        status: 'failed',
        error: failure ?? { code: 'TeamUnavailable', message: 'The team was not found.' },
      };
    } else {
      const newTeamId = runClone(context, operation, source);
      next = {
        ...next,
        status: 'succeeded',
        targetResourceId: newTeamId,
        targetResourceLocation: `/groups('${newTeamId}')/team`,
      };
    }
  } else if (running) next = { ...next, status: 'running' };
  context.tx.put('teamOperations', String(operation.id), next);
  const view = operationView(next);
  // The real service says inProgress where the spec says running (teamsAsyncOperationStatus): Kiota's enum reads
  // only the real values.
  if (view.status === 'running' && context.settings.odataNamespace === 'microsoft.graph') view.status = 'inProgress';
  const answer = entity(context, `teams('${String(operation.teamId)}')/operations/$entity`, view);
  const retryAfter = context.settings.cloneRetryAfterSeconds;
  return next.status === 'running' && retryAfter !== undefined
    ? { ...answer, headers: { 'Retry-After': String(retryAfter) } }
    : answer;
};

function operationView(operation: JsonRecord): Record<string, Json> {
  const { teamId: _team, request: _request, requestedBy: _by, ...view } = operation;
  return view;
}

// Channel tabs

const APP_BIND = /\/v1\.0\/appCatalogs\/teamsApps(?:\/([^/()]+)|\('([^']+)'\))\/?$/;

export const addChannelTab: Handler = (context) => {
  // Authorization before existence (spec: Authentication 6): a caller who is neither a member of the team nor a
  // team service administrator gets 403 whether the team exists or not.
  const principal = context.principal;
  if (principal.kind === 'user' && !principal.directoryRoles.has('teamsAdministrator')) {
    const found = context.tx.get('teams', context.params.team!);
    if (found === undefined || !list(found, 'members').some((member) => member.userId === principal.userId))
      throw forbidden('Only members of the team, or a team service administrator, can pin tabs to its channels.');
  }
  const theTeam = team(context);
  const channel = list(theTeam, 'channels').find((c) => c.id === context.params.channel);
  if (channel === undefined)
    throw new ServiceFault(404, 'NotFound', `Channel '${truncate(context.params.channel!)}' was not found.`);
  const body = context.body as JsonRecord;
  const bind = APP_BIND.exec(String(body['teamsApp@odata.bind']));
  if (bind === null)
    throw badRequest(`Invalid teamsApp@odata.bind: expected ${context.baseUrl}/v1.0/appCatalogs/teamsApps/<app_id>.`);
  const appId = decodeMember(bind[1] ?? bind[2]!, String(body['teamsApp@odata.bind']), 'teamsApp@odata.bind');
  const app = context.store.get('teamsApps', appId);
  if (app === undefined)
    throw new ServiceFault(404, 'NotFound', `Teams app '${truncate(appId)}' was not found in the app catalog.`);
  if (!strings(theTeam, 'installedApps').includes(appId))
    throw badRequest(
      `The app '${String(app.displayName ?? appId)}' is not installed in the team; install it before pinning its tab.`,
    );
  const staticTab = list(app, 'staticTabs').find((tab) => strings(tab, 'scopes').includes('team'));
  let displayName: Json;
  let configuration: JsonRecord;
  if (staticTab !== undefined) {
    if (body.displayName !== undefined || body.configuration !== undefined)
      throw badRequest(
        'The app declares a static tab for teams: its displayName and configuration come from the app and must not be sent.',
      );
    displayName = staticTab.name ?? null;
    configuration = {
      entityId: staticTab.entityId ?? null,
      contentUrl: staticTab.contentUrl ?? null,
      websiteUrl: staticTab.websiteUrl ?? null,
      removeUrl: null,
    };
  } else {
    if (list(app, 'configurableTabs').length === 0)
      throw badRequest(`The app '${String(app.displayName ?? appId)}' declares no configurable tabs.`);
    if (typeof body.displayName !== 'string') throw badRequest('displayName is required for a configurable tab.');
    displayName = body.displayName;
    const given = (body.configuration ?? {}) as JsonRecord;
    configuration = {
      entityId: given.entityId ?? null,
      contentUrl: given.contentUrl ?? null,
      websiteUrl: given.websiteUrl ?? null,
      removeUrl: given.removeUrl ?? null,
    };
  }
  const tabId = context.newId();
  const tab: JsonRecord = {
    id: tabId,
    displayName,
    teamsAppId: appId,
    configuration,
    webUrl: `https://teams.bomwright.invalid/l/channel/${encodeURIComponent(String(channel.id))}/tab%3a%3a${tabId}?label=${encodeURIComponent(String(displayName))}&groupId=${String(theTeam.id)}`,
  };
  const channels = list(theTeam, 'channels').map((c) =>
    c === channel ? { ...c, tabs: [...list(c, 'tabs'), tab] } : c,
  );
  context.tx.put('teams', String(theTeam.id), { ...theTeam, channels });
  const { teamsAppId: _app, ...view } = tab;
  return entity(context, `teams('${String(theTeam.id)}')/channels('${String(channel.id)}')/tabs/$entity`, view, 201);
};

export type { HandlerResult };
