/**
 * Runs profiles over a parsed document: each unmet requirement becomes an ordinary diagnostic
 * (`profile/<name>/<id>`, MUST → error, SHOULD → warning) at the component or member that falls short. The
 * component set and the dependency graph are gathered once per document and shared by every profile.
 */
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { escapeSegment } from '../../json/pointer.js';
import { MAX_DEPTH } from '../../json/scan.js';
import { isRecord, own, truncate } from '../../values.js';
import { isIdnEmail } from '../iri.js';
import { isDateTime } from '../rfc3339.js';
import { profileLibraries } from './libraries.js';
import {
  HASH_STRENGTH,
  type AppliesTo,
  type Check,
  type DenyEntry,
  type Path,
  type Paths,
  type Profile,
  type Requirement,
} from './model.js';
import { checkLicences, isValidLicenceEntry, licenceEntryFault, licenceList } from './spdx.js';
import { parseVersionRange, schemeOf, type VersionRange, type VersionScheme } from './versions.js';

/** How one requirement fared in one document. */
export interface RequirementResult {
  id: string;
  level: 'MUST' | 'SHOULD';
  clause: string;
  message: string;
  hint: string;
  /** Subjects (components, or the document) that fall short. */
  unmet: number;
  /** Where, for the first few. */
  pointers: string[];
  /** What is there, for each of `pointers`: the component's `name@version`, or '' for the document. */
  subjects: string[];
}

/** A profile's verdict on one document. */
/** Which profile was applied, and which version of its rules: what every report names a profile by. */
export type ProfileIdentity = Pick<ProfileResult, 'name' | 'title' | 'version' | 'digest' | 'superseded' | 'source'>;

/** A profile's identity, from the profile or from a result of it (optional members only where present). */
export function profileIdentity(profile: ProfileIdentity): ProfileIdentity {
  return {
    name: profile.name,
    title: profile.title,
    ...(profile.version === undefined ? {} : { version: profile.version }),
    digest: profile.digest,
    ...(profile.superseded === undefined ? {} : { superseded: profile.superseded }),
    ...(profile.source === undefined ? {} : { source: profile.source }),
  };
}

export interface ProfileResult {
  name: string;
  title: string;
  version?: string;
  /** The profile's {@link Profile.digest}: which rules were applied. */
  digest: string;
  superseded?: string;
  source?: { title: string; url?: string };
  /** No MUST requirement is unmet. */
  passed: boolean;
  components: number;
  requirements: RequirementResult[];
}

/**
 * At most this many diagnostics per requirement and document; the last one listed carries the number left out
 * (`unlisted`), so every count counts them all.
 */
const MAX_FINDINGS_PER_REQUIREMENT = 100;
const LISTED_POINTERS = 20;

/**
 * A component or the document. Its pointer is built only when a finding is listed: a 20,000-component BOM would
 * otherwise build 20,000 strings per run for the few dozen findings it shows.
 */
interface Subject {
  record: Record<string, unknown>;
  /** The pointer of the array holding the subject (`/components`), or the subject's own when `index` is -1. */
  base: string;
  index: number;
}

function pointerOfSubject(subject: Subject): string {
  return subject.index < 0 ? subject.base : `${subject.base}/${subject.index}`;
}

interface Failure {
  /** Where, relative to the subject (the requirement's `at` when absent). */
  at?: readonly (string | number)[];
  detail?: string;
}
type Outcome = true | Failure;
const FAIL: Failure = {};
const NONE: readonly unknown[] = [];

interface Graph {
  unresolved: readonly { pointer: string; ref: string }[];
  /** Whether a dependency entry names the primary component's bom-ref (without one, it depends on nothing). */
  primaryListed: boolean;
}

/** What the rules' walk of the document (document-index.ts) found, which the graph can take instead of its own. */
interface IndexedRefs {
  /** Every string bom-ref outside signatures, once each. */
  bomRefs: ReadonlySet<string>;
  /** Second and later definitions of a bom-ref. */
  duplicateBomRefs: readonly unknown[];
  /** -1 when the value nests deeper than the walk went (or has inherited members): then nothing is taken. */
  members: number;
  /**
   * Each dependency ref and dependsOn entry not among `bomRefs`, in document order, from the rules' check of the
   * references (checks/references.ts), when it ran.
   */
  misses?: readonly { pointer: string; ref: string }[];
}

/** The document's facts the requirements share, gathered on first use. */
class DocumentFacts {
  readonly components: Subject[] = [];
  readonly primary: Subject | undefined;
  private graph?: Graph;
  private edges?: Map<string, readonly unknown[]>;
  private reached?: Set<string>;
  readonly specVersion: number | undefined;

  constructor(
    readonly document: Record<string, unknown>,
    private readonly indexed?: IndexedRefs,
  ) {
    const metadata = own(document, 'metadata');
    const primary = isRecord(metadata) ? own(metadata, 'component') : undefined;
    if (isRecord(primary)) {
      this.primary = { record: primary, base: '/metadata/component', index: -1 };
      this.collect(this.primary, 0);
    }
    const list = own(document, 'components');
    if (Array.isArray(list)) this.collectList(list, '/components', 0);
    const version = own(document, 'specVersion');
    const match = typeof version === 'string' ? /^(\d+)\.(\d+)/.exec(version) : null;
    this.specVersion = match === null ? undefined : Number(match[1]) * 1000 + Number(match[2]);
  }

