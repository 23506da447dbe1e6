/**
 * The resources the service returns, as JSON Schema data: the fields the spec shows, with their types. The client
 * checks every response body against its operation's resource, so an unexpected shape is a typed error
 * (E_RESPONSE_SHAPE) at the call, not a crash deeper in the caller; the TypeScript types are derived from the same
 * schemas. Reading is lenient where the service is: members the spec does not show are allowed, text fields may
 * be null (the service writes null for an unset value), and only what the spec says is always there is required.
 */
import type { Infer } from './schema-types.js';

const TEXT = { type: ['string', 'null'] } as const;
const ID = { type: 'string' } as const;
const FLAG = { type: ['boolean', 'null'] } as const;
const OBJECT = { type: 'object' } as const;
const ITEM_BODY = { type: 'object', properties: { contentType: TEXT, content: TEXT } } as const;
const DATE_TIME_TZ = { type: 'object', properties: { dateTime: TEXT, timeZone: TEXT } } as const;
const AN_ERROR = {
  anyOf: [{ type: 'null' }, { type: 'object', required: ['code'], properties: { code: TEXT, message: TEXT } }],
} as const;

const FIDO2 = {
  type: 'object',
  required: ['@odata.type', 'id'],
  properties: {
    '@odata.type': { const: '#vendor.graph.fido2AuthenticationMethod' },
    id: ID,
    displayName: TEXT,
    creationDateTime: TEXT,
    aaGuid: TEXT,
    model: TEXT,
    attestationCertificates: { type: 'array', items: { type: 'string' } },
    attestationLevel: TEXT,
  },
} as const;

const HELLO_FOR_BUSINESS = {
  type: 'object',
  required: ['@odata.type', 'id'],
  properties: {
    '@odata.type': { const: '#vendor.graph.deviceHelloForBusinessAuthenticationMethod' },
    id: ID,
    displayName: TEXT,
    createdDateTime: TEXT,
    keyStrength: TEXT,
  },
} as const;

const MESSAGE = {
  type: 'object',
  required: ['id'],
  properties: {
    id: ID,
    receivedDateTime: TEXT,
    sentDateTime: TEXT,
    hasAttachments: FLAG,
    internetMessageId: TEXT,
    subject: TEXT,
    body: ITEM_BODY,
    isRead: FLAG,
    parentFolderId: TEXT,
  },
} as const;

const REMOVED_MESSAGE = {
  type: 'object',
  required: ['id', '@removed'],
  properties: { id: ID, '@removed': { type: 'object', properties: { reason: TEXT } } },
} as const;

const ATTACHMENT = {
  type: 'object',
  required: ['@odata.type'],
  properties: {
    '@odata.type': { type: 'string' },
    id: TEXT,
    name: TEXT,
    contentType: TEXT,
    size: { type: ['integer', 'null'] },
    contentBytes: TEXT,
    item: OBJECT,
    sourceUrl: TEXT,
    providerType: TEXT,
    permission: TEXT,
    isFolder: { type: ['boolean', 'string', 'null'] },
  },
} as const;

