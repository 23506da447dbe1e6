/**
 * invoke(), pathFor(), checkBody() and pages() at their edges, against a scripted server on 127.0.0.1: parameters
 * whose value is "me", the messages a refused body gives, the attachment limit at its exact boundary, the session
 * header only when asked, and paging up to and past maxPages.
 */
import { describe, expect, it } from 'vitest';
import { checkBody, invoke, MAX_ATTACHMENT_BYTES, pages, pathFor } from '../../src/service/invoke.js';
import { operationNamed } from '../../src/service/operations.js';
import type { ServiceError } from '../../src/service/errors.js';
import { scripted, serviceClient as client } from './scripted.js';

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as ServiceError,
  );
const thrown = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as ServiceError;
  }
  return undefined;
};

describe('path forms', () => {
  it('only the user parameter is the /me form when it is "me"; another parameter named me is an id', () => {
    expect(pathFor(operationNamed('getGroup')!, { group: 'me' })).toBe('/groups/me');
    expect(pathFor(operationNamed('listPhoneMethods')!, { user: 'me' })).toBe('/me/authentication/phoneMethods');
  });

  it('names every parameter set with its members, comma-separated', () => {
    const error = thrown(() => pathFor(operationNamed('forwardEvent')!, { calendar: 'c' }));
    expect(error!.code).toBe('E_REQUEST_SHAPE');
    expect(error!.message).toMatch(/\{calendarGroup, calendar, event\}/);
    const got = thrown(() => pathFor(operationNamed('getGroup')!, { team: 't', channel: 'c' }));
    expect(got!.message).toMatch(/; got \{team, channel\}$/);
  });
});

describe('request bodies', () => {
  it('says where a body is wrong: the body itself, a member by its pointer, an unknown member by its name', () => {
    const clone = operationNamed('cloneTeam')!;
    expect(thrown(() => checkBody(clone, 'text'))).toMatchObject({
      code: 'E_REQUEST_SHAPE',
      message: 'cloneTeam: the body must be object',
    });
    expect(thrown(() => checkBody(clone, { displayName: 5, partsToClone: 'apps' }))!.message).toBe(
      'cloneTeam: /displayName must be string',
    );
    expect(thrown(() => checkBody(clone, { displayName: 'x', partsToClone: 'apps', colour: 'red' }))!.message).toBe(
      "cloneTeam: the body must NOT have additional properties 'colour'",
    );
    // Other bodies are not measured as thread replies.
    expect(() => checkBody(clone, { displayName: 'x', partsToClone: 'apps' })).not.toThrow();
  });

  const reply = (attachments: unknown[]) => ({ post: { body: { contentType: 'text', content: 'x' }, attachments } });
  const replyTo = operationNamed('replyToThread')!;

  it('measures base64 without its padding, at the exact limit', () => {
    // 4,194,303 characters decode to 3,145,727 bytes: just under 3 MiB, whatever padding follows.
    const justUnder = 'A'.repeat(4_194_303);
    expect(Math.floor((justUnder.length * 3) / 4)).toBe(MAX_ATTACHMENT_BYTES - 1);
    const file = (contentBytes: string, name = 'f.bin') => ({
      '@odata.type': '#vendor.graph.fileAttachment',
      name,
      contentBytes,
    });
    expect(() => checkBody(replyTo, reply([file(`${justUnder}==`)]))).not.toThrow();
    expect(() => checkBody(replyTo, reply([file(`${justUnder}=`)]))).not.toThrow();
    expect(thrown(() => checkBody(replyTo, reply([file(`${justUnder}A`)])))!.message).toBe(
      'replyToThread: attachment 0 (f.bin) is 3145728 bytes; an attachment must stay under 3 MB',
    );
    const long = 'n'.repeat(200);
    expect(thrown(() => checkBody(replyTo, reply([file(`${justUnder}A`, long)])))!.message).toContain(
      `(${'n'.repeat(60)}) is`,
    );
  });

  it('measures an item attachment by its JSON, and a reference attachment as nothing', () => {
    const item = (subjectLength: number) => ({
      '@odata.type': '#vendor.graph.itemAttachment',
      name: 'meeting',
      item: { '@odata.type': 'vendor.graph.event', subject: 's'.repeat(subjectLength) },
    });
    expect(() => checkBody(replyTo, reply([item(100)]))).not.toThrow();
    const error = thrown(() => checkBody(replyTo, reply([item(MAX_ATTACHMENT_BYTES)])));
    // The subject is capped by its schema first, or the size refuses it: either way it is not sent.
    expect(error!.code).toBe('E_REQUEST_SHAPE');
    const reference = {
      '@odata.type': '#vendor.graph.referenceAttachment',
      name: 'link',
      sourceUrl: 'https://files.example/bom.json',
    };
    expect(() => checkBody(replyTo, reply([reference]))).not.toThrow();
  });
});

