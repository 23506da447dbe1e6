/**
 * The service's operations as plain data: one entry per operation of the spec (each naming the spec rows it
 * covers), plus the few routes of the real service that the spec's flows need (marked `source: 'extension'`).
 * The emulator's router, the client and the `service` CLI are all driven by this table, so they cannot disagree.
 * No I/O and no HTTP library here.
 */

import type { ResourceName } from './resources.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export type Family =
  | 'authenticationMethods'
  | 'groupsAndTeams'
  | 'mailAndCalendar'
  | 'workbook'
  | 'governance'
  | 'labelsAndEdiscovery'
  | 'places'
  | 'planner'
  | 'employeeExperience'
  | 'print'
  | 'cloudPcs'
  | 'driveBundles';

/** Query options an operation accepts; anything else is refused with 400. */
export type QueryOption =
  | '$select'
  | '$top'
  | '$skip'
  | '$expand'
  | '$filter'
  | '$orderby'
  | '$count'
  | '$search'
  | '$skiptoken'
  | '$deltatoken'
  | 'changeType';

/**
 * Who may call an operation. Scopes and roles are lists of alternatives, least privileged first; an empty list
 * means that kind of caller is not supported.
 */
interface PermissionRule {
  /** Delegated scopes (signed-in user) acting on the caller's own data, or on no user at all. */
  readonly delegated: readonly string[];
  /**
   * Delegated scopes when the operation addresses another user through `users/{id | userPrincipalName}`: only
   * scopes that act on other users (spec: Authentication 3). Required of every operation with a `{user}` path; an
   * empty list means other users cannot be addressed with a delegated token.
   */
  readonly delegatedOther?: readonly string[];
  /** Application permissions (app roles). */
  readonly application: readonly string[];
  /**
   * Scopes for the `groups/{id}` forms of an operation that also has user forms (group calendars are reached
   * through group permissions, a user's calendar through calendar permissions). Required of such operations.
   */
  readonly group?: { readonly delegated: readonly string[]; readonly application: readonly string[] };
  /** Delegated calls only from work or school accounts (spec: Authentication 4). */
  readonly workOrSchoolOnly?: boolean;
  /** The caller must hold one of these directory roles. */
  readonly directoryRoles?: readonly DirectoryRole[];
  /** A rule the emulator checks against the resource itself (spec: Authentication 5 and 6). */
  readonly check?: 'groupOwnerRoles' | 'teamMemberOrTeamsAdministrator';
}

/** The directory roles the spec's Authentication section names. */
export const DIRECTORY_ROLES = [
  'groupsAdministrator',
  'userAdministrator',
  'directoryWriters',
  'mailSystemAdministrator',
  'sitesAdministrator',
  'collaborationAdministrator',
  'communityAdministrator',
  'deviceManagementAdministrator',
  'knowledgeAdministrator',
  'knowledgeManager',
  'cloudDesktopAdministrator',
  'authenticationAdministrator',
  'teamsAdministrator',
] as const;

export type DirectoryRole = (typeof DIRECTORY_ROLES)[number];

type ResponseKind =
  /** 200 with `{ value: [...] }`. */
  | { readonly status: 200; readonly kind: 'collection'; readonly resource: ResourceName }
  /** 200 (or 201) with one resource. */
  | { readonly status: 200 | 201; readonly kind: 'entity'; readonly resource: ResourceName }
  /** 200 with one resource under a `value` property (subcategory template). */
  | { readonly status: 200; readonly kind: 'wrapped'; readonly resource: ResourceName }
  /** No body: 202 or 204. */
  | { readonly status: 202 | 204; readonly kind: 'none' }
  /** 202 with a `Location` header naming a long-running operation. */
  | { readonly status: 202; readonly kind: 'operation' }
  /** 204 when everything succeeded, else 207 with one result per item. */
  | { readonly status: 204; readonly kind: 'multiStatus'; readonly resource: ResourceName }
  /** 200 with a page of changes and a next or delta link. */
  | { readonly status: 200; readonly kind: 'delta'; readonly resource: ResourceName };

export interface Operation {
  /** Stable name: the client's function, the `service` subcommand, the emulator's handler. */
  readonly name: string;
  readonly family: Family;
  readonly method: HttpMethod;
  /**
   * Path templates relative to `{base_url}/v1.0`. `{param}` is one path segment; `{itemPath}` in `root:/{itemPath}:`
   * may span segments; `range(address='{address}')` and `itemAt(index={index})` are function segments.
   */
  readonly paths: readonly string[];
  /** Extra spellings the real service and its SDKs use (not separate forms of the spec). */
  readonly aliases?: readonly string[];
  readonly query: readonly QueryOption[];
  /** Name of the request body's shape in `shapes.ts`; undefined when the operation takes no body. */
  readonly body?: string;
  /** Headers the operation reads beyond the common ones. */
  readonly headers?: readonly ('Workbook-Session-Id' | 'Prefer')[];
  readonly response: ResponseKind;
  readonly permission: PermissionRule;
  /** `spec`: a row of the spec's endpoint tables; `extension`: a real-service route the spec's flows need. */
  readonly source: 'spec' | 'extension';
  /** The spec rows this operation covers, as `METHOD path` exactly as the spec's table writes the path cell. */
  readonly specRows: readonly string[];
  readonly summary: string;
}

