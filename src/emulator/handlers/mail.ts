/**
 * Mail and calendar: message change tracking (delta rounds with opaque, tamper-evident links), the message
 * writes that feed it, event forwarding and permanent deletion through every path form.
 */
import type { Handler, HandlerContext, HandlerResult } from '../context.js';
import { badRequest, notFound, ServiceFault } from '../faults.js';
import { applySelect, parseCount, parseExpand, parseSelect } from '../odata.js';
import type { Json, JsonRecord } from '../store.js';
import { accepted, addressedUser, collection, entity, list, noContent, truncate } from './common.js';

/** What a message POST or PATCH may set besides subject, body and isRead, kept as sent and answered when set. */
const MESSAGE_PARTS = [
  'toRecipients',
  'ccRecipients',
  'bccRecipients',
  'replyTo',
  'from',
  'sender',
  'importance',
  'inferenceClassification',
  'categories',
  'isReadReceiptRequested',
  'isDeliveryReceiptRequested',
];
const MESSAGE_FIELDS = [
  'id',
  'receivedDateTime',
  'sentDateTime',
  'hasAttachments',
  'internetMessageId',
  'subject',
  'body',
  'isRead',
  'parentFolderId',
  ...MESSAGE_PARTS,
];
const MESSAGE_TYPE = 'vendor.graph.message';
const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 1000;
const CHANGE_TYPES = ['created', 'updated', 'deleted'] as const;

function folderOf(user: JsonRecord, folderId: string): JsonRecord {
  const wanted = folderId.toLowerCase();
  const folder = list(user, 'mailFolders').find(
    (f) => f.id === folderId || (typeof f.wellKnownName === 'string' && f.wellKnownName.toLowerCase() === wanted),
  );
  if (folder === undefined)
    throw new ServiceFault(404, 'ErrorItemNotFound', 'The specified folder could not be found in the store.');
  return folder;
}

/** The next value of the mail change counter (each changed message gets its own). */
function nextChangeSeq(context: HandlerContext): number {
  const current = context.tx.get('meta', 'mailChangeSeq');
  const next = (typeof current?.value === 'number' ? current.value : 0) + 1;
  context.tx.put('meta', 'mailChangeSeq', { value: next });
  return next;
}

function currentChangeSeq(context: HandlerContext): number {
  const current = context.store.get('meta', 'mailChangeSeq');
  return typeof current?.value === 'number' ? current.value : 0;
}

function messageView(message: JsonRecord): JsonRecord {
  const view: Record<string, Json> = {
    '@odata.type': `#${MESSAGE_TYPE}`,
    '@odata.etag': `W/"${String(message.changeSeq)}"`,
  };
  for (const field of MESSAGE_FIELDS) {
    if (field === 'parentFolderId') view.parentFolderId = message.folderId ?? null;
    else if (message[field] !== undefined) view[field] = message[field];
  }
  return view;
}

// Delta

interface DeltaState {
  readonly user: string;
  readonly folder: string;
  readonly select: readonly string[] | null;
  readonly expand: readonly string[];
  readonly changeType: string | null;
  readonly filter: { readonly op: 'ge' | 'gt'; readonly value: string } | null;
  readonly orderDesc: boolean;
  readonly top: number | null;
  /** `Prefer: odata.maxpagesize` of the request that made the link: later pages keep it (spec: options go in links). */
  readonly maxPageSize?: number | null;
  /** Changes after this seq belong to the round; 0 for the first (full) round. */
  readonly since: number;
  /** Changes up to this seq belong to the round (fixed when the round starts). */
  readonly upTo: number;
  /** The sort key of the last item served in the round. */
  readonly after: readonly (string | number)[] | null;
}

function sealState(context: HandlerContext, state: DeltaState): string {
  return context.links.seal(state as unknown as JsonRecord);
}

