/**
 * The mail and calendar contract in detail: what a message delta page holds (fields, order, links, page size and
 * Preference-Applied at the edges), which options a round keeps and which it refuses (exact code and message),
 * which changes a later round reports, what the message writes answer and change, and how event forward and
 * permanent delete treat each path form.
 */
import { rmSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SEED, SEED_IDS } from '../../src/emulator/index.js';
import { loadState } from '../../src/emulator/journal.js';
import { tempDir } from '../helpers.js';
import { useEmulator, type Body, type Harness, type Reply } from './harness.js';

const U = SEED_IDS.users;
const G = SEED_IDS.groups;
const DELTA = '/me/mailFolders/inbox/messages/delta';
const INBOX = [
  'AAMkAGMsgAdele0001',
  'AAMkAGMsgAdele0002',
  'AAMkAGMsgAdele0003',
  'AAMkAGMsgAdele0004',
  'AAMkAGMsgAdele0005',
];

function expectError(reply: Reply, status: number, code: string, message: string): void {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.body.error.code).toBe(code);
  expect(reply.body.error.message).toBe(message);
}

/** A query string with each value percent-encoded (a `+` in a time zone offset must not turn into a space). */
function query(options: Record<string, string>): string {
  return Object.entries(options)
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('&');
}

/** Follows nextLinks to the end of a round: every page, every item, the deltaLink. */
async function round(
  api: Harness,
  first: string,
  headers: Record<string, string> = {},
): Promise<{ items: Body[]; deltaLink: string; pages: Reply[] }> {
  const pages: Reply[] = [];
  const items: Body[] = [];
  let next: string | undefined = first;
  for (let i = 0; next !== undefined && i < 200; i++) {
    const page = await api.call('GET', next, { headers });
    expect(page.status, page.text).toBe(200);
    pages.push(page);
    items.push(...page.body.value);
    if (page.body['@odata.deltaLink'] !== undefined) {
      expect(page.body['@odata.nextLink']).toBeUndefined();
      return { items, deltaLink: page.body['@odata.deltaLink'], pages };
    }
    next = page.body['@odata.nextLink'];
  }
  throw new Error('the round did not end');
}

const ids = (items: Body[]): string[] => items.map((item) => item.id as string);

