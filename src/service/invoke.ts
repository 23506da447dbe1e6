/**
 * Calling an operation of the table by name: the path form chosen from the parameters given (`me` when no user
 * is named), the query limited to the options the operation takes, the body checked against its shape before it
 * leaves, and collections followed across `@odata.nextLink`.
 */
import { inSpecNames, renameTypes, SPEC_NAMESPACE, specPath, type ODataNamespace } from './namespace.js';
import type { CallResponse, ServiceClient } from './client.js';
import { ServiceError } from './errors.js';
import { DEFAULT_MAX_PAGES, LinkTrail } from './links.js';
import { operationNamed, type Operation } from './operations.js';
import { buildPath, matchRoute } from './paths.js';
import { shapeProblem } from './shape-check.js';
import { BODY_SHAPES } from './shapes.js';

type PathParams = Readonly<Record<string, string | number | undefined>>;

export interface InvokeOptions {
  params?: PathParams;
  /** A path form of the operation to use (one of its `paths`), when several take the same parameters. */
  template?: string;
  query?: Readonly<Record<string, string | number | undefined>>;
  body?: unknown;
  signal?: AbortSignal;
  /** Workbook operations: the session whose changes persist (or not). */
  workbookSessionId?: string;
  headers?: Readonly<Record<string, string>>;
}

const PLACEHOLDER = /\{(\w+)\}/g;

/** Templates come from the operations table (a fixed set), so their names are worked out once each. */
const PLACEHOLDERS = new Map<string, readonly string[]>();

function placeholders(template: string): readonly string[] {
  let names = PLACEHOLDERS.get(template);
  if (names === undefined) {
    names = [...template.matchAll(PLACEHOLDER)].map((match) => match[1]!);
    if (PLACEHOLDERS.size < 10_000) PLACEHOLDERS.set(template, names);
  }
  return names;
}

/**
 * The path form of an operation that uses exactly the parameters given: `users/{user}` for a named user, the
 * `/me` form when the user is absent or `me`; refuses parameters no form takes and forms with a parameter missing.
 */
export function pathFor(
  operation: Operation,
  params: PathParams = {},
  namespace: ODataNamespace = SPEC_NAMESPACE,
): string {
  const given = new Map<string, string | number>();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined && !(name === 'user' && value === 'me')) given.set(name, value);
  const fitting = operation.paths.filter((template) => {
    const names = placeholders(template);
    return names.length === given.size && names.every((name) => given.has(name));
  });
  if (fitting.length === 0) {
    const forms = operation.paths.map((template) => `{${placeholders(template).join(', ')}}`);
    throw new ServiceError(
      'E_REQUEST_SHAPE',
      `${operation.name} takes one of these sets of path parameters: ${[...new Set(forms)].join(' or ')}; got {${[...given.keys()].join(', ')}}`,
    );
  }
  // Several forms may take the same names (calendar/events vs events): the first, shortest one is the plain form.
  return buildPath(inNamespace(fitting[0]!, namespace), Object.fromEntries(given));
}

/** A template's cast segments (`/vendor.graph.building/`) in the namespace the service speaks; parameters untouched. */
function inNamespace(template: string, namespace: ODataNamespace): string {
  return namespace === SPEC_NAMESPACE ? template : template.replaceAll(`/${SPEC_NAMESPACE}.`, `/${namespace}.`);
}

/** Checks a request body against its shape; throws E_REQUEST_SHAPE naming the first problem. */
export function checkBody(operation: Operation, body: unknown): void {
  if (operation.body === undefined) {
    if (body !== undefined) throw new ServiceError('E_REQUEST_SHAPE', `${operation.name} takes no request body`);
    return;
  }
  if (body === undefined && operation.body !== 'workbookSession')
    throw new ServiceError(
      'E_REQUEST_SHAPE',
      `${operation.name} needs a request body (${BODY_SHAPES[operation.body]!.typeName})`,
    );
  if (body === undefined) return;
  const error = shapeProblem(operation.body, body);
  if (error !== undefined) {
    const where = error.instancePath === '' ? 'the body' : error.instancePath;
    const extra =
      error.keyword === 'additionalProperties'
        ? ` '${String((error.params as { additionalProperty: string }).additionalProperty)}'`
        : '';
    throw new ServiceError('E_REQUEST_SHAPE', `${operation.name}: ${where} ${error.message!}${extra}`);
  }
  if (operation.body === 'threadReply') checkAttachmentSizes(body);
}

/** An attachment must stay under 3 MB (spec: Limits): refused here rather than sent to be refused. */
export const MAX_ATTACHMENT_BYTES = 3 * 1024 * 1024;

function checkAttachmentSizes(body: unknown): void {
  // The shape has required `post` already.
  const attachments = (body as { post: { attachments?: unknown } }).post.attachments;
  if (!Array.isArray(attachments)) return;
  attachments.forEach((attachment: { name?: unknown; contentBytes?: unknown; item?: unknown }, i) => {
    const size =
      typeof attachment.contentBytes === 'string'
        ? Math.floor((attachment.contentBytes.replace(/=+$/, '').length * 3) / 4)
        : attachment.item === undefined
          ? 0
          : Buffer.byteLength(JSON.stringify(attachment.item));
    if (size >= MAX_ATTACHMENT_BYTES)
      throw new ServiceError(
        'E_REQUEST_SHAPE',
        `replyToThread: attachment ${i} (${String(attachment.name).slice(0, 60)}) is ${size} bytes; an attachment must stay under 3 MB`,
      );
  });
}

