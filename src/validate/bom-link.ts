/**
 * CycloneDX BOM-Links (1.5+): `urn:cdx:<serial UUID>/<version>` names a document, with `#<url-encoded bom-ref>` an
 * element of it. From 1.5 the schema types every reference as one of two kinds: refLinkType, an element of the
 * same document (a BOM-Link there points outside it), or refLinkType-or-bomLinkElementType, which also takes a
 * BOM-Link to an element of another document. The schema's refLinkType admits any string, so both readings are
 * checked here, for the validators (build/schema-transform.ts marks the places) and the dependency rule alike.
 */
import { truncate } from '../values.js';

export const BOM_LINK_PREFIX = 'urn:cdx:';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const BOM_LINK_ELEMENT = new RegExp(`^urn:cdx:${UUID}/[1-9][0-9]*#.+$`);

/** How a place reads a reference: `document` (refLinkType), `element` (refLinkType or bomLinkElementType). */
export type RefLinkKind = 'document' | 'element';

/** Whether `value` breaks its place's reading: a BOM-Link where only this document counts, or a malformed one. */
export function refLinkViolation(kind: RefLinkKind, value: unknown): boolean {
  if (typeof value !== 'string' || !value.startsWith(BOM_LINK_PREFIX)) return false;
  return kind === 'document' || !BOM_LINK_ELEMENT.test(value);
}

/** The message for a {@link refLinkViolation}; `dependency` for the dependency graph's members. */
export function refLinkMessage(kind: RefLinkKind | 'dependency', value: string): string {
  const shown = truncate(JSON.stringify(value), 80);
  if (kind === 'element')
    return `Reference ${shown} is not a valid BOM-Link to an element (urn:cdx:<serial UUID>/<version>#<bom-ref>)`;
  return kind === 'dependency'
    ? `Reference ${shown} is a BOM-Link; the dependency graph names elements of this document only (refLinkType): a BOM-Link belongs in externalReferences, not in the dependency graph`
    : `Reference ${shown} is a BOM-Link; this member names an element of this document only (refLinkType): a BOM-Link belongs in externalReferences`;
}
