/**
 * Publishing is safe to rerun (a CI pipeline reruns): each publish reads what is there first and sends nothing when
 * the same BOM version is already published; `force` publishes again. Through the library against the emulator
 * over real HTTP, with the emulator's request log counting what a second run sends.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import {
  bomIdentity,
  findPinnedTab,
  findPublishedReply,
  publishBundle,
  publishTab,
  publishThread,
  tabRequest,
} from '../../src/flows/publish.js';
import type { ServiceApi } from '../../src/service/index.js';
import { useService } from '../emulator/harness.js';

const { harness, requests, service: client } = useService();
let service: ServiceApi;
beforeAll(() => {
  service = client();
});
beforeEach(() => {
  requests.length = 0;
});

const G = SEED_IDS.groups.release;
const THREAD = SEED_IDS.threads.review;
const SUPPLIERS = SEED_IDS.threads.suppliers;
const SERIAL = 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79';
const bom = (extra: Record<string, unknown> = {}) =>
  `${JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.6', serialNumber: SERIAL, version: 3, ...extra })}\n`;
/** Method, path and status of each request the emulator logged. */
const sent = () => requests.map((line) => line.split(' ').slice(0, 3).join(' '));
const writes = () => sent().filter((line) => !line.startsWith('GET '));
const postsOf = async (thread: string) => service.groupsAndTeams.listThreadPosts({ group: G, thread }).all();