describe('invoke', () => {
  it('sends Workbook-Session-Id only when a session is given', async () => {
    const server = await scripted([() => ({ status: 200, body: { value: [] } })]);
    const api = client(server.url);
    await invoke(api, 'listTableColumns', { params: { item: 'i', table: 't' } });
    await invoke(api, 'listTableColumns', { params: { item: 'i', table: 't' }, workbookSessionId: 's-1' });
    expect('workbook-session-id' in server.seen[0]!.headers).toBe(false);
    expect(server.seen[1]!.headers['workbook-session-id']).toBe('s-1');
  });
});

describe('pages', () => {
  const page = (ids: string[], next?: string) => ({
    status: 200,
    body: { value: ids.map((id) => ({ id })), ...(next === undefined ? {} : { '@odata.nextLink': next }) },
  });

  async function chain(count: number) {
    const server = await scripted(
      Array.from({ length: count }, (_, i) => () => page([`p${i}`], i + 1 < count ? `/page${i + 1}` : undefined)),
    );
    const api = client(server.url);
    const first = await api.call({ method: 'GET', path: '/start' });
    return { api, first, server };
  }

  it('yields the items of every page, up to and including maxPages, and refuses one more', async () => {
    const three = await chain(3);
    const items: unknown[] = [];
    for await (const item of pages(three.api, three.first, undefined, 3)) items.push(item);
    expect(items).toEqual([{ id: 'p0' }, { id: 'p1' }, { id: 'p2' }]);
    const again = await chain(3);
    const error = await rejection(
      (async () => {
        for await (const item of pages(again.api, again.first, undefined, 2)) void item;
      })(),
    );
    expect(error).toMatchObject({
      code: 'E_LINK_LOOP',
      message:
        'the collection: stopped after 2 pages of @odata.nextLink (raise maxPages if the collection is really that long)',
    });
    // The third page was never asked for.
    expect(again.server.seen).toHaveLength(2);
  });

  it('refuses a page that is null, text or has no value array, and a next link that is not a string', async () => {
    for (const body of [null, 'text', { items: [] }, { value: 5 }]) {
      const server = await scripted([() => ({ status: 200, body })]);
      const api = client(server.url);
      const first = await api.call({ method: 'GET', path: '/x' });
      const error = await rejection(
        (async () => {
          for await (const item of pages(api, first)) void item;
        })(),
      );
      expect(error, JSON.stringify(body)).toMatchObject({
        code: 'E_RESPONSE_SHAPE',
        message: 'A collection page has no "value" array',
        status: 200,
      });
    }
    const server = await scripted([() => ({ status: 200, body: { value: [], '@odata.nextLink': 7 } })]);
    const api = client(server.url);
    const first = await api.call({ method: 'GET', path: '/x' });
    const error = await rejection(
      (async () => {
        for await (const item of pages(api, first)) void item;
      })(),
    );
    expect(error).toMatchObject({ code: 'E_RESPONSE_SHAPE', message: '@odata.nextLink is not a string' });
  });
});
