/**
 * Runs profiles over a parsed document: each unmet requirement becomes an ordinary diagnostic
 * (`profile/<name>/<id>`, MUST → error, SHOULD → warning) at the component or member that falls short. The
 * component set and the dependency graph are gathered once per document and shared by every profile.
 */
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { escapeSegment } from '../../json/pointer.js';
import { MAX_DEPTH } from '../../json/scan.js';
import { truncate } from '../../values.js';
import { isIdnEmail } from '../iri.js';
import { isDateTime } from '../rfc3339.js';
import { profileLibraries } from './libraries.js';
import {
  HASH_STRENGTH,
  type Check,
  type DenyEntry,
  type Path,
  type Paths,
  type Profile,
  type Requirement,
} from './model.js';
import { checkAllowed, checkDenied, isValidLicenceEntry } from './spdx.js';

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
}

/** A profile's verdict on one document. */
export interface ProfileResult {
  name: string;
  title: string;
  source?: { title: string; url?: string };
  /** No MUST requirement is unmet. */
  passed: boolean;
  components: number;
  requirements: RequirementResult[];
}

/** At most this many diagnostics per requirement and document; the result counts them all. */
export const MAX_FINDINGS_PER_REQUIREMENT = 100;
const LISTED_POINTERS = 20;

interface Subject {
  record: Record<string, unknown>;
  pointer: string;
}

interface Failure {
  /** Where, relative to the subject (the requirement's `at` when absent). */
  at?: readonly (string | number)[];
  detail?: string;
}
type Outcome = true | Failure;
const FAIL: Failure = {};

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The document's facts the requirements share, gathered on first use. */
class DocumentFacts {
  readonly components: Subject[] = [];
  readonly primary: Subject | undefined;
  private graph?: { refs: Set<string>; edges: Map<string, string[]> };
  private reached?: Set<string>;
  readonly specVersion: number | undefined;

  constructor(readonly document: Record<string, unknown>) {
    const metadata = own(document, 'metadata');
    const primary = isRecord(metadata) ? own(metadata, 'component') : undefined;
    if (isRecord(primary)) {
      this.primary = { record: primary, pointer: '/metadata/component' };
      this.collect(primary, '/metadata/component', 0);
    }
    const list = own(document, 'components');
    if (Array.isArray(list)) this.collectList(list, '/components', 0);
    const version = own(document, 'specVersion');
    const match = typeof version === 'string' ? /^(\d+)\.(\d+)/.exec(version) : null;
    this.specVersion = match === null ? undefined : Number(match[1]) * 1000 + Number(match[2]);
  }

  private collect(record: Record<string, unknown>, pointer: string, depth: number): void {
    this.components.push({ record, pointer });
    const nested = own(record, 'components');
    if (Array.isArray(nested) && depth < MAX_DEPTH) this.collectList(nested, `${pointer}/components`, depth + 1);
  }

  private collectList(list: readonly unknown[], pointer: string, depth: number): void {
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      if (isRecord(item)) this.collect(item, `${pointer}/${i}`, depth);
    }
  }

  /** Component bom-refs and the dependsOn edges. */
  dependencyGraph(): { refs: Set<string>; edges: Map<string, string[]> } {
    if (this.graph !== undefined) return this.graph;
    const refs = new Set<string>();
    for (const c of this.components) {
      const ref = own(c.record, 'bom-ref');
      if (typeof ref === 'string') refs.add(ref);
    }
    const edges = new Map<string, string[]>();
    const dependencies = own(this.document, 'dependencies');
    if (Array.isArray(dependencies)) {
      for (const entry of dependencies) {
        if (!isRecord(entry) || typeof entry.ref !== 'string') continue;
        const on = Array.isArray(entry.dependsOn)
          ? entry.dependsOn.filter((d): d is string => typeof d === 'string')
          : [];
        edges.set(entry.ref, [...(edges.get(entry.ref) ?? []), ...on]);
      }
    }
    return (this.graph = { refs, edges });
  }

  /** bom-refs on a dependsOn path from the primary component (iterative: no recursion on hostile graphs). */
  reachable(): Set<string> {
    if (this.reached !== undefined) return this.reached;
    const reached = new Set<string>();
    const start = this.primary === undefined ? undefined : own(this.primary.record, 'bom-ref');
    if (typeof start === 'string') {
      const { edges } = this.dependencyGraph();
      const stack = [start];
      reached.add(start);
      while (stack.length > 0) {
        for (const next of edges.get(stack.pop()!) ?? []) {
          if (!reached.has(next)) {
            reached.add(next);
            stack.push(next);
          }
        }
      }
    }
    return (this.reached = reached);
  }
}