/** Every resource an operation of the table returns, by the name its `response.resource` uses. */
export const RESOURCE_SCHEMAS = {
  phoneAuthenticationMethod: {
    type: 'object',
    required: ['id'],
    properties: { id: ID, phoneNumber: TEXT, phoneType: TEXT, smsSignInState: TEXT },
  },
  authenticationMethod: { anyOf: [FIDO2, HELLO_FOR_BUSINESS] },
  message: MESSAGE,
  /** An entry of a change-tracking round: a created or updated message, or a removal. */
  messageChange: { anyOf: [REMOVED_MESSAGE, MESSAGE] },
  post: {
    type: 'object',
    properties: {
      id: ID,
      body: ITEM_BODY,
      from: OBJECT,
      receivedDateTime: TEXT,
      hasAttachments: FLAG,
      attachments: { type: 'array', items: ATTACHMENT },
    },
  },
  event: {
    type: 'object',
    properties: { id: ID, subject: TEXT, body: ITEM_BODY, start: DATE_TIME_TZ, end: DATE_TIME_TZ },
  },
  conversationMemberResult: {
    type: 'object',
    required: ['userId', 'error'],
    properties: { '@odata.type': TEXT, userId: TEXT, error: AN_ERROR },
  },
  teamsAsyncOperation: {
    type: 'object',
    required: ['id', 'status'],
    properties: {
      id: ID,
      operationType: TEXT,
      // The spec's States table: a client polls while the status is running; the real service says notStarted or
      // inProgress for it (teamsAsyncOperationStatus).
      status: { enum: ['running', 'notStarted', 'inProgress', 'succeeded', 'failed'] },
      targetResourceId: TEXT,
      targetResourceLocation: TEXT,
      createdDateTime: TEXT,
      lastActionDateTime: TEXT,
      attemptsCount: { type: ['integer', 'null'] },
      error: AN_ERROR,
    },
  },
  teamsTab: {
    type: 'object',
    properties: {
      id: ID,
      displayName: TEXT,
      configuration: {
        type: ['object', 'null'],
        properties: { entityId: TEXT, contentUrl: TEXT, websiteUrl: TEXT, removeUrl: TEXT },
      },
      webUrl: TEXT,
    },
  },
  group: {
    type: 'object',
    properties: {
      id: ID,
      displayName: TEXT,
      description: TEXT,
      mailNickname: TEXT,
      visibility: TEXT,
      groupTypes: { type: 'array', items: { type: 'string' } },
    },
  },
  channel: { type: 'object', properties: { id: ID, displayName: TEXT, description: TEXT, membershipType: TEXT } },
  workbookRangeBorder: {
    type: 'object',
    properties: { id: ID, color: TEXT, style: TEXT, sideIndex: TEXT, weight: TEXT },
  },
  workbookTableColumn: {
    type: 'object',
    properties: { id: ID, name: TEXT, index: { type: 'integer' }, values: {} },
  },
  /** A range: `address` is `Sheet!A1:F5`, the worksheet's name included. */
  workbookRange: {
    type: 'object',
    required: ['address'],
    properties: {
      address: { type: 'string' },
      addressLocal: TEXT,
      rowCount: { type: ['integer', 'null'] },
      columnCount: { type: ['integer', 'null'] },
      rowIndex: { type: ['integer', 'null'] },
      columnIndex: { type: ['integer', 'null'] },
    },
  },
  /** The spec shows no fields of a chart point. */
  workbookChartPoint: OBJECT,
  workbookSessionInfo: { type: 'object', required: ['id'], properties: { id: ID, persistChanges: FLAG } },
  subcategoryTemplate: {
    type: 'object',
    properties: {
      '@odata.type': TEXT,
      id: ID,
      displayName: TEXT,
      createdBy: {
        type: ['object', 'null'],
        properties: { user: { type: ['object', 'null'], properties: { id: TEXT, displayName: TEXT } } },
      },
      createdDateTime: TEXT,
    },
  },
  fixtureMap: {
    type: 'object',
    properties: { id: ID, placeId: TEXT, properties: TEXT },
  },
  accessPackageAssignmentRequest: {
    type: 'object',
    properties: {
      id: ID,
      requestType: TEXT,
      state: TEXT,
      status: TEXT,
      createdDateTime: TEXT,
      completedDateTime: TEXT,
      schedule: { type: ['object', 'null'] },
      accessPackage: { type: ['object', 'null'] },
      requestor: { type: ['object', 'null'] },
      assignment: { type: ['object', 'null'] },
    },
  },
  /** The spec shows no fields of a policy's requirements. */
  accessPackageAssignmentRequestRequirements: OBJECT,
  homeRealmDiscoveryPolicy: {
    type: 'object',
    properties: {
      id: ID,
      deletedDateTime: TEXT,
      definition: { type: 'array', items: { type: 'string' } },
      displayName: TEXT,
      isOrganizationDefault: FLAG,
    },
  },
  plannerProgressTaskBoardTaskFormat: { type: 'object', properties: { id: ID, orderHint: TEXT } },
  /** An owner: a user or a service principal, told apart by `@odata.type`. */
  directoryObject: {
    type: 'object',
    required: ['id'],
    properties: { '@odata.type': TEXT, id: ID, displayName: TEXT, userPrincipalName: TEXT, appId: TEXT },
  },
  conversationMember: {
    type: 'object',
    required: ['id'],
    properties: {
      '@odata.type': TEXT,
      id: ID,
      displayName: TEXT,
      userId: TEXT,
      email: TEXT,
      roles: { type: 'array', items: { type: 'string' } },
    },
  },
  dataSource: { type: 'object', required: ['id'], properties: { '@odata.type': TEXT, id: ID, email: TEXT } },
  driveItem: { type: 'object', required: ['id'], properties: { id: ID, name: TEXT } },
} as const;

export type ResourceName = keyof typeof RESOURCE_SCHEMAS;

/** The type of the resource named `N` (e.g. `Resource<'message'>`). */
export type Resource<N extends ResourceName> = Infer<(typeof RESOURCE_SCHEMAS)[N]>;

export type PhoneAuthenticationMethod = Resource<'phoneAuthenticationMethod'>;
/** A FIDO2 key or a Windows Hello for Business method, told apart by `@odata.type`. */
export type AuthenticationMethod = Resource<'authenticationMethod'>;
export type Message = Resource<'message'>;
/** A change of a delta round: a message created or updated, or `{ id, '@removed': { reason } }`. */
export type MessageChange = Resource<'messageChange'>;
export type Post = Resource<'post'>;
export type Event = Resource<'event'>;
export type ConversationMemberResult = Resource<'conversationMemberResult'>;
export type TeamsAsyncOperation = Resource<'teamsAsyncOperation'>;
export type TeamsTab = Resource<'teamsTab'>;
export type Group = Resource<'group'>;
export type Channel = Resource<'channel'>;
export type WorkbookRangeBorder = Resource<'workbookRangeBorder'>;
export type WorkbookTableColumn = Resource<'workbookTableColumn'>;
export type WorkbookChartPoint = Resource<'workbookChartPoint'>;
export type WorkbookRange = Resource<'workbookRange'>;
export type WorkbookSessionInfo = Resource<'workbookSessionInfo'>;
export type SubcategoryTemplate = Resource<'subcategoryTemplate'>;
export type FixtureMap = Resource<'fixtureMap'>;
export type AccessPackageAssignmentRequest = Resource<'accessPackageAssignmentRequest'>;
export type AccessPackageAssignmentRequestRequirements = Resource<'accessPackageAssignmentRequestRequirements'>;
export type HomeRealmDiscoveryPolicy = Resource<'homeRealmDiscoveryPolicy'>;
export type PlannerProgressTaskBoardTaskFormat = Resource<'plannerProgressTaskBoardTaskFormat'>;
export type DirectoryObject = Resource<'directoryObject'>;
export type ConversationMember = Resource<'conversationMember'>;
export type DataSource = Resource<'dataSource'>;
export type DriveItem = Resource<'driveItem'>;
