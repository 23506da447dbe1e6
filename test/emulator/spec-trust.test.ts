/**
 * The emulator keeps the spec's promises to a client written to the spec alone, over raw HTTP on 127.0.0.1: the
 * clone operation's status words, hostile request bytes refused with a 400 naming the member, and message delta
 * links that keep their page size.
 */
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { openApiDocument } from '../../src/service/openapi.js';
import { useEmulator, type Body } from './harness.js';

const G = SEED_IDS.groups;
const api = useEmulator({ clonePolls: 2 });

interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Body;
  text: string;
}

/** One request with the exact bytes given (no URL normalisation, no body encoding). */
async function raw(
  method: string,
  path: string,
  options: { body?: Buffer | string; headers?: Record<string, string>; token?: boolean } = {},
): Promise<RawReply> {
  const url = new URL(api.emulator.url);
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== false) headers.Authorization = `Bearer ${await api.token()}`;
  if (options.body !== undefined) {
    headers['Content-Type'] ??= 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(options.body));
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path: `/v1.0${path}`, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: Body;
          try {
            body = text === '' ? undefined : JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: response.statusCode!, headers: response.headers, body, text });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('clone status words (spec: States and transitions)', () => {
  it('a client that polls "until its status is no longer running" gets the new team id', async () => {
    const started = await raw('POST', `/teams/${G.release}/clone`, {
      body: JSON.stringify({ displayName: 'Spec client', partsToClone: 'channels' }),
    });
    expect(started.status, started.text).toBe(202);
    const location = String(started.headers.location);
    const statuses: string[] = [];
    let operation: Body;
    // The spec's rule, literally: poll while the status is running (bounded here, so a bug cannot hang the test).
    for (let polls = 0; polls < 10; polls++) {
      operation = (await raw('GET', location.replace(/^\/v1\.0/, ''))).body;
      statuses.push(operation.status);
      if (operation.status !== 'running') break;
    }
    expect(statuses).toEqual(['running', 'running', 'succeeded']);
    expect(operation.targetResourceId).toMatch(/^[0-9a-f-]{36}$/);
    const group = await raw('GET', `/groups/${String(operation.targetResourceId)}`);
    expect(group.body.displayName).toBe('Spec client');
  });

  it('OpenAPI gives the status its three values', () => {
    const schemas = (openApiDocument('0.0.0') as Body).components.schemas;
    expect(schemas['resource.teamsAsyncOperation'].properties.status).toEqual({
      enum: ['running', 'succeeded', 'failed'],
    });
  });
});

describe('message delta keeps Prefer: odata.maxpagesize in its links', () => {
  const DELTA = '/me/mailFolders/inbox/messages/delta';

  it('every page of a round, and the next round, holds the first request’s page size without the header', async () => {
    const first = await raw('GET', DELTA, { headers: { Prefer: 'odata.maxpagesize=2' } });
    expect(first.headers['preference-applied']).toBe('odata.maxpagesize=2');
    const sizes = [first.body.value.length];
    let page = first;
    // The link is followed unchanged and without the Prefer header: the size must come from the link.
    while (page.body['@odata.nextLink'] !== undefined) {
      const link = new URL(String(page.body['@odata.nextLink']));
      page = await raw('GET', `${link.pathname.replace(/^\/v1\.0/, '')}${link.search}`);
      expect(page.status, page.text).toBe(200);
      expect(page.headers['preference-applied']).toBe('odata.maxpagesize=2');
      sizes.push(page.body.value.length);
    }
    // The seed's inbox holds five messages: 2 + 2 + 1, not 2 + everything else.
    expect(sizes).toEqual([2, 2, 1]);
    for (let i = 0; i < 3; i++)
      await raw('POST', '/me/mailFolders/inbox/messages', { body: JSON.stringify({ subject: `new ${i}` }) });
    const link = new URL(String(page.body['@odata.deltaLink']));
    const next = await raw('GET', `${link.pathname.replace(/^\/v1\.0/, '')}${link.search}`);
    expect(next.body.value).toHaveLength(2);
    expect(next.body['@odata.nextLink']).toBeDefined();
  });

  it('a Prefer header on a later page takes precedence over the link’s', async () => {
    const first = await raw('GET', DELTA, { headers: { Prefer: 'odata.maxpagesize=1' } });
    const link = new URL(String(first.body['@odata.nextLink']));
    const page = await raw('GET', `${link.pathname.replace(/^\/v1\.0/, '')}${link.search}`, {
      headers: { Prefer: 'odata.maxpagesize=3' },
    });
    expect(page.headers['preference-applied']).toBe('odata.maxpagesize=3');
    expect(page.body.value).toHaveLength(3);
  });
});
