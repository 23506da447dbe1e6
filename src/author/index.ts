/**
 * Authoring: creating, editing, versioning, normalizing and comparing BOMs. Pure functions: documents in,
 * new documents out (inputs are never modified); document problems come back as diagnostics, bad requests
 * throw BomwrightError E_USAGE, and documents that cannot be processed E_INPUT.
 */

/** A new, valid CycloneDX or CBOM document with a fresh serial number, a timestamp and bomwright as its tool. */
export { initDocument } from './init.js';
/** What {@link initDocument} takes. */
export type { InitOptions } from './init.js';
/** The component fields a package.json gives (name, version, purl, licences, homepage, repository). */
export { componentFromPackageJson } from './init.js';
/** An npm purl, `@scope` percent-encoded: `pkg:npm/%40scope/name@1.0.0`. */
export { npmPurl } from './init.js';

/** Adds a component; refused (`applied: false`) when the document would get more errors. */
export { addComponent } from './edit.js';
/** Adds a service; refused (`applied: false`) when the document would get more errors. */
export { addService } from './edit.js';
/** Adds or merges a dependency entry; refused when a reference does not resolve. */
export { addDependency } from './edit.js';
/** Adds a name/value property to an element (by bom-ref) or to the document. */
export { addProperty } from './edit.js';
/** Sets or removes one metadata member (supplier, manufacture, authors, licenses, component, timestamp, properties). */
export { setMetadata } from './edit.js';
/** The metadata members {@link setMetadata} accepts. */
export { METADATA_FIELDS } from './edit.js';
/** Options, result and field types of the edit functions. */
export type { EditOptions, EditResult, DependencyFields, PropertyFields, MetadataField } from './edit.js';
/** Simple fields from which components and services are built in the shape of the document's version. */
export type { ComponentFields, ServiceFields, EntityField } from './elements.js';

/** The next version of a document: version + 1, fresh timestamp, serial number kept, signatures removed. */
export { bumpDocument } from './bump.js';
/** Whether two documents differ, ignoring signatures, metadata.timestamp, version and member order. */
export { contentChanged } from './bump.js';
/** Checks the version rule of a document against its previous release, with the reason in one line. */
export { bumpDue } from './bump.js';
/** Options and results of {@link bumpDocument} and {@link bumpDue}. */
export type { BumpOptions, BumpResult, BumpVerdict } from './bump.js';

/** A deterministic member and array order that keeps every signature valid; idempotent. */
export { normalizeDocument } from './normalize.js';

/** Components, services, dependencies, metadata and top-level changes between two documents. */
export { diffDocuments } from '../compare/diff.js';
/** A {@link BomDiff} as `+`/`-`/`~` lines for people. */
export { formatDiffText } from '../compare/diff.js';
/** The diff data (plain JSON, for a json output format). */
export type {
  BomDiff,
  ElementDiff,
  ElementSummary,
  ElementChange,
  MemberChange,
  DependencyEntry,
  DependencyChange,
} from '../compare/diff.js';

/** A `urn:uuid:` serial number with a random version-4 UUID. */
export { newSerialNumber } from './serial-number.js';
/** A source of random bytes, injectable for deterministic serial numbers. */
export type { RandomBytes } from './serial-number.js';
