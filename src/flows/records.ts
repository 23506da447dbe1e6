/**
 * What the flows write into a document: CycloneDX properties (`{ name, value }`), each value set in place so a
 * later run updates instead of duplicating, and a `bomwright:source` property per value naming the operation and
 * the resource it came from.
 */
import { BomwrightError } from '../errors.js';
import { isRecord } from '../values.js';

export const SOURCE_PROPERTY = 'bomwright:source';

/** A working copy of a BOM object, refused when its spec version has no properties (CycloneDX 1.2). */
export function editableCopy(document: unknown): Record<string, unknown> {
  if (!isRecord(document)) throw new BomwrightError('E_INPUT', 'Only a BOM object can be enriched');
  if (document.specVersion === '1.2')
    throw new BomwrightError(
      'E_USAGE',
      'CycloneDX 1.2 has no properties, so bomwright cannot record where an added value came from: upgrade the document to 1.3 or later',
    );
  return structuredClone(document);
}

function propertiesOf(owner: Record<string, unknown>): Record<string, unknown>[] {
  if (owner.properties === undefined) owner.properties = [];
  if (!Array.isArray(owner.properties)) throw new BomwrightError('E_INPUT', 'properties is not an array');
  return owner.properties as Record<string, unknown>[];
}

/** Sets the property `name` of `owner` to `value`: the first one of that name is updated, or one is appended. */
export function setProperty(owner: Record<string, unknown>, name: string, value: string): void {
  const properties = propertiesOf(owner);
  const existing = properties.find((p) => isRecord(p) && p.name === name);
  if (existing !== undefined) existing.value = value;
  else properties.push({ name, value });
}

/** Removes every property of `owner` named `name`. */
export function removeProperty(owner: Record<string, unknown>, name: string): void {
  if (!Array.isArray(owner.properties)) return;
  owner.properties = owner.properties.filter((p) => !(isRecord(p) && p.name === name));
  if ((owner.properties as unknown[]).length === 0) delete owner.properties;
}

/** `operation resource`, as a `bomwright:source` value. */
function sourceValue(operation: string, resource: string): string {
  return `${operation} ${resource}`;
}

/** Records that a value of `owner` came from `operation` on `resource` (once). */
export function recordSource(owner: Record<string, unknown>, operation: string, resource: string): void {
  const value = sourceValue(operation, resource);
  const properties = propertiesOf(owner);
  if (!properties.some((p) => isRecord(p) && p.name === SOURCE_PROPERTY && p.value === value))
    properties.push({ name: SOURCE_PROPERTY, value });
}

/**
 * Records that the values `operation` gives `owner` come from `resource` now: a source of the same operation on
 * another resource (the label's previous subcategory, a previous request) is removed, so no source names where the
 * values no longer come from.
 */
export function replaceSource(owner: Record<string, unknown>, operation: string, resource: string): void {
  if (Array.isArray(owner.properties))
    owner.properties = owner.properties.filter(
      (p) =>
        !(
          isRecord(p) &&
          p.name === SOURCE_PROPERTY &&
          typeof p.value === 'string' &&
          p.value.startsWith(`${operation} `) &&
          p.value !== sourceValue(operation, resource)
        ),
    );
  recordSource(owner, operation, resource);
}

/** Sets the `prefix`-named properties of `owner` to `values` exactly: one of the prefix not among them is removed. */
export function setPropertiesUnder(owner: Record<string, unknown>, prefix: string, values: Map<string, string>): void {
  if (Array.isArray(owner.properties)) {
    owner.properties = owner.properties.filter(
      (p) => !(isRecord(p) && typeof p.name === 'string' && p.name.startsWith(prefix) && !values.has(p.name)),
    );
    if ((owner.properties as unknown[]).length === 0) delete owner.properties;
  }
  for (const [name, value] of values) setProperty(owner, name, value);
}

/** Whether `owner` records a value from `operation` on `resource`. */
export function hasSource(owner: Record<string, unknown>, operation: string, resource: string): boolean {
  const value = sourceValue(operation, resource);
  return (
    Array.isArray(owner.properties) &&
    owner.properties.some((p) => isRecord(p) && p.name === SOURCE_PROPERTY && p.value === value)
  );
}

/** The metadata object of a working copy, created when missing. */
export function metadataOf(document: Record<string, unknown>): Record<string, unknown> {
  if (document.metadata === undefined) document.metadata = {};
  if (!isRecord(document.metadata)) throw new BomwrightError('E_INPUT', 'metadata is not an object');
  return document.metadata;
}
