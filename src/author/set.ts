/**
 * `set`: writes any member of the document by JSON pointer, from the root or from each of many components at once
 * (selectors, see select.ts). Which members exist, and what type a text value is read as, come from the
 * document's own schema version. The document's identity and signatures are not set here: they belong to the
 * commands that keep them right (bump, sign).
 */
import { BomwrightError } from '../errors.js';
import type { SpecFormat } from '../formats/formats.js';
import { parsePointer, toPointer } from '../json/pointer.js';
import { isRecord, setMember } from '../values.js';
import { isoSeconds } from './document.js';
import { runEdit, type EditOptions, type EditResult } from './edit.js';
import { contactFromText, entityFromText } from './elements.js';
import { licenseChoice, withAcknowledgement, type LicenseAcknowledgement } from './licenses.js';
import { schemaPlace, type SchemaPlace } from './schema-place.js';
import { parseSelector, selectComponents } from './select.js';

export interface SetRequest {
  /**
   * Where: a JSON pointer (`/metadata/manufacturer/name`; `-` appends to an array), from the document's root, or
   * with `components` from each selected component (`/supplier`). A dotted path (`metadata.supplier`) is read as
   * the same pointer.
   */
  pointer: string;
  /** The value as JSON; with `text`, the text typed on a command line, read as the type the schema has there. */
  value?: unknown;
  /** Whether `value` is command-line text (JSON where the place takes an object, else a typed shorthand). */
  text?: boolean;
  /** Remove the member instead. */
  remove?: boolean;
  /** Component selectors (all must match); the pointer is then relative to each matching component. */
  components?: readonly string[];
  /** For licences given as text: how they are known (1.6+). */
  acknowledgement?: LicenseAcknowledgement;
  /** What `now` means for a date-time (default: the current time). */
  now?: Date;
}

/** Members of the document that other commands own, and the command that keeps each right. */
const OWNED: Readonly<Record<string, string>> = {
  serialNumber:
    "the serial number is the BOM's identity: bomwright init gives a new one, bomwright bump FILE --baseline OLD keeps the previous release's",
  version: 'the version is raised by bomwright bump (and the version rule checks it)',
  specVersion: "the spec version changes with the document's shape: bomwright convert FILE -o OUT --spec-version V",
  bomFormat: "the format is fixed by the document's family",
};

const SIGNATURE_OWNER = 'signatures are written by bomwright sign (and removed by an edit with --drop-signatures)';

/** `metadata.supplier` (the older `set` form) as a pointer. */
export function pointerOfPath(path: string): string {
  if (path === '' || path.startsWith('/')) return path;
  return toPointer(path.split('.'));
}

function refuseOwned(segments: readonly string[], fromRoot: boolean): void {
  if (segments.length === 0)
    throw new BomwrightError('E_USAGE', 'set writes a member; give its pointer (e.g. /metadata/manufacturer)');
  if (segments.includes('signature'))
    throw new BomwrightError('E_USAGE', `set does not write signatures: ${SIGNATURE_OWNER}`);
  const owner = fromRoot && Object.hasOwn(OWNED, segments[0]!) ? OWNED[segments[0]!] : undefined;
  if (owner !== undefined) throw new BomwrightError('E_USAGE', `set does not write ${segments[0]!}: ${owner}`);
}

const INDEX = /^(?:0|[1-9]\d*)$/;

/** The schema's segments for a pointer below a component: any component has the schema of `components[0]`. */
function schemaSegments(segments: readonly string[], components: boolean): string[] {
  return components ? ['components', '0', ...segments] : [...segments];
}

/**
 * A command-line text as the value the place takes: JSON for an object or array written as JSON, else the
 * shorthand of the place's kind (an entity from `ACME <sec@acme.example> https://acme.example`, a person from
 * `Jane <jane@example.com>`, licences from SPDX ids or an expression, a lifecycle phase, `ALG:CONTENT` hashes,
 * `now` for a date-time), else the text as a string, number or boolean as the schema types it.
 */
