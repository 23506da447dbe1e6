/**
 * Version conversion over the data model (the JSON form of CycloneDX): a document of one spec version as a
 * document of another, up or down between 1.2 and 1.7 (XML-only 1.0 and 1.1 upward), and CBOM 1.4-cbom-1.0 as
 * itself or as CycloneDX (through 1.6, convert-cbom.ts). What the target version lacks is read from its official JSON schema by walking the document against it
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
import { escapeSegment, toPointer } from '../json/pointer.js';
import { display, isRecord, setMember } from '../values.js';
import { cbomAsCycloneDx } from './convert-cbom.js';
import { loadSchemaFile, type SchemaObject } from './convert-schemas.js';
import { CODED_PATTERNS } from '../validate/schema-patterns.js';
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
  /**
   * Drop JSF signatures even when the version stays (each listed): a conversion to XML, where a signature is an
   * XML signature, not a JSF one.
   */
  dropSignatures?: boolean;
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
  // A CBOM goes to CycloneDX (1.6's crypto model is CBOM's, upstreamed); nothing converts to IBM's CBOM.
  if (format.family !== source.family && !(source.family === 'cbom' && format.family === 'cyclonedx'))
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

/** A $ref's target: its schema node, the file it is in, and its definition name (for the hooks). */
interface Resolved {
  schema: unknown;
  file: string;
  name: string | undefined;
}

const resolvedRefs = new Map<string, Resolved>();

/** A `$ref` (within `file`, or to another schema file) resolved; read once per process. */
function resolveRef(ref: string, file: string): Resolved {
  const key = `${file}\u0000${ref}`;
  let found = resolvedRefs.get(key);
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
    const name = segments.length === 2 && segments[0] === 'definitions' ? segments[1] : undefined;
    found = { schema: node, file: targetFile, name };
    resolvedRefs.set(key, found);
  }
  return found;
}

const patternCache = new Map<string, RegExp | null>();

function compilePattern(pattern: string): RegExp | null {
  let compiled = patternCache.get(pattern);
  if (compiled === undefined) {
    try {
      compiled = new RegExp(pattern, 'u');
    } catch {
      // A pattern JavaScript cannot read is left to the validator, which runs on the result.
      compiled = null;
    }
    patternCache.set(pattern, compiled);
  }
  return compiled;
}

/** A schema pattern's test: the validators' own code for the hot ones, else the pattern compiled. */
function patternTest(pattern: string): ((text: string) => boolean) | null {
  const coded = Object.hasOwn(CODED_PATTERNS, pattern) ? CODED_PATTERNS[pattern] : undefined;
  if (coded !== undefined) return coded;
  const regex = compilePattern(pattern);
  return regex === null ? null : (text) => regex.test(text);
}

const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
const enumKey = (value: unknown): unknown =>
  value !== null && typeof value === 'object' ? JSON.stringify(value) : value;

/**
 * One schema node read once into fixed fields: a large document visits each node thousands of times, and the
 * parsed schema's objects (hundreds of differently shaped members) are slow to look members up in.
 */
class Plan {
  readonly never: boolean;
  readonly ref: string | undefined;
  readonly allOf: Plan[] | undefined;
  readonly branches: Plan[] | undefined;
  readonly enumValues: Set<unknown> | undefined;
  readonly constText: string | undefined;
  readonly constValue: unknown;
  readonly type: unknown;
  readonly properties: Map<string, Plan> | undefined;
  readonly patterns: [RegExp, Plan][] | undefined;
  /** undefined: any member; false: none beyond the named ones. */
  readonly additional: Plan | false | undefined;
  readonly required: readonly string[];
  /** Nothing to check on an object's members. */
  readonly open: boolean;
  readonly items: Plan | Plan[] | undefined;
  readonly additionalItems: Plan | false | undefined;
  readonly minItems: number | undefined;
  readonly maxItems: number | undefined;
  /** The pattern's test (null: a pattern JavaScript cannot read, left to the validator). */
  readonly pattern: ((text: string) => boolean) | null | undefined;
  readonly patternText: string | undefined;
  readonly minLength: number | undefined;
  readonly maxLength: number | undefined;
  readonly minimum: number | undefined;
  readonly maximum: number | undefined;
  readonly exclusiveMinimum: number | undefined;
  readonly exclusiveMaximum: number | undefined;
  private target: { plan: Plan; name: string | undefined } | undefined;
  private signatures: string[] | undefined;