function openState(context: HandlerContext, token: string, user: string, folder: string): DeltaState {
  const payload = context.links.open(token) as unknown as DeltaState | undefined;
  if (payload === undefined || payload.user !== user || payload.folder !== folder)
    // The service's code for a sync state it does not know (expired, or never its own): clients start over.
    throw new ServiceFault(
      400,
      'syncStateNotFound',
      'The delta or skip token is not valid for this folder; start a new round without a token.',
    );
  return payload;
}

function parseFilter(value: string | undefined): DeltaState['filter'] {
  if (value === undefined) return null;
  const match = /^\s*receivedDateTime\s+(ge|gt)\s+'?([0-9T:.Z+-]+)'?\s*$/i.exec(value);
  if (match === null || Number.isNaN(Date.parse(match[2]!)))
    throw badRequest(
      `Unsupported $filter '${truncate(value, 80)}': message delta supports only "receivedDateTime ge <date-time>" or "receivedDateTime gt <date-time>".`,
    );
  return { op: match[1]!.toLowerCase() as 'ge' | 'gt', value: new Date(match[2]!).toISOString() };
}

function firstRoundState(context: HandlerContext, user: string, folder: string): DeltaState {
  const query = context.query;
  const orderby = query.get('$orderby');
  if (orderby !== undefined && !/^\s*receivedDateTime\s+desc\s*$/i.test(orderby))
    throw badRequest(
      `Unsupported $orderby '${truncate(orderby, 80)}': message delta supports only "receivedDateTime desc".`,
    );
  const changeType = query.get('changeType');
  if (changeType !== undefined && !(CHANGE_TYPES as readonly string[]).includes(changeType))
    throw badRequest(`Invalid changeType '${truncate(changeType, 40)}': expected created, updated or deleted.`);
  const top = parseCount('$top', query.get('$top'));
  if (top === 0) throw badRequest('$top must be at least 1.');
  return {
    user,
    folder,
    select: parseSelect(query.get('$select'), MESSAGE_FIELDS, MESSAGE_TYPE) ?? null,
    expand: parseExpand(query.get('$expand'), { attachments: {} }, MESSAGE_TYPE).map((item) => item.name),
    changeType: changeType ?? null,
    filter: parseFilter(query.get('$filter')),
    orderDesc: orderby !== undefined,
    top: top ?? null,
    since: 0,
    upTo: currentChangeSeq(context),
    after: null,
  };
}

/** A sort key: ordered items by time (newest first), then removals; otherwise by change sequence. */
function sortKey(state: DeltaState, item: JsonRecord, removed: boolean): (string | number)[] {
  const seq = Number(removed ? item.seq : item.changeSeq);
  if (!state.orderDesc) return [seq, String(item.id)];
  return removed ? [1, seq, String(item.id)] : [0, -Date.parse(String(item.receivedDateTime)), String(item.id)];
}

