/**
 * An OpenAPI 3.1 description of the service, generated from the operations table and the request shapes, so
 * users can load the API into other tools (and it can never disagree with the client or the emulator).
 */
import { OPERATIONS, type Operation } from './operations.js';
import { RESOURCE_SCHEMAS, type ResourceName } from './resources.js';
import { BODY_SHAPES } from './shapes.js';

type Json = Record<string, unknown>;

const ERROR_BODY: Json = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        innerError: {
          type: 'object',
          properties: {
            date: { type: 'string' },
            'request-id': { type: 'string' },
            'client-request-id': { type: 'string' },
          },
        },
      },
    },
  },
};

/** Resources share the components with the request shapes (some names are both), so they carry a prefix. */
function resourceComponent(resource: ResourceName): string {
  return `resource.${resource}`;
}

function responses(operation: Operation): Json {
  const error = {
    description: 'The service error body',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
  };
  const json = (description: string, schema: Json) => ({
    description,
    content: { 'application/json': { schema } },
  });
  const ref = (resource: ResourceName): Json => ({ $ref: `#/components/schemas/${resourceComponent(resource)}` });
  const collection = (resource: ResourceName): Json => ({
    type: 'object',
    required: ['value'],
    properties: {
      value: { type: 'array', items: ref(resource) },
      '@odata.nextLink': { type: 'string' },
      '@odata.deltaLink': { type: 'string' },
    },
  });
  const response = operation.response;
  switch (response.kind) {
    case 'collection':
    case 'delta':
      return {
        200: json(`A collection of ${response.resource} under "value"`, collection(response.resource)),
        default: error,
      };
    case 'entity':
      return { [response.status]: json(`A ${response.resource}`, ref(response.resource)), default: error };
    case 'wrapped':
      return {
        200: json(`A ${response.resource} under "value"`, {
          type: 'object',
          required: ['value'],
          properties: { value: ref(response.resource) },
        }),
        default: error,
      };
    case 'none':
      return { [response.status]: { description: 'No content' }, default: error };
    case 'operation':
      return {
        202: {
          description: 'Accepted: poll the operation in Location',
          headers: { Location: { schema: { type: 'string' } } },
        },
        default: error,
      };
    case 'multiStatus':
      return {
        204: { description: 'Every item succeeded' },
        207: json(`One ${response.resource} per item`, collection(response.resource)),
        default: error,
      };
  }
}

/**
 * The spec's closed sets on the resources, for generators (enums in the description only: the client's response
 * checks keep accepting a value the service adds later, as the Graph SDKs do).
 */
const RESOURCE_ENUMS: Partial<Record<ResourceName, Readonly<Record<string, readonly string[]>>>> = {
  phoneAuthenticationMethod: {
    phoneType: ['mobile', 'alternateMobile', 'office'],
    smsSignInState: ['ready', 'notSupported'],
  },
  workbookRangeBorder: {
    style: ['None', 'Continuous', 'Dash', 'DashDot', 'DashDotDot', 'Dot', 'Double', 'SlantDashDot'],
    weight: ['Hairline', 'Thin', 'Medium', 'Thick'],
  },
};

function withEnums(resource: ResourceName, schema: unknown): unknown {
  const enums = RESOURCE_ENUMS[resource];
  if (enums === undefined) return schema;
  const object = schema as { properties: Readonly<Record<string, { type?: readonly string[] }>> };
  const properties: Record<string, unknown> = { ...object.properties };
  for (const [name, values] of Object.entries(enums)) {
    const nullable = object.properties[name]?.type?.includes('null') === true;
    properties[name] = nullable
      ? { type: ['string', 'null'], enum: [...values, null] }
      : { type: 'string', enum: [...values] };
  }
  return { ...object, properties };
}

/** Query options whose values are a closed set or a number (spec: message change tracking; OData). */
function querySchema(operation: Operation, option: string): Json {
  if (option === 'changeType') return { type: 'string', enum: ['created', 'updated', 'deleted'] };
  if (option === '$orderby' && operation.response.kind === 'delta')
    return { type: 'string', enum: ['receivedDateTime desc'] };
  if (option === '$top' || option === '$skip') return { type: 'integer', minimum: 0 };
  if (option === '$count') return { type: 'boolean' };
  return { type: 'string' };
}

/**
 * What tells a path form from the operation's other forms, as words for its operationId
 * (`listPhoneMethodsOfUser`, `updateNamedRangeBorderByPath`, `permanentDeleteEventOfUserOfMessageEventInstance`).
 */
