/**
 * Version conversion over the data model (the JSON form of CycloneDX): a document of one spec version as a
 * document of another, up or down between 1.2 and 1.7 (XML-only 1.0 and 1.1 upward), and CBOM 1.4-cbom-1.0 as
 * itself. What the target version lacks is read from its official JSON schema by walking the document against it
 * (properties, additionalProperties: false, $ref, oneOf/anyOf/allOf branches, enums, types, bounds), so every
 * version pair is covered without a table of our own. Values the target cannot carry as they are become its form
 * where the specification says how (the two tool forms, 1.5's metadata.manufacture and 1.6's
 * metadata.component.manufacturer, 1.5's document properties, licence lists that 1.5 and 1.6 take either as
 * licences or as one expression, 1.6's component authors, the target's required members with a default); the
 * rest is dropped and listed. Nothing valid to write throws E_CONVERT. Pure: the input is never modified (the
 * result may share unchanged parts with it).
 */
import { BomwrightError } from '../errors.js';
import { findFormatBySpecVersion, supportedVersionsText, type SpecFormat } from '../formats/formats.js';
import { routeDocument } from '../formats/route.js';
import { toPointer } from '../json/pointer.js';
import { display, isRecord, setMember } from '../values.js';
import { loadSchemaFile, type SchemaObject } from './convert-schemas.js';
import { REFERENCE_MEMBERS } from './merge-refs.js';

export interface DroppedMember {
  /** Where the member was in the input (a JSON pointer). */
  pointer: string;
  /** Why: the target version has no such member, or cannot carry its value. */
  reason: string;
}

export interface ConvertedValue {
  /** Where the value was in the input (a JSON pointer). */
  pointer: string;
  /** The input's value (undefined: the member was absent). */
  from: unknown;
  /** The value written instead. */
  to: unknown;
  /** Where it now is, when it moved (a JSON pointer into the result). */
  movedTo?: string;
}

export interface VersionConversion {
  document: Record<string, unknown>;
  dropped: DroppedMember[];
  converted: ConvertedValue[];
}

export interface ConvertOptions {
  /**
   * Keep JSF signatures (whose signed content a version change alters) for the caller to deal with; by default a
   * conversion to another version drops them, each listed.
   */
  keepSignatures?: boolean;
}

/** The spec versions a document can be converted from that have only an XML form (upward only). */
export const XML_ONLY_SPEC_VERSIONS = ['1.0', '1.1'] as const;

interface Source {
  specVersion: string;
  family: SpecFormat['family'];
}

function sourceOf(document: unknown): Source {
  if (isRecord(document) && document.bomFormat === 'CycloneDX') {
    const version = document.specVersion;
    if (typeof version === 'string' && (XML_ONLY_SPEC_VERSIONS as readonly string[]).includes(version))
      return { specVersion: version, family: 'cyclonedx' };
  }
  const route = routeDocument(document);
  if (route.format === undefined || !isRecord(document))
    throw new BomwrightError(
      'E_INPUT',
      `Cannot convert the document: ${route.diagnostics[0]?.message ?? 'it is not a BOM'}`,
    );
  return { specVersion: route.format.specVersion, family: route.format.family };
}

/** The target's format, or E_USAGE / E_CONVERT when there is none to convert this source to. */
function targetOf(source: Source, targetSpecVersion: string): SpecFormat {
  if ((XML_ONLY_SPEC_VERSIONS as readonly string[]).includes(targetSpecVersion))
    throw new BomwrightError(
      'E_CONVERT',
      `CycloneDX ${targetSpecVersion} has only an XML form that nothing newer converts down to; CycloneDX 1.0 and 1.1 convert upward only`,
    );
  const format = findFormatBySpecVersion(targetSpecVersion);
  if (format === undefined)
    throw new BomwrightError(
      'E_USAGE',
      `Unsupported spec version ${JSON.stringify(targetSpecVersion)}; supported: ${supportedVersionsText()}`,
    );
  if (format.family !== source.family)
    throw new BomwrightError(
      'E_CONVERT',
      `A ${source.family === 'cbom' ? 'CBOM' : 'CycloneDX'} ${source.specVersion} document cannot be converted to ${format.family === 'cbom' ? 'CBOM' : 'CycloneDX'} ${format.specVersion}: they are different specifications`,
    );
  return format;
}

const FAIL: unique symbol = Symbol('cannot be carried');
type Fitted = unknown;

const arrayOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A definition of the target's schema whose values are converted before they are fitted. */
type Hook = (walker: Walker, value: unknown, definition: SchemaObject, where: Where | undefined) => unknown;

/**
 * A place in the input, made into a JSON pointer only when something is said about it: building a pointer string
 * for every member of a large document would cost more than the whole walk.
 */
interface Where {
  readonly parent: Where | undefined;
  readonly key: string | number;
}

const ROOT: Where | undefined = undefined;

function pointerOf(where: Where | undefined): string {
  const path: (string | number)[] = [];
  for (let at = where; at !== undefined; at = at.parent) path.push(at.key);
  return toPointer(path.reverse());
}

const child = (parent: Where | undefined, key: string | number): Where => ({ parent, key });

/** Where the JSF signature schema is referenced: a signature is dropped when the conversion changes what it signs. */
const SIGNATURE_REF = /^jsf-[\d.]+(?:\.SNAPSHOT)?\.schema\.json#\/definitions\/signature$/;

class Walker {
  readonly dropped: DroppedMember[] = [];
  readonly converted: ConvertedValue[] = [];
  failure: { where: Where | undefined; reason: string } = { where: ROOT, reason: '' };
  private readonly refs = new Map<string, { schema: unknown; file: string; name: string | undefined }>();
  /** The members of each `properties` that are JSF signatures. */
  private readonly signatureKeys = new WeakMap<object, string[]>();
  /** Each $ref node's resolution (a node belongs to one file). */
  private readonly resolved = new WeakMap<object, { schema: unknown; file: string; name: string | undefined }>();
  private readonly enums = new WeakMap<unknown[], Set<unknown>>();
  private readonly patterns = new Map<string, RegExp | null>();

  constructor(
    readonly label: string,
    readonly baseFile: string,
    readonly dropSignatures: boolean,
    /** bom-refs of elements the conversion drops: references to them are dropped too. */
    readonly gone: ReadonlySet<string>,
  ) {}

  fail(where: Where | undefined, reason: string): typeof FAIL {
    this.failure = { where, reason };
    return FAIL;
  }

  /** The failure as a reason for dropping the member at `where` (which holds the place that failed). */
  failureReason(where: Where | undefined): string {
    const { where: at, reason } = this.failure;
    return at === where ? reason : `${reason} (at ${pointerOf(at)})`;
  }

  drop(where: Where | undefined, reason: string): void {
    this.dropped.push({ pointer: pointerOf(where), reason });
  }

  convert(where: Where | undefined, from: unknown, to: unknown, movedTo?: Where): void {
    this.converted.push({
      pointer: pointerOf(where),
      from,
      to,
      ...(movedTo === undefined ? {} : { movedTo: pointerOf(movedTo) }),
    });
  }

