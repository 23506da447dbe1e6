/**
 * The profile format: a compliance profile or an organisation policy as data (JSON). `parseProfile` turns an
 * untrusted JSON value into typed values, or throws one line that names the place (`requirements[3].check.some`).
 * schema/profile.schema.json describes the same format for editors; the tests hold the two together.
 */
import { createHash } from 'node:crypto';
import { BomwrightError } from '../../errors.js';
import { canonicalize } from '../../jsf/jcs.js';
import { escapeSegment } from '../../json/pointer.js';
import { nearestNames } from '../../nearest.js';
import { isRecord, own, truncate } from '../../values.js';
import { profileLibraries } from './libraries.js';
import { licenceEntryProblem } from './spdx.js';
import { parseVersionRange, schemeOf } from './versions.js';

export type Level = 'MUST' | 'SHOULD';

/** A member path, relative to the subject: dot-separated names; arrays on the way are entered (any entry). */
export type Path = readonly string[];

/** Several paths: the first that holds a value counts (`license.acknowledgement` or `acknowledgement`). */
export type Paths = readonly Path[];

export type Check =
  | { kind: 'present'; paths: Paths }
  | { kind: 'entity'; paths: Paths; by: readonly ('name' | 'url' | 'email')[]; valid: boolean }
  | { kind: 'email'; paths: Paths; within: boolean }
  | { kind: 'url'; paths: Paths }
  | { kind: 'timestamp'; paths: Paths }
  | { kind: 'in'; paths: Paths; values: readonly string[]; ignoreCase: boolean }
  | { kind: 'matches'; paths: Paths; pattern: string }
  | { kind: 'some'; paths: Paths; where: Check }
  | { kind: 'every'; path: Path; of?: Check; where: Check; nonEmpty: boolean }
  | { kind: 'anyOf'; checks: readonly Check[] }
  | { kind: 'allOf'; checks: readonly Check[] }
  | { kind: 'not'; check: Check }
  | { kind: 'licence-valid' }
  | { kind: 'licences-allowed'; allow: readonly string[] }
  | { kind: 'licences-denied'; deny: readonly string[] }
  | { kind: 'hash-at-least'; paths: Paths; alg: string }
  | { kind: 'denied-components'; deny: readonly DenyEntry[] }
  | { kind: 'spec-version-at-least'; version: string }
  | { kind: 'primary-dependencies'; compositions: readonly string[] }
  | { kind: 'refs-resolve' }
  | { kind: 'reachable-from-primary' }
  | { kind: 'completeness' }
  | { kind: 'component-count'; min: number }
  /** The subject is metadata.component (what the BOM describes). */
  | { kind: 'is-primary' }
  /** The check holds of the document (a component's requirement met by a document member, e.g. metadata.supplier). */
  | { kind: 'on-document'; check: Check };

/** A component a policy refuses: by purl (a `*` stands for any namespace or name) or by name; optionally a range. */
export interface DenyEntry {
  purl?: { type: string; namespace: string | undefined; name: string };
  name?: string;
  /**
   * A range in the ecosystem's notation (semver for npm, PEP 440 for PyPI, Maven intervals, else comparators such
   * as `>=1.0 <2.0`) or a `vers:` range; without one every version is denied.
   */
  versions?: string;
  reason?: string;
}

/** What a requirement is checked against. */
export type AppliesTo = { kind: 'document' } | { kind: 'primary' } | { kind: 'components'; types?: readonly string[] };

export interface Requirement {
  id: string;
  level: Level;
  /** Where the source says so: `5.2.2 Hash value of the deployable component`. */
  clause: string;
  /** What is wrong when the requirement is unmet, one line. */
  message: string;
  /** What to add and where, one line. */
  hint: string;
  /** How an ambiguous clause is read, and by whom else (shown on the requirement's page). */
  reading?: string;
  appliesTo: AppliesTo;
  /** Only subjects that meet this condition are checked (a member required under a condition). */
  when?: Check;
  check: Check;
  /** The member the diagnostic points at (the subject itself, or the nearest part of it, when it is absent). */
  at: Path;
}

export interface ProfileSpec {
  name: string;
  title: string;
  /** The profile's own version (its author's: a built-in one's changes with its rules). */
  version?: string;
  /** What replaced the source, when it has been (reports say so); not inherited through `extends`. */
  superseded?: string;
  /** The document the requirements come from, and its address. */
  source?: { title: string; url?: string };
  description?: string;
  extends?: string;
  /** Requirement ids of the extended profile to leave out. */
  drop: readonly string[];
  /** Requirement ids of the extended profile with another level. */
  relevel: Readonly<Record<string, Level>>;
  requirements: readonly Requirement[];
}

