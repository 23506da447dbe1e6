/**
 * bomwright's library API. Everything here is pure apart from loading the precompiled validators:
 * values in, values out; document defects are returned as diagnostics, never thrown.
 */
export { validate, DEFAULT_MAX_SIZE } from './validate/index.js';
export type { ValidateOptions, ValidationResult, SignatureMode } from './validate/index.js';
export type { Diagnostic, Severity } from './diagnostics/diagnostic.js';
export { RULES, RULE_IDS } from './diagnostics/rules.js';
export type { RuleId, RuleInfo } from './diagnostics/rules.js';
export { SPEC_FORMATS, CBOM_SCHEMA_ADDRESS } from './formats/formats.js';
export type { SpecFormat } from './formats/formats.js';
export { routeDocument } from './formats/route.js';
export { formatReports, OUTPUT_FORMATS } from './format/index.js';
export type { FileReport, ReportOptions, OutputFormat } from './format/index.js';
export { BomwrightError, ERROR_CODES, isBomwrightError } from './errors.js';
export type { ErrorCode } from './errors.js';
export * from './jsf/index.js';
export * from './author/index.js';

// The short names of the design's library API (`import { validate, sign, verify, bump } from 'bomwright'`).
import { signDocument } from './jsf/sign-document.js';
import { verifyDocument } from './jsf/verify.js';
import { initDocument } from './author/init.js';
import { bumpDocument } from './author/bump.js';
import { normalizeDocument } from './author/normalize.js';
import { diffDocuments } from './compare/diff.js';
/** {@link signDocument}: a signed copy of a document (root, inner objects, single, signers or chain). */
export const sign = signDocument;
/** {@link verifyDocument}: one report per JSF signer in a document. */
export const verify = verifyDocument;
/** {@link initDocument}: a new valid CycloneDX or CBOM document. */
export const init = initDocument;
/** {@link bumpDocument}: the next version of a document. */
export const bump = bumpDocument;
/** {@link normalizeDocument}: deterministic order that keeps signatures valid. */
export const normalize = normalizeDocument;
/** {@link diffDocuments}: what changed between two documents. */
export const diff = diffDocuments;
