/**
 * What the precompiled validators (generated/validators/*.js) call at run time: the format checkers and the
 * linear uniqueItems check. The build step compiles against this same module, so the two always agree.
 */
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { isIdnEmail, isIri, isIriReference } from './iri.js';

export { findDuplicatePair } from './unique.js';

export const formats = {
  ...fullFormats,
  'iri-reference': isIriReference,
  iri: isIri,
  'idn-email': isIdnEmail,
};