/** A profile with its `extends` chain applied: what the evaluator runs. Plain data (it crosses to worker threads). */
export interface Profile {
  name: string;
  title: string;
  version?: string;
  superseded?: string;
  source?: { title: string; url?: string };
  requirements: readonly Requirement[];
  /**
   * `sha256:` and the hex SHA-256 of the JCS (RFC 8785) form of the rest of this object: the rules as applied,
   * after `extends`, so a report names exactly which were checked.
   */
  digest: string;
}

const PROFILE_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const REQUIREMENT_ID = /^[a-z0-9][a-z0-9._-]{0,127}$/;
const CHECK_KINDS = [
  'present',
  'entity',
  'email',
  'url',
  'timestamp',
  'in',
  'matches',
  'some',
  'every',
  'anyOf',
  'allOf',
  'not',
  'licenceValid',
  'licencesAllowed',
  'licencesDenied',
  'hashAtLeast',
  'deny',
  'specVersionAtLeast',
  'primaryDependencies',
  'refsResolve',
  'reachableFromPrimary',
  'completeness',
  'componentCount',
  'isPrimary',
  'onDocument',
] as const;
const MAX_CHECK_DEPTH = 16;
const MAX_PATTERN_LENGTH = 200;

/** Hash algorithms by strength (output bits); "at least SHA-256" means at least 256 bits of a current family. */
export const HASH_STRENGTH: Readonly<Record<string, number>> = {
  MD5: 0,
  'SHA-1': 0,
  'SHA-256': 256,
  'SHA3-256': 256,
  'BLAKE2b-256': 256,
  BLAKE3: 256,
  'Streebog-256': 256,
  'SHA-384': 384,
  'SHA3-384': 384,
  'BLAKE2b-384': 384,
  'SHA-512': 512,
  'SHA3-512': 512,
  'BLAKE2b-512': 512,
  'Streebog-512': 512,
};

/** A mistake in a profile, with the JSON pointer of the member it is about (for its line and column). */
class ProfileError extends BomwrightError {
  constructor(
    message: string,
    readonly pointer: string,
  ) {
    super('E_USAGE', message);
  }
}

/** A place in the profile: as people read it (`requirements[3].check.some`) and as a JSON pointer. */
class At {
  constructor(
    readonly where: string,
    readonly pointer = '',
  ) {}
  fail(message: string): never {
    throw new ProfileError(`${this.where === '' ? '' : `${this.where}: `}${message}`, this.pointer);
  }
  child(key: string | number): At {
    const pointer = `${this.pointer}/${escapeSegment(key)}`;
    return new At(
      typeof key === 'number' ? `${this.where}[${key}]` : this.where === '' ? key : `${this.where}.${key}`,
      pointer,
    );
  }
}

function onlyKeys(record: Record<string, unknown>, allowed: readonly string[], at: At): void {
  for (const key of Object.keys(record)) {
    if (!allowed.includes(key)) {
      const near = nearestNames(key, allowed);
      at.fail(`unknown member "${key.slice(0, 40)}"${near.length === 0 ? '' : ` (did you mean "${near[0]!}"?)`}`);
    }
  }
}

function text(value: unknown, at: At, max = 500): string {
  if (typeof value !== 'string' || value.trim() === '') at.fail('must be a non-empty string');
  if (value.length > max) at.fail(`must be at most ${max} characters`);
  if (/[\r\n]/.test(value)) at.fail('must be one line');
  return value;
}

function strings(value: unknown, at: At): string[] {
  if (!Array.isArray(value)) at.fail('must be an array of strings');
  if (value.length > 10_000) at.fail('must have at most 10000 entries');
  return value.map((v, i) => text(v, at.child(i)));
}

function path(value: unknown, at: At): Path {
  const raw = text(value, at, 200);
  const segments = raw.split('.');
  if (segments.some((s) => s === '')) at.fail(`"${raw}" is not a member path (names separated by dots)`);
  return segments;
}

function paths(value: unknown, at: At): Paths {
  if (Array.isArray(value)) {
    if (value.length === 0 || value.length > 8) at.fail('must list 1 to 8 member paths');
    return value.map((v, i) => path(v, at.child(i)));
  }
  return [path(value, at)];
}

