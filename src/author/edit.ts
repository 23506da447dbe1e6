/**
 * Edits that keep a document valid. Each edit works on a copy, validates the result (signatures ignored: they
 * are handled here) and is applied only if it adds no error; the input is never modified.
 *
 * Two kinds of refusal, as everywhere in bomwright: a bad request (unknown metadata field, missing name, an
 * unknown target, a signed object without `allowSignatureInvalidation`) throws BomwrightError E_USAGE; an edit
 * that would make the document less valid is a document problem and comes back as `applied: false` with the
 * original document and the errors the edit would have introduced.
 */
import { BomwrightError } from '../errors.js';
import { resolvePointer } from '../json/pointer.js';
import { forEachObject } from '../json/walk.js';
import type { SpecFormat } from '../formats/formats.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { validate } from '../validate/index.js';
import { collectBomRefs } from './bom-ref.js';
import { documentFormat, isoSeconds } from './document.js';
import {
  buildComponent,
  buildService,
  canonicalPurl,
  withPurlFields,
  type ComponentFields,
  type ServiceFields,
} from './elements.js';
import { licensesValue } from './licenses.js';
import { removeMembers, signaturesOnPath } from './signatures.js';
import { isRecord, setMember } from '../values.js';
import { didYouMean, nearestNames } from '../nearest.js';
import { schemaPlace } from './schema-place.js';
import { parseSelector, selectComponents } from './select.js';

export interface EditOptions {
  /** Edit signed objects (the root, or the object edited) anyway: their signatures are removed and reported. */
  allowSignatureInvalidation?: boolean;
  /** Add a component although one with the same purl (or group, name and version) is there. */
  allowDuplicate?: boolean;
}

export interface EditResult {
  /** The edited copy, or the original document when the edit was refused. */
  document: Record<string, unknown>;
  /** False when the edit would have added validation errors. */
  applied: boolean;
  /**
   * Applied: every diagnostic of the edited document (warnings included). Refused: the errors the edit would
   * have introduced.
   */
  diagnostics: Diagnostic[];
  /** Pointers of the signatures removed because the edit broke them (only with allowSignatureInvalidation). */
  removedSignatures: string[];
  /** The bom-ref of the component or service added. */
  bomRef?: string;
  /** How many components an edit over selected components changed. */
  components?: number;
}

/** What an edit changes: the objects it edits (for signatures) and the change itself, made on a copy. */
export interface Plan {
  /** The object edited, or several (an edit of many components). */
  pointer: string | readonly string[];
  apply: (copy: Record<string, unknown>) => void;
  bomRef?: string;
  /** How many components the edit changes, when it is an edit of selected components. */
  components?: number;
}

const key = (d: Diagnostic) => `${d.ruleId}\u0000${d.pointer}\u0000${d.message}`;

/**
 * Plans an edit on the document, makes it on a copy and keeps it when it adds no validation error (the shared
 * path of every authoring edit).
 */
export async function runEdit(
  input: unknown,
  options: EditOptions,
  plan: (document: Record<string, unknown>, format: SpecFormat) => Plan,
): Promise<EditResult> {
  const { document, format } = documentFormat(input);
  const { pointer, apply, bomRef, components } = plan(document, format);
  const stale = [
    ...new Set((typeof pointer === 'string' ? [pointer] : pointer).flatMap((p) => signaturesOnPath(document, p))),
  ];
  if (stale.length > 0 && options.allowSignatureInvalidation !== true) {
    throw new BomwrightError(
      'E_USAGE',
      `The edit would invalidate the signature${stale.length > 1 ? 's' : ''} at ${stale.join(', ')}; allow signature invalidation to remove ${stale.length > 1 ? 'them' : 'it'} (and sign again)`,
    );
  }
  const copy = structuredClone(document);
  // Before the change: a replaced object may bring a signature of its own, which is not stale.
  removeMembers(copy, stale);
  apply(copy);
  const after = await validate(copy, { signatures: 'ignore' });
  const extra = { ...(bomRef === undefined ? {} : { bomRef }), ...(components === undefined ? {} : { components }) };
  if (after.errors === 0)
    return { document: copy, applied: true, diagnostics: after.diagnostics, removedSignatures: stale, ...extra };
  // Only now is the original's state needed: a document that already had errors may keep them.
  const before = await validate(document, { signatures: 'ignore' });
  if (after.errors <= before.errors)
    return { document: copy, applied: true, diagnostics: after.diagnostics, removedSignatures: stale, ...extra };
  const known = new Set(before.diagnostics.map(key));
  const errors = after.diagnostics.filter((d) => d.severity === 'error');
  const introduced = errors.filter((d) => !known.has(key(d)));
  return { document, applied: false, diagnostics: introduced.length > 0 ? introduced : errors, removedSignatures: [] };
}