describe('message delta: the first round', () => {
  const api = useEmulator();

  it('answers every message of the folder in change order, each with its fields, type, etag and folder', async () => {
    const reply = await api.call('GET', DELTA);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('preference-applied')).toBeNull();
    expect(Object.keys(reply.body)).toEqual(['@odata.context', '@odata.deltaLink', 'value']);
    expect(reply.body['@odata.context']).toBe(`${api.emulator.url}/v1.0/$metadata#Collection(message)`);
    expect(reply.body['@odata.deltaLink']).toMatch(
      new RegExp(
        `^${api.emulator.url}/v1\\.0/me/mailFolders\\('adele-inbox'\\)/messages/delta\\?\\$deltatoken=[\\w-]+\\.[\\w-]+$`,
      ),
    );
    expect(ids(reply.body.value)).toEqual(INBOX);
    expect(reply.body.value[1]).toEqual({
      '@odata.type': '#vendor.graph.message',
      '@odata.etag': 'W/"2"',
      id: 'AAMkAGMsgAdele0002',
      receivedDateTime: '2026-11-02T09:30:00Z',
      sentDateTime: '2026-11-02T09:30:00Z',
      hasAttachments: true,
      internetMessageId: '<AAMkAGMsgAdele0002@contoso.example>',
      subject: 'Signed release manifest',
      body: { contentType: 'text', content: 'Signed release manifest.' },
      isRead: false,
      parentFolderId: 'adele-inbox',
    });
  });

  it('links another user’s folder through users(id), whatever spelling addressed the user and the folder', async () => {
    const reply = await api.call('GET', '/users/megan@contoso.example/mailFolders/INBOX/messages/delta');
    expect(reply.status).toBe(200);
    expect(ids(reply.body.value)).toEqual(['AAMkAGMsgMegan0001']);
    expect(reply.body['@odata.deltaLink']).toMatch(
      new RegExp(
        `^${api.emulator.url}/v1\\.0/users\\('${U.megan}'\\)/mailFolders\\('megan-inbox'\\)/messages/delta\\?\\$deltatoken=`,
      ),
    );
    const archive = await api.call('GET', '/me/mailFolders/adele-archive/messages/delta');
    expect(ids(archive.body.value)).toEqual(['AAMkAGMsgAdele0006']);
  });

  it('answers 404 ErrorItemNotFound for an unknown folder', async () => {
    expectError(
      await api.call('GET', '/me/mailFolders/outbox/messages/delta'),
      404,
      'ErrorItemNotFound',
      'The specified folder could not be found in the store.',
    );
  });

  it('keeps only the selected fields, with id, type and etag', async () => {
    const reply = await api.call('GET', `${DELTA}?$select=subject,isRead`);
    expect(reply.body.value[0]).toEqual({
      '@odata.type': '#vendor.graph.message',
      '@odata.etag': 'W/"1"',
      id: 'AAMkAGMsgAdele0001',
      subject: 'Supplier SBOM for libfoo 2.3',
      isRead: false,
    });
    const folder = await api.call('GET', `${DELTA}?$select=parentFolderId`);
    expect(folder.body.value[4]).toEqual({
      '@odata.type': '#vendor.graph.message',
      '@odata.etag': 'W/"5"',
      id: 'AAMkAGMsgAdele0005',
      parentFolderId: 'adele-inbox',
    });
  });

  it('expands attachments on request only', async () => {
    const expanded = await api.call('GET', `${DELTA}?$expand=attachments&$select=subject`);
    expect(expanded.status, expanded.text).toBe(200);
    for (const item of expanded.body.value) expect(item.attachments).toEqual([]);
    const plain = await api.call('GET', DELTA);
    for (const item of plain.body.value) expect(item).not.toHaveProperty('attachments');
  });

  it('filters on receivedDateTime: ge keeps the instant itself, gt does not; quotes, case and offsets are accepted', async () => {
    const at = async (filter: string): Promise<string[]> => {
      const reply = await api.call('GET', `${DELTA}?${query({ $filter: filter })}`);
      expect(reply.status, `${filter}: ${reply.text}`).toBe(200);
      return ids(reply.body.value);
    };
    expect(await at('receivedDateTime ge 2026-11-04T11:45:00Z')).toEqual(INBOX.slice(3));
    expect(await at('receivedDateTime gt 2026-11-04T11:45:00Z')).toEqual(INBOX.slice(4));
    expect(await at('receivedDateTime gt 2026-11-04T11:44:59.999Z')).toEqual(INBOX.slice(3));
    expect(await at("  RECEIVEDDATETIME GE '2026-11-04T12:45:00+01:00'  ")).toEqual(INBOX.slice(3));
    expect(await at('receivedDateTime Gt 2026-11-05T14:20:00Z')).toEqual([]);
    expect(await at('receivedDateTime   ge   2026-11-05T14:20:00Z')).toEqual(INBOX.slice(4));
    expect(await at('receivedDateTime ge 2020-01-01T00:00:00Z')).toEqual(INBOX);
  });

  it('orders by receivedDateTime desc on request', async () => {
    const reply = await api.call('GET', `${DELTA}?${query({ $orderby: '  receivedDateTime   DESC ' })}`);
    expect(ids(reply.body.value)).toEqual([...INBOX].reverse());
  });

  it('refuses every other option or value with 400 BadRequest, saying what is supported', async () => {
    const cases: [Record<string, string>, string][] = [
      [
        { $search: '"sbom"' },
        "Query option '$search' is not supported by messageDelta; supported: $select, $top, $expand, $filter, $orderby, $skiptoken, $deltatoken, changeType.",
      ],
      [
        { $orderby: 'receivedDateTime asc' },
        `Unsupported $orderby 'receivedDateTime asc': message delta supports only "receivedDateTime desc".`,
      ],
      [
        { $orderby: 'receivedDateTime desc, subject' },
        `Unsupported $orderby 'receivedDateTime desc, subject': message delta supports only "receivedDateTime desc".`,
      ],
      [
        { $orderby: 'xreceivedDateTime desc' },
        `Unsupported $orderby 'xreceivedDateTime desc': message delta supports only "receivedDateTime desc".`,
      ],
      [{ changeType: 'renamed' }, "Invalid changeType 'renamed': expected created, updated or deleted."],
      [{ changeType: 'Created' }, "Invalid changeType 'Created': expected created, updated or deleted."],
      [{ $top: '0' }, '$top must be at least 1.'],
      [{ $top: '-1' }, "Invalid value '-1' for query option $top: expected a non-negative 32-bit integer."],
      [{ $select: 'subject,color' }, "Could not find a property named 'color' on type 'vendor.graph.message'."],
      [
        { $filter: 'receivedDateTime lt 2026-01-01T00:00:00Z' },
        `Unsupported $filter 'receivedDateTime lt 2026-01-01T00:00:00Z': message delta supports only "receivedDateTime ge <date-time>" or "receivedDateTime gt <date-time>".`,
      ],
      [
        { $filter: 'receivedDateTime ge 2026-13-45T00:00:00Z' },
        `Unsupported $filter 'receivedDateTime ge 2026-13-45T00:00:00Z': message delta supports only "receivedDateTime ge <date-time>" or "receivedDateTime gt <date-time>".`,
      ],
      [
        { $filter: 'xreceivedDateTime ge 2026-01-01T00:00:00Z' },
        `Unsupported $filter 'xreceivedDateTime ge 2026-01-01T00:00:00Z': message delta supports only "receivedDateTime ge <date-time>" or "receivedDateTime gt <date-time>".`,
      ],
      [
        { $filter: 'receivedDateTime ge 2026-01-01T00:00:00Z and isRead eq false' },
        `Unsupported $filter 'receivedDateTime ge 2026-01-01T00:00:00Z and isRead eq false': message delta supports only "receivedDateTime ge <date-time>" or "receivedDateTime gt <date-time>".`,
      ],
    ];
    for (const [options, message] of cases) {
      expectError(await api.call('GET', `${DELTA}?${query(options)}`), 400, 'BadRequest', message);
    }
  });

  it('takes changeType on the first round: created is everything, updated and deleted are nothing yet', async () => {
    expect(ids((await round(api, `${DELTA}?changeType=created`)).items)).toEqual(INBOX);
    expect((await round(api, `${DELTA}?changeType=updated`)).items).toEqual([]);
    expect((await round(api, `${DELTA}?changeType=deleted`)).items).toEqual([]);
  });
});

describe('message delta: page size', () => {
  const api = useEmulator();

  it('takes Prefer odata.maxpagesize as the page size and says so; the last full page carries the deltaLink', async () => {
    const four = await api.call('GET', DELTA, { headers: { Prefer: 'odata.maxpagesize=4' } });
    expect(four.headers.get('preference-applied')).toBe('odata.maxpagesize=4');
    expect(ids(four.body.value)).toEqual(INBOX.slice(0, 4));
    expect(four.body['@odata.deltaLink']).toBeUndefined();
    expect(four.body['@odata.nextLink']).toMatch(
      new RegExp(
        `^${api.emulator.url}/v1\\.0/me/mailFolders\\('adele-inbox'\\)/messages/delta\\?\\$skiptoken=[\\w-]+\\.[\\w-]+$`,
      ),
    );
    const rest = await api.call('GET', four.body['@odata.nextLink'], { headers: { Prefer: 'odata.maxpagesize=4' } });
    expect(ids(rest.body.value)).toEqual(INBOX.slice(4));
    expect(rest.body['@odata.deltaLink']).toBeDefined();

    const five = await api.call('GET', DELTA, { headers: { Prefer: 'odata.maxpagesize=5' } });
    expect(ids(five.body.value)).toEqual(INBOX);
    expect(five.body['@odata.nextLink']).toBeUndefined();
    expect(five.body['@odata.deltaLink']).toBeDefined();
  });

  it('raises a page size of 0 to 1 and lowers one over 1000 to 1000, and says which it applied', async () => {
    const cases: [string, string, number][] = [
      ['odata.maxpagesize=0', 'odata.maxpagesize=1', 1],
      ['odata.maxpagesize=1', 'odata.maxpagesize=1', 1],
      ['odata.maxpagesize=1000', 'odata.maxpagesize=1000', 5],
      ['odata.maxpagesize=1001', 'odata.maxpagesize=1000', 5],
      ['odata.maxpagesize=9999999999', 'odata.maxpagesize=1000', 5],
    ];
    for (const [prefer, applied, count] of cases) {
      const reply = await api.call('GET', DELTA, { headers: { Prefer: prefer } });
      expect(reply.headers.get('preference-applied'), prefer).toBe(applied);
      expect(reply.body.value, prefer).toHaveLength(count);
    }
  });

  it('reads the preference among others, quoted, in any case, and ignores what only looks like it', async () => {
    const applied = async (prefer: string): Promise<[string | null, number]> => {
      const reply = await api.call('GET', DELTA, { headers: { Prefer: prefer } });
      return [reply.headers.get('preference-applied'), reply.body.value.length];
    };
    expect(await applied('return=minimal, odata.maxpagesize="2"')).toEqual(['odata.maxpagesize=2', 2]);
    expect(await applied('return=minimal;odata.maxpagesize=3')).toEqual(['odata.maxpagesize=3', 3]);
    expect(await applied('ODATA.MAXPAGESIZE = 2')).toEqual(['odata.maxpagesize=2', 2]);
    expect(await applied('xodata.maxpagesize=2')).toEqual([null, 5]);
    expect(await applied('odata.maxpagesize=two')).toEqual([null, 5]);
    expect(await applied('odata.track-changes')).toEqual([null, 5]);
  });

  it('takes the smaller of $top and the preference, and $top alone without a Preference-Applied', async () => {
    const both = await api.call('GET', `${DELTA}?$top=2`, { headers: { Prefer: 'odata.maxpagesize=3' } });
    expect(both.body.value).toHaveLength(2);
    expect(both.headers.get('preference-applied')).toBe('odata.maxpagesize=3');
    const smaller = await api.call('GET', `${DELTA}?$top=3`, { headers: { Prefer: 'odata.maxpagesize=2' } });
    expect(smaller.body.value).toHaveLength(2);
    const top = await api.call('GET', `${DELTA}?$top=1`);
    expect(top.headers.get('preference-applied')).toBeNull();
    expect(ids(top.body.value)).toEqual(INBOX.slice(0, 1));
    // $top is the page size of the whole round: the links keep it.
    const all = await round(api, `${DELTA}?$top=2`);
    expect(all.pages.map((page) => page.body.value.length)).toEqual([2, 2, 1]);
  });
});