function compareKeys(a: readonly (string | number)[], b: readonly (string | number)[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

/** The page size: this request's `Prefer: odata.maxpagesize`, else the one the link carries, capped by `$top`. */
function pageSize(
  context: HandlerContext,
  state: DeltaState,
): { size: number; asked: number | null; applied?: string } {
  const prefer = context.header('prefer');
  const match = prefer === undefined ? null : /(?:^|[,;\s])odata\.maxpagesize\s*=\s*"?(\d{1,10})"?/i.exec(prefer);
  const asked = match !== null ? Math.min(Math.max(Number(match[1]), 1), MAX_PAGE_SIZE) : (state.maxPageSize ?? null);
  if (asked === null) return { size: Math.min(state.top ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE), asked };
  return {
    size: state.top === null ? asked : Math.min(asked, state.top),
    asked,
    applied: `odata.maxpagesize=${asked}`,
  };
}

export const messageDelta: Handler = (context) => {
  const user = addressedUser(context);
  const folder = folderOf(user, context.params.folder!);
  const userId = String(user.id);
  const folderId = String(folder.id);
  const skip = context.query.get('$skiptoken');
  const delta = context.query.get('$deltatoken');
  let state: DeltaState;
  if (skip !== undefined || delta !== undefined) {
    if (context.query.size > 1)
      throw badRequest(
        'Query options other than $skiptoken and $deltatoken belong to the first request of a round: use the returned link unchanged.',
      );
    const opened = openState(context, (skip ?? delta)!, userId, folderId);
    // A delta token starts a new round over what changed since the last one.
    state =
      delta !== undefined ? { ...opened, since: opened.upTo, upTo: currentChangeSeq(context), after: null } : opened;
  } else state = firstRoundState(context, userId, folderId);

  const parent = `${userId}/${folderId}`;
  const threshold = state.filter === null ? undefined : Date.parse(state.filter.value);
  const candidates: { key: (string | number)[]; item: JsonRecord }[] = [];
  const want = (kind: (typeof CHANGE_TYPES)[number]): boolean => state.changeType === null || state.changeType === kind;
  for (const message of context.store.childrenOf('messages', parent)) {
    const seq = Number(message.changeSeq);
    if (seq <= state.since || seq > state.upTo) continue;
    const created = state.since === 0 || Number(message.createdSeq) > state.since;
    if (!want(created ? 'created' : 'updated')) continue;
    if (threshold !== undefined) {
      const received = Date.parse(String(message.receivedDateTime));
      if (state.filter!.op === 'ge' ? received < threshold : received <= threshold) continue;
    }
    candidates.push({ key: sortKey(state, message, false), item: message });
  }
  if (state.since > 0 && want('deleted')) {
    for (const removed of context.store.childrenOf('removedMessages', parent)) {
      const seq = Number(removed.seq);
      if (seq > state.since && seq <= state.upTo)
        candidates.push({ key: sortKey(state, removed, true), item: removed });
    }
  }
  const remaining = candidates
    .filter((candidate) => state.after === null || compareKeys(candidate.key, state.after) > 0)
    .sort((a, b) => compareKeys(a.key, b.key));
  const { size, asked, applied } = pageSize(context, state);
  const page = remaining.slice(0, size);
  const value = page.map(({ item }) =>
    item.seq !== undefined
      ? { '@odata.type': `#${MESSAGE_TYPE}`, id: item.id ?? null, '@removed': { reason: 'deleted' } }
      : withExpand(applySelect(messageView(item), state.select ?? undefined), item, state.expand),
  );
  const base = `${context.baseUrl}/v1.0/${context.params.user === undefined ? 'me' : `users('${encodeURIComponent(userId)}')`}/mailFolders('${encodeURIComponent(folderId)}')/messages/delta`;
  const body: Record<string, Json> = {
    '@odata.context': `${context.baseUrl}/v1.0/$metadata#Collection(message)`,
  };
  if (remaining.length > page.length) {
    const next: DeltaState = { ...state, maxPageSize: asked, after: page[page.length - 1]!.key };
    body['@odata.nextLink'] = `${base}?$skiptoken=${sealState(context, next)}`;
  } else {
    body['@odata.deltaLink'] =
      `${base}?$deltatoken=${sealState(context, { ...state, maxPageSize: asked, after: null })}`;
  }
  body.value = value;
  const result: HandlerResult = {
    status: 200,
    body,
    headers: applied === undefined ? {} : { 'Preference-Applied': applied },
  };
  return result;
};

function withExpand(view: JsonRecord, message: JsonRecord, expand: readonly string[]): JsonRecord {
  if (!expand.includes('attachments')) return view;
  return { ...view, attachments: (message.attachments ?? []) as Json };
}

// Message writes

function newMessageId(context: HandlerContext): string {
  return `AAMk${Buffer.from(context.newId().replaceAll('-', ''), 'hex').toString('base64url')}`;
}

function userMessage(context: HandlerContext, user: JsonRecord): JsonRecord {
  const message = context.tx.get('messages', context.params.message!);
  if (message === undefined || message.userId !== user.id)
    throw new ServiceFault(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
  return message;
}

function tombstone(context: HandlerContext, message: JsonRecord, seq: number): void {
  const key = `${String(message.userId)}/${String(message.folderId)}/${String(message.id)}`;
  context.tx.put('removedMessages', key, {
    id: message.id ?? null,
    userId: message.userId ?? null,
    folderId: message.folderId ?? null,
    seq,
  });
}

export const getMessage: Handler = (context) => {
  const user = addressedUser(context);
  const message = userMessage(context, user);
  const select = parseSelect(context.query.get('$select'), MESSAGE_FIELDS, MESSAGE_TYPE);
  return entity(context, `users('${String(user.id)}')/messages/$entity`, applySelect(messageView(message), select));
};

/** The default and largest page of a message list (the service's own are 10 and 1000). */
const LIST_PAGE = 10;

function pageNumber(value: string | undefined, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d{1,10}$/.test(value) || Number(value) < min || Number(value) > max)
    throw badRequest(
      `Invalid value '${truncate(value, 40)}' for query option ${name}: a whole number from ${min} to ${max}.`,
    );
  return Number(value);
}

export const listMessages: Handler = (context) => {
  const user = addressedUser(context);
  const folder = context.params.folder === undefined ? undefined : folderOf(user, context.params.folder);
  const select = parseSelect(context.query.get('$select'), MESSAGE_FIELDS, MESSAGE_TYPE);
  const top = pageNumber(context.query.get('$top'), '$top', 1, MAX_PAGE_SIZE, LIST_PAGE);
  const skip = pageNumber(context.query.get('$skip'), '$skip', 0, 1_000_000_000, 0);
  const messages = [...context.store.all('messages')]
    .filter((m) => m.userId === user.id && (folder === undefined || m.folderId === folder.id))
    // Newest first, as the service lists them; the id breaks ties so pages never overlap.
    .sort((a, b) =>
      String(b.receivedDateTime) === String(a.receivedDateTime)
        ? String(a.id).localeCompare(String(b.id))
        : String(b.receivedDateTime).localeCompare(String(a.receivedDateTime)),
    );
  const page = messages.slice(skip, skip + top).map((m) => applySelect(messageView(m), select));
  const where = folder === undefined ? 'messages' : `mailFolders('${String(folder.id)}')/messages`;
  const result = collection(context, `users('${String(user.id)}')/${where}`, page);
  if (skip + top < messages.length) {
    const path = `${context.template.replace('{user}', encodeURIComponent(context.params.user ?? '')).replace('{folder}', encodeURIComponent(context.params.folder ?? ''))}`;
    // Option names as the service writes them in a nextLink ($skip, not %24skip).
    const selected = context.query.get('$select');
    const query = `${selected === undefined ? '' : `$select=${encodeURIComponent(selected)}&`}$top=${top}&$skip=${skip + top}`;
    (result.body as Record<string, Json>)['@odata.nextLink'] = `${context.baseUrl}/v1.0${path}?${query}`;
  }
  return result;
};

export const createMessage: Handler = (context) => {
  const user = addressedUser(context);
  const folder = folderOf(user, context.params.folder!);
  const body = context.body as JsonRecord;
  const seq = nextChangeSeq(context);
  const id = newMessageId(context);
  const message: JsonRecord = {
    id,
    userId: String(user.id),
    folderId: String(folder.id),
    subject: body.subject ?? '',
    body: body.body ?? { contentType: 'text', content: '' },
    receivedDateTime: body.receivedDateTime ?? context.now,
    sentDateTime: body.sentDateTime ?? body.receivedDateTime ?? context.now,
    hasAttachments: false,
    internetMessageId: body.internetMessageId ?? `<${context.newId()}@bomwright.invalid>`,
    isRead: body.isRead ?? false,
    ...pick(body, MESSAGE_PARTS),
    createdSeq: seq,
    changeSeq: seq,
  };
  context.tx.put('messages', id, message);
  return entity(context, `users('${String(user.id)}')/messages/$entity`, messageView(message), 201);
};

export const updateMessage: Handler = (context) => {
  const user = addressedUser(context);
  const message = userMessage(context, user);
  const body = context.body as JsonRecord;
  const updated: JsonRecord = {
    ...message,
    ...pick(body, ['subject', 'body', 'isRead', ...MESSAGE_PARTS]),
    changeSeq: nextChangeSeq(context),
  };
  context.tx.put('messages', String(message.id), updated);
  return entity(context, `users('${String(user.id)}')/messages/$entity`, messageView(updated));
};

export const moveMessage: Handler = (context) => {
  const user = addressedUser(context);
  const message = userMessage(context, user);
  const destination = folderOf(user, String((context.body as JsonRecord).destinationId));
  tombstone(context, message, nextChangeSeq(context));
  context.tx.remove('messages', String(message.id));
  const seq = nextChangeSeq(context);
  const id = newMessageId(context);
  const moved: JsonRecord = { ...message, id, folderId: String(destination.id), createdSeq: seq, changeSeq: seq };
  context.tx.put('messages', id, moved);
  return entity(context, `users('${String(user.id)}')/messages/$entity`, messageView(moved), 201);
};

export const deleteMessage: Handler = (context) => {
  const user = addressedUser(context);
  const message = userMessage(context, user);
  tombstone(context, message, nextChangeSeq(context));
  context.tx.remove('messages', String(message.id));
  return noContent;
};

function pick(record: JsonRecord, keys: readonly string[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const key of keys) if (record[key] !== undefined) out[key] = record[key];
  return out;
}

// Events

interface EventOwner {
  readonly key: string;
  readonly record: JsonRecord;
  readonly isGroup: boolean;
}

function eventOwner(context: HandlerContext): EventOwner {
  if (context.params.group !== undefined) {
    const group = context.tx.get('groups', context.params.group);
    if (group === undefined) throw notFound('Group', context.params.group);
    return { key: `groups/${String(group.id)}`, record: group, isGroup: true };
  }
  const user = addressedUser(context);
  return { key: `users/${String(user.id)}`, record: user, isGroup: false };
}

const eventNotFound = (): ServiceFault =>
  new ServiceFault(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');

function defaultCalendarId(owner: EventOwner): string | undefined {
  if (owner.isGroup) return typeof owner.record.calendarId === 'string' ? owner.record.calendarId : undefined;
  const calendars = list(owner.record, 'calendars');
  return String((calendars.find((c) => c.isDefault === true) ?? calendars[0])?.id ?? '');
}

/** The event a forward path names, checked against every segment of the path form. */
function forwardedEvent(context: HandlerContext, owner: EventOwner): JsonRecord {
  const event = context.tx.get('events', context.params.event!);
  if (event === undefined || event.owner !== owner.key) throw eventNotFound();
  const { calendar, calendarGroup } = context.params;
  if (calendarGroup !== undefined) {
    const group = list(owner.record, 'calendarGroups').find((g) => g.id === calendarGroup);
    if (group === undefined || !list(group, 'calendarIds').includes(calendar as never)) throw eventNotFound();
  }
  if (calendar !== undefined) {
    if (!list(owner.record, 'calendars').some((c) => c.id === calendar) || event.calendarId !== calendar)
      throw eventNotFound();
  } else if (context.template.includes('/calendar/events/') && event.calendarId !== defaultCalendarId(owner))
    throw eventNotFound();
  return event;
}

function recipients(body: JsonRecord): { name: Json; address: Json }[] {
  const raw = (body.ToRecipients ?? body.toRecipients) as readonly JsonRecord[];
  return raw.map((recipient) => {
    const email = (recipient.EmailAddress ?? recipient.emailAddress) as JsonRecord;
    return { name: email.Name ?? email.name ?? null, address: email.Address ?? email.address ?? null };
  });
}

export const forwardEvent: Handler = (context) => {
  const owner = eventOwner(context);
  const event = forwardedEvent(context, owner);
  const body = context.body as JsonRecord;
  const to = recipients(body);
  const forward: JsonRecord = {
    by: owner.key,
    to: to.map((r) => ({ emailAddress: r })),
    comment: body.Comment ?? body.comment ?? '',
    dateTime: context.now,
  };
  context.tx.put('events', String(event.id), { ...event, forwards: [...list(event, 'forwards'), forward] });
  // Forward rule: from a work or school mailbox, the organizer's copy gains the recipients and a notification.
  const personal = context.principal.kind === 'user' && context.principal.personalAccount;
  const organizerCopyId = event.organizerEventId;
  if (!personal && typeof organizerCopyId === 'string' && organizerCopyId !== event.id) {
    const organizerCopy = context.tx.get('events', organizerCopyId);
    if (organizerCopy !== undefined) {
      const known = new Set(
        list(organizerCopy, 'attendees').map((a) =>
          String((a.emailAddress as JsonRecord | undefined)?.address).toLowerCase(),
        ),
      );
      const added = to
        .filter((r) => !known.has(String(r.address).toLowerCase()))
        .map((r) => ({ emailAddress: r, type: 'optional', status: { response: 'none' } }));
      context.tx.put('events', organizerCopyId, {
        ...organizerCopy,
        attendees: [...list(organizerCopy, 'attendees'), ...added],
        notifications: [...list(organizerCopy, 'notifications'), { kind: 'forwarded', ...forward }],
      });
    }
  }
  return accepted;
};

const EVENT_FIELDS = [
  'id',
  'subject',
  'body',
  'start',
  'end',
  'organizer',
  'attendees',
  'type',
  'seriesMasterId',
  'iCalUId',
];

export const getEvent: Handler = (context) => {
  const owner = eventOwner(context);
  const event = context.tx.get('events', context.params.event!);
  if (event === undefined || event.owner !== owner.key) throw eventNotFound();
  const select = parseSelect(context.query.get('$select'), EVENT_FIELDS, 'vendor.graph.event');
  const view: Record<string, Json> = {};
  for (const field of EVENT_FIELDS) if (event[field] !== undefined) view[field] = event[field];
  return entity(context, 'events/$entity', applySelect(view, select));
};

/** The event a permanentDelete path names. */
function eventToDelete(context: HandlerContext): JsonRecord {
  const { template, params } = context;
  if (params.message === undefined) {
    const owner = eventOwner(context);
    const event = context.tx.get('events', params.event!);
    if (event === undefined || event.owner !== owner.key) throw eventNotFound();
    return event;
  }
  const user = addressedUser(context);
  const message = context.tx.get('messages', params.message);
  if (message === undefined || message.userId !== user.id || typeof message.eventId !== 'string') throw eventNotFound();
  const messageEvent = context.tx.get('events', message.eventId);
  if (messageEvent === undefined) throw eventNotFound();
  if (params.event === undefined) return messageEvent;
  const event = context.tx.get('events', params.event);
  if (event === undefined) throw eventNotFound();
  const relatesByCalendar = event.calendarId === messageEvent.calendarId && event.owner === messageEvent.owner;
  const ok = template.includes('/event/instances/')
    ? event.seriesMasterId === messageEvent.id
    : template.includes('/event/exceptionOccurrences/')
      ? event.seriesMasterId === messageEvent.id && event.type === 'exception'
      : relatesByCalendar;
  if (!ok) throw eventNotFound();
  return event;
}

export const permanentDeleteEvent: Handler = (context) => {
  const event = eventToDelete(context);
  context.tx.remove('events', String(event.id));
  // Removing a series master takes its occurrences and exceptions with it.
  if (event.type === 'seriesMaster')
    for (const other of context.store.childrenOf('events', String(event.owner)))
      if (other.seriesMasterId === event.id) context.tx.remove('events', String(other.id));
  return noContent;
};
