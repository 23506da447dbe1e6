/** publish and notify through the library against the emulator over real HTTP, and the requests they build. */
import { beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import {
  forwardRequest,
  notifyForward,
  publishBundle,
  publishTab,
  publishThread,
  tabRequest,
  threadReply,
} from '../../src/flows/publish.js';
import type { ServiceApi } from '../../src/service/index.js';
import { useService, type Body } from '../emulator/harness.js';

const { harness: api, requests, service: client } = useService();
let service: ServiceApi;
beforeAll(() => {
  service = client();
});

const G = SEED_IDS.groups.release;
const THREAD = SEED_IDS.threads.review;
const TEXT = `${JSON.stringify({
  bomFormat: 'CycloneDX',
  specVersion: '1.6',
  serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
  version: 7,
  components: [{ type: 'library', name: 'x', version: '1' }],
})}\n`;

describe('publish thread', () => {
  it('replies with the BOM as a file attachment and its validation summary in the body', async () => {
    const reply = await publishThread(TEXT, service, {
      group: G,
      thread: THREAD,
      comment: 'Release 4.2',
      fileName: 'app.cdx.json',
    });
    expect(reply.summary).toBe(
      'app.cdx.json: valid — CycloneDX 1.6, version 7, 1 component, urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79 (checked by bomwright)',
    );
    const posts = await service.groupsAndTeams.listThreadPosts({ group: G, thread: THREAD }).all();
    const post = posts.at(-1) as Body;
    expect(post.body.content).toBe(`Release 4.2\n\n${reply.summary}`);
    expect(post.attachments).toHaveLength(1);
    expect(post.attachments[0]).toMatchObject({ '@odata.type': '#vendor.graph.fileAttachment', name: 'app.cdx.json' });
    expect(Buffer.from(post.attachments[0].contentBytes, 'base64').toString('utf8')).toBe(TEXT);
  });

  it('reaches the thread through its conversation too', async () => {
    const again = await publishThread(TEXT, service, {
      group: G,
      conversation: SEED_IDS.conversations.review,
      thread: THREAD,
      force: true,
    });
    expect(again.published).toBe(true);
    expect(requests.some((line) => line.startsWith(`POST /v1.0/groups/${G}/conversations/`))).toBe(true);
  });

  it('sends a BOM of 3 MB or more as a reference attachment to the link, or refuses it with the reason', async () => {
    const big = JSON.stringify({
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      version: 1,
      components: [{ type: 'library', name: 'big', description: 'x'.repeat(3 * 1024 * 1024) }],
    });
    await expect(threadReply(big, { group: G, thread: THREAD })).rejects.toThrow(
      /is 3145\d{3} bytes; an attachment must stay under 3 MB \(3145728 bytes\): give --link URL/,
    );
    const reply = await threadReply(big, { group: G, thread: THREAD, link: 'https://files.contoso.example/big.json' });
    expect(reply.attachment).toBe('reference');
    expect(reply.body.post.attachments?.[0]).toMatchObject({
      '@odata.type': '#vendor.graph.referenceAttachment',
      sourceUrl: 'https://files.contoso.example/big.json',
    });
    await publishThread(big, service, { group: G, thread: THREAD, link: 'https://files.contoso.example/big.json' });
    const posts = await service.groupsAndTeams.listThreadPosts({ group: G, thread: THREAD }).all();
    expect((posts.at(-1) as Body).attachments[0].sourceUrl).toBe('https://files.contoso.example/big.json');
  });

  it('says when the BOM is not valid', async () => {
    const reply = await threadReply('{"bomFormat":"CycloneDX","specVersion":"1.6","version":"one"}', {
      group: G,
      thread: THREAD,
    });
    expect(reply.summary).toMatch(/^bom\.json: NOT valid: 1 error, 0 warnings/);
  });
});

describe('publish bundle, tab; notify forward', () => {
  it('adds the drive item to the bundle', async () => {
    await publishBundle(service, { bundle: '123456!90', item: '123456!87' });
    expect(requests.some((line) => /^POST \/v1\.0\/drive\/bundles\/123456!90\/children 204/.test(line))).toBe(true);
  });

  it('pins a configurable tab with its name and URL, and a static tab with the app alone', async () => {
    const base = api.emulator.url;
    expect(tabRequest(base, { team: G, channel: 'c', app: 'a', static: true })).toEqual({
      'teamsApp@odata.bind': `${base}/v1.0/appCatalogs/teamsApps/a`,
    });
    expect(() => tabRequest(base, { team: G, channel: 'c', app: 'a' })).toThrow(/needs the dashboard URL/);
    const channel = SEED_IDS.channels.general;
    const dashboard = await publishTab(service, {
      team: G,
      channel,
      app: SEED_IDS.teamsApps.dashboard,
      url: 'https://dashboard.contoso.example/sbom/4.2',
      name: 'SBOM 4.2',
    });
    expect(dashboard.pinned).toBe(true);
    expect(dashboard.tab).toMatchObject({
      displayName: 'SBOM 4.2',
      configuration: { contentUrl: 'https://dashboard.contoso.example/sbom/4.2' },
    });
    const wiki = await publishTab(service, { team: G, channel, app: SEED_IDS.teamsApps.wiki, static: true });
    expect(wiki.tab.displayName).toBe('Release wiki');
  });

  it('forwards the meeting to every reviewer with the comment; refuses what is not an address', async () => {
    expect(forwardRequest({ event: 'e', to: ['a@b.example'], comment: 'Please review' })).toEqual({
      ToRecipients: [{ EmailAddress: { Address: 'a@b.example' } }],
      Comment: 'Please review',
    });
    expect(() => forwardRequest({ event: 'e', to: [] })).toThrow(/at least one reviewer/);
    expect(() => forwardRequest({ event: 'e', to: ['not an address'] })).toThrow(/is not an email address/);
    requests.length = 0;
    await notifyForward(service, { event: 'evt-adele-gonogo', to: ['dana@fabrikam.example', 'lee@contoso.example'] });
    expect(requests.some((line) => /^POST \/v1\.0\/me\/events\/evt-adele-gonogo\/forward 202/.test(line))).toBe(true);
  });
});
