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

function describeOperation(operation: Operation, template: string, index: number): Json {
  const parameters: Json[] = [...template.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
    ...(name === 'itemPath' ? { description: 'the item path inside root:/…: (may contain slashes)' } : {}),
  }));
  for (const option of operation.query)
    parameters.push({ name: option, in: 'query', required: false, schema: { type: 'string' } });
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
    operationId: index === 0 ? operation.name : `${operation.name}_${index}`,
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
    operation.paths.forEach((template, index) => {
      const item = (paths[template] ??= {});
      item[operation.method.toLowerCase()] = describeOperation(operation, template, index);
    });
  const schemas: Record<string, unknown> = { ErrorBody: ERROR_BODY };
  for (const [name, shape] of Object.entries(BODY_SHAPES)) schemas[name] = { ...shape.schema, title: shape.typeName };
  for (const [name, schema] of Object.entries(RESOURCE_SCHEMAS))
    schemas[resourceComponent(name as ResourceName)] = schema;
  return {
    openapi: '3.1.0',
    info: { title: 'Directory, Collaboration, Mail, Workbook and Governance Service', version: `bomwright ${version}` },
    servers: [{ url: '{base_url}/v1.0', variables: { base_url: { default: 'http://127.0.0.1:8787' } } }],
    security: [{ bearer: [] }],
    paths,
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } }, schemas },
  };
}
