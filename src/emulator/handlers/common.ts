/** Helpers the family handlers share: addressing users, collections and references. */
import type { HandlerContext, HandlerResult } from '../context.js';
import { badRequest, notFound, ServiceFault } from '../faults.js';
import { truncate as cutText } from '../../values.js';
import type { Json, JsonRecord } from '../store.js';

/** The user a route addresses: the signed-in user for `/me`, else `users/{id | userPrincipalName}`. */
export function addressedUser(context: HandlerContext): JsonRecord {
  const { params, principal, store } = context;
  if (params.user === undefined) {
    if (principal.kind !== 'user') throw badRequest('/me request is only valid with delegated authentication flow.');
    const me = store.get('users', principal.userId);
    if (me === undefined) throw notFound('User', principal.userPrincipalName);
    return me;
  }
  const user = store.user(params.user);
  if (user === undefined) throw userNotFound(params.user);
  return user;
}

/** The directory's own wording for an object that does not exist. */
export function userNotFound(id: string): ServiceFault {
  return new ServiceFault(
    404,
    'Request_ResourceNotFound',
    `Resource '${truncate(id)}' does not exist or one of its queried reference-property objects are not present.`,
  );
}

export function collection(context: HandlerContext, contextPath: string, items: readonly Json[]): HandlerResult {
  return {
    status: 200,
    body: { '@odata.context': `${context.baseUrl}/v1.0/$metadata#${contextPath}`, value: items },
  };
}

export function entity(context: HandlerContext, contextPath: string, item: JsonRecord, status = 200): HandlerResult {
  return { status, body: { '@odata.context': `${context.baseUrl}/v1.0/$metadata#${contextPath}`, ...item } };
}

export const noContent: HandlerResult = { status: 204 };
export const accepted: HandlerResult = { status: 202 };

/** A record's array member, or an empty list. */
export function list(record: JsonRecord | undefined, member: string): readonly JsonRecord[] {
  const value = record?.[member];
  return Array.isArray(value) ? (value as JsonRecord[]) : [];
}

/**
 * The id at the end of a reference URL: `{base}/v1.0/users/{id}`, `.../users('{id}')`, `.../directoryObjects/{id}`.
 * Returns the collection segment and the id; refuses URLs that are not references to this service.
 */
export function parseReference(url: string, member: string): { kind: string; id: string } {
  const match = /\/v1\.0\/(\w+)(?:\/([^/()]+)|\('([^']*)'\)|\(([^()']*)\))\/?$/.exec(url);
  const id = match?.[2] ?? match?.[3] ?? match?.[4];
  if (match === null || id === undefined || id === '')
    throw badRequest(`Invalid ${member}: '${truncate(url)}' is not a reference to an object of this service.`);
  return { kind: match[1]!, id: decodeMember(id, url, member) };
}

/**
 * Percent-decodes part of a request member (an id inside a reference URL): a malformed escape or bytes that are
 * not UTF-8 are a 400 naming the member, never a URIError.
 */
export function decodeMember(part: string, whole: string, member: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw badRequest(`Invalid ${member}: '${truncate(whole)}' is not valid percent-encoding.`);
  }
}

/** Text from a request (an id, a URL), cut for a message. */
export function truncate(text: string, max = 120): string {
  return cutText(text, max);
}

/** A record's array member, its strings only. */
export function strings(record: JsonRecord | undefined, member: string): string[] {
  const value = record?.[member];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
