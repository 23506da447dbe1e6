/**
 * What every authoring function needs to know about a document: that it is a JSON object, which format it is
 * (so version-dependent shapes are chosen right), and how to write members without prototype surprises.
 */
import { BomwrightError } from '../errors.js';
import { isRecord } from '../values.js';
import type { SpecFormat } from '../formats/formats.js';
import { routeDocument } from '../formats/route.js';

/** The document as an object and its format; E_INPUT when it is no CycloneDX or CBOM document we support. */
export function documentFormat(document: unknown): { document: Record<string, unknown>; format: SpecFormat } {
  const route = routeDocument(document);
  if (route.format === undefined || !isRecord(document)) {
    const reason = route.diagnostics[0]?.message ?? 'it is not a BOM';
    throw new BomwrightError('E_INPUT', `Cannot edit the document: ${reason}`);
  }
  return { document, format: route.format };
}

/** ISO 8601 at seconds precision: what producers write, and stable to compare. */
export function isoSeconds(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new BomwrightError('E_USAGE', 'The timestamp is not a valid date');
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