  constructor(
    readonly node: unknown,
    readonly file: string,
  ) {
    const schema = isRecord(node) ? node : {};
    this.never = node === false;
    this.ref = typeof schema.$ref === 'string' ? schema.$ref : undefined;
    const plans = (list: unknown) => (Array.isArray(list) ? list.map((s) => planOf(s, file)) : undefined);
    this.allOf = plans(schema.allOf);
    this.branches = plans(schema.oneOf) ?? plans(schema.anyOf);
    this.enumValues = Array.isArray(schema.enum) ? new Set(schema.enum.map(enumKey)) : undefined;
    this.constValue = schema.const;
    this.constText = Object.hasOwn(schema, 'const') ? JSON.stringify(schema.const) : undefined;
    this.type = schema.type;
    const properties = isRecord(schema.properties) ? schema.properties : undefined;
    this.properties =
      properties === undefined
        ? undefined
        : new Map(Object.keys(properties).map((key) => [key, planOf(properties[key], file)]));
    const patterns = isRecord(schema.patternProperties) ? schema.patternProperties : undefined;
    this.patterns =
      patterns === undefined
        ? undefined
        : Object.keys(patterns).flatMap((p) => {
            const regex = compilePattern(p);
            return regex === null ? [] : [[regex, planOf(patterns[p], file)] as [RegExp, Plan]];
          });
    const additional = schema.additionalProperties;
    this.additional = additional === false ? false : isRecord(additional) ? planOf(additional, file) : undefined;
    this.required = Array.isArray(schema.required)
      ? schema.required.filter((key): key is string => typeof key === 'string')
      : [];
    this.open = this.properties === undefined && this.patterns === undefined && this.additional === undefined;
    this.items = Array.isArray(schema.items)
      ? schema.items.map((s) => planOf(s, file))
      : schema.items === undefined || schema.items === true
        ? undefined
        : planOf(schema.items, file);
    const additionalItems = schema.additionalItems;
    this.additionalItems =
      additionalItems === false ? false : isRecord(additionalItems) ? planOf(additionalItems, file) : undefined;
    this.minItems = num(schema.minItems);
    this.maxItems = num(schema.maxItems);
    this.patternText = typeof schema.pattern === 'string' ? schema.pattern : undefined;
    this.pattern = this.patternText === undefined ? undefined : patternTest(this.patternText);
    this.minLength = num(schema.minLength);
    this.maxLength = num(schema.maxLength);
    this.minimum = num(schema.minimum);
    this.maximum = num(schema.maximum);
    this.exclusiveMinimum = num(schema.exclusiveMinimum);
    this.exclusiveMaximum = num(schema.exclusiveMaximum);
  }

  /** The $ref's target (draft-07: a $ref's siblings are ignored). */
  resolved(): { plan: Plan; name: string | undefined } {
    if (this.target === undefined) {
      const found = resolveRef(this.ref!, this.file);
      this.target = { plan: planOf(found.schema, found.file), name: found.name };
    }
    return this.target;
  }

  /** The members that are JSF signatures (their schema is, through its $refs, the JSF signature's). */
  signatureKeys(): string[] {
    if (this.signatures === undefined) {
      this.signatures = [];
      for (const [key, plan] of this.properties ?? []) {
        let at: Plan | undefined = plan;
        for (let hops = 0; at?.ref !== undefined && hops < 8; hops++) {
          if (SIGNATURE_REF.test(at.ref)) {
            this.signatures.push(key);
            break;
          }
          at = at.resolved().plan;
        }
      }
    }
    return this.signatures;
  }

  /** The schema node of a member, through its $ref (for a required member's default). */
  memberNode(key: string): unknown {
    let plan = this.properties?.get(key);
    if (plan?.ref !== undefined) plan = plan.resolved().plan;
    return plan?.node;
  }
}

const plans = new WeakMap<object, Plan>();
const ANY_PLANS = new Map<string, Plan>();

/** The plan of a schema node (a node belongs to one file, so one plan serves every walk). */
function planOf(node: unknown, file: string): Plan {
  if (node === null || typeof node !== 'object') {
    const key = `${String(node)}\u0000${file}`;
    let plan = ANY_PLANS.get(key);
    if (plan === undefined) ANY_PLANS.set(key, (plan = new Plan(node, file)));
    return plan;
  }
  let plan = plans.get(node);
  if (plan === undefined) {
    plan = new Plan(node, file);
    plans.set(node, plan);
  }
  return plan;
}

class Walker {
  readonly dropped: DroppedMember[] = [];
  readonly converted: ConvertedValue[] = [];
  failure: { where: Where | undefined; reason: string } = { where: ROOT, reason: '' };
  /** Whether a move between places (not a drop) left an element behind. */
  refsLost = false;

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

