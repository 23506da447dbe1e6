/**
 * bomwright's library API: one name per operation. Document defects come back as diagnostics, never thrown;
 * operational failures throw a BomwrightError with a stable code. Most functions are pure (values in, values out);
 * the exceptions say so: the file functions (validateFiles, readDocumentFile, writeDocumentFile, loadTrustStore,
 * loadProfiles, deltaLinkFile) read or write files, and the service flows (last section) make network calls through
 * the client they are given.
 */
import { initDocument, type InitOptions } from './author/init.js';
import {
  merge as mergeDocuments,
  type BomMergeInput,
  type BomMergeOptions,
  type BomMergeResult,
} from './author/merge.js';
import { ownVersion } from './node/own-version.js';

// Validation
/** Validates one document (bytes, text or a parsed value): schema, rules, signatures and, with a baseline, the version rule. */
export { validate } from './validate/index.js';
/** What {@link validate} takes and returns. */
export type { ValidateOptions, ValidationResult, SignatureMode } from './validate/index.js';
/** The signature modes of {@link validate}: verify (default), require, ignore. */
export { SIGNATURE_MODES } from './validate/index.js';
/** The version rule of one document against its previous release, as diagnostics. */
export { versionRule } from './validate/version-rule.js';
/** The previous release {@link versionRule} compares with. */
export type { Baseline } from './validate/version-rule.js';
/** Validates files, directories and glob patterns in a pool of worker threads, one report per BOM. */
export { validateFiles } from './node/validate-files.js';
/** What {@link validateFiles} takes and returns. */
export type { ValidateFilesOptions, ValidateFilesResult, VersionRuleSource } from './node/validate-files.js';
/** The shard (1 to N) a document falls to by its report uri, as `validateFiles({ shard })` chooses. */
export { shardOf } from './node/shard.js';
/** Shard `index` of `count`, as {@link validateFiles} takes it. */
export type { Shard } from './node/shard.js';
/** One finding about one place in a document, and its severity. */
export type { Diagnostic } from './diagnostics/diagnostic.js';
/** Every rule bomwright reports, by stable id, with severity, description and hint. */
export { RULES, RULE_IDS } from './diagnostics/rules.js';
/** A rule id, the rule registry's entries, and diagnostic severities. */
export type { RuleId, RuleInfo, Severity } from './diagnostics/rules.js';
/** The supported document formats and what each can express. */
export { SPEC_FORMATS } from './formats/formats.js';
/** One row of {@link SPEC_FORMATS}. */
export type { SpecFormat } from './formats/formats.js';

// Documents (JSON and CycloneDX XML: one model, two syntaxes)
/** Bytes or text → { syntax, model, locate, write }: the one reading of a document, JSON or CycloneDX XML. */
export { readDocument } from './document/read.js';
/** What {@link readDocument} returns: the document, or why it cannot be read. */
export type { BomDocument, DocumentRead, DocumentPlace } from './document/read.js';
/** A model as JSON or CycloneDX XML text (XML in the element order of its version's XSD). */
export { writeDocument } from './document/write.js';
/** What a document's `write` takes. */
export type { WriteOptions } from './document/write.js';
/** The syntax of a text (`xml` when markup comes first, after white space), and the two syntaxes. */
export { syntaxOf, SYNTAXES } from './document/syntax.js';
/** `json` or `xml`. */
export type { Syntax } from './document/syntax.js';
/** A document file (or `-`) read in either syntax, and a model written to a file atomically in either syntax. */
export { readDocumentFile, writeDocumentFile } from './node/documents.js';

// Reports
/** Validation reports in one of the {@link OUTPUT_FORMATS} (text, json, sarif, junit, github). */
export { formatReports, OUTPUT_FORMATS } from './format/index.js';
/** What {@link formatReports} takes. */
export type { FileReport, ReportOptions, OutputFormat, ShardStamp } from './format/index.js';
/** The json, sarif or junit reports of every shard of one run → the report of one unsharded run. */
export { mergeReports, MERGE_FORMATS } from './format/merge.js';
/** What {@link mergeReports} takes and returns. */
export type { ReportText, MergeOptions, MergeResult, MergeFormat } from './format/merge.js';
/** A {@link diff} as `+`/`-`/`~` lines (text) or JSON. */
export { formatDiff } from './format/diff.js';

// Errors
/** The error every operational failure throws, its stable codes, and a type guard. */
export { BomwrightError, ERROR_CODES, isBomwrightError } from './errors.js';
/** One of {@link ERROR_CODES}. */
export type { ErrorCode } from './errors.js';

