/**
 * The string formats every JSON Schema check in bomwright uses (the precompiled BOM validators, the service
 * shapes, the emulator's seed): ajv-formats' full set, with the formats it checks laxer than their RFCs replaced
 * by exact ones.
 */
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isIdnEmail, isIri, isIriReference } from './iri.js';
import { isDateTime, isFullDate, isFullTime } from './rfc3339.js';

/** Formats checked exactly as their RFCs define them (RFC 3339, RFC 3987, RFC 6531). */
export const EXACT_FORMATS = {
  date: isFullDate,
  time: isFullTime,
  'date-time': isDateTime,
  'iri-reference': isIriReference,
  iri: isIri,
  'idn-email': isIdnEmail,
} as const;

export const STRING_FORMATS = { ...fullFormats, ...EXACT_FORMATS };
