/**
 * Merging BOMs into one valid BOM (`bomwright merge`; not `merge-reports`, which joins validation reports).
 *
 * Flat: components (nested ones included), services and vulnerabilities are identified across and within inputs
 * (merge-identity.ts), each identity appears once with its entries combined member by member (merge-combine.ts),
 * and conflicts are reported. Hierarchical: each input becomes one component holding its components; nothing is
 * combined across inputs. Either way every bom-ref is made unique (kept when free, else `-2`, `-3`…) and every
 * reference is rewritten through a per-input map (merge-refs.ts), the dependency graph keeps every edge, and the
 * new root depends on each input's root. Pure: the caller reads and writes files.
 */
import { BomwrightError } from '../errors.js';
import { findFormatBySpecVersion, supportedVersionsText, type SpecFormat } from '../formats/formats.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { contentChanged } from '../compare/content.js';
import { validate } from '../validate/index.js';
import { baseBomRef } from './bom-ref.js';
import { convertVersion, type ConvertedValue, type DroppedMember } from './convert.js';
import { documentFormat, isoSeconds } from './document.js';
import { buildComponent, type ComponentFields } from './elements.js';
import {
  combineInto,
  withoutDuplicates,
  type CombineContext,
  type MemberPolicy,
  type MergeConflict,
} from './merge-combine.js';
import {
  componentIdentity,
  PurlIndex,
  elementLabel,
  serviceIdentity,
  toolIdentity,
  vulnerabilityIdentity,
} from './merge-identity.js';
import { prepareCopy, REFERENCE_MEMBERS, renameSlots, rewriteReferences, type PreparedCopy } from './merge-refs.js';
import { inputSignatures, type InputSignature } from './merge-signatures.js';
import { newSerialNumber, type RandomBytes } from './serial-number.js';
import type { TrustStore } from '../jsf/trust.js';
import { isRecord, setMember } from '../values.js';

export type { DifferencePolicy, MemberPolicy, MergeConflict } from './merge-combine.js';
export type { InputSignature, InputSignatureStatus } from './merge-signatures.js';
export type { ConvertedValue, DroppedMember } from './convert.js';

export interface BomMergeInput {
  /** The parsed document. */
  document: unknown;
  /** How the input is named in messages, and (hierarchical, no metadata.component) the name of its component. */
  name: string;
  /**
   * CycloneDX XML read into `document`: its text, whose XML signatures (not part of the model) are verified as the
   * JSON signatures of a JSON input are.
   */
  xml?: string;
}

export interface BomMergeOptions {
  /** Each input becomes one component holding its components, instead of one flat list. */
  hierarchical?: boolean;
  /**
   * The component the merged BOM describes. It depends on each input's root. Without it, the inputs' roots must
   * be one and the same thing (then that is the root), or there must be none; hierarchical merges need it.
   */
  root?: Partial<ComponentFields> & { name: string };
  /**
   * The output's spec version; required when the inputs' versions differ. An input of another version is converted
   * to it first (convertVersion): what it lacks is dropped, what it carries otherwise converted, and both reported.
   */
  specVersion?: string;
  /**
   * The previous release of this merged BOM: its serialNumber is kept and the version rule followed (the same
   * version and timestamp when nothing changed, else the next version). Without it the result is a new BOM.
   */
  baseline?: unknown;
  /** bomwright's own version, listed in metadata.tools. */
  toolVersion: string;
  /** metadata.timestamp (default now). */
  now?: Date;
  /** Random bytes for the serial number (default crypto.randomUUID). */
  random?: RandomBytes;
  /**
   * The inputs are the caller's to give away (freshly parsed, used for nothing else): they are changed in place
   * instead of copied, which saves a copy of every input. Default false: the inputs are never modified.
   */
  consumeInputs?: boolean;
  /**
   * Per member, whether a difference between two entries of one thing is a conflict (`fail`) or keeps the earlier
   * value (`first`, reported in `differences`). Default: free text (description, comment, detail, recommendation,
   * workaround, notes, text) `first`, everything else `fail`; `hashes` are a set unless given `fail`.
   */
  onDifference?: MemberPolicy;
  /** Keys that make an input's valid signature trusted (as for verify); without it every valid one is untrusted. */
  trust?: TrustStore;
  /** JSF `excludes` names accepted in the inputs' signatures, as for verify. */
  allowExcludes?: readonly string[];
  /**
   * How components with purls are matched: `purl` (default) by the canonical purl; `coordinates` by type, namespace,
   * name and version alone (qualifiers and type spellings such as pkg:alpine vs pkg:apk/alpine ignored), combining
   * what `purl` only reports as probable duplicates.
   */
  match?: 'purl' | 'coordinates';
  /**
   * Provenance (default true): each input's BOM-Link in externalReferences (type bom), and on each component the
   * property `bomwright:merge:inputs` with the BOM-Links of the inputs it came from. BOM-Links into a merged input
   * become local refs either way.
   */
  provenance?: boolean;
}

export interface RenamedRef {
  input: string;
  from: string;
  to: string;
}