// Signatures (JSF on JSON, XMLDSig on XML)
/**
 * A signed copy of a document (root and/or inner objects; single, signers or chain), as the CLI signs: a BOM that
 * is not valid is refused (`signed: false`, with its errors). CycloneDX XML (bytes or text) gets one enveloped XML
 * signature over the whole document and comes back as text.
 */
export { signBom as sign } from './author/sign.js';
/** What {@link sign} returns. */
export type { SignResult } from './author/sign.js';
/** What {@link sign} takes. */
export type { DocumentSignOptions as SignOptions } from './jsf/sign-document.js';
/** One key to sign with or trust: PEM text, a JWK (object or text), a JWKS entry by keyId, an HMAC secret. */
export { loadKey } from './jsf/keys.js';
/** What {@link loadKey} takes. */
export type { LoadKeyOptions } from './jsf/keys.js';
/** How {@link sign} adds a signature: replace it, add a signer, or extend a chain. */
export type { SignMode } from './jsf/sign.js';
/**
 * One report per signer in a document: JSF in a parsed JSON value, or the XML signature of CycloneDX XML given
 * as bytes or text; verdict, key source, trust.
 */
export { verifyAny as verify } from './author/verify.js';
/** What {@link verify} takes and returns. */
export type { VerifyOptions, DocumentSignatures, SignerReport, Verdict, KeySource, Trust } from './jsf/verify.js';
/** RFC 8785 (JCS) canonical JSON: what a JSF signature signs. */
export { canonicalize } from './jsf/jcs.js';
/** Every key in PEM, JWK, JWKS or hex text (a list, for a {@link TrustStore}; to sign, use {@link loadKey}). */
export { parseKeyMaterial } from './jsf/keys.js';
/** A parsed key (private or public, with its certificates and key id). */
export type { KeyMaterial } from './jsf/keys.js';
/** The JSF algorithm names bomwright signs and verifies. */
export { JSF_ALGORITHMS } from './jsf/algorithms.js';
/** One of {@link JSF_ALGORITHMS}. */
export type { JsfAlgorithm } from './jsf/algorithms.js';
/** Trusted keys and roots from files or folders (PEM, JWK, JWKS, certificates). */
export { loadTrustStore } from './node/keys.js';
/** Keys and root certificates that make signatures trusted. */
export type { TrustStore } from './jsf/trust.js';

// Compliance profiles
/** Compliance profiles and organisation policies (`validate --profile`): load by name or file, or parse a value. */
export { loadProfiles, BUILTIN_PROFILE_NAMES } from './node/profiles.js';
/** A profile's JSON value read into typed values, and its `extends` chain applied. */
export { parseProfile, resolveProfile } from './validate/profiles/model.js';
/** The profile format (schema/profile.schema.json describes the same). */
export type { Profile, ProfileSpec, Requirement, Check, Level } from './validate/profiles/model.js';
/** A profile's verdict on one document (ValidationResult.profiles). */
export type { ProfileResult, RequirementResult } from './validate/profiles/evaluate.js';

// Authoring
/**
 * A new, valid CycloneDX or CBOM document with a fresh serial number, a timestamp and bomwright as its tool
 * (this bomwright's version unless `toolVersion` says otherwise).
 */
export function init(
  options: Omit<InitOptions, 'toolVersion'> & { toolVersion?: string } = {},
): Record<string, unknown> {
  return initDocument({ ...options, toolVersion: options.toolVersion ?? ownVersion() });
}
/** What {@link init} takes. */
export type { InitOptions } from './author/init.js';
/** Edits that are refused (`applied: false`) when the document would get more errors. */
export {
  addComponent,
  addService,
  addDependency,
  addProperty,
  addComposition,
  setMetadata,
  METADATA_FIELDS,
} from './author/edit.js';
/** Set any member by JSON pointer, in the document or in each component a selector matches (`bomwright set`). */
export { setValue } from './author/set.js';
/** What {@link setValue} takes. */
export type { SetRequest } from './author/set.js';
/** Write an artefact's hashes into its components and their distribution references (`bomwright hash`). */
export { addArtefactHashes } from './author/hashes.js';
/** What {@link addArtefactHashes} takes. */
export type { Artefact, HashRequest } from './author/hashes.js';
/** Options, results and fields of the edit functions. */
export type {
  EditOptions,
  EditResult,
  DependencyFields,
  PropertyFields,
  CompositionFields,
  MetadataField,
} from './author/edit.js';
/** Fields from which components and services are built in the shape of the document's version. */
export type { ComponentFields, ServiceFields, EntityField } from './author/elements.js';
/** The next version of a document: version + 1, fresh timestamp, serial number kept, signatures removed. */
export { bumpDocument as bump } from './author/bump.js';
/** What {@link bump} takes and returns. */
export type { BumpOptions, BumpResult } from './author/bump.js';
/** A deterministic member and array order that keeps every signature valid; idempotent. */
export { normalizeDocument as normalize } from './author/normalize.js';
/**
 * Many BOMs into one valid BOM: duplicates combined by identity, bom-refs unique, references rewritten, graph
 * whole; bomwright is named as the tool (this bomwright's version unless `toolVersion` says otherwise).
 */
