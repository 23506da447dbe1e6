/** The service client: what `bomwright service` loads, and `bomwright/service` for users' own code. */
export { createServiceClient, ServiceClient, parseRetryAfter, backoffSeconds, DEFAULT_RETRY } from './client.js';
export type { ClientOptions, CallRequest, CallResponse, RetryOptions } from './client.js';
export { ServiceError, isServiceError, readErrorBody } from './errors.js';
export type { ServiceErrorCode } from './errors.js';
export { invoke, pages, pathFor, checkBody, checkSavedLink, linkOperation } from './invoke.js';
export type { InvokeOptions } from './invoke.js';
export { createClient, checkAnswer, followPages } from './api.js';
export { OriginPolicy, parseAllowedHost } from './origin.js';
export type { AllowedOrigin } from './origin.js';
export { LinkTrail, DEFAULT_MAX_PAGES } from './links.js';
export type {
  CheckedAnswer,
  ServiceApi,
  OperationName,
  OperationFunction,
  RequestOf,
  PathParamsOf,
  QueryOf,
  BodyOf,
  CallOptions,
  Page,
  Pager,
  PathValue,
  RemoveMembersRequest,
} from './api.js';
export { RESOURCE_SCHEMAS } from './resources.js';
export type * from './resources.js';
export {
  syncMessages,
  startTeamClone,
  cloneTeam,
  waitForTeamClone,
  removeTeamMembers,
  operationUrl,
  MEMBERS_PER_REQUEST,
} from './flows.js';
export type {
  DeltaLinkStore,
  SyncOptions,
  SyncResult,
  CloneOptions,
  CloneResult,
  ClonePoll,
  MemberResult,
  TeamCloneOperation,
} from './flows.js';
export { OPERATIONS, operationNamed } from './operations.js';
export type { Operation, Family, HttpMethod } from './operations.js';
export { openApiDocument } from './openapi.js';
