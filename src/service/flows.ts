/**
 * The service's long or large operations, done right once: message delta rounds that resume from a saved link
 * (and restart when the service no longer knows it), team clone polled to the end, bulk member removal split into
 * requests of at most 20.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseRetryAfter, type ServiceClient } from './client.js';
import { isServiceError, ServiceError } from './errors.js';
import { checkSavedLink, invoke } from './invoke.js';
import { operationNamed } from './operations.js';
import { LinkTrail } from './links.js';
import { resourceProblem } from './shape-check.js';
import { inSpecNames } from './namespace.js';

/** Where the delta link of a folder is kept between runs (a file, a database row...). */
export interface DeltaLinkStore {
  load(): string | undefined | Promise<string | undefined>;
  save(link: string): void | Promise<void>;
}

export interface SyncOptions {
  /** The user (id or user principal name); the signed-in user when absent. */
  user?: string;
  folder: string;
  /** First round only: the options are kept in the links the service returns. */
  select?: readonly string[];
  pageSize?: number;
  store: DeltaLinkStore;
  signal?: AbortSignal;
  /** The most pages one round reads before E_LINK_LOOP (default 100,000); a repeated link ends it sooner. */
  maxPages?: number;
}

export interface SyncResult {
  /** Created or updated messages, as the service returned them. */
  changed: Record<string, unknown>[];
  /** Ids of messages deleted or moved out of the folder. */
  removed: string[];
  /** True when the saved link was refused (expired or unknown) and a full round was run instead. */
  restarted: boolean;
  /** Why the saved link was refused, when it was. */
  restartReason?: string;
  pages: number;
}

const RESYNC_CODES = new Set(['syncStateNotFound', 'resyncRequired', 'syncStateInvalid']);

function mustResync(error: unknown): error is ServiceError {
  return isServiceError(error) && (error.status === 410 || RESYNC_CODES.has(error.serviceCode ?? ''));
}

/** One delta round over a folder, resumed from the saved link when there is one; the new link is saved last. */
export async function syncMessages(client: ServiceClient, options: SyncOptions): Promise<SyncResult> {
  const prefer: Record<string, string> =
    options.pageSize === undefined ? {} : { Prefer: `odata.maxpagesize=${options.pageSize}` };
  const saved = await options.store.load();
  let restarted = false;
  let restartReason: string | undefined;
  const firstRound = () =>
    invoke(client, 'messageDelta', {
      params: { user: options.user, folder: options.folder },
      query: options.select === undefined ? undefined : { $select: options.select.join(',') },
      headers: prefer,
      signal: options.signal,
    });
  let response;
  if (saved !== undefined) {
    // A link read back from the store is held to the same rule as one from the service: checked before it is sent.
    checkSavedLink(client, saved, operationNamed('messageDelta')!, 'the saved delta link');
    try {
      response = await client.call({
        method: 'GET',
        path: saved,
        linkFrom: 'the saved delta link',
        headers: prefer,
        signal: options.signal,
      });
    } catch (error) {
      if (!mustResync(error)) throw error;
      restarted = true;
      // The message already starts with the service's code.
      restartReason = error.message;
      response = await firstRound();
    }
  } else response = await firstRound();
  const result: SyncResult = { changed: [], removed: [], restarted, restartReason, pages: 0 };
  const trail = new LinkTrail('the delta round', options.maxPages, response.url);
  for (;;) {
    result.pages++;
    const body = response.body as { value?: unknown; '@odata.nextLink'?: unknown; '@odata.deltaLink'?: unknown };
    if (!Array.isArray(body?.value)) throw new ServiceError('E_RESPONSE_SHAPE', 'A delta page has no "value" array');
    for (const read of body.value as unknown[]) {
      const item = inSpecNames(read) as Record<string, unknown>;
      const problem = resourceProblem('messageChange', item);
      if (problem !== undefined) throw new ServiceError('E_RESPONSE_SHAPE', `A delta item: ${problem}`);
      if (item['@removed'] !== undefined) result.removed.push(item.id as string);
      else result.changed.push(item);
    }
    const next = body['@odata.nextLink'];
    const delta = body['@odata.deltaLink'];
    if (typeof delta === 'string') {
      // Not kept unless the next run could follow it.
      client.checkLink(delta, '@odata.deltaLink');
      await options.store.save(delta);
      return result;
    }
    if (typeof next !== 'string')
      throw new ServiceError('E_RESPONSE_SHAPE', 'A delta page has neither a nextLink nor a deltaLink');
    trail.follow(client.checkLink(next, '@odata.nextLink').href);
    response = await client.call({
      method: 'GET',
      path: next,
      linkFrom: '@odata.nextLink',
      headers: prefer,
      signal: options.signal,
    });
  }
}

