/**
 * The publish requests' contract, exactly: the summary line in each of its forms, the 3 MB attachment limit on both
 * sides, the tab and forward bodies, and each refusal's code and message (with nothing sent).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import {
  bomIdentity,
  forwardRequest,
  notifyForward,
  publishThread,
  tabRequest,
  threadReply,
  validationSummary,
} from '../../src/flows/publish.js';
import { MAX_ATTACHMENT_BYTES } from '../../src/service/invoke.js';
import type { ServiceApi } from '../../src/service/index.js';
import { signDocument as sign } from '../../src/jsf/sign-document.js';
import { useService } from '../emulator/harness.js';
import { freshKey } from '../jsf/fixtures.js';

const { requests, service: client } = useService();
let service: ServiceApi;
beforeAll(() => {
  service = client();
});

const G = SEED_IDS.groups.release;
const THREAD = SEED_IDS.threads.review;
const doc = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  bomFormat: 'CycloneDX',
  specVersion: '1.6',
  version: 2,
  ...extra,
});

/** A valid BOM of exactly `bytes` bytes (padded in a description). */
function bomOf(bytes: number): string {
  const empty = JSON.stringify(doc({ components: [{ type: 'library', name: 'big', description: '' }] }));
  return JSON.stringify(
    doc({ components: [{ type: 'library', name: 'big', description: 'x'.repeat(bytes - empty.length) }] }),
  );
}

describe('validation summary', () => {
  it('names the format, version, component count (singular and plural) and serial number when present', async () => {
    expect(await validationSummary(JSON.stringify(doc({ components: [] })), 'a.json')).toBe(
      'a.json: valid — CycloneDX 1.6, version 2, 0 components (checked by bomwright)',
    );
    const two = doc({
      components: [
        { type: 'library', name: 'x' },
        { type: 'library', name: 'y' },
      ],
    });
    expect(await validationSummary(JSON.stringify(two), 'b.json')).toBe(
      'b.json: valid — CycloneDX 1.6, version 2, 2 components (checked by bomwright)',
    );
  });

  it('says BOM for what has no format or spec version, and counts errors and warnings', async () => {
    const { bomFormat: _format, ...noFormat } = doc();
    const summary = await validationSummary(JSON.stringify(noFormat), 'c.json');
    expect(summary).toMatch(
      /^c\.json: NOT valid: \d+ errors?, \d+ warnings? — BOM 1\.6, version 2, 0 components \(checked by bomwright\)$/,
    );
    expect(await validationSummary('not json', 'd.json')).toMatch(
      /^d\.json: NOT valid: 1 error, 0 warnings — BOM, 0 components \(checked by bomwright\)$/,
    );
    const versionless = await validationSummary(JSON.stringify({ ...doc(), version: 'one' }), 'e.json');
    expect(versionless).toBe(
      'e.json: NOT valid: 1 error, 0 warnings — CycloneDX 1.6, 0 components (checked by bomwright)',
    );
  });
});

describe('CycloneDX XML', () => {
  const xml = `<?xml version="1.0"?>\n<bom xmlns="http://cyclonedx.org/schema/bom/1.6" serialNumber="urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79" version="3"><components><component type="library"><name>x</name></component></components></bom>\n`;

  it('is summarized and identified from its model, as JSON is, and attached as bom.xml', async () => {
    expect(await validationSummary(xml, 'x.xml')).toBe(
      'x.xml: valid — CycloneDX 1.6, version 3, 1 component, urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79 (checked by bomwright)',
    );
    expect(bomIdentity(xml).key).toBe('serial urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79 version 3');
    expect(bomIdentity('<bom/>').key).toMatch(/^sha-256 [0-9a-f]{64}$/);
    const reply = await threadReply(xml, { group: G, thread: THREAD });
    expect(JSON.stringify(reply.body)).toContain('"name":"bom.xml"');
  });
});