function level(value: unknown, at: At): Level {
  if (value !== 'MUST' && value !== 'SHOULD') at.fail('must be "MUST" or "SHOULD"');
  return value;
}

function specVersion(value: unknown, at: At): string {
  const version = text(value, at, 10);
  if (!/^1\.[0-9]$/.test(version)) at.fail(`"${version}" is not a CycloneDX version such as "1.6"`);
  return version;
}

function parseCheck(value: unknown, at: At, depth = 0): Check {
  if (depth > MAX_CHECK_DEPTH) at.fail(`checks nest deeper than ${MAX_CHECK_DEPTH} levels`);
  if (!isRecord(value)) at.fail('must be an object naming one check');
  const kind = CHECK_KINDS.find((k) => Object.hasOwn(value, k));
  if (kind === undefined) {
    const key = Object.keys(value)[0] ?? '';
    const near = nearestNames(key, CHECK_KINDS);
    at.fail(
      `names no check${key === '' ? '' : ` ("${key.slice(0, 40)}")`}; one of ${CHECK_KINDS.join(', ')}${near.length === 0 ? '' : ` (did you mean "${near[0]!}"?)`}`,
    );
  }
  const inner: At = at.child(kind);
  const arg = value[kind];
  const sub = (v: unknown, where: At) => parseCheck(v, where, depth + 1);
  switch (kind) {
    case 'present':
    case 'url':
    case 'timestamp':
      onlyKeys(value, [kind], at);
      return { kind, paths: paths(arg, inner) };
    case 'email':
      onlyKeys(value, ['email', 'within'], at);
      if (own(value, 'within') !== undefined && typeof value.within !== 'boolean')
        at.child('within').fail('must be true or false');
      return { kind, paths: paths(arg, inner), within: value.within === true };
    case 'entity': {
      onlyKeys(value, ['entity', 'by', 'valid'], at);
      const by = own(value, 'by') === undefined ? ['name', 'url', 'email'] : strings(value.by, at.child('by'));
      for (const [i, b] of by.entries())
        if (b !== 'name' && b !== 'url' && b !== 'email')
          at.child('by').child(i).fail('must be "name", "url" or "email"');
      if (own(value, 'valid') !== undefined && typeof value.valid !== 'boolean')
        at.child('valid').fail('must be true or false');
      return { kind, paths: paths(arg, inner), by: by as ('name' | 'url' | 'email')[], valid: value.valid === true };
    }
    case 'in': {
      onlyKeys(value, ['in', 'values', 'ignoreCase'], at);
      const values = strings(own(value, 'values'), at.child('values'));
      if (values.length === 0) at.child('values').fail('must list at least one value');
      return { kind, paths: paths(arg, inner), values, ignoreCase: value.ignoreCase === true };
    }
    case 'matches': {
      onlyKeys(value, ['matches', 'pattern'], at);
      const source = text(own(value, 'pattern'), at.child('pattern'), MAX_PATTERN_LENGTH);
      try {
        profileLibraries().linearRegex(source);
      } catch (error) {
        const reason = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : '';
        return at
          .child('pattern')
          .fail(
            `is not a pattern that runs in linear time (RE2 syntax: no lookaround, no backreferences): ${truncate(reason, 100)}`,
          );
      }
      return { kind, paths: paths(arg, inner), pattern: source };
    }
    case 'some':
      onlyKeys(value, ['some', 'where'], at);
      return { kind, paths: paths(arg, inner), where: sub(own(value, 'where'), at.child('where')) };
    case 'every': {
      onlyKeys(value, ['every', 'of', 'where', 'nonEmpty'], at);
      if (own(value, 'nonEmpty') !== undefined && typeof value.nonEmpty !== 'boolean')
        at.child('nonEmpty').fail('must be true or false');
      const of = own(value, 'of');
      return {
        kind,
        path: path(arg, inner),
        ...(of === undefined ? {} : { of: sub(of, at.child('of')) }),
        where: sub(own(value, 'where'), at.child('where')),
        nonEmpty: value.nonEmpty === true,
      };
    }
    case 'anyOf':
    case 'allOf': {
      onlyKeys(value, [kind], at);
      if (!Array.isArray(arg) || arg.length === 0) inner.fail('must be a non-empty array of checks');
      return { kind, checks: arg.map((c, i) => sub(c, inner.child(i))) };
    }
    case 'not':
      onlyKeys(value, ['not'], at);
      return { kind, check: sub(arg, inner) };
    case 'licenceValid':
      onlyKeys(value, ['licenceValid'], at);
      if (arg !== true) inner.fail('must be true');
      return { kind: 'licence-valid' };
    case 'licencesAllowed':
      onlyKeys(value, ['licencesAllowed'], at);
      return { kind: 'licences-allowed', allow: licences(arg, inner) };
    case 'licencesDenied':
      onlyKeys(value, ['licencesDenied'], at);
      return { kind: 'licences-denied', deny: licences(arg, inner) };
    case 'hashAtLeast': {
      onlyKeys(value, ['hashAtLeast', 'alg'], at);
      const alg = text(own(value, 'alg'), at.child('alg'), 40);
      if (!Object.hasOwn(HASH_STRENGTH, alg) || HASH_STRENGTH[alg] === 0) {
        const near = nearestNames(alg, Object.keys(HASH_STRENGTH));
        at.child('alg').fail(
          `"${alg}" is not an algorithm to require${near.length === 0 ? '' : ` (did you mean "${near[0]!}"?)`}`,
        );
      }
      return { kind: 'hash-at-least', paths: paths(arg, inner), alg };
    }
    case 'deny':
      onlyKeys(value, ['deny'], at);
      if (!Array.isArray(arg) || arg.length === 0) inner.fail('must be a non-empty array of components');
      return { kind: 'denied-components', deny: arg.map((d, i) => denyEntry(d, inner.child(i))) };
    case 'specVersionAtLeast':
      onlyKeys(value, [kind], at);
      return { kind: 'spec-version-at-least', version: specVersion(arg, inner) };
    case 'primaryDependencies': {
      onlyKeys(value, [kind], at);
      if (!isRecord(arg)) inner.fail('must be an object');
      onlyKeys(arg, ['compositions'], inner);
      const compositions =
        own(arg, 'compositions') === undefined ? [] : strings(arg.compositions, inner.child('compositions'));
      return { kind: 'primary-dependencies', compositions };
    }
    case 'refsResolve':
    case 'reachableFromPrimary':
    case 'completeness':
      onlyKeys(value, [kind], at);
      if (arg !== true) inner.fail('must be true');
      return {
        kind:
          kind === 'refsResolve' ? 'refs-resolve' : kind === 'completeness' ? 'completeness' : 'reachable-from-primary',
      };
    case 'isPrimary':
      onlyKeys(value, [kind], at);
      if (arg !== true) inner.fail('must be true');
      return { kind: 'is-primary' };
    case 'onDocument':
      onlyKeys(value, [kind], at);
      return { kind: 'on-document', check: sub(arg, inner) };
    case 'componentCount': {
      onlyKeys(value, [kind], at);
      if (!isRecord(arg)) inner.fail('must be an object');
      onlyKeys(arg, ['min'], inner);
      const min = arg.min;
      const minAt: At = inner.child('min');
      if (typeof min !== 'number' || !Number.isSafeInteger(min) || min < 0) minAt.fail('must be a whole number');
      return { kind: 'component-count', min };
    }
  }
}

