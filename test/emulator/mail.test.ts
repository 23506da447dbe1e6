import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { useEmulator, type Reply, type Body } from './harness.js';

const U = SEED_IDS.users;
const api = useEmulator();
const DELTA = '/me/mailFolders/inbox/messages/delta';

/** Follows nextLinks to the end of a round; returns every item and the deltaLink. */
async function round(
  first: string,
  headers: Record<string, string> = {},
): Promise<{ items: Body[]; deltaLink: string; pages: Reply[] }> {
  const pages: Reply[] = [];
  let next: string | undefined = first;
  const items: Body[] = [];
  for (let i = 0; next !== undefined && i < 100; i++) {
    const page = await api.call('GET', next, { headers });
    expect(page.status, page.text).toBe(200);
    pages.push(page);
    items.push(...page.body.value);
    if (page.body['@odata.deltaLink'] !== undefined) return { items, deltaLink: page.body['@odata.deltaLink'], pages };
    next = page.body['@odata.nextLink'];
    expect(next, 'a page has a nextLink or a deltaLink').toBeDefined();
  }
  throw new Error('the round did not end');
}

describe('message delta', () => {
  it('returns the folder in a first round, then only what changed, with @removed entries for deleted and moved messages', async () => {
    const first = await round(DELTA);
    expect(first.items.map((m) => m.subject).sort()).toEqual([
      'CVE-2026-1234 triage',
      'Invitation: Weekly SBOM sync',
      'Licence question from legal',
      'Signed release manifest',
      'Supplier SBOM for libfoo 2.3',
    ]);
    expect(first.items[0]).toMatchObject({
      '@odata.type': '#vendor.graph.message',
      '@odata.etag': expect.stringMatching(/^W\//),
    });
    expect(first.deltaLink).toMatch(/\/messages\/delta\?\$deltatoken=/);

    const quiet = await round(first.deltaLink);
    expect(quiet.items).toEqual([]);

    const created = await api.call('POST', '/me/mailFolders/inbox/messages', {
      body: { subject: 'New supplier SBOM', receivedDateTime: '2026-11-22T08:00:00Z' },
    });
    expect(created.status).toBe(201);
    await api.call('PATCH', '/me/messages/AAMkAGMsgAdele0004', { body: { isRead: true } });
    await api.call('DELETE', '/me/messages/AAMkAGMsgAdele0001');
    const moved = await api.call('POST', '/me/messages/AAMkAGMsgAdele0002/move', {
      body: { destinationId: 'adele-suppliers' },
    });
    expect(moved.status).toBe(201);
    expect(moved.body.id).not.toBe('AAMkAGMsgAdele0002');

    const changes = await round(quiet.deltaLink);
    const byId = new Map(changes.items.map((item) => [item.id, item]));
    expect(byId.get(created.body.id)).toMatchObject({ subject: 'New supplier SBOM' });
    expect(byId.get('AAMkAGMsgAdele0004')).toMatchObject({ isRead: true });
    expect(byId.get('AAMkAGMsgAdele0001')).toEqual({
      '@odata.type': '#vendor.graph.message',
      id: 'AAMkAGMsgAdele0001',
      '@removed': { reason: 'deleted' },
    });
    expect(byId.get('AAMkAGMsgAdele0002')).toEqual({
      '@odata.type': '#vendor.graph.message',
      id: 'AAMkAGMsgAdele0002',
      '@removed': { reason: 'deleted' },
    });
    expect(changes.items).toHaveLength(4);

    const suppliers = await round('/me/mailFolders/adele-suppliers/messages/delta');
    expect(suppliers.items.map((m) => m.id)).toEqual([moved.body.id]);
  });

  it('pages with Prefer: odata.maxpagesize, says so in Preference-Applied, and keeps the first request’s options in the links', async () => {
    const first = await api.call('GET', `${DELTA}?$select=subject,receivedDateTime&$orderby=receivedDateTime desc`, {
      headers: { Prefer: 'odata.maxpagesize=2' },
    });
    expect(first.headers.get('preference-applied')).toBe('odata.maxpagesize=2');
    expect(first.body.value).toHaveLength(2);
    const next = first.body['@odata.nextLink'] as string;
    expect(next).toMatch(/\/messages\/delta\?\$skiptoken=[\w-]+\.[\w-]+$/);
    expect(next).not.toContain('$select');
    const all = await round(next, { Prefer: 'odata.maxpagesize=2' });
    const items = [...first.body.value, ...all.items];
    for (const item of items)
      expect(Object.keys(item).sort()).toEqual(['@odata.etag', '@odata.type', 'id', 'receivedDateTime', 'subject']);
    const times = items.map((m) => m.receivedDateTime);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('takes $top as the page size and refuses $top=0', async () => {
    const page = await api.call('GET', `${DELTA}?$top=1`);
    expect(page.body.value).toHaveLength(1);
    expect(page.body['@odata.nextLink']).toBeDefined();
    expect((await api.call('GET', `${DELTA}?$top=0`)).status).toBe(400);
  });

  it('filters on receivedDateTime ge/gt only, orders only by receivedDateTime desc, and refuses $search', async () => {
    const ge = await round(`${DELTA}?$filter=receivedDateTime ge 2026-11-04T11:45:00Z`);
    const gt = await round(`${DELTA}?$filter=receivedDateTime gt 2026-11-04T11:45:00Z`);
    expect(ge.items.length).toBe(gt.items.length + 1);
    for (const query of [
      "$filter=subject eq 'x'",
      '$filter=receivedDateTime lt 2026-01-01T00:00:00Z',
      '$filter=receivedDateTime ge yesterday',
      '$orderby=receivedDateTime asc',
      '$orderby=subject desc',
      '$search="sbom"',
      'changeType=renamed',
      '$select=subject,color',
      '$expand=mentions',
      '$count=true',
    ]) {
      const refused = await api.call('GET', `${DELTA}?${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.body.error.code, query).toBe('BadRequest');
    }
  });

  it('filters the change kind with changeType', async () => {
    const start = await round(DELTA);
    const created = await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: 'only created' } });
    await api.call('PATCH', `/me/messages/${created.body.id}`, { body: { subject: 'created then updated' } });
    const token = start.deltaLink;
    const onlyDeleted = await round(`${DELTA}?changeType=deleted`);
    expect(onlyDeleted.items).toEqual([]);
    const changed = await round(token);
    expect(changed.items.map((m) => m.subject)).toContain('created then updated');
  });

  it('answers 400, not a crash, to a forged or edited token, or options added to a link', async () => {
    const { deltaLink } = await round(DELTA);
    const token = new URL(deltaLink).searchParams.get('$deltatoken')!;
    const [data, mac] = token.split('.') as [string, string];
    const edited = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(data, 'base64url').toString()), upTo: 0 }),
    ).toString('base64url');
    for (const bad of [`${edited}.${mac}`, 'garbage', `${data}.`, `${data}.${'A'.repeat(22)}`, '.', 'x'.repeat(8000)]) {
      const reply = await api.call('GET', `${DELTA}?$deltatoken=${encodeURIComponent(bad)}`);
      expect(reply.status, bad.slice(0, 20)).toBe(400);
      expect(reply.body.error.message).toMatch(/token is not valid/);
      expect(reply.body.error.code).toBe('syncStateNotFound');
    }
    const otherFolder = await api.call('GET', `/me/mailFolders/archive/messages/delta?$deltatoken=${token}`);
    expect(otherFolder.status).toBe(400);
    expect((await api.call('GET', `${DELTA}?$deltatoken=${token}&$top=2`)).status).toBe(400);
  });

  it('serves another user through users/{id} and answers 404 for an unknown folder or user', async () => {
    const megan = await round(`/users/${U.megan}/mailFolders/inbox/messages/delta`);
    expect(megan.items.map((m) => m.subject)).toEqual(['Invitation: Release 4.2 go/no-go']);
    expect(megan.deltaLink).toContain(`/users('${U.megan}')/`);
    expect((await api.call('GET', '/me/mailFolders/nope/messages/delta')).status).toBe(404);
    expect((await api.call('GET', '/users/nobody@contoso.example/mailFolders/inbox/messages/delta')).status).toBe(404);
  });

  it("accepts the SDK spellings of the path: delta(), vendor.graph.delta and mailfolders('id')", async () => {
    for (const path of [
      '/me/mailFolders/inbox/messages/delta()',
      '/me/mailFolders/inbox/messages/vendor.graph.delta',
      "/me/mailfolders('inbox')/messages/delta",
    ]) {
      expect((await api.call('GET', path)).status, path).toBe(200);
    }
  });
});

describe('event forward', () => {
  const body = {
    Comment: 'Please join',
    ToRecipients: [{ EmailAddress: { Address: 'dana@fabrikam.example', Name: 'Dana Swope' } }],
  };

  it('answers 202 with no body through every path form, and 404 when a segment does not fit the event', async () => {
    const accepted = [
      '/me/events/evt-adele-gonogo/forward',
      `/users/${U.adele}/events/evt-adele-gonogo/forward`,
      '/users/adele@contoso.example/calendar/events/evt-adele-gonogo/forward',
      '/me/calendar/events/evt-adele-gonogo/forward',
      '/me/calendars/adele-release-planning/events/evt-adele-planning/forward',
      `/users/${U.adele}/calendars/adele-calendar/events/evt-adele-gonogo/forward`,
      '/me/calendarGroups/adele-projects/calendars/adele-release-planning/events/evt-adele-planning/forward',
      `/users/${U.adele}/calendarGroups/adele-calendars/calendars/adele-calendar/events/evt-adele-gonogo/forward`,
      `/groups/${SEED_IDS.groups.release}/events/evt-release-freeze/forward`,
      `/groups/${SEED_IDS.groups.release}/calendar/events/evt-release-freeze/forward`,
    ];
    for (const path of accepted) {
      const reply = await api.call('POST', path, { body });
      expect(reply.status, `${path}: ${reply.text}`).toBe(202);
      expect(reply.text).toBe('');
    }
    const refused = [
      '/me/calendar/events/evt-adele-planning/forward', // not in the default calendar
      '/me/calendars/adele-calendar/events/evt-adele-planning/forward', // another calendar
      '/me/calendarGroups/adele-calendars/calendars/adele-release-planning/events/evt-adele-planning/forward', // calendar not in the group
      '/me/events/evt-megan-gonogo/forward', // someone else's event
      `/groups/${SEED_IDS.groups.physics}/events/evt-release-freeze/forward`,
    ];
    for (const path of refused) expect((await api.call('POST', path, { body })).status, path).toBe(404);
  });

  it('adds the recipients to the organizer’s copy when an attendee forwards from a work or school mailbox, not from a personal account', async () => {
    const organizerCopy = async () => (await api.call('GET', '/me/events/evt-adele-gonogo')).body;
    const before = await organizerCopy();
    const megan = await api.token({ user: 'megan@contoso.example' });
    const forwarded = await api.call('POST', `/users/${U.megan}/events/evt-megan-gonogo/forward`, {
      token: megan,
      body: { ToRecipients: [{ EmailAddress: { Address: 'kai@fabrikam.example', Name: 'Kai' } }] },
    });
    expect(forwarded.status).toBe(202);
    const after = await organizerCopy();
    expect(after.attendees.length).toBe(before.attendees.length + 1);
    expect(after.attendees.at(-1)).toMatchObject({
      emailAddress: { address: 'kai@fabrikam.example', name: 'Kai' },
      type: 'optional',
    });
    const sam = await api.token({ user: 'sam@contoso.example' });
    const personal = await api.call('POST', `/users/${U.sam}/events/evt-sam-gonogo/forward`, {
      token: sam,
      body: { ToRecipients: [{ EmailAddress: { Address: 'robin@outlook.example' } }] },
    });
    expect(personal.status).toBe(202);
    expect((await organizerCopy()).attendees).toEqual(after.attendees);
  });

  it('accepts camelCase parameters and refuses a forward without recipients or with a bad address', async () => {
    const camel = await api.call('POST', '/me/events/evt-adele-gonogo/forward', {
      body: { comment: '', toRecipients: [{ emailAddress: { address: 'lee@contoso.example', name: 'Lee' } }] },
    });
    expect(camel.status).toBe(202);
    expect((await api.call('POST', '/me/events/evt-adele-gonogo/forward', { body: { Comment: 'x' } })).status).toBe(
      400,
    );
    expect(
      (
        await api.call('POST', '/me/events/evt-adele-gonogo/forward', {
          body: { ToRecipients: [{ EmailAddress: { Address: 'not an address' } }] },
        })
      ).status,
    ).toBe(400);
  });
});

describe('permanent delete of events', () => {
  it('deletes through every form (204), after which the event is gone (404)', async () => {
    const forms = [
      `/users/${U.adele}/messages/AAMkAGMsgAdele0003/event/instances/evt-adele-weekly-occ1/permanentDelete`,
      `/users/${U.adele}/messages/AAMkAGMsgAdele0003/event/exceptionOccurrences/evt-adele-weekly-exc1/permanentDelete`,
      `/users/${U.adele}/messages/AAMkAGMsgAdele0003/event/calendar/events/evt-adele-gonogo/permanentDelete`,
      `/users/${U.adele}/messages/AAMkAGMsgAdele0003/event/calendar/calendarView/evt-adele-weekly-occ2/permanentDelete`,
      `/users/${U.adele}/calendarView/evt-adele-planning/permanentDelete`,
      `/users/${U.adele}/messages/AAMkAGMsgAdele0003/event/permanentDelete`,
      `/groups/${SEED_IDS.groups.release}/calendarView/evt-release-freeze/permanentDelete`,
      `/users/${U.megan}/events/evt-megan-gonogo/permanentDelete`,
    ];
    for (const path of forms) {
      const reply = await api.call('POST', path, {
        token: path.includes(U.megan) ? await api.token({ user: 'megan@contoso.example' }) : undefined,
      });
      expect(reply.status, `${path}: ${reply.text}`).toBe(204);
    }
    expect((await api.call('POST', `/users/${U.adele}/events/evt-adele-gonogo/permanentDelete`)).status).toBe(404);
    expect(
      (await api.call('POST', `/groups/${SEED_IDS.groups.release}/events/evt-release-freeze/permanentDelete`)).status,
    ).toBe(404);
  });

  it('answers 404 when the event is not the one the message form names', async () => {
    // The exception is not an occurrence listed under instances of another series, and a message without an event has none.
    expect((await api.call('POST', `/users/${U.adele}/messages/AAMkAGMsgAdele0004/event/permanentDelete`)).status).toBe(
      404,
    );
    expect(
      (
        await api.call(
          'POST',
          `/users/${U.megan}/messages/AAMkAGMsgMegan0001/event/instances/evt-adele-weekly-occ1/permanentDelete`,
          { token: await api.token({ user: 'megan@contoso.example' }) },
        )
      ).status,
    ).toBe(404);
  });
});
