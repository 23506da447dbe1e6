/**
 * What the precompiled validators (generated/validators/*.js) call at run time: the format checkers, the linear
 * uniqueItems check, the integer check on the number's text and the patterns checked by code. The build step
 * compiles against this same module, so the two always agree.
 */
export { STRING_FORMATS as formats } from './string-formats.js';
export { findDuplicatePair, isEnumMember } from './unique.js';
export { roundedIntegerLiteral } from '../json/numbers.js';
export { refLinkViolation } from './bom-link.js';
export { schemaRegExp } from './schema-patterns.js';