describe('message delta: large folders', () => {
  const seed = structuredClone(DEFAULT_SEED) as unknown as { messages: Record<string, unknown>[] };
  for (let i = 0; i < 1003; i++)
    seed.messages.push({
      id: `AAMkBulk${String(i).padStart(4, '0')}`,
      userId: U.megan,
      folderId: 'megan-archive',
      subject: `Bulk ${i}`,
      receivedDateTime: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    });
  const api = useEmulator({ seed });
  const BULK = `/users/${U.megan}/mailFolders/archive/messages/delta`;

  it('pages 10 messages by default and never more than 1000 whatever $top asks', async () => {
    const first = await api.call('GET', `${BULK}?$select=subject`);
    expect(first.body.value).toHaveLength(10);
    expect(first.body['@odata.nextLink']).toBeDefined();
    const big = await api.call('GET', `${BULK}?$top=1001&$select=subject`);
    expect(big.body.value).toHaveLength(1000);
    expect(big.headers.get('preference-applied')).toBeNull();
    const next = await api.call('GET', big.body['@odata.nextLink']);
    expect(next.body.value.map((m: Body) => m.subject)).toEqual(['Bulk 1000', 'Bulk 1001', 'Bulk 1002']);
    expect(next.body['@odata.deltaLink']).toBeDefined();
    const preferred = await api.call('GET', `${BULK}?$select=subject`, {
      headers: { Prefer: 'odata.maxpagesize=1001' },
    });
    expect(preferred.body.value).toHaveLength(1000);
  });
});

describe('message delta: links', () => {
  const api = useEmulator();

  it('keeps the first request’s options in the links: select, filter, order, changeType and page size', async () => {
    const first = `${DELTA}?${query({
      $select: 'subject',
      $filter: 'receivedDateTime ge 2026-11-02T00:00:00Z',
      $orderby: 'receivedDateTime desc',
      changeType: 'created',
      $top: '1',
    })}`;
    const start = await round(api, first);
    expect(start.pages.map((page) => page.body.value.length)).toEqual([1, 1, 1, 1]);
    expect(ids(start.items)).toEqual([
      'AAMkAGMsgAdele0005',
      'AAMkAGMsgAdele0004',
      'AAMkAGMsgAdele0003',
      'AAMkAGMsgAdele0002',
    ]);
    for (const item of start.items)
      expect(Object.keys(item).sort()).toEqual(['@odata.etag', '@odata.type', 'id', 'subject']);
    for (const page of start.pages.slice(0, -1)) expect(page.body['@odata.nextLink']).not.toContain('$select');

    await api.call('POST', '/me/mailFolders/inbox/messages', {
      body: { subject: 'old news', receivedDateTime: '2026-10-01T00:00:00Z' },
    });
    const fresh = await api.call('POST', '/me/mailFolders/inbox/messages', {
      body: { subject: 'fresh', receivedDateTime: '2026-11-30T00:00:00Z' },
    });
    const later = await api.call('POST', '/me/mailFolders/inbox/messages', {
      body: { subject: 'later', receivedDateTime: '2026-12-01T00:00:00Z' },
    });
    await api.call('PATCH', '/me/messages/AAMkAGMsgAdele0005', { body: { isRead: true } });
    await api.call('DELETE', '/me/messages/AAMkAGMsgAdele0004');
    const next = await round(api, start.deltaLink);
    // Created only, received on or after the filter, newest first, one per page.
    expect(ids(next.items)).toEqual([later.body.id, fresh.body.id]);
    expect(next.pages.map((page) => page.body.value.length)).toEqual([1, 1]);
    expect(next.items[0]).toEqual({
      '@odata.type': '#vendor.graph.message',
      '@odata.etag': later.body['@odata.etag'],
      id: later.body.id,
      subject: 'later',
    });
  });

  it('refuses options added to a link, and a token of another folder or user, leaving the round usable', async () => {
    const { deltaLink, pages } = await round(api, `/users/${U.adele}/mailFolders/inbox/messages/delta?$top=2`);
    const next = pages[0]!.body['@odata.nextLink'] as string;
    const skip = new URL(next).searchParams.get('$skiptoken')!;
    const delta = new URL(deltaLink).searchParams.get('$deltatoken')!;
    const mixed =
      'Query options other than $skiptoken and $deltatoken belong to the first request of a round: use the returned link unchanged.';
    expectError(await api.call('GET', `${next}&$top=1`), 400, 'BadRequest', mixed);
    expectError(await api.call('GET', `${DELTA}?$skiptoken=${skip}&$deltatoken=${delta}`), 400, 'BadRequest', mixed);
    const stranger = 'The delta or skip token is not valid for this folder; start a new round without a token.';
    for (const path of [
      `/me/mailFolders/archive/messages/delta?$skiptoken=${skip}`,
      `/users/${U.megan}/mailFolders/inbox/messages/delta?$deltatoken=${delta}`,
      `${DELTA}?$skiptoken=${skip.slice(0, -2)}`,
    ]) {
      expectError(await api.call('GET', path), 400, 'syncStateNotFound', stranger);
    }
    // The links themselves still work, by either user spelling.
    const page = await api.call('GET', `${DELTA}?$skiptoken=${skip}`);
    expect(page.status).toBe(200);
    expect(page.body.value).toHaveLength(2);
  });
});

