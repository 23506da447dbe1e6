/**
 * The typed client: one function per operation of the table, grouped by family, with each operation's path
 * parameters, query options, request body and result typed from the table, the request shapes and the resource
 * schemas. Built from the table at run time, so no operation is written out by hand; the long and large operations
 * (clone, bulk removal, delta rounds) go through flows.ts.
 *
 * ```ts
 * const service = createClient({ baseUrl, token });
 * for await (const method of service.authenticationMethods.listPhoneMethods({ user: 'adele@contoso.example' }))
 *   console.log(method.phoneType);
 * ```
 */
import { readFileSync } from 'node:fs';
import { ServiceClient, type CallResponse, type ClientOptions } from './client.js';
import { ServiceError } from './errors.js';
import {
  removeTeamMembers,
  startTeamClone,
  syncMessages,
  type MemberResult,
  type SyncOptions,
  type SyncResult,
  type TeamCloneOperation,
} from './flows.js';
import { invoke, type InvokeOptions } from './invoke.js';
import { OPERATIONS, type Family, type Operation, type OperationTable } from './operations.js';
import type { Resource, ResourceName } from './resources.js';
import type { Infer } from './schema-types.js';
import { resourceProblem } from './shape-check.js';
import type { BodyShapeTable } from './shapes.js';

type TableOperation = OperationTable[number];
export type OperationName = TableOperation['name'];
type OperationOf<N extends OperationName> = Extract<TableOperation, { readonly name: N }>;

type Placeholders<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | Placeholders<Rest>
  : never;

/** A path parameter: an id, a user principal name, a name or an index. */
export type PathValue = string | number;

/** The parameters of one path form; a `/me` form also takes `user: 'me'`. */
type FormParams<P extends string> = P extends `/me${string}`
  ? { [K in Placeholders<P>]: PathValue } & { user?: 'me' }
  : { [K in Placeholders<P>]: PathValue };

/** The path parameters of operation `N`: one object per path form, each with exactly that form's parameters. */
export type PathParamsOf<N extends OperationName> = FormParams<OperationOf<N>['paths'][number]>;

interface QueryValues {
  $select: string | readonly string[];
  $top: number;
  $skip: number;
  $expand: string | readonly string[];
  $filter: string;
  $orderby: string | readonly string[];
  $count: boolean;
  $search: string;
  $skiptoken: string;
  $deltatoken: string;
  changeType: string;
}

type QueryName<Q extends string> = Q extends `$${infer Name}` ? Name : Q;

/** The query options operation `N` takes, without their `$` (`select`, `top`...). */
export type QueryOf<N extends OperationName> = {
  [Q in OperationOf<N>['query'][number] as QueryName<Q>]?: QueryValues[Q];
};

/** The request body of operation `N` (never when it takes none). */
export type BodyOf<N extends OperationName> =
  OperationOf<N> extends { readonly body: infer B extends keyof BodyShapeTable }
    ? Infer<BodyShapeTable[B]['schema']>
    : never;

type BodyPart<N extends OperationName> = [BodyOf<N>] extends [never]
  ? unknown
  : OperationOf<N> extends { readonly body: 'workbookSession' }
    ? { body?: BodyOf<N> }
    : { body: BodyOf<N> };

type SessionPart<N extends OperationName> =
  OperationOf<N> extends { readonly headers: readonly (infer H)[] }
    ? 'Workbook-Session-Id' extends H
      ? { /** The workbook session whose changes persist (or not). */ workbookSessionId?: string }
      : unknown
    : unknown;

/** What every call takes besides its parameters. */
export interface CallOptions {
  signal?: AbortSignal;
  /** One of the operation's path forms, when several take the same parameters (e.g. `calendar/events`). */
  template?: string;
  headers?: Readonly<Record<string, string>>;
  /** A collection: the most pages followed before E_RESPONSE_SHAPE (default 100,000; a link loop ends there). */
  maxPages?: number;
}

/** The single argument of operation `N`: its path parameters, query options, body and call options. */
export type RequestOf<N extends OperationName> = PathParamsOf<N> &
  QueryOf<N> &
  BodyPart<N> &
  SessionPart<N> &
  CallOptions;

/** One page of a collection as the service sent it. */
export interface Page<T> {
  items: T[];
  nextLink?: string;
  /** On the last page of a delta round: the link that starts the next round. */
  deltaLink?: string;
}

/**
 * A collection, read lazily: iterate it for every item across `@odata.nextLink` (links used unchanged, empty pages
 * tolerated), `pages()` for the pages themselves, `all()` for an array. Nothing is requested until then.
 */
export interface Pager<T> extends AsyncIterable<T> {
  pages(): AsyncIterable<Page<T>>;
  all(): Promise<T[]>;
}