export function merge(
  inputs: readonly BomMergeInput[],
  options: Omit<BomMergeOptions, 'toolVersion'> & { toolVersion?: string } = {},
): Promise<BomMergeResult> {
  return mergeDocuments(inputs, { ...options, toolVersion: options.toolVersion ?? ownVersion() });
}
/** What {@link merge} takes and returns. */
export type {
  BomMergeInput,
  BomMergeOptions,
  BomMergeResult,
  BomMergeSummary,
  MergeConflict,
  MemberPolicy,
  DifferencePolicy,
  RenamedRef,
  DroppedMember,
} from './author/merge.js';
/**
 * A document as a document of another spec version (1.2–1.7 up or down, XML-only 1.0/1.1 upward, CBOM as itself):
 * what the target's official schema lacks dropped, what the specification says how to carry converted, both listed.
 */
export { convertVersion } from './author/convert.js';
/** What {@link convertVersion} takes and returns. */
export type { ConvertOptions, ConvertedValue, VersionConversion } from './author/convert.js';
/** A `urn:uuid:` serial number with a random version-4 UUID. */
export { newSerialNumber } from './author/serial-number.js';

// Comparing
/** Components, services, dependencies, metadata and top-level changes between two documents. */
export { diffDocuments as diff } from './compare/diff.js';
/** What {@link diff} returns. */
export type {
  BomDiff,
  ElementDiff,
  ElementSummary,
  ElementChange,
  MemberChange,
  DependencyEntry,
  DependencyChange,
} from './compare/diff.js';
/** Whether two versions differ in content (signatures, metadata.timestamp and version aside). */
export { contentChanged } from './compare/content.js';

// Service flows: they call the service through the client they are given (`createClient` of `bomwright/service`)
/**
 * The service flows: pure over documents, the typed client (`createClient` of `bomwright/service`) passed in. Each
 * returns a changed working copy; {@link commitChange} turns it into the next version (or nothing, when nothing
 * changed), with signatures re-signed or dropped and the result validated.
 */
export { commitChange } from './flows/change.js';
/** What {@link commitChange} takes and returns. */
export type { CommitOptions, CommitResult, SignaturePolicy } from './flows/change.js';
/** Each contact's phone and phishing-resistant sign-in from the directory, one lookup per person and operation. */
export { enrichAuthors } from './flows/authors.js';
/** What {@link enrichAuthors} takes and returns. */
export type { EnrichAuthorsOptions, EnrichAuthorsResult, PersonReport } from './flows/authors.js';
/** The security label's subcategory template, in metadata properties. */
export { enrichLabel } from './flows/label.js';
/** What {@link enrichLabel} takes and returns. */
export type { EnrichLabelOptions, EnrichLabelResult } from './flows/label.js';
/** The access package assignment request that approved the release; refused unless it was delivered. */
export { enrichApproval } from './flows/approval.js';
/** What {@link enrichApproval} takes and returns. */
export type { EnrichApprovalOptions, EnrichApprovalResult } from './flows/approval.js';
/** A component inventory from a workbook table into a BOM's components; rejected rows reported (and flagged). */
export { importWorkbook, IMPORT_FIELDS } from './flows/workbook-import.js';
/** What {@link importWorkbook} takes and returns. */
export type { ImportWorkbookOptions, ImportWorkbookResult, RejectedRow, ImportField } from './flows/workbook-import.js';
/** A BOM to the people who act on it: a thread reply with it attached, a release bundle, a channel tab, a forward. */
export { publishThread, threadReply, publishBundle, publishTab, notifyForward } from './flows/publish.js';
/** What the publish flows take and return. */
export type {
  ThreadReplyOptions,
  ThreadReply,
  ThreadPublication,
  PublishedPost,
  TabOptions,
  ForwardOptions,
} from './flows/publish.js';
/** A delta-link store for the service client's syncMessages: one file, written atomically. */
export { deltaLinkFile } from './node/delta-link-file.js';
