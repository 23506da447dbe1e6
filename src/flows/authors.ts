/**
 * `enrich authors`: the people a BOM names (authors, supplier and manufacturer contacts, component authors) joined
 * with the directory: each contact's phone from the person's phone methods (office, then mobile, then alternate
 * mobile; a masked number is never written), and whether the person has a phishing-resistant method (a FIDO2 key
 * or Windows Hello for Business), with the FIDO2 key's model and attestation level. One lookup per distinct person
 * and operation, a bounded number at once; people the directory does not know are reported, not fatal.
 */
import type { ServiceApi } from '../service/api.js';
import { isServiceError } from '../service/errors.js';
import type { AuthenticationMethod, PhoneAuthenticationMethod } from '../service/resources.js';
import { isRecord } from '../values.js';
import { editableCopy, hasSource, recordSource, removeProperty, setProperty } from './records.js';

export interface EnrichAuthorsOptions {
  /** Lookups at once (default 8). */
  concurrency?: number;
  signal?: AbortSignal;
}

export interface PersonReport {
  email: string;
  /** `found`, or `unknown` when the directory has no such user (reported, not fatal). */
  status: 'found' | 'unknown';
  /** The directory's phone for the person, when it has one that may be written. */
  phone?: string;
  /**
   * What became of `phone` in each contact with this email: set or changed now (`written`), already that number
   * (`unchanged`), or a different phone someone wrote by hand, left alone (`kept`). Present when `phone` is.
   */
  phoneContacts?: { written: number; unchanged: number; kept: number };
  /** Why the directory gave no phone to write, when it gave none. */
  phoneNote?: string;
  phishingResistant?: boolean;
  /** Contacts of the document with this email. */
  contacts: number;
}

export interface EnrichAuthorsResult {
  /** The enriched working copy (commit it with commitChange). */
  document: Record<string, unknown>;
  people: PersonReport[];
  /** Service calls made. */
  calls: number;
}

interface Holder {
  /** Where the properties go: metadata, or the component. */
  owner: Record<string, unknown>;
  contacts: Record<string, unknown>[];
}

const PHONE_ORDER = ['office', 'mobile', 'alternateMobile'];

/** A number the directory shows masked (digits replaced for an authentication administrator) is not a number. */
function isMasked(phone: string): boolean {
  return /[^\d\s+()./-]/.test(phone);
}

function contactsIn(entity: unknown): Record<string, unknown>[] {
  if (!isRecord(entity) || !Array.isArray(entity.contact)) return [];
  return entity.contact.filter(isRecord);
}

function componentHolders(components: unknown, out: Holder[], depth = 0): void {
  if (!Array.isArray(components) || depth > 64) return;
  for (const component of components) {
    if (!isRecord(component)) continue;
    const contacts = [
      ...(Array.isArray(component.authors) ? component.authors.filter(isRecord) : []),
      ...contactsIn(component.supplier),
      ...contactsIn(component.manufacturer),
    ];
    if (contacts.length > 0) out.push({ owner: component, contacts });
    componentHolders(component.components, out, depth + 1);
  }
}

/** Every object of the document that holds contacts, with where its properties go. */
function holders(document: Record<string, unknown>): Holder[] {
  const out: Holder[] = [];
  const metadata = document.metadata;
  if (isRecord(metadata)) {
    const contacts = [
      ...(Array.isArray(metadata.authors) ? metadata.authors.filter(isRecord) : []),
      ...contactsIn(metadata.supplier),
      ...contactsIn(metadata.manufacture),
      ...contactsIn(metadata.manufacturer),
    ];
    if (contacts.length > 0) out.push({ owner: metadata, contacts });
    if (isRecord(metadata.component)) componentHolders([metadata.component], out);
  }
  componentHolders(document.components, out);
  return out;
}

interface Person {
  phones: PhoneAuthenticationMethod[];
  methods: AuthenticationMethod[];
}

async function lookUp(api: ServiceApi, email: string, signal?: AbortSignal): Promise<Person | undefined> {
  try {
    const [phones, methods] = await Promise.all([
      api.authenticationMethods.listPhoneMethods({ user: email, signal }).all(),
      api.authenticationMethods.listAuthenticationMethods({ user: email, signal }).all(),
    ]);
    return { phones, methods };
  } catch (error) {
    if (isServiceError(error) && error.status === 404) return undefined;
    throw error;
  }
}

/** Runs `work` over `items`, `limit` at once, results in input order. */
async function mapBounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return results;
}