  /** A definition of the target's schema. */
  definition(name: string): SchemaObject {
    const { schema } = resolveRef(`#/definitions/${name}`, this.baseFile);
    return isRecord(schema) ? schema : {};
  }

  private withoutSignatures(value: Record<string, unknown>, plan: Plan, where: Where | undefined) {
    let out: Record<string, unknown> | undefined;
    for (const key of plan.signatureKeys()) {
      if (!Object.hasOwn(value, key)) continue;
      out ??= plain(value);
      delete out[key];
      this.drop(child(where, key), 'the conversion changes what it signs; sign the converted document');
    }
    return out ?? value;
  }

  /** `value` as the schema takes it (members dropped or converted on the way), or FAIL. */
  fit(value: unknown, plan: Plan, where: Where | undefined): Fitted {
    if (plan.never) return this.fail(where, `${this.label} allows nothing here`);
    if (plan.ref !== undefined) {
      const { plan: target, name } = plan.resolved();
      const hook = name === undefined || !Object.hasOwn(HOOKS, name) ? undefined : HOOKS[name];
      const input = hook !== undefined && isRecord(target.node) ? hook(this, value, target.node, where) : value;
      return this.fit(input, target, where);
    }
    let current = value;
    // Before the branches, which may require a signature that is no longer there.
    if (this.dropSignatures && plan.properties !== undefined && isRecord(current))
      current = this.withoutSignatures(current, plan, where);
    if (plan.allOf !== undefined)
      for (const part of plan.allOf) {
        current = this.fit(current, part, where);
        if (current === FAIL) return FAIL;
      }
    if (plan.branches !== undefined) {
      current = this.branch(current, plan.branches, where);
      if (current === FAIL) return FAIL;
    }
    if (plan.enumValues !== undefined && !plan.enumValues.has(enumKey(current)))
      return this.fail(where, `${this.label} has no value ${display(current)} here`);
    if (plan.constText !== undefined && plan.constText !== JSON.stringify(current))
      return this.fail(where, `${this.label} takes only ${display(plan.constValue)} here`);
    const type = plan.type;
    if (type !== undefined && !matchesType(current, type))
      return this.fail(
        where,
        `${this.label} takes ${Array.isArray(type) ? type.join(' or ') : String(type)} here, not ${typeName(current)}`,
      );
    if (typeof current === 'string') return this.string(current, plan, where);
    if (current === null || typeof current !== 'object') {
      if (typeof current === 'number') return this.number(current, plan, where);
      return current;
    }
    if (Array.isArray(current)) return this.array(current, plan, where);
    const fitted = this.object(current as Record<string, unknown>, plan, where);
    // The branches judged the object before its own members were fitted: one they required may be gone since.
    if (fitted === FAIL || fitted === current || (plan.branches === undefined && plan.allOf === undefined))
      return fitted;
    for (const part of plan.allOf ?? []) if (this.fit(fitted, part, where) === FAIL) return FAIL;
    return plan.branches === undefined ? fitted : this.branch(fitted, plan.branches, where);
  }

