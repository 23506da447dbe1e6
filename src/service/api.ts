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
import { DEFAULT_MAX_PAGES, LinkTrail } from './links.js';
import {
  operationUrl,
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
import { inSpecNames } from './namespace.js';
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
  /** A collection: the most pages followed before E_LINK_LOOP (default 100,000); a repeated link ends it sooner. */
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

/** `value` checked as `resource`, read in the spec's type names whichever namespace the service answers in. */
function checked<T>(operation: Operation, resource: ResourceName, response: CallResponse, value: unknown): T {
  const spec = inSpecNames(value);
  const problem = resourceProblem(resource, spec);
  if (problem !== undefined) throw shapeError(operation, response, problem);
  return spec as T;
}

/** A body that is JSON, whatever the content-type claimed; E_RESPONSE_SHAPE naming what came instead. */
function requireJson(operation: Operation, response: CallResponse): void {
  if (response.bodyType === 'json') return;
  throw shapeError(
    operation,
    response,
    response.bodyType === 'empty'
      ? `the ${response.status} answer has no body`
      : `the ${response.status} answer is not JSON (content-type ${JSON.stringify(response.headers['content-type'] ?? 'none')})`,
  );
}

function pageOf<T>(operation: Operation, resource: ResourceName, response: CallResponse): Page<T> {
  requireJson(operation, response);
  const body = response.body as Record<string, unknown> | undefined;
  if (body === null || typeof body !== 'object' || !Array.isArray(body.value))
    throw shapeError(operation, response, 'a collection page has no "value" array');
  const next = body['@odata.nextLink'];
  const delta = body['@odata.deltaLink'];
  if ((next !== undefined && typeof next !== 'string') || (delta !== undefined && typeof delta !== 'string'))
    throw shapeError(operation, response, '@odata.nextLink and @odata.deltaLink must be strings');
  const items = body.value.map((item, i) => {
    const spec = inSpecNames(item);
    const problem = resourceProblem(resource, spec);
    if (problem !== undefined) throw shapeError(operation, response, `item ${i}: ${problem}`);
    return spec as T;
  });
  return {
    items,
    ...(next === undefined ? {} : { nextLink: next }),
    ...(delta === undefined ? {} : { deltaLink: delta }),
  };
}

/**
 * The pages of a collection from its first answer on, each checked as `operation` answers it, following
 * `@odata.nextLink` only to an origin that may have the token (E_FOREIGN_ORIGIN), at most `maxPages` pages and
 * never to a page already read (E_LINK_LOOP).
 */
export async function* followPages<T = unknown>(
  client: ServiceClient,
  operation: Operation,
  first: CallResponse,
  options: PageWalkOptions = {},
): AsyncGenerator<Page<T>, void, undefined> {
  const walk = new PageWalk<T>(client, operation, first, options);
  for (let page: Page<T> | undefined = walk.first; page !== undefined; page = await walk.next(page)) yield page;
}

type PageWalkOptions = { signal?: AbortSignal; headers?: Readonly<Record<string, string>>; maxPages?: number };

/** The pages of a collection one at a time, without a generator (all() reads a one-page answer with no extra ticks). */
class PageWalk<T> {
  readonly first: Page<T>;
  private readonly resource: ResourceName;
  private readonly trail: LinkTrail;
  private readonly linkFrom: string;

  constructor(
    private readonly client: ServiceClient,
    private readonly operation: Operation,
    firstResponse: CallResponse,
    private readonly options: PageWalkOptions,
  ) {
    this.resource = collectionResource(operation);
    this.trail = new LinkTrail(operation.name, options.maxPages ?? DEFAULT_MAX_PAGES, firstResponse.url);
    this.linkFrom = `${operation.name}: @odata.nextLink`;
    this.first = pageOf<T>(operation, this.resource, firstResponse);
  }

  /** The page after `page`, or undefined when it was the last. */
  async next(page: Page<T>): Promise<Page<T> | undefined> {
    if (page.nextLink === undefined) return undefined;
    // Checked before anything is sent, and before the link counts as followed.
    this.trail.follow(this.client.checkLink(page.nextLink, this.linkFrom).href);
    const response = await this.client.call({
      method: 'GET',
      path: page.nextLink,
      linkFrom: this.linkFrom,
      signal: this.options.signal,
      headers: this.options.headers,
    });
    return pageOf<T>(this.operation, this.resource, response);
  }
}

function collectionResource(operation: Operation): ResourceName {
  const spec = operation.response;
  if (spec.kind !== 'collection' && spec.kind !== 'delta')
    throw new ServiceError('E_REQUEST_SHAPE', `${operation.name} does not answer with a collection`);
  return spec.resource;
}

function pager<T>(
  client: ServiceClient,
  operation: Operation,
  optionsOf: () => InvokeOptions,
  maxPages?: number,
): Pager<T> {
  return new CollectionPager<T>(client, operation, optionsOf, maxPages);
}

/** A collection call not made yet (a class: nothing is built per call but the object itself). */
class CollectionPager<T> implements Pager<T> {
  constructor(
    private readonly client: ServiceClient,
    private readonly operation: Operation,
    private readonly optionsOf: () => InvokeOptions,
    private readonly maxPages: number | undefined,
  ) {}

  private async walk(): Promise<PageWalk<T>> {
    const options = this.optionsOf();
    const first = await invoke(this.client, this.operation.name, options);
    return new PageWalk<T>(this.client, this.operation, first, {
      signal: options.signal,
      headers: options.headers,
      maxPages: this.maxPages,
    });
  }

  async *pages(): AsyncGenerator<Page<T>> {
    const walk = await this.walk();
    for (let page: Page<T> | undefined = walk.first; page !== undefined; page = await walk.next(page)) yield page;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.pages()) yield* page.items;
  }

  async all(): Promise<T[]> {
    const walk = await this.walk();
    const items: T[] = walk.first.items;
    for (let page = await walk.next(walk.first); page !== undefined; page = await walk.next(page))
      for (const item of page.items) items.push(item);
    return items;
  }
}