/** Calls an operation by its name in the table. */
export async function invoke(client: ServiceClient, name: string, options: InvokeOptions = {}): Promise<CallResponse> {
  const operation = operationNamed(name);
  if (operation === undefined) throw new ServiceError('E_REQUEST_SHAPE', `No operation named ${JSON.stringify(name)}`);
  let path: string;
  if (options.template !== undefined) {
    if (!operation.paths.includes(options.template))
      throw new ServiceError('E_REQUEST_SHAPE', `${options.template} is not a path form of ${operation.name}`);
    const params = Object.fromEntries(
      Object.entries(options.params ?? {}).filter(([, v]) => v !== undefined),
    ) as Record<string, string | number>;
    try {
      path = buildPath(inNamespace(options.template, client.odataNamespace), params);
    } catch (error) {
      throw new ServiceError('E_REQUEST_SHAPE', `${operation.name}: ${(error as Error).message}`);
    }
  } else path = pathFor(operation, options.params, client.odataNamespace);
  for (const option of Object.keys(options.query ?? {}))
    if (!(operation.query as readonly string[]).includes(option))
      throw new ServiceError(
        'E_REQUEST_SHAPE',
        operation.query.length === 0
          ? `${operation.name} takes no query options (got ${option})`
          : `${operation.name} takes the query options ${operation.query.join(', ')}, not ${option}`,
      );
  // Type names in either namespace fit the shape; the body goes out in the one the client speaks.
  const body = inSpecNames(options.body);
  checkBody(operation, body);
  const headers: Record<string, string> = { ...options.headers };
  if (options.workbookSessionId !== undefined) headers['Workbook-Session-Id'] = options.workbookSessionId;
  return client.call({
    method: operation.method,
    path,
    query: options.query,
    body: renameTypes(body, SPEC_NAMESPACE, client.odataNamespace),
    headers,
    signal: options.signal,
  });
}

/**
 * The items of a collection, page after page, following each `@odata.nextLink` unchanged: only to an origin that
 * may have the token (E_FOREIGN_ORIGIN), at most `maxPages` pages and never the same page twice (E_LINK_LOOP).
 */
export async function* pages(
  client: ServiceClient,
  first: CallResponse,
  signal?: AbortSignal,
  maxPages = DEFAULT_MAX_PAGES,
): AsyncGenerator<unknown, void, undefined> {
  let response = first;
  const trail = new LinkTrail('the collection', maxPages, first.url);
  for (;;) {
    const body = response.body as { value?: unknown; '@odata.nextLink'?: unknown } | null | undefined;
    // A page of null, text or a list is as wrong as one without its array, and must not be read as an object.
    if (body === null || typeof body !== 'object' || !Array.isArray(body.value))
      throw new ServiceError('E_RESPONSE_SHAPE', 'A collection page has no "value" array', {
        status: response.status,
        clientRequestId: response.clientRequestId,
      });
    yield* body.value;
    const next = body['@odata.nextLink'];
    if (next === undefined) return;
    if (typeof next !== 'string') throw new ServiceError('E_RESPONSE_SHAPE', '@odata.nextLink is not a string');
    trail.follow(client.checkLink(next, '@odata.nextLink').href);
    response = await client.call({ method: 'GET', path: next, linkFrom: '@odata.nextLink', signal });
  }
}

/**
 * The operation a link leads to (as a GET), by the table's path forms: `{base}/v1.0/me/mailFolders('x')/messages/
 * delta?...` is messageDelta's. Undefined when its path is no operation's.
 */
export function linkOperation(client: ServiceClient, link: URL): Operation | undefined {
  const at = link.pathname.toLowerCase().indexOf('/v1.0/');
  if (at === -1) return undefined;
  const match = matchRoute('GET', specPath(link.pathname.slice(at + 5), client.odataNamespace));
  return match.kind === 'matched' ? match.operation : undefined;
}

/**
 * A link kept from an earlier run (a saved nextLink or delta link, a clone's Location) checked before it is sent:
 * to an origin that may have the token, and to the operation it is given for. Another operation's link would
 * answer with another operation's items, read as this one's. The link itself is not repeated (it may carry state).
 */
export function checkSavedLink(client: ServiceClient, link: string, operation: Operation, what: string): URL {
  const url = client.checkLink(link, what);
  const leads = linkOperation(client, url);
  if (leads?.name === operation.name) return url;
  throw new ServiceError(
    'E_REQUEST_SHAPE',
    leads === undefined
      ? `${what} is not a link of ${operation.name}: its path is no operation's of the table`
      : `${what} is a link of ${leads.name} (${leads.method} ${leads.paths[0]!}), not of ${operation.name}`,
  );
}