/** The array member `name` of `holder` (created when missing); E_INPUT when it is something else. */
export function arrayMember(holder: Record<string, unknown>, name: string, where: string): unknown[] {
  const value = holder[name];
  if (value === undefined) {
    const created: unknown[] = [];
    setMember(holder, name, created);
    return created;
  }
  if (!Array.isArray(value)) throw new BomwrightError('E_INPUT', `${where}${name} is not an array`);
  return value;
}

function metadataOf(copy: Record<string, unknown>): Record<string, unknown> {
  if (copy.metadata === undefined) copy.metadata = {};
  if (!isRecord(copy.metadata)) throw new BomwrightError('E_INPUT', 'metadata is not an object');
  return copy.metadata;
}

/**
 * Adds a component at the end of the top-level `components`. A missing bom-ref is generated (the purl, else
 * name@version) and made unique with `-2`, `-3`… against every bom-ref in the document.
 */
export function addComponent(
  document: unknown,
  fields: ComponentFields,
  options: EditOptions = {},
): Promise<EditResult> {
  return runEdit(document, options, (original, format) => {
    const complete = withPurlFields(fields);
    if (options.allowDuplicate !== true) refuseDuplicate(original, complete);
    const component = buildComponent(complete, format, collectBomRefs(original));
    return {
      pointer: '',
      apply: (copy) => void arrayMember(copy, 'components', '').push(component),
      bomRef: component['bom-ref'] as string,
    };
  });
}

/** Where components live: `components` at any depth and metadata.component, not the tools that made the BOM. */
const COMPONENT_AT = /^(?:\/metadata\/component|(?:\/metadata\/component)?(?:\/components\/\d+)+)$/;

/**
 * A second component with the same purl, or without purls the same group, name and version, is almost always a
 * mistake (a re-run script, a copy-paste): refused, naming the one that is there.
 */
function refuseDuplicate(document: Record<string, unknown>, fields: ComponentFields): void {
  // Purls are compared in canonical form: pkg:NPM/left-pad@1.3.0 is pkg:npm/left-pad@1.3.0.
  const same = (record: Record<string, unknown>) =>
    fields.purl !== undefined
      ? typeof record.purl === 'string' && (record.purl === fields.purl || canonicalPurl(record.purl) === fields.purl)
      : record.purl === undefined &&
        fields.version !== undefined &&
        record.name === fields.name &&
        record.version === fields.version &&
        record.group === fields.group;
  let found: { record: Record<string, unknown>; pointer: string } | undefined;
  forEachObject(document, (record, pointer) => {
    if (found !== undefined || !same(record)) return;
    const at = pointer();
    if (COMPONENT_AT.test(at)) found = { record, pointer: at };
  });
  if (found === undefined) return;
  const what =
    fields.purl ?? `${fields.group === undefined ? '' : `${fields.group}/`}${fields.name ?? ''}@${fields.version!}`;
  const ref =
    typeof found.record['bom-ref'] === 'string' ? ` (bom-ref ${JSON.stringify(found.record['bom-ref'])})` : '';
  throw new BomwrightError(
    'E_USAGE',
    `${what} is already in the document at ${found.pointer}${ref}; --allow-duplicate adds another`,
  );
}

/** Adds a service at the end of the top-level `services`; bom-refs are generated as for components. */
export function addService(document: unknown, fields: ServiceFields, options: EditOptions = {}): Promise<EditResult> {
  return runEdit(document, options, (original, format) => {
    const service = buildService(fields, format, collectBomRefs(original));
    return {
      pointer: '',
      apply: (copy) => void arrayMember(copy, 'services', '').push(service),
      bomRef: service['bom-ref'] as string,
    };
  });
}

export interface DependencyFields {
  ref: string;
  dependsOn?: readonly string[];
  /** CycloneDX 1.6+. */
  provides?: readonly string[];
  /** CBOM only: `implements` or `uses`; CBOM keeps one entry per ref and type. */
  dependencyType?: string;
}

function refList(value: readonly string[] | undefined, name: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((r) => typeof r !== 'string' || r === ''))
    throw new BomwrightError('E_USAGE', `${name} must be a list of references`);
  return [...value];
}

/** `existing` followed by the new entries it lacks, in order. */
function union(existing: unknown, added: readonly string[]): unknown[] {
  const list = Array.isArray(existing) ? [...(existing as unknown[])] : [];
  const seen = new Set(list);
  for (const ref of added) {
    if (seen.has(ref)) continue;
    seen.add(ref);
    list.push(ref);
  }
  return list;
}