const USER_FORMS = <Rest extends string>(rest: Rest) => [`/me${rest}`, `/users/{user}${rest}`] as const;

const WORKBOOK = ['/me/drive/items/{item}/workbook', '/me/drive/root:/{itemPath}:/workbook'] as const;
const inWorkbook = <Rest extends string>(rest: Rest) => [`${WORKBOOK[0]}${rest}`, `${WORKBOOK[1]}${rest}`] as const;

const EVENT_FORWARD_PATHS = [
  ...USER_FORMS('/events/{event}/forward'),
  ...USER_FORMS('/calendar/events/{event}/forward'),
  ...USER_FORMS('/calendars/{calendar}/events/{event}/forward'),
  ...USER_FORMS('/calendarGroups/{calendarGroup}/calendars/{calendar}/events/{event}/forward'),
  '/groups/{group}/events/{event}/forward',
  '/groups/{group}/calendar/events/{event}/forward',
] as const;

const MESSAGE_EVENT = '/users/{user}/messages/{message}/event' as const;
const PERMANENT_DELETE_PATHS = [
  '/users/{user}/events/{event}/permanentDelete',
  '/groups/{group}/events/{event}/permanentDelete',
  '/users/{user}/calendarView/{event}/permanentDelete',
  '/groups/{group}/calendarView/{event}/permanentDelete',
  `${MESSAGE_EVENT}/permanentDelete`,
  `${MESSAGE_EVENT}/instances/{event}/permanentDelete`,
  `${MESSAGE_EVENT}/calendar/events/{event}/permanentDelete`,
  `${MESSAGE_EVENT}/exceptionOccurrences/{event}/permanentDelete`,
  `${MESSAGE_EVENT}/calendar/calendarView/{event}/permanentDelete`,
] as const;

const READ_AUTH_METHODS: PermissionRule = {
  delegated: ['UserAuthenticationMethod.Read', 'UserAuthenticationMethod.ReadWrite'],
  delegatedOther: ['UserAuthenticationMethod.Read.All', 'UserAuthenticationMethod.ReadWrite.All'],
  application: ['UserAuthenticationMethod.Read.All', 'UserAuthenticationMethod.ReadWrite.All'],
};

const READ_MAIL: PermissionRule = {
  delegated: ['Mail.ReadBasic', 'Mail.Read', 'Mail.ReadWrite'],
  delegatedOther: ['Mail.ReadBasic.Shared', 'Mail.Read.Shared', 'Mail.ReadWrite.Shared'],
  application: ['Mail.ReadBasic.All', 'Mail.ReadBasic', 'Mail.Read', 'Mail.ReadWrite'],
};

const WRITE_MAIL: PermissionRule = {
  delegated: ['Mail.ReadWrite'],
  delegatedOther: ['Mail.ReadWrite.Shared'],
  application: ['Mail.ReadWrite'],
};

const WORKBOOK_WRITE: PermissionRule = { delegated: ['Files.ReadWrite', 'Files.ReadWrite.All'], application: [] };
const WORKBOOK_READ: PermissionRule = {
  delegated: ['Files.Read', 'Files.ReadWrite', 'Files.Read.All', 'Files.ReadWrite.All'],
  application: [],
};
const BORDER = '/format/borders/{sideIndex}' as const;

