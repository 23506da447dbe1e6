/**
 * The Graph JS SDK (@microsoft/microsoft-graph-client 3.x) against the emulator over HTTPS, written the way its
 * users write it: only the base URL, `customHosts`, the token and the CA differ from code that calls the real
 * service. The SDK sends its token, client-request-id and SdkVersion only to https:// hosts it knows, so this works
 * over HTTPS only.
 */
import { Client, GraphError, PageIterator, RetryHandlerOptions } from '@microsoft/microsoft-graph-client';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { tempDir } from '../helpers.js';

const requests: string[] = [];
let emulator: RunningEmulator;
let client: Client;
let dispatcher: Agent;
/** Requests to throttle (each answered 429 once, then let through after Retry-After). */
let throttles = 0;

beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    tls: true,
    tlsDir: tempDir(),
    log: (line) => requests.push(line),
    throttle: { rate: 0.5, retryAfterSeconds: 0.05, random: () => (throttles > 0 ? (throttles--, 0) : 1) },
  });
  const token = await emulator.token();
  dispatcher = new Agent({ connect: { ca: emulator.ca } });
  // The user's code: the SDK's documented options, pointed at the emulator.
  client = Client.init({
    baseUrl: emulator.url,
    customHosts: new Set([new URL(emulator.url).hostname]),
    authProvider: (done) => done(null, token),
    // undici's Agent is what Node's fetch takes as its dispatcher; its types and Node's bundled copy's differ.
    fetchOptions: { dispatcher } as unknown as RequestInit,
  });
});

afterAll(async () => {
  await emulator?.close();
  await dispatcher?.close();
});

interface Collection<T> {
  value: T[];
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
}

describe('the Graph JS SDK against the emulator (HTTPS)', () => {
  it('lists phone methods, its token and client-request-id sent', async () => {
    const phones = (await client.api('/me/authentication/phoneMethods').get()) as Collection<{ phoneType: string }>;
    expect(phones.value.map((p) => p.phoneType).sort()).toEqual(['alternateMobile', 'mobile', 'office']);
  });

  it('pages a message delta to its deltaLink with PageIterator, and a second round resumes with only the change', async () => {
    const seen: string[] = [];
    const first = (await client.api('/me/mailFolders/inbox/messages/delta').top(2).get()) as Collection<{ id: string }>;
    const iterator = new PageIterator(client, first, (message: { id: string }) => {
      seen.push(message.id);
      return true;
    });
    await iterator.iterate();
    expect(seen.length).toBeGreaterThan(2);
    const deltaLink = iterator.getDeltaLink();
    expect(deltaLink).toMatch(new RegExp(`^${emulator.url}/v1\\.0/`));
    await client.api('/me/mailFolders/inbox/messages').post({ subject: 'Release notes 4.2' });
    const changes: { subject?: string }[] = [];
    const second = (await client.api(deltaLink!).get()) as Collection<{ subject?: string }>;
    const next = new PageIterator(client, second, (message: { subject?: string }) => {
      changes.push(message);
      return true;
    });
    await next.iterate();
    expect(changes.map((m) => m.subject)).toEqual(['Release notes 4.2']);
  });

  it('reads a bulk removal’s 207 body, one result per member', async () => {
    const bind = (user: string) => ({
      '@odata.type': 'vendor.graph.dirUserConversationMember',
      'user@odata.bind': `${emulator.url}/v1.0/users('${user}')`,
    });
    const result = (await client
      .api(`/teams/${SEED_IDS.groups.release}/members/remove`)
      .post({ values: [bind(SEED_IDS.users.lee), bind('nobody@contoso.example')] })) as Collection<{
      userId: string;
      error: { code: string } | null;
    }>;
    expect(result.value).toHaveLength(2);
    expect(result.value[0]!.error).toBeNull();
    expect(result.value[1]!.error).not.toBeNull();
  });

  it('rides out throttling with its RetryHandler, honouring Retry-After', async () => {
    requests.length = 0;
    throttles = 1;
    const methods = (await client
      .api('/me/authentication/methods')
      .middlewareOptions([new RetryHandlerOptions(0, 3)])
      .get()) as Collection<unknown>;
    expect(methods.value.length).toBeGreaterThan(0);
    expect(requests.map((line) => line.split(' ')[2])).toEqual(['429', '200']);
  });

  it('gets GraphError fields (statusCode, code, requestId, date) from the emulator’s error body', async () => {
    requests.length = 0;
    const error = await client
      .api('/users/nobody@contoso.example/authentication/phoneMethods')
      .get()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphError);
    const graphError = error as GraphError;
    expect(graphError.statusCode).toBe(404);
    expect(graphError.code).toMatch(/NotFound/);
    expect(graphError.requestId).toBe(/request-id=(\S+)/.exec(requests.at(-1)!)![1]);
    expect(graphError.date).toBeInstanceOf(Date);
  });
});