describe('message delta: later rounds', () => {
  const api = useEmulator();

  it('reports what changed since the last round by kind, in change order, deleted and moved messages as @removed', async () => {
    const all = await round(api, DELTA);
    const created = await round(api, `${DELTA}?changeType=created`);
    const updated = await round(api, `${DELTA}?changeType=updated`);
    const deleted = await round(api, `${DELTA}?changeType=deleted`);
    const ordered = await round(api, `${DELTA}?$orderby=receivedDateTime desc`);

    const x = await api.call('POST', '/me/mailFolders/inbox/messages', {
      body: { subject: 'X', receivedDateTime: '2026-11-03T12:00:00Z' },
    });
    await api.call('PATCH', '/me/messages/AAMkAGMsgAdele0004', { body: { isRead: true } });
    await api.call('PATCH', `/me/messages/${x.body.id}`, { body: { subject: 'X, edited' } });
    await api.call('DELETE', '/me/messages/AAMkAGMsgAdele0001');
    const moved = await api.call('POST', '/me/messages/AAMkAGMsgAdele0002/move', {
      body: { destinationId: 'archive' },
    });
    expect(moved.status).toBe(201);
    // Elsewhere: another folder's changes are not this folder's.
    await api.call('PATCH', '/me/messages/AAMkAGMsgAdele0006', { body: { isRead: true } });

    const removed = (id: string): Body => ({
      '@odata.type': '#vendor.graph.message',
      id,
      '@removed': { reason: 'deleted' },
    });
    const changes = await round(api, all.deltaLink);
    expect(ids(changes.items)).toEqual(['AAMkAGMsgAdele0004', x.body.id, 'AAMkAGMsgAdele0001', 'AAMkAGMsgAdele0002']);
    expect(changes.items[1]).toMatchObject({ subject: 'X, edited', parentFolderId: 'adele-inbox' });
    expect(changes.items[2]).toEqual(removed('AAMkAGMsgAdele0001'));
    expect(changes.items[3]).toEqual(removed('AAMkAGMsgAdele0002'));

    expect(ids((await round(api, created.deltaLink)).items)).toEqual([x.body.id]);
    expect(ids((await round(api, updated.deltaLink)).items)).toEqual(['AAMkAGMsgAdele0004']);
    expect((await round(api, deleted.deltaLink)).items).toEqual([
      removed('AAMkAGMsgAdele0001'),
      removed('AAMkAGMsgAdele0002'),
    ]);
    // Newest first, then the removals in change order.
    expect(ids((await round(api, ordered.deltaLink)).items)).toEqual([
      'AAMkAGMsgAdele0004',
      x.body.id,
      'AAMkAGMsgAdele0001',
      'AAMkAGMsgAdele0002',
    ]);

    // The round after that starts from there: nothing new.
    const quiet = await round(api, changes.deltaLink);
    expect(quiet.items).toEqual([]);
    // The moved message is new in the folder it moved to.
    const archive = await round(api, '/me/mailFolders/archive/messages/delta');
    expect(archive.items.find((item) => item.id === moved.body.id)).toMatchObject({ parentFolderId: 'adele-archive' });
  });

  it('leaves a change made during a round to the next round', async () => {
    const first = await api.call('GET', DELTA, { headers: { Prefer: 'odata.maxpagesize=1' } });
    const during = await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: 'during the round' } });
    const rest = await round(api, first.body['@odata.nextLink'], { Prefer: 'odata.maxpagesize=1' });
    const seen = [...ids(first.body.value), ...ids(rest.items)];
    expect(seen).not.toContain(during.body.id);
    expect(seen.length).toBeGreaterThan(1);
    const next = await round(api, rest.deltaLink);
    expect(ids(next.items)).toEqual([during.body.id]);
    // That change was the last one: the round after it has nothing.
    expect((await round(api, next.deltaLink)).items).toEqual([]);
  });

  it('leaves a deletion made during a later round to the round after it', async () => {
    const start = await round(api, DELTA);
    for (const subject of ['p', 'q']) await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject } });
    const first = await api.call('GET', start.deltaLink, { headers: { Prefer: 'odata.maxpagesize=1' } });
    expect(first.body.value).toHaveLength(1);
    await api.call('DELETE', '/me/messages/AAMkAGMsgAdele0003');
    const rest = await round(api, first.body['@odata.nextLink'], { Prefer: 'odata.maxpagesize=1' });
    expect(rest.items.some((item) => item['@removed'] !== undefined)).toBe(false);
    const next = await round(api, rest.deltaLink);
    expect(next.items).toEqual([
      { '@odata.type': '#vendor.graph.message', id: 'AAMkAGMsgAdele0003', '@removed': { reason: 'deleted' } },
    ]);
  });

  it('counts a message created as the last change of a round as updated in the next', async () => {
    const created = await api.call('POST', '/me/mailFolders/inbox/messages', {
      body: { subject: 'last of the round' },
    });
    const updates = await round(api, `${DELTA}?changeType=updated`);
    const creations = await round(api, `${DELTA}?changeType=created`);
    await api.call('PATCH', `/me/messages/${created.body.id}`, { body: { isRead: true } });
    expect(ids((await round(api, updates.deltaLink)).items)).toEqual([created.body.id]);
    expect((await round(api, creations.deltaLink)).items).toEqual([]);
  });

  it('orders a later round by change, a removal before a later update', async () => {
    const start = await round(api, DELTA);
    const made = await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: 'short-lived' } });
    await api.call('DELETE', `/me/messages/${made.body.id}`);
    await api.call('PATCH', '/me/messages/AAMkAGMsgAdele0005', { body: { subject: 'touched after' } });
    const changes = await round(api, start.deltaLink);
    expect(ids(changes.items)).toEqual([made.body.id, 'AAMkAGMsgAdele0005']);
    expect(changes.items[0]['@removed']).toEqual({ reason: 'deleted' });
    const paged = await round(api, start.deltaLink, { Prefer: 'odata.maxpagesize=1' });
    expect(ids(paged.items)).toEqual([made.body.id, 'AAMkAGMsgAdele0005']);
    // The deletion was not the last change, but the round after this one has nothing either.
    expect((await round(api, changes.deltaLink)).items).toEqual([]);
  });

  it('pages a later round as well, keeping its place between removals', async () => {
    const start = await round(api, DELTA);
    const made: string[] = [];
    for (const subject of ['a', 'b', 'c']) {
      const reply = await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject } });
      made.push(reply.body.id as string);
    }
    for (const id of made) await api.call('DELETE', `/me/messages/${id}`);
    const paged = await round(api, start.deltaLink, { Prefer: 'odata.maxpagesize=1' });
    // Created then deleted within the round: only the removals are reported.
    expect(ids(paged.items)).toEqual(made);
    expect(paged.pages.map((page) => page.body.value.length)).toEqual([1, 1, 1]);
    for (const item of paged.items) expect(item['@removed']).toEqual({ reason: 'deleted' });
    // The last deletion was the last change of that round: the next round does not repeat it.
    expect((await round(api, paged.deltaLink)).items).toEqual([]);
  });
});