function choosePhone(phones: readonly PhoneAuthenticationMethod[]): { phone?: string; note?: string } {
  let masked = false;
  for (const type of PHONE_ORDER)
    for (const method of phones)
      if (method.phoneType === type && typeof method.phoneNumber === 'string') {
        if (!isMasked(method.phoneNumber)) return { phone: method.phoneNumber };
        masked = true;
      }
  return { note: masked ? 'the directory shows the number masked' : 'no phone method' };
}

const PHISHING_RESISTANT = new Set([
  '#vendor.graph.fido2AuthenticationMethod',
  '#vendor.graph.deviceHelloForBusinessAuthenticationMethod',
]);

/** The people of `document` joined with the directory; the input is never modified. */
export async function enrichAuthors(
  document: unknown,
  api: ServiceApi,
  options: EnrichAuthorsOptions = {},
): Promise<EnrichAuthorsResult> {
  const copy = editableCopy(document);
  const found = holders(copy);
  const byEmail = new Map<string, { email: string; contacts: number }>();
  for (const holder of found)
    for (const contact of holder.contacts)
      if (typeof contact.email === 'string' && contact.email.includes('@')) {
        const key = contact.email.trim().toLowerCase();
        const entry = byEmail.get(key) ?? { email: contact.email.trim(), contacts: 0 };
        entry.contacts++;
        byEmail.set(key, entry);
      }
  const keys = [...byEmail.keys()];
  let calls = 0;
  const looked = await mapBounded(keys, options.concurrency ?? 8, async (key) => {
    calls += 2;
    return lookUp(api, byEmail.get(key)!.email, options.signal);
  });
  const people = new Map<string, { person?: Person; report: PersonReport }>();
  keys.forEach((key, i) => {
    const person = looked[i];
    const { email, contacts } = byEmail.get(key)!;
    if (person === undefined) {
      people.set(key, { report: { email, status: 'unknown', contacts } });
      return;
    }
    const { phone, note } = choosePhone(person.phones);
    people.set(key, {
      person,
      report: {
        email,
        status: 'found',
        ...(phone === undefined ? { phoneNote: note } : { phone }),
        phishingResistant: person.methods.some((m) => PHISHING_RESISTANT.has(m['@odata.type'])),
        contacts,
      },
    });
  });
  for (const holder of found) {
    for (const contact of holder.contacts) {
      if (typeof contact.email !== 'string') continue;
      const entry = people.get(contact.email.trim().toLowerCase());
      if (entry?.person === undefined) continue;
      const outcome = applyPerson(holder.owner, contact, entry.report, entry.person);
      if (outcome !== undefined) {
        entry.report.phoneContacts ??= { written: 0, unchanged: 0, kept: 0 };
        entry.report.phoneContacts[outcome]++;
      }
    }
  }
  return { document: copy, people: [...people.values()].map((p) => p.report), calls };
}

/** Records the person in the contact and its owner; what became of the contact's phone, when there was one to write. */
function applyPerson(
  owner: Record<string, unknown>,
  contact: Record<string, unknown>,
  report: PersonReport,
  person: Person,
): 'written' | 'unchanged' | 'kept' | undefined {
  const user = `users/${report.email.toLowerCase()}`;
  const prefix = `bomwright:authentication:${report.email.toLowerCase()}`;
  // A phone this flow wrote before is kept up to date; one a person wrote is left alone.
  const ours = hasSource(owner, 'listPhoneMethods', user);
  let outcome: 'written' | 'unchanged' | 'kept' | undefined;
  if (report.phone !== undefined) {
    if (contact.phone === report.phone) outcome = 'unchanged';
    else if (contact.phone === undefined || ours) outcome = 'written';
    else outcome = 'kept';
    // A hand-written phone that happens to be the directory's stays the person's: no source is claimed for it.
    if (outcome === 'written' || (outcome === 'unchanged' && ours)) {
      contact.phone = report.phone;
      recordSource(owner, 'listPhoneMethods', user);
    }
  }
  setProperty(owner, `${prefix}:phishingResistant`, String(report.phishingResistant === true));
  const fido2 = person.methods.find((m) => m['@odata.type'] === '#vendor.graph.fido2AuthenticationMethod');
  const model = fido2 !== undefined && 'model' in fido2 ? fido2.model : undefined;
  const level = fido2 !== undefined && 'attestationLevel' in fido2 ? fido2.attestationLevel : undefined;
  if (typeof model === 'string') setProperty(owner, `${prefix}:fido2Model`, model);
  else removeProperty(owner, `${prefix}:fido2Model`);
  if (typeof level === 'string') setProperty(owner, `${prefix}:fido2AttestationLevel`, level);
  else removeProperty(owner, `${prefix}:fido2AttestationLevel`);
  recordSource(owner, 'listAuthenticationMethods', user);
  return outcome;
}
