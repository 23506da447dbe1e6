/**
 * Request body shapes of the operations table, as JSON Schema (draft-07) data: the emulator refuses a body that
 * does not fit its shape, and the client checks what it sends the same way. Members the spec shows are typed;
 * members it does not show are refused (`additionalProperties: false`), as the real service refuses a property
 * that does not exist on the type. `@odata.type` is allowed wherever the service accepts it.
 */

interface BodyShape {
  /** The service's type name, used in messages ("... does not exist on type 'vendor.graph.post'"). */
  readonly typeName: string;
  readonly schema: Readonly<Record<string, unknown>>;
}

const ODATA_TYPE = { '@odata.type': { type: 'string', maxLength: 200 } } as const;
const SHORT = { type: 'string', maxLength: 4096 } as const;
const DATE_TIME_TZ = {
  type: 'object',
  additionalProperties: false,
  required: ['dateTime', 'timeZone'],
  properties: { dateTime: { type: 'string', maxLength: 64 }, timeZone: { type: 'string', maxLength: 128 } },
} as const;
const ITEM_BODY = {
  type: 'object',
  additionalProperties: false,
  required: ['contentType', 'content'],
  properties: { contentType: { enum: ['text', 'html', 'Text', 'HTML', 'Html'] }, content: { type: 'string' } },
} as const;

const ATTACHMENT = {
  type: 'object',
  required: ['@odata.type', 'name'],
  additionalProperties: false,
  properties: {
    '@odata.type': {
      enum: [
        '#vendor.graph.fileAttachment',
        '#vendor.graph.itemAttachment',
        '#vendor.graph.referenceAttachment',
        'vendor.graph.fileAttachment',
        'vendor.graph.itemAttachment',
        'vendor.graph.referenceAttachment',
      ],
    },
    name: { type: 'string', minLength: 1, maxLength: 255 },
    contentBytes: { type: 'string' },
    contentType: { type: 'string', maxLength: 255 },
    isInline: { type: 'boolean' },
    item: {
      type: 'object',
      additionalProperties: false,
      required: ['@odata.type'],
      properties: {
        '@odata.type': { enum: ['vendor.graph.event', '#vendor.graph.event'] },
        subject: SHORT,
        body: ITEM_BODY,
        start: DATE_TIME_TZ,
        end: DATE_TIME_TZ,
      },
    },
    sourceUrl: { type: 'string', maxLength: 2048 },
    providerType: { type: 'string', maxLength: 64 },
    permission: { type: 'string', maxLength: 64 },
    isFolder: { type: ['boolean', 'string'] },
  },
} as const;

// The docs write the forward parameters in PascalCase, the SDKs send camelCase: both are accepted.
const EMAIL_ADDRESS = {
  type: 'object',
  additionalProperties: false,
  anyOf: [{ required: ['Address'] }, { required: ['address'] }],
  properties: {
    Address: { type: 'string', format: 'email', maxLength: 320 },
    address: { type: 'string', format: 'email', maxLength: 320 },
    Name: SHORT,
    name: SHORT,
  },
} as const;
const RECIPIENT = {
  type: 'object',
  additionalProperties: false,
  anyOf: [{ required: ['EmailAddress'] }, { required: ['emailAddress'] }],
  properties: { EmailAddress: EMAIL_ADDRESS, emailAddress: EMAIL_ADDRESS },
} as const;

const RECIPIENTS = { type: 'array', maxItems: 500, items: RECIPIENT } as const;
/** The parts of a message the real payloads carry besides subject and body (message resource, v1.0). */
const MESSAGE_PARTS = {
  toRecipients: RECIPIENTS,
  ccRecipients: RECIPIENTS,
  bccRecipients: RECIPIENTS,
  replyTo: RECIPIENTS,
  from: RECIPIENT,
  sender: RECIPIENT,
  importance: { enum: ['low', 'normal', 'high'] },
  inferenceClassification: { enum: ['focused', 'other'] },
  categories: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 255 } },
  isReadReceiptRequested: { type: 'boolean' },
  isDeliveryReceiptRequested: { type: 'boolean' },
} as const;

const ODATA_ID_REF = {
  type: 'object',
  additionalProperties: false,
  required: ['@odata.id'],
  properties: { '@odata.id': { type: 'string', minLength: 1, maxLength: 2048 } },
} as const;