describe('message writes', () => {
  const api = useEmulator();
  afterEach(() => {
    vi.useRealTimers();
  });

  it('creates a message with defaults for what the body leaves out', async () => {
    // A clock a little ahead of the real one: the token the call mints must stay valid after it.
    const now = new Date(Date.now() + 1000);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
    const reply = await api.call('POST', '/me/mailFolders/INBOX/messages', { body: {} });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toEqual({
      '@odata.context': `${api.emulator.url}/v1.0/$metadata#users('${U.adele}')/messages/$entity`,
      '@odata.type': '#vendor.graph.message',
      '@odata.etag': expect.stringMatching(/^W\/"\d+"$/),
      id: expect.stringMatching(/^AAMk[\w-]{22}$/),
      receivedDateTime: now.toISOString(),
      sentDateTime: now.toISOString(),
      hasAttachments: false,
      internetMessageId: expect.stringMatching(/^<[0-9a-f-]{36}@bomwright\.invalid>$/),
      subject: '',
      body: { contentType: 'text', content: '' },
      isRead: false,
      parentFolderId: 'adele-inbox',
    });
  });

  it('keeps what the body gives, sending time defaulting to the receiving time', async () => {
    const body = {
      subject: 'Given',
      body: { contentType: 'html', content: '<p>Hi</p>' },
      receivedDateTime: '2026-11-20T08:00:00Z',
      internetMessageId: '<given@fabrikam.example>',
      isRead: true,
    };
    const reply = await api.call('POST', `/users/${U.adele}/mailFolders/adele-suppliers/messages`, { body });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      ...body,
      sentDateTime: '2026-11-20T08:00:00Z',
      parentFolderId: 'adele-suppliers',
    });
    const sent = await api.call('POST', '/me/mailFolders/inbox/messages', {
      body: { receivedDateTime: '2026-11-20T08:00:00Z', sentDateTime: '2026-11-20T07:59:00Z' },
    });
    expect(sent.body).toMatchObject({ receivedDateTime: '2026-11-20T08:00:00Z', sentDateTime: '2026-11-20T07:59:00Z' });
    const seq = (reply: Reply): number => Number(/\d+/.exec(reply.body['@odata.etag'])![0]);
    expect(seq(sent)).toBe(seq(reply) + 1);
    expectError(
      await api.call('POST', '/me/mailFolders/outbox/messages', { body }),
      404,
      'ErrorItemNotFound',
      'The specified folder could not be found in the store.',
    );
  });

  it('updates only subject, body and read state, with a new etag', async () => {
    const before = (await api.call('GET', `${DELTA}?$top=5`)).body.value.find(
      (m: Body) => m.id === 'AAMkAGMsgAdele0003',
    );
    const reply = await api.call('PATCH', '/me/messages/AAMkAGMsgAdele0003', {
      body: { subject: 'Renamed', isRead: true },
    });
    expect(reply.status).toBe(200);
    expect(reply.body['@odata.context']).toBe(
      `${api.emulator.url}/v1.0/$metadata#users('${U.adele}')/messages/$entity`,
    );
    const { '@odata.context': _context, ...after } = reply.body;
    expect(after).toEqual({
      ...before,
      subject: 'Renamed',
      isRead: true,
      '@odata.etag': expect.stringMatching(/^W\/"\d+"$/),
    });
    expect(after['@odata.etag']).not.toBe(before['@odata.etag']);
    const body = await api.call('PATCH', `/users/${U.adele}/messages/AAMkAGMsgAdele0003`, {
      body: { body: { contentType: 'text', content: 'New text' } },
    });
    expect(body.body).toMatchObject({
      subject: 'Renamed',
      isRead: true,
      body: { contentType: 'text', content: 'New text' },
    });
  });

  it('moves a message under a new id into the destination, found by id or well-known name', async () => {
    const reply = await api.call('POST', '/me/messages/AAMkAGMsgAdele0005/move', {
      body: { destinationId: 'ARCHIVE' },
    });
    expect(reply.status).toBe(201);
    expect(reply.body['@odata.context']).toBe(
      `${api.emulator.url}/v1.0/$metadata#users('${U.adele}')/messages/$entity`,
    );
    expect(reply.body).toMatchObject({
      subject: 'CVE-2026-1234 triage',
      receivedDateTime: '2026-11-05T14:20:00Z',
      parentFolderId: 'adele-archive',
    });
    expect(reply.body.id).toMatch(/^AAMk[\w-]{22}$/);
    expectError(
      await api.call('PATCH', '/me/messages/AAMkAGMsgAdele0005', { body: { isRead: true } }),
      404,
      'ErrorItemNotFound',
      'The specified object was not found in the store.',
    );
    const moved = await api.call('PATCH', `/me/messages/${reply.body.id}`, { body: { isRead: true } });
    expect(moved.status).toBe(200);
  });

  it('refuses a move to an unknown folder and leaves the message where it was', async () => {
    const start = await round(api, DELTA);
    expectError(
      await api.call('POST', '/me/messages/AAMkAGMsgAdele0002/move', { body: { destinationId: 'nowhere' } }),
      404,
      'ErrorItemNotFound',
      'The specified folder could not be found in the store.',
    );
    expect((await round(api, start.deltaLink)).items).toEqual([]);
    expect((await api.call('PATCH', '/me/messages/AAMkAGMsgAdele0002', { body: { isRead: true } })).status).toBe(200);
  });

  it('deletes a message once; another user’s message or an unknown one is not found', async () => {
    const deleted = await api.call('DELETE', '/me/messages/AAMkAGMsgAdele0001');
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const gone = 'The specified object was not found in the store.';
    expectError(await api.call('DELETE', '/me/messages/AAMkAGMsgAdele0001'), 404, 'ErrorItemNotFound', gone);
    expectError(await api.call('DELETE', '/me/messages/AAMkAGMsgMegan0001'), 404, 'ErrorItemNotFound', gone);
    expectError(
      await api.call('POST', '/me/messages/AAMkAGMsgMegan0001/move', { body: { destinationId: 'archive' } }),
      404,
      'ErrorItemNotFound',
      gone,
    );
    expectError(
      await api.call('PATCH', '/me/messages/nope', { body: { isRead: true } }),
      404,
      'ErrorItemNotFound',
      gone,
    );
    const megan = await round(api, `/users/${U.megan}/mailFolders/inbox/messages/delta`);
    expect(ids(megan.items)).toEqual(['AAMkAGMsgMegan0001']);
  });
});

