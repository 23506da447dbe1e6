/**
 * PLACEHOLDER, replaced by main's XSD-ordered writer when it lands (same signature): a model whose specVersion is
 * 1.2-1.7 → XML valid for that version's XSD. Until then writing XML afresh is refused.
 */
import { BomwrightError } from '../errors.js';

export function writeXml(_document: Record<string, unknown>): string {
  throw new BomwrightError('E_INTERNAL', 'The XML writer is not part of this build yet');
}