export interface BomMergeSummary {
  inputs: { name: string; specVersion: string; components: number; services: number; vulnerabilities: number }[];
  componentsIn: number;
  componentsOut: number;
  servicesIn: number;
  servicesOut: number;
  vulnerabilitiesIn: number;
  vulnerabilitiesOut: number;
  /** The merged BOM's root (metadata.component) bom-ref, or null when it has none. */
  root: string | null;
  /** Whether the root is new (named with `root`), not one of the inputs' components; it is not in componentsOut. */
  rootAdded: boolean;
  /** Entries combined into an earlier entry of the same identity (components, services, vulnerabilities). */
  duplicatesCombined: number;
  renamed: RenamedRef[];
  conflicts: MergeConflict[];
  /**
   * Components kept apart whose purls name one package in other words (qualifiers, type spelling): each group's
   * purls. Combine them with `match: 'coordinates'`.
   */
  probableDuplicates: string[][];
  /** Inputs that share one serial number and version (the same BOM given twice?): each group's names. */
  sameDocument: string[][];
  /** Differences that do not block (free text, or members the caller chose `first` for): the earlier value kept. */
  differences: MergeConflict[];
  /** Members dropped: `input#pointer` (where in that input), and why. */
  dropped: DroppedMember[];
  /** Values converted to the output's version, `input#pointer` (where in that input). */
  converted: ConvertedValue[];
  /**
   * Signatures of the inputs, verified and then removed: they cannot survive a merge (the merged document is a new
   * one). The caller decides what an invalid or untrusted one means (the CLI refuses invalid ones).
   */
  removedSignatures: InputSignature[];
}

export interface BomMergeResult {
  document: Record<string, unknown>;
  summary: BomMergeSummary;
  /** Validation of the merged document (signatures ignored: it has none yet). */
  diagnostics: Diagnostic[];
  valid: boolean;
}

type Kind = 'component' | 'service' | 'vulnerability' | 'tool';

interface Occurrence {
  input: number;
  object: Record<string, unknown>;
  parent: Occurrence | undefined;
  entity: Entity;
}

interface Entity {
  kind: Kind;
  occurrences: Occurrence[];
  ref?: string;
  /** The entity its first occurrence is nested in. */
  parent?: Entity;
  children: Entity[];
  merged?: Record<string, unknown>;
}

interface Input {
  name: string;
  format: SpecFormat;
  copy: Record<string, unknown>;
  /** Its bom-refs and references, found while copying. */
  prepared: PreparedCopy;
  /** Old bom-ref → new one. */
  refs: Map<string, string>;
  root?: Occurrence;
  /** Top-level component occurrences (after hierarchical wrapping: the wrapper's children). */
  topComponents: Occurrence[];
  /** Hierarchical: its root is a wrapper made here (the input had no metadata.component), which has no edges yet. */
  wrapped?: boolean;
  /** Its BOM-Link (`urn:cdx:<serial uuid>/<version>`), when it has a serial number. */
  link?: string;
}

/** The property that lists, on each component, the BOM-Links of the inputs it came from (space-separated). */
export const SOURCE_PROPERTY = 'bomwright:merge:inputs';

/** A document's BOM-Link, from its serial number and version. */
function bomLinkOf(document: Record<string, unknown>): string | undefined {
  const serial = document.serialNumber;
  const uuid =
    typeof serial === 'string' ? /^urn:uuid:([0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12})$/i.exec(serial) : null;
  if (uuid === null) return undefined;
  const version = typeof document.version === 'number' ? document.version : 1;
  return `urn:cdx:${uuid[1]!.toLowerCase()}/${version}`;
}

const ROOT_INPUT = -1;

const arrayOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const records = (value: unknown): Record<string, unknown>[] => arrayOf(value).filter(isRecord);

/** The output format: the inputs' common version, or the one asked for. */
function outputFormat(
  inputs: readonly { name: string; format: SpecFormat }[],
  specVersion: string | undefined,
): SpecFormat {
  if (specVersion !== undefined) {
    const format = findFormatBySpecVersion(specVersion);
    if (format === undefined)
      throw new BomwrightError(
        'E_USAGE',
        `Unsupported spec version ${JSON.stringify(specVersion)}; supported: ${supportedVersionsText()}`,
      );
    const family = inputs.find((i) => i.format.family !== format.family);
    if (family !== undefined)
      throw new BomwrightError(
        'E_USAGE',
        `${family.name} is ${family.format.family === 'cbom' ? 'a CBOM' : 'a CycloneDX'} document; it cannot be merged into ${format.family === 'cbom' ? 'CBOM' : 'CycloneDX'} ${format.specVersion}`,
      );
    return format;
  }
  const versions = [...new Set(inputs.map((i) => i.format.specVersion))];
  if (versions.length > 1)
    throw new BomwrightError(
      'E_USAGE',
      `The inputs have different spec versions (${inputs.map((i) => `${i.name}: ${i.format.specVersion}`).join(', ')}); choose the output's with --spec-version (members it lacks are reported)`,
    );
  return inputs[0]!.format;
}

/** A component from simple fields, without a bom-ref (refs are given out with everyone else's). */
function rootComponent(fields: Partial<ComponentFields> & { name: string }, format: SpecFormat) {
  const component = buildComponent({ type: 'application', ...fields }, format, new Set());
  if (fields['bom-ref'] === undefined) delete component['bom-ref'];
  return component;
}

function fileStem(name: string): string {
  const base = name.replace(/^.*[\\/]/, '');
  return base.replace(/\.(cdx\.)?json$/i, '').replace(/\.bom$/i, '') || base || 'input';
}

/**
 * Inputs' metadata members that describe the component the input describes move onto it. Before 1.6 a component has
 * no manufacturer: the 1.2–1.5 `metadata.manufacture` then stays in metadata when that component is the merged
 * BOM's root too (no named root), and is dropped and reported otherwise.
 */
