/**
 * What makes two entries the same thing across BOMs. A bom-ref never does (it means nothing outside its own
 * BOM): a component is its package URL in canonical form, else group + name + version + type and what tells such
 * things apart (a file's hashes, a crypto asset's type and OID); a service its
 * group + name + version; a vulnerability statement its id, source, analysis and recommendation; a tool its name
 * and version.
 */
import { createRequire } from 'node:module';
import { canonicalKey } from '../validate/unique.js';
import { isRecord } from '../values.js';

type PackageUrlClass = typeof import('packageurl-js').PackageURL;
let packageUrl: PackageUrlClass | undefined;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function loadPackageUrl(): PackageUrlClass {
  // Loaded on first use, as in elements.ts: only commands that need it pay for it.
  packageUrl ??= (createRequire(import.meta.url)('packageurl-js') as typeof import('packageurl-js')).PackageURL;
  return packageUrl;
}

/** Package types some generators spell as a type of their own: `pkg:alpine/x` is `pkg:apk/alpine/x`. */
const TYPE_ALIASES: Readonly<Record<string, readonly [string, string]>> = {
  alpine: ['apk', 'alpine'],
  alpm: ['alpm', 'arch'],
  debian: ['deb', 'debian'],
  ubuntu: ['deb', 'ubuntu'],
};

/** What a merge compares a purl by, from one parse: both forms below. */
interface PurlKeys {
  canonical: string;
  coordinates: string;
}

/**
 * A purl's canonical form, as the purl specification defines it (type and per-type name normalisation,
 * percent-decoding, qualifiers sorted by key), and its coordinates: type (aliases resolved), namespace, name and
 * version, without qualifiers and subpath (two scanners of one image write `?distro=3.13.1` and
 * `?arch=x86_64&distro=3.13.1` for one package). Undefined when it is not a package URL.
 */
function purlKeys(purl: string): PurlKeys | undefined {
  try {
    const parsed = loadPackageUrl().fromString(purl);
    const alias = parsed.namespace === undefined || parsed.namespace === null ? TYPE_ALIASES[parsed.type] : undefined;
    const [type, namespace] = alias ?? [parsed.type, parsed.namespace ?? ''];
    return {
      canonical: parsed.toString(),
      coordinates: `${type}\u0000${namespace}\u0000${parsed.name}\u0000${parsed.version ?? ''}`,
    };
  } catch {
    return undefined;
  }
}

/** The canonical form of a purl (see {@link purlKeys}), or undefined when it is not a package URL. */
export function canonicalPurl(purl: string): string | undefined {
  return purlKeys(purl)?.canonical;
}

/** {@link purlKeys} remembered per text: a merge meets most purls more than once, and parsing is its dearest step. */
function purlKeyCache(): (purl: string) => PurlKeys | undefined {
  const known = new Map<string, PurlKeys | undefined>();
  return (purl) => {
    let keys = known.get(purl);
    if (keys === undefined && !known.has(purl)) {
      keys = purlKeys(purl);
      known.set(purl, keys);
    }
    return keys;
  };
}

/**
 * What every purl naming one package shares, whatever its spelling: its name as the purl parser reads it (tabs and
 * line breaks dropped, the ends trimmed, without `#subpath`, `?qualifiers` and the version after the last `@`),
 * percent-decoded, trimmed, lower-cased, `_` as `-` (the purl types' normalisations: lower case; pypi's `_` → `-`,
 * pub's `-` → `_`). Two purls with one canonical form or one set of coordinates have one name key.
 */
function purlNameKey(purl: string): string {
  let text = purl.replace(/[\t\n\r]/g, '').trim();
  const hash = text.indexOf('#');
  if (hash !== -1) text = text.slice(0, hash);
  const query = text.indexOf('?');
  if (query !== -1) text = text.slice(0, query);
  const at = text.lastIndexOf('@');
  // An `@` right after a `/` starts an unencoded npm scope, not the version.
  if (at !== -1 && text.charCodeAt(at - 1) !== 0x2f) text = text.slice(0, at);
  const name = text.slice(text.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(name).trim().toLowerCase().replaceAll('_', '-');
  } catch {
    // Not decodable, so no package URL: all such purls in one group, each compared as written after parsing.
    return '\u0000';
  }
}

/**
 * The purls of one merge, each parsed only when that can matter. Parsing is most of a merge's own work (about
 * 10 µs a purl): a purl whose name key no other purl text of the merge has can equal no other, so it stands for
 * itself as written, unparsed; the others are parsed once each. Every purl is added before any is asked about.
 */
export class PurlIndex {
  /** Name key → the one purl text seen with it, or null once there are several. */
  private readonly byName = new Map<string, string | null>();
  /** Purl text → its name key. */
  private readonly names = new Map<string, string>();
  private readonly parse = purlKeyCache();

  add(purl: string): void {
    if (this.names.has(purl)) return;
    const key = purlNameKey(purl);
    this.names.set(purl, key);
    this.byName.set(key, this.byName.has(key) ? null : purl);
  }

  private alone(purl: string): boolean {
    const key = this.names.get(purl);
    if (key === undefined) throw new Error(`PurlIndex: ${purl} was not added`);
    return this.byName.get(key) === purl;
  }

  /** Whether another purl text shares this one's name key: only then can the two be one package, or probably one. */
  shared(purl: string): boolean {
    return !this.alone(purl);
  }