/**
 * Whether some value at `path` below `from` meets `test`, entering arrays on the way and at the end; own members
 * only. No arrays are built: this runs for every requirement on every component.
 */
function anyAt(value: unknown, path: Path, i: number, test: (value: unknown) => boolean): boolean {
  if (Array.isArray(value)) {
    for (const item of value) if (anyAt(item, path, i, test)) return true;
    return false;
  }
  if (i === path.length) return test(value);
  if (!isRecord(value)) return false;
  const key = path[i]!;
  return Object.hasOwn(value, key) && anyAt(value[key], path, i + 1, test);
}

const anything = () => true;

/** Whether some value at the first of `paths` that holds any meets `test`. */
function someOf(from: unknown, paths: Paths, test: (value: unknown) => boolean): boolean {
  if (paths.length === 1) return anyAt(from, paths[0]!, 0, test);
  for (const path of paths) if (anyAt(from, path, 0, anything)) return anyAt(from, path, 0, test);
  return false;
}

const NONE: readonly unknown[] = [];

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
  if (trimmed.length > 4000 || !URL.canParse(trimmed)) return false;
  return new URL(trimmed).host !== '';
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

const patterns = new Map<string, RegExp>();
const URL_PATH: Path = ['url'];
const CONTACT_EMAIL: Path = ['contact', 'email'];

class Evaluator {
  constructor(private readonly facts: DocumentFacts) {}

  private readonly functions = new WeakMap<Check, (subject: unknown) => Outcome>();

  check(check: Check, subject: unknown): Outcome {
    return this.compile(check)(subject);
  }

  /** The check as a function of the subject. */
  compiled(check: Check): (subject: unknown) => Outcome {
    return this.compile(check);
  }

  /**
   * A check as a function, built once per document: the predicates and sub-checks are made here, not on each of
   * the (many thousand) subjects.
   */
  private compile(check: Check): (subject: unknown) => Outcome {
    let fn = this.functions.get(check);
    if (fn === undefined) {
      fn = this.build(check);
      this.functions.set(check, fn);
    }
    return fn;
  }