function placeRootDetails(input: Input, format: SpecFormat, named: boolean, dropped: DroppedMember[]): void {
  const metadata = isRecord(input.copy.metadata) ? input.copy.metadata : undefined;
  if (metadata === undefined) return;
  const component = isRecord(metadata.component) ? metadata.component : undefined;
  const componentManufacturer = format.componentAuthors;
  const moves: [string, string][] = [
    ['supplier', 'supplier'],
    ['manufacturer', 'manufacturer'],
    ['manufacture', 'manufacturer'],
  ];
  for (const [from, to] of moves) {
    if (metadata[from] === undefined) continue;
    if (from === 'manufacture' && !componentManufacturer && !named && component !== undefined) continue;
    if (component === undefined || (from === 'manufacture' && !componentManufacturer))
      dropped.push({
        pointer: `${input.name}#/metadata/${from}`,
        reason:
          component === undefined
            ? 'it describes the input as a whole, which has no metadata.component to carry it'
            : `it describes ${elementLabel(component)}, and a CycloneDX ${format.specVersion} component has no manufacturer`,
      });
    else if (component[to] === undefined) setMember(component, to, metadata[from]);
    delete metadata[from];
  }
}

/** Legacy tools (1.2–1.4 list) and 1.5+ tool components/services, as objects of the output's form. */
function toolsOf(metadata: Record<string, unknown>, format: SpecFormat): Record<string, unknown>[] {
  const tools = metadata.tools;
  const legacy = Array.isArray(tools) ? records(tools) : [];
  const components = isRecord(tools) ? records(tools.components) : [];
  const services = isRecord(tools) ? records(tools.services) : [];
  if (format.toolsAsComponents) {
    const fromLegacy = legacy.map((tool) => {
      const out: Record<string, unknown> = { type: 'application' };
      // A legacy tool's vendor is the group of the component it becomes.
      if (typeof tool.vendor === 'string') out.group = tool.vendor;
      for (const key of ['name', 'version', 'hashes', 'externalReferences'])
        if (tool[key] !== undefined) out[key] = tool[key];
      return out;
    });
    return [...fromLegacy, ...components, ...services.map((s) => ({ ...s, [SERVICE_TOOL]: true }))];
  }
  const toLegacy = (element: Record<string, unknown>, vendor: unknown) => {
    const out: Record<string, unknown> = {};
    const vendorName = typeof vendor === 'string' ? vendor : isRecord(vendor) ? vendor.name : undefined;
    if (typeof vendorName === 'string') out.vendor = vendorName;
    for (const key of ['name', 'version', 'hashes', 'externalReferences'])
      if (element[key] !== undefined) out[key] = element[key];
    return out;
  };
  return [
    ...legacy,
    ...components.map((c) => toLegacy(c, c.group ?? c.supplier ?? c.manufacturer)),
    ...services.map((s) => toLegacy(s, s.group ?? s.provider)),
  ];
}

/** `element` with its bom-ref set; a new one goes where the schema puts it (after a component's type, else first). */
function withBomRef(element: Record<string, unknown>, ref: string): Record<string, unknown> {
  if (Object.hasOwn(element, 'bom-ref')) {
    element['bom-ref'] = ref;
    return element;
  }
  const out: Record<string, unknown> = {};
  if (element.type !== undefined) out.type = element.type;
  out['bom-ref'] = ref;
  for (const key of Object.keys(element)) if (key !== 'type') setMember(out, key, element[key]);
  return out;
}

/** Marks a 1.5+ tool that is a service, until the tools are laid out. */
const SERVICE_TOOL = '\u0000service';

class Merger {
  readonly inputs: Input[] = [];
  readonly entities: Entity[] = [];
  readonly toolEntities: Entity[] = [];
  readonly canonical: (purl: string) => string | undefined;
  /** Every component purl of the merge, added before any component is identified (see PurlIndex). */
  readonly purls = new PurlIndex();
  readonly coordinates = (purl: string): string | undefined => this.purls.coordinates(purl);
  readonly byKey = new Map<string, Entity>();
  readonly occurrenceOf = new Map<object, Occurrence>();
  readonly conflicts: MergeConflict[] = [];
  readonly differences: MergeConflict[] = [];
  readonly aliases = new Map<string, string>();
  readonly renamed: RenamedRef[] = [];
  readonly dropped: DroppedMember[] = [];
  readonly converted: ConvertedValue[] = [];
  readonly removedSignatures: InputSignature[] = [];
  /** Every bom-ref of every input, and every one given out: new names avoid them all. */
  /** true: given out; false: an input's name not (yet) given out, which new names avoid all the same. */
  readonly names = new Map<string, boolean>();
  duplicatesCombined = 0;
  format!: SpecFormat;
  rootEntity: Entity | undefined;

  readonly policy: MemberPolicy;

  constructor(readonly options: BomMergeOptions) {
    const byCoordinates = options.match === 'coordinates';
    this.canonical = byCoordinates ? this.coordinates : (purl) => this.purls.canonical(purl);
    // Matched by coordinates, the purls of one entity differ by design: the first is kept, the others noted.
    this.policy = { ...(byCoordinates ? { purl: 'first' as const } : {}), ...options.onDifference };
  }

  /** Inputs with one BOM-Link: one document given twice, or two that claim one serial number. */
  private sameDocument(): string[][] {
    const byLink = new Map<string, string[]>();
    for (const input of this.inputs)
      if (input.link !== undefined) byLink.set(input.link, [...(byLink.get(input.link) ?? []), input.name]);
    return [...byLink.values()].filter((names) => names.length > 1);
  }

