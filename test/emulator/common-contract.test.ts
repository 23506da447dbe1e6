/**
 * What every handler shares: how a user is addressed, and which reference URLs name an object of this service
 * (`{base}/v1.0/{collection}/{id}`, `('{id}')` or `({id})`, percent-encoded ids), with the exact refusal otherwise.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED, SEED_IDS } from '../../src/emulator/index.js';
import { loadState } from '../../src/emulator/journal.js';
import type { JsonRecord } from '../../src/emulator/store.js';
import { tempDirs } from '../helpers.js';
import { Harness, useEmulator, type Reply } from './harness.js';
import { CASE, SEARCH, userSourceUrl } from './samples.js';

const U = SEED_IDS.users;
const G = SEED_IDS.groups;
/** State folders made by this file, removed after it. */
const stateFolder = tempDirs('bomwright-emulator-');

const api = useEmulator();

function expectBadReference(reply: Reply, url: string, why = 'is not a reference to an object of this service'): void {
  expect(reply.status, reply.text).toBe(400);
  expect(reply.body.error.code).toBe('BadRequest');
  expect(reply.body.error.message).toBe(`Invalid @odata.id: '${url}' ${why}.`);
}

describe('addressing a user', () => {
  it('finds users by id or user principal name, and answers 404 in the directory’s wording otherwise', async () => {
    for (const user of [U.megan, 'MEGAN@contoso.example'])
      expect((await api.call('GET', `/users/${user}/authentication/phoneMethods`)).status).toBe(200);
    const missing = await api.call('GET', '/users/ghost@contoso.example/authentication/phoneMethods');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({
      code: 'Request_ResourceNotFound',
      message:
        "Resource 'ghost@contoso.example' does not exist or one of its queried reference-property objects are not present.",
    });
  });

  it('cuts a long id in the message to 120 characters', async () => {
    const long = 'x'.repeat(200);
    const missing = await api.call('GET', `/users/${long}/authentication/phoneMethods`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe(
      `Resource '${'x'.repeat(119)}…' does not exist or one of its queried reference-property objects are not present.`,
    );
  });
});

describe('reference URLs', () => {
  // An application may change the owners of any group, so only the reference decides the answer here.
  const addOwner = async (group: string, url: string): Promise<Reply> =>
    api.call('POST', `/groups/${group}/owners/$ref`, {
      token: await api.token({ app: SEED_IDS.app }),
      body: { '@odata.id': url },
    });

  it('takes the id after a slash (with or without a trailing slash), in quotes, or in bare parentheses', async () => {
    const base = `${api.emulator.url}/v1.0`;
    expect((await addOwner(G.release, `${base}/users/${U.alex}/`)).status).toBe(204);
    expect((await addOwner(G.release, `${base}/users(${U.lee})`)).status).toBe(204);
    expect((await addOwner(G.release, `${base}/users('megan%40contoso.example')`)).status).toBe(204);
    // Each was added: a second time is refused as a duplicate, so each URL named the right user.
    for (const id of [U.alex, U.lee, U.megan])
      expect((await addOwner(G.release, `${base}/users/${id}`)).status).toBe(400);
  });

  it('refuses a URL that is not a reference, with the URL in the message', async () => {
    const base = `${api.emulator.url}/v1.0`;
    for (const url of [
      `${base}/users/${U.isaiah}/manager`,
      `${base}/users`,
      `${base}/users('')`,
      `${base}/users()`,
      `${base}/users(a'b)`,
      `https://elsewhere.example/users/${U.isaiah}`,
    ])
      expectBadReference(await addOwner(G.physics, url), url);
    expectBadReference(
      await addOwner(G.physics, `${base}/users/%E0%A4%A`),
      `${base}/users/%E0%A4%A`,
      'is not valid percent-encoding',
    );
    const long = `${base}/users/${U.isaiah}/${'x'.repeat(200)}`;
    const refused = await addOwner(G.physics, long);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(
      `Invalid @odata.id: '${long.slice(0, 119)}…' is not a reference to an object of this service.`,
    );
  });
});

describe('id lists in loosely typed records', () => {
  it('reads only the ids of a list, and a missing list as empty, when a write copies it', async () => {
    // A seed's eDiscovery searches are free-form: one lists a number among its sources, one has no list at all.
    const seed = structuredClone(DEFAULT_SEED) as unknown as {
      ediscoveryCases: { searches: Record<string, unknown>[] }[];
    };
    const searches = seed.ediscoveryCases[0]!.searches;
    searches[0]!.custodianSources = [7, 'legacy-source'];
    searches.push({ id: 'search-without-sources', displayName: 'No list' });
    const stateDir = stateFolder();
    const local = new Harness({ seed, stateDir });
    await local.start();
    try {
      for (const search of [SEARCH, 'search-without-sources']) {
        const added = await local.call(
          'POST',
          `/security/cases/ediscoveryCases/${CASE}/searches/${search}/custodianSources/$ref`,
          { body: { '@odata.id': userSourceUrl(local.emulator.url) } },
        );
        expect(added.status, added.text).toBe(204);
      }
      const stored = loadState(stateDir, true).store.get('ediscoveryCases', CASE)!.searches as JsonRecord[];
      expect(stored.map((s) => s.custodianSources)).toEqual([
        ['legacy-source', '2b4ff8f1-9003-4f6a-8b7c-9d0e1f2a3b03'],
        ['2b4ff8f1-9003-4f6a-8b7c-9d0e1f2a3b03'],
      ]);
    } finally {
      await local.emulator.close();
    }
  });
});
