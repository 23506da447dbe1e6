import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { createServiceClient, type ServiceClient } from '../../src/service/client.js';
import { invoke, pages, pathFor } from '../../src/service/invoke.js';
import { operationNamed } from '../../src/service/operations.js';
import { useEmulator } from '../emulator/harness.js';

const api = useEmulator();
let client: ServiceClient;
beforeAll(() => {
  client = createServiceClient({ baseUrl: api.emulator.url, getToken: () => api.token() });
});
afterAll(() => client.close());

describe('choosing the path form', () => {
  it('uses /me without a user or with "me", users/{id} for a named user, and the form that takes exactly the parameters', () => {
    const phones = operationNamed('listPhoneMethods')!;
    expect(pathFor(phones)).toBe('/me/authentication/phoneMethods');
    expect(pathFor(phones, { user: 'me' })).toBe('/me/authentication/phoneMethods');
    expect(pathFor(phones, { user: 'a@b.example' })).toBe('/users/a%40b.example/authentication/phoneMethods');
    const forward = operationNamed('forwardEvent')!;
    expect(pathFor(forward, { event: 'e' })).toBe('/me/events/e/forward');
    expect(pathFor(forward, { group: 'g', event: 'e' })).toBe('/groups/g/events/e/forward');
    expect(pathFor(forward, { calendarGroup: 'cg', calendar: 'c', event: 'e' })).toBe(
      '/me/calendarGroups/cg/calendars/c/events/e/forward',
    );
    expect(() => pathFor(forward, { event: 'e', colour: 'red' })).toThrow(/takes one of these sets of path parameters/);
    expect(() => pathFor(forward, {})).toThrow(expect.objectContaining({ code: 'E_REQUEST_SHAPE' }));
  });
});

describe('invoke', () => {
  it('calls an operation by name, with a chosen path form where several take the same parameters', async () => {
    const phones = await invoke(client, 'listPhoneMethods', { params: { user: SEED_IDS.users.megan } });
    expect((phones.body as { value: unknown[] }).value).toHaveLength(1);
    const forwarded = await invoke(client, 'forwardEvent', {
      template: '/me/calendar/events/{event}/forward',
      params: { event: 'evt-adele-gonogo' },
      body: { ToRecipients: [{ EmailAddress: { Address: 'dana@fabrikam.example' } }] },
    });
    expect(forwarded.status).toBe(202);
  });

  it('refuses a body of the wrong shape, a body where none is taken, and unknown query options, before sending', async () => {
    const cases: [string, Parameters<typeof invoke>[2], RegExp][] = [
      [
        'forwardEvent',
        { params: { event: 'e' }, body: { Comment: 'x' } },
        /forwardEvent: the body must have required property 'ToRecipients'/,
      ],
      [
        'updateNamedRangeBorder',
        { params: { item: 'i', name: 'n', sideIndex: 'EdgeTop' }, body: { style: 'Wavy' } },
        /\/style must be equal to one of the allowed values/,
      ],
      [
        'addChannelTab',
        { params: { team: 't', channel: 'c' }, body: { 'teamsApp@odata.bind': 'x', colour: 'red' } },
        /must NOT have additional properties 'colour'/,
      ],
      ['listPhoneMethods', { body: {} }, /takes no request body/],
      ['listPhoneMethods', { query: { $top: 1 } }, /takes no query options/],
      [
        'listTableColumns',
        { params: { item: 'i', table: 't' }, query: { $expand: 'x' } },
        /takes the query options \$filter, \$orderby, \$select, \$top, \$skip, \$count, not \$expand/,
      ],
      ['cloneTeam', { params: { team: 't' } }, /needs a request body/],
      ['nope', {}, /No operation named "nope"/],
      [
        'replyToThread',
        {
          params: { group: 'g', thread: 't' },
          body: {
            post: {
              body: { contentType: 'text', content: 'x' },
              attachments: [
                {
                  '@odata.type': '#vendor.graph.fileAttachment',
                  name: 'big.bin',
                  contentBytes: Buffer.alloc(3 * 1024 * 1024).toString('base64'),
                },
              ],
            },
          },
        },
        /attachment 0 \(big\.bin\) is 3145728 bytes; an attachment must stay under 3 MB/,
      ],
      [
        'forwardEvent',
        { template: '/elsewhere/{event}', params: { event: 'e' } },
        /is not a path form of forwardEvent/,
      ],
    ];
    for (const [name, options, message] of cases)
      await expect(invoke(client, name, options), name).rejects.toMatchObject({
        code: 'E_REQUEST_SHAPE',
        message: expect.stringMatching(message),
      });
  });
});

