/**
 * The enrich flows through the library against the emulator over real HTTP: what each writes, where each value
 * came from, one lookup per distinct person and operation, and committing (a second run changes nothing).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { commitChange } from '../../src/flows/change.js';
import { enrichApproval } from '../../src/flows/approval.js';
import { enrichAuthors } from '../../src/flows/authors.js';
import { enrichLabel } from '../../src/flows/label.js';
import { verify } from '../../src/index.js';
import { signDocument as sign } from '../../src/jsf/sign-document.js';
import { createClient, type ServiceApi } from '../../src/service/index.js';
import { useService, type Body } from '../emulator/harness.js';
import { freshKey } from '../jsf/fixtures.js';

const { harness: api, requests, service: client } = useService();
let service: ServiceApi;
beforeAll(() => {
  service = client();
});

const CATEGORY = '0d4c3b2a-8002-4e5f-9a6b-7c8d9e0f1a02';
const SUBCATEGORY = '4ce5bb37-fd0d-0155-a404-b4dba3a580c2';

function bom(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
    version: 3,
    metadata: {
      authors: [
        { name: 'Adele Vance', email: 'adele@contoso.example' },
        { name: 'Nobody', email: 'nobody@contoso.example' },
      ],
      supplier: { name: 'Contoso', contact: [{ name: 'Megan', email: 'megan@contoso.example' }] },
    },
    components: [
      {
        type: 'library',
        name: 'x',
        version: '1.0.0',
        authors: [
          { name: 'Alex', email: 'alex@contoso.example' },
          { name: 'Adele again', email: 'ADELE@contoso.example' },
        ],
        components: [
          { type: 'library', name: 'y', supplier: { name: 'S', contact: [{ email: 'lee@contoso.example' }] } },
        ],
      },
    ],
    ...extra,
  };
}

const properties = (owner: Body): Record<string, string> =>
  Object.fromEntries(
    (owner.properties as { name: string; value: string }[])
      .filter((p) => p.name !== 'bomwright:source')
      .map((p) => [p.name, p.value]),
  );
const sources = (owner: Body): string[] =>
  (owner.properties as { name: string; value: string }[])
    .filter((p) => p.name === 'bomwright:source')
    .map((p) => p.value);

describe('enrich authors', () => {
  it('fills phones (office first), records phishing-resistant sign-in and every source, and reports unknown people', async () => {
    const original = bom();
    const before = structuredClone(original);
    requests.length = 0;
    const result = await enrichAuthors(original, service, { concurrency: 2 });
    expect(original).toEqual(before);
    const doc = result.document as Body;
    // Adele has office, mobile and alternateMobile numbers: office wins.
    expect(doc.metadata.authors[0].phone).toBe('+1 2065555557');
    expect(doc.metadata.authors[1].phone).toBeUndefined();
    expect(doc.metadata.supplier.contact[0].phone).toBe('+44 7700900123');
    expect(doc.components[0].authors[0].phone).toBe('+1 4255550199');
    expect(doc.components[0].authors[1].phone).toBe('+1 2065555557');
    expect(properties(doc.metadata)).toMatchObject({
      'bomwright:authentication:adele@contoso.example:phishingResistant': 'true',
      'bomwright:authentication:adele@contoso.example:fido2Model': 'YubiKey 5 NFC',
      'bomwright:authentication:adele@contoso.example:fido2AttestationLevel': 'attested',
      'bomwright:authentication:megan@contoso.example:phishingResistant': 'true',
    });
    expect(sources(doc.metadata)).toEqual([
      'listPhoneMethods users/adele@contoso.example',
      'listAuthenticationMethods users/adele@contoso.example',
      'listPhoneMethods users/megan@contoso.example',
      'listAuthenticationMethods users/megan@contoso.example',
    ]);
    // Alex has Windows Hello only: phishing-resistant, no FIDO2 model.
    expect(properties(doc.components[0])).toEqual({
      'bomwright:authentication:alex@contoso.example:phishingResistant': 'true',
      'bomwright:authentication:adele@contoso.example:phishingResistant': 'true',
      'bomwright:authentication:adele@contoso.example:fido2Model': 'YubiKey 5 NFC',
      'bomwright:authentication:adele@contoso.example:fido2AttestationLevel': 'attested',
    });
    // Lee (a nested component's supplier contact) has no methods at all.
    expect(properties(doc.components[0].components[0])).toEqual({
      'bomwright:authentication:lee@contoso.example:phishingResistant': 'false',
    });
    expect(result.people.find((p) => p.email === 'nobody@contoso.example')).toMatchObject({ status: 'unknown' });
    expect(result.people.find((p) => p.email === 'lee@contoso.example')).toMatchObject({
      status: 'found',
      phoneNote: 'no phone method',
      phishingResistant: false,
    });
    // One lookup per distinct person (adele twice in the document, in two spellings) and operation.
    const lookups = requests.filter((line) => line.includes('/authentication/'));
    expect(lookups).toHaveLength(10);
    expect(result.calls).toBe(10);
    for (const who of ['adele', 'nobody', 'megan', 'alex', 'lee'])
      for (const what of ['phoneMethods', 'methods'])
        expect(
          lookups.filter((l) => l.includes(`/users/${who}%40contoso.example/authentication/${what} `)),
        ).toHaveLength(1);
  });

  it('commits once: a second run with no change in the service changes nothing and does not bump', async () => {
    const first = await enrichAuthors(bom(), service);
    const committed = await commitChange(bom(), first.document);
    expect(committed).toMatchObject({ changed: true, valid: true, version: 4 });
    expect(committed.document.serialNumber).toBe(bom().serialNumber);
    const second = await enrichAuthors(committed.document, service);
    const again = await commitChange(committed.document, second.document);
    expect(again.changed).toBe(false);
    expect(again.document).toBe(committed.document);
    expect(again.version).toBe(4);
  });

  it('never writes a masked number, and leaves a phone a person wrote alone', async () => {
    const admin = createClient({
      baseUrl: api.emulator.url,
      getToken: () => api.token({ user: 'lee@contoso.example', directoryRoles: ['authenticationAdministrator'] }),
    });
    try {
      const masked = await enrichAuthors(bom(), admin);
      const doc = masked.document as Body;
      expect(doc.metadata.authors[0].phone).toBeUndefined();
      expect(masked.people.find((p) => p.email === 'adele@contoso.example')?.phoneNote).toMatch(/masked/);
    } finally {
      await admin.close();
    }
    const written = bom();
    (written.metadata as Body).authors[0].phone = '+1 555 0100';
    const kept = await enrichAuthors(written, service);
    expect((kept.document as Body).metadata.authors[0].phone).toBe('+1 555 0100');
    expect(sources((kept.document as Body).metadata)).not.toContain('listPhoneMethods users/adele@contoso.example');
    // The report says what became of the phone in each of Adele's two contacts: one kept, one written.
    expect(kept.people.find((p) => p.email === 'adele@contoso.example')).toMatchObject({
      phone: '+1 2065555557',
      phoneContacts: { written: 1, unchanged: 0, kept: 1 },
    });
    // A hand-written phone that is the directory's number is already there, and stays the person's (no source).
    (written.metadata as Body).authors[0].phone = '+1 2065555557';
    const same = await enrichAuthors(written, service);
    expect(same.people.find((p) => p.email === 'adele@contoso.example')?.phoneContacts).toEqual({
      written: 1,
      unchanged: 1,
      kept: 0,
    });
    expect(sources((same.document as Body).metadata)).not.toContain('listPhoneMethods users/adele@contoso.example');
  });

  it('refuses CycloneDX 1.2 (no properties to record sources in)', async () => {
    await expect(enrichAuthors(bom({ specVersion: '1.2' }), service)).rejects.toThrow(/1\.2 has no properties/);
  });
});

describe('committing a signed document', () => {
  it('refuses to leave a signature stale, re-signs with a key, or drops with dropSignatures', async () => {
    const key = freshKey('ES256');
    const signed = sign(bom(), { key }) as Record<string, unknown>;
    const { document } = await enrichLabel(signed, service, { category: CATEGORY, subcategory: SUBCATEGORY });
    await expect(commitChange(signed, document)).rejects.toThrow(
      /re-sign with --key, or remove it with --drop-signatures/,
    );
    const resigned = await commitChange(signed, document, { key });
    expect(resigned).toMatchObject({ changed: true, valid: true, resigned: 1, version: 4 });
    const verdict = verify(resigned.document);
    expect(verdict.reports.map((r) => r.verdict)).toEqual(['valid']);
    const dropped = await commitChange(signed, document, { dropSignatures: true });
    expect(dropped.droppedSignatures).toEqual(['/signature']);
    expect(dropped.document.signature).toBeUndefined();
  });

  it('hands back a result that does not validate as not valid, with its diagnostics', async () => {
    const edited = { ...bom(), components: [{ type: 'not-a-type', name: 'z' }] };
    const result = await commitChange(bom(), edited);
    expect(result.valid).toBe(false);
    expect(result.diagnostics.some((d) => d.severity === 'error' && d.pointer.startsWith('/components/0'))).toBe(true);
  });
});

describe('enrich label and approval', () => {
  it('records the label template in metadata, with its source', async () => {
    const result = await enrichLabel(bom(), service, { category: CATEGORY, subcategory: SUBCATEGORY });
    const metadata = (result.document as Body).metadata;
    expect(properties(metadata)).toMatchObject({ 'bomwright:label:id': SUBCATEGORY });
    expect(properties(metadata)['bomwright:label:displayName']).toBeTruthy();
    expect(properties(metadata)['bomwright:label:createdDateTime']).toMatch(/^\d{4}-/);
    expect(sources(metadata)).toEqual([
      `getSubcategoryTemplate security/labels/categories/${CATEGORY}/subcategories/${SUBCATEGORY}`,
    ]);
  });

  it('a label changed to another subcategory names only the new one as its source, and keeps no value of the old', async () => {
    const DEPARTMENT = '0d4c3b2a-8001-4e5f-9a6b-7c8d9e0f1a01';
    const ENGINEERING = '2ac39915-dbeb-e933-82e2-92b981835fa0';
    const FINANCE = '3bd4aa26-ecfc-f044-93f3-a3ca92946fb1';
    const engineering = await enrichLabel(bom(), service, { category: DEPARTMENT, subcategory: ENGINEERING });
    const metadata = (engineering.document as Body).metadata;
    // A value only the old label had, the person's own property, and another flow's source.
    metadata.properties.push(
      { name: 'bomwright:label:formerOnly', value: 'old' },
      { name: 'bomwright:labelling', value: 'mine' },
      { name: 'bomwright:source', value: 'listPhoneMethods users/adele@contoso.example' },
    );
    const finance = await enrichLabel(engineering.document, service, { category: DEPARTMENT, subcategory: FINANCE });
    const after = (finance.document as Body).metadata;
    expect(sources(after)).toEqual([
      'listPhoneMethods users/adele@contoso.example',
      `getSubcategoryTemplate security/labels/categories/${DEPARTMENT}/subcategories/${FINANCE}`,
    ]);
    expect(properties(after)).toEqual({
      'bomwright:label:displayName': 'Finance',
      'bomwright:label:id': FINANCE,
      'bomwright:label:createdBy': 'Patti Fernandez',
      'bomwright:label:createdByUserId': SEED_IDS.users.patti,
      'bomwright:label:createdDateTime': '2026-03-24T02:10:00Z',
      'bomwright:labelling': 'mine',
    });
    // The same label again changes nothing.
    const again = await enrichLabel(finance.document, service, { category: DEPARTMENT, subcategory: FINANCE });
    expect(again.document).toEqual(finance.document);
  });

  it('an approval from another request names only that request, and keeps no value of the old', async () => {
    const first = await enrichApproval(bom(), service, { request: SEED_IDS.assignmentRequests.delivered });
    const clean = structuredClone(first.document);
    const metadata = (first.document as Body).metadata;
    metadata.properties.push(
      { name: 'bomwright:approval:formerOnly', value: 'old' },
      {
        name: 'bomwright:source',
        value: 'getAssignmentRequest identityGovernance/entitlementManagement/assignmentRequests/old',
      },
    );
    const second = await enrichApproval(first.document, service, { request: SEED_IDS.assignmentRequests.delivered });
    const after = (second.document as Body).metadata;
    expect(sources(after)).toEqual([
      `getAssignmentRequest identityGovernance/entitlementManagement/assignmentRequests/${SEED_IDS.assignmentRequests.delivered}`,
    ]);
    expect(properties(after)['bomwright:approval:formerOnly']).toBeUndefined();
    expect(second.document).toEqual(clean);
  });

  it('records a delivered request with its package and requestor, lists policy requirements first, refuses one not delivered', async () => {
    requests.length = 0;
    const result = await enrichApproval(bom(), service, {
      request: SEED_IDS.assignmentRequests.delivered,
      policyCheck: SEED_IDS.accessPackage,
    });
    expect(result.requirements?.length).toBeGreaterThan(0);
    expect(requests[0]).toMatch(/getApplicablePolicyRequirements/);
    expect(requests[1]).toMatch(/assignmentRequests/);
    const metadata = (result.document as Body).metadata;
    expect(properties(metadata)).toMatchObject({
      'bomwright:approval:state': 'delivered',
      'bomwright:approval:status': 'Delivered',
    });
    expect(properties(metadata)['bomwright:approval:accessPackage']).toBeTruthy();
    expect(properties(metadata)['bomwright:approval:requestor']).toBeTruthy();
    await expect(
      enrichApproval(bom(), service, { request: SEED_IDS.assignmentRequests.pending }),
    ).rejects.toMatchObject({ code: 'E_REFUSED', message: expect.stringMatching(/not delivered/) });
  });
});