describe('events', () => {
  const api = useEmulator();
  const gone = 'The specified object was not found in the store.';

  it('answers an event with the fields it has, or the selected ones', async () => {
    const reply = await api.call('GET', '/me/events/evt-adele-planning');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      '@odata.context': `${api.emulator.url}/v1.0/$metadata#events/$entity`,
      id: 'evt-adele-planning',
      subject: 'Plan release 4.3',
      start: { dateTime: '2026-12-01T09:00:00', timeZone: 'UTC' },
      end: { dateTime: '2026-12-01T10:00:00', timeZone: 'UTC' },
      type: 'singleInstance',
    });
    const selected = await api.call('GET', `/groups/${G.release}/events/evt-release-freeze?$select=subject`);
    expect(selected.body).toEqual({
      '@odata.context': `${api.emulator.url}/v1.0/$metadata#events/$entity`,
      id: 'evt-release-freeze',
      subject: 'Code freeze 4.2',
    });
    expectError(
      await api.call('GET', '/me/events/evt-adele-planning?$select=location'),
      400,
      'BadRequest',
      "Could not find a property named 'location' on type 'vendor.graph.event'.",
    );
    expectError(await api.call('GET', '/me/events/evt-megan-gonogo'), 404, 'ErrorItemNotFound', gone);
    expectError(await api.call('GET', '/me/events/nope'), 404, 'ErrorItemNotFound', gone);
    expectError(
      await api.call('GET', `/groups/${G.physics}/events/evt-release-freeze`),
      404,
      'ErrorItemNotFound',
      gone,
    );
    expectError(
      await api.call('GET', '/groups/nope/events/evt-release-freeze'),
      404,
      'itemNotFound',
      "Group 'nope' was not found.",
    );
  });

  it('refuses a forward whose path does not fit the event, with ErrorItemNotFound', async () => {
    const body = { ToRecipients: [{ EmailAddress: { Address: 'dana@fabrikam.example' } }] };
    for (const path of [
      '/me/events/nope/forward',
      '/me/calendarGroups/nope/calendars/adele-calendar/events/evt-adele-gonogo/forward',
      '/me/calendarGroups/adele-projects/calendars/adele-calendar/events/evt-adele-gonogo/forward',
      '/me/calendarGroups/adele-projects/calendars/adele-release-planning/events/evt-adele-gonogo/forward',
      '/me/calendars/megan-calendar/events/evt-adele-gonogo/forward',
      '/me/calendar/events/evt-adele-planning/forward',
      `/groups/${G.release}/calendar/events/evt-adele-gonogo/forward`,
    ]) {
      expectError(await api.call('POST', path, { body }), 404, 'ErrorItemNotFound', gone);
    }
    expectError(
      await api.call('POST', '/groups/nope/events/evt-release-freeze/forward', { body }),
      404,
      'itemNotFound',
      "Group 'nope' was not found.",
    );
  });

  it('adds only new recipients to the organizer’s copy, in any spelling, with a null name when none is given', async () => {
    const before = (await api.call('GET', '/me/events/evt-adele-gonogo')).body.attendees;
    const megan = await api.token({ user: 'megan@contoso.example' });
    const reply = await api.call('POST', `/users/${U.megan}/calendar/events/evt-megan-gonogo/forward`, {
      token: megan,
      body: {
        comment: 'FYI',
        toRecipients: [
          { emailAddress: { address: 'MEGAN@contoso.example', name: 'Megan again' } },
          { emailAddress: { address: 'kai@fabrikam.example', name: 'Kai' } },
          { emailAddress: { address: 'noname@fabrikam.example' } },
        ],
      },
    });
    expect(reply.status).toBe(202);
    expect(reply.text).toBe('');
    const after = (await api.call('GET', '/me/events/evt-adele-gonogo')).body.attendees;
    expect(after).toEqual([
      ...before,
      {
        emailAddress: { name: 'Kai', address: 'kai@fabrikam.example' },
        type: 'optional',
        status: { response: 'none' },
      },
      {
        emailAddress: { name: null, address: 'noname@fabrikam.example' },
        type: 'optional',
        status: { response: 'none' },
      },
    ]);
    // The forwarder's own copy does not change.
    expect(
      (await api.call('GET', `/users/${U.megan}/events/evt-megan-gonogo`, { token: megan })).body.attendees,
    ).toEqual([]);
  });

  it('changes no attendees when the organizer forwards their own event', async () => {
    const before = (await api.call('GET', '/me/events/evt-adele-gonogo')).body.attendees;
    const reply = await api.call('POST', '/me/events/evt-adele-gonogo/forward', {
      body: { Comment: '', ToRecipients: [{ EmailAddress: { Address: 'new@fabrikam.example', Name: 'New' } }] },
    });
    expect(reply.status).toBe(202);
    expect((await api.call('GET', '/me/events/evt-adele-gonogo')).body.attendees).toEqual(before);
  });
});