const OPERATION_TABLE = [
  // Authentication methods
  {
    name: 'listPhoneMethods',
    family: 'authenticationMethods',
    method: 'GET',
    paths: USER_FORMS('/authentication/phoneMethods'),
    query: [],
    response: { status: 200, kind: 'collection', resource: 'phoneAuthenticationMethod' },
    permission: READ_AUTH_METHODS,
    source: 'spec',
    specRows: [
      'GET /me/authentication/phoneMethods',
      'GET /users/{id \\| userPrincipalName}/authentication/phoneMethods',
    ],
    summary: "List a user's phone authentication methods (at most three)",
  },
  {
    name: 'listAuthenticationMethods',
    family: 'authenticationMethods',
    method: 'GET',
    paths: USER_FORMS('/authentication/methods'),
    query: [],
    response: { status: 200, kind: 'collection', resource: 'authenticationMethod' },
    permission: READ_AUTH_METHODS,
    source: 'spec',
    specRows: ['GET /me/authentication/methods', 'GET /users/{id \\| userPrincipalName}/authentication/methods'],
    summary: "List a user's authentication methods (FIDO2 keys, Hello for Business)",
  },
  // Groups and teams
  {
    name: 'replyToThread',
    family: 'groupsAndTeams',
    method: 'POST',
    paths: [
      '/groups/{group}/threads/{thread}/reply',
      '/groups/{group}/conversations/{conversation}/threads/{thread}/reply',
    ],
    query: [],
    body: 'threadReply',
    response: { status: 202, kind: 'none' },
    permission: { delegated: ['Group.ReadWrite.All'], application: [], workOrSchoolOnly: true },
    source: 'spec',
    specRows: ['POST /groups/{id}/threads/{id}/reply', 'POST /groups/{id}/conversations/{id}/threads/{id}/reply'],
    summary: 'Reply to a group thread with a post and attachments',
  },
  {
    name: 'addGroupOwner',
    family: 'groupsAndTeams',
    method: 'POST',
    paths: ['/groups/{group}/owners/$ref'],
    query: [],
    body: 'directoryObjectRef',
    response: { status: 204, kind: 'none' },
    permission: {
      delegated: ['Group.ReadWrite.All', 'Directory.ReadWrite.All'],
      application: ['Group.ReadWrite.All', 'Directory.ReadWrite.All'],
      check: 'groupOwnerRoles',
    },
    source: 'spec',
    specRows: ['POST /groups/{id}/owners/$ref'],
    summary: 'Add a user or service principal to the owners of a group',
  },
  {
    name: 'listGroupOwners',
    family: 'groupsAndTeams',
    method: 'GET',
    paths: ['/groups/{group}/owners'],
    query: [],
    response: { status: 200, kind: 'collection', resource: 'directoryObject' },
    permission: {
      delegated: ['GroupMember.Read.All', 'Group.Read.All', 'Group.ReadWrite.All', 'Directory.Read.All'],
      application: ['GroupMember.Read.All', 'Group.Read.All', 'Group.ReadWrite.All', 'Directory.Read.All'],
    },
    source: 'extension',
    specRows: [],
    summary: 'List the owners of a group (to read back an owner added with owners/$ref)',
  },
  {
    name: 'removeTeamMembers',
    family: 'groupsAndTeams',
    method: 'POST',
    paths: ['/teams/{team}/members/remove'],
    query: [],
    body: 'memberRemoval',
    response: { status: 204, kind: 'multiStatus', resource: 'conversationMemberResult' },
    permission: { delegated: ['TeamMember.ReadWrite.All'], application: ['TeamMember.ReadWrite.All'] },
    source: 'spec',
    specRows: ['POST /teams/{team-id}/members/remove'],
    summary: 'Remove up to 20 members from a team in one request',
  },
  {
    name: 'listTeamMembers',
    family: 'groupsAndTeams',
    method: 'GET',
    paths: ['/teams/{team}/members'],
    query: [],
    response: { status: 200, kind: 'collection', resource: 'conversationMember' },
    permission: {
      delegated: ['TeamMember.Read.All', 'TeamMember.ReadWrite.All'],
      application: ['TeamMember.Read.All', 'TeamMember.ReadWrite.All'],
    },
    source: 'extension',
    specRows: [],
    summary: 'List the members of a team (to read back a bulk removal)',
  },
  {
    name: 'cloneTeam',
    family: 'groupsAndTeams',
    method: 'POST',
    paths: ['/teams/{team}/clone'],
    query: [],
    body: 'teamClone',
    response: { status: 202, kind: 'operation' },
    permission: { delegated: ['Team.Create'], application: ['Team.Create'] },
    source: 'spec',
    specRows: ['POST /teams/{id}/clone'],
    summary: 'Clone a team (long-running: poll the operation in the Location header)',
  },
  {
    name: 'getTeamOperation',
    family: 'groupsAndTeams',
    method: 'GET',
    paths: ['/teams/{team}/operations/{operation}'],
    query: [],
    response: { status: 200, kind: 'entity', resource: 'teamsAsyncOperation' },
    permission: {
      delegated: ['Team.ReadBasic.All', 'Team.Create', 'Group.Read.All'],
      application: ['Team.ReadBasic.All', 'Team.Create', 'Group.Read.All'],
    },
    source: 'extension',
    specRows: [],
    summary: 'Get a long-running team operation (the Location of a clone)',
  },
  {
    name: 'addChannelTab',
    family: 'groupsAndTeams',
    method: 'POST',
    paths: ['/teams/{team}/channels/{channel}/tabs'],
    query: [],
    body: 'teamsTab',
    response: { status: 201, kind: 'entity', resource: 'teamsTab' },
    permission: {
      delegated: ['TeamsTab.Create', 'TeamsTab.ReadWrite.All', 'Group.ReadWrite.All'],
      application: ['TeamsTab.Create', 'TeamsTab.ReadWrite.All', 'Group.ReadWrite.All'],
      check: 'teamMemberOrTeamsAdministrator',
    },
    source: 'spec',
    specRows: ['POST /teams/{team-id}/channels/{channel-id}/tabs'],
    summary: 'Pin a tab of an installed app to a channel',
  },
  {
    name: 'getGroup',
    family: 'groupsAndTeams',
    method: 'GET',
    paths: ['/groups/{group}'],
    query: ['$select'],
    response: { status: 200, kind: 'entity', resource: 'group' },
    permission: {
      delegated: ['GroupMember.Read.All', 'Group.Read.All', 'Group.ReadWrite.All'],
      application: ['GroupMember.Read.All', 'Group.Read.All', 'Group.ReadWrite.All'],
    },
    source: 'extension',
    specRows: [],
    summary: 'Get a group (to see what a clone created)',
  },
  {
    name: 'listChannels',
    family: 'groupsAndTeams',
    method: 'GET',
    paths: ['/teams/{team}/channels'],
    // The real service's $select (and the emulator's).
    query: ['$select'],
    response: { status: 200, kind: 'collection', resource: 'channel' },
    permission: {
      delegated: ['Channel.ReadBasic.All', 'ChannelSettings.Read.All', 'Group.Read.All'],
      application: ['Channel.ReadBasic.All', 'ChannelSettings.Read.All', 'Group.Read.All'],
    },
    source: 'extension',
    specRows: [],
    summary: 'List the channels of a team',
  },
  {
    name: 'listChannelTabs',
    family: 'groupsAndTeams',
    method: 'GET',
    paths: ['/teams/{team}/channels/{channel}/tabs'],
    // The real service's $select (and the emulator's).
    query: ['$select'],
    response: { status: 200, kind: 'collection', resource: 'teamsTab' },
    permission: {
      delegated: ['TeamsTab.Read.All', 'TeamsTab.ReadWrite.All', 'Group.Read.All'],
      application: ['TeamsTab.Read.All', 'TeamsTab.ReadWrite.All', 'Group.Read.All'],
    },
    source: 'extension',
    specRows: [],
    summary: 'List the tabs of a channel',
  },
  {
    name: 'listThreadPosts',
    family: 'groupsAndTeams',
    method: 'GET',
    paths: [
      '/groups/{group}/threads/{thread}/posts',
      '/groups/{group}/conversations/{conversation}/threads/{thread}/posts',
    ],
    query: [],
    response: { status: 200, kind: 'collection', resource: 'post' },
    permission: { delegated: ['Group.Read.All', 'Group.ReadWrite.All'], application: ['Group.Read.All'] },
    source: 'extension',
    specRows: [],
    summary: 'List the posts of a group thread (to see a reply)',
  },
  // Mail and calendar
  {
    name: 'messageDelta',
    family: 'mailAndCalendar',
    method: 'GET',
    paths: USER_FORMS('/mailFolders/{folder}/messages/delta'),
    aliases: [
      ...USER_FORMS('/mailFolders/{folder}/messages/delta()'),
      ...USER_FORMS('/mailFolders/{folder}/messages/vendor.graph.delta'),
      ...USER_FORMS('/mailFolders/{folder}/messages/vendor.graph.delta()'),
    ],
    // The spec's table: $search is unsupported.
    query: ['$select', '$top', '$expand', '$filter', '$orderby', '$skiptoken', '$deltatoken', 'changeType'],
    headers: ['Prefer'],
    response: { status: 200, kind: 'delta', resource: 'messageChange' },
    permission: {
      delegated: ['Mail.ReadBasic', 'Mail.Read', 'Mail.ReadWrite'],
      delegatedOther: ['Mail.ReadBasic.Shared', 'Mail.Read.Shared', 'Mail.ReadWrite.Shared'],
      application: ['Mail.ReadBasic.All', 'Mail.ReadBasic', 'Mail.Read', 'Mail.ReadWrite'],
    },
    source: 'spec',
    specRows: ['GET /me/mailFolders/{id}/messages/delta', 'GET /users/{id}/mailFolders/{id}/messages/delta'],
    summary: 'Track the changes of the messages in a mail folder (delta rounds)',
  },
  {
    name: 'listMessages',
    family: 'mailAndCalendar',
    method: 'GET',
    paths: USER_FORMS('/messages'),
    query: ['$select', '$top', '$skip'],
    response: { status: 200, kind: 'collection', resource: 'message' },
    permission: READ_MAIL,
    source: 'extension',
    specRows: [],
    summary: "List a mailbox's messages, newest first",
  },
  {
    name: 'listFolderMessages',
    family: 'mailAndCalendar',
    method: 'GET',
    paths: USER_FORMS('/mailFolders/{folder}/messages'),
    query: ['$select', '$top', '$skip'],
    response: { status: 200, kind: 'collection', resource: 'message' },
    permission: READ_MAIL,
    source: 'extension',
    specRows: [],
    summary: "List a mail folder's messages, newest first",
  },
  {
    name: 'getMessage',
    family: 'mailAndCalendar',
    method: 'GET',
    paths: USER_FORMS('/messages/{message}'),
    query: ['$select'],
    response: { status: 200, kind: 'entity', resource: 'message' },
    permission: READ_MAIL,
    source: 'extension',
    specRows: [],
    summary: 'Get a message',
  },
  {
    name: 'createMessage',
    family: 'mailAndCalendar',
    method: 'POST',
    paths: USER_FORMS('/mailFolders/{folder}/messages'),
    query: [],
    body: 'message',
    response: { status: 201, kind: 'entity', resource: 'message' },
    permission: WRITE_MAIL,
    source: 'extension',
    specRows: [],
    summary: 'Create a message in a mail folder (feeds message delta)',
  },
  {
    name: 'updateMessage',
    family: 'mailAndCalendar',
    method: 'PATCH',
    paths: USER_FORMS('/messages/{message}'),
    query: [],
    body: 'messageUpdate',
    response: { status: 200, kind: 'entity', resource: 'message' },
    permission: WRITE_MAIL,
    source: 'extension',
    specRows: [],
    summary: 'Update a message (feeds message delta)',
  },
  {
    name: 'moveMessage',
    family: 'mailAndCalendar',
    method: 'POST',
    paths: USER_FORMS('/messages/{message}/move'),
    query: [],
    body: 'messageMove',
    response: { status: 201, kind: 'entity', resource: 'message' },
    permission: WRITE_MAIL,
    source: 'extension',
    specRows: [],
    summary: 'Move a message to another folder (feeds message delta)',
  },
  {
    name: 'deleteMessage',
    family: 'mailAndCalendar',
    method: 'DELETE',
    paths: USER_FORMS('/messages/{message}'),
    query: [],
    response: { status: 204, kind: 'none' },
    permission: WRITE_MAIL,
    source: 'extension',
    specRows: [],
    summary: 'Delete a message (feeds message delta)',
  },
  {
    name: 'forwardEvent',
    family: 'mailAndCalendar',
    method: 'POST',
    paths: EVENT_FORWARD_PATHS,
    query: [],
    body: 'eventForward',
    response: { status: 202, kind: 'none' },
    permission: {
      delegated: ['Calendars.Read', 'Calendars.ReadWrite'],
      delegatedOther: ['Calendars.Read.Shared', 'Calendars.ReadWrite.Shared'],
      application: ['Calendars.Read', 'Calendars.ReadWrite'],
      group: { delegated: ['Group.ReadWrite.All'], application: [] },
    },
    source: 'spec',
    specRows: [
      'POST /me/events/{id}/forward, /users/{id \\| userPrincipalName}/events/{id}/forward, /groups/{id}/events/{id}/forward, the same with /calendar/ or /calendars/{id}/ or /calendarGroups/{id}/calendars/{id}/ before /events for me and users (calendar also for groups)',
    ],
    summary: 'Forward a calendar event to recipients',
  },
  {
    name: 'getEvent',
    family: 'mailAndCalendar',
    method: 'GET',
    paths: [...USER_FORMS('/events/{event}'), '/groups/{group}/events/{event}'],
    query: ['$select'],
    response: { status: 200, kind: 'entity', resource: 'event' },
    permission: {
      delegated: ['Calendars.ReadBasic', 'Calendars.Read', 'Calendars.ReadWrite'],
      delegatedOther: ['Calendars.Read.Shared', 'Calendars.ReadWrite.Shared'],
      application: ['Calendars.ReadBasic', 'Calendars.Read'],
      group: { delegated: ['Group.Read.All', 'Group.ReadWrite.All'], application: [] },
    },
    source: 'extension',
    specRows: [],
    summary: 'Get a calendar event (to see a forward reach the organizer)',
  },
  {
    name: 'permanentDeleteEvent',
    family: 'mailAndCalendar',
    method: 'POST',
    paths: PERMANENT_DELETE_PATHS,
    query: [],
    response: { status: 204, kind: 'none' },
    permission: {
      delegated: ['Calendars.ReadWrite'],
      delegatedOther: ['Calendars.ReadWrite.Shared'],
      application: ['Calendars.ReadWrite'],
      group: { delegated: ['Group.ReadWrite.All'], application: [] },
    },
    source: 'spec',
    specRows: [
      'POST /users/{id}/events/{id}/permanentDelete, /groups/{id}/events/{id}/permanentDelete, /users/{id}/calendarView/{id}/permanentDelete, /groups/{id}/calendarView/{id}/permanentDelete, /users/{id}/messages/{id}/event/permanentDelete, and the same message event forms through /event/instances/{id}, /event/calendar/events/{id}, /event/exceptionOccurrences/{id}, /event/calendar/calendarView/{id}',
    ],
    summary: 'Permanently delete a calendar event',
  },
  // Workbook
  {
    name: 'updateNamedRangeBorder',
    family: 'workbook',
    method: 'PATCH',
    paths: inWorkbook(`/names/{name}/range${BORDER}`),
    query: [],
    body: 'rangeBorder',
    headers: ['Workbook-Session-Id'],
    response: { status: 200, kind: 'entity', resource: 'workbookRangeBorder' },
    permission: WORKBOOK_WRITE,
    source: 'spec',
    specRows: [
      'PATCH /me/drive/items/{id}/workbook/names/{name}/range/format/borders/{sideIndex}',
      'PATCH /me/drive/root:/{item-path}:/workbook/names/{name}/range/format/borders/{sideIndex}',
    ],
    summary: "Update a border of a named range's format",
  },
  {
    name: 'updateRangeBorder',
    family: 'workbook',
    method: 'PATCH',
    paths: inWorkbook(`/worksheets/{worksheet}/range(address='{address}')${BORDER}`),
    query: [],
    body: 'rangeBorder',
    headers: ['Workbook-Session-Id'],
    response: { status: 200, kind: 'entity', resource: 'workbookRangeBorder' },
    permission: WORKBOOK_WRITE,
    source: 'spec',
    specRows: [
      "PATCH /me/drive/items/{id}/workbook/worksheets/{id\\|name}/range(address='<address>')/format/borders/{sideIndex} (also under drive/root:/{item-path}:)",
    ],
    summary: 'Update a border of a worksheet range',
  },
  {
    name: 'updateColumnRangeBorder',
    family: 'workbook',
    method: 'PATCH',
    paths: inWorkbook(`/tables/{table}/columns/{column}/range${BORDER}`),
    query: [],
    body: 'rangeBorder',
    headers: ['Workbook-Session-Id'],
    response: { status: 200, kind: 'entity', resource: 'workbookRangeBorder' },
    permission: WORKBOOK_WRITE,
    source: 'spec',
    specRows: [
      'PATCH /me/drive/items/{id}/workbook/tables/{id\\|name}/columns/{id\\|name}/range/format/borders/{sideIndex} (also under drive/root:/{item-path}:)',
    ],
    summary: "Update a border of a table column's range",
  },
  {
    name: 'getRangeBorder',
    family: 'workbook',
    method: 'GET',
    paths: [
      ...inWorkbook(`/names/{name}/range${BORDER}`),
      ...inWorkbook(`/worksheets/{worksheet}/range(address='{address}')${BORDER}`),
      ...inWorkbook(`/tables/{table}/columns/{column}/range${BORDER}`),
    ],
    query: [],
    headers: ['Workbook-Session-Id'],
    response: { status: 200, kind: 'entity', resource: 'workbookRangeBorder' },
    permission: WORKBOOK_READ,
    source: 'extension',
    specRows: [],
    summary: 'Get a border of a range (to read what a PATCH kept)',
  },
  {
    name: 'listTableColumns',
    family: 'workbook',
    method: 'GET',
    paths: [...inWorkbook('/tables/{table}/columns'), ...inWorkbook('/worksheets/{worksheet}/tables/{table}/columns')],
    // The spec's row: "OData query parameters supported".
    query: ['$filter', '$orderby', '$select', '$top', '$skip', '$count'],
    headers: ['Workbook-Session-Id'],
    response: { status: 200, kind: 'collection', resource: 'workbookTableColumn' },
    permission: WORKBOOK_READ,
    source: 'spec',
    specRows: [
      'GET /me/drive/items/{id}/workbook/tables/{id\\|name}/columns and /me/drive/items/{id}/workbook/worksheets/{id\\|name}/tables/{id\\|name}/columns (also under drive/root:/{item-path}:)',
    ],
    summary: 'List the columns of a workbook table',
  },
  {
    name: 'getTableRange',
    family: 'workbook',
    method: 'GET',
    paths: [...inWorkbook('/tables/{table}/range'), ...inWorkbook('/worksheets/{worksheet}/tables/{table}/range')],
    query: ['$select'],
    headers: ['Workbook-Session-Id'],
    response: { status: 200, kind: 'entity', resource: 'workbookRange' },
    permission: WORKBOOK_READ,
    source: 'extension',
    specRows: [],
    summary: "Get a workbook table's range (its worksheet and address, to format one of its rows)",
  },
  {
    name: 'getChartPoint',
    family: 'workbook',
    method: 'GET',
    paths: inWorkbook('/worksheets/{worksheet}/charts/{chart}/series/{series}/points/itemAt(index={index})'),
    query: [],
    headers: ['Workbook-Session-Id'],
    response: { status: 200, kind: 'entity', resource: 'workbookChartPoint' },
    permission: WORKBOOK_READ,
    source: 'spec',
    specRows: [
      'GET /me/drive/items/{id}/workbook/worksheets/{id\\|name}/charts/{name}/series/{series-id}/points/itemAt(index={index}) (also under drive/root:/{item-path}:)',
    ],
    summary: 'Get a chart point by its zero-based position',
  },
  {
    name: 'createWorkbookSession',
    family: 'workbook',
    method: 'POST',
    paths: inWorkbook('/createSession'),
    query: [],
    body: 'workbookSession',
    response: { status: 201, kind: 'entity', resource: 'workbookSessionInfo' },
    permission: WORKBOOK_WRITE,
    source: 'extension',
    specRows: [],
    summary: 'Create a workbook session (persistent or not) for Workbook-Session-Id',
  },
  {
    name: 'closeWorkbookSession',
    family: 'workbook',
    method: 'POST',
    paths: inWorkbook('/closeSession'),
    query: [],
    headers: ['Workbook-Session-Id'],
    response: { status: 204, kind: 'none' },
    permission: WORKBOOK_WRITE,
    source: 'extension',
    specRows: [],
    summary: 'Close a workbook session',
  },
  // Identity governance and policy
  {
    name: 'getAssignmentRequest',
    family: 'governance',
    method: 'GET',
    paths: ['/identityGovernance/entitlementManagement/assignmentRequests/{request}'],
    query: ['$expand', '$select'],
    response: { status: 200, kind: 'entity', resource: 'accessPackageAssignmentRequest' },
    permission: {
      delegated: ['EntitlementManagement.Read.All', 'EntitlementManagement.ReadWrite.All'],
      application: ['EntitlementManagement.Read.All', 'EntitlementManagement.ReadWrite.All'],
    },
    source: 'spec',
    specRows: ['GET /identityGovernance/entitlementManagement/assignmentRequests/{accessPackageAssignmentRequestId}'],
    summary: 'Get an access package assignment request',
  },
  {
    name: 'getApplicablePolicyRequirements',
    family: 'governance',
    method: 'POST',
    paths: ['/identityGovernance/entitlementManagement/accessPackages/{accessPackage}/getApplicablePolicyRequirements'],
    query: [],
    response: { status: 200, kind: 'collection', resource: 'accessPackageAssignmentRequestRequirements' },
    permission: {
      delegated: ['EntitlementMgmt-SubjectAccess.ReadWrite', 'EntitlementManagement.ReadWrite.All'],
      application: [],
    },
    source: 'spec',
    specRows: [
      'POST /identityGovernance/entitlementManagement/accessPackages/{accessPackageId}/getApplicablePolicyRequirements',
    ],
    summary: 'List the policy requirements that apply to the caller for an access package',
  },
  {
    name: 'deleteAssignmentPolicy',
    family: 'governance',
    method: 'DELETE',
    paths: ['/identityGovernance/entitlementManagement/assignmentPolicies/{policy}'],
    query: [],
    response: { status: 204, kind: 'none' },
    permission: {
      delegated: ['EntitlementManagement.ReadWrite.All'],
      application: ['EntitlementManagement.ReadWrite.All'],
    },
    source: 'spec',
    specRows: ['DELETE /identityGovernance/entitlementManagement/assignmentPolicies/{accessPackageAssignmentPolicyId}'],
    summary: 'Delete an access package assignment policy',
  },
  {
    name: 'listHomeRealmDiscoveryPolicies',
    family: 'governance',
    method: 'GET',
    paths: ['/policies/homeRealmDiscoveryPolicies'],
    query: ['$expand', '$filter', '$select', '$top'],
    response: { status: 200, kind: 'collection', resource: 'homeRealmDiscoveryPolicy' },
    permission: {
      delegated: ['Policy.Read.All', 'Policy.ReadWrite.ApplicationConfiguration'],
      application: ['Policy.Read.All', 'Policy.ReadWrite.ApplicationConfiguration'],
    },
    source: 'spec',
    specRows: ['GET /policies/homeRealmDiscoveryPolicies'],
    summary: 'List home realm discovery policies',
  },
  // Labels and eDiscovery
  {
    name: 'getSubcategoryTemplate',
    family: 'labelsAndEdiscovery',
    method: 'GET',
    paths: ['/security/labels/categories/{category}/subcategories/{subcategory}'],
    query: ['$select'],
    response: { status: 200, kind: 'wrapped', resource: 'subcategoryTemplate' },
    permission: {
      delegated: ['RecordsManagement.Read.All', 'RecordsManagement.ReadWrite.All'],
      application: ['RecordsManagement.Read.All', 'RecordsManagement.ReadWrite.All'],
    },
    source: 'spec',
    specRows: ['GET /security/labels/categories/{categoryTemplateId}/subcategories/{subcategoryTemplateId}'],
    summary: 'Get a subcategory template of a label category',
  },
  {
    name: 'addCustodianSource',
    family: 'labelsAndEdiscovery',
    method: 'POST',
    paths: ['/security/cases/ediscoveryCases/{case}/searches/{search}/custodianSources/$ref'],
    query: [],
    body: 'dataSourceRef',
    response: { status: 204, kind: 'none' },
    permission: { delegated: ['eDiscovery.ReadWrite.All'], application: [] },
    source: 'spec',
    specRows: [
      'POST /security/cases/ediscoveryCases/{ediscoveryCaseId}/searches/{ediscoverySearchId}/custodianSources/$ref',
    ],
    summary: 'Add a custodian data source to an eDiscovery search',
  },
  {
    name: 'listCustodianSources',
    family: 'labelsAndEdiscovery',
    method: 'GET',
    paths: ['/security/cases/ediscoveryCases/{case}/searches/{search}/custodianSources'],
    query: [],
    response: { status: 200, kind: 'collection', resource: 'dataSource' },
    permission: { delegated: ['eDiscovery.Read.All', 'eDiscovery.ReadWrite.All'], application: [] },
    source: 'extension',
    specRows: [],
    summary: 'List the custodian data sources of an eDiscovery search (to read back one added)',
  },
  // Places
  {
    name: 'listFixtures',
    family: 'places',
    method: 'GET',
    paths: ['/places/{building}/vendor.graph.building/map/levels/{level}/fixtures'],
    query: ['$select'],
    response: { status: 200, kind: 'collection', resource: 'fixtureMap' },
    permission: {
      delegated: ['Place.Read.All', 'Place.ReadWrite.All'],
      application: ['Place.Read.All', 'Place.ReadWrite.All'],
    },
    source: 'spec',
    specRows: ['GET /places/{buildingPlaceId}/vendor.graph.building/map/levels/{levelMapId}/fixtures'],
    summary: 'List the fixtures of a level map of a building',
  },
  {
    name: 'deleteBuildingMap',
    family: 'places',
    method: 'DELETE',
    paths: ['/places/{building}/vendor.graph.building/map'],
    query: [],
    response: { status: 204, kind: 'none' },
    permission: {
      delegated: ['Place.ReadWrite.All'],
      application: ['Place.ReadWrite.All'],
      directoryRoles: ['mailSystemAdministrator'],
    },
    source: 'spec',
    specRows: ['DELETE /places/{buildingPlaceId}/vendor.graph.building/map'],
    summary: 'Delete the map of a building',
  },
  // Others
  {
    name: 'getProgressTaskBoardFormat',
    family: 'planner',
    method: 'GET',
    paths: ['/planner/tasks/{task}/progressTaskBoardFormat'],
    query: [],
    response: { status: 200, kind: 'entity', resource: 'plannerProgressTaskBoardTaskFormat' },
    permission: {
      delegated: ['Tasks.Read', 'Tasks.ReadWrite', 'Group.Read.All', 'Group.ReadWrite.All'],
      application: [],
    },
    source: 'spec',
    specRows: ['GET /planner/tasks/{id}/progressTaskBoardFormat'],
    summary: 'Get the progress task board format of a planner task',
  },
  {
    name: 'deleteEngagementRoleMember',
    family: 'employeeExperience',
    method: 'DELETE',
    paths: ['/employeeExperience/roles/{role}/members/{member}'],
    query: [],
    response: { status: 204, kind: 'none' },
    permission: { delegated: ['EngagementRole.ReadWrite.All'], application: ['EngagementRole.ReadWrite.All'] },
    source: 'spec',
    specRows: ['DELETE /employeeExperience/roles/{engagementRoleId}/members/{engagementRoleMemberId}'],
    summary: 'Remove a member from an engagement role',
  },
  {
    name: 'deletePrintTaskDefinition',
    family: 'print',
    method: 'DELETE',
    paths: ['/print/taskDefinitions/{taskDefinition}'],
    query: [],
    response: { status: 204, kind: 'none' },
    permission: { delegated: [], application: ['PrintTaskDefinition.ReadWrite.All'] },
    source: 'spec',
    specRows: ['DELETE /print/taskDefinitions/{printTaskDefinitionId}'],
    summary: 'Delete a print task definition',
  },
  {
    name: 'restoreCloudPc',
    family: 'cloudPcs',
    method: 'POST',
    paths: ['/deviceManagement/virtualEndpoint/cloudPCs/{cloudPc}/restore'],
    query: [],
    body: 'cloudPcRestore',
    response: { status: 204, kind: 'none' },
    permission: { delegated: ['CloudPC.ReadWrite.All'], application: ['CloudPC.ReadWrite.All'] },
    source: 'spec',
    specRows: ['POST /deviceManagement/virtualEndpoint/cloudPCs/{id}/restore'],
    summary: 'Restore a cloud PC from a snapshot',
  },
  {
    name: 'addBundleItem',
    family: 'driveBundles',
    method: 'POST',
    paths: ['/drive/bundles/{bundle}/children'],
    query: [],
    body: 'driveItemRef',
    response: { status: 204, kind: 'none' },
    permission: { delegated: ['Files.ReadWrite', 'Files.ReadWrite.All'], application: [] },
    source: 'spec',
    specRows: ['POST /drive/bundles/{bundle-id}/children'],
    summary: 'Add a drive item to a bundle',
  },
  {
    name: 'listBundleChildren',
    family: 'driveBundles',
    method: 'GET',
    paths: ['/drive/bundles/{bundle}/children'],
    query: [],
    response: { status: 200, kind: 'collection', resource: 'driveItem' },
    permission: {
      delegated: ['Files.Read', 'Files.ReadWrite', 'Files.Read.All', 'Files.ReadWrite.All'],
      application: [],
    },
    source: 'extension',
    specRows: [],
    summary: 'List the drive items of a bundle (to read back one added)',
  },
] as const satisfies readonly Operation[];

