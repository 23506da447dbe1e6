/**
 * What the precompiled validators (generated/validators/*.js) call at run time: the format checkers, the linear
 * uniqueItems check, the integer check on the number's text, the patterns checked by code and the in-place append
 * of a nested validator's errors. The build step
 * compiles against this same module, so the two always agree.
 */
export { STRING_FORMATS as formats } from './string-formats.js';
export { findDuplicatePair, isEnumMember } from './unique.js';
export { roundedIntegerLiteral } from '../json/numbers.js';
export { refLinkViolation } from './bom-link.js';
export { schemaRegExp } from './schema-patterns.js';

/**
 * A nested validator's errors added to those gathered so far, in place (the build's rewrite of ajv's
 * `vErrors.concat(…)`, which copied every earlier error at each failing item: n invalid components cost n²).
 */
export function appendErrors(gathered: unknown[] | null, more: unknown[]): unknown[] {
  if (gathered === null) return more;
  for (const error of more) gathered.push(error);
  return gathered;
}