describe('permanent delete of events', () => {
  const api = useEmulator();
  const gone = 'The specified object was not found in the store.';
  const exists = async (id: string): Promise<number> =>
    (await api.call('GET', `/users/${U.adele}/events/${id}`)).status;

  it('refuses an event that does not fit the message form, and deletes nothing', async () => {
    const message = `/users/${U.adele}/messages/AAMkAGMsgAdele0003/event`;
    for (const path of [
      `${message}/instances/evt-adele-gonogo/permanentDelete`,
      `${message}/instances/nope/permanentDelete`,
      `${message}/exceptionOccurrences/evt-adele-weekly-occ1/permanentDelete`,
      `${message}/calendar/events/evt-adele-planning/permanentDelete`,
      `${message}/calendar/calendarView/evt-megan-gonogo/permanentDelete`,
      `/users/${U.adele}/messages/AAMkAGMsgAdele0004/event/permanentDelete`,
      `/users/${U.adele}/messages/AAMkAGMsgMegan0001/event/permanentDelete`,
      `/users/${U.adele}/messages/nope/event/permanentDelete`,
      `/users/${U.adele}/events/evt-megan-gonogo/permanentDelete`,
      `/users/${U.adele}/calendarView/nope/permanentDelete`,
      `/groups/${G.physics}/events/evt-release-freeze/permanentDelete`,
    ]) {
      expectError(await api.call('POST', path), 404, 'ErrorItemNotFound', gone);
    }
    for (const id of ['evt-adele-gonogo', 'evt-adele-weekly', 'evt-adele-weekly-occ1', 'evt-adele-planning'])
      expect(await exists(id), id).toBe(200);
  });

  it('deletes one occurrence alone, and a series master with its occurrences and exceptions', async () => {
    const occurrence = await api.call(
      'POST',
      `/users/${U.adele}/messages/AAMkAGMsgAdele0003/event/instances/evt-adele-weekly-occ2/permanentDelete`,
    );
    expect(occurrence.status).toBe(204);
    expect(await exists('evt-adele-weekly-occ2')).toBe(404);
    expect(await exists('evt-adele-weekly')).toBe(200);
    expect(await exists('evt-adele-weekly-occ1')).toBe(200);

    const master = await api.call('POST', `/users/${U.adele}/messages/AAMkAGMsgAdele0003/event/permanentDelete`);
    expect(master.status).toBe(204);
    expect(master.text).toBe('');
    for (const id of ['evt-adele-weekly', 'evt-adele-weekly-occ1', 'evt-adele-weekly-exc1'])
      expect(await exists(id), id).toBe(404);
    expect(await exists('evt-adele-gonogo')).toBe(200);
    // The message now names an event that is gone.
    expectError(
      await api.call('POST', `/users/${U.adele}/messages/AAMkAGMsgAdele0003/event/permanentDelete`),
      404,
      'ErrorItemNotFound',
      gone,
    );
  });

  it('deletes a single event without touching the others', async () => {
    expect((await api.call('POST', `/users/${U.adele}/calendarView/evt-adele-planning/permanentDelete`)).status).toBe(
      204,
    );
    expect(await exists('evt-adele-planning')).toBe(404);
    expect(await exists('evt-adele-gonogo')).toBe(200);
    expectError(
      await api.call('POST', `/groups/nope/events/evt-release-freeze/permanentDelete`),
      404,
      'itemNotFound',
      "Group 'nope' was not found.",
    );
  });
});

