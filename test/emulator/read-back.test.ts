/** The read-back routes: what the spec's writes did, through the real service's list routes. */
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { operationNamed } from '../../src/service/index.js';
import { CASE, SEARCH, userSourceUrl } from './samples.js';
import { useService } from './harness.js';

const { harness: api, service: typed } = useService();
const G = SEED_IDS.groups;
const U = SEED_IDS.users;

describe('read back what was written', () => {
  it('are marked as extensions of the operations table, without spec rows', () => {
    for (const name of ['listGroupOwners', 'listTeamMembers', 'listCustodianSources', 'listBundleChildren']) {
      const operation = operationNamed(name)!;
      expect(operation.source, name).toBe('extension');
      expect(operation.specRows, name).toEqual([]);
      expect(operation.method, name).toBe('GET');
    }
  });

  it('GET /groups/{id}/owners lists an owner added with owners/$ref, users and service principals by type', async () => {
    const before = await api.call('GET', `/groups/${G.release}/owners`);
    expect(before.status).toBe(200);
    expect(before.body['@odata.context']).toBe(`${api.emulator.url}/v1.0/$metadata#directoryObjects`);
    expect(before.body.value).toEqual([
      {
        '@odata.type': '#vendor.graph.user',
        id: U.adele,
        displayName: 'Adele Vance',
        userPrincipalName: 'adele@contoso.example',
      },
    ]);
    const base = api.emulator.url;
    for (const ref of [`${base}/v1.0/users/${U.megan}`, `${base}/v1.0/servicePrincipals/${SEED_IDS.servicePrincipal}`])
      expect((await api.call('POST', `/groups/${G.release}/owners/$ref`, { body: { '@odata.id': ref } })).status).toBe(
        204,
      );
    const owners = await typed().groupsAndTeams.listGroupOwners({ group: G.release }).all();
    expect(owners.map((o) => [o['@odata.type'], o.id])).toEqual([
      ['#vendor.graph.user', U.adele],
      ['#vendor.graph.user', U.megan],
      ['#vendor.graph.servicePrincipal', SEED_IDS.servicePrincipal],
    ]);
    expect(owners[2]).toMatchObject({ displayName: 'Contoso Build Agent', appId: SEED_IDS.app });
    expect((await api.call('GET', '/groups/nope/owners')).status).toBe(404);
  });

  it('GET /teams/{id}/members lists the members a bulk removal left', async () => {
    const before = await typed().groupsAndTeams.listTeamMembers({ team: G.release }).all();
    expect(before.map((m) => m.userId)).toEqual([U.adele, U.megan, U.alex, U.lee]);
    expect(before[0]).toEqual({
      '@odata.type': '#vendor.graph.aadUserConversationMember',
      id: 'mem-release-adele',
      roles: ['owner'],
      displayName: 'Adele Vance',
      userId: U.adele,
      email: 'adele@contoso.example',
    });
    await typed().groupsAndTeams.removeTeamMembers({ team: G.release, users: [U.alex, U.lee] });
    const after = await typed().groupsAndTeams.listTeamMembers({ team: G.release }).all();
    expect(after.map((m) => m.userId)).toEqual([U.adele, U.megan]);
    const missing = await api.call('GET', '/teams/nope/members');
    expect(missing.status).toBe(404);
  });

  it('GET …/searches/{id}/custodianSources lists a custodian source once added', async () => {
    const path = `/security/cases/ediscoveryCases/${CASE}/searches/${SEARCH}/custodianSources`;
    expect((await api.call('GET', path)).body.value).toEqual([]);
    expect(
      (await api.call('POST', `${path}/$ref`, { body: { '@odata.id': userSourceUrl(api.emulator.url) } })).status,
    ).toBe(204);
    const sources = await typed().labelsAndEdiscovery.listCustodianSources({ case: CASE, search: SEARCH }).all();
    expect(sources).toEqual([
      {
        '@odata.type': '#vendor.graph.security.userSource',
        id: '2b4ff8f1-9003-4f6a-8b7c-9d0e1f2a3b03',
        email: 'megan@contoso.example',
      },
    ]);
    expect(
      (await api.call('GET', `/security/cases/ediscoveryCases/${CASE}/searches/nope/custodianSources`)).status,
    ).toBe(404);
  });

  it('GET /drive/bundles/{id}/children lists a drive item once added, for the bundle’s owner only', async () => {
    const before = await typed().driveBundles.listBundleChildren({ bundle: '123456!90' }).all();
    expect(before).toEqual([{ id: '123456!88', name: 'release-4.1-sbom.json' }]);
    await typed().driveBundles.addBundleItem({ bundle: '123456!90', body: { id: '123456!87' } });
    const after = await typed().driveBundles.listBundleChildren({ bundle: '123456!90' }).all();
    expect(after.map((item) => item.id)).toEqual(['123456!88', '123456!87']);
    const megan = await api.token({ user: 'megan@contoso.example' });
    const other = await api.call('GET', '/drive/bundles/123456!90/children', { token: megan });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('itemNotFound');
  });
});