  private collect(subject: Subject, depth: number): void {
    this.components.push(subject);
    const nested = own(subject.record, 'components');
    if (Array.isArray(nested) && depth < MAX_DEPTH)
      this.collectList(nested, `${pointerOfSubject(subject)}/components`, depth + 1);
  }

  private collectList(list: readonly unknown[], base: string, depth: number): void {
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      if (isRecord(item)) this.collect({ record: item, base, index: i }, depth);
    }
  }

  /** The primary component's string bom-ref. */
  primaryRef(): string | undefined {
    const ref = this.primary === undefined ? undefined : own(this.primary.record, 'bom-ref');
    return typeof ref === 'string' ? ref : undefined;
  }

  private sameRefs?: boolean;

  /** Whether the rules' bom-ref set is the components' (see {@link componentRefs}). */
  private indexedRefsAreComponents(): boolean {
    if (this.sameRefs !== undefined) return this.sameRefs;
    const indexed = this.indexed;
    if (indexed === undefined || indexed.members === -1) return (this.sameRefs = false);
    const components = this.components;
    let count = 0;
    for (let i = 0; i < components.length; i++) if (typeof own(components[i]!.record, 'bom-ref') === 'string') count++;
    return (this.sameRefs = count === indexed.bomRefs.size + indexed.duplicateBomRefs.length);
  }

  /**
   * The components' bom-refs. When every string bom-ref the rules' walk found is a component's (as many
   * components with one as bom-refs in the document, and the components are among the places that walk
   * visited), they are the same set, and the walk's is taken rather than hashing every ref again.
   */
  private componentRefs(): ReadonlySet<string> {
    if (this.indexedRefsAreComponents()) return this.indexed!.bomRefs;
    const components = this.components;
    const refs = new Set<string>();
    for (let i = 0; i < components.length; i++) {
      const ref = own(components[i]!.record, 'bom-ref');
      if (typeof ref === 'string') refs.add(ref);
    }
    return refs;
  }

  /**
   * Component bom-refs and each dependency ref or dependsOn entry that names no component (non-string entries
   * are skipped), in one pass over the dependencies, which also notes whether the primary component has an entry.
   */
  dependencyGraph(): Graph {
    if (this.graph !== undefined) return this.graph;
    const primaryRef = this.primaryRef();
    let primaryListed = false;
    const dependencies = own(this.document, 'dependencies');
    const misses = this.indexed?.misses;
    if (misses !== undefined && this.indexedRefsAreComponents()) {
      // The rules have looked every ref up in the same set: only the primary component's entry is left to find.
      if (Array.isArray(dependencies) && primaryRef !== undefined)
        for (let i = 0; i < dependencies.length && !primaryListed; i++) {
          const entry: unknown = dependencies[i];
          primaryListed = isRecord(entry) && entry.ref === primaryRef;
        }
      return (this.graph = { unresolved: misses, primaryListed });
    }
    const refs = this.componentRefs();
    const unresolved: { pointer: string; ref: string }[] = [];
    if (Array.isArray(dependencies)) {
      for (let i = 0; i < dependencies.length; i++) {
        const entry: unknown = dependencies[i];
        if (!isRecord(entry)) continue;
        const ref = entry.ref;
        if (typeof ref === 'string') {
          if (!refs.has(ref)) unresolved.push({ pointer: `/dependencies/${i}/ref`, ref });
          if (ref === primaryRef) primaryListed = true;
        }
        const on: readonly unknown[] = Array.isArray(entry.dependsOn) ? entry.dependsOn : NONE;
        for (let j = 0; j < on.length; j++) {
          const d = on[j];
          if (typeof d === 'string' && !refs.has(d))
            unresolved.push({ pointer: `/dependencies/${i}/dependsOn/${j}`, ref: d });
        }
      }
    }
    return (this.graph = { unresolved, primaryListed });
  }

  /**
   * The dependsOn entries of `ref` (of every entry for it: a ref listed twice, invalid but seen, gets both lists),
   * asked only along paths from the primary component. The map of every ref's entries is built only when the
   * primary component has one: without, nothing is reachable from it.
   */
  dependsOn(ref: string): readonly unknown[] {
    if (!this.dependencyGraph().primaryListed) return NONE;
    if (this.edges === undefined) {
      const edges = new Map<string, readonly unknown[]>();
      const dependencies = own(this.document, 'dependencies') as readonly unknown[];
      for (let i = 0; i < dependencies.length; i++) {
        const entry: unknown = dependencies[i];
        if (!isRecord(entry) || typeof entry.ref !== 'string') continue;
        // The document's own dependsOn arrays, not copies.
        const on: readonly unknown[] = Array.isArray(entry.dependsOn) ? entry.dependsOn : NONE;
        const before = edges.get(entry.ref);
        edges.set(entry.ref, before === undefined ? on : [...before, ...on]);
      }
      this.edges = edges;
    }
    return this.edges.get(ref) ?? NONE;
  }

  /** bom-refs on a dependsOn path from the primary component (iterative: no recursion on hostile graphs). */
  reachable(): Set<string> {
    if (this.reached !== undefined) return this.reached;
    const reached = new Set<string>();
    const start = this.primaryRef();
    if (start !== undefined) {
      const stack = [start];
      reached.add(start);
      while (stack.length > 0) {
        const targets = this.dependsOn(stack.pop()!);
        for (let i = 0; i < targets.length; i++) {
          const next = targets[i];
          if (typeof next === 'string' && !reached.has(next)) {
            reached.add(next);
            stack.push(next);
          }
        }
      }
    }
    return (this.reached = reached);
  }
}

