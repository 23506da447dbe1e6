/**
 * Components and services from simple fields, in the shape of the document's spec version: licence strings
 * become a licenseChoice, authors become `authors` (1.6+) or the older `author` text, strings become
 * organizational entities. Everything is copied, so later edits of the caller's values cannot reach the document.
 */
import { createRequire } from 'node:module';
import { BomwrightError } from '../errors.js';
import type { SpecFormat } from '../formats/formats.js';
import { baseBomRef, uniqueBomRef } from './bom-ref.js';
import { licenseChoice, withAcknowledgement, type LicenseAcknowledgement } from './licenses.js';
import { isRecord } from '../values.js';

/** An organizational entity (supplier, provider): a plain name, or the schema's object as JSON. */
export type EntityField = string | Record<string, unknown>;

/** A component from simple fields; see {@link buildComponent} for the defaults. */
export interface ComponentFields {
  /** Default `library`, or `crypto-asset` when `cryptoProperties` is given. */
  type?: string;
  /** Default: the purl's name. */
  name?: string;
  /** Default: the purl's version. */
  version?: string;
  /** Default: the purl's namespace. */
  group?: string;
  description?: string;
  /** Written in the purl specification's canonical form; the name, version and group must agree with it. */
  purl?: string;
  /** Generated from the purl, else name@version, when absent. */
  'bom-ref'?: string;
  /** SPDX ids (case fixed up), SPDX expressions, or other licence names. */
  licenses?: readonly string[];
  /** Licences without an SPDX id, taken as names as they are. */
  licenseNames?: readonly string[];
  /** How the licences are known (CycloneDX 1.6+): `declared` by the component, or `concluded` by the BOM's author. */
  licenseAcknowledgement?: LicenseAcknowledgement;
  hashes?: readonly { alg: string; content: string }[];
  supplier?: EntityField;
  author?: string;
  /** Names or organizationalContact objects; before 1.6 they are joined into `author`. */
  authors?: readonly (string | Record<string, unknown>)[];
  properties?: readonly { name: string; value: string }[];
  externalReferences?: readonly Record<string, unknown>[];
  /**
   * Where the deployable file is distributed from: an `externalReferences` entry of type `distribution`, which
   * carries the `hashes` too (they are the file's; BSI TR-03183-2 reads the deployable hash there).
   */
  distribution?: string;
  /** CBOM crypto-asset details (CycloneDX 1.6+ has them too), passed through as they are. */
  cryptoProperties?: Record<string, unknown>;
}

/** A service from simple fields. */
export interface ServiceFields {
  name: string;
  version?: string;
  group?: string;
  description?: string;
  /** Generated from name@version when absent. */
  'bom-ref'?: string;
  provider?: EntityField;
  endpoints?: readonly string[];
  authenticated?: boolean;
  'x-trust-boundary'?: boolean;
  licenses?: readonly string[];
  properties?: readonly { name: string; value: string }[];
  externalReferences?: readonly Record<string, unknown>[];
}

function requireName(name: unknown, what: string): string {
  if (typeof name !== 'string' || name === '')
    throw new BomwrightError(
      'E_USAGE',
      `A ${what} needs a name${what === 'component' ? ' (or a purl that names it)' : ''}`,
    );
  return name;
}

const EMAIL_IN_BRACKETS = /<([^<>\s]+@[^<>\s]+)>/g;
const URL_TOKEN = /^[a-z][a-z0-9+.-]*:\/\/\S+$/i;
const BARE_EMAIL = /^[^<>\s@]+@[^<>\s@]+$/;

/**
 * A person as people write one: `Jane Doe <jane@example.com>` is a name and an e-mail address (the address never
 * goes into the name), `jane@example.com` an address alone, anything else a name.
 */
export function contactFromText(text: string): Record<string, unknown> {
  const trimmed = text.trim();
  if (trimmed === '') throw new BomwrightError('E_USAGE', 'An author or contact must not be empty');
  if (BARE_EMAIL.test(trimmed)) return { email: trimmed };
  const emails = [...trimmed.matchAll(EMAIL_IN_BRACKETS)].map((m) => m[1]!);
  if (emails.length > 1)
    throw new BomwrightError(
      'E_USAGE',
      `${JSON.stringify(trimmed)} names more than one address: give one person at a time`,
    );
  const name = trimmed.replace(EMAIL_IN_BRACKETS, ' ').replace(/\s+/g, ' ').trim();
  return { ...(name === '' ? {} : { name }), ...(emails.length === 0 ? {} : { email: emails[0] }) };
}