  private build(check: Check): (subject: unknown) => Outcome {
    const some = (paths: Paths, test: (value: unknown) => boolean) => (subject: unknown) =>
      someOf(subject, paths, test) || FAIL;
    switch (check.kind) {
      case 'present':
        return some(check.paths, nonEmpty);
      case 'entity': {
        const { by, valid } = check;
        return some(check.paths, (e) => isRecord(e) && this.entity(e, by, valid));
      }
      case 'email': {
        const within = check.within;
        return some(check.paths, (v) => isString(v) && hasEmail(v, within));
      }
      case 'url':
        return some(check.paths, (v) => isString(v) && isAbsoluteUrl(v));
      case 'timestamp':
        return some(check.paths, (v) => isString(v) && isDateTime(v));
      case 'in': {
        const ignoreCase = check.ignoreCase;
        const values = new Set(ignoreCase ? check.values.map((v) => v.toLowerCase()) : check.values);
        return some(check.paths, (v) => isString(v) && values.has(ignoreCase ? v.toLowerCase() : v));
      }
      case 'matches': {
        let pattern = patterns.get(check.pattern);
        if (pattern === undefined) patterns.set(check.pattern, (pattern = new RegExp(check.pattern, 'u')));
        const compiled = pattern;
        return some(check.paths, (v) => isString(v) && compiled.test(v));
      }
      case 'some': {
        const where = this.compile(check.where);
        return some(check.paths, (v) => isRecord(v) && where(v) === true);
      }
      case 'every': {
        const of = check.of === undefined ? undefined : this.compile(check.of);
        const where = this.compile(check.where);
        const { path, nonEmpty: required } = check;
        return (subject) => {
          let counted = 0;
          const entries = arrayAt(subject, path);
          for (let i = 0; i < entries.length; i++) {
            const value = entries[i];
            if (of !== undefined && of(value) !== true) continue;
            counted++;
            const outcome = where(value);
            if (outcome !== true) return { at: [...path, i, ...(outcome.at ?? [])], ...detailOf(outcome) };
          }
          return counted > 0 || !required || { at: path };
        };
      }
      case 'anyOf': {
        const checks = check.checks.map((c) => this.compile(c));
        return (subject) => {
          for (const c of checks) if (c(subject) === true) return true;
          return FAIL;
        };
      }
      case 'allOf': {
        const checks = check.checks.map((c) => this.compile(c));
        return (subject) => {
          for (const c of checks) {
            const outcome = c(subject);
            if (outcome !== true) return outcome;
          }
          return true;
        };
      }
      case 'not': {
        const inner = this.compile(check.check);
        return (subject) => (inner(subject) === true ? FAIL : true);
      }
      case 'licence-valid':
        return (subject) => isValidLicenceEntry(subject) || FAIL;
      case 'licences-allowed':
      case 'licences-denied': {
        const allowed = check.kind === 'licences-allowed';
        const list = check.kind === 'licences-allowed' ? check.allow : check.deny;
        return (subject) => {
          const entries = isRecord(subject) && Array.isArray(subject.licenses) ? (subject.licenses as unknown[]) : [];
          const verdict = allowed ? checkAllowed(entries, list) : checkDenied(entries, list);
          return verdict === undefined || { at: ['licenses', verdict.entry], detail: verdict.reason };
        };
      }
      case 'hash-at-least': {
        const least = HASH_STRENGTH[check.alg]!;
        return some(
          check.paths,
          (h) => isRecord(h) && isString(h.alg) && (HASH_STRENGTH[h.alg] ?? 0) >= least && nonEmpty(h.content),
        );
      }
      case 'denied-components': {
        const deny = check.deny;
        return (subject) => (isRecord(subject) ? denied(subject, deny) : true);
      }
      case 'spec-version-at-least': {
        const [major, minor] = check.version.split('.').map(Number) as [number, number];
        return () => {
          const have = this.facts.specVersion;
          return (have !== undefined && have >= major * 1000 + minor) || { at: ['specVersion'] };
        };
      }
      case 'primary-dependencies': {
        const compositions = check.compositions;
        return () => this.primaryDependencies(compositions);
      }
      case 'reachable-from-primary':
        return (subject) => {
          if (!isRecord(subject) || subject === this.facts.primary?.record) return true;
          const ref = own(subject, 'bom-ref');
          if (typeof ref !== 'string') return { detail: 'it has no bom-ref' };
          return this.facts.reachable().has(ref) || FAIL;
        };
      case 'completeness':
        return () => this.completeness();
      case 'component-count': {
        const min = check.min;
        return () => this.facts.components.length >= min || { at: ['components'] };
      }
      case 'refs-resolve':
        // Reported one by one by the evaluator (each ref that does not resolve); as a sub-check, all must resolve.
        return () => this.unresolvedRefs().length === 0 || FAIL;
    }
  }

  private entity(entity: Record<string, unknown>, by: readonly string[], valid: boolean): boolean {
    if (by.includes('name') && nonEmpty(own(entity, 'name'))) return true;
    if (
      by.includes('url') &&
      anyAt(entity, URL_PATH, 0, (u) => isString(u) && (valid ? isAbsoluteUrl(u) : nonEmpty(u)))
    )
      return true;
    return (
      by.includes('email') &&
      anyAt(entity, CONTACT_EMAIL, 0, (m) => isString(m) && (valid ? isIdnEmail(m.trim()) : nonEmpty(m)))
    );
  }