type Test = (value: unknown) => boolean;

/** `test` on the value, or on any entry when it is an array (arrays in arrays too). */
function entered(value: unknown, test: Test): boolean {
  if (!Array.isArray(value)) return test(value);
  // Indexed, not for-of: until this is optimised, an iterator would be allocated on each of many thousand calls.
  for (let i = 0; i < value.length; i++) if (entered(value[i], test)) return true;
  return false;
}

/**
 * Whether some value at `path` below a subject meets `test`, entering arrays on the way and at the end; own
 * members only. Built once per check as a chain of closures, one per segment: this runs for every requirement on
 * every component, and builds nothing when it runs.
 */
function atPath(path: Path, test: Test): Test {
  const key = path[0]!;
  const next = path.length === 1 ? test : steps(path.slice(1), test);
  const undefinedMeets = next(undefined);
  // The first step of {@link steps}, which also enters an array given as the value (one call, not two, per value).
  const first: Test = (value) => {
    if (value === null || typeof value !== 'object') return false;
    if (Array.isArray(value)) return entered(value, first);
    const member = (value as Record<string, unknown>)[key];
    if (member === undefined) return undefinedMeets && Object.hasOwn(value, key);
    return Object.hasOwn(value, key) && (Array.isArray(member) ? entered(member, next) : next(member));
  };
  return first;
}

/** {@link atPath} on a value that is not an array (the subject's members read, arrays at them entered). */
function steps(path: Path, test: Test): Test {
  let step: Test = test;
  for (let i = path.length - 1; i >= 0; i--) {
    const key = path[i]!;
    const next = step;
    // What an own member holding undefined (only in a hand-built value) gets: decided here, not per subject.
    const undefinedMeets = next(undefined);
    // Never an array here: entered() has gone through them. The member is read first: most tests look for
    // members a component lacks, and then the own-member test (an inherited value must not count) is skipped.
    step = (value) => {
      if (value === null || typeof value !== 'object') return false;
      const member = (value as Record<string, unknown>)[key];
      if (member === undefined) return undefinedMeets && Object.hasOwn(value, key);
      // Arrays entered here rather than through a call for every member (most are not arrays).
      return Object.hasOwn(value, key) && (Array.isArray(member) ? entered(member, next) : next(member));
    };
  }
  return step;
}

const anything: Test = () => true;

/** Whether some value at the first of `paths` that holds any meets `test`. */
function someOf(paths: Paths, test: Test): Test {
  if (paths.length === 1) return atPath(paths[0]!, test);
  const holds = paths.map((path) => atPath(path, anything));
  const meets = paths.map((path) => atPath(path, test));
  return (value) => {
    for (let i = 0; i < holds.length; i++) if (holds[i]!(value)) return meets[i]!(value);
    return false;
  };
}

/** The array at `path` (a plain member chain), or none. */
function arrayAt(from: unknown, path: Path): readonly unknown[] {
  let node = from;
  for (const segment of path) {
    if (!isRecord(node) || !Object.hasOwn(node, segment)) return NONE;
    node = node[segment];
  }
  return Array.isArray(node) ? node : NONE;
}

const nonEmpty = (value: unknown): boolean =>
  typeof value === 'string'
    ? value.trim() !== ''
    : typeof value === 'number' || typeof value === 'boolean' || isRecord(value);

const isString = (value: unknown): value is string => typeof value === 'string';

/** An absolute URL: a scheme and a host. */
export function isAbsoluteUrl(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed.length > 4000) return false;
  const end = authorityEnd(trimmed);
  if (end < 0) return parsesWithHost(trimmed);
  // The verdict depends on the scheme and authority only: what follows (path, query, fragment) is never refused
  // by the URL parser. A BOM's URLs share a few hosts, so each `scheme://authority` is parsed once; the last one
  // is compared in place, without cutting it out of the URL.
  if (end === lastPrefix.length && trimmed.startsWith(lastPrefix)) return lastVerdict;
  const prefix = trimmed.slice(0, end);
  let verdict = urlPrefixes.get(prefix);
  if (verdict === undefined) {
    verdict = parsesWithHost(trimmed);
    if (urlPrefixes.size >= 10_000) urlPrefixes.clear();
    urlPrefixes.set(prefix, verdict);
  }
  lastPrefix = prefix;
  lastVerdict = verdict;
  return verdict;
}

const urlPrefixes = new Map<string, boolean>();
let lastPrefix = '';
let lastVerdict = false;

function parsesWithHost(url: string): boolean {
  try {
    return new URL(url).host !== '';
  } catch {
    return false;
  }
}

/**
 * The end of `scheme://authority` at the start of `url` when the authority is not empty and ends at `/`, `?`, `#`
 * or the end of the text, where the URL parser ends it whatever the scheme; -1 for anything else (spaces or
 * controls, a backslash, which special schemes read as a slash, non-ASCII text, an empty authority, after which
 * special schemes skip further slashes): those are parsed whole every time.
 */
function authorityEnd(url: string): number {
  let i = 0;
  let c = url.charCodeAt(0);
  if (!isAsciiLetter(c)) return -1;
  do c = url.charCodeAt(++i);
  while (isAsciiLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e);
  if (c !== 0x3a || url.charCodeAt(i + 1) !== 0x2f || url.charCodeAt(i + 2) !== 0x2f) return -1;
  const start = i + 3;
  for (i = start; i < url.length; i++) {
    c = url.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x23) break;
    if (c <= 0x20 || c >= 0x7f || c === 0x5c) return -1;
  }
  return i === start ? -1 : i;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** An e-mail address, or (within) one inside a text such as `Jane Doe <jane@example.com>`. */