const BODY_SHAPE_TABLE = {
  threadReply: {
    typeName: 'vendor.graph.post',
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['post'],
      properties: {
        post: {
          type: 'object',
          additionalProperties: false,
          required: ['body'],
          properties: {
            ...ODATA_TYPE,
            body: ITEM_BODY,
            attachments: { type: 'array', maxItems: 250, items: ATTACHMENT },
          },
        },
      },
    },
  },
  directoryObjectRef: { typeName: 'vendor.graph.directoryObject', schema: ODATA_ID_REF },
  dataSourceRef: { typeName: 'vendor.graph.security.dataSource', schema: ODATA_ID_REF },
  memberRemoval: {
    typeName: 'vendor.graph.conversationMember',
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['values'],
      properties: {
        values: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['user@odata.bind'],
            properties: { ...ODATA_TYPE, 'user@odata.bind': { type: 'string', minLength: 1, maxLength: 2048 } },
          },
        },
      },
    },
  },
  teamClone: {
    typeName: 'vendor.graph.team',
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['displayName', 'partsToClone'],
      properties: {
        displayName: { type: 'string', minLength: 1, maxLength: 256 },
        description: { type: 'string', maxLength: 1024 },
        mailNickname: { type: 'string', maxLength: 64 },
        classification: { type: 'string', maxLength: 256 },
        visibility: { enum: ['Private', 'Public', 'private', 'public'] },
        partsToClone: { type: 'string', maxLength: 256 },
      },
    },
  },
  teamsTab: {
    typeName: 'vendor.graph.teamsTab',
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['teamsApp@odata.bind'],
      properties: {
        displayName: { type: 'string', minLength: 1, maxLength: 128 },
        'teamsApp@odata.bind': { type: 'string', minLength: 1, maxLength: 2048 },
        configuration: {
          type: 'object',
          additionalProperties: false,
          properties: {
            entityId: { type: ['string', 'null'], maxLength: 256 },
            contentUrl: { type: ['string', 'null'], maxLength: 2048 },
            websiteUrl: { type: ['string', 'null'], maxLength: 2048 },
            removeUrl: { type: ['string', 'null'], maxLength: 2048 },
          },
        },
      },
    },
  },
  eventForward: {
    typeName: 'vendor.graph.event.forward',
    schema: {
      type: 'object',
      additionalProperties: false,
      anyOf: [{ required: ['ToRecipients'] }, { required: ['toRecipients'] }],
      properties: {
        Comment: { type: 'string', maxLength: 65536 },
        comment: { type: 'string', maxLength: 65536 },
        ToRecipients: { type: 'array', minItems: 1, maxItems: 500, items: RECIPIENT },
        toRecipients: { type: 'array', minItems: 1, maxItems: 500, items: RECIPIENT },
      },
    },
  },
  rangeBorder: {
    typeName: 'vendor.graph.workbookRangeBorder',
    schema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        color: { type: 'string', maxLength: 64 },
        style: { enum: ['None', 'Continuous', 'Dash', 'DashDot', 'DashDotDot', 'Dot', 'Double', 'SlantDashDot'] },
        weight: { enum: ['Hairline', 'Thin', 'Medium', 'Thick'] },
      },
    },
  },
  workbookSession: {
    typeName: 'vendor.graph.workbookSessionInfo',
    schema: {
      type: 'object',
      additionalProperties: false,
      properties: { persistChanges: { type: 'boolean' } },
    },
  },
  cloudPcRestore: {
    typeName: 'vendor.graph.cloudPC.restore',
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['cloudPcSnapshotId'],
      properties: { cloudPcSnapshotId: { type: 'string', minLength: 1, maxLength: 256 } },
    },
  },
  driveItemRef: {
    typeName: 'vendor.graph.driveItem',
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['id'],
      properties: { id: { type: 'string', minLength: 1, maxLength: 256 } },
    },
  },
  message: {
    typeName: 'vendor.graph.message',
    schema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        ...ODATA_TYPE,
        subject: SHORT,
        body: ITEM_BODY,
        receivedDateTime: { type: 'string', format: 'date-time' },
        sentDateTime: { type: 'string', format: 'date-time' },
        internetMessageId: { type: 'string', maxLength: 998 },
        isRead: { type: 'boolean' },
        ...MESSAGE_PARTS,
      },
    },
  },
  messageUpdate: {
    typeName: 'vendor.graph.message',
    schema: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: { subject: SHORT, body: ITEM_BODY, isRead: { type: 'boolean' }, ...MESSAGE_PARTS },
    },
  },
  messageMove: {
    typeName: 'vendor.graph.message.move',
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['destinationId'],
      properties: { destinationId: { type: 'string', minLength: 1, maxLength: 1024 } },
    },
  },
} as const satisfies Readonly<Record<string, BodyShape>>;

/** The shapes with their literal types, from which the typed client derives each request body's type. */
export type BodyShapeTable = typeof BODY_SHAPE_TABLE;

export const BODY_SHAPES: Readonly<Record<string, BodyShape>> = BODY_SHAPE_TABLE;