/**
 * Adds a dependency entry, or merges `dependsOn`/`provides` into the existing entry of the same ref (in CBOM:
 * the same ref and dependencyType). Every reference must resolve, or the edit is refused.
 */
export function addDependency(
  document: unknown,
  fields: DependencyFields,
  options: EditOptions = {},
): Promise<EditResult> {
  return runEdit(document, options, (_original, format) => {
    if (typeof fields.ref !== 'string' || fields.ref === '')
      throw new BomwrightError('E_USAGE', 'A dependency needs the ref of a component or service');
    const dependsOn = refList(fields.dependsOn, 'dependsOn');
    const provides = refList(fields.provides, 'provides');
    const cbom = format.family === 'cbom';
    if (fields.dependencyType !== undefined && !cbom)
      throw new BomwrightError('E_USAGE', 'dependencyType exists only in CBOM documents');
    const type = fields.dependencyType;
    return {
      pointer: '',
      apply: (copy) => {
        const dependencies = arrayMember(copy, 'dependencies', '');
        const entry = dependencies.find(
          (d): d is Record<string, unknown> =>
            isRecord(d) && d.ref === fields.ref && (!cbom || d.dependencyType === type),
        );
        if (entry === undefined) {
          const created: Record<string, unknown> = { ref: fields.ref };
          if (dependsOn !== undefined) created.dependsOn = union(undefined, dependsOn);
          if (provides !== undefined) created.provides = union(undefined, provides);
          if (type !== undefined) created.dependencyType = type;
          dependencies.push(created);
          return;
        }
        if (dependsOn !== undefined) entry.dependsOn = union(entry.dependsOn, dependsOn);
        if (provides !== undefined) entry.provides = union(entry.provides, provides);
      },
    };
  });
}

export interface PropertyFields {
  name: string;
  value: string;
  /** The bom-ref of the element to add it to; without one (and without components), the document's own properties. */
  target?: string;
  /** Component selectors (select.ts): add it to each matching component that lacks this name and value. */
  components?: readonly string[];
}

/**
 * Adds a name/value property to the element with bom-ref `target`, to each selected component, or to the
 * document: the top-level `properties` from 1.5, `metadata.properties` before (1.2 has no properties, so the edit
 * is refused there). A selected component that already has the same name and value is left as it is, so running
 * the same command again changes nothing.
 */
export function addProperty(document: unknown, fields: PropertyFields, options: EditOptions = {}): Promise<EditResult> {
  return runEdit(document, options, (original, format) => {
    if (typeof fields.name !== 'string' || fields.name === '')
      throw new BomwrightError('E_USAGE', 'A property needs a name');
    if (typeof fields.value !== 'string') throw new BomwrightError('E_USAGE', 'A property value must be a string');
    const property = { name: fields.name, value: fields.value };
    if (fields.components !== undefined && fields.components.length > 0) {
      if (fields.target !== undefined)
        throw new BomwrightError('E_USAGE', 'A property goes to a --target or to --component selections, not both');
      const selectors = fields.components.map((text) => parseSelector(text, format));
      const targets = selectComponents(original, selectors)
        .filter(({ record }) => !hasProperty(record, property))
        .map((s) => s.pointer);
      return {
        pointer: targets,
        components: targets.length,
        apply: (copy) => {
          for (const at of targets) arrayMember(resolveRecord(copy, at), 'properties', `${at}/`).push({ ...property });
        },
      };
    }
    let pointer: string | undefined;
    if (fields.target === undefined) {
      pointer = format.rootProperties ? '' : '/metadata';
    } else {
      forEachObject(
        original,
        (record, at) => {
          if (pointer === undefined && record['bom-ref'] === fields.target) pointer = at();
        },
        (k) => k === 'signature',
      );
      if (pointer === undefined)
        throw new BomwrightError('E_USAGE', `No element has bom-ref ${JSON.stringify(fields.target)}`);
    }
    const at = pointer;
    return {
      pointer: at,
      apply: (copy) => {
        const holder = at === '/metadata' ? metadataOf(copy) : resolveRecord(copy, at);
        arrayMember(holder, 'properties', `${at}/`).push(property);
      },
    };
  });
}

function hasProperty(record: Record<string, unknown>, property: { name: string; value: string }): boolean {
  return (
    Array.isArray(record.properties) &&
    record.properties.some((p) => isRecord(p) && p.name === property.name && p.value === property.value)
  );
}

