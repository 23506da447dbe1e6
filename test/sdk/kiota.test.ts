/**
 * Kiota's fetch request adapter (@microsoft/kiota-http-fetchlibrary) against the emulator, through its default
 * middleware (retry, redirect, user agent...) and a bearer provider whose allowed hosts name the emulator: over
 * HTTPS with the emulator's CA, and over plain HTTP on localhost, which Kiota allows for localhost only.
 */
import {
  AllowedHostsValidator,
  DefaultApiError,
  type ApiError,
  BaseBearerTokenAuthenticationProvider,
  HttpMethod,
  RequestInformation,
  type AccessTokenProvider,
} from '@microsoft/kiota-abstractions';
import { FetchRequestAdapter, KiotaClientFactory } from '@microsoft/kiota-http-fetchlibrary';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { tempDir } from '../helpers.js';

interface Collection<T> {
  value: T[];
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
}

/** The user's set-up: a bearer provider for the emulator's host, Kiota's default middleware, a fetch that trusts the CA. */
function adapterFor(
  baseUrl: string,
  token: string,
  ca?: string,
): { adapter: FetchRequestAdapter; close(): Promise<void> } {
  const tokens: AccessTokenProvider = {
    getAuthorizationToken: async () => token,
    getAllowedHostsValidator: () => new AllowedHostsValidator(new Set([new URL(baseUrl).host])),
  };
  const dispatcher = ca === undefined ? undefined : new Agent({ connect: { ca } });
  const fetchWithCa = (url: string, init: RequestInit) =>
    // undici's Agent is what Node's fetch takes as its dispatcher; its types and Node's bundled copy's differ.
    fetch(url, dispatcher === undefined ? init : ({ ...init, dispatcher } as unknown as RequestInit));
  const adapter = new FetchRequestAdapter(
    new BaseBearerTokenAuthenticationProvider(tokens),
    undefined,
    undefined,
    KiotaClientFactory.create(fetchWithCa),
  );
  adapter.baseUrl = `${baseUrl}/v1.0`;
  return { adapter, close: async () => dispatcher?.close() };
}

async function send<T>(adapter: FetchRequestAdapter, method: HttpMethod, url: string, body?: unknown): Promise<T> {
  const request = new RequestInformation(method);
  request.URL = url.startsWith('http') ? url : `${adapter.baseUrl}${url}`;
  request.headers.tryAdd('Accept', 'application/json');
  if (body !== undefined)
    request.setStreamContent(new TextEncoder().encode(JSON.stringify(body)).buffer as ArrayBuffer, 'application/json');
  const bytes = await adapter.sendPrimitive<ArrayBuffer>(request, 'ArrayBuffer', undefined);
  return (bytes === undefined || bytes.byteLength === 0 ? undefined : JSON.parse(new TextDecoder().decode(bytes))) as T;
}

for (const transport of ['https', 'http on localhost'] as const) {
  describe(`Kiota's fetch adapter against the emulator (${transport})`, () => {
    const requests: string[] = [];
    let emulator: RunningEmulator;
    let client: { adapter: FetchRequestAdapter; close(): Promise<void> };
    let throttles = 0;

    beforeAll(async () => {
      emulator = await startEmulator({
        port: 0,
        ...(transport === 'https' ? { tls: true, tlsDir: tempDir() } : {}),
        log: (line) => requests.push(line),
        throttle: { rate: 0.5, retryAfterSeconds: 0.05, random: () => (throttles > 0 ? (throttles--, 0) : 1) },
      });
      const port = new URL(emulator.url).port;
      const base = transport === 'https' ? emulator.url : `http://localhost:${port}`;
      client = adapterFor(base, await emulator.token(), emulator.ca);
    });
    afterAll(async () => {
      await client?.close();
      await emulator?.close();
    });

    it('lists phone methods with the token sent', async () => {
      const phones = await send<Collection<{ phoneType: string }>>(
        client.adapter,
        HttpMethod.GET,
        '/me/authentication/phoneMethods',
      );
      expect(phones.value).toHaveLength(3);
    });

    it('pages a message delta to its deltaLink, and resumes a second round from it', async () => {
      let page = await send<Collection<{ id: string }>>(
        client.adapter,
        HttpMethod.GET,
        '/me/mailFolders/inbox/messages/delta?$top=2',
      );
      let pages = 1;
      while (page['@odata.nextLink'] !== undefined) {
        expect(page['@odata.nextLink']).toMatch(new RegExp(`^${client.adapter.baseUrl}/`));
        page = await send(client.adapter, HttpMethod.GET, page['@odata.nextLink']);
        pages++;
      }
      expect(pages).toBeGreaterThan(1);
      const deltaLink = page['@odata.deltaLink']!;
      await send(client.adapter, HttpMethod.POST, '/me/mailFolders/inbox/messages', { subject: `Kiota ${transport}` });
      const second = await send<Collection<{ subject: string }>>(client.adapter, HttpMethod.GET, deltaLink);
      expect(second.value.map((m) => m.subject)).toEqual([`Kiota ${transport}`]);
    });

    it('reads a bulk removal’s 207 body', async () => {
      const bind = (user: string) => ({
        '@odata.type': 'vendor.graph.dirUserConversationMember',
        'user@odata.bind': `${client.adapter.baseUrl}/users('${user}')`,
      });
      const result = await send<Collection<{ error: unknown }>>(
        client.adapter,
        HttpMethod.POST,
        `/teams/${SEED_IDS.groups.release}/members/remove`,
        { values: [bind(SEED_IDS.users.lee), bind('nobody@contoso.example')] },
      );
      expect(result.value.map((r) => r.error === null)).toEqual([true, false]);
    });

    it('rides out throttling with its default RetryHandler (Retry-After honoured)', async () => {
      requests.length = 0;
      throttles = 1;
      const methods = await send<Collection<unknown>>(client.adapter, HttpMethod.GET, '/me/authentication/methods');
      expect(methods.value.length).toBeGreaterThan(0);
      expect(requests.map((line) => line.split(' ')[2])).toEqual(['429', '200']);
    });

    it('turns the emulator’s error into an ApiError with the status and the request-id header', async () => {
      requests.length = 0;
      const error = await send(
        client.adapter,
        HttpMethod.GET,
        '/users/nobody@contoso.example/authentication/phoneMethods',
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DefaultApiError);
      expect((error as ApiError).responseStatusCode).toBe(404);
      const requestId = /request-id=(\S+)/.exec(requests.at(-1)!)![1];
      expect((error as ApiError).responseHeaders?.['request-id']).toEqual([requestId]);
    });
  });
}
