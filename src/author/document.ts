/**
 * What every authoring function needs to know about a document: that it is a JSON object, which format it is
 * (so version-dependent shapes are chosen right), and how to write members without prototype surprises.
 */
import { BomwrightError } from '../errors.js';
import { MAX_DEPTH } from '../json/scan.js';
import type { SpecFormat } from '../spec/formats.js';
import { routeDocument } from '../spec/route.js';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The document as an object and its format; E_INPUT when it is no CycloneDX or CBOM document we support. */
export function documentFormat(document: unknown): { document: Record<string, unknown>; format: SpecFormat } {
  const route = routeDocument(document);
  if (route.format === undefined || !isRecord(document)) {
    const reason = route.diagnostics[0]?.message ?? 'it is not a BOM';
    throw new BomwrightError('E_INPUT', `Cannot edit the document: ${reason}`);
  }
  return { document, format: route.format };
}

/** The minor version (`1.6` → 6); CBOM 1.4-cbom-1.0 builds on CycloneDX 1.4. */
export function specMinor(format: SpecFormat): number {
  return Number(format.specVersion.split(/[.-]/)[1]);
}

/** ISO 8601 at seconds precision: what producers write, and stable to compare. */
export function isoSeconds(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new BomwrightError('E_USAGE', 'The timestamp is not a valid date');
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * Sets an own data member. Plain assignment of `__proto__` would replace the prototype instead; JSON.parse
 * makes it an ordinary member, so copies must too.
 */
export function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Guard for the recursive walks: parsed documents are at most MAX_DEPTH deep, hand-built ones may not be. */
export function checkDepth(depth: number): void {
  if (depth > MAX_DEPTH) throw new BomwrightError('E_INPUT', `Nesting is deeper than ${MAX_DEPTH} levels`);
}

/** Compact JSON (strings as they are) cut to `max` characters, for reports. */
export function display(value: unknown, max = 80): string | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length <= max ? text : text.slice(0, max - 1) + '…';
}