export interface CompositionFields {
  /** complete, incomplete, unknown, … (the version's aggregateType). */
  aggregate: string;
  /**
   * The bom-refs whose dependencies the composition describes; default metadata.component's (a statement about
   * the BOM's own subject).
   */
  dependencies?: readonly string[];
  /** The bom-refs whose constituent parts it describes. */
  assemblies?: readonly string[];
}

/**
 * States how complete the BOM is: a `compositions` entry with an aggregate for the given refs (default: the
 * primary component's dependencies). Refs are added to an unsigned entry of the same aggregate that lists
 * no assemblies or vulnerabilities, so stating it again changes nothing.
 */
export function addComposition(
  document: unknown,
  fields: CompositionFields,
  options: EditOptions = {},
): Promise<EditResult> {
  return runEdit(document, options, (original, format) => {
    const aggregates = schemaPlace(format, ['compositions', '0', 'aggregate'])?.enum ?? [];
    if (aggregates.length > 0 && !aggregates.includes(fields.aggregate))
      throw new BomwrightError(
        'E_USAGE',
        `${JSON.stringify(fields.aggregate)} is not an aggregate of CycloneDX ${format.specVersion}${didYouMean(nearestNames(fields.aggregate, aggregates))}; one of: ${aggregates.join(', ')}`,
      );
    const assemblies = refList(fields.assemblies, 'assemblies');
    let dependencies = refList(fields.dependencies, 'dependencies');
    if (dependencies === undefined && assemblies === undefined) {
      const metadata = original.metadata;
      const primary = isRecord(metadata) && isRecord(metadata.component) ? metadata.component['bom-ref'] : undefined;
      if (typeof primary !== 'string' || primary === '')
        throw new BomwrightError(
          'E_USAGE',
          'A composition without --ref is about metadata.component, which has no bom-ref: give one (bomwright set FILE /metadata/component/bom-ref REF) or name the refs',
        );
      dependencies = [primary];
    }
    return {
      pointer: '',
      apply: (copy) => {
        const list = arrayMember(copy, 'compositions', '');
        const same = list.find(
          (c): c is Record<string, unknown> =>
            isRecord(c) &&
            c.aggregate === fields.aggregate &&
            c.signature === undefined &&
            c.vulnerabilities === undefined &&
            (assemblies === undefined || c.dependencies === undefined) &&
            (dependencies === undefined || c.assemblies === undefined),
        );
        if (same === undefined) {
          list.push({
            aggregate: fields.aggregate,
            ...(assemblies === undefined ? {} : { assemblies }),
            ...(dependencies === undefined ? {} : { dependencies }),
          });
          return;
        }
        if (assemblies !== undefined) same.assemblies = union(same.assemblies, assemblies);
        if (dependencies !== undefined) same.dependencies = union(same.dependencies, dependencies);
      },
    };
  });
}

function resolveRecord(copy: Record<string, unknown>, pointer: string): Record<string, unknown> {
  const node = resolvePointer(copy, pointer);
  if (!isRecord(node)) throw new BomwrightError('E_INTERNAL', `${pointer} is not an object`);
  return node;
}

/** The metadata members {@link setMetadata} may set. */
export const METADATA_FIELDS = [
  'supplier',
  'manufacture',
  'authors',
  'licenses',
  'component',
  'timestamp',
  'properties',
] as const;

export type MetadataField = (typeof METADATA_FIELDS)[number];

/**
 * Sets (or, with `undefined`, removes) one metadata member. Values are JSON values, with two shorthands: a list
 * of strings for `licenses` (licence ids, expressions or names) and for `authors` (names); a Date for
 * `timestamp`. Replacing a signed metadata.component counts as editing it.
 */
export function setMetadata(
  document: unknown,
  field: MetadataField,
  value: unknown,
  options: EditOptions = {},
): Promise<EditResult> {
  return runEdit(document, options, (_original, format) => {
    if (!(METADATA_FIELDS as readonly string[]).includes(field))
      throw new BomwrightError(
        'E_USAGE',
        `Unknown metadata field ${JSON.stringify(field)}; one of: ${METADATA_FIELDS.join(', ')}`,
      );
    let json: unknown = value;
    if (field === 'timestamp' && value instanceof Date) json = isoSeconds(value);
    else if (field === 'licenses') json = licensesValue(value, format);
    else if (field === 'authors' && Array.isArray(value) && value.every((v) => typeof v === 'string'))
      json = value.map((name: string) => ({ name }));
    const copied = json === undefined ? undefined : structuredClone(json);
    return {
      pointer: field === 'component' ? '/metadata/component' : '/metadata',
      apply: (copy) => {
        const metadata = metadataOf(copy);
        if (copied === undefined) delete metadata[field];
        else setMember(metadata, field, copied);
      },
    };
  });
}
