/**
 * A service that names its types `microsoft.graph.*` (the emulator with `odataNamespace: 'microsoft.graph'`, as the
 * real service does): the typed client, the flows' type checks and the emulator's own texts all follow it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { enrichAuthors } from '../../src/flows/authors.js';
import { findPublishedReply, publishThread } from '../../src/flows/publish.js';
import { createClient, type ServiceApi } from '../../src/service/index.js';
import { useService } from '../emulator/harness.js';

const { harness: api, requests, service: client } = useService({ odataNamespace: 'microsoft.graph' });
let service: ServiceApi;
beforeAll(() => {
  service = client();
});

const G = SEED_IDS.groups.release;
const SUPPLIERS = SEED_IDS.threads.suppliers;
const U = SEED_IDS.users;
const bom = (version: number) =>
  `${JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.6', serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79', version })}\n`;

describe('the typed client against microsoft.graph', () => {
  it('reads typed methods (the real name of the renamed one too) and hands them back in the spec names', async () => {
    const wire = await api.call('GET', `/users/${U.adele}/authentication/methods`);
    const wireTypes = (wire.body.value as { '@odata.type': string }[]).map((m) => m['@odata.type']);
    expect(wireTypes).toContain('#microsoft.graph.fido2AuthenticationMethod');
    const alex = await api.call('GET', `/users/${U.alex}/authentication/methods`);
    expect(alex.body.value[0]['@odata.type']).toBe('#microsoft.graph.windowsHelloForBusinessAuthenticationMethod');
    const methods = await service.authenticationMethods.listAuthenticationMethods({ user: U.alex }).all();
    expect(methods.map((m) => m['@odata.type'])).toEqual(['#vendor.graph.deviceHelloForBusinessAuthenticationMethod']);
  });

  it('enrich authors finds the FIDO2 model and phishing-resistant methods as in the spec namespace', async () => {
    const result = await enrichAuthors(
      {
        bomFormat: 'CycloneDX',
        specVersion: '1.6',
        version: 1,
        metadata: { authors: [{ name: 'Adele Vance', email: 'adele@contoso.example' }] },
      },
      service,
    );
    expect(result.people[0]).toMatchObject({ status: 'found', phishingResistant: true });
    const properties = (result.document as { metadata: { properties: { name: string; value: string }[] } }).metadata
      .properties;
    expect(properties).toContainEqual({
      name: 'bomwright:authentication:adele@contoso.example:fido2Model',
      value: 'YubiKey 5 NFC',
    });
  });

  it('publish thread run again finds its own reply (typed #microsoft.graph.fileAttachment) and posts once', async () => {
    const text = bom(21);
    expect((await publishThread(text, service, { group: G, thread: SUPPLIERS })).published).toBe(true);
    const posts = await api.call('GET', `/groups/${G}/threads/${SUPPLIERS}/posts`);
    expect(posts.body.value.at(-1).attachments[0]['@odata.type']).toBe('#microsoft.graph.fileAttachment');
    requests.length = 0;
    const second = await publishThread(text, service, { group: G, thread: SUPPLIERS });
    expect(second.published).toBe(false);
    expect(requests.filter((line) => line.startsWith('POST '))).toEqual([]);
    expect(await findPublishedReply(text, service, { group: G, thread: SUPPLIERS })).toMatchObject({
      sameContent: true,
    });
  });

  it('sends bodies in the namespace it is given, and accepts bodies written in either', async () => {
    const real = createClient({
      baseUrl: api.emulator.url,
      getToken: () => api.token(),
      odataNamespace: 'microsoft.graph',
    });
    try {
      api.emulator.clearRequests();
      const results = await real.groupsAndTeams.removeTeamMembers({ team: G, users: [U.sam] });
      expect(results).toHaveLength(1);
      const sent = api.emulator.requests({ operation: 'removeTeamMembers' })[0]!.body as {
        values: Record<string, string>[];
      };
      expect(sent.values[0]!['@odata.type']).toBe('microsoft.graph.aadUserConversationMember');
      // A body in the real names passes the client's shape check and reaches the service in the spec's.
      await service.groupsAndTeams.replyToThread({
        group: G,
        thread: SUPPLIERS,
        body: {
          post: {
            body: { contentType: 'text', content: 'x' },
            attachments: [{ '@odata.type': '#microsoft.graph.fileAttachment', name: 'a.txt', contentBytes: 'eA==' }],
          },
        },
      } as never);
      const reply = api.emulator.requests({ operation: 'replyToThread' }).at(-1)!.body as {
        post: { attachments: Record<string, string>[] };
      };
      expect(reply.post.attachments[0]!['@odata.type']).toBe('#vendor.graph.fileAttachment');
    } finally {
      await real.close();
    }
    expect(() => createClient({ baseUrl: api.emulator.url, odataNamespace: 'x.graph' as never })).toThrow(
      /odataNamespace is vendor.graph or microsoft.graph/,
    );
  });
});

describe('the emulator in microsoft.graph', () => {
  it('names the removal result as the service does, in its items and its context', async () => {
    const member = (id: string) => ({
      '@odata.type': 'microsoft.graph.aadUserConversationMember',
      'user@odata.bind': `${api.emulator.url}/v1.0/users('${id}')`,
    });
    const result = await api.call('POST', `/teams/${SEED_IDS.groups.company}/members/remove`, {
      body: { values: [member(U.adele), member('nobody@contoso.example')] },
    });
    expect(result.status, result.text).toBe(207);
    expect(result.body['@odata.context']).toMatch(
      /\$metadata#Collection\(microsoft\.graph\.aadUserConversationMemberResult\)$/,
    );
    expect(result.body.value.map((v: { '@odata.type': string }) => v['@odata.type'])).toEqual([
      '#microsoft.graph.aadUserConversationMemberResult',
      '#microsoft.graph.aadUserConversationMemberResult',
    ]);
  });

  it('names types in its error texts in the namespace it speaks', async () => {
    const result = await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: 'x', nope: 1 } });
    expect(result.status).toBe(400);
    expect(result.body.error.message).toContain("'microsoft.graph.message'");
    expect(result.body.error.message).not.toContain('vendor.graph');
  });
});