function hasEmail(value: string, within: boolean): boolean {
  if (isIdnEmail(value.trim())) return true;
  if (!within) return false;
  return value
    .slice(0, 2000)
    .split(/[\s,;<>()]+/)
    .some((token) => token.includes('@') && isIdnEmail(token));
}

/**
 * A check as two functions: `test` answers met or not and builds nothing (it runs on every subject), `explain`
 * says where and why, and runs only for the findings that are listed (at most the cap per requirement).
 */
interface Compiled {
  test: Test;
  explain: (subject: unknown) => Failure;
}

/** A check whose failure says no more than the requirement's own `at`. */
const plain = (test: Test): Compiled => ({ test, explain: () => FAIL });

/** A check whose failure has its own place or reason: tested by the same function, explained by its result. */
function detailed(outcome: (subject: unknown) => Outcome): Compiled {
  return {
    test: (subject) => outcome(subject) === true,
    explain: (subject) => {
      const result = outcome(subject);
      return result === true ? FAIL : result;
    },
  };
}

/** A slot's value when the component's member is inherited, not its own (undefined when it has none). */
const ABSENT: unique symbol = Symbol('absent');

/** A check on the component whose members are in the slots ({@link Evaluator.enter}). */
type SlotTest = () => boolean;

class Evaluator {
  constructor(private readonly facts: DocumentFacts) {}

  private readonly functions = new WeakMap<Check, Compiled>();
  private readonly slotTests = new WeakMap<Check, SlotTest>();

  /**
   * The component being checked, and the members of it the checks read, each read once (not once per check that
   * reads it), by the keys in `slotKeys`: checks read them by index, not by name, which on objects of many shapes
   * would be a slow, megamorphic access each time.
   */
  private current: Record<string, unknown> = {};
  private readonly slotKeys: string[] = [];
  private readonly slotOf = new Map<string, number>();
  private readonly slots: unknown[] = [];

  private slot(key: string): number {
    let index = this.slotOf.get(key);
    if (index === undefined) {
      index = this.slotKeys.length;
      this.slotKeys.push(key);
      this.slotOf.set(key, index);
      this.slots.push(ABSENT);
    }
    return index;
  }