  private primaryDependencies(compositions: readonly string[]): Outcome {
    const primary = this.facts.primary;
    if (primary === undefined) return { at: ['metadata', 'component'], detail: 'there is no metadata.component' };
    const ref = own(primary.record, 'bom-ref');
    if (typeof ref !== 'string' || ref.trim() === '')
      return { at: ['metadata', 'component', 'bom-ref'], detail: 'metadata.component has no bom-ref' };
    if ((this.facts.dependencyGraph().edges.get(ref) ?? []).length > 0) return true;
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
    return { at: ['dependencies'] };
  }

  private completeness(): Outcome {
    const list = own(this.facts.document, 'compositions');
    const filled = (v: unknown) => Array.isArray(v) && v.length > 0;
    if (Array.isArray(list)) {
      for (const c of list) {
        if (!isRecord(c) || !nonEmpty(c.aggregate)) continue;
        if (filled(c.dependencies) || (!filled(c.assemblies) && !filled(c.vulnerabilities))) return true;
      }
    }
    return { at: ['compositions'] };
  }

  /** Each dependency ref or dependsOn entry that names no component, with its place in the document. */
  unresolvedRefs(): { pointer: string; ref: string }[] {
    const { refs } = this.facts.dependencyGraph();
    const found: { pointer: string; ref: string }[] = [];
    const dependencies = own(this.facts.document, 'dependencies');
    if (!Array.isArray(dependencies)) return found;
    dependencies.forEach((entry: unknown, i) => {
      if (!isRecord(entry)) return;
      if (typeof entry.ref === 'string' && !refs.has(entry.ref))
        found.push({ pointer: `/dependencies/${i}/ref`, ref: entry.ref });
      if (Array.isArray(entry.dependsOn))
        entry.dependsOn.forEach((d: unknown, j) => {
          if (typeof d === 'string' && !refs.has(d))
            found.push({ pointer: `/dependencies/${i}/dependsOn/${j}`, ref: d });
        });
    });
    return found;
  }
}

function detailOf(outcome: Failure): { detail?: string } {
  return outcome.detail === undefined ? {} : { detail: outcome.detail };
}

/** Whether a component matches a deny entry; a version that cannot be compared with the range is refused. */
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
    if (
      version === undefined ||
      libraries.validVersion(version) === null ||
      libraries.validRange(entry.versions) === null
    )
      return {
        at: [at],
        detail: `version ${version === undefined ? '(none)' : truncate(JSON.stringify(version), 40)} cannot be compared with ${describeEntry(entry)} ${entry.versions}, so it is refused`,
      };
    if (libraries.satisfies(version, entry.versions))
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

function subjectsOf(requirement: Requirement, facts: DocumentFacts): Subject[] {
  const applies = requirement.appliesTo;
  if (applies.kind === 'document') return [{ record: facts.document, pointer: '' }];
  if (applies.kind === 'primary') return facts.primary === undefined ? [] : [facts.primary];
  const types = applies.types;
  if (types === undefined) return facts.components;
  return facts.components.filter((c) => isString(c.record.type) && types.includes(c.record.type));
}

/** The pointer of `at` below the subject, or of the nearest part of it that exists (the subject itself at most). */
function pointerOf(subject: Subject, at: readonly (string | number)[]): string {
  let pointer = subject.pointer;
  let node: unknown = subject.record;
  for (const segment of at) {
    if (Array.isArray(node) && typeof segment === 'number' && segment < node.length) node = node[segment];
    else if (isRecord(node) && typeof segment === 'string' && Object.hasOwn(node, segment)) node = node[segment];
    else break;
    pointer += `/${escapeSegment(segment)}`;
  }
  return pointer;
}

export interface ProfileEvaluation {
  diagnostics: Diagnostic[];
  results: ProfileResult[];
}

/** What decides a requirement's outcomes: the same key, the same outcome on every subject. */
function keyOf(requirement: Requirement): string {
  return JSON.stringify([requirement.appliesTo, requirement.when ?? null, requirement.check]);
}