/** What a 2xx answer of an operation holds, checked as the typed client checks it. */
export type CheckedAnswer =
  | { kind: 'page'; page: Page<unknown> }
  | { kind: 'value'; value: unknown }
  | { kind: 'operation'; operationUrl: string }
  | { kind: 'none' };

/**
 * Checks a 2xx answer of `operation` against what the spec shows for it; E_RESPONSE_SHAPE otherwise. The typed
 * client and `bomwright service` share it, so both refuse the same answers: a body that is not JSON where JSON is
 * expected (whatever its content-type says), an entity, page or item of the wrong shape, an accepted clone without
 * its Location. An operation that answers nothing has its body ignored.
 */
export function checkAnswer(client: ServiceClient, operation: Operation, response: CallResponse): CheckedAnswer {
  const spec = operation.response;
  if (spec.kind === 'none') return { kind: 'none' };
  if (spec.kind === 'operation') {
    const location = response.headers.location;
    if (location === undefined) throw shapeError(operation, response, 'accepted without a Location to poll');
    const url = operationUrl(client.baseUrl, location);
    client.checkLink(url, `${operation.name}: the Location header`);
    return { kind: 'operation', operationUrl: url };
  }
  if (spec.kind === 'multiStatus' && response.status === 204) return { kind: 'none' };
  requireJson(operation, response);
  switch (spec.kind) {
    case 'collection':
    case 'delta':
      return { kind: 'page', page: pageOf(operation, spec.resource, response) };
    case 'multiStatus':
      pageOf(operation, spec.resource, response);
      return { kind: 'value', value: inSpecNames(response.body) };
    case 'wrapped': {
      const body = response.body as { value?: unknown } | null;
      if (body === null || typeof body !== 'object' || !('value' in body))
        throw shapeError(operation, response, 'the answer has no "value"');
      return { kind: 'value', value: checked(operation, spec.resource, response, body.value) };
    }
    default:
      return { kind: 'value', value: checked(operation, spec.resource, response, response.body) };
  }
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
        pager(client, operation, () => optionsOf(request), (request as { maxPages?: number } | undefined)?.maxPages);
    case 'entity':
    case 'wrapped':
      return async (request) => {
        const answer = checkAnswer(client, operation, await invoke(client, operation.name, optionsOf(request)));
        return answer.kind === 'value' ? answer.value : undefined;
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
