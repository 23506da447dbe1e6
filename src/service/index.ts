/** The service client: what `bomwright service` loads, and `bomwright/service` for users' own code. */
export { createServiceClient, ServiceClient, parseRetryAfter, backoffSeconds, DEFAULT_RETRY } from './client.js';
export type { ClientOptions, CallRequest, CallResponse, RetryOptions } from './client.js';
export { ServiceError, isServiceError, readErrorBody } from './errors.js';
export type { ServiceErrorCode } from './errors.js';
export { invoke, pages, pathFor, checkBody } from './invoke.js';
export type { InvokeOptions } from './invoke.js';
export { syncMessages, cloneTeam, removeTeamMembers, operationUrl, MEMBERS_PER_REQUEST } from './flows.js';
export type { DeltaLinkStore, SyncOptions, SyncResult, CloneOptions, CloneResult, MemberResult } from './flows.js';
export { OPERATIONS, operationNamed } from './operations.js';
export type { Operation, Family, HttpMethod } from './operations.js';
export { openApiDocument } from './openapi.js';