  resolve(ref: string, file: string): { schema: unknown; file: string; name: string | undefined } {
    const key = `${file}\u0000${ref}`;
    let found = this.refs.get(key);
    if (found === undefined) {
      const hash = ref.indexOf('#');
      const target = hash === -1 ? ref : ref.slice(0, hash);
      const fragment = hash === -1 ? '' : ref.slice(hash + 1);
      const targetFile = target === '' ? file : target;
      let node: unknown = loadSchemaFile(targetFile);
      const segments = fragment === '' ? [] : fragment.slice(1).split('/');
      for (const segment of segments)
        node = isRecord(node) ? node[segment.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
      if (node === undefined)
        throw new BomwrightError('E_INTERNAL', `The schema ${file} refers to ${ref}, which it does not have`);
      const name =
        segments.length === 2 && segments[0] === 'definitions' && targetFile === this.baseFile
          ? segments[1]
          : undefined;
      found = { schema: node, file: targetFile, name };
      this.refs.set(key, found);
    }
    return found;
  }

  private withoutSignatures(
    value: Record<string, unknown>,
    properties: Record<string, unknown>,
    file: string,
    where: Where | undefined,
  ): Record<string, unknown> {
    let out: Record<string, unknown> | undefined;
    let keys = this.signatureKeys.get(properties);
    if (keys === undefined) {
      keys = Object.keys(properties).filter((key) => this.isSignature(properties[key], file));
      this.signatureKeys.set(properties, keys);
    }
    for (const key of keys) {
      if (!Object.hasOwn(value, key)) continue;
      out ??= plain(value);
      delete out[key];
      this.drop(child(where, key), 'the conversion changes what it signs; sign the converted document');
    }
    return out ?? value;
  }

  /** Whether a member's schema is (through its chain of $refs) the JSF signature's. */
  private isSignature(schema: unknown, file: string): boolean {
    let node = schema;
    let at = file;
    for (let hops = 0; isRecord(node) && typeof node.$ref === 'string' && hops < 8; hops++) {
      if (SIGNATURE_REF.test(node.$ref)) return true;
      ({ schema: node, file: at } = this.resolve(node.$ref, at));
    }
    return false;
  }

  /** `value` as the schema takes it (members dropped or converted on the way), or FAIL. */
  fit(value: unknown, schema: unknown, file: string, where: Where | undefined): Fitted {
    if (schema === false) return this.fail(where, `${this.label} allows nothing here`);
    if (!isRecord(schema)) return value;
    if (typeof schema.$ref === 'string') {
      // draft-07: a $ref's siblings are ignored.
      let found = this.resolved.get(schema);
      if (found === undefined) {
        found = this.resolve(schema.$ref, file);
        this.resolved.set(schema, found);
      }
      const { schema: target, file: targetFile, name } = found;
      const hook = name === undefined || !Object.hasOwn(HOOKS, name) ? undefined : HOOKS[name];
      const input = hook !== undefined && isRecord(target) ? hook(this, value, target, where) : value;
      return this.fit(input, target, targetFile, where);
    }
    let current = value;
    // Before the branches, which may require a signature that is no longer there.
    if (this.dropSignatures && isRecord(current) && isRecord(schema.properties))
      current = this.withoutSignatures(current, schema.properties, file, where);
    if (Array.isArray(schema.allOf))
      for (const part of schema.allOf) {
        current = this.fit(current, part, file, where);
        if (current === FAIL) return FAIL;
      }
    const branches = Array.isArray(schema.oneOf)
      ? schema.oneOf
      : Array.isArray(schema.anyOf)
        ? schema.anyOf
        : undefined;
    if (branches !== undefined) {
      current = this.branch(current, branches, file, where);
      if (current === FAIL) return FAIL;
    }
    if (Array.isArray(schema.enum) && !this.inEnum(schema.enum, current))
      return this.fail(where, `${this.label} has no value ${display(current)} here`);
    if (Object.hasOwn(schema, 'const') && JSON.stringify(schema.const) !== JSON.stringify(current))
      return this.fail(where, `${this.label} takes only ${display(schema.const)} here`);
    const type = schema.type;
    if (type !== undefined && !matchesType(current, type))
      return this.fail(
        where,
        `${this.label} takes ${Array.isArray(type) ? type.join(' or ') : String(type)} here, not ${typeName(current)}`,
      );
    if (isRecord(current)) return this.object(current, schema, file, where);
    if (Array.isArray(current)) return this.array(current, schema, file, where);
    if (typeof current === 'string') return this.string(current, schema, where);
    if (typeof current === 'number') return this.number(current, schema, where);
    return current;
  }

  private inEnum(values: unknown[], value: unknown): boolean {
    let set = this.enums.get(values);
    if (set === undefined) {
      set = new Set(values.map((v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : v)));
      this.enums.set(values, set);
    }
    return set.has(value !== null && typeof value === 'object' ? JSON.stringify(value) : value);
  }

  /** oneOf/anyOf: the branch that takes the value with the fewest changes (none: the first that takes it as is). */
  private branch(value: unknown, branches: readonly unknown[], file: string, where: Where | undefined): Fitted {
    const d0 = this.dropped.length;
    const c0 = this.converted.length;
    let best: { value: unknown; dropped: DroppedMember[]; converted: ConvertedValue[] } | undefined;
    let failure: { where: Where | undefined; reason: string } | undefined;
    for (const candidate of branches) {
      const out = this.fit(value, candidate, file, where);
      const dropped = this.dropped.splice(d0);
      const converted = this.converted.splice(c0);
      if (out === FAIL) {
        failure ??= this.failure;
        continue;
      }
      if (dropped.length + converted.length === 0) return out;
      if (best === undefined || dropped.length + converted.length < best.dropped.length + best.converted.length)
        best = { value: out, dropped, converted };
    }
    if (best === undefined) {
      this.failure = failure ?? { where, reason: `${this.label} takes none of its forms here` };
      return FAIL;
    }
    this.dropped.push(...best.dropped);
    this.converted.push(...best.converted);
    return best.value;
  }

  private object(value: Record<string, unknown>, schema: SchemaObject, file: string, where: Where | undefined): Fitted {
    const properties = isRecord(schema.properties) ? schema.properties : undefined;
    const patterns = isRecord(schema.patternProperties) ? schema.patternProperties : undefined;
    const additional = schema.additionalProperties;
    const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
    // Nothing to check (an allOf part that only asserts, say): the walk of its members would find nothing either.
    const open =
      properties === undefined && patterns === undefined && (additional === undefined || additional === true);
    if (open && required.length === 0 && this.gone.size === 0) return value;
    let out: Record<string, unknown> | undefined;
    const copy = () => (out ??= plain(value));
    for (const key of Object.keys(value)) {
      const member = value[key];
      const at = child(where, key);
      let sub: unknown = properties !== undefined && Object.hasOwn(properties, key) ? properties[key] : undefined;
      if (sub === undefined && patterns !== undefined)
        for (const pattern of Object.keys(patterns))
          if (this.regex(pattern)?.test(key) === true) {
            sub = patterns[pattern];
            break;
          }
      if (sub === undefined) {
        if (additional === false) {
          delete copy()[key];
          this.drop(at, `${this.label} has no such member`);
          continue;
        }
        sub = additional;
      }
      const fitted =
        this.gone.size > 0 && REFERENCE_MEMBERS.has(key)
          ? this.reference(member, sub, file, at)
          : this.fit(member, sub, file, at);
      if (fitted === FAIL) {
        if (required.includes(key)) return FAIL;
        delete copy()[key];
        this.drop(at, this.failureReason(at));
        continue;
      }
      // A list whose every item was dropped goes too (each item is listed): an empty list would say "none" where
      // the input said what (dependsOn: [] is a component without dependencies).
      if (
        Array.isArray(fitted) &&
        fitted.length === 0 &&
        Array.isArray(member) &&
        member.length > 0 &&
        !required.includes(key)
      )
        delete copy()[key];
      else if (fitted !== member) setMember(copy(), key, fitted);
    }
    for (const key of required) {
      if (typeof key !== 'string' || Object.hasOwn(out ?? value, key)) continue;
      const fill = requiredFill(properties?.[key], (ref) => this.resolve(ref, file).schema);
      if (fill === undefined) return this.fail(where, `${this.label} requires ${key} here`);
      setMember(copy(), key, fill);
      this.convert(child(where, key), undefined, fill);
    }
    return out ?? value;
  }

  /** A reference member (one name or a list of names) without the references to dropped elements. */
  private reference(value: unknown, schema: unknown, file: string, where: Where | undefined): Fitted {
    const reason = (ref: string) => `it refers to ${JSON.stringify(ref)}, an element the conversion drops`;
    if (typeof value === 'string' && this.gone.has(value)) return this.fail(where, reason(value));
    if (!Array.isArray(value) || !value.some((item) => typeof item === 'string' && this.gone.has(item)))
      return this.fit(value, schema, file, where);
    const kept = value.filter((item, i) => {
      if (typeof item !== 'string' || !this.gone.has(item)) return true;
      this.drop(child(where, i), reason(item));
      return false;
    });
    // The list's own items are fitted at their new places: none of them is dropped here again.
    return this.fit(kept, schema, file, where);
  }

  private array(value: unknown[], schema: SchemaObject, file: string, where: Where | undefined): Fitted {
    const items = schema.items;
    const additional = schema.additionalItems;
    let out: unknown[] | undefined;
    // Items without a schema are taken as they are.
    const checked = items !== undefined && items !== true;
    for (let i = 0; checked && i < value.length; i++) {
      const item = value[i];
      const at = child(where, i);
      const sub = Array.isArray(items) ? (i < items.length ? items[i] : additional) : items;
      const fitted =
        sub === false ? this.fail(at, `${this.label} takes no more items here`) : this.fit(item, sub, file, at);
      if (fitted === FAIL) {
        out ??= value.slice(0, i);
        this.drop(at, this.failureReason(at));
        continue;
      }
      if (out !== undefined) out.push(fitted);
      else if (fitted !== item) {
        out = value.slice(0, i);
        out.push(fitted);
      }
    }
    const result = out ?? value;
    if (typeof schema.minItems === 'number' && result.length < schema.minItems)
      return this.fail(where, `${this.label} needs at least ${schema.minItems} item(s) here`);
    if (typeof schema.maxItems === 'number' && result.length > schema.maxItems)
      return this.fail(where, `${this.label} takes at most ${schema.maxItems} item(s) here`);
    return result;
  }

  private string(value: string, schema: SchemaObject, where: Where | undefined): Fitted {
    if (typeof schema.pattern === 'string' && this.regex(schema.pattern)?.test(value) === false)
      return this.fail(where, `${this.label} does not take ${display(value)} here (pattern ${schema.pattern})`);
    // Lengths in code points, counted only when the UTF-16 length (one or two units each) leaves it open.
    const min = schema.minLength;
    const max = schema.maxLength;
    const counted =
      (typeof min === 'number' && value.length < 2 * min) || (typeof max === 'number' && value.length > max);
    if (counted) {
      const length = [...value].length;
      if (typeof min === 'number' && length < min)
        return this.fail(where, `${this.label} takes at least ${min} characters here`);
      if (typeof max === 'number' && length > max)
        return this.fail(where, `${this.label} takes at most ${max} characters here`);
    }
    return value;
  }

  private number(value: number, schema: SchemaObject, where: Where | undefined): Fitted {
    const outside =
      (typeof schema.minimum === 'number' && value < schema.minimum) ||
      (typeof schema.maximum === 'number' && value > schema.maximum) ||
      (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) ||
      (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum);
    return outside ? this.fail(where, `${this.label} does not take ${value} here (out of bounds)`) : value;
  }

  private regex(pattern: string): RegExp | null {
    let compiled = this.patterns.get(pattern);
    if (compiled === undefined) {
      try {
        compiled = new RegExp(pattern, 'u');
      } catch {
        // A pattern JavaScript cannot read is left to the validator, which runs on the result.
        compiled = null;
      }
      this.patterns.set(pattern, compiled);
    }
    return compiled;
  }
}

/** An object with the ordinary prototype again (copies are made without one, so `__proto__` stays a member). */
function plain(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) setMember(out, key, record[key]);
  return out;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

function matchesType(value: unknown, type: unknown): boolean {
  if (Array.isArray(type)) return type.some((t) => matchesType(value, t));
  switch (type) {
    case 'object':
      return isRecord(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    default:
      return true;
  }
}

/**
 * What a member the target requires is written as when the input has none: the schema's default, or, for a plain
 * string, an empty one (as the CycloneDX library writes a 1.2/1.3 component's version it does not know).
 */
function requiredFill(schema: unknown, resolve: (ref: string) => unknown): unknown {
  let node = schema;
  if (isRecord(node) && typeof node.$ref === 'string') node = resolve(node.$ref);
  if (!isRecord(node)) return undefined;
  if (Object.hasOwn(node, 'default')) return structuredClone(node.default);
  const plainString =
    node.type === 'string' &&
    ['enum', 'const', 'pattern', 'format', 'minLength', 'oneOf', 'anyOf'].every((k) => !Object.hasOwn(node, k));
  return plainString ? '' : undefined;
}

/** An SPDX expression operand: a simple one as it is, a compound one in parentheses. */
const operand = (expression: string) => (/\s/.test(expression.trim()) ? `(${expression.trim()})` : expression.trim());

/**
 * Licence lists of the 1.5/1.6 form (licences, or exactly one expression): a list that mixes expressions with
 * licences, or holds several expressions, becomes one expression of them all joined with AND (a list names licences
 * that all apply). A named licence cannot be an operand of an SPDX expression: it is dropped and listed.
 */
function licenseChoice(walker: Walker, value: unknown, definition: SchemaObject, where: Where | undefined): unknown {
  if (!Array.isArray(definition.oneOf) || !Array.isArray(value) || value.length < 2) return value;
  const expressions = value.filter((item) => isRecord(item) && typeof item.expression === 'string');
  if (expressions.length === 0) return value;
  const operands: string[] = [];
  value.forEach((item, i) => {
    if (!isRecord(item)) return;
    const license = isRecord(item.license) ? item.license : undefined;
    if (typeof item.expression === 'string') operands.push(operand(item.expression));
    else if (typeof license?.id === 'string') operands.push(license.id);
    else
      walker.drop(
        child(where, i),
        `${walker.label} takes licences or one expression, not both, and a named licence cannot be part of an SPDX expression`,
      );
  });
  const to = [{ expression: operands.join(' AND ') }];
  walker.convert(where, value, to);
  return to;
}

/** 1.6+ component authors, for a target whose component has one `author` text instead. */
function component(walker: Walker, value: unknown, definition: SchemaObject, where: Where | undefined): unknown {
  const properties = isRecord(definition.properties) ? definition.properties : {};
  if (!isRecord(value) || !Array.isArray(value.authors) || Object.hasOwn(properties, 'authors')) return value;
  if (!Object.hasOwn(properties, 'author') || value.author !== undefined) return value;
  const names = value.authors
    .map((author) => (isRecord(author) && typeof author.name === 'string' ? author.name : undefined))
    .filter((name) => name !== undefined);
  if (names.length === 0) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    if (key === 'authors') out.author = names.join(', ');
    else setMember(out, key, value[key]);
  walker.convert(child(where, 'authors'), value.authors, out.author, child(where, 'author'));
  return out;
}

const HOOKS: Readonly<Record<string, Hook>> = { licenseChoice, component };

/** A definition's member schemas in the target (after $ref). */
function definitionProperties(walker: Walker, name: string): Record<string, unknown> {
  const { schema } = walker.resolve(`#/definitions/${name}`, walker.baseFile);
  return isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
}

/** A legacy tool (1.2–1.4 list entry) as the 1.5+ tool component: its vendor is the component's group. */
function toolComponent(tool: unknown): Record<string, unknown> | undefined {
  if (!isRecord(tool)) return undefined;
  const out: Record<string, unknown> = { type: 'application' };
  if (typeof tool.vendor === 'string') out.group = tool.vendor;
  out.name = typeof tool.name === 'string' ? tool.name : '';
  for (const key of ['version', 'hashes', 'externalReferences']) if (tool[key] !== undefined) out[key] = tool[key];
  return out;
}

/** A 1.5+ tool component or service as a legacy tool (the CycloneDX library's reading: group → vendor). */
function legacyTool(element: unknown): Record<string, unknown> | undefined {
  if (!isRecord(element)) return undefined;
  const out: Record<string, unknown> = {};
  if (typeof element.group === 'string') out.vendor = element.group;
  for (const key of ['name', 'version', 'hashes', 'externalReferences'])
    if (element[key] !== undefined) out[key] = element[key];
  return out;
}

/**
 * The moves between places of the document that the specification defines between versions, made before the
 * walk (which then fits what they produce like everything else).
 */
function moveMembers(walker: Walker, document: Record<string, unknown>, target: SpecFormat): Record<string, unknown> {
  const root = plain(document);
  const rootProperties = definitionRootProperties(walker);
  const metadataProperties = definitionProperties(walker, 'metadata');
  const componentProperties = definitionProperties(walker, 'component');
  let metadata = isRecord(root.metadata) ? plain(root.metadata) : undefined;
  // Document properties before 1.5 are metadata properties.
  if (Array.isArray(root.properties) && !Object.hasOwn(rootProperties, 'properties')) {
    metadata ??= {};
    const moved = [...arrayOf(metadata.properties), ...root.properties];
    walker.converted.push({
      pointer: '/properties',
      from: root.properties,
      to: root.properties,
      movedTo: '/metadata/properties',
    });
    metadata.properties = moved;
    delete root.properties;
  }
  if (metadata !== undefined) {
    const tools = metadata.tools;
    if (target.toolsAsComponents && Array.isArray(tools)) {
      const components = tools.map(toolComponent).filter((c) => c !== undefined);
      metadata.tools = { components };
      walker.converted.push({ pointer: '/metadata/tools', from: tools, to: metadata.tools });
    } else if (!target.toolsAsComponents && isRecord(tools)) {
      const legacy = [...arrayOf(tools.components), ...arrayOf(tools.services)]
        .map(legacyTool)
        .filter((t) => t !== undefined);
      metadata.tools = legacy;
      walker.converted.push({ pointer: '/metadata/tools', from: tools, to: legacy });
    }
    const manufacture = metadata.manufacture;
    const described = isRecord(metadata.component) ? metadata.component : undefined;
    const componentHasManufacturer = Object.hasOwn(componentProperties, 'manufacturer');
    // 1.5's manufacture is the root component's manufacturer in 1.6+ (not metadata.manufacturer, the BOM's maker).
    if (
      manufacture !== undefined &&
      componentHasManufacturer &&
      described !== undefined &&
      described.manufacturer === undefined
    ) {
      metadata.component = { ...described, manufacturer: manufacture };
      delete metadata.manufacture;
      walker.converted.push({
        pointer: '/metadata/manufacture',
        from: manufacture,
        to: manufacture,
        movedTo: '/metadata/component/manufacturer',
      });
    } else if (
      described !== undefined &&
      described.manufacturer !== undefined &&
      !componentHasManufacturer &&
      Object.hasOwn(metadataProperties, 'manufacture') &&
      manufacture === undefined
    ) {
      const { manufacturer, ...rest } = described;
      metadata.component = rest;
      metadata.manufacture = manufacturer;
      walker.converted.push({
        pointer: '/metadata/component/manufacturer',
        from: manufacturer,
        to: manufacturer,
        movedTo: '/metadata/manufacture',
      });
    }
    root.metadata = metadata;
  }
  return root;
}

function definitionRootProperties(walker: Walker): Record<string, unknown> {
  const schema = loadSchemaFile(walker.baseFile);
  return isRecord(schema.properties) ? schema.properties : {};
}

/** The document's identity members as the target states them. */
function setIdentity(walker: Walker, document: Record<string, unknown>, source: Source, target: SpecFormat): void {
  const change = (key: string, to: unknown) => {
    const from = document[key];
    if (from === to) return;
    walker.converted.push({ pointer: `/${key}`, from, to });
    setMember(document, key, to);
  };
  if (document.$schema !== undefined && document.$schema !== target.schemaAddress) {
    // An address by which the target's own schema names itself stays.
    const accepted = target.schemaEnum ?? [];
    if (source.specVersion !== target.specVersion || !accepted.includes(String(document.$schema)))
      change('$schema', target.schemaAddress);
  }
  if (!target.bomFormats.includes(String(document.bomFormat))) change('bomFormat', target.bomFormats[0]);
  change('specVersion', target.specVersion);
}

/**
 * `document` as a document of `targetSpecVersion`: every member the target lacks dropped and listed, every value
 * it cannot carry converted where the specification says how (and listed), else dropped. Throws E_CONVERT when
 * nothing valid can be written (a family change, a conversion down to XML-only 1.0/1.1, a member the target
 * requires that cannot be made), E_USAGE for an unknown version, E_INPUT for a document that is not a BOM. The
 * result still needs validating (references to a dropped element, say): the CLI refuses to write an invalid one.
 */
export function convertVersion(
  document: unknown,
  targetSpecVersion: string,
  options: ConvertOptions = {},
): VersionConversion {
  const source = sourceOf(document);
  const target = targetOf(source, targetSpecVersion);
  const label = `${target.family === 'cbom' ? 'CBOM' : 'CycloneDX'} ${target.specVersion}`;
  const input = document as Record<string, unknown>;
  let gone = new Set<string>();
  let inputRefs: Set<string> | undefined;
  // An element dropped may be referred to: the references go too, which takes a second walk (rarely a third).
  for (;;) {
    const walker = new Walker(
      label,
      `${target.id}.json`,
      options.keepSignatures !== true && source.specVersion !== target.specVersion,
      gone,
    );
    const moved = moveMembers(walker, input, target);
    setIdentity(walker, moved, source, target);
    const fitted = walker.fit(moved, loadSchemaFile(walker.baseFile), walker.baseFile, ROOT);
    if (fitted === FAIL || !isRecord(fitted))
      throw new BomwrightError('E_CONVERT', `Cannot convert to ${label}: ${walker.failureReason(ROOT)}`);
    const result = { document: fitted, dropped: walker.dropped, converted: walker.converted };
    if (walker.dropped.length === 0 && walker.converted.every((c) => c.pointer !== '/metadata/tools')) return result;
    inputRefs ??= bomRefs(input);
    const kept = bomRefs(fitted);
    const lost = [...inputRefs].filter((ref) => !kept.has(ref) && !gone.has(ref));
    if (lost.length === 0) return result;
    gone = new Set([...gone, ...lost]);
  }
}

/** Every bom-ref defined in a document (signatures hold none). */
function bomRefs(document: unknown): Set<string> {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) visit(item);
    else if (isRecord(node))
      for (const key of Object.keys(node)) {
        const value = node[key];
        if (key === 'bom-ref') {
          if (typeof value === 'string') found.add(value);
        } else if (key !== 'signature' && value !== null && typeof value === 'object') visit(value);
      }
  };
  visit(document);
  return found;
}
