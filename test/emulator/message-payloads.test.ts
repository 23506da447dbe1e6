/**
 * Real message payloads, as the SDKs send them: property names read without regard to case (Kiota sends the move
 * action's `DestinationId`), and the message parts besides subject and body (recipients, importance...).
 */
import { describe, expect, it } from 'vitest';
import { inDeclaredNames } from '../../src/service/shape-check.js';
import { useEmulator } from './harness.js';

const api = useEmulator();
const recipient = (address: string) => ({ emailAddress: { address, name: address.split('@')[0] } });

describe('property names', () => {
  it('are matched to the declared ones without regard to case, at any depth; a collision is left as sent', () => {
    expect(inDeclaredNames('messageMove', { DestinationId: 'archive' })).toEqual({ destinationId: 'archive' });
    expect(inDeclaredNames('messageMove', { DESTINATIONID: 'archive' })).toEqual({ destinationId: 'archive' });
    expect(
      inDeclaredNames('message', { Subject: 's', ToRecipients: [{ emailAddress: { Address: 'a@b.example' } }] }),
    ).toEqual({
      subject: 's',
      toRecipients: [{ emailAddress: { Address: 'a@b.example' } }],
    });
    expect(inDeclaredNames('messageMove', { destinationId: 'a', DestinationId: 'b' })).toEqual({
      destinationId: 'a',
      DestinationId: 'b',
    });
    expect(inDeclaredNames('messageMove', { nope: 1 })).toEqual({ nope: 1 });
    expect(inDeclaredNames('messageMove', 'text')).toBe('text');
  });

  it('let a move with DestinationId through, and refuse one that names the folder twice', async () => {
    const created = await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: 'to move' } });
    const moved = await api.call('POST', `/me/messages/${created.body.id}/move`, {
      body: { DestinationId: 'archive' },
    });
    expect(moved.status, moved.text).toBe(201);
    const twice = await api.call('POST', `/me/messages/${moved.body.id}/move`, {
      body: { destinationId: 'inbox', DestinationId: 'archive' },
    });
    expect(twice.status).toBe(400);
    expect(twice.body.error.message).toBe(
      "Property 'DestinationId' does not exist on type 'vendor.graph.message.move' (at the body).",
    );
  });
});

describe('message parts', () => {
  it('are taken on create and update, kept and answered: recipients, importance, categories', async () => {
    const created = await api.call('POST', '/me/mailFolders/inbox/messages', {
      body: {
        subject: 'Release 4.2',
        importance: 'high',
        toRecipients: [recipient('megan@contoso.example')],
        ccRecipients: [recipient('alex@contoso.example')],
        categories: ['release'],
        isReadReceiptRequested: true,
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      importance: 'high',
      toRecipients: [recipient('megan@contoso.example')],
      ccRecipients: [recipient('alex@contoso.example')],
      categories: ['release'],
      isReadReceiptRequested: true,
    });
    const updated = await api.call('PATCH', `/me/messages/${created.body.id}`, { body: { Importance: 'low' } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.importance).toBe('low');
    const round = await api.call('GET', '/me/mailFolders/inbox/messages/delta?$select=subject,importance,toRecipients');
    const item = (round.body.value as Record<string, unknown>[]).find((m) => m.subject === 'Release 4.2');
    expect(item).toMatchObject({ importance: 'low', toRecipients: [recipient('megan@contoso.example')] });
    expect(item!.categories).toBeUndefined();
  });

  it('refuses a value the message resource does not have', async () => {
    for (const body of [
      { importance: 'urgent' },
      { toRecipients: [{ emailAddress: { address: 'not an address' } }] },
      { toRecipients: [{}] },
      { categories: 'release' },
    ]) {
      const reply = await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: 'x', ...body } });
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('reading messages', () => {
  it('GET /me/messages/{id} answers the message (with $select); another user’s id or an unknown one is 404', async () => {
    const created = await api.call('POST', '/me/mailFolders/inbox/messages', {
      body: { subject: 'read me', importance: 'high' },
    });
    const got = await api.call('GET', `/me/messages/${created.body.id}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toMatchObject({ id: created.body.id, subject: 'read me', importance: 'high' });
    const selected = await api.call('GET', `/me/messages/${created.body.id}?$select=subject`);
    expect(selected.body.subject).toBe('read me');
    expect(selected.body.importance).toBeUndefined();
    expect((await api.call('GET', '/me/messages/AAMkAGnothing')).status).toBe(404);
    const megan = await api.token({ user: 'megan@contoso.example' });
    expect((await api.call('GET', `/me/messages/${created.body.id}`, { token: megan })).status).toBe(404);
  });

  it('GET …/messages lists a mailbox or a folder newest first, in pages of $top that follow on with $skip', async () => {
    const inbox = await api.call('GET', '/me/mailFolders/inbox/messages?$top=2&$select=subject,receivedDateTime');
    expect(inbox.status, inbox.text).toBe(200);
    expect(inbox.body.value).toHaveLength(2);
    const times = (inbox.body.value as { receivedDateTime: string }[]).map((m) => m.receivedDateTime);
    expect([...times].sort().reverse()).toEqual(times);
    const all: string[] = [];
    let next: string | undefined = inbox.body['@odata.nextLink'];
    for (const item of inbox.body.value as { id: string }[]) all.push(item.id);
    while (next !== undefined) {
      const page = await api.call('GET', next);
      expect(page.status, page.text).toBe(200);
      for (const item of page.body.value as { id: string }[]) all.push(item.id);
      next = page.body['@odata.nextLink'];
    }
    expect(new Set(all).size).toBe(all.length);
    const whole = await api.call('GET', '/me/mailFolders/inbox/messages?$top=1000');
    expect(whole.body.value).toHaveLength(all.length);
    expect(whole.body['@odata.nextLink']).toBeUndefined();
    const mailbox = await api.call('GET', '/me/messages?$top=1000');
    expect(mailbox.body.value.length).toBeGreaterThanOrEqual(all.length);
    for (const [query, ok] of [
      ['$top=0', false],
      ['$top=1', true],
      ['$top=1000', true],
      ['$top=1001', false],
      ['$skip=-1', false],
      ['$skip=0', true],
    ] as const)
      expect((await api.call('GET', `/me/messages?${query}`)).status, query).toBe(ok ? 200 : 400);
  });
});