export interface CloneOptions {
  /** Between polls, unless the operation's answer carries Retry-After (default 5 s, as the spec recommends). */
  intervalMs?: number;
  /** Give up after this long (default 10 minutes; E_TIMEOUT), with a last poll at the deadline. */
  deadlineMs?: number;
  /** Give up after this many polls (default 1,000; E_RETRY_EXHAUSTED), so a Retry-After of 0 cannot make it spin. */
  maxPolls?: number;
  signal?: AbortSignal;
  /** Called after each poll that found the clone still running, before the wait (a progress line, a log). */
  onPoll?: (poll: ClonePoll) => void;
}

/** One poll of a clone still running: how many so far, the time since polling began, the wait until the next. */
export interface ClonePoll {
  polls: number;
  elapsedMs: number;
  nextPollMs: number;
}

export interface CloneResult {
  status: 'succeeded' | 'failed';
  /** The new team's id when it succeeded. */
  teamId?: string;
  error?: { code?: string; message?: string };
  operationUrl: string;
  polls: number;
  /** The operation as the service last answered it (checked against its shape). */
  operation: Record<string, unknown>;
}

/**
 * The clone's operation URL from its Location: the service gives `/teams({id})/operations({opId})`, relative and
 * without the version, so it is resolved under `{base_url}/v1.0`.
 */