describe('calendars and recorded forwards', () => {
  // Lee's default calendar is not his first; Patti has no calendar at all; Megan has an event in a calendar id of
  // Adele's; an exception names a single event as its series; Lee has a folder with the id of Megan's inbox.
  const seed = structuredClone(DEFAULT_SEED) as unknown as {
    users: Record<string, unknown>[];
    events: Record<string, unknown>[];
  };
  const user = (id: string): Record<string, unknown> => seed.users.find((u) => u.id === id)!;
  user(U.lee).calendars = [
    { id: 'lee-side', name: 'Side', isDefault: false },
    { id: 'lee-main', name: 'Calendar', isDefault: true },
  ];
  user(U.lee).mailFolders = [{ id: 'megan-inbox', displayName: 'Inbox', wellKnownName: 'inbox' }];
  user(U.patti).calendars = [];
  const event = (id: string, owner: string, calendarId: string, extra: Record<string, unknown> = {}) => ({
    id,
    owner: `users/${owner}`,
    calendarId,
    type: 'singleInstance',
    subject: id,
    start: { dateTime: '2026-12-01T09:00:00', timeZone: 'UTC' },
    end: { dateTime: '2026-12-01T10:00:00', timeZone: 'UTC' },
    ...extra,
  });
  seed.events.push(
    event('evt-lee-main', U.lee, 'lee-main'),
    event('evt-lee-side', U.lee, 'lee-side'),
    event('evt-patti', U.patti, 'patti-calendar'),
    event('evt-megan-odd', U.megan, 'adele-calendar'),
    event('evt-adele-odd-exc', U.adele, 'adele-calendar', { type: 'exception', seriesMasterId: 'evt-adele-planning' }),
    event('evt-lee-ghost', U.lee, 'ghost-calendar'),
    // An organizer's copy with a resource attendee that has no address.
    event('evt-lee-room', U.lee, 'lee-main', { attendees: [{ type: 'resource', status: { response: 'none' } }] }),
    event('evt-megan-room', U.megan, 'megan-calendar', { organizerEventId: 'evt-lee-room' }),
  );
  const stateDir = tempDir();
  const api = useEmulator({ seed, stateDir });
  afterAll(async () => {
    await api.emulator?.close();
    rmSync(stateDir, { recursive: true, force: true });
  });
  const gone = 'The specified object was not found in the store.';
  const forward = { ToRecipients: [{ EmailAddress: { Address: 'dana@fabrikam.example', Name: 'Dana' } }] };

  it('finds the default calendar by its flag, not its place, and none for a user without calendars', async () => {
    expect(
      (await api.call('POST', `/users/${U.lee}/calendar/events/evt-lee-main/forward`, { body: forward })).status,
    ).toBe(202);
    for (const path of [
      `/users/${U.lee}/calendar/events/evt-lee-side/forward`,
      `/users/${U.patti}/calendar/events/evt-patti/forward`,
      // A calendar the user does not have, even if the event names it.
      `/users/${U.patti}/calendars/patti-calendar/events/evt-patti/forward`,
      `/users/${U.lee}/calendars/ghost-calendar/events/evt-lee-ghost/forward`,
    ])
      expectError(await api.call('POST', path, { body: forward }), 404, 'ErrorItemNotFound', gone);
    for (const path of [
      `/users/${U.patti}/events/evt-patti/forward`,
      `/users/${U.megan}/calendars/megan-calendar/events/evt-megan-gonogo/forward`,
      '/me/events/evt-adele-planning/forward',
    ])
      expect((await api.call('POST', path, { body: forward })).status, path).toBe(202);
  });

  it('adds a forward’s recipient to an organizer’s copy that has an attendee without an address', async () => {
    const reply = await api.call('POST', `/users/${U.megan}/events/evt-megan-room/forward`, { body: forward });
    expect(reply.status, reply.text).toBe(202);
    const room = await api.call('GET', `/users/${U.lee}/events/evt-lee-room`);
    expect(room.body.attendees).toEqual([
      { type: 'resource', status: { response: 'none' } },
      {
        emailAddress: { name: 'Dana', address: 'dana@fabrikam.example' },
        type: 'optional',
        status: { response: 'none' },
      },
    ]);
  });

  it('refuses a message event form naming another owner’s event or another series’ exception', async () => {
    const message = `/users/${U.adele}/messages/AAMkAGMsgAdele0003/event`;
    for (const path of [
      `${message}/calendar/events/evt-megan-odd/permanentDelete`,
      `${message}/exceptionOccurrences/evt-adele-odd-exc/permanentDelete`,
    ])
      expectError(await api.call('POST', path), 404, 'ErrorItemNotFound', gone);
    // Only a series master takes other events with it.
    expect((await api.call('POST', `/users/${U.adele}/events/evt-adele-planning/permanentDelete`)).status).toBe(204);
    expect((await api.call('GET', `/users/${U.adele}/events/evt-adele-odd-exc`)).status).toBe(200);
  });

  it('refuses a message delta token on a folder of the same id of another user', async () => {
    const megan = await round(api, `/users/${U.megan}/mailFolders/inbox/messages/delta`);
    const token = new URL(megan.deltaLink).searchParams.get('$deltatoken')!;
    expectError(
      await api.call('GET', `/users/${U.lee}/mailFolders/megan-inbox/messages/delta?$deltatoken=${token}`),
      400,
      'syncStateNotFound',
      'The delta or skip token is not valid for this folder; start a new round without a token.',
    );
  });

  it('records each forward on the event, and the notification on the organizer’s copy, in the tenant state', async () => {
    const megan = await api.token({ user: 'megan@contoso.example' });
    const first = await api.call('POST', `/users/${U.megan}/events/evt-megan-gonogo/forward`, {
      token: megan,
      body: {
        Comment: 'Please join',
        ToRecipients: [{ EmailAddress: { Address: 'kai@fabrikam.example', Name: 'Kai' } }],
      },
    });
    expect(first.status).toBe(202);
    const second = await api.call('POST', `/users/${U.megan}/events/evt-megan-gonogo/forward`, {
      token: megan,
      body: { toRecipients: [{ emailAddress: { address: 'lou@fabrikam.example' } }] },
    });
    expect(second.status).toBe(202);
    // Every acknowledged write is in the state folder already; read it while the emulator runs.
    const organizer = loadState(stateDir, true).store.get('events', 'evt-adele-gonogo')!;
    expect(organizer.notifications).toEqual([
      // Adele forwarded Megan's copy above: a forward from a work mailbox notifies the organizer whoever sends it.
      {
        kind: 'forwarded',
        by: `users/${U.megan}`,
        to: [{ emailAddress: { name: 'Dana', address: 'dana@fabrikam.example' } }],
        comment: '',
        dateTime: expect.any(String),
      },
      {
        kind: 'forwarded',
        by: `users/${U.megan}`,
        to: [{ emailAddress: { name: 'Kai', address: 'kai@fabrikam.example' } }],
        comment: 'Please join',
        dateTime: expect.any(String),
      },
      {
        kind: 'forwarded',
        by: `users/${U.megan}`,
        to: [{ emailAddress: { name: null, address: 'lou@fabrikam.example' } }],
        comment: '',
        dateTime: expect.any(String),
      },
    ]);
    expect(organizer.forwards).toBeUndefined();
    // With the organizer's copy gone, a forward changes only the forwarded event.
    expect((await api.call('POST', `/users/${U.adele}/events/evt-adele-gonogo/permanentDelete`)).status).toBe(204);
    const third = await api.call('POST', `/users/${U.megan}/events/evt-megan-gonogo/forward`, {
      token: megan,
      body: { comment: 'late', ToRecipients: [{ EmailAddress: { Address: 'sky@fabrikam.example' } }] },
    });
    expect(third.status).toBe(202);
    await api.emulator.close();

    const { store } = loadState(stateDir, true);
    const forwards = store.get('events', 'evt-megan-gonogo')!.forwards as Body[];
    expect(forwards).toEqual([
      {
        by: `users/${U.megan}`,
        to: [{ emailAddress: { name: 'Dana', address: 'dana@fabrikam.example' } }],
        comment: '',
        dateTime: expect.any(String),
      },
      {
        by: `users/${U.megan}`,
        to: [{ emailAddress: { name: 'Kai', address: 'kai@fabrikam.example' } }],
        comment: 'Please join',
        dateTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
      {
        by: `users/${U.megan}`,
        to: [{ emailAddress: { name: null, address: 'lou@fabrikam.example' } }],
        comment: '',
        dateTime: expect.any(String),
      },
      {
        by: `users/${U.megan}`,
        to: [{ emailAddress: { name: null, address: 'sky@fabrikam.example' } }],
        comment: 'late',
        dateTime: expect.any(String),
      },
    ]);
    expect(store.get('events', 'evt-adele-gonogo')).toBeUndefined();
    // An event without an organizer's copy records the forward only.
    const lee = store.get('events', 'evt-lee-main')!;
    expect(lee.notifications).toBeUndefined();
    expect(lee.forwards).toEqual([
      {
        by: `users/${U.lee}`,
        to: [{ emailAddress: { name: 'Dana', address: 'dana@fabrikam.example' } }],
        comment: '',
        dateTime: expect.any(String),
      },
    ]);
  });
});