/** The requirements whose key another requirement of the run shares. */
function sharedRequirements(profiles: readonly Profile[]): Set<Requirement> {
  const byKey = new Map<string, Requirement[]>();
  for (const p of profiles)
    for (const r of p.requirements) {
      if (r.check.kind === 'refs-resolve') continue;
      const key = keyOf(r);
      byKey.set(key, [...(byKey.get(key) ?? []), r]);
    }
  return new Set([...byKey.values()].filter((list) => list.length > 1).flat());
}

/** Checks every requirement of every profile against one parsed CycloneDX document. Pure. */
export function evaluateProfiles(document: Record<string, unknown>, profiles: readonly Profile[]): ProfileEvaluation {
  const facts = new DocumentFacts(document);
  const evaluator = new Evaluator(facts);
  const diagnostics: Diagnostic[] = [];
  const results: ProfileResult[] = [];
  const remembered = new Map<string, (Outcome | undefined)[]>();
  const shared = sharedRequirements(profiles);
  for (const profile of profiles) {
    const requirements: RequirementResult[] = [];
    let passed = true;
    for (const requirement of profile.requirements) {
      const result: RequirementResult = {
        id: requirement.id,
        level: requirement.level,
        clause: requirement.clause,
        message: requirement.message,
        hint: requirement.hint,
        unmet: 0,
        pointers: [],
      };
      const ruleId = `profile/${profile.name}/${requirement.id}` as const;
      const severity = requirement.level === 'MUST' ? 'error' : 'warning';
      let last: Diagnostic | undefined;
      // Pointers are built only for what is listed: a 20,000-component BOM may fall short 20,000 times.
      const report = (pointer: string, detail?: string, value?: string) => {
        result.unmet++;
        if (result.unmet > MAX_FINDINGS_PER_REQUIREMENT) return;
        if (result.pointers.length < LISTED_POINTERS) result.pointers.push(pointer);
        last = {
          ruleId,
          severity,
          message: `${requirement.message}${detail === undefined ? '' : ` (${detail})`}; ${requirement.hint}`,
          pointer,
          ...(value === undefined ? {} : { value }),
        };
        diagnostics.push(last);
      };
      if (requirement.check.kind === 'refs-resolve' && requirement.appliesTo.kind === 'document') {
        for (const { pointer, ref } of evaluator.unresolvedRefs())
          report(pointer, undefined, truncate(JSON.stringify(ref), 120));
      } else {
        const subjects = subjectsOf(requirement, facts);
        // Profiles share requirements (bsi-2.1 inherits most of bsi-2.0's, NTIA and CISA ask for the same
        // names and versions): a check met or not once per subject is not checked again.
        const key = shared.has(requirement) ? keyOf(requirement) : undefined;
        let outcomes = key === undefined ? undefined : remembered.get(key);
        const fresh = outcomes === undefined;
        if (key !== undefined && outcomes === undefined) remembered.set(key, (outcomes = []));
        const when = requirement.when === undefined ? undefined : evaluator.compiled(requirement.when);
        const check = evaluator.compiled(requirement.check);
        for (let i = 0; i < subjects.length; i++) {
          const subject = subjects[i]!;
          let outcome: Outcome | undefined;
          if (!fresh) outcome = outcomes![i];
          else {
            outcome = when !== undefined && when(subject.record) !== true ? undefined : check(subject.record);
            if (outcomes !== undefined) outcomes[i] = outcome;
          }
          if (outcome === undefined || outcome === true) continue;
          if (result.unmet >= MAX_FINDINGS_PER_REQUIREMENT) result.unmet++;
          else report(pointerOf(subject, outcome.at ?? requirement.at), outcome.detail);
        }
      }
      const more = result.unmet - MAX_FINDINGS_PER_REQUIREMENT;
      if (more > 0 && last !== undefined) last.message += ` (and ${more} more like it, not listed one by one)`;
      if (result.unmet > 0 && requirement.level === 'MUST') passed = false;
      requirements.push(result);
    }
    results.push({
      name: profile.name,
      title: profile.title,
      ...(profile.source === undefined ? {} : { source: profile.source }),
      passed,
      components: facts.components.length,
      requirements,
    });
  }
  return { diagnostics, results };
}