  /** The purl's canonical form, or a key that only the same text has; undefined when it is no package URL. */
  canonical(purl: string): string | undefined {
    return this.alone(purl) ? `\u0001${purl}` : this.parse(purl)?.canonical;
  }

  /** The purl's coordinates (see {@link purlKeys}), or a key that only the same text has. */
  coordinates(purl: string): string | undefined {
    return this.alone(purl) ? `\u0001${purl}` : this.parse(purl)?.coordinates;
  }
}

/** A component's identity key. */
export function componentIdentity(
  component: Record<string, unknown>,
  canonicalOf: (purl: string) => string | undefined = canonicalPurl,
): string | undefined {
  if (typeof component.purl === 'string' && component.purl !== '') {
    const canonical = canonicalOf(component.purl);
    // A purl that is not one is still the producer's identifier: compared as written.
    return canonical === undefined ? `purl-text\u0000${component.purl}` : `purl\u0000${canonical}`;
  }
  // Nameless (an empty name): only an equal entry, bom-ref and children aside, is the same thing.
  if (typeof component.name !== 'string' || component.name === '')
    return `content\u0000${canonicalKey({ ...component, 'bom-ref': undefined, components: undefined })}`;
  const base = `gnvt\u0000${text(component.group)}\u0000${component.name}\u0000${text(component.version)}\u0000${text(component.type)}`;
  return `${base}${distinction(component)}`;
}

/** The properties object of each CBOM asset type, and the members that tell two assets of one name apart. */
const CRYPTO_DISTINCTIONS: Readonly<Record<string, readonly string[]>> = {
  relatedCryptoMaterialProperties: ['type', 'id'],
  protocolProperties: ['type', 'version'],
  certificateProperties: ['subjectName', 'issuerName', 'notValidAfter'],
};

/**
 * What tells apart things that share a name and have no purl: a file by its content (the set of its hashes:
 * /etc/os-release of two images), a crypto asset by its asset type, OID and kind (the RSA-2048 algorithm, its
 * public key and its private key). Empty for everything else.
 */
function distinction(component: Record<string, unknown>): string {
  if (component.type === 'file' && Array.isArray(component.hashes)) {
    const hashes = component.hashes
      .filter(isRecord)
      .map((h) => `${text(h.alg)}:${text(h.content).toLowerCase()}`)
      .sort();
    return hashes.length === 0 ? '' : `\u0000hashes\u0000${[...new Set(hashes)].join(',')}`;
  }
  if (component.type === 'cryptographic-asset' && isRecord(component.cryptoProperties)) {
    const crypto = component.cryptoProperties;
    const parts = [text(crypto.assetType), text(crypto.oid)];
    for (const [member, names] of Object.entries(CRYPTO_DISTINCTIONS)) {
      const properties = crypto[member];
      if (isRecord(properties)) for (const name of names) parts.push(`${name}=${text(properties[name])}`);
    }
    return `\u0000crypto\u0000${parts.join('\u0000')}`;
  }
  return '';
}

export function serviceIdentity(service: Record<string, unknown>): string | undefined {
  if (typeof service.name !== 'string' || service.name === '') return undefined;
  return `gnv\u0000${text(service.group)}\u0000${service.name}\u0000${text(service.version)}`;
}

/**
 * A VEX statement: one id may rightly appear many times in one BOM, each entry saying something about the components
 * in its `affects` (exploitable for one product, not_affected for another). Two entries are one statement only when
 * id, source, analysis (state, justification, response, detail) and recommendation are equal; their `affects` are
 * then united. Everything else an entry says (ratings, advisories, timestamps) is combined, not part of identity.
 */
export function vulnerabilityIdentity(vulnerability: Record<string, unknown>): string | undefined {
  // Without an id there is nothing to name it by: only an equal entry (bom-ref aside) is the same statement.
  if (typeof vulnerability.id !== 'string' || vulnerability.id === '')
    return `content\u0000${canonicalKey({ ...vulnerability, 'bom-ref': undefined })}`;
  const source = isRecord(vulnerability.source) ? vulnerability.source : {};
  const analysis = isRecord(vulnerability.analysis) ? vulnerability.analysis : {};
  // The responses are a set: their order says nothing.
  const responses = Array.isArray(analysis.response) ? analysis.response.map((r) => canonicalKey(r)).sort() : [];
  return [
    'statement',
    vulnerability.id,
    text(source.name),
    text(source.url),
    text(analysis.state),
    text(analysis.justification),
    responses.join('\u0001'),
    text(analysis.detail),
    text(vulnerability.recommendation),
  ].join('\u0000');
}

export function toolIdentity(tool: Record<string, unknown>): string | undefined {
  if (typeof tool.name !== 'string' || tool.name === '') return undefined;
  return `tool\u0000${tool.name}\u0000${text(tool.version)}`;
}

/** How an element is named in messages: its purl, else group/name@version, else its id, else its bom-ref. */
export function elementLabel(element: Record<string, unknown>): string {
  if (typeof element.purl === 'string' && element.purl !== '') return element.purl;
  const name = text(element.name);
  if (name !== '') {
    const group = text(element.group);
    const version = text(element.version);
    return `${group === '' ? '' : `${group}/`}${name}${version === '' ? '' : `@${version}`}`;
  }
  return text(element.id) || text(element['bom-ref']) || '(unnamed)';
}
