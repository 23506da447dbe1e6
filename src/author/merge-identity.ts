/**
 * What makes two entries the same thing across BOMs. A bom-ref never does (it means nothing outside its own
 * BOM): a component is its package URL in canonical form, else group + name + version + type; a service its
 * group + name + version; a vulnerability its id; a tool its name and version.
 */
import { createRequire } from 'node:module';

type PackageUrlClass = typeof import('packageurl-js').PackageURL;
let packageUrl: PackageUrlClass | undefined;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The canonical form of a purl as the purl specification defines it (type and per-type name normalisation,
 * percent-decoding, qualifiers sorted by key), or undefined when it is not a package URL.
 */
export function canonicalPurl(purl: string): string | undefined {
  // Loaded on first use, as in elements.ts: only commands that need it pay for it.
  packageUrl ??= (createRequire(import.meta.url)('packageurl-js') as typeof import('packageurl-js')).PackageURL;
  try {
    return packageUrl.fromString(purl).toString();
  } catch {
    return undefined;
  }
}

/** {@link canonicalPurl} remembered per text, for the many purls a merge meets more than once. */
export function canonicalPurlCache(): (purl: string) => string | undefined {
  const known = new Map<string, string | undefined>();
  return (purl) => {
    if (known.has(purl)) return known.get(purl);
    const canonical = canonicalPurl(purl);
    known.set(purl, canonical);
    return canonical;
  };
}

/** A component's identity key; undefined for one without a name (the schema requires it; nothing to match). */
export function componentIdentity(
  component: Record<string, unknown>,
  canonicalOf: (purl: string) => string | undefined = canonicalPurl,
): string | undefined {
  if (typeof component.purl === 'string' && component.purl !== '') {
    const canonical = canonicalOf(component.purl);
    // A purl that is not one is still the producer's identifier: compared as written.
    return canonical === undefined ? `purl-text\u0000${component.purl}` : `purl\u0000${canonical}`;
  }
  if (typeof component.name !== 'string' || component.name === '') return undefined;
  return `gnvt\u0000${text(component.group)}\u0000${component.name}\u0000${text(component.version)}\u0000${text(component.type)}`;
}

export function serviceIdentity(service: Record<string, unknown>): string | undefined {
  if (typeof service.name !== 'string' || service.name === '') return undefined;
  return `gnv\u0000${text(service.group)}\u0000${service.name}\u0000${text(service.version)}`;
}

export function vulnerabilityIdentity(vulnerability: Record<string, unknown>): string | undefined {
  return typeof vulnerability.id === 'string' && vulnerability.id !== '' ? `id\u0000${vulnerability.id}` : undefined;
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