  /** A BOM-Link to an element of a merged input, as the local ref that element now has. */
  private localRef(ref: string): string | undefined {
    const match = /^(urn:cdx:[^#]+)#(.+)$/.exec(ref);
    if (match === null) return undefined;
    const target = this.inputs.find((input) => input.link === match[1]);
    if (target === undefined) return undefined;
    try {
      return target.refs.get(decodeURIComponent(match[2]!));
    } catch {
      return undefined;
    }
  }

  /** Component entities (flat merges) whose purls have the same coordinates, when matching by canonical purl. */
  private probableDuplicates(): string[][] {
    if (this.options.match === 'coordinates' || this.options.hierarchical === true) return [];
    // Coordinates → the first entity met with them; a group is made only when a second entity has them (rare).
    const first = new Map<string, { entity: Entity; purls: Set<string> }>();
    const groups = new Map<string, { entities: Set<Entity>; purls: Set<string> }>();
    for (const entity of this.entities) {
      if (entity.kind !== 'component') continue;
      for (const occurrence of entity.occurrences) {
        const purl = occurrence.object.purl;
        // A purl alone with its name has no probable duplicate: most purls of most merges are skipped unparsed.
        if (typeof purl !== 'string' || purl === '' || !this.purls.shared(purl)) continue;
        const key = this.coordinates(purl);
        if (key === undefined) continue;
        const group = groups.get(key);
        if (group !== undefined) {
          group.entities.add(entity);
          group.purls.add(purl);
          continue;
        }
        const seen = first.get(key);
        if (seen === undefined) first.set(key, { entity, purls: new Set([purl]) });
        else if (seen.entity === entity) seen.purls.add(purl);
        else groups.set(key, { entities: new Set([seen.entity, entity]), purls: seen.purls.add(purl) });
      }
    }
    return [...groups.values()].map(({ purls }) => [...purls]);
  }

  run(sources: readonly BomMergeInput[]): Record<string, unknown> {
    if (sources.length === 0) throw new BomwrightError('E_USAGE', 'Name the BOMs to merge');
    const read = sources.map((source) => ({
      name: source.name,
      ...documentFormat(source.document),
      ...(source.xml === undefined ? {} : { xml: source.xml }),
    }));
    this.format = outputFormat(read, this.options.specVersion);
    for (const source of read) this.read(source);
    const root = this.options.root;
    if (this.options.hierarchical === true && root === undefined)
      throw new BomwrightError(
        'E_USAGE',
        'A hierarchical merge needs the merged product: give --name (and --version), or --from package.json',
      );
    const named = root === undefined ? undefined : rootComponent(root, this.format);
    this.addPurls(named);
    for (const input of this.inputs) {
      this.addPurls(isRecord(input.copy.metadata) ? input.copy.metadata.component : undefined);
      for (const component of arrayOf(input.copy.components)) this.addPurls(component);
    }
    if (named !== undefined) this.rootEntity = this.identify(named, ROOT_INPUT, undefined, 'component');
    this.inputs.forEach((input, i) => this.collect(input, i));
    if (this.rootEntity === undefined) this.rootEntity = this.commonRoot();
    for (const input of this.inputs) this.giveOutRefs(input);
    this.ensureRefs();
    for (const input of this.inputs)
      renameSlots(input.prepared.slots, (ref) => input.refs.get(ref) ?? this.localRef(ref));
    for (const entity of this.entities) this.combine(entity);
    const document = this.assemble();
    if (this.aliases.size > 0) rewriteReferences(document, (ref) => this.aliases.get(ref));
    return document;
  }

  /** The purls of a component and of the components nested in it. */
  private addPurls(component: unknown): void {
    if (!isRecord(component)) return;
    if (typeof component.purl === 'string' && component.purl !== '') this.purls.add(component.purl);
    for (const child of arrayOf(component.components)) this.addPurls(child);
  }

  /** An input: its signatures verified, then converted to the output's version when it is of another. */
  private read(source: { name: string; document: Record<string, unknown>; format: SpecFormat; xml?: string }): void {
    // Verified before the conversion or the copy drops them (in place, when the inputs are consumed).
    const signatures = inputSignatures(source.document, source.name, this.options, source.xml);
    let { document, format } = source;
    if (format.specVersion !== this.format.specVersion) {
      const conversion = convertVersion(document, this.format.specVersion, { keepSignatures: true });
      const at = (pointer: string) => `${source.name}#${pointer}`;
      for (const d of conversion.dropped) this.dropped.push({ ...d, pointer: at(d.pointer) });
      for (const c of conversion.converted)
        this.converted.push({
          ...c,
          pointer: at(c.pointer),
          ...(c.movedTo === undefined ? {} : { movedTo: c.movedTo }),
        });
      document = conversion.document;
      format = this.format;
    }
    const prepared = prepareCopy(document, this.options.consumeInputs === true);
    const copy = prepared.copy;
    // One report per signer (`/signature/signers/1`); a member the verifier could not read as one is invalid.
    this.removedSignatures.push(...signatures);
    for (const pointer of prepared.removedSignatures)
      if (!signatures.some((s) => s.pointer === pointer || s.pointer.startsWith(`${pointer}/`)))
        this.removedSignatures.push({ input: source.name, pointer, status: 'invalid', reason: 'not a signature' });
    this.dropUnsignedSignatories(copy, prepared.removedSignatures, source.name);
    const link = bomLinkOf(copy);
    this.inputs.push({
      name: source.name,
      format,
      copy,
      prepared,
      refs: new Map(),
      topComponents: [],
      ...(link === undefined ? {} : { link }),
    });
  }

  /**
   * A signatory of an affirmation is one who signed (`signature`) or an organization with a reference to where it
   * affirmed (`organization` and `externalReference`). Its signature gone, one of the first kind is no signatory:
   * dropped, and reported.
   */
  private dropUnsignedSignatories(copy: Record<string, unknown>, removed: readonly string[], input: string): void {
    const declarations = isRecord(copy.declarations) ? copy.declarations : undefined;
    const affirmation = isRecord(declarations?.affirmation) ? declarations.affirmation : undefined;
    if (affirmation === undefined || !Array.isArray(affirmation.signatories)) return;
    const signatories: unknown[] = affirmation.signatories;
    const kept: unknown[] = [];
    for (const [i, signatory] of signatories.entries()) {
      const pointer = `/declarations/affirmation/signatories/${i}`;
      const unsigned = isRecord(signatory) && removed.includes(`${pointer}/signature`);
      if (unsigned && (signatory.organization === undefined || signatory.externalReference === undefined))
        this.dropped.push({
          pointer: `${input}#${pointer}`,
          reason: `its signature cannot survive a merge, and a signatory without one needs organization and externalReference${typeof signatory.name === 'string' ? ` (${signatory.name})` : ''}`,
        });
      else kept.push(signatory);
    }
    affirmation.signatories = kept;
  }

  /** The entity of `object` (a new one when its identity is new, or in a hierarchical merge across inputs). */
  private identify(object: Record<string, unknown>, input: number, parent: Occurrence | undefined, kind: Kind): Entity {
    const identity =
      kind === 'component'
        ? componentIdentity(object, this.canonical)
        : kind === 'service'
          ? serviceIdentity(object)
          : kind === 'vulnerability'
            ? vulnerabilityIdentity(object)
            : toolIdentity(object);
    // Hierarchical: each input keeps its own tree; only vulnerabilities and tools are one list for all.
    const scoped = this.options.hierarchical === true && (kind === 'component' || kind === 'service');
    const key = identity === undefined ? undefined : `${kind}\u0000${scoped ? `${input}\u0000` : ''}${identity}`;
    let entity = key === undefined ? undefined : this.byKey.get(key);
    if (entity === undefined) {
      entity = { kind, occurrences: [], children: [] };
      this.entities.push(entity);
      if (kind === 'tool') this.toolEntities.push(entity);
      if (key !== undefined) this.byKey.set(key, entity);
      if (parent !== undefined) {
        entity.parent = parent.entity;
        parent.entity.children.push(entity);
      }
    } else if (entity.occurrences.length > 0 && kind !== 'tool') this.duplicatesCombined++;
    const occurrence: Occurrence = { input, object, parent, entity };
    entity.occurrences.push(occurrence);
    this.occurrenceOf.set(object, occurrence);
    return entity;
  }

  private tree(
    list: unknown,
    input: number,
    parent: Occurrence | undefined,
    kind: 'component' | 'service',
  ): Occurrence[] {
    const member = kind === 'component' ? 'components' : 'services';
    return records(list).map((object) => {
      this.identify(object, input, parent, kind);
      const occurrence = this.occurrenceOf.get(object)!;
      this.tree(object[member], input, occurrence, kind);
      return occurrence;
    });
  }

  private collect(input: Input, i: number): void {
    placeRootDetails(input, this.format, this.options.root !== undefined, this.dropped);
    const copy = input.copy;
    const metadata = isRecord(copy.metadata) ? copy.metadata : {};
    let root = isRecord(metadata.component) ? metadata.component : undefined;
    if (this.options.hierarchical === true) {
      // The input becomes one component: its root, or one named after the file; its components go inside.
      if (root === undefined) input.wrapped = true;
      root ??= {
        type: 'application',
        name: fileStem(input.name),
        ...(this.format.componentVersionRequired ? { version: '' } : {}),
      };
      const inside = [...records(root.components), ...records(copy.components)];
      if (inside.length > 0) root.components = inside;
      delete copy.components;
    }
    if (root !== undefined) {
      this.identify(root, i, undefined, 'component');
      input.root = this.occurrenceOf.get(root);
      const nested = this.tree(root.components, i, input.root, 'component');
      if (this.options.hierarchical === true) input.topComponents = nested;
    }
    const top = this.tree(copy.components, i, undefined, 'component');
    if (this.options.hierarchical !== true) input.topComponents = top;
    this.tree(copy.services, i, undefined, 'service');
    for (const vulnerability of records(copy.vulnerabilities))
      this.identify(vulnerability, i, undefined, 'vulnerability');
    for (const tool of toolsOf(metadata, this.format)) this.identify(tool, i, undefined, 'tool');
  }

  /** Without a named root: the inputs' one shared root, or none when no input has one. */
  private commonRoot(): Entity | undefined {
    const roots = [...new Set(this.inputs.flatMap((input) => (input.root ? [input.root.entity] : [])))];
    if (roots.length <= 1) return roots[0];
    const names = this.inputs.flatMap((input) =>
      input.root ? [`${input.name}: ${elementLabel(input.root.object)}`] : [],
    );
    throw new BomwrightError(
      'E_USAGE',
      `The inputs describe different things (${names.join(', ')}); name the merged product with --name and --version, or --from package.json`,
    );
  }

  private claim(ref: string): string {
    if (this.names.get(ref) !== true) {
      this.names.set(ref, true);
      return ref;
    }
    return this.fresh(ref);
  }

  /** `base-2`, `base-3`…, the first that no input uses and nobody was given. */
  private fresh(base: string): string {
    let name = base;
    for (let n = 2; this.names.has(name); n++) name = `${base}-${n}`;
    this.names.set(name, true);
    return name;
  }

  /** Old bom-ref → new, in document order: the first owner of a name keeps it, later ones get `-2`, `-3`… */
  private giveOutRefs(input: Input): void {
    const owners = input.prepared.owners;
    for (const { ref } of owners) if (!this.names.has(ref)) this.names.set(ref, false);
    for (const { record, ref } of owners) {
      // A valid input names each element once; a second owner of one name keeps the first one's mapping.
      if (input.refs.has(ref)) continue;
      const entity = this.occurrenceOf.get(record)?.entity;
      const to = entity === undefined ? this.claim(ref) : (entity.ref ??= this.claim(ref));
      input.refs.set(ref, to);
      // Entries of one identity share one name: taking another entry's own name is no rename.
      if (to !== ref && (entity === undefined || !entity.occurrences.some((o) => o.object['bom-ref'] === to)))
        this.renamed.push({ input: input.name, from: ref, to });
    }
    this.reserveTools(input);
  }

  /** 1.5+ tools are copies made by toolsOf; their bom-refs are given out here. */
  private reserveTools(input: Input): void {
    const i = this.inputs.indexOf(input);
    for (const entity of this.toolEntities) {
      for (const occurrence of entity.occurrences) {
        if (occurrence.input !== i) continue;
        const ref = occurrence.object['bom-ref'];
        if (typeof ref !== 'string') continue;
        entity.ref ??= input.refs.get(ref) ?? this.claim(ref);
        if (!input.refs.has(ref)) input.refs.set(ref, entity.ref);
      }
    }
  }

  /** The roots must be referable: the new root's dependencies name them. */
  private ensureRefs(): void {
    const needed = new Set<Entity>();
    if (this.rootEntity !== undefined) needed.add(this.rootEntity);
    for (const input of this.inputs) if (input.root) needed.add(input.root.entity);
    for (const entity of needed) {
      if (entity.ref !== undefined) continue;
      const first = entity.occurrences[0]!.object;
      const base = baseBomRef({
        name: typeof first.name === 'string' ? first.name : 'component',
        ...(typeof first.purl === 'string' ? { purl: first.purl } : {}),
        ...(typeof first.version === 'string' ? { version: first.version } : {}),
      });
      entity.ref = this.names.has(base) ? this.fresh(base) : this.claim(base);
    }
  }

  private combine(entity: Entity): void {
    const [first, ...rest] = entity.occurrences;
    const merged: Record<string, unknown> = {};
    const ctx: CombineContext = {
      strict: entity.kind !== 'tool',
      element: elementLabel(first!.object),
      input: '',
      conflicts: this.conflicts,
      differences: this.differences,
      policy: this.policy,
      aliases: this.aliases,
    };
    for (const key of Object.keys(first!.object))
      if (key !== 'components' && key !== 'services') setMember(merged, key, first!.object[key]);
    for (const occurrence of rest) {
      ctx.input = occurrence.input === ROOT_INPUT ? 'the named root' : this.inputs[occurrence.input]!.name;
      combineInto(merged, occurrence.object, '', ctx);
    }
    entity.merged = entity.ref === undefined ? merged : withBomRef(merged, entity.ref);
  }

  /** An entity's merged object with its children placed inside. */
  private build(entity: Entity): Record<string, unknown> {
    const merged = entity.merged!;
    if (entity.kind === 'component') this.recordSources(entity, merged);
    const member = entity.kind === 'service' ? 'services' : 'components';
    // The merged BOM's root sits in metadata, even where an input had it nested.
    const children = entity.children.filter((child) => child !== this.rootEntity);
    if (children.length > 0)
      setMember(
        merged,
        member,
        children.map((child) => this.build(child)),
      );
    return merged;
  }

  /** The BOM-Links of the inputs a component came from, in one property (1.3+ components have properties). */
  private recordSources(entity: Entity, merged: Record<string, unknown>): void {
    if (this.format.specVersion === '1.2' || this.options.provenance === false) return;
    const links = [
      ...new Set(
        entity.occurrences.flatMap((o) => (o.input === ROOT_INPUT ? [] : [this.inputs[o.input]!.link ?? []]).flat()),
      ),
    ];
    if (links.length === 0) return;
    const properties = Array.isArray(merged.properties)
      ? merged.properties.filter((p) => !(isRecord(p) && p.name === SOURCE_PROPERTY))
      : [];
    properties.push({ name: SOURCE_PROPERTY, value: links.join(' ') });
    setMember(merged, 'properties', properties);
  }

  private topLevel(kind: 'component' | 'service'): Record<string, unknown>[] {
    return this.entities
      .filter((e) => e.kind === kind && e.parent === undefined && e !== this.rootEntity)
      .map((e) => this.build(e));
  }

  /** The dependency graph: one entry per ref (and CBOM dependencyType) with every input's edges. */
  private dependencies(): Record<string, unknown>[] | undefined {
    type Entry = { entry: Record<string, unknown>; dependsOn: Set<string>; provides: Set<string>; known: boolean };
    const entries = new Map<string, Entry>();
    let any = false;
    const entryOf = (ref: string, type: unknown) => {
      // CBOM keeps one entry per ref and dependencyType; CycloneDX has no type.
      const key = typeof type === 'string' ? `${ref}\u0000${type}` : ref;
      let found = entries.get(key);
      if (found === undefined) {
        const entry: Record<string, unknown> = { ref };
        if (typeof type === 'string') entry.dependencyType = type;
        found = { entry, dependsOn: new Set(), provides: new Set(), known: false };
        entries.set(key, found);
      }
      return found;
    };
    const add = (set: Set<string>, refs: unknown, self: string) => {
      for (const ref of arrayOf(refs)) if (typeof ref === 'string' && ref !== self) set.add(ref);
    };
    for (const input of this.inputs) {
      if (Array.isArray(input.copy.dependencies)) any = true;
      for (const dependency of records(input.copy.dependencies)) {
        if (typeof dependency.ref !== 'string') continue;
        const found = entryOf(dependency.ref, dependency.dependencyType);
        // An entry without dependsOn leaves them unknown; one with an empty list says there are none.
        if (dependency.dependsOn !== undefined) found.known = true;
        add(found.dependsOn, dependency.dependsOn, dependency.ref);
        add(found.provides, dependency.provides, dependency.ref);
        for (const key of Object.keys(dependency))
          if (!['ref', 'dependsOn', 'provides', 'dependencyType'].includes(key) && found.entry[key] === undefined)
            setMember(found.entry, key, dependency[key]);
      }
    }
    // A wrapper made for a rootless input depends on what that input's graph starts from.
    for (const input of this.inputs) {
      const ref = input.wrapped === true ? input.root?.entity.ref : undefined;
      if (ref === undefined) continue;
      any = true;
      const found = entryOf(ref, undefined);
      found.known = true;
      for (const target of this.startingPoints(input, undefined)) found.dependsOn.add(target);
    }
    const root = this.rootEntity;
    if (root?.ref !== undefined) {
      const links = this.rootLinks(root);
      if (links.length > 0 || any) {
        any = true;
        const found = entryOf(root.ref, undefined);
        found.known = true;
        for (const ref of links) if (ref !== root.ref) found.dependsOn.add(ref);
      }
    }
    if (!any) return undefined;
    return [...entries.values()].map(({ entry, dependsOn, provides, known }) => {
      const out: Record<string, unknown> = { ref: entry.ref };
      if (dependsOn.size > 0 || known) out.dependsOn = [...dependsOn];
      if (provides.size > 0) out.provides = [...provides];
      for (const key of Object.keys(entry)) if (key !== 'ref') setMember(out, key, entry[key]);
      return out;
    });
  }

  /** What the new root depends on: each input's root, or, for an input without one, where its graph starts. */
  private rootLinks(root: Entity): string[] {
    const links: string[] = [];
    for (const input of this.inputs) {
      if (input.root !== undefined) {
        if (input.root.entity !== root) links.push(input.root.entity.ref!);
      } else links.push(...this.startingPoints(input, root));
    }
    return [...new Set(links)];
  }

  /** An input's top-level components that nothing in it depends on (its graph's starting points), `except` aside. */
  private startingPoints(input: Input, except: Entity | undefined): string[] {
    const targets = new Set<string>();
    for (const dependency of records(input.copy.dependencies))
      for (const ref of [...arrayOf(dependency.dependsOn), ...arrayOf(dependency.provides)])
        if (typeof ref === 'string') targets.add(ref);
    const points: string[] = [];
    for (const occurrence of input.topComponents) {
      const ref = occurrence.entity.ref;
      if (ref !== undefined && !targets.has(ref) && occurrence.entity !== except) points.push(ref);
    }
    return points;
  }

  private tools(): unknown {
    const tools = this.toolEntities.map((e) => e.merged!);
    const own = { name: 'bomwright', version: this.options.toolVersion };
    if (!tools.some((t) => t.name === own.name && t.version === own.version))
      tools.push(this.format.toolsAsComponents ? { type: 'application', ...own } : { vendor: 'bomwright', ...own });
    if (!this.format.toolsAsComponents) return tools;
    const services = tools.filter((t) => t[SERVICE_TOOL] === true);
    const components = tools.filter((t) => t[SERVICE_TOOL] !== true);
    for (const service of services) delete service[SERVICE_TOOL];
    return { components, ...(services.length > 0 ? { services } : {}) };
  }

  private metadata(root: Record<string, unknown> | undefined): Record<string, unknown> {
    const ctx = this.context('metadata');
    const metadata: Record<string, unknown> = { timestamp: isoSeconds(this.options.now ?? new Date()) };
    const sources = this.inputs.map((input) => (isRecord(input.copy.metadata) ? input.copy.metadata : {}));
    const unionOf = (key: string) =>
      withoutDuplicates(
        sources.flatMap((m) => arrayOf(m[key])),
        ctx,
      );
    const lifecycles = unionOf('lifecycles');
    if (lifecycles.length > 0) metadata.lifecycles = lifecycles;
    metadata.tools = this.tools();
    const authors = unionOf('authors');
    if (authors.length > 0) metadata.authors = authors;
    if (root !== undefined) metadata.component = root;
    const licenses = unionOf('licenses');
    if (licenses.length > 0) metadata.licenses = licenses;
    const properties = unionOf('properties');
    if (properties.length > 0) metadata.properties = properties;
    const handled = new Set(['timestamp', 'lifecycles', 'tools', 'authors', 'component', 'licenses', 'properties']);
    for (const [i, source] of sources.entries())
      for (const key of Object.keys(source)) {
        if (handled.has(key)) continue;
        ctx.input = this.inputs[i]!.name;
        this.combineMember(metadata, key, source[key], ctx);
      }
    return metadata;
  }

  private context(element: string): CombineContext {
    return {
      strict: true,
      element,
      input: '',
      conflicts: this.conflicts,
      differences: this.differences,
      policy: this.policy,
      aliases: this.aliases,
    };
  }

  /** One member of every input into `target`: lists concatenated without duplicates, objects combined. */
  private combineMember(target: Record<string, unknown>, key: string, value: unknown, ctx: CombineContext): void {
    const ours = target[key];
    if (ours === undefined)
      setMember(target, key, Array.isArray(value) ? withoutDuplicates(value, ctx) : structuredClone(value));
    else if (Array.isArray(ours) && Array.isArray(value))
      setMember(target, key, withoutDuplicates([...ours, ...value], ctx));
    else combineInto({ [key]: ours }, { [key]: value }, '', ctx);
  }

  private assemble(): Record<string, unknown> {
    const format = this.format;
    const root = this.rootEntity === undefined ? undefined : this.build(this.rootEntity);
    const document: Record<string, unknown> = {
      $schema: format.schemaAddress,
      bomFormat: format.family === 'cbom' ? 'CBOM' : 'CycloneDX',
      specVersion: format.specVersion,
      serialNumber: newSerialNumber(this.options.random),
      version: 1,
      metadata: this.metadata(root),
    };
    const components = this.topLevel('component');
    if (components.length > 0 || this.inputs.some((i) => Array.isArray(i.copy.components)))
      document.components = components;
    const services = this.topLevel('service');
    if (services.length > 0) document.services = services;
    const ctx = this.context('document');
    // Each input's BOM-Link: where the components' SOURCE_PROPERTY values point.
    const inputLinks =
      this.options.provenance === false
        ? []
        : this.inputs.flatMap((i) => (i.link === undefined ? [] : [{ type: 'bom', url: i.link }]));
    const externalReferences = withoutDuplicates(
      [...this.inputs.flatMap((i) => arrayOf(i.copy.externalReferences)), ...inputLinks],
      ctx,
      (item) => `${isRecord(item) ? String(item.type) : ''}\u0000${isRecord(item) ? String(item.url) : ''}`,
    );
    if (externalReferences.length > 0) document.externalReferences = externalReferences;
    const dependencies = this.dependencies();
    if (dependencies !== undefined) document.dependencies = dependencies;
    const vulnerabilities = this.entities.filter((e) => e.kind === 'vulnerability').map((e) => e.merged!);
    const handled = new Set([
      '$schema',
      'bomFormat',
      'specVersion',
      'serialNumber',
      'version',
      'metadata',
      'components',
      'services',
      'externalReferences',
      'dependencies',
      'vulnerabilities',
      'signature',
    ]);
    const rest: Record<string, unknown> = {};
    for (const input of this.inputs)
      for (const key of Object.keys(input.copy)) {
        if (handled.has(key)) continue;
        ctx.input = input.name;
        this.combineMember(rest, key, input.copy[key], ctx);
      }
    if (rest.compositions !== undefined) {
      setMember(document, 'compositions', rest.compositions);
      delete rest.compositions;
    }
    if (vulnerabilities.length > 0) document.vulnerabilities = vulnerabilities;
    for (const key of Object.keys(rest)) setMember(document, key, rest[key]);
    return document;
  }

  summary(): BomMergeSummary {
    const counts = this.inputs.map(() => ({ component: 0, service: 0, vulnerability: 0, tool: 0 }));
    for (const entity of this.entities)
      for (const occurrence of entity.occurrences)
        if (occurrence.input !== ROOT_INPUT) counts[occurrence.input]![entity.kind]++;
    const inputs = this.inputs.map((input, i) => ({
      name: input.name,
      specVersion: input.format.specVersion,
      components: counts[i]!.component,
      services: counts[i]!.service,
      vulnerabilities: counts[i]!.vulnerability,
    }));
    // Out: what came from the inputs; a named root is new and counted apart.
    const out = (kind: Kind) =>
      this.entities.filter((e) => e.kind === kind && e.occurrences.some((o) => o.input !== ROOT_INPUT)).length;
    return {
      inputs,
      componentsIn: inputs.reduce((n, i) => n + i.components, 0),
      componentsOut: out('component'),
      servicesIn: inputs.reduce((n, i) => n + i.services, 0),
      servicesOut: out('service'),
      vulnerabilitiesIn: inputs.reduce((n, i) => n + i.vulnerabilities, 0),
      vulnerabilitiesOut: out('vulnerability'),
      root: this.rootEntity?.ref ?? null,
      rootAdded: this.rootEntity !== undefined && this.rootEntity.occurrences.every((o) => o.input === ROOT_INPUT),
      duplicatesCombined: this.duplicatesCombined,
      renamed: this.renamed,
      conflicts: this.conflicts,
      probableDuplicates: this.probableDuplicates(),
      sameDocument: this.sameDocument(),
      differences: this.differences,
      dropped: this.dropped,
      converted: this.converted,
      removedSignatures: this.removedSignatures,
    };
  }
}

/** The serial number and version: a new BOM, or the next version of the baseline (unchanged: the same one). */
function identity(document: Record<string, unknown>, baseline: unknown): void {
  if (baseline === undefined) return;
  if (!isRecord(baseline) || typeof baseline.serialNumber !== 'string')
    throw new BomwrightError('E_INPUT', 'The baseline has no serialNumber to continue');
  const version = baseline.version ?? 1;
  if (typeof version !== 'number' || !Number.isSafeInteger(version + 1) || version < 1)
    throw new BomwrightError('E_INPUT', 'The baseline version is not a whole number from 1');
  document.serialNumber = baseline.serialNumber;
  document.version = version;
  const metadata = document.metadata as Record<string, unknown>;
  const timestamp = isRecord(baseline.metadata) ? baseline.metadata.timestamp : undefined;
  if (!contentChanged(baseline, document) && typeof timestamp === 'string') metadata.timestamp = timestamp;
  else document.version = version + 1;
}

/**
 * Merges BOMs into one new BOM and validates it. Operational problems (no inputs, versions that differ without
 * `specVersion`, roots that differ without `root`) throw E_USAGE; conflicts and the result's validity come back
 * in the result, for the caller to decide (the CLI writes nothing when either is bad, unless told to keep the
 * first value of each conflict).
 */
export async function merge(inputs: readonly BomMergeInput[], options: BomMergeOptions): Promise<BomMergeResult> {
  if (typeof options.toolVersion !== 'string' || options.toolVersion === '')
    throw new BomwrightError('E_USAGE', "merge needs toolVersion: bomwright's version, named in metadata.tools");
  const merger = new Merger(options);
  const document = merger.run(inputs);
  const summary = merger.summary();
  identity(document, options.baseline);
  const result = await validate(document, { signatures: 'ignore' });
  return { document, summary, diagnostics: result.diagnostics, valid: result.valid };
}

/** Reference members, for tests and documentation. */
export { REFERENCE_MEMBERS };