function valueFromText(
  text: string,
  format: SpecFormat,
  segments: readonly string[],
  request: SetRequest,
  where: string,
): unknown {
  const components = request.components !== undefined && request.components.length > 0;
  const place = schemaPlace(format, schemaSegments(segments, components), components ? { skip: 2 } : {});
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(trimmed) as unknown;
    } catch (error) {
      throw new BomwrightError(
        'E_USAGE',
        `The value for ${where} is not JSON (${error instanceof Error ? error.message : 'unreadable'})`,
      );
    }
  }
  if (place === undefined) {
    try {
      return JSON.parse(trimmed) as unknown;
    } catch {
      return text;
    }
  }
  const parent =
    segments.length > 0 && /^(?:0|[1-9]\d*|-)$/.test(segments.at(-1)!)
      ? schemaPlace(format, schemaSegments(segments.slice(0, -1), components))
      : undefined;
  const shorthand = shorthandOf(text, place, parent, format, request, segments, components);
  if (shorthand !== NO_SHORTHAND) return shorthand;
  const types = place.types;
  if (types.has('string')) {
    if (trimmed.startsWith('"')) return JSON.parse(trimmed) as unknown;
    if (place.format === 'date-time' && trimmed === 'now') return isoSeconds(request.now ?? new Date());
    return text;
  }
  if (types.has('integer') || types.has('number') || types.has('boolean')) {
    try {
      return JSON.parse(trimmed) as unknown;
    } catch {
      return text;
    }
  }
  if (types.size === 0) return text;
  throw new BomwrightError(
    'E_USAGE',
    `${where} takes ${[...types].join(' or ')} in CycloneDX ${format.specVersion}: give it as JSON`,
  );
}

const NO_SHORTHAND: unique symbol = Symbol('no shorthand');

function shorthandOf(
  text: string,
  place: SchemaPlace,
  parent: SchemaPlace | undefined,
  format: SpecFormat,
  request: SetRequest,
  segments: readonly string[],
  components: boolean,
): unknown {
  const licences = (list: string[]) =>
    withAcknowledgement(
      licenseChoice(list, format, [], `as JSON: '[{"license":{"name":"NAME"}}]'`),
      request.acknowledgement,
      format,
    );
  if (place.definition === 'licenseChoice') return licences([text]);
  if (parent?.definition === 'licenseChoice') return licences([text])[0];
  if (request.acknowledgement !== undefined)
    throw new BomwrightError('E_USAGE', '--acknowledgement goes with licences (a licenses member or an entry of one)');
  const item = itemKind(place);
  if (item !== undefined) return [item(text)];
  const kind = kindOf(place);
  return kind === undefined ? NO_SHORTHAND : kind(text);

  /** The shorthand for one value of this kind of place, if it has one. */
  function kindOf(at: SchemaPlace): ((text: string) => unknown) | undefined {
    if (at.definition === 'organizationalEntity') return entityFromText;
    if (at.definition === 'organizationalContact') return contactFromText;
    if (at.definition === 'hash') return hashFromText;
    const phases = at.nodes.flatMap((n) =>
      isRecord(n.properties) && isRecord(n.properties.phase) && Array.isArray(n.properties.phase.enum)
        ? n.properties.phase.enum.filter((v): v is string => typeof v === 'string')
        : [],
    );
    if (phases.length > 0) return (t) => (phases.includes(t.trim()) ? { phase: t.trim() } : { name: t.trim() });
    return undefined;
  }

  /** For an array place: the shorthand of one entry, written as a list of that one entry. */
  function itemKind(at: SchemaPlace): ((text: string) => unknown) | undefined {
    if (!at.types.has('array')) return undefined;
    const entry = schemaPlace(format, [...schemaSegments(segments, components), '-']);
    if (entry === undefined) return undefined;
    const kind = kindOf(entry);
    if (kind !== undefined) return kind;
    if (entry.types.size === 1 && entry.types.has('string')) return (t) => t;
    return undefined;
  }
}

function hashFromText(text: string): Record<string, unknown> {
  const at = text.indexOf(':');
  if (at <= 0)
    throw new BomwrightError('E_USAGE', `A hash is ALG:CONTENT (SHA-256:ab12…), not ${JSON.stringify(text)}`);
  return { alg: text.slice(0, at).trim(), content: text.slice(at + 1).trim() };
}