/**
 * An organisation as people write one: `ACME <security@acme.example> https://acme.example` is a name, a contact
 * address and a URL; each part is optional.
 */
export function entityFromText(text: string): Record<string, unknown> {
  const trimmed = text.trim();
  if (trimmed === '') throw new BomwrightError('E_USAGE', 'A supplier or manufacturer must not be empty');
  if (BARE_EMAIL.test(trimmed)) return { contact: [{ email: trimmed }] };
  const emails = [...trimmed.matchAll(EMAIL_IN_BRACKETS)].map((m) => m[1]!);
  const tokens = trimmed
    .replace(EMAIL_IN_BRACKETS, ' ')
    .split(/\s+/)
    .filter((t) => t !== '');
  const urls = tokens.filter((t) => URL_TOKEN.test(t));
  const name = tokens.filter((t) => !URL_TOKEN.test(t)).join(' ');
  return {
    ...(name === '' ? {} : { name }),
    ...(urls.length === 0 ? {} : { url: urls }),
    ...(emails.length === 0 ? {} : { contact: emails.map((email) => ({ email })) }),
  };
}

function entity(value: EntityField): Record<string, unknown> {
  return typeof value === 'string' ? entityFromText(value) : structuredClone(value);
}

/** The legacy one-text author (before 1.6) keeps what was written, address included (BSI reads it there). */
function authorName(author: string | Record<string, unknown>): string {
  if (typeof author === 'string') return author;
  if (typeof author.name === 'string')
    return typeof author.email === 'string' ? `${author.name} <${author.email}>` : author.name;
  if (typeof author.email === 'string') return author.email;
  throw new BomwrightError('E_USAGE', 'An author needs a name');
}

/** Members in schema order, undefined ones left out. */
function compact(members: [string, unknown][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of members) if (value !== undefined) out[key] = value;
  return out;
}

const copyList = <T>(list: readonly T[] | undefined): T[] | undefined =>
  list === undefined ? undefined : list.map((item) => (isRecord(item) ? (structuredClone(item) as T) : item));

type PackageUrl = import('packageurl-js').PackageURL;

function packageUrlClass(): typeof import('packageurl-js').PackageURL {
  // Loaded on first use: its set-up costs every CLI start about 7 ms, and only authoring needs it.
  return (createRequire(import.meta.url)('packageurl-js') as typeof import('packageurl-js')).PackageURL;
}

/** A package URL as the purl specification defines it (pkg:type/namespace/name@version?qualifiers#subpath). */
function parsePurl(purl: string): PackageUrl {
  try {
    return packageUrlClass().fromString(purl);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^Invalid purl: /, '') : 'unreadable';
    throw new BomwrightError('E_USAGE', `${JSON.stringify(purl)} is not a package URL (${reason})`);
  }
}

/**
 * A purl in the specification's canonical form (type lower-case, the type's own name rules, qualifiers sorted), so
 * `pkg:NPM/left-pad@1.3.0` and `pkg:npm/left-pad@1.3.0` are one package; a string that is no purl is kept as is.
 */
export function canonicalPurl(purl: string): string {
  try {
    return packageUrlClass().fromString(purl).toString();
  } catch {
    return purl;
  }
}

/**
 * A component's fields completed from its purl: the purl in canonical form, and the name, version and group (the
 * purl's namespace: an npm scope, a Maven groupId) it names where they are not given. A given one that contradicts
 * the purl is refused: a document saying two things about a package is worse than one saying nothing.
 */