  /** oneOf/anyOf: the branch that takes the value with the fewest changes (none: the first that takes it as is). */
  private branch(value: unknown, branches: readonly Plan[], where: Where | undefined): Fitted {
    const d0 = this.dropped.length;
    const c0 = this.converted.length;
    let best: { value: unknown; dropped: DroppedMember[]; converted: ConvertedValue[] } | undefined;
    let failure: { where: Where | undefined; reason: string } | undefined;
    for (const candidate of branches) {
      const out = this.fit(value, candidate, where);
      if (this.dropped.length === d0 && this.converted.length === c0) {
        if (out !== FAIL) return out;
        failure ??= this.failure;
        continue;
      }
      const dropped = this.dropped.splice(d0);
      const converted = this.converted.splice(c0);
      if (out === FAIL) {
        failure ??= this.failure;
        continue;
      }
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

  private object(value: Record<string, unknown>, plan: Plan, where: Where | undefined): Fitted {
    const required = plan.required;
    // Nothing to check (an allOf part that only asserts, say): the walk of its members would find nothing either.
    if (plan.open && required.length === 0 && this.gone.size === 0) return value;
    const properties = plan.properties;
    let out: Record<string, unknown> | undefined;
    const copy = () => (out ??= plain(value));
    for (const key of Object.keys(value)) {
      const member = value[key];
      let sub = properties?.get(key);
      if (sub === undefined && plan.patterns !== undefined)
        for (const [regex, patterned] of plan.patterns)
          if (regex.test(key)) {
            sub = patterned;
            break;
          }
      if (sub === undefined) {
        if (plan.additional === false) {
          delete copy()[key];
          this.drop(child(where, key), `${this.label} has no such member`);
          continue;
        }
        // Any value: nothing to fit, unless it may hold references to dropped elements.
        if (plan.additional === undefined && this.gone.size === 0) continue;
        sub = plan.additional ?? planOf(true, plan.file);
      }
      const at = child(where, key);
      const fitted =
        this.gone.size > 0 && REFERENCE_MEMBERS.has(key) ? this.reference(member, sub, at) : this.fit(member, sub, at);
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
      if (Object.hasOwn(out ?? value, key)) continue;
      const fill = requiredFill(plan.memberNode(key));
      if (fill === undefined) return this.fail(where, `${this.label} requires ${key} here`);
      setMember(copy(), key, fill);
      this.convert(child(where, key), undefined, fill);
    }
    return out ?? value;
  }

  /** A reference member (one name or a list of names) without the references to dropped elements. */
  private reference(value: unknown, plan: Plan, where: Where | undefined): Fitted {
    const reason = (ref: string) => `it refers to ${JSON.stringify(ref)}, an element the conversion drops`;
    if (typeof value === 'string' && this.gone.has(value)) return this.fail(where, reason(value));
    if (!Array.isArray(value) || !value.some((item) => typeof item === 'string' && this.gone.has(item)))
      return this.fit(value, plan, where);
    const kept = value.filter((item, i) => {
      if (typeof item !== 'string' || !this.gone.has(item)) return true;
      this.drop(child(where, i), reason(item));
      return false;
    });
    // The list's own items are fitted at their new places: none of them is dropped here again.
    return this.fit(kept, plan, where);
  }

  private array(value: unknown[], plan: Plan, where: Where | undefined): Fitted {
    const items = plan.items;
    let out: unknown[] | undefined;
    // Items without a schema are taken as they are.
    for (let i = 0; items !== undefined && i < value.length; i++) {
      const item = value[i];
      const at = child(where, i);
      const sub = Array.isArray(items) ? (i < items.length ? items[i] : plan.additionalItems) : items;
      const fitted =
        sub === false
          ? this.fail(at, `${this.label} takes no more items here`)
          : sub === undefined
            ? item
            : this.fit(item, sub, at);
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
    if (plan.minItems !== undefined && result.length < plan.minItems)
      return this.fail(where, `${this.label} needs at least ${plan.minItems} item(s) here`);
    if (plan.maxItems !== undefined && result.length > plan.maxItems)
      return this.fail(where, `${this.label} takes at most ${plan.maxItems} item(s) here`);
    return result;
  }

  private string(value: string, plan: Plan, where: Where | undefined): Fitted {
    if (plan.pattern != null && !plan.pattern(value))
      return this.fail(where, `${this.label} does not take ${display(value)} here (pattern ${plan.patternText})`);
    // Lengths in code points, counted only when the UTF-16 length (one or two units each) leaves it open.
    const min = plan.minLength;
    const max = plan.maxLength;
    if ((min !== undefined && value.length < 2 * min) || (max !== undefined && value.length > max)) {
      const length = [...value].length;
      if (min !== undefined && length < min)
        return this.fail(where, `${this.label} takes at least ${min} characters here`);
      if (max !== undefined && length > max)
        return this.fail(where, `${this.label} takes at most ${max} characters here`);
    }
    return value;
  }

  private number(value: number, plan: Plan, where: Where | undefined): Fitted {
    const outside =
      (plan.minimum !== undefined && value < plan.minimum) ||
      (plan.maximum !== undefined && value > plan.maximum) ||
      (plan.exclusiveMinimum !== undefined && value <= plan.exclusiveMinimum) ||
      (plan.exclusiveMaximum !== undefined && value >= plan.exclusiveMaximum);
    return outside ? this.fail(where, `${this.label} does not take ${value} here (out of bounds)`) : value;
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
function requiredFill(node: unknown): unknown {
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
  // What an operand of one joint expression cannot carry (a licence's text or url, an acknowledgement…) is listed.
  const lost = (at: Where, record: Record<string, unknown>, kept: string) => {
    for (const key of Object.keys(record))
      if (key !== kept)
        walker.drop(child(at, key), `one ${walker.label} expression of several licences cannot carry it`);
  };
  value.forEach((item, i) => {
    if (!isRecord(item)) return;
    const license = isRecord(item.license) ? item.license : undefined;
    if (typeof item.expression === 'string') {
      operands.push(operand(item.expression));
      lost(child(where, i), item, 'expression');
    } else if (license !== undefined && typeof license.id === 'string') {
      operands.push(license.id);
      lost(child(where, i), item, 'license');
      lost(child(child(where, i), 'license'), license, 'id');
    } else
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
  // An author text is names only: an author's email, phone or bom-ref is listed.
  value.authors.forEach((author, i) => {
    if (isRecord(author))
      for (const key of Object.keys(author))
        if (key !== 'name')
          walker.drop(child(child(child(where, 'authors'), i), key), `a ${walker.label} component's author is a name`);
  });
  return out;
}

const HOOKS: Readonly<Record<string, Hook>> = { licenseChoice, component };

/** A definition's member schemas in the target (after $ref). */
function definitionProperties(walker: Walker, name: string): Record<string, unknown> {
  const schema = walker.definition(name);
  return isRecord(schema.properties) ? schema.properties : {};
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
function legacyTool(walker: Walker, element: unknown, pointer: string): Record<string, unknown> | undefined {
  if (!isRecord(element)) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(element)) {
    if (key === 'group' && typeof element.group === 'string') out.vendor = element.group;
    else if (LEGACY_TOOL_MEMBERS.has(key)) out[key] = element[key];
    // A tool component is an application: that much a legacy tool says by being one.
    else if (key !== 'type' || element.type !== 'application')
      walker.dropped.push({
        pointer: `${pointer}/${escapeSegment(key)}`,
        reason: `a ${walker.label} tool has no such member`,
      });
  }
  return out;
}

/** What a 1.2–1.4 tool holds besides its vendor. */
const LEGACY_TOOL_MEMBERS = new Set(['name', 'version', 'hashes', 'externalReferences']);

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
      const legacy = [
        ...arrayOf(tools.components).map((c, i) => legacyTool(walker, c, `/metadata/tools/components/${i}`)),
        ...arrayOf(tools.services).map((c, i) => legacyTool(walker, c, `/metadata/tools/services/${i}`)),
      ].filter((t) => t !== undefined);
      metadata.tools = legacy;
      walker.converted.push({ pointer: '/metadata/tools', from: tools, to: legacy });
      // A legacy tool has no bom-ref: references to a tool component or service have nothing left to name.
      if (bomRefs(tools).size > 0) walker.refsLost = true;
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
  // The official 1.2–1.4 schemas require a version (the library's copies do not say so); it defaults to 1.
  if (target.versionRequired && document.version === undefined) change('version', 1);
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
  if (source.family === 'cbom' && target.family === 'cyclonedx') {
    // Through CycloneDX 1.6 (convert-cbom.ts), then on to the target like any 1.6 document: the lists of both steps.
    const first = cbomAsCycloneDx(document as Record<string, unknown>);
    const rest = convertVersion(first.document, targetSpecVersion, options);
    return {
      document: rest.document,
      dropped: [...first.dropped, ...rest.dropped],
      converted: [...first.converted, ...rest.converted.filter((c) => c.pointer !== '/specVersion')],
    };
  }
  const label = `${target.family === 'cbom' ? 'CBOM' : 'CycloneDX'} ${target.specVersion}`;
  const input = document as Record<string, unknown>;
  let gone = new Set<string>();
  let inputRefs: Set<string> | undefined;
  // An element dropped may be referred to: the references go too, which takes a second walk (rarely a third).
  for (;;) {
    const walker = new Walker(
      label,
      target.baseSchema,
      options.dropSignatures === true || (options.keepSignatures !== true && source.specVersion !== target.specVersion),
      gone,
    );
    const moved = moveMembers(walker, input, target);
    setIdentity(walker, moved, source, target);
    // CBOM converts only to itself (its schema is CycloneDX 1.4's with the project's overlay, which is not shipped):
    // nothing to fit that the document's own validation would not refuse.
    if (target.overlay !== undefined) return { document: moved, dropped: walker.dropped, converted: walker.converted };
    const fitted = walker.fit(moved, planOf(loadSchemaFile(walker.baseFile), walker.baseFile), ROOT);
    if (fitted === FAIL || !isRecord(fitted))
      throw new BomwrightError('E_CONVERT', `Cannot convert to ${label}: ${walker.failureReason(ROOT)}`);
    // The official 1.2–1.4 schemas require the version their library copies leave optional.
    const version = walker.dropped.find((d) => d.pointer === '/version');
    if (target.versionRequired && version !== undefined)
      throw new BomwrightError('E_CONVERT', `Cannot convert to ${label}: ${version.reason} (at /version)`);
    const result = { document: fitted, dropped: walker.dropped, converted: walker.converted };
    if (walker.dropped.length === 0 && !walker.refsLost) return result;
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