  /** Makes `record` the component the slot tests check: its members read the way {@link steps} reads them. */
  enter(record: Record<string, unknown>): void {
    this.current = record;
    const keys = this.slotKeys;
    const slots = this.slots;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const member = record[key];
      // Most members the checks look for are missing: then the own-member test is left to the few that ask.
      slots[i] = member === undefined || Object.hasOwn(record, key) ? member : ABSENT;
    }
  }

  /** A check as a test of the current component, built once per document. */
  slotTest(check: Check): SlotTest {
    let fn = this.slotTests.get(check);
    if (fn === undefined) {
      fn = this.buildSlotTest(check);
      this.slotTests.set(check, fn);
    }
    return fn;
  }

  /** Whether some value at `path` below the current component meets `test` (as {@link atPath} answers it). */
  private slotPath(path: Path, test: Test): SlotTest {
    const key = path[0]!;
    const index = this.slot(key);
    const next = path.length === 1 ? test : steps(path.slice(1), test);
    const undefinedMeets = next(undefined);
    const slots = this.slots;
    return () => {
      const member = slots[index];
      if (member === undefined) return undefinedMeets && Object.hasOwn(this.current, key);
      if (member === ABSENT) return false;
      return Array.isArray(member) ? entered(member, next) : next(member);
    };
  }

  private buildSlotTest(check: Check): SlotTest {
    if ('paths' in check) {
      const test = this.valueTest(check)!;
      const { paths } = check;
      if (paths.length === 1) return this.slotPath(paths[0]!, test);
      const holds = paths.map((path) => this.slotPath(path, anything));
      const meets = paths.map((path) => this.slotPath(path, test));
      return () => {
        for (let i = 0; i < holds.length; i++) if (holds[i]!()) return meets[i]!();
        return false;
      };
    }
    switch (check.kind) {
      case 'anyOf': {
        const checks = check.checks.map((c) => this.slotTest(c));
        return () => {
          for (let i = 0; i < checks.length; i++) if (checks[i]!()) return true;
          return false;
        };
      }
      case 'allOf': {
        const checks = check.checks.map((c) => this.slotTest(c));
        return () => {
          for (let i = 0; i < checks.length; i++) if (!checks[i]!()) return false;
          return true;
        };
      }
      case 'not': {
        const inner = this.slotTest(check.check);
        return () => !inner();
      }
      case 'every': {
        const index = this.slot(check.path[0]!);
        const rest = check.path.slice(1);
        const judge = this.everyEntry(check);
        const slots = this.slots;
        // arrayAt's reading, its first member from the slot (an inherited one, ABSENT, is no array or record).
        return () => judge(arrayAt(slots[index], rest));
      }
      case 'reachable-from-primary': {
        const index = this.slot('bom-ref');
        const slots = this.slots;
        return () => {
          if (this.current === this.facts.primary?.record) return true;
          const ref = slots[index];
          return typeof ref === 'string' && this.facts.reachable().has(ref);
        };
      }
      default: {
        const test = this.compiled(check).test;
        return () => test(this.current);
      }
    }
  }

  /**
   * A check as functions, built once per document: the predicates and sub-checks are made here, not on each of
   * the (many thousand) subjects.
   */
  compiled(check: Check): Compiled {
    let fn = this.functions.get(check);
    if (fn === undefined) {
      fn = this.build(check);
      this.functions.set(check, fn);
    }
    return fn;
  }

  /**
   * The test of a check that asks whether some value at its paths meets it, for one such value; undefined for
   * the other kinds of check.
   */
  private valueTest(check: Check): Test | undefined {
    switch (check.kind) {
      case 'present':
        return nonEmpty;
      case 'entity': {
        const entity = entityTest(check.by, check.valid);
        return (e) => isRecord(e) && entity(e);
      }
      case 'email': {
        const within = check.within;
        return (v) => isString(v) && hasEmail(v, within);
      }
      case 'url':
        return (v) => isString(v) && isAbsoluteUrl(v);
      case 'timestamp':
        return (v) => isString(v) && isDateTime(v);
      case 'in': {
        const ignoreCase = check.ignoreCase;
        const values = new Set(ignoreCase ? check.values.map((v) => v.toLowerCase()) : check.values);
        return (v) => isString(v) && values.has(ignoreCase ? v.toLowerCase() : v);
      }
      case 'matches': {
        // A user's pattern meets hostile text: matched in linear time (RE2), never by a backtracking engine.
        const pattern = profileLibraries().linearRegex(check.pattern);
        return (v) => isString(v) && pattern.test(v);
      }
      case 'some': {
        const where = this.compiled(check.where).test;
        return (v) => isRecord(v) && where(v);
      }
      case 'hash-at-least': {
        const least = HASH_STRENGTH[check.alg]!;
        return (h) =>
          isRecord(h) &&
          isString(h.alg) &&
          Object.hasOwn(HASH_STRENGTH, h.alg) &&
          HASH_STRENGTH[h.alg]! >= least &&
          nonEmpty(h.content);
      }
      default:
        return undefined;
    }
  }

  /** Whether the entries (of the array an `every` check reads) meet it. */
  private everyEntry(check: Extract<Check, { kind: 'every' }>): (entries: readonly unknown[]) => boolean {
    const of = check.of === undefined ? undefined : this.compiled(check.of).test;
    const where = this.compiled(check.where).test;
    const required = check.nonEmpty;
    return (entries) => {
      let counted = 0;
      for (let i = 0; i < entries.length; i++) {
        const value = entries[i];
        if (of !== undefined && !of(value)) continue;
        counted++;
        if (!where(value)) return false;
      }
      return counted > 0 || !required;
    };
  }

  private build(check: Check): Compiled {
    if ('paths' in check) return plain(someOf(check.paths, this.valueTest(check)!));
    switch (check.kind) {
      case 'every': {
        const of = check.of === undefined ? undefined : this.compiled(check.of).test;
        const where = this.compiled(check.where);
        const { path } = check;
        const judge = this.everyEntry(check);
        return {
          test: (subject) => judge(arrayAt(subject, path)),
          explain: (subject) => {
            const entries = arrayAt(subject, path);
            for (let i = 0; i < entries.length; i++) {
              const value = entries[i];
              if ((of === undefined || of(value)) && !where.test(value)) {
                const inner = where.explain(value);
                return { at: [...path, i, ...(inner.at ?? [])], ...detailOf(inner) };
              }
            }
            return { at: path };
          },
        };
      }
      case 'anyOf': {
        const checks = check.checks.map((c) => this.compiled(c).test);
        return plain((subject) => {
          for (let i = 0; i < checks.length; i++) if (checks[i]!(subject)) return true;
          return false;
        });
      }
      case 'allOf': {
        const checks = check.checks.map((c) => this.compiled(c));
        return {
          test: (subject) => {
            for (let i = 0; i < checks.length; i++) if (!checks[i]!.test(subject)) return false;
            return true;
          },
          explain: (subject) => {
            for (const c of checks) if (!c.test(subject)) return c.explain(subject);
            return FAIL;
          },
        };
      }
      case 'not': {
        const inner = this.compiled(check.check).test;
        return plain((subject) => !inner(subject));
      }
      case 'licence-valid':
        return {
          test: isValidLicenceEntry,
          explain: (entry) => {
            const fault = licenceEntryFault(entry);
            return fault === undefined ? FAIL : { detail: fault };
          },
        };
      case 'licences-allowed':
      case 'licences-denied': {
        const list =
          check.kind === 'licences-allowed' ? licenceList(check.allow, 'allow') : licenceList(check.deny, 'deny');
        return detailed((subject) => {
          const entries = isRecord(subject) && Array.isArray(subject.licenses) ? (subject.licenses as unknown[]) : NONE;
          const verdict = checkLicences(entries, list);
          return verdict === undefined || { at: ['licenses', verdict.entry], detail: verdict.reason };
        });
      }
      case 'denied-components': {
        const deny = check.deny;
        return detailed((subject) => (isRecord(subject) ? denied(subject, deny) : true));
      }
      case 'spec-version-at-least': {
        const [major, minor] = check.version.split('.').map(Number) as [number, number];
        return detailed(() => {
          const have = this.facts.specVersion;
          return (have !== undefined && have >= major * 1000 + minor) || { at: ['specVersion'] };
        });
      }
      case 'primary-dependencies': {
        const compositions = check.compositions;
        return detailed(() => this.primaryDependencies(compositions));
      }
      case 'reachable-from-primary':
        return detailed((subject) => {
          if (!isRecord(subject) || subject === this.facts.primary?.record) return true;
          const ref = own(subject, 'bom-ref');
          if (typeof ref !== 'string') return { detail: 'it has no bom-ref' };
          return this.facts.reachable().has(ref) || FAIL;
        });
      case 'completeness':
        return detailed(() => this.completeness());
      case 'component-count': {
        const min = check.min;
        return detailed(() => this.facts.components.length >= min || { at: ['components'] });
      }
      case 'is-primary':
        return plain((subject) => subject === this.facts.primary?.record);
      case 'on-document': {
        // The same answer for every subject of the document: decided once.
        const inner = this.compiled(check.check).test;
        let answer: boolean | undefined;
        return plain(() => (answer ??= inner(this.facts.document)));
      }
      case 'refs-resolve':
        // Reported one by one by the evaluator (each ref that does not resolve); as a sub-check, all must resolve.
        return plain(() => this.unresolvedRefs().length === 0);
    }
  }

  private primaryDependencies(compositions: readonly string[]): Outcome {
    const primary = this.facts.primary;
    if (primary === undefined) return { at: ['metadata', 'component'], detail: 'there is no metadata.component' };
    const ref = own(primary.record, 'bom-ref');
    if (typeof ref !== 'string' || ref.trim() === '')
      return { at: ['metadata', 'component', 'bom-ref'], detail: 'metadata.component has no bom-ref' };
    if (this.facts.dependsOn(ref).some((d) => typeof d === 'string')) return true;
    const list = own(this.facts.document, 'compositions');
    if (compositions.length > 0 && Array.isArray(list)) {
      for (const c of list) {
        if (
          isRecord(c) &&
          isString(c.aggregate) &&
          compositions.includes(c.aggregate) &&
          Array.isArray(c.dependencies) &&
          c.dependencies.includes(ref)
        )
          return true;
      }
    }
    return {
      at: ['dependencies'],
      detail: `no dependencies[] entry for metadata.component's bom-ref ${truncate(JSON.stringify(ref), 60)} lists what it depends on${compositions.length === 0 ? '' : `, and no composition states its dependencies ${compositions.join(' or ')}`}`,
    };
  }

  private completeness(): Outcome {
    const list = own(this.facts.document, 'compositions');
    const filled = (v: unknown) => Array.isArray(v) && v.length > 0;
    if (Array.isArray(list)) {
      for (const c of list) {
        // `not_specified` states nothing about completeness (CycloneDX: "the aggregate composition is not
        // specified"), so it does not indicate it.
        if (!isRecord(c) || !nonEmpty(c.aggregate) || c.aggregate === 'not_specified') continue;
        if (filled(c.dependencies) || (!filled(c.assemblies) && !filled(c.vulnerabilities))) return true;
      }
    }
    return { at: ['compositions'] };
  }

  /** Each dependency ref or dependsOn entry that names no component, with its place in the document. */
  unresolvedRefs(): readonly { pointer: string; ref: string }[] {
    return this.facts.dependencyGraph().unresolved;
  }
}