/** The table with its literal types, from which the typed client derives each operation's parameters. */
export type OperationTable = typeof OPERATION_TABLE;

export const OPERATIONS: readonly Operation[] = OPERATION_TABLE;

/** The operation of a given name; undefined when none has it. */
export function operationNamed(name: string): Operation | undefined {
  return OPERATIONS.find((operation) => operation.name === name);
}

const CHECKS: Readonly<Record<NonNullable<PermissionRule['check']>, string>> = {
  groupOwnerRoles: 'an owner of the group, or a directory role of the spec’s Authentication 5',
  teamMemberOrTeamsAdministrator: 'a member of the team, or teamsAdministrator',
};

/**
 * The permission table of docs/emulator.md, rendered from the table above (a test checks the page holds exactly this):
 * what a token needs for each operation, least privileged first.
 */
export function permissionTable(): string {
  const cell = (scopes: readonly string[] | undefined, absent = '—'): string =>
    scopes === undefined ? absent : scopes.length === 0 ? 'not supported' : scopes.map((s) => `\`${s}\``).join(', ');
  const rows = OPERATIONS.map((operation) => {
    const rule = operation.permission;
    const hasUserForm = operation.paths.some((path) => path.startsWith('/users/{user}'));
    const conditions = [
      ...(rule.workOrSchoolOnly === true ? ['work or school accounts only'] : []),
      ...(rule.directoryRoles === undefined ? [] : [`role: ${rule.directoryRoles.join(' or ')}`]),
      ...(rule.check === undefined ? [] : [CHECKS[rule.check]]),
    ];
    return [
      `\`${operation.name}\``,
      cell(rule.delegated),
      hasUserForm ? cell(rule.delegatedOther, 'not supported') : '—',
      rule.group === undefined ? '—' : `${cell(rule.group.delegated)}; app: ${cell(rule.group.application)}`,
      cell(rule.application),
      conditions.join('; ') || '—',
    ];
  });
  return [
    '| Operation | Delegated (least privileged first) | Delegated, another user | Group forms | Application | Also required |',
    '| :-- | :-- | :-- | :-- | :-- | :-- |',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}