describe('the identity of a BOM version', () => {
  it('is the serial number and version when the BOM has both, else the SHA-256 of its bytes', () => {
    const text = bom();
    expect(bomIdentity(text)).toEqual({
      key: `serial ${SERIAL} version 3`,
      label: `${SERIAL} version 3`,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // The same version with other bytes: the same key, another digest.
    const other = bomIdentity(bom({ components: [] }));
    expect(other.key).toBe(`serial ${SERIAL} version 3`);
    expect(other.sha256).not.toBe(bomIdentity(text).sha256);
    // Without a serial number, a version that is not an integer, or an empty serial: the digest.
    for (const without of [
      bom({ serialNumber: undefined }),
      bom({ version: 3.5 }),
      bom({ version: '3' }),
      bom({ serialNumber: '' }),
      'not json',
    ]) {
      const identity = bomIdentity(without);
      expect(identity.key, without).toBe(`sha-256 ${identity.sha256}`);
      expect(identity.label).toBe(`sha-256 ${identity.sha256.slice(0, 12)}…`);
    }
    expect(bomIdentity(bom({ version: 1 })).key).toBe(`serial ${SERIAL} version 1`);
  });
});

describe('publish thread, run again', () => {
  it('replies once: the second run reads the posts, finds the BOM version and sends nothing', async () => {
    const text = bom({ version: 11 });
    const first = await publishThread(text, service, { group: G, thread: SUPPLIERS, fileName: 'app.cdx.json' });
    expect(first.published).toBe(true);
    const before = await postsOf(SUPPLIERS);
    requests.length = 0;
    const second = await publishThread(text, service, { group: G, thread: SUPPLIERS, fileName: 'app.cdx.json' });
    expect(second).toMatchObject({ published: false, existing: { postId: before.at(-1)!.id, sameContent: true } });
    // The figure: a second run makes one read and no write.
    expect(sent()).toEqual([`GET /v1.0/groups/${G}/threads/${SUPPLIERS}/posts 200`]);
    expect(await postsOf(SUPPLIERS)).toHaveLength(before.length);
  });

  it('replies again with force, and for another version, serial number or content without one', async () => {
    const text = bom({ version: 12 });
    await publishThread(text, service, { group: G, thread: SUPPLIERS });
    const count = (await postsOf(SUPPLIERS)).length;
    requests.length = 0;
    expect((await publishThread(text, service, { group: G, thread: SUPPLIERS, force: true })).published).toBe(true);
    // force reads nothing: it only replies.
    expect(sent()).toEqual([`POST /v1.0/groups/${G}/threads/${SUPPLIERS}/reply 202`]);
    expect((await publishThread(bom({ version: 13 }), service, { group: G, thread: SUPPLIERS })).published).toBe(true);
    const otherSerial = bom({ version: 12, serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b7a' });
    expect((await publishThread(otherSerial, service, { group: G, thread: SUPPLIERS })).published).toBe(true);
    const unserialised = bom({ serialNumber: undefined, version: 12 });
    expect((await publishThread(unserialised, service, { group: G, thread: SUPPLIERS })).published).toBe(true);
    expect((await publishThread(unserialised, service, { group: G, thread: SUPPLIERS })).published).toBe(false);
    const changed = bom({ serialNumber: undefined, version: 12, components: [] });
    expect((await publishThread(changed, service, { group: G, thread: SUPPLIERS })).published).toBe(true);
    expect(await postsOf(SUPPLIERS)).toHaveLength(count + 5);
  });

  it('tells a same-version BOM with other content (not bumped) apart, and prefers an exact copy', async () => {
    const text = bom({ version: 21 });
    await publishThread(text, service, { group: G, thread: SUPPLIERS });
    const unbumped = bom({ version: 21, components: [{ type: 'library', name: 'x' }] });
    const found = await publishThread(unbumped, service, { group: G, thread: SUPPLIERS });
    expect(found).toMatchObject({ published: false, existing: { sameContent: false } });
    expect(writes()).toEqual([`POST /v1.0/groups/${G}/threads/${SUPPLIERS}/reply 202`]);
    await publishThread(unbumped, service, { group: G, thread: SUPPLIERS, force: true });
    const posts = await postsOf(SUPPLIERS);
    expect(await findPublishedReply(unbumped, service, { group: G, thread: SUPPLIERS })).toEqual({
      postId: posts.at(-1)!.id,
      sameContent: true,
    });
    // The original's post is still the exact copy of the original, wherever it is in the list.
    expect(await findPublishedReply(text, service, { group: G, thread: SUPPLIERS })).toEqual({
      postId: posts.at(-2)!.id,
      sameContent: true,
    });
  });

  it('reads the thread through its conversation when one is named', async () => {
    const text = bom({ version: 31 });
    const conversation = SEED_IDS.conversations.review;
    await publishThread(text, service, { group: G, conversation, thread: THREAD });
    requests.length = 0;
    expect((await publishThread(text, service, { group: G, conversation, thread: THREAD })).published).toBe(false);
    expect(sent()).toEqual([`GET /v1.0/groups/${G}/conversations/${conversation}/threads/${THREAD}/posts 200`]);
  });

  it('a BOM sent as a link is published when the same link carries the same summary', async () => {
    const big = JSON.stringify({
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      serialNumber: SERIAL,
      version: 41,
      components: [{ type: 'library', name: 'big', description: 'x'.repeat(3 * 1024 * 1024) }],
    });
    const link = 'https://files.contoso.example/big-41.json';
    const first = await publishThread(big, service, { group: G, thread: SUPPLIERS, link });
    expect(first).toMatchObject({ published: true, attachment: 'reference' });
    expect((await publishThread(big, service, { group: G, thread: SUPPLIERS, link })).published).toBe(false);
    // Another link, or another file name (another summary line), is another publication.
    const elsewhere = 'https://files.contoso.example/elsewhere.json';
    expect((await publishThread(big, service, { group: G, thread: SUPPLIERS, link: elsewhere })).published).toBe(true);
    const renamed = await publishThread(big, service, { group: G, thread: SUPPLIERS, link, fileName: 'other.json' });
    expect(renamed.published).toBe(true);
  });

  it('a thread the service does not know is the service error, nothing sent', async () => {
    await expect(publishThread(bom(), service, { group: G, thread: 'nope' })).rejects.toMatchObject({ status: 404 });
    expect(writes()).toEqual([]);
  });
});

describe('publish tab, run again', () => {
  const channel = SEED_IDS.channels.builds;
  const dashboard = {
    team: G,
    channel,
    app: SEED_IDS.teamsApps.dashboard,
    url: 'https://dashboard.contoso.example/sbom/5.0',
    name: 'SBOM 5.0',
  };
  const tabsOf = async () => service.groupsAndTeams.listChannelTabs({ team: G, channel }).all();

  it('pins a configurable tab once: the second run reads the tabs and sends nothing', async () => {
    const first = await publishTab(service, dashboard);
    expect(first.pinned).toBe(true);
    const count = (await tabsOf()).length;
    requests.length = 0;
    const second = await publishTab(service, dashboard);
    expect(second).toEqual({ pinned: false, tab: expect.objectContaining({ id: first.tab.id }) });
    expect(sent()).toEqual([`GET /v1.0/teams/${G}/channels/${encodeURIComponent(channel)}/tabs 200`]);
    expect(await tabsOf()).toHaveLength(count);
  });

  it('pins another for another URL or name, and again with force', async () => {
    await publishTab(service, dashboard);
    const count = (await tabsOf()).length;
    expect((await publishTab(service, { ...dashboard, url: `${dashboard.url}.1` })).pinned).toBe(true);
    expect((await publishTab(service, { ...dashboard, name: 'SBOM 5.0 (full)' })).pinned).toBe(true);
    requests.length = 0;
    expect((await publishTab(service, { ...dashboard, force: true })).pinned).toBe(true);
    expect(sent()).toEqual([`POST /v1.0/teams/${G}/channels/${encodeURIComponent(channel)}/tabs 201`]);
    expect(await tabsOf()).toHaveLength(count + 3);
  });

  it('a tab of another app with the same name and URL is not this one', async () => {
    // The seeded channel has a dashboard tab; the wiki app's static tab is another app's.
    const wiki = { team: G, channel: SEED_IDS.channels.general, app: SEED_IDS.teamsApps.wiki, static: true };
    const first = await publishTab(service, wiki);
    expect(first.pinned).toBe(true);
    const again = await publishTab(service, wiki);
    expect(again).toEqual({ pinned: false, tab: expect.objectContaining({ id: first.tab.id }) });
    expect(await findPinnedTab(service, { ...dashboard, channel: SEED_IDS.channels.general })).toBeUndefined();
  });

  it('refuses a name or URL with a static tab, as the spec says they must not be sent; nothing is sent', async () => {
    const base = 'https://svc.example';
    const wiki = { team: G, channel, app: SEED_IDS.teamsApps.wiki, static: true };
    const refusal = (given: string) =>
      expect.objectContaining({
        code: 'E_USAGE',
        message: `A static tab takes its name and configuration from the app, and the spec says they must not be sent: drop ${given}, or pin a configurable tab without --static`,
      });
    expect(() => tabRequest(base, { ...wiki, name: 'X' })).toThrow(refusal('--name'));
    expect(() => tabRequest(base, { ...wiki, url: 'https://x.example' })).toThrow(refusal('--url'));
    expect(() => tabRequest(base, { ...wiki, name: '', url: '' })).toThrow(refusal('--name and --url'));
    expect(() => tabRequest(base, { ...wiki, static: false, name: 'X' })).toThrow(/needs the dashboard URL/);
    await expect(publishTab(service, { ...wiki, name: 'X' })).rejects.toMatchObject({ code: 'E_USAGE' });
    expect(sent()).toEqual([]);
  });
});

describe('publish bundle, run again', () => {
  it("adds the item once; the second run reads the bundle's children, finds it, and changes nothing", async () => {
    expect(await publishBundle(service, { bundle: '123456!90', item: '123456!87' })).toEqual({ added: true });
    requests.length = 0;
    expect(await publishBundle(service, { bundle: '123456!90', item: '123456!87' })).toEqual({ added: false });
    expect(sent()).toEqual(['GET /v1.0/drive/bundles/123456!90/children 200']);
  });

  it('two runs at once: one adds, the other finds the item there (read, or refused with 409): never an error', async () => {
    await harness.emulator.reset();
    const results = await Promise.all([
      publishBundle(service, { bundle: '123456!90', item: '123456!87' }),
      publishBundle(service, { bundle: '123456!90', item: '123456!87' }),
    ]);
    expect(results.map((r) => r.added).sort()).toEqual([false, true]);
  });

  it('other refusals stay errors', async () => {
    await expect(publishBundle(service, { bundle: 'nope', item: '123456!87' })).rejects.toMatchObject({
      status: 404,
    });
  });
});