/** A supplier-like object named by a name, a URL or a contact e-mail (`valid`: a real URL or address). */
function entityTest(by: readonly string[], valid: boolean): (entity: Record<string, unknown>) => boolean {
  const byName = by.includes('name');
  const url = by.includes('url')
    ? atPath(['url'], (u) => isString(u) && (valid ? isAbsoluteUrl(u) : nonEmpty(u)))
    : undefined;
  const email = by.includes('email')
    ? atPath(['contact', 'email'], (m) => isString(m) && (valid ? isIdnEmail(m.trim()) : nonEmpty(m)))
    : undefined;
  return (entity) =>
    (byName && nonEmpty(own(entity, 'name'))) ||
    (url !== undefined && url(entity)) ||
    (email !== undefined && email(entity));
}

function detailOf(outcome: Failure): { detail?: string } {
  return outcome.detail === undefined ? {} : { detail: outcome.detail };
}

/** Ranges read once per scheme they are read in (a profile's few ranges meet thousands of components). */
const ranges = new Map<string, VersionRange | string>();

function rangeOf(text: string, scheme: VersionScheme | undefined): VersionRange | string {
  const key = `${scheme ?? '*'} ${text}`;
  let range = ranges.get(key);
  if (range === undefined) {
    range = parseVersionRange(text, scheme);
    if (ranges.size > 1000) ranges.clear();
    ranges.set(key, range);
  }
  return range;
}

/**
 * Whether a component matches a deny entry. Versions are compared as the component's ecosystem orders them (its
 * purl type; the entry's, or generic, without one); a version that cannot be compared with the range is refused.
 */