export function withPurlFields<T extends Partial<ComponentFields>>(fields: T): T {
  if (fields.purl === undefined) return fields;
  const purl = parsePurl(fields.purl);
  const PackageURL = packageUrlClass();
  // The type's own rules (npm and pypi names are lower-case, pypi's _ is -) apply to the given values too.
  const normalized = (namespace: string | undefined, name: string): PackageUrl | undefined => {
    try {
      return new PackageURL(purl.type, namespace, name, undefined, undefined, undefined);
    } catch {
      return undefined;
    }
  };
  const contradiction = (what: string, given: string, named: string) =>
    new BomwrightError(
      'E_USAGE',
      `The ${what} ${JSON.stringify(given)} contradicts the purl ${fields.purl}, which names ${JSON.stringify(named)}: give the purl alone, or ones that agree`,
    );
  if (
    fields.name !== undefined &&
    fields.name !== purl.name &&
    normalized(purl.namespace ?? undefined, fields.name)?.name !== purl.name
  )
    throw contradiction('name', fields.name, purl.name);
  const version = purl.version ?? undefined;
  if (fields.version !== undefined && version !== undefined && fields.version !== version)
    throw contradiction('version', fields.version, version);
  const namespace = purl.namespace ?? undefined;
  if (
    fields.group !== undefined &&
    namespace !== undefined &&
    fields.group !== namespace &&
    normalized(fields.group, purl.name)?.namespace !== namespace
  )
    throw contradiction('group', fields.group, namespace);
  return {
    ...fields,
    purl: purl.toString(),
    name: fields.name ?? purl.name,
    ...(fields.version === undefined && version !== undefined ? { version } : {}),
    ...(fields.group === undefined && namespace !== undefined ? { group: namespace } : {}),
  };
}

function externalReferences(fields: ComponentFields): Record<string, unknown>[] | undefined {
  const list = copyList(fields.externalReferences) ?? [];
  if (fields.distribution !== undefined)
    list.push({
      type: 'distribution',
      url: fields.distribution,
      ...(fields.hashes === undefined || fields.hashes.length === 0 ? {} : { hashes: copyList(fields.hashes) }),
    });
  return list.length === 0 ? undefined : list;
}

/** A component object; a generated bom-ref is made unique against `taken`, which records it. */
export function buildComponent(
  fields: ComponentFields,
  format: SpecFormat,
  taken: Set<string>,
): Record<string, unknown> {
  fields = withPurlFields(fields);
  const name = requireName(fields.name, 'component');
  let author = fields.author;
  let authors: Record<string, unknown>[] | undefined;
  if (fields.authors !== undefined && fields.authors.length > 0) {
    if (format.componentAuthors) {
      authors = fields.authors.map((a) => (typeof a === 'string' ? contactFromText(a) : structuredClone(a)));
    } else {
      // Before 1.6 a component has one free-text author.
      if (author !== undefined)
        throw new BomwrightError(
          'E_USAGE',
          `CycloneDX ${format.specVersion} has one author text: give author or authors`,
        );
      author = fields.authors.map(authorName).join(', ');
    }
  }
  return compact([
    ['type', fields.type ?? (fields.cryptoProperties === undefined ? 'library' : 'crypto-asset')],
    ['bom-ref', fields['bom-ref'] ?? uniqueBomRef(baseBomRef({ ...fields, name }), taken)],
    ['supplier', fields.supplier === undefined ? undefined : entity(fields.supplier)],
    ['authors', authors],
    ['author', author],
    ['group', fields.group],
    ['name', name],
    ['version', fields.version],
    ['description', fields.description],
    ['hashes', copyList(fields.hashes)],
    [
      'licenses',
      fields.licenses === undefined && fields.licenseNames === undefined
        ? undefined
        : withAcknowledgement(
            licenseChoice(fields.licenses ?? [], format, fields.licenseNames),
            fields.licenseAcknowledgement,
            format,
          ),
    ],
    ['purl', fields.purl],
    ['externalReferences', externalReferences(fields)],
    ['cryptoProperties', fields.cryptoProperties === undefined ? undefined : structuredClone(fields.cryptoProperties)],
    ['properties', copyList(fields.properties)],
  ]);
}

/** A service object; a generated bom-ref is made unique against `taken`, which records it. */
export function buildService(fields: ServiceFields, format: SpecFormat, taken: Set<string>): Record<string, unknown> {
  const name = requireName(fields.name, 'service');
  return compact([
    ['bom-ref', fields['bom-ref'] ?? uniqueBomRef(baseBomRef({ ...fields, name, purl: undefined }), taken)],
    ['provider', fields.provider === undefined ? undefined : entity(fields.provider)],
    ['group', fields.group],
    ['name', name],
    ['version', fields.version],
    ['description', fields.description],
    ['endpoints', fields.endpoints === undefined ? undefined : [...fields.endpoints]],
    ['authenticated', fields.authenticated],
    ['x-trust-boundary', fields['x-trust-boundary']],
    ['licenses', fields.licenses === undefined ? undefined : licenseChoice(fields.licenses, format)],
    ['externalReferences', copyList(fields.externalReferences)],
    ['properties', copyList(fields.properties)],
  ]);
}
