/**
 * Seeds: checked against `schema/emulator-seed.schema.json` and for references between records (a message's
 * user and folder, a team's group...), then turned into store changes. A bad seed is refused with every problem
 * found, each with its JSON pointer.
 */
import { readFileSync } from 'node:fs';
import type { ErrorObject } from 'ajv';
import { BomwrightError } from '../errors.js';
import { createFormatsAjv } from '../service/formats-ajv.js';
import { COLLECTIONS, type Change, type CollectionName, type JsonRecord } from './store.js';

const SCHEMA_URL = new URL('../../schema/emulator-seed.schema.json', import.meta.url);
/** Shown in messages: at most this many problems, then a count of the rest. */
const MAX_REPORTED = 8;

export type Seed = Readonly<Record<string, unknown>> & {
  readonly tenant: {
    readonly id: string;
    readonly defaultUser: string;
    readonly displayName?: string;
    readonly domain?: string;
  };
};

let validator: ((data: unknown) => boolean) & { errors?: ErrorObject[] | null } = undefined as never;

function schemaValidator(): typeof validator {
  if (validator === undefined) {
    validator = createFormatsAjv({ allErrors: true }).compile(JSON.parse(readFileSync(SCHEMA_URL, 'utf8')) as object);
  }
  return validator;
}

function records(seed: Readonly<Record<string, unknown>>, name: string): JsonRecord[] {
  const value = seed[name];
  return Array.isArray(value) ? (value as JsonRecord[]) : [];
}

/** Problems with references between records, as `pointer: message`. */
function referenceProblems(seed: Readonly<Record<string, unknown>>): string[] {
  const problems: string[] = [];
  const ids = new Map<string, Set<string>>();
  for (const name of COLLECTIONS) {
    const seen = new Set<string>();
    records(seed, name).forEach((record, i) => {
      const id = String(record.id);
      if (seen.has(id)) problems.push(`/${name}/${i}/id: duplicate id '${id}'`);
      seen.add(id);
    });
    ids.set(name, seen);
  }
  const has = (collection: CollectionName, id: unknown): boolean => ids.get(collection)!.has(String(id));
  const users = new Map(records(seed, 'users').map((user) => [String(user.id), user]));
  const upns = new Set<string>();
  records(seed, 'users').forEach((user, i) => {
    const upn = String(user.userPrincipalName).toLowerCase();
    if (upns.has(upn)) problems.push(`/users/${i}/userPrincipalName: duplicate '${upn}'`);
    upns.add(upn);
  });
  const tenant = seed.tenant as { defaultUser?: unknown } | undefined;
  if (typeof tenant?.defaultUser === 'string' && !upns.has(tenant.defaultUser.toLowerCase()))
    problems.push(`/tenant/defaultUser: no user has the user principal name '${tenant.defaultUser}'`);
  const folderIds = (userId: unknown): string[] =>
    ((users.get(String(userId))?.mailFolders ?? []) as JsonRecord[]).map((folder) => String(folder.id));
  records(seed, 'messages').forEach((message, i) => {
    if (!users.has(String(message.userId))) problems.push(`/messages/${i}/userId: no user '${String(message.userId)}'`);
    else if (!folderIds(message.userId).includes(String(message.folderId)))
      problems.push(
        `/messages/${i}/folderId: user '${String(message.userId)}' has no mail folder '${String(message.folderId)}'`,
      );
    if (message.eventId !== undefined && !has('events', message.eventId))
      problems.push(`/messages/${i}/eventId: no event '${String(message.eventId)}'`);
  });
  records(seed, 'threads').forEach((thread, i) => {
    if (!has('groups', thread.groupId)) problems.push(`/threads/${i}/groupId: no group '${String(thread.groupId)}'`);
  });
  records(seed, 'teams').forEach((team, i) => {
    if (!has('groups', team.id))
      problems.push(`/teams/${i}/id: a team shares its group's id; no group '${String(team.id)}'`);
    ((team.installedApps ?? []) as string[]).forEach((app, j) => {
      if (!has('teamsApps', app)) problems.push(`/teams/${i}/installedApps/${j}: no Teams app '${app}'`);
    });
  });
  records(seed, 'events').forEach((event, i) => {
    const [kind, ownerId] = String(event.owner).split('/', 2) as [string, string];
    if (kind === 'users' && !users.has(ownerId)) problems.push(`/events/${i}/owner: no user '${ownerId}'`);
    if (kind === 'groups' && !has('groups', ownerId)) problems.push(`/events/${i}/owner: no group '${ownerId}'`);
    for (const member of ['seriesMasterId', 'organizerEventId'] as const)
      if (event[member] !== undefined && !has('events', event[member]))
        problems.push(`/events/${i}/${member}: no event '${String(event[member])}'`);
  });
  records(seed, 'workbooks').forEach((book, i) => {
    if (!users.has(String(book.ownerId))) problems.push(`/workbooks/${i}/ownerId: no user '${String(book.ownerId)}'`);
  });
  for (const name of ['assignmentPolicies', 'assignmentRequests'] as const)
    records(seed, name).forEach((record, i) => {
      if (!has('accessPackages', record.accessPackageId))
        problems.push(`/${name}/${i}/accessPackageId: no access package '${String(record.accessPackageId)}'`);
    });
  records(seed, 'bundles').forEach((bundle, i) => {
    ((bundle.children ?? []) as string[]).forEach((child, j) => {
      if (!has('driveItems', child)) problems.push(`/bundles/${i}/children/${j}: no drive item '${child}'`);
    });
  });
  records(seed, 'plannerTasks').forEach((task, i) => {
    if (!has('groups', task.groupId)) problems.push(`/plannerTasks/${i}/groupId: no group '${String(task.groupId)}'`);
  });
  return problems;
}

/** Every problem of a seed (schema first, then references); empty when it can be loaded. */
export function seedProblems(seed: unknown): string[] {
  const validate = schemaValidator();
  if (!validate(seed))
    return (validate.errors ?? []).map((error) => {
      const extra =
        error.keyword === 'additionalProperties'
          ? ` '${String((error.params as { additionalProperty: string }).additionalProperty)}'`
          : '';
      return `${error.instancePath || '/'}: ${error.message ?? 'is not valid'}${extra}`;
    });
  return referenceProblems(seed as Record<string, unknown>);
}

/** Parses and checks a seed file's text; throws E_SEED naming the file and the problems, on one line. */
export function parseSeed(text: string, source: string): Seed {
  let seed: unknown;
  try {
    seed = JSON.parse(text);
  } catch (error) {
    throw new BomwrightError('E_SEED', `${source} is not JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  const problems = seedProblems(seed);
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_REPORTED).join('; ');
    const more = problems.length > MAX_REPORTED ? `; and ${problems.length - MAX_REPORTED} more` : '';
    throw new BomwrightError('E_SEED', `${source} is not a valid seed: ${shown}${more}`);
  }
  return seed as Seed;
}

/** The store changes that create a seed's tenant. */
export function seedChanges(seed: Seed): Change[] {
  const changes: Change[] = [['meta', 'tenant', { ...seed.tenant }]];
  let seq = 0;
  for (const name of COLLECTIONS) {
    if (name === 'meta') continue;
    for (const record of records(seed, name)) {
      if (name === 'messages') {
        seq++;
        changes.push([name, String(record.id), { ...record, createdSeq: seq, changeSeq: seq }]);
      } else changes.push([name, String(record.id), record]);
    }
  }
  changes.push(['meta', 'mailChangeSeq', { value: seq }]);
  return changes;
}