function denied(component: Record<string, unknown>, deny: readonly DenyEntry[]): Outcome {
  const libraries = profileLibraries();
  let purl: ReturnType<typeof libraries.parsePurl> | undefined;
  if (isString(component.purl)) {
    try {
      purl = libraries.parsePurl(component.purl);
    } catch {
      purl = undefined;
    }
  }
  const name = isString(component.name) ? component.name : undefined;
  for (const entry of deny) {
    let at: string;
    if (entry.purl !== undefined) {
      const p = entry.purl;
      if (
        purl === undefined ||
        purl.type.toLowerCase() !== p.type ||
        (p.name !== '*' && purl.name !== p.name) ||
        (p.namespace !== undefined && p.namespace !== '*' && (purl.namespace ?? '') !== p.namespace) ||
        (p.namespace === undefined && p.name !== '*' && purl.namespace != null && purl.namespace !== '')
      )
        continue;
      at = 'purl';
    } else {
      if (name === undefined || name !== entry.name) continue;
      at = 'name';
    }
    const why = entry.reason === undefined ? '' : `: ${entry.reason}`;
    if (entry.versions === undefined) return { at: [at], detail: `denied by ${describeEntry(entry)}${why}` };
    const version =
      (at === 'purl' ? purl?.version : undefined) ?? (isString(component.version) ? component.version : undefined);
    const type = purl?.type ?? entry.purl?.type;
    const scheme = schemeOf(type);
    const range = rangeOf(entry.versions, entry.purl === undefined ? undefined : scheme);
    const inRange = version === undefined || typeof range === 'string' ? undefined : range.contains(version, scheme);
    if (inRange === undefined)
      return {
        at: [at],
        detail: `version ${version === undefined ? '(none)' : truncate(JSON.stringify(version), 40)} cannot be compared with ${describeEntry(entry)} ${entry.versions} (as a ${typeof range === 'string' ? scheme : (range.scheme ?? scheme)} version), so it is refused`,
      };
    if (inRange)
      return {
        at: ['version'],
        detail: `version ${version} is denied by ${describeEntry(entry)} ${entry.versions}${why}`,
      };
  }
  return true;
}

function describeEntry(entry: DenyEntry): string {
  if (entry.purl === undefined) return `name ${entry.name!}`;
  const { type, namespace, name } = entry.purl;
  return `pkg:${type}/${namespace === undefined ? '' : `${namespace}/`}${name}`;
}

/** The pointer of `at` below the subject, or of the nearest part of it that exists (the subject itself at most). */
function pointerOf(subject: Subject, at: readonly (string | number)[]): string {
  let pointer = pointerOfSubject(subject);
  let node: unknown = subject.record;
  for (const segment of at) {
    if (Array.isArray(node) && typeof segment === 'number' && segment < node.length) node = node[segment];
    else if (isRecord(node) && typeof segment === 'string' && Object.hasOwn(node, segment)) node = node[segment];
    else break;
    pointer += `/${escapeSegment(segment)}`;
  }
  return pointer;
}

/** A component as people know it: `name@version` (truncated), or '' for the document or a nameless component. */
function subjectLabel(subject: Subject): string {
  if (subject.record === undefined || subject.base === '') return '';
  const { name, version } = subject.record;
  if (!isString(name) || name.trim() === '') return '';
  return truncate(`${name}${isString(version) && version.trim() !== '' ? `@${version}` : ''}`, 80);
}