/** Writes `value` at `segments` below `base`, creating the objects and arrays on the way (arrays before an index). */
function writeAt(base: Record<string, unknown>, segments: readonly string[], value: unknown, where: string): void {
  let node: unknown = base;
  for (let i = 0; i < segments.length - 1; i++) {
    const segment = segments[i]!;
    const makeArray = /^(?:0|[1-9]\d*|-)$/.test(segments[i + 1]!);
    node = childOf(node, segment, makeArray, where);
  }
  const last = segments.at(-1)!;
  if (Array.isArray(node)) {
    if (last === '-') node.push(value);
    else if (INDEX.test(last) && Number(last) <= node.length) node[Number(last)] = value;
    else
      throw new BomwrightError(
        'E_USAGE',
        `${where}: ${last} is not an index of the array there (0 to ${node.length}, or -)`,
      );
  } else if (isRecord(node)) setMember(node, last, value);
  else throw new BomwrightError('E_USAGE', `${where}: the member above it is not an object`);
}

function childOf(node: unknown, segment: string, makeArray: boolean, where: string): unknown {
  if (Array.isArray(node)) {
    if (segment === '-') {
      const created = makeArray ? [] : {};
      node.push(created);
      return created;
    }
    if (!INDEX.test(segment) || Number(segment) >= node.length)
      throw new BomwrightError(
        'E_USAGE',
        `${where}: ${segment} is not an index of the array there (or - for a new entry)`,
      );
    return node[Number(segment)];
  }
  if (!isRecord(node)) throw new BomwrightError('E_USAGE', `${where}: the member above ${segment} is not an object`);
  if (!Object.hasOwn(node, segment) || node[segment] === undefined) {
    const created = makeArray ? [] : {};
    setMember(node, segment, created);
    return created;
  }
  return node[segment];
}

function removeAt(base: Record<string, unknown>, segments: readonly string[]): void {
  let node: unknown = base;
  for (const segment of segments.slice(0, -1)) {
    if (Array.isArray(node)) node = INDEX.test(segment) ? node[Number(segment)] : undefined;
    else node = isRecord(node) && Object.hasOwn(node, segment) ? node[segment] : undefined;
  }
  const last = segments.at(-1)!;
  if (Array.isArray(node) && INDEX.test(last)) node.splice(Number(last), 1);
  else if (isRecord(node) && Object.hasOwn(node, last)) delete node[last];
}

/**
 * Sets (or removes) one member, in the document or in each selected component. Refused (E_USAGE) for a member
 * the version's schema lacks, for the serial number, version, spec version and signatures, and for selectors
 * that match nothing; an edit that would make the document invalid comes back unapplied with the errors.
 */
export function setValue(document: unknown, request: SetRequest, options: EditOptions = {}): Promise<EditResult> {
  return runEdit(document, options, (original, format) => {
    const pointer = pointerOfPath(request.pointer);
    let segments: string[];
    try {
      segments = pointer === '' ? [] : parsePointer(pointer);
    } catch {
      throw new BomwrightError('E_USAGE', `${JSON.stringify(request.pointer)} is not a JSON pointer`);
    }
    const selectors = (request.components ?? []).map((text) => parseSelector(text, format));
    const byComponent = selectors.length > 0;
    refuseOwned(segments, !byComponent);
    const shown = byComponent ? `${pointer} of the component` : pointer;
    // The member must exist in this version (the nearest are suggested), whatever the value.
    schemaPlace(format, schemaSegments(segments, byComponent), byComponent ? { where: '/components/N', skip: 2 } : {});
    let value: unknown;
    if (request.remove !== true) {
      if (request.value === undefined) throw new BomwrightError('E_USAGE', `set ${pointer} needs a value`);
      value =
        request.text === true && typeof request.value === 'string'
          ? valueFromText(request.value, format, segments, request, shown)
          : structuredClone(request.value);
    }
    const targets = byComponent ? selectComponents(original, selectors).map((s) => s.pointer) : [''];
    return {
      // The signatures of the objects on the way (the root's, the component's) are the ones the edit breaks.
      pointer: targets.map((t) => t + pointer),
      ...(byComponent ? { components: targets.length } : {}),
      apply: (copy) => {
        for (const target of targets) {
          const base = target === '' ? copy : resolveComponent(copy, target);
          if (request.remove === true) removeAt(base, segments);
          else writeAt(base, segments, structuredClone(value), target + pointer);
        }
      },
    };
  });
}

function resolveComponent(copy: Record<string, unknown>, pointer: string): Record<string, unknown> {
  let node: unknown = copy;
  for (const segment of parsePointer(pointer))
    node = Array.isArray(node) ? node[Number(segment)] : isRecord(node) ? node[segment] : undefined;
  if (!isRecord(node)) throw new BomwrightError('E_INTERNAL', `${pointer} is not a component`);
  return node;
}