export function operationUrl(baseUrl: string, location: string): string {
  if (/^https?:\/\//i.test(location)) return location;
  const path = location.startsWith('/v1.0/') ? location.slice('/v1.0'.length) : location;
  return `${baseUrl}/v1.0${path.startsWith('/') ? '' : '/'}${path}`;
}

/** A clone the service accepted: its operation URL, polled by `wait()` until it is no longer running. */
export interface TeamCloneOperation {
  readonly operationUrl: string;
  wait(options?: CloneOptions): Promise<CloneResult>;
}

/** Asks the service to clone a team; the returned handle polls the operation. */
export async function startTeamClone(
  client: ServiceClient,
  team: string,
  body: Record<string, unknown>,
  options: { signal?: AbortSignal } = {},
): Promise<TeamCloneOperation> {
  const accepted = await invoke(client, 'cloneTeam', { params: { team }, body, signal: options.signal });
  const location = accepted.headers.location;
  if (location === undefined)
    throw new ServiceError('E_RESPONSE_SHAPE', 'The clone was accepted without a Location to poll');
  const url = client.checkLink(operationUrl(client.baseUrl, location), "the clone's Location").href;
  return { operationUrl: url, wait: (waitOptions) => pollTeamClone(client, url, waitOptions) };
}

/**
 * Polls a clone's operation URL (from the Location of an accepted clone, checked against the origin rule before
 * anything is sent) until it is no longer running: about 5 s apart, or as each answer's Retry-After says.
 */
export async function waitForTeamClone(
  client: ServiceClient,
  url: string,
  options?: CloneOptions,
): Promise<CloneResult> {
  return pollTeamClone(
    client,
    checkSavedLink(client, url, operationNamed('getTeamOperation')!, "the clone's Location").href,
    options,
  );
}

/** Clones a team and polls its operation until it is no longer running. */
export async function cloneTeam(
  client: ServiceClient,
  team: string,
  body: Record<string, unknown>,
  options: CloneOptions = {},
): Promise<CloneResult> {
  const started = Date.now();
  const operation = await startTeamClone(client, team, body, options);
  const deadlineMs = (options.deadlineMs ?? DEFAULT_CLONE_DEADLINE_MS) - (Date.now() - started);
  return operation.wait({ ...options, deadlineMs: Math.max(0, deadlineMs) });
}

const DEFAULT_CLONE_DEADLINE_MS = 600_000;
const DEFAULT_MAX_POLLS = 1_000;

/** A text from the service for a result the caller may print: without the token. */
function redacted(client: ServiceClient, value: string | null | undefined): string | undefined {
  return value === null || value === undefined ? undefined : client.redact(value);
}

async function pollTeamClone(client: ServiceClient, url: string, options: CloneOptions = {}): Promise<CloneResult> {
  const started = Date.now();
  const interval = options.intervalMs ?? 5_000;
  const deadline = options.deadlineMs ?? DEFAULT_CLONE_DEADLINE_MS;
  const maxPolls = options.maxPolls ?? DEFAULT_MAX_POLLS;
  for (let polls = 1; ; polls++) {
    const response = await client.call({
      method: 'GET',
      path: url,
      linkFrom: "the clone's Location",
      signal: options.signal,
    });
    const problem = resourceProblem('teamsAsyncOperation', response.body);
    if (problem !== undefined)
      throw new ServiceError('E_RESPONSE_SHAPE', `The clone operation: ${problem}`, {
        status: response.status,
        clientRequestId: response.clientRequestId,
      });
    const operation = response.body as {
      status: string;
      targetResourceId?: string | null;
      error?: { code?: string | null; message?: string | null } | null;
    };
    const status = operation.status;
    const last = response.body as Record<string, unknown>;
    if (status === 'succeeded' && typeof operation.targetResourceId === 'string')
      return { status, teamId: operation.targetResourceId, operationUrl: url, polls, operation: last };
    if (status === 'failed')
      return {
        operation: last,
        status,
        error:
          operation.error === null || operation.error === undefined
            ? undefined
            : {
                code: redacted(client, operation.error.code),
                message: redacted(client, operation.error.message),
              },
        operationUrl: url,
        polls,
      };
    if (status !== 'running' && status !== 'notStarted' && status !== 'inProgress')
      throw new ServiceError(
        'E_RESPONSE_SHAPE',
        client.redact(`The clone operation has an unexpected status ${JSON.stringify(status.slice(0, 100))}`),
      );
    if (polls >= maxPolls)
      throw new ServiceError('E_RETRY_EXHAUSTED', `The clone was still running after ${maxPolls} polls`);
    const due = (parseRetryAfter(response.headers['retry-after']) ?? interval / 1000) * 1000;
    const elapsedMs = Date.now() - started;
    const left = deadline - elapsedMs;
    if (left <= 0)
      throw new ServiceError('E_TIMEOUT', `The clone was still running after ${deadline} ms (${polls} polls)`);
    // The deadline is the caller's to spend: a next poll due after it is made at the deadline instead, so the
    // answer is the operation's state when the time ran out, not a guess made as soon as the poll was too far off.
    const wait = Math.min(due, left);
    options.onPoll?.({ polls, elapsedMs, nextPollMs: wait });
    try {
      await sleep(wait, undefined, { signal: options.signal });
    } catch {
      throw new ServiceError('E_ABORTED', 'The call was cancelled');
    }
  }
}

export interface MemberResult {
  /** The member as given (id or user principal name). */
  user: string;
  /** The id the service reported, when it reported one. */
  userId?: string;
  /** null when removed. */
  error: { code: string; message: string } | null;
}

/** At most 20 members per request (spec: Limits). */
export const MEMBERS_PER_REQUEST = 20;

/**
 * Removes any number of members: requests of at most 20, `client.concurrency` at once; every member's result in
 * input order (204 means all of a request's members were removed; 207 lists each).
 */
export async function removeTeamMembers(
  client: ServiceClient,
  team: string,
  users: readonly string[],
  options: { signal?: AbortSignal } = {},
): Promise<MemberResult[]> {
  const chunks: string[][] = [];
  for (let i = 0; i < users.length; i += MEMBERS_PER_REQUEST) chunks.push(users.slice(i, i + MEMBERS_PER_REQUEST));
  const results: MemberResult[][] = new Array(chunks.length);
  let nextChunk = 0;
  const worker = async (): Promise<void> => {
    while (nextChunk < chunks.length) {
      const index = nextChunk++;
      const chunk = chunks[index]!;
      const response = await invoke(client, 'removeTeamMembers', {
        params: { team },
        body: {
          values: chunk.map((user) => ({
            '@odata.type': 'vendor.graph.dirUserConversationMember',
            'user@odata.bind': `${client.baseUrl}/v1.0/users('${user.replaceAll("'", "''")}')`,
          })),
        },
        signal: options.signal,
      });
      if (response.status === 204) {
        results[index] = chunk.map((user) => ({ user, error: null }));
        continue;
      }
      const items = (response.body as { value?: unknown } | undefined)?.value;
      if (!Array.isArray(items) || items.length !== chunk.length)
        throw new ServiceError(
          'E_RESPONSE_SHAPE',
          `A 207 answer has ${Array.isArray(items) ? items.length : 'no'} results for ${chunk.length} members`,
        );
      results[index] = chunk.map((user, i) => {
        const item = items[i] as { userId?: unknown; error?: { code?: unknown; message?: unknown } | null };
        const error = item?.error;
        return {
          user,
          ...(typeof item?.userId === 'string' ? { userId: item.userId } : {}),
          error:
            error === null || error === undefined
              ? null
              : {
                  code: client.redact(String(error.code ?? '')),
                  message: client.redact(String(error.message ?? '')),
                },
        };
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(client.concurrency, chunks.length) }, worker));
  return results.flat();
}