describe('validation summary: warnings', () => {
  const NIL = 'urn:uuid:00000000-0000-0000-0000-000000000000';
  it('counts warnings on a valid document, singular and plural', async () => {
    const nil = doc({ serialNumber: NIL, components: [] });
    expect(await validationSummary(JSON.stringify(nil), 'n.json')).toBe(
      `n.json: valid (1 warning) — CycloneDX 1.6, version 2, 0 components, ${NIL} (checked by bomwright)`,
    );
    // A signature by a key nobody trusts is a warning too.
    const signed = sign(nil, { key: freshKey('ES256') });
    expect(await validationSummary(JSON.stringify(signed), 's.json')).toMatch(/^s\.json: valid \(2 warnings\) — /);
  });

  it('counts errors and warnings of a document that is not valid', async () => {
    const one = doc({ serialNumber: NIL, version: 'one' });
    expect(await validationSummary(JSON.stringify(one), 'o.json')).toBe(
      `o.json: NOT valid: 1 error, 1 warning — CycloneDX 1.6, 0 components, ${NIL} (checked by bomwright)`,
    );
    const two = doc({ version: 'one', components: 'none' });
    expect(await validationSummary(JSON.stringify(two), 't.json')).toBe(
      't.json: NOT valid: 2 errors, 0 warnings — CycloneDX 1.6, 0 components (checked by bomwright)',
    );
  });
});

describe('thread reply', () => {
  it('is a text post with the summary (no comment) and one CycloneDX file attachment named bom.json by default', async () => {
    const text = JSON.stringify(doc());
    const reply = await threadReply(text, { group: G, thread: THREAD });
    expect(reply).toEqual({
      body: {
        post: {
          body: { contentType: 'text', content: reply.summary },
          attachments: [
            {
              '@odata.type': '#vendor.graph.fileAttachment',
              name: 'bom.json',
              contentType: 'application/vnd.cyclonedx+json',
              contentBytes: Buffer.from(text).toString('base64'),
            },
          ],
        },
      },
      attachment: 'file',
      bytes: Buffer.byteLength(text),
      summary: 'bom.json: valid — CycloneDX 1.6, version 2, 0 components (checked by bomwright)',
    });
  });

  it('attaches a BOM of one byte under 3 MB as a file; at exactly 3 MB it needs a link', async () => {
    const under = bomOf(MAX_ATTACHMENT_BYTES - 1);
    expect(Buffer.byteLength(under)).toBe(MAX_ATTACHMENT_BYTES - 1);
    const file = await threadReply(under, { group: G, thread: THREAD, link: 'https://files.contoso.example/b.json' });
    expect(file.attachment).toBe('file');
    expect(file.body.post.attachments?.[0]?.['@odata.type']).toBe('#vendor.graph.fileAttachment');

    const at = bomOf(MAX_ATTACHMENT_BYTES);
    await expect(threadReply(at, { group: G, thread: THREAD, fileName: 'big.cdx.json' })).rejects.toMatchObject({
      code: 'E_USAGE',
      message:
        'big.cdx.json is 3145728 bytes; an attachment must stay under 3 MB (3145728 bytes): give --link URL to attach a link to where it is published instead',
    });
    const reference = await threadReply(at, {
      group: G,
      thread: THREAD,
      fileName: 'big.cdx.json',
      link: 'https://files.contoso.example/b.json',
    });
    expect(reference.attachment).toBe('reference');
    expect(reference.bytes).toBe(MAX_ATTACHMENT_BYTES);
    expect(reference.body.post.attachments).toEqual([
      {
        '@odata.type': '#vendor.graph.referenceAttachment',
        name: 'big.cdx.json',
        sourceUrl: 'https://files.contoso.example/b.json',
        providerType: 'other',
        permission: 'view',
        isFolder: false,
      },
    ]);
  });

  it('sends nothing when the reply is refused', async () => {
    requests.length = 0;
    await expect(
      publishThread(bomOf(MAX_ATTACHMENT_BYTES), service, { group: G, thread: THREAD }),
    ).rejects.toMatchObject({
      code: 'E_USAGE',
    });
    expect(requests).toEqual([]);
  });

  it('reads the posts, then posts to the group thread, or through the conversation when one is named', async () => {
    requests.length = 0;
    await publishThread(JSON.stringify(doc()), service, { group: G, thread: THREAD });
    expect(requests.map((line) => line.split(' ').slice(0, 2).join(' '))).toEqual([
      `GET /v1.0/groups/${G}/threads/${THREAD}/posts`,
      `POST /v1.0/groups/${G}/threads/${THREAD}/reply`,
    ]);
    requests.length = 0;
    const conversation = SEED_IDS.conversations.review;
    await publishThread(JSON.stringify(doc()), service, { group: G, conversation, thread: THREAD, force: true });
    expect(requests.map((line) => line.split(' ').slice(0, 2).join(' '))).toEqual([
      `POST /v1.0/groups/${G}/conversations/${conversation}/threads/${THREAD}/reply`,
    ]);
  });
});