/** A licence list: each entry one SPDX licence (an id, `+`, `WITH` an exception, or a LicenseRef-). */
function licences(value: unknown, at: At): string[] {
  const list = strings(value, at);
  for (const [i, entry] of list.entries()) {
    const problem = licenceEntryProblem(entry);
    if (problem !== undefined) at.child(i).fail(problem);
  }
  return list;
}

/** A purl pattern without version: `pkg:npm/lodash`, `pkg:maven/org.example/*`; parsed, never matched as text. */
function purlPattern(value: unknown, at: At): NonNullable<DenyEntry['purl']> {
  const raw = text(value, at, 300);
  const match = /^pkg:([a-zA-Z][a-zA-Z0-9.+-]*)\/(.+)$/.exec(raw);
  if (match === null || /[@?#]/.test(match[2]!))
    at.fail(`"${raw.slice(0, 80)}" is not a purl pattern (pkg:TYPE/NAMESPACE/NAME, no version; * for any name)`);
  const parts = match[2]!.split('/').filter((p) => p !== '');
  if (parts.length === 0) at.fail(`"${raw.slice(0, 80)}" has no name`);
  let decode = (s: string) => s;
  try {
    decode = (s: string) => decodeURIComponent(s);
    parts.forEach(decode);
  } catch {
    at.fail(`"${raw.slice(0, 80)}" has a malformed percent-encoding`);
  }
  const name = decode(parts.at(-1)!);
  const namespace = parts.length > 1 ? parts.slice(0, -1).map(decode).join('/') : undefined;
  return { type: match[1]!.toLowerCase(), namespace, name };
}

function denyEntry(value: unknown, at: At): DenyEntry {
  if (!isRecord(value)) at.fail('must be an object with "purl" or "name"');
  onlyKeys(value, ['purl', 'name', 'versions', 'reason'], at);
  const entry: DenyEntry = {};
  if (own(value, 'purl') !== undefined) entry.purl = purlPattern(value.purl, at.child('purl'));
  if (own(value, 'name') !== undefined) entry.name = text(value.name, at.child('name'), 200);
  if (entry.purl === undefined && entry.name === undefined) at.fail('must have "purl" or "name"');
  if (own(value, 'versions') !== undefined) {
    const versions = text(value.versions, at.child('versions'), 200);
    // Read as the purl type's ecosystem reads versions; a deny by name, in any (`vers:` ranges name their own).
    const range = parseVersionRange(versions, entry.purl === undefined ? undefined : schemeOf(entry.purl.type));
    if (typeof range === 'string') at.child('versions').fail(`"${truncate(versions, 80)}" ${range}`);
    entry.versions = versions;
  }
  if (own(value, 'reason') !== undefined) entry.reason = text(value.reason, at.child('reason'), 200);
  return entry;
}

function appliesTo(value: unknown, at: At): AppliesTo {
  if (value === 'document' || value === 'primary' || value === 'components') return { kind: value };
  if (isRecord(value)) {
    onlyKeys(value, ['components'], at);
    const spec = own(value, 'components');
    if (isRecord(spec)) {
      onlyKeys(spec, ['type'], at.child('components'));
      return { kind: 'components', types: strings(own(spec, 'type'), at.child('components').child('type')) };
    }
  }
  return at.fail('must be "document", "primary", "components" or {"components": {"type": [...]}}');
}

function requirement(value: unknown, at: At): Requirement {
  if (!isRecord(value)) at.fail('must be an object');
  onlyKeys(value, ['id', 'level', 'clause', 'message', 'hint', 'reading', 'appliesTo', 'when', 'check', 'at'], at);
  const id = text(own(value, 'id'), at.child('id'), 128);
  if (!REQUIREMENT_ID.test(id)) at.child('id').fail(`"${id}" must be lower case letters, digits, ".", "-" or "_"`);
  const when = own(value, 'when');
  const where = own(value, 'at');
  const reading = own(value, 'reading');
  return {
    id,
    level: level(own(value, 'level'), at.child('level')),
    clause: text(own(value, 'clause'), at.child('clause')),
    message: text(own(value, 'message'), at.child('message')),
    hint: text(own(value, 'hint'), at.child('hint')),
    ...(reading === undefined ? {} : { reading: text(reading, at.child('reading'), 2000) }),
    appliesTo: appliesTo(own(value, 'appliesTo') ?? 'document', at.child('appliesTo')),
    ...(when === undefined ? {} : { when: parseCheck(when, at.child('when')) }),
    check: parseCheck(own(value, 'check'), at.child('check')),
    at: where === undefined ? [] : path(where, at.child('at')),
  };
}

/**
 * Reads one profile file's JSON value. `origin` names it in messages (a built-in name or a file path), `locate`
 * turns the JSON pointer of a mistake into `line:column` in the file when the caller has its text. A mistake is
 * a usage error (E_USAGE, one line naming the place, with the nearest valid name where there is one).
 */
export function parseProfile(
  value: unknown,
  origin: string,
  locate?: (pointer: string) => string | undefined,
): ProfileSpec {
  const at: At = new At('');
  try {
    if (!isRecord(value)) at.fail('is not a JSON object');
    onlyKeys(
      value,
      [
        '$schema',
        'name',
        'title',
        'version',
        'superseded',
        'description',
        'source',
        'extends',
        'drop',
        'relevel',
        'requirements',
      ],
      at,
    );
    const name = text(own(value, 'name'), at.child('name'), 64);
    if (!PROFILE_NAME.test(name))
      at.child('name').fail(`"${name}" must be lower case letters, digits, ".", "-" or "_"`);
    const source = own(value, 'source');
    let parsedSource: ProfileSpec['source'];
    if (source !== undefined) {
      const sourceAt: At = at.child('source');
      if (!isRecord(source)) sourceAt.fail('must be an object with "title" and "url"');
      onlyKeys(source, ['title', 'url'], at.child('source'));
      const url = own(source, 'url');
      parsedSource = {
        title: text(own(source, 'title'), at.child('source').child('title')),
        ...(url === undefined ? {} : { url: text(url, at.child('source').child('url')) }),
      };
    }
    const relevelValue = own(value, 'relevel') ?? {};
    if (!isRecord(relevelValue)) at.child('relevel').fail('must be an object of requirement id → "MUST" or "SHOULD"');
    const relevel: Record<string, Level> = Object.create(null) as Record<string, Level>;
    for (const [id, l] of Object.entries(relevelValue)) relevel[id] = level(l, at.child('relevel').child(id));
    const list = own(value, 'requirements') ?? [];
    const listAt: At = at.child('requirements');
    if (!Array.isArray(list)) listAt.fail('must be an array');
    const requirements = list.map((r, i) => requirement(r, at.child('requirements').child(i)));
    const seen = new Set<string>();
    for (const r of requirements) {
      if (seen.has(r.id)) at.child('requirements').fail(`requirement "${r.id}" is defined twice`);
      seen.add(r.id);
    }
    const extendsName = own(value, 'extends');
    const description = own(value, 'description');
    const version = own(value, 'version');
    const superseded = own(value, 'superseded');
    const drop = own(value, 'drop') === undefined ? [] : strings(value.drop, at.child('drop'));
    if (extendsName === undefined && (drop.length > 0 || Object.keys(relevel).length > 0))
      at.fail('"drop" and "relevel" need "extends"');
    if (extendsName === undefined && requirements.length === 0) at.child('requirements').fail('must not be empty');
    return {
      name,
      title: text(own(value, 'title') ?? name, at.child('title')),
      ...(version === undefined ? {} : { version: text(version, at.child('version'), 40) }),
      ...(superseded === undefined ? {} : { superseded: text(superseded, at.child('superseded'), 500) }),
      ...(parsedSource === undefined ? {} : { source: parsedSource }),
      ...(description === undefined ? {} : { description: text(description, at.child('description'), 2000) }),
      ...(extendsName === undefined ? {} : { extends: text(extendsName, at.child('extends'), 1000) }),
      drop,
      relevel,
      requirements,
    };
  } catch (error) {
    if (error instanceof ProfileError) {
      const position = locate?.(error.pointer);
      throw new ProfileError(
        `Profile ${origin}${position === undefined ? '' : `:${position}`}: ${error.message}`,
        error.pointer,
      );
    }
    throw error;
  }
}

/**
 * Applies `extends`: the base's requirements (minus `drop`, with `relevel`), then the profile's own, which replace
 * a base requirement of the same id. `load` reads a base by the name or path given; a loop is an error.
 */
export function resolveProfile(
  spec: ProfileSpec,
  load: (reference: string, from: ProfileSpec) => ProfileSpec,
  chain: readonly string[] = [],
): Profile {
  if (chain.includes(spec.name) || chain.length > 16)
    throw new BomwrightError('E_USAGE', `Profile ${spec.name} extends itself (${[...chain, spec.name].join(' → ')})`);
  let requirements: Requirement[] = [];
  if (spec.extends !== undefined) {
    const base = resolveProfile(load(spec.extends, spec), load, [...chain, spec.name]);
    const ids = new Set(base.requirements.map((r) => r.id));
    for (const id of [...spec.drop, ...Object.keys(spec.relevel)]) {
      if (!ids.has(id)) {
        const near = nearestNames(id, ids);
        throw new BomwrightError(
          'E_USAGE',
          `Profile ${spec.name}: ${spec.extends} has no requirement "${id.slice(0, 80)}"${near.length === 0 ? '' : ` (did you mean "${near[0]!}"?)`}`,
        );
      }
    }
    requirements = base.requirements
      .filter((r) => !spec.drop.includes(r.id))
      .map((r) => (Object.hasOwn(spec.relevel, r.id) ? { ...r, level: spec.relevel[r.id]! } : r));
  }
  for (const r of spec.requirements) {
    const index = requirements.findIndex((b) => b.id === r.id);
    if (index === -1) requirements.push(r);
    else requirements[index] = r;
  }
  const applied = {
    name: spec.name,
    title: spec.title,
    ...(spec.version === undefined ? {} : { version: spec.version }),
    ...(spec.superseded === undefined ? {} : { superseded: spec.superseded }),
    ...(spec.source === undefined ? {} : { source: spec.source }),
    requirements,
  };
  return { ...applied, digest: `sha256:${createHash('sha256').update(canonicalize(applied)).digest('hex')}` };
}