const QUALIFIERS: readonly (readonly [RegExp, string])[] = [
  [/^\/users\/\{user\}/, 'OfUser'],
  [/^\/groups\/\{group\}/, 'OfGroup'],
  [/\/conversations\/\{conversation\}\//, 'InConversation'],
  [/\/messages\/\{message\}\/event\//, 'OfMessageEvent'],
  [/\/instances\/\{event\}\//, 'Instance'],
  [/\/exceptionOccurrences\/\{event\}\//, 'ExceptionOccurrence'],
  [/\/calendarGroups\/\{calendarGroup\}\/calendars\/\{calendar\}\//, 'InCalendarGroupCalendar'],
  [/^(?!.*\/calendarGroups\/).*\/calendars\/\{calendar\}\//, 'InCalendar'],
  [/\/calendar\/events\//, 'InDefaultCalendar'],
  [/\/calendar\/calendarView\//, 'InDefaultCalendarView'],
  [/^(?!.*\/calendar\/calendarView\/).*\/calendarView\//, 'InCalendarView'],
  [/\/names\/\{name\}\/range/, 'OfNamedRange'],
  [/\/worksheets\/\{worksheet\}\/range\(/, 'OfWorksheetRange'],
  [/\/tables\/\{table\}\/columns\/\{column\}\/range/, 'OfTableColumn'],
  [/\/worksheets\/\{worksheet\}\/tables\//, 'InWorksheet'],
  [/root:\/\{itemPath\}:/, 'ByPath'],
];

/** The operationId of one path form: the operation's name and what sets this form apart from its others. */
function operationIdOf(operation: Operation, template: string): string {
  const words = (path: string) => QUALIFIERS.filter(([pattern]) => pattern.test(path)).map(([, word]) => word);
  // Words every form has say nothing about this one.
  const shared = operation.paths.map(words).reduce((common, list) => common.filter((word) => list.includes(word)));
  return (
    operation.name +
    words(template)
      .filter((word) => !shared.includes(word))
      .join('')
  );
}

function describeOperation(operation: Operation, template: string): Json {
  const parameters: Json[] = [...template.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
    ...(name === 'itemPath' ? { description: 'the item path inside root:/…: (may contain slashes)' } : {}),
  }));
  for (const option of operation.query)
    parameters.push({ name: option, in: 'query', required: false, schema: querySchema(operation, option) });
  for (const header of operation.headers ?? [])
    parameters.push({ name: header, in: 'header', required: false, schema: { type: 'string' } });
  const permission = operation.permission;
  const description = [
    operation.source === 'spec'
      ? `Spec: ${operation.specRows.join('; ')}`
      : 'A route of the real service that the spec’s flows need.',
    `Delegated: ${permission.delegated.join(' or ') || 'not supported'}.`,
    `Application: ${permission.application.join(' or ') || 'not supported'}.`,
    ...(permission.directoryRoles === undefined ? [] : [`Directory role: ${permission.directoryRoles.join(' or ')}.`]),
  ].join(' ');
  return {
    operationId: operationIdOf(operation, template),
    summary: operation.summary,
    description,
    tags: [operation.family],
    parameters,
    ...(operation.body === undefined
      ? {}
      : {
          requestBody: {
            required: operation.body !== 'workbookSession',
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${operation.body}` } } },
          },
        }),
    responses: responses(operation),
    'x-permissions': {
      delegated: permission.delegated,
      ...(permission.delegatedOther === undefined ? {} : { delegatedOther: permission.delegatedOther }),
      application: permission.application,
      ...(permission.group === undefined ? {} : { group: permission.group }),
    },
  };
}

/** The whole description; `version` is bomwright's. */
export function openApiDocument(version: string): Json {
  const paths: Record<string, Json> = {};
  for (const operation of OPERATIONS)
    for (const template of operation.paths) {
      const item = (paths[template] ??= {});
      item[operation.method.toLowerCase()] = describeOperation(operation, template);
    }
  const schemas: Record<string, unknown> = { ErrorBody: ERROR_BODY };
  for (const [name, shape] of Object.entries(BODY_SHAPES)) schemas[name] = { ...shape.schema, title: shape.typeName };
  for (const [name, schema] of Object.entries(RESOURCE_SCHEMAS))
    schemas[resourceComponent(name as ResourceName)] = withEnums(name as ResourceName, schema);
  return {
    openapi: '3.1.0',
    info: { title: 'Directory, Collaboration, Mail, Workbook and Governance Service', version: `bomwright ${version}` },
    servers: [{ url: '{base_url}/v1.0', variables: { base_url: { default: 'http://127.0.0.1:8787' } } }],
    security: [{ bearer: [] }],
    paths,
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } }, schemas },
  };
}