describe('tab request', () => {
  it('binds the app by its encoded id under the base URL without trailing slashes', () => {
    expect(tabRequest('https://svc.example//', { team: 't', channel: 'c', app: 'a b/c', static: true })).toEqual({
      'teamsApp@odata.bind': 'https://svc.example/v1.0/appCatalogs/teamsApps/a%20b%2Fc',
    });
  });

  it('names a configurable tab SBOM by default, with the URL as content and website', () => {
    expect(
      tabRequest('https://svc.example', { team: 't', channel: 'c', app: 'a', url: 'https://d.example/x' }),
    ).toEqual({
      'teamsApp@odata.bind': 'https://svc.example/v1.0/appCatalogs/teamsApps/a',
      displayName: 'SBOM',
      configuration: { entityId: 'bomwright', contentUrl: 'https://d.example/x', websiteUrl: 'https://d.example/x' },
    });
    expect(
      tabRequest('https://svc.example', { team: 't', channel: 'c', app: 'a', url: 'u', static: false, name: 'N' }),
    ).toMatchObject({ displayName: 'N' });
  });

  it('refuses a configurable tab without a URL as E_USAGE', () => {
    expect(() => tabRequest('https://svc.example', { team: 't', channel: 'c', app: 'a', static: false })).toThrow(
      expect.objectContaining({
        code: 'E_USAGE',
        message: 'A configurable tab needs the dashboard URL (--url); a static tab needs --static',
      }),
    );
  });
});

describe('forward request', () => {
  it('has no Comment without a comment', () => {
    expect('Comment' in forwardRequest({ event: 'e', to: ['a@b.example'] })).toBe(false);
    expect(forwardRequest({ event: 'e', to: ['a@b.example', 'c@d.example'] })).toEqual({
      ToRecipients: [{ EmailAddress: { Address: 'a@b.example' } }, { EmailAddress: { Address: 'c@d.example' } }],
    });
  });

  it('refuses no reviewer, and any address that is not one whole address, as E_USAGE quoting it (cut at 100)', () => {
    expect(() => forwardRequest({ event: 'e', to: [] })).toThrow(
      expect.objectContaining({ code: 'E_USAGE', message: 'Name at least one reviewer (--to EMAIL)' }),
    );
    for (const address of ['a@b.example x', 'x a@b.example', '@b.example', 'a@', 'a@b@c.example', 'a b@c.example'])
      expect(() => forwardRequest({ event: 'e', to: ['ok@b.example', address] }), address).toThrow(
        expect.objectContaining({ code: 'E_USAGE', message: `${JSON.stringify(address)} is not an email address` }),
      );
    const long = `${'x'.repeat(120)} y`;
    expect(() => forwardRequest({ event: 'e', to: [long] })).toThrow(
      expect.objectContaining({ message: `"${'x'.repeat(100)}" is not an email address` }),
    );
  });

  it("forwards the organiser's event when a user is named, and sends nothing when refused", async () => {
    requests.length = 0;
    await notifyForward(service, {
      event: 'evt-adele-gonogo',
      user: 'adele@contoso.example',
      to: ['lee@contoso.example'],
    });
    expect(requests.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
      'POST /v1.0/users/adele%40contoso.example/events/evt-adele-gonogo/forward 202',
    ]);
    requests.length = 0;
    await expect(notifyForward(service, { event: 'evt-adele-gonogo', to: ['nobody'] })).rejects.toMatchObject({
      code: 'E_USAGE',
    });
    expect(requests).toEqual([]);
  });
});
