/**
 * The enrich flows' contract, exactly: the values each writes and where, the report of every person, the refusals
 * (code and message) with the input left unchanged, and how a second run updates in place instead of duplicating.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SEED, SEED_IDS } from '../../src/emulator/index.js';
import { enrichApproval } from '../../src/flows/approval.js';
import { enrichAuthors } from '../../src/flows/authors.js';
import { enrichLabel } from '../../src/flows/label.js';
import { commitChange } from '../../src/flows/change.js';
import { signDocument as sign } from '../../src/jsf/sign-document.js';
import type { KeyMaterial } from '../../src/jsf/keys.js';
import { signObject } from '../../src/jsf/sign.js';
import { freshKey } from '../jsf/fixtures.js';
import { createClient, type ServiceApi } from '../../src/service/index.js';
import { useService, type Body } from '../emulator/harness.js';

// Phones the default tenant does not have (an alternate mobile listed before a mobile one, an alternate mobile
// alone) and a FIDO2 key without model or attestation level.
const seed = structuredClone(DEFAULT_SEED) as Body;
const userNamed = (alias: string): Body => seed.users.find((u: Body) => u.userPrincipalName.startsWith(`${alias}@`));
userNamed('patti').phoneMethods = [
  { id: 'patti-alt', phoneNumber: '+1 4255550111', phoneType: 'alternateMobile', smsSignInState: 'ready' },
  { id: 'patti-mobile', phoneNumber: '+1 4255550122', phoneType: 'mobile', smsSignInState: 'ready' },
];
userNamed('lee').phoneMethods = [
  { id: 'lee-alt', phoneNumber: '+1 4255550133', phoneType: 'alternateMobile', smsSignInState: 'ready' },
];
userNamed('patti').authenticationMethods = [
  { '@odata.type': '#vendor.graph.deviceHelloForBusinessAuthenticationMethod', id: 'patti-hello', displayName: 'PC' },
  {
    '@odata.type': '#vendor.graph.fido2AuthenticationMethod',
    id: 'patti-key',
    displayName: 'key',
    model: 'Patti key',
    attestationLevel: 'notAttested',
  },
];
userNamed('isaiah').authenticationMethods = [
  { '@odata.type': '#vendor.graph.fido2AuthenticationMethod', id: 'isaiah-key', displayName: 'key' },
];

// A requestor without a display name, on a delivered request not yet completed; label templates without a
// creator or date, and with a creator known only by id.
const NONAME = '9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a99';
const UNCOMPLETED = '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c99';
seed.users.push({
  ...structuredClone(userNamed('lee')),
  id: NONAME,
  userPrincipalName: 'noname@contoso.example',
  displayName: '',
  mail: 'nn@contoso.example',
});
seed.assignmentRequests.push({
  id: UNCOMPLETED,
  accessPackageId: SEED_IDS.accessPackage,
  requestorId: NONAME,
  requestType: 'userAdd',
  state: 'delivered',
  status: 'Delivered',
  createdDateTime: '2026-11-21T08:00:00Z',
  completedDateTime: null,
});
const BARE = '5df6cc48-0e1e-0266-b515-c5ecb4b691d3';
const BY_ID = '6e07dd59-1f2f-0377-c626-d6fdc5c7a2e4';
const NO_USER = '7f18ee6a-2a3a-0488-d737-e70ed6d8b3f5';
seed.labelCategories[1].subcategories.push(
  { id: BARE, displayName: 'Bare' },
  { id: BY_ID, displayName: 'By id', createdBy: { user: { id: SEED_IDS.users.patti } } },
  { id: NO_USER, displayName: 'No user', createdBy: {} },
);

const { harness: api, requests, service: client } = useService({ seed });
let service: ServiceApi;
beforeAll(() => {
  service = client();
});

const CATEGORY = '0d4c3b2a-8002-4e5f-9a6b-7c8d9e0f1a02';
const SUBCATEGORY = '4ce5bb37-fd0d-0155-a404-b4dba3a580c2';
const PATTI = SEED_IDS.users.patti;

function bom(metadata: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
    version: 2,
    metadata,
    ...extra,
  };
}

type Property = { name: string; value: string };
const named = (owner: Body, prefix: string): Record<string, string> =>
  Object.fromEntries(
    ((owner.properties ?? []) as Property[]).filter((p) => p.name.startsWith(prefix)).map((p) => [p.name, p.value]),
  );
const sources = (owner: Body): string[] =>
  ((owner.properties ?? []) as Property[]).filter((p) => p.name === 'bomwright:source').map((p) => p.value);

describe('every enrich flow refuses what it cannot record in, leaving the input as it was', () => {
  const flows: [string, (doc: unknown) => Promise<unknown>][] = [
    ['authors', (doc) => enrichAuthors(doc, service)],
    ['label', (doc) => enrichLabel(doc, service, { category: CATEGORY, subcategory: SUBCATEGORY })],
    ['approval', (doc) => enrichApproval(doc, service, { request: SEED_IDS.assignmentRequests.delivered })],
  ];
  for (const [name, run] of flows) {
    it(`${name}: a value that is not an object is E_INPUT`, async () => {
      for (const input of [null, [], 'bom', 3])
        await expect(run(input)).rejects.toMatchObject({
          code: 'E_INPUT',
          message: 'Only a BOM object can be enriched',
        });
    });

    it(`${name}: CycloneDX 1.2 is E_USAGE and makes no request; 1.3 is enriched`, async () => {
      const old = bom({}, { specVersion: '1.2' });
      const before = structuredClone(old);
      requests.length = 0;
      await expect(run(old)).rejects.toMatchObject({
        code: 'E_USAGE',
        message:
          'CycloneDX 1.2 has no properties, so bomwright cannot record where an added value came from: upgrade the document to 1.3 or later',
      });
      expect(requests).toEqual([]);
      expect(old).toEqual(before);
      await expect(
        run(bom({ authors: [{ email: 'adele@contoso.example' }] }, { specVersion: '1.3' })),
      ).resolves.toBeDefined();
    });
  }
});

describe('enrich label', () => {
  it('records each field of the template exactly, with its source, and reports the label and one call', async () => {
    const original = bom();
    const before = structuredClone(original);
    const result = await enrichLabel(original, service, { category: CATEGORY, subcategory: SUBCATEGORY });
    expect(original).toEqual(before);
    expect(result.label).toEqual({ id: SUBCATEGORY, displayName: 'Vendor Invoice' });
    expect(result.calls).toBe(1);
    expect((result.document as Body).metadata.properties).toEqual([
      { name: 'bomwright:label:displayName', value: 'Vendor Invoice' },
      { name: 'bomwright:label:id', value: SUBCATEGORY },
      { name: 'bomwright:label:createdBy', value: 'Patti Fernandez' },
      { name: 'bomwright:label:createdByUserId', value: PATTI },
      { name: 'bomwright:label:createdDateTime', value: '2026-04-01T12:00:00Z' },
      {
        name: 'bomwright:source',
        value: `getSubcategoryTemplate security/labels/categories/${CATEGORY}/subcategories/${SUBCATEGORY}`,
      },
    ]);
  });

  it('updates its properties in place on a second run, keeps other properties, and creates missing metadata', async () => {
    const stale = bom({
      properties: [
        { name: 'team', value: 'release' },
        { name: 'bomwright:label:displayName', value: 'Old name' },
      ],
    });
    const first = await enrichLabel(stale, service, { category: CATEGORY, subcategory: SUBCATEGORY });
    const again = await enrichLabel(first.document, service, { category: CATEGORY, subcategory: SUBCATEGORY });
    const properties = (again.document as Body).metadata.properties as Property[];
    expect(properties.slice(0, 2)).toEqual([
      { name: 'team', value: 'release' },
      { name: 'bomwright:label:displayName', value: 'Vendor Invoice' },
    ]);
    expect(properties).toHaveLength(7);
    expect(sources((again.document as Body).metadata)).toHaveLength(1);

    const { metadata: _unused, ...bare } = bom();
    const created = await enrichLabel(bare, service, { category: CATEGORY, subcategory: SUBCATEGORY });
    expect(named((created.document as Body).metadata, 'bomwright:label:id')).toEqual({
      'bomwright:label:id': SUBCATEGORY,
    });
  });

  it('records only the fields the template has, and the creator by id when it has no name', async () => {
    for (const [subcategory, displayName] of [
      [BARE, 'Bare'],
      [NO_USER, 'No user'],
    ] as const) {
      const bare = await enrichLabel(bom(), service, { category: CATEGORY, subcategory });
      expect((bare.document as Body).metadata.properties.slice(0, -1)).toStrictEqual([
        { name: 'bomwright:label:displayName', value: displayName },
        { name: 'bomwright:label:id', value: subcategory },
      ]);
    }
    const byId = await enrichLabel(bom(), service, { category: CATEGORY, subcategory: BY_ID });
    expect(named((byId.document as Body).metadata, 'bomwright:label:')).toEqual({
      'bomwright:label:displayName': 'By id',
      'bomwright:label:id': BY_ID,
      'bomwright:label:createdBy': PATTI,
      'bomwright:label:createdByUserId': PATTI,
    });
  });

  it('refuses metadata that is not an object, and properties that are not an array, as E_INPUT', async () => {
    await expect(
      enrichLabel(bom(undefined, { metadata: 'x' }), service, { category: CATEGORY, subcategory: SUBCATEGORY }),
    ).rejects.toMatchObject({ code: 'E_INPUT', message: 'metadata is not an object' });
    await expect(
      enrichLabel(bom({ properties: {} }), service, { category: CATEGORY, subcategory: SUBCATEGORY }),
    ).rejects.toMatchObject({ code: 'E_INPUT', message: 'properties is not an array' });
  });
});

describe('enrich approval', () => {
  const DELIVERED = SEED_IDS.assignmentRequests.delivered;

  it('records every field of a delivered request, the package and requestor by name, with its source', async () => {
    const original = bom();
    const before = structuredClone(original);
    requests.length = 0;
    const result = await enrichApproval(original, service, { request: DELIVERED });
    expect(original).toEqual(before);
    expect(result.calls).toBe(1);
    expect(requests).toHaveLength(1);
    expect('requirements' in result).toBe(false);
    expect(result.request).toEqual({ id: DELIVERED, state: 'delivered', status: 'Delivered' });
    expect((result.document as Body).metadata.properties).toEqual([
      { name: 'bomwright:approval:id', value: DELIVERED },
      { name: 'bomwright:approval:requestType', value: 'adminAdd' },
      { name: 'bomwright:approval:state', value: 'delivered' },
      { name: 'bomwright:approval:status', value: 'Delivered' },
      { name: 'bomwright:approval:createdDateTime', value: '2026-11-10T22:55:11.623Z' },
      { name: 'bomwright:approval:completedDateTime', value: '2026-11-11T22:55:11.623Z' },
      { name: 'bomwright:approval:accessPackage', value: 'Release approvers' },
      { name: 'bomwright:approval:requestor', value: 'Megan Bowen' },
      {
        name: 'bomwright:source',
        value: `getAssignmentRequest identityGovernance/entitlementManagement/assignmentRequests/${DELIVERED}`,
      },
    ]);
  });

  it('names a requestor without a display name by principal name, and records no completion it does not have', async () => {
    const result = await enrichApproval(bom(), service, { request: UNCOMPLETED });
    expect(named((result.document as Body).metadata, 'bomwright:approval:')).toEqual({
      'bomwright:approval:id': UNCOMPLETED,
      'bomwright:approval:requestType': 'userAdd',
      'bomwright:approval:state': 'delivered',
      'bomwright:approval:status': 'Delivered',
      'bomwright:approval:createdDateTime': '2026-11-21T08:00:00Z',
      'bomwright:approval:accessPackage': 'Release approvers',
      'bomwright:approval:requestor': 'noname@contoso.example',
    });
  });

  it('counts the policy check as a call and returns its requirements', async () => {
    const result = await enrichApproval(bom(), service, { request: DELIVERED, policyCheck: SEED_IDS.accessPackage });
    expect(result.calls).toBe(2);
    expect(Array.isArray(result.requirements)).toBe(true);
  });

  it('refuses a request not delivered with E_REFUSED naming its state, writing nothing', async () => {
    const pending = SEED_IDS.assignmentRequests.pending;
    const original = bom();
    const before = structuredClone(original);
    await expect(enrichApproval(original, service, { request: pending })).rejects.toMatchObject({
      code: 'E_REFUSED',
      message: `Access package assignment request ${pending} is "pendingApproval", not delivered: only a delivered request approves a release`,
    });
    expect(original).toEqual(before);
  });
});

describe('enrich authors', () => {
  it('writes the mobile number before the alternate mobile one, and the alternate mobile one alone', async () => {
    const result = await enrichAuthors(
      bom({
        authors: [
          { name: 'Patti', email: 'patti@contoso.example' },
          { name: 'Lee', email: 'lee@contoso.example' },
        ],
      }),
      service,
    );
    const authors = (result.document as Body).metadata.authors;
    expect(authors.map((a: Body) => a.phone)).toEqual(['+1 4255550122', '+1 4255550133']);
    // Patti's FIDO2 key is listed after her Windows Hello: its details are still the ones recorded.
    expect(named((result.document as Body).metadata, 'bomwright:authentication:patti')).toEqual({
      'bomwright:authentication:patti@contoso.example:phishingResistant': 'true',
      'bomwright:authentication:patti@contoso.example:fido2Model': 'Patti key',
      'bomwright:authentication:patti@contoso.example:fido2AttestationLevel': 'notAttested',
    });
    expect(result.people).toEqual([
      {
        email: 'patti@contoso.example',
        status: 'found',
        phone: '+1 4255550122',
        phoneContacts: { written: 1, unchanged: 0, kept: 0 },
        phishingResistant: true,
        contacts: 1,
      },
      {
        email: 'lee@contoso.example',
        status: 'found',
        phone: '+1 4255550133',
        phoneContacts: { written: 1, unchanged: 0, kept: 0 },
        phishingResistant: false,
        contacts: 1,
      },
    ]);
  });

  it('reports each person once, exactly: found with phone or note, unknown, and how many contacts name them', async () => {
    requests.length = 0;
    const result = await enrichAuthors(
      bom({
        authors: [
          { name: 'A', email: ' Adele@Contoso.example ' },
          { name: 'No address', email: 'adele' },
          { name: 'No email' },
          { name: 'Ghost', email: 'ghost@contoso.example' },
        ],
        manufacture: { name: 'M', contact: [{ email: 'adele@contoso.example' }] },
        manufacturer: { name: 'M2', contact: [{ email: 'isaiah@contoso.example' }] },
      }),
      service,
    );
    expect(result.people).toEqual([
      {
        email: 'Adele@Contoso.example',
        status: 'found',
        phone: '+1 2065555557',
        phoneContacts: { written: 2, unchanged: 0, kept: 0 },
        phishingResistant: true,
        contacts: 2,
      },
      { email: 'ghost@contoso.example', status: 'unknown', contacts: 1 },
      {
        email: 'isaiah@contoso.example',
        status: 'found',
        phoneNote: 'no phone method',
        phishingResistant: true,
        contacts: 1,
      },
    ]);
    expect(result.calls).toBe(6);
    expect(requests).toHaveLength(6);
    const metadata = (result.document as Body).metadata;
    // The contact without an address, and the unknown person, are left as they were.
    expect(metadata.authors[1]).toEqual({ name: 'No address', email: 'adele' });
    expect(metadata.authors[3]).toEqual({ name: 'Ghost', email: 'ghost@contoso.example' });
    expect(metadata.manufacture.contact[0].phone).toBe('+1 2065555557');
    expect(metadata.authors[0].phone).toBe('+1 2065555557');
    expect(named(metadata, 'bomwright:authentication:isaiah')).toEqual({
      'bomwright:authentication:isaiah@contoso.example:phishingResistant': 'true',
    });
    expect(named(metadata, 'bomwright:authentication:ghost')).toEqual({});
    // Isaiah has no phone method: nothing is written, so no phone source is recorded for him.
    expect(sources(metadata)).toEqual([
      'listPhoneMethods users/adele@contoso.example',
      'listAuthenticationMethods users/adele@contoso.example',
      'listAuthenticationMethods users/isaiah@contoso.example',
    ]);
  });

  it('notes a masked number as masked, not as missing', async () => {
    const admin = createClient({
      baseUrl: api.emulator.url,
      getToken: () => api.token({ user: 'lee@contoso.example', directoryRoles: ['authenticationAdministrator'] }),
    });
    try {
      const result = await enrichAuthors(bom({ authors: [{ email: 'megan@contoso.example' }] }), admin);
      expect(result.people[0]).toEqual({
        email: 'megan@contoso.example',
        status: 'found',
        phoneNote: 'the directory shows the number masked',
        phishingResistant: true,
        contacts: 1,
      });
      expect((result.document as Body).metadata.authors[0].phone).toBeUndefined();
      expect(sources((result.document as Body).metadata)).toEqual([
        'listAuthenticationMethods users/megan@contoso.example',
      ]);
    } finally {
      await admin.close();
    }
  });

  it('keeps a phone it wrote up to date, and drops FIDO2 details the person no longer has', async () => {
    const prefix = 'bomwright:authentication:isaiah@contoso.example';
    const stale = bom({
      authors: [{ email: 'alex@contoso.example', phone: '+1 000' }],
      properties: [
        { name: 'bomwright:source', value: 'listPhoneMethods users/alex@contoso.example' },
        { name: 'bomwright:authentication:alex@contoso.example:fido2Model', value: 'Old key' },
        { name: 'bomwright:authentication:alex@contoso.example:fido2AttestationLevel', value: 'attested' },
      ],
    });
    const result = await enrichAuthors(stale, service);
    const metadata = (result.document as Body).metadata;
    expect(metadata.authors[0].phone).toBe('+1 4255550199');
    expect(metadata.properties).toEqual([
      { name: 'bomwright:source', value: 'listPhoneMethods users/alex@contoso.example' },
      { name: 'bomwright:authentication:alex@contoso.example:phishingResistant', value: 'true' },
      { name: 'bomwright:source', value: 'listAuthenticationMethods users/alex@contoso.example' },
    ]);
    // A FIDO2 key without model or attestation level records neither.
    const keyOnly = await enrichAuthors(
      bom({
        authors: [{ email: 'isaiah@contoso.example' }],
        properties: [{ name: `${prefix}:fido2Model`, value: 'x' }],
      }),
      service,
    );
    expect(named((keyOnly.document as Body).metadata, prefix)).toEqual({ [`${prefix}:phishingResistant`]: 'true' });
  });

  it('records on the component that names the person, down to 64 levels of nesting and no deeper', async () => {
    const nest = (depth: number): Body => {
      let component: Body = { type: 'library', name: `c${depth}`, authors: [{ email: 'alex@contoso.example' }] };
      for (let d = depth - 1; d >= 0; d--) component = { type: 'library', name: `c${d}`, components: [component] };
      return component;
    };
    const at = (doc: Body, depth: number): Body => {
      let component = doc.components[0];
      for (let d = 0; d < depth; d++) component = component.components[0];
      return component;
    };
    const deep = await enrichAuthors(bom({}, { components: [nest(64)] }), service);
    expect(at(deep.document, 64).authors[0].phone).toBe('+1 4255550199');
    expect(deep.people).toHaveLength(1);
    const deeper = await enrichAuthors(bom({}, { components: [nest(65)] }), service);
    expect(at(deeper.document, 65).authors[0].phone).toBeUndefined();
    expect(deeper.people).toEqual([]);
    expect(deeper.calls).toBe(0);

    const main = await enrichAuthors(
      bom({ component: { type: 'application', name: 'app', authors: [{ email: 'megan@contoso.example' }] } }),
      service,
    );
    const component = (main.document as Body).metadata.component;
    expect(component.authors[0].phone).toBe('+44 7700900123');
    expect(named(component, 'bomwright:authentication:megan')).toMatchObject({
      'bomwright:authentication:megan@contoso.example:fido2Model': 'Feitian BioPass K26',
    });
    expect((main.document as Body).metadata.properties).toBeUndefined();
  });

  it('skips entries that are not objects and reads a document without metadata', async () => {
    const result = await enrichAuthors(
      {
        bomFormat: 'CycloneDX',
        specVersion: '1.6',
        version: 1,
        components: [
          null,
          'x',
          {
            type: 'library',
            name: 'c',
            authors: [null, 'adele@contoso.example', { email: 'alex@contoso.example' }],
            supplier: { name: 'S', contact: [7, { email: 'megan@contoso.example' }] },
          },
        ],
      },
      service,
    );
    expect(result.people.map((p) => p.email)).toEqual(['alex@contoso.example', 'megan@contoso.example']);
    const component = (result.document as Body).components[2];
    expect(component.authors).toEqual([
      null,
      'adele@contoso.example',
      { email: 'alex@contoso.example', phone: '+1 4255550199' },
    ]);
    expect(component.supplier.contact[0]).toBe(7);
    expect('metadata' in result.document).toBe(false);
  });

  it('skips null entries among the metadata authors and contacts', async () => {
    const result = await enrichAuthors(
      bom({
        authors: [null, { email: 'alex@contoso.example' }],
        supplier: { name: 'S', contact: [null, { email: 'megan@contoso.example' }] },
      }),
      service,
    );
    expect(result.people.map((p) => p.email)).toEqual(['alex@contoso.example', 'megan@contoso.example']);
    expect((result.document as Body).metadata.supplier.contact[1].phone).toBe('+44 7700900123');
  });

  it('counts as its own phone only the one its source property names (that name, that operation and person)', async () => {
    const result = await enrichAuthors(
      bom({
        authors: [{ email: 'alex@contoso.example', phone: '+1 000' }],
        properties: [
          { name: 'note', value: 'listPhoneMethods users/alex@contoso.example' },
          { name: 'bomwright:source', value: 'listPhoneMethods users/megan@contoso.example' },
        ],
      }),
      service,
    );
    const metadata = (result.document as Body).metadata;
    expect(metadata.authors[0].phone).toBe('+1 000');
    expect(sources(metadata)).toEqual([
      'listPhoneMethods users/megan@contoso.example',
      'listAuthenticationMethods users/alex@contoso.example',
    ]);
  });

  it('records its source even when another property holds the same text', async () => {
    const value = `getSubcategoryTemplate security/labels/categories/${CATEGORY}/subcategories/${SUBCATEGORY}`;
    const result = await enrichLabel(bom({ properties: [{ name: 'note', value }] }), service, {
      category: CATEGORY,
      subcategory: SUBCATEGORY,
    });
    expect(sources((result.document as Body).metadata)).toEqual([value]);
  });

  it('looks people up one at a time with concurrency 1 (and with 0), in document order', async () => {
    const doc = bom({
      authors: ['adele', 'megan', 'alex', 'lee'].map((who) => ({ email: `${who}@contoso.example` })),
    });
    for (const concurrency of [1, 0]) {
      requests.length = 0;
      const result = await enrichAuthors(doc, service, { concurrency });
      expect(result.people.map((p) => p.email.split('@')[0])).toEqual(['adele', 'megan', 'alex', 'lee']);
      const order = requests.map((line) => /\/users\/(\w+)%40/.exec(line)?.[1]);
      expect(order).toEqual(['adele', 'adele', 'megan', 'megan', 'alex', 'alex', 'lee', 'lee']);
    }
  });

  it('fails on a lookup error other than not found', async () => {
    await expect(enrichAuthors(bom({ authors: [{ email: 'chris@contoso.example' }] }), service)).rejects.toMatchObject({
      status: 400,
    });
  });
});

describe('committing a change', () => {
  const signedParts = (): { doc: Record<string, unknown>; key: KeyMaterial } => {
    const key = freshKey('ES256');
    const component = signObject({ type: 'library', name: 'x', version: '1' }, { key });
    return { doc: bom({}, { components: [component] }), key };
  };

  it('hands back the original object itself, unbumped, when the content is the same', async () => {
    const original = bom();
    const result = await commitChange(original, structuredClone(original));
    expect(result.document).toBe(original);
    expect(result).toEqual({
      document: original,
      changed: false,
      valid: true,
      diagnostics: [],
      version: 2,
      resigned: 0,
      droppedSignatures: [],
    });
    const { version: _v, ...versionless } = bom();
    expect((await commitChange(versionless, structuredClone(versionless))).version).toBe(1);
  });

  it('bumps a changed document by one, serial number kept, with the given timestamp', async () => {
    const doc = bom();
    const edited = { ...structuredClone(doc), metadata: { properties: [{ name: 'team', value: 'release' }] } };
    const result = await commitChange(doc, edited, { now: new Date('2026-05-06T07:08:09.500Z') });
    expect(result).toMatchObject({ changed: true, valid: true, version: 3, resigned: 0, droppedSignatures: [] });
    expect(result.diagnostics).toEqual([]);
    expect(result.document).toMatchObject({ version: 3, serialNumber: doc.serialNumber });
    expect((result.document.metadata as Body).timestamp).toBe('2026-05-06T07:08:09Z');
  });

  it('validates a fresh document as it is, without bumping it or verifying its signatures', async () => {
    const { doc } = signedParts();
    const result = await commitChange(bom(), doc, { fresh: true });
    expect(result).toEqual({
      document: doc,
      changed: true,
      valid: true,
      diagnostics: [],
      version: 2,
      resigned: 0,
      droppedSignatures: [],
    });
    const { version: _v, ...versionless } = bom();
    expect((await commitChange(versionless, doc, { fresh: true })).version).toBe(1);
  });

  it('refuses, as E_USAGE, to leave two signatures stale, naming them in the plural', async () => {
    const { doc, key } = signedParts();
    const signed = sign(doc, { key }) as Record<string, unknown>;
    const edited = structuredClone(signed);
    (edited.components as Body)[0].description = 'changed';
    await expect(commitChange(signed, edited)).rejects.toMatchObject({
      code: 'E_USAGE',
      message:
        'The document is signed (2 signatures) and this change invalidates them: re-sign with --key, or remove them with --drop-signatures',
    });
    const one = sign(bom(), { key }) as Record<string, unknown>;
    const changed = { ...structuredClone(one), metadata: { properties: [{ name: 'a', value: 'b' }] } };
    await expect(commitChange(one, changed)).rejects.toMatchObject({
      code: 'E_USAGE',
      message:
        'The document is signed (1 signature) and this change invalidates it: re-sign with --key, or remove it with --drop-signatures',
    });
  });

  it('verifies what it signed again (an untrusted key is a warning), and reports what it dropped', async () => {
    const key = freshKey('ES256');
    const one = sign(bom(), { key }) as Record<string, unknown>;
    const changed = { ...structuredClone(one), metadata: { properties: [{ name: 'a', value: 'b' }] } };
    const resigned = await commitChange(one, changed, { key });
    expect(resigned).toMatchObject({ changed: true, valid: true, resigned: 1, droppedSignatures: [] });
    expect(resigned.diagnostics.some((d) => d.severity === 'warning')).toBe(true);
    const dropped = await commitChange(one, changed, { dropSignatures: true });
    expect(dropped).toMatchObject({ changed: true, valid: true, resigned: 0, droppedSignatures: ['/signature'] });
  });
});