type ResultOf<N extends OperationName> = N extends 'removeTeamMembers'
  ? Promise<MemberResult[]>
  : N extends 'cloneTeam'
    ? Promise<TeamCloneOperation>
    : OperationOf<N>['response'] extends infer R
      ? R extends { readonly kind: 'collection' | 'delta'; readonly resource: infer X extends ResourceName }
        ? Pager<Resource<X>>
        : R extends { readonly kind: 'entity' | 'wrapped'; readonly resource: infer X extends ResourceName }
          ? Promise<Resource<X>>
          : Promise<void>
      : never;

/** Bulk removal takes the members themselves; the client sends them 20 to a request. */
export interface RemoveMembersRequest extends CallOptions {
  team: PathValue;
  /** Ids or user principal names, any number of them. */
  users: readonly string[];
}

export type OperationFunction<N extends OperationName> = N extends 'removeTeamMembers'
  ? (request: RemoveMembersRequest) => ResultOf<N>
  : (request: RequestOf<N>) => ResultOf<N>;

type FamilyApi<F extends Family> = {
  readonly [O in Extract<TableOperation, { readonly family: F }> as O['name']]: OperationFunction<O['name']>;
};

/** The typed client: `service.<family>.<operation>(request)`, plus the delta helper and the transport. */
export type ServiceApi = { readonly [F in Family]: FamilyApi<F> } & {
  /** The same families' mail helpers: a delta round that resumes from a stored link. */
  readonly mailAndCalendar: { syncMessages(options: SyncOptions): Promise<SyncResult> };
  /** The transport underneath, for requests outside the table. */
  readonly transport: ServiceClient;
  /** Releases the client's connections. */
  close(): Promise<void>;
};

const CALL_OPTIONS = new Set(['signal', 'template', 'headers', 'body', 'workbookSessionId', 'maxPages']);

function placeholderNames(operation: Operation): Set<string> {
  const names = new Set<string>();
  for (const template of operation.paths) for (const match of template.matchAll(/\{(\w+)\}/g)) names.add(match[1]!);
  return names;
}

function queryValue(value: unknown): string | number | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.map(String).join(',');
  return typeof value === 'number' ? value : String(value);
}

/** Splits a typed request into path parameters, query options, body and call options; refuses unknown members. */
function invokeOptions(
  operation: Operation,
  pathNames: ReadonlySet<string>,
  request: Record<string, unknown>,
): InvokeOptions {
  const params: Record<string, string | number | undefined> = {};
  const query: Record<string, string | number | undefined> = {};
  for (const [key, value] of Object.entries(request)) {
    if (CALL_OPTIONS.has(key)) continue;
    if (pathNames.has(key)) params[key] = value as string | number | undefined;
    else if ((operation.query as readonly string[]).includes(key)) query[key] = queryValue(value);
    else if ((operation.query as readonly string[]).includes(`$${key}`)) query[`$${key}`] = queryValue(value);
    else
      throw new ServiceError(
        'E_REQUEST_SHAPE',
        `${operation.name} takes no ${JSON.stringify(key.slice(0, 60))} (it takes ${[...pathNames, ...operation.query.map((q) => q.replace(/^\$/, ''))].join(', ') || 'no parameters'})`,
      );
  }
  return {
    params,
    query,
    body: request.body,
    template: request.template as string | undefined,
    headers: request.headers as Record<string, string> | undefined,
    signal: request.signal as AbortSignal | undefined,
    workbookSessionId: request.workbookSessionId as string | undefined,
  };
}

function shapeError(operation: Operation, response: CallResponse, problem: string): ServiceError {
  return new ServiceError('E_RESPONSE_SHAPE', `${operation.name}: ${problem.slice(0, 300)}`, {
    status: response.status,
    requestId: response.headers['request-id'],
    clientRequestId: response.clientRequestId,
  });
}

function checked<T>(operation: Operation, resource: ResourceName, response: CallResponse, value: unknown): T {
  const problem = resourceProblem(resource, value);
  if (problem !== undefined) throw shapeError(operation, response, problem);
  return value as T;
}

function pageOf<T>(operation: Operation, resource: ResourceName, response: CallResponse): Page<T> {
  const body = response.body as Record<string, unknown> | undefined;
  if (body === null || typeof body !== 'object' || !Array.isArray(body.value))
    throw shapeError(operation, response, 'a collection page has no "value" array');
  const next = body['@odata.nextLink'];
  const delta = body['@odata.deltaLink'];
  if ((next !== undefined && typeof next !== 'string') || (delta !== undefined && typeof delta !== 'string'))
    throw shapeError(operation, response, '@odata.nextLink and @odata.deltaLink must be strings');
  const items = body.value.map((item, i) => {
    const problem = resourceProblem(resource, item);
    if (problem !== undefined) throw shapeError(operation, response, `item ${i}: ${problem}`);
    return item as T;
  });
  return {
    items,
    ...(next === undefined ? {} : { nextLink: next }),
    ...(delta === undefined ? {} : { deltaLink: delta }),
  };
}