describe('pages', () => {
  it('follows every nextLink of a collection, unchanged', async () => {
    for (let i = 0; i < 25; i++)
      await invoke(client, 'createMessage', { params: { folder: 'archive' }, body: { subject: `page test ${i}` } });
    const first = await invoke(client, 'messageDelta', {
      params: { folder: 'archive' },
      query: { $top: 7, $select: 'subject' },
    });
    const subjects: string[] = [];
    for await (const item of pages(client, first)) subjects.push((item as { subject: string }).subject);
    expect(subjects.filter((s) => s.startsWith('page test'))).toHaveLength(25);
    expect(subjects).toContain('Release 4.1 retrospective');
  });
});

describe('request checks, edges', () => {
  const reply = (attachments: unknown[]) => ({
    params: { group: 'g', thread: 't' },
    body: { post: { body: { contentType: 'text', content: 'x' }, attachments } },
  });
  const file = (bytes: number, padding = '') => ({
    '@odata.type': '#vendor.graph.fileAttachment',
    name: 'f.bin',
    contentBytes: Buffer.alloc(bytes).toString('base64').replace(/=+$/, '') + padding,
  });

  it('names the parameter sets an operation takes when the ones given fit none', () => {
    expect(() => pathFor(operationNamed('listPhoneMethods')!, { colour: 'red' })).toThrow(
      'listPhoneMethods takes one of these sets of path parameters: {} or {user}; got {colour}',
    );
    expect(() => pathFor(operationNamed('getGroup')!, {})).toThrow(
      /^getGroup takes one of these sets of path parameters: \{group\}; got \{\}$/,
    );
    // An undefined parameter is not given; 'me' for the user is the /me form.
    expect(pathFor(operationNamed('getGroup')!, { group: 'g', user: undefined })).toBe('/groups/g');
  });

  it('measures an attachment by its decoded size, padding or not; an item attachment by its JSON', async () => {
    const limit = 3 * 1024 * 1024;
    const refused = (name: string, options: Parameters<typeof invoke>[2]) =>
      expect(invoke(client, 'replyToThread', options), name).rejects.toThrow(/an attachment must stay under 3 MB/);
    await refused('exactly 3 MB', reply([file(limit)]));
    await refused('3 MB, padded', reply([file(limit, '==')]));
    await refused('second attachment', reply([file(10), file(limit)]));
    await expect(invoke(client, 'replyToThread', reply([file(limit, '==')]))).rejects.toThrow(
      /attachment 0 \(f\.bin\) is 3145728 bytes/,
    );
    const item = {
      '@odata.type': '#vendor.graph.itemAttachment',
      name: 'meeting',
      item: { '@odata.type': 'vendor.graph.event', subject: 's'.repeat(4096) },
    };
    // Under the limit: the request is sent (and the thread does not exist here: the service says so).
    await expect(invoke(client, 'replyToThread', reply([item]))).rejects.toMatchObject({ code: 'E_SERVICE' });
  });

  it('takes an optional body for a workbook session, none for closing one, and sends the session header', async () => {
    const item = SEED_IDS.workbook;
    const created = await invoke(client, 'createWorkbookSession', { params: { item } });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    await expect(invoke(client, 'closeWorkbookSession', { params: { item }, body: {} })).rejects.toThrow(
      /closeWorkbookSession takes no request body/,
    );
    const closed = await invoke(client, 'closeWorkbookSession', { params: { item }, workbookSessionId: id });
    expect(closed.status).toBe(204);
    await expect(invoke(client, 'cloudPcRestoreMissing', {})).rejects.toThrow(/No operation named/);
    await expect(invoke(client, 'restoreCloudPc', { params: { cloudPc: 'x' } })).rejects.toThrow(
      'restoreCloudPc needs a request body (vendor.graph.cloudPC.restore)',
    );
  });

  it('refuses a path form whose parameters are missing, naming the operation', async () => {
    await expect(
      invoke(client, 'forwardEvent', { template: '/me/calendar/events/{event}/forward', params: {} }),
    ).rejects.toMatchObject({ code: 'E_REQUEST_SHAPE', message: expect.stringMatching(/^forwardEvent: .*event/) });
  });
});