/** A word as a shell reads it: quoted unless it is made of characters no shell treats specially. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A component selector (bomwright's `--component`) that names this component: its bom-ref, purl or name. */
function selectorOf(record: Record<string, unknown>): string {
  const ref = own(record, 'bom-ref');
  if (isString(ref) && ref !== '' && !ref.includes('*')) return `bom-ref=${ref}`;
  const purl = own(record, 'purl');
  if (isString(purl) && purl.startsWith('pkg:') && !purl.includes('*')) return purl.replace(/[?#].*$/s, '');
  const name = own(record, 'name');
  return isString(name) && name !== '' && !name.includes('*') ? `name=${name}` : '*';
}

/**
 * A hint's command made runnable for one finding: `{component}` is a selector of the component that falls short,
 * `{bom-ref}` its bom-ref, `{primary}` metadata.component's, `{at}` the finding's place below the component (a
 * JSON pointer), `{ref}` the reference that resolves to nothing. Run only for the findings that are listed.
 */
function fillHint(
  hint: string,
  facts: DocumentFacts,
  subject: Subject | undefined,
  pointer: string,
  ref: string | undefined,
): string {
  if (!hint.includes('{')) return hint;
  const component = subject !== undefined && subject.base !== '' ? subject : undefined;
  const base = component === undefined ? '' : pointerOfSubject(component);
  const bomRef = component === undefined ? undefined : own(component.record, 'bom-ref');
  return hint.replace(/\{(component|bom-ref|primary|at|ref)\}/g, (whole, name: string) => {
    switch (name) {
      case 'component':
        return component === undefined ? whole : shellWord(selectorOf(component.record));
      case 'bom-ref':
        return isString(bomRef) && bomRef !== '' ? shellWord(bomRef) : 'REF';
      case 'primary': {
        const primary = facts.primaryRef();
        return primary === undefined || primary === '' ? 'APP' : shellWord(primary);
      }
      case 'at':
        return pointer.startsWith(base) ? shellWord(pointer.slice(base.length)) : whole;
      default:
        return ref === undefined ? whole : shellWord(ref);
    }
  });
}

interface ProfileEvaluation {
  diagnostics: Diagnostic[];
  results: ProfileResult[];
}

/** What decides a requirement's outcomes: the same key, the same outcome on every subject. */
function keyOf(requirement: Requirement): string {
  return JSON.stringify([requirement.appliesTo, requirement.when ?? null, requirement.check]);
}

/** Requirements that decide the same outcomes (the same key), checked once per subject for all of them. */
interface Unit {
  appliesTo: AppliesTo;
  when: Test | undefined;
  check: Compiled;
  /** Subjects that fall short, counted all; listed up to the cap, in document order. */
  unmet: number;
  listed: { subject: Subject; failure: Failure }[];
}

function judge(unit: Unit, subject: Subject): void {
  if (unit.when !== undefined && !unit.when(subject.record)) return;
  if (unit.check.test(subject.record)) return;
  if (unit.unmet++ < MAX_FINDINGS_PER_REQUIREMENT)
    unit.listed.push({ subject, failure: unit.check.explain(subject.record) });
}

/**
 * Checks every requirement of every profile against one parsed CycloneDX document. Pure. One pass over the
 * components checks every requirement that applies to them (profiles share many: bsi-2.1 inherits most of
 * bsi-2.0's, NTIA and CISA ask for the same names and versions), then the findings are listed profile by profile.
 */
export function evaluateProfiles(
  document: Record<string, unknown>,
  profiles: readonly Profile[],
  indexed?: IndexedRefs,
): ProfileEvaluation {
  const facts = new DocumentFacts(document, indexed);
  const evaluator = new Evaluator(facts);
  const units = new Map<string, Unit>();
  const unitOf = new Map<Requirement, Unit>();
  // The units checked on every component, their tests on the slots, and the component types they apply to.
  const perComponent: Unit[] = [];
  const slotWhen: (SlotTest | undefined)[] = [];
  const slotCheck: SlotTest[] = [];
  const typesOf: (ReadonlySet<string> | undefined)[] = [];
  for (const profile of profiles)
    for (const requirement of profile.requirements) {
      if (requirement.check.kind === 'refs-resolve' && requirement.appliesTo.kind === 'document') continue;
      const key = keyOf(requirement);
      let unit = units.get(key);
      if (unit === undefined) {
        const { appliesTo } = requirement;
        unit = {
          appliesTo,
          when: requirement.when === undefined ? undefined : evaluator.compiled(requirement.when).test,
          check: evaluator.compiled(requirement.check),
          unmet: 0,
          listed: [],
        };
        units.set(key, unit);
        if (appliesTo.kind === 'components') {
          perComponent.push(unit);
          slotWhen.push(requirement.when === undefined ? undefined : evaluator.slotTest(requirement.when));
          slotCheck.push(evaluator.slotTest(requirement.check));
          typesOf.push(appliesTo.types === undefined ? undefined : new Set(appliesTo.types));
        } else if (appliesTo.kind === 'document') judge(unit, { record: facts.document, base: '', index: -1 });
        else if (facts.primary !== undefined) judge(unit, facts.primary);
      }
      unitOf.set(requirement, unit);
    }
  // Indexed loops: the first thousands of components run before this is optimised, and for-of would allocate an
  // iterator and a result per step there.
  const components = facts.components;
  for (let c = 0; c < components.length; c++) {
    const component = components[c]!;
    const record = component.record;
    evaluator.enter(record);
    const type = record.type;
    for (let u = 0; u < perComponent.length; u++) {
      const types = typesOf[u];
      if (types !== undefined && !(isString(type) && types.has(type))) continue;
      const when = slotWhen[u];
      if ((when !== undefined && !when()) || slotCheck[u]!()) continue;
      const unit = perComponent[u]!;
      if (unit.unmet++ < MAX_FINDINGS_PER_REQUIREMENT)
        unit.listed.push({ subject: component, failure: unit.check.explain(record) });
    }
  }

  const diagnostics: Diagnostic[] = [];
  const results: ProfileResult[] = [];
  for (const profile of profiles) {
    const requirements: RequirementResult[] = [];
    let passed = true;
    for (const requirement of profile.requirements) {
      const ruleId = `profile/${profile.name}/${requirement.id}` as const;
      const severity = requirement.level === 'MUST' ? 'error' : 'warning';
      const listed: { pointer: string; detail?: string; value?: string; subject: string; hint: string }[] = [];
      let unmet: number;
      const unit = unitOf.get(requirement);
      if (unit === undefined) {
        const unresolved = evaluator.unresolvedRefs();
        unmet = unresolved.length;
        for (const { pointer, ref } of unresolved.slice(0, MAX_FINDINGS_PER_REQUIREMENT))
          listed.push({
            pointer,
            value: truncate(JSON.stringify(ref), 120),
            subject: '',
            hint: fillHint(requirement.hint, facts, undefined, '', ref),
          });
      } else {
        unmet = unit.unmet;
        for (const { subject, failure } of unit.listed) {
          const pointer = pointerOf(subject, failure.at ?? requirement.at);
          listed.push({
            pointer,
            detail: failure.detail,
            subject: subjectLabel(subject),
            hint: fillHint(requirement.hint, facts, subject, pointer, undefined),
          });
        }
      }
      let last: Diagnostic | undefined;
      for (const { pointer, detail, value, hint } of listed) {
        last = {
          ruleId,
          severity,
          message: `${requirement.message}${detail === undefined ? '' : ` (${detail})`}; ${hint}`,
          pointer,
          ...(value === undefined ? {} : { value }),
        };
        diagnostics.push(last);
      }
      const more = unmet - MAX_FINDINGS_PER_REQUIREMENT;
      if (more > 0 && last !== undefined) {
        last.message += ` (and ${more} more like it, not listed one by one)`;
        last.unlisted = more;
      }
      if (unmet > 0 && requirement.level === 'MUST') passed = false;
      requirements.push({
        id: requirement.id,
        level: requirement.level,
        clause: requirement.clause,
        message: requirement.message,
        hint: requirement.hint,
        unmet,
        pointers: listed.slice(0, LISTED_POINTERS).map((l) => l.pointer),
        subjects: listed.slice(0, LISTED_POINTERS).map((l) => l.subject),
      });
    }
    results.push({
      ...profileIdentity(profile),
      passed,
      components: facts.components.length,
      requirements,
    });
  }
  return { diagnostics, results };
}