const MAX_PAGES = 100_000;

function pager<T>(
  client: ServiceClient,
  operation: Operation,
  resource: ResourceName,
  optionsOf: () => InvokeOptions,
  maxPages = MAX_PAGES,
): Pager<T> {
  const fetchPage = async (options: InvokeOptions, nextLink?: string): Promise<Page<T>> => {
    const response =
      nextLink === undefined
        ? await invoke(client, operation.name, options)
        : await client.call({ method: 'GET', path: nextLink, signal: options.signal, headers: options.headers });
    return pageOf<T>(operation, resource, response);
  };
  const tooMany = () =>
    new ServiceError('E_RESPONSE_SHAPE', `${operation.name}: more than ${maxPages} pages of @odata.nextLink`);
  async function* pages(): AsyncGenerator<Page<T>> {
    const options = optionsOf();
    for (let page = await fetchPage(options), count = 1; ; count++) {
      yield page;
      if (page.nextLink === undefined) return;
      if (count >= maxPages) throw tooMany();
      page = await fetchPage(options, page.nextLink);
    }
  }
  return {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.items;
    },
    // Without generators: the path most calls take, and the cheaper one.
    async all() {
      const options = optionsOf();
      const items: T[] = [];
      for (let page = await fetchPage(options), count = 1; ; count++) {
        for (const item of page.items) items.push(item);
        if (page.nextLink === undefined) return items;
        if (count >= maxPages) throw tooMany();
        page = await fetchPage(options, page.nextLink);
      }
    },
  };
}

function operationFunction(client: ServiceClient, operation: Operation): (request?: object) => unknown {
  const response = operation.response;
  const pathNames = placeholderNames(operation);
  const optionsOf = (request: object | undefined) =>
    invokeOptions(operation, pathNames, (request ?? {}) as Record<string, unknown>);
  if (operation.name === 'removeTeamMembers')
    return async (request) => {
      const { team, users, signal } = (request ?? {}) as Partial<RemoveMembersRequest>;
      if (team === undefined || !Array.isArray(users))
        throw new ServiceError('E_REQUEST_SHAPE', 'removeTeamMembers takes { team, users: [...] }');
      return removeTeamMembers(client, String(team), users, { signal });
    };
  if (operation.name === 'cloneTeam')
    return async (request) => {
      const options = optionsOf(request);
      const team = options.params?.team;
      if (team === undefined) throw new ServiceError('E_REQUEST_SHAPE', 'cloneTeam takes { team, body }');
      return startTeamClone(client, String(team), options.body as Record<string, unknown>, { signal: options.signal });
    };
  switch (response.kind) {
    case 'collection':
    case 'delta':
      return (request) =>
        pager(
          client,
          operation,
          response.resource,
          () => optionsOf(request),
          (request as { maxPages?: number } | undefined)?.maxPages,
        );
    case 'entity':
      return async (request) => {
        const answer = await invoke(client, operation.name, optionsOf(request));
        return checked(operation, response.resource, answer, answer.body);
      };
    case 'wrapped':
      return async (request) => {
        const answer = await invoke(client, operation.name, optionsOf(request));
        const body = answer.body as { value?: unknown } | undefined;
        if (body === null || typeof body !== 'object' || !('value' in body))
          throw shapeError(operation, answer, 'the answer has no "value"');
        return checked(operation, response.resource, answer, body.value);
      };
    default:
      return async (request) => {
        await invoke(client, operation.name, optionsOf(request));
      };
  }
}

/** bomwright's version for the User-Agent, from its package.json (two levels up, from dist/service or dist/bundle). */
function bomwrightVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as Record<
      string,
      unknown
    >;
    return pkg.name === 'bomwright' && typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * The typed client for every operation of the spec. One keep-alive undici Agent per client (unless a dispatcher
 * is given); call `close()` when done.
 */
export function createClient(options: ClientOptions): ServiceApi {
  const client = new ServiceClient({ ...options, toolVersion: options.toolVersion ?? bomwrightVersion() });
  const families: Record<string, Record<string, unknown>> = {};
  for (const operation of OPERATIONS)
    (families[operation.family] ??= {})[operation.name] = operationFunction(client, operation);
  families.mailAndCalendar!.syncMessages = (syncOptions: SyncOptions) => syncMessages(client, syncOptions);
  for (const family of Object.values(families)) Object.freeze(family);
  return Object.freeze({ ...families, transport: client, close: () => client.close() }) as unknown as ServiceApi;
}
