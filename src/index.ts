/**
 * bomwright's library API. Everything here is pure apart from loading the precompiled validators:
 * values in, values out; document defects are returned as diagnostics, never thrown.
 */
export { validate, DEFAULT_MAX_SIZE } from './validate/index.js';
export type { ValidateOptions, ValidationResult, SignatureMode } from './validate/index.js';
export type { Diagnostic, Severity } from './validate/diagnostic.js';
export { RULES, RULE_IDS } from './validate/rules.js';
export type { RuleId, RuleInfo } from './validate/rules.js';
export { SPEC_FORMATS, CBOM_SCHEMA_ADDRESS } from './spec/formats.js';
export type { SpecFormat } from './spec/formats.js';
export { routeDocument } from './spec/route.js';
export { formatReports, OUTPUT_FORMATS } from './format/index.js';
export type { FileReport, ReportOptions, OutputFormat } from './format/index.js';
export { BomwrightError, ERROR_CODES, isBomwrightError } from './errors.js';
export type { ErrorCode } from './errors.js';
export * from './jsf/index.js';
export * from './author/index.js';
