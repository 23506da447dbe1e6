/**
 * Versions compared as their ecosystem orders them, chosen by the purl type: npm (and cargo, golang) by semver,
 * PyPI by PEP 440 (@renovatebot/pep440), Maven as its ComparableVersion does, Debian as dpkg, RPM as rpmvercmp,
 * Alpine as apk, anything else by the generic scheme of the purl community's version-range spec (vers). Ranges
 * are either `vers:<scheme>/<constraint>|…` or the ecosystem's own notation (semver ranges for npm, PEP 440
 * specifiers for PyPI, Maven's `[1.0,2.0)` intervals, else comparators such as `>=1.0 <2.0`, `||` between
 * alternatives).
 */
import { profileLibraries } from './libraries.js';

export type VersionScheme = 'semver' | 'pypi' | 'maven' | 'deb' | 'rpm' | 'alpine' | 'generic';

/** The versioning scheme of a purl type, or of a vers scheme name. */
export function schemeOf(type: string | undefined): VersionScheme {
  switch (type?.toLowerCase()) {
    case 'npm':
    case 'semver':
    case 'cargo':
    case 'golang':
      return 'semver';
    case 'pypi':
      return 'pypi';
    case 'maven':
      return 'maven';
    case 'deb':
    case 'debian':
      return 'deb';
    case 'rpm':
      return 'rpm';
    case 'apk':
    case 'alpine':
      return 'alpine';
    default:
      return 'generic';
  }
}

/** The vers scheme names this reads (the spec's, and the purl types they come from). */
const VERS_SCHEMES = [
  'npm',
  'semver',
  'cargo',
  'golang',
  'pypi',
  'maven',
  'deb',
  'debian',
  'rpm',
  'apk',
  'alpine',
  'generic',
];

/** Negative, zero or positive as a sorts before, with or after b; undefined when either is no version of the scheme. */
function compareVersions(scheme: VersionScheme, a: string, b: string): number | undefined {
  switch (scheme) {
    case 'semver': {
      const semver = profileLibraries().semver();
      const x = semver.valid(stripV(a));
      const y = semver.valid(stripV(b));
      return x === null || y === null ? undefined : semver.compare(x, y);
    }
    case 'pypi': {
      const pep440 = profileLibraries().pep440();
      return pep440.valid(a) === null || pep440.valid(b) === null ? undefined : pep440.compare(a, b);
    }
    case 'maven':
      return nonEmpty(a, b) ? compareMaven(a, b) : undefined;
    case 'deb': {
      const x = debianParts(a);
      const y = debianParts(b);
      return x === undefined || y === undefined ? undefined : compareEvr(x, y, verrevcmp);
    }
    case 'rpm': {
      const x = rpmParts(a);
      const y = rpmParts(b);
      return x === undefined || y === undefined ? undefined : compareEvr(x, y, rpmvercmp);
    }
    case 'alpine': {
      const x = alpineVersion(a);
      const y = alpineVersion(b);
      return x === undefined || y === undefined ? undefined : compareAlpine(x, y);
    }
    case 'generic':
      return nonEmpty(a, b) ? compareGeneric(a, b) : undefined;
  }
}

function nonEmpty(a: string, b: string): boolean {
  return a.trim() !== '' && b.trim() !== '';
}

const stripV = (v: string) => v.trim().replace(/^v(?=\d)/, '');

// --- ranges ---------------------------------------------------------------------------------------------------

type Comparator = '=' | '!=' | '<' | '<=' | '>' | '>=';

/** A range, read once: whether a version of its scheme lies in it (undefined when it cannot be compared). */
export interface VersionRange {
  /** The scheme a vers range names; a native range is read in the component's. */
  scheme?: VersionScheme;
  contains: (version: string, scheme: VersionScheme) => boolean | undefined;
}

/**
 * Reads a range for the scheme it will be compared in (a vers range names its own), or says why it is none.
 * `scheme` undefined: the range of a deny entry by name, whose components may be of any ecosystem; then only
 * comparators are read here, and the notation of each component's ecosystem when it is compared.
 */
export function parseVersionRange(text: string, scheme: VersionScheme | undefined): VersionRange | string {
  const trimmed = text.trim();
  if (/^vers:/i.test(trimmed)) return parseVers(trimmed);
  const native = nativeRange(trimmed, scheme ?? 'generic');
  if (typeof native === 'string') return native;
  if (scheme !== undefined) return { contains: (version) => native(version) };
  // By name: each component's ecosystem reads the range its own way, once per scheme.
  const byScheme = new Map<VersionScheme, ((version: string) => boolean | undefined) | string>();
  return {
    contains: (version, componentScheme) => {
      let test = byScheme.get(componentScheme);
      if (test === undefined) byScheme.set(componentScheme, (test = nativeRange(trimmed, componentScheme)));
      return typeof test === 'string' ? undefined : test(version);
    },
  };
}

/** The ecosystem's own notation, as a test; or why it is not one. */
function nativeRange(text: string, scheme: VersionScheme): ((version: string) => boolean | undefined) | string {
  if (text === '') return 'is empty';
  if (scheme === 'semver') {
    const semver = profileLibraries().semver();
    const range = semver.validRange(text);
    if (range === null) return 'is not a semver range (such as "<4.17.21" or ">=1.0.0 <2.0.0")';
    return (version) => {
      const v = semver.valid(stripV(version));
      return v === null ? undefined : semver.satisfies(v, range);
    };
  }
  if (scheme === 'pypi') {
    const pep440 = profileLibraries().pep440();
    if (!pep440.validRange(text)) return 'is not a PEP 440 version specifier (such as ">=1.0,<2.0" or "~=1.4")';
    // PEP 440 as written (`<2.0` leaves out 2.0's own pre-releases), but pre-releases are versions a deny list
    // must see: pip's default of skipping them is for picking a version to install, not for judging one.
    return (version) =>
      pep440.valid(version) === null ? undefined : pep440.satisfies(version, text, { prereleases: true });
  }
  if (scheme === 'maven' && /^[[(]/.test(text)) return mavenIntervals(text);
  return comparatorRange(text, scheme);
}

/** `>=1.0 <2.0 || >=3.0`: comparators (AND between them, by space or comma) in alternatives joined by `||`. */
function comparatorRange(text: string, scheme: VersionScheme): ((version: string) => boolean | undefined) | string {
  const alternatives: { op: Comparator; version: string }[][] = [];
  for (const alternative of text.split('||')) {
    const parts = alternative
      .trim()
      .split(/[\s,]+/)
      .filter((p) => p !== '');
    if (parts.length === 0) return 'has an empty alternative';
    const constraints: { op: Comparator; version: string }[] = [];
    for (const part of parts) {
      const match = /^(!=|<=|>=|==|=|<|>)?(.+)$/.exec(part)!;
      const version = match[2]!;
      if (/^[<>=!]/.test(version)) return `has a malformed comparator "${part.slice(0, 40)}"`;
      if (compareVersions(scheme, version, version) === undefined)
        return `has "${version.slice(0, 40)}", which is not a ${scheme} version`;
      const op = (match[1] === '==' ? '=' : (match[1] ?? '=')) as Comparator;
      constraints.push({ op, version });
    }
    alternatives.push(constraints);
  }
  return (version) => {
    let comparable = true;
    for (const constraints of alternatives) {
      let all = true;
      for (const c of constraints) {
        const order = compareVersions(scheme, version, c.version);
        if (order === undefined) {
          comparable = false;
          all = false;
          break;
        }
        if (!holds(c.op, order)) {
          all = false;
          break;
        }
      }
      if (all) return true;
    }
    return comparable ? false : undefined;
  };
}

function holds(op: Comparator, order: number): boolean {
  switch (op) {
    case '=':
      return order === 0;
    case '!=':
      return order !== 0;
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
  }
}

/** Maven's range notation: `[1.0,2.0)`, `(,1.0]`, `[1.5]`, several joined by commas (any of them). */
function mavenIntervals(text: string): ((version: string) => boolean | undefined) | string {
  const intervals: { low?: string; lowIn: boolean; high?: string; highIn: boolean }[] = [];
  const pattern = /\s*([[(])([^,\])]*)(?:,([^\])]*))?([\])])\s*(?:,|$)/y;
  let index = 0;
  while (index < text.length) {
    pattern.lastIndex = index;
    const match = pattern.exec(text);
    if (match === null) return 'is not a Maven version range (such as "[1.0,2.0)" or "(,1.0]")';
    index = pattern.lastIndex;
    const [, open, first, second, close] = match;
    const low = first!.trim();
    if (second === undefined) {
      if (open !== '[' || close !== ']' || low === '') return 'has a single version not written as [1.5]';
      intervals.push({ low, lowIn: true, high: low, highIn: true });
    } else {
      const high = second.trim();
      intervals.push({
        ...(low === '' ? {} : { low }),
        lowIn: open === '[',
        ...(high === '' ? {} : { high }),
        highIn: close === ']',
      });
    }
  }
  return (version) => {
    if (version.trim() === '') return undefined;
    return intervals.some(
      (i) =>
        (i.low === undefined || (i.lowIn ? compareMaven(version, i.low) >= 0 : compareMaven(version, i.low) > 0)) &&
        (i.high === undefined || (i.highIn ? compareMaven(version, i.high) <= 0 : compareMaven(version, i.high) < 0)),
    );
  };
}

/** `vers:<scheme>/<constraint>|<constraint>…`, read and checked as the spec says; contained as its algorithm says. */
function parseVers(text: string): VersionRange | string {
  const match = /^vers:([a-z0-9.+-]+)\/(.*)$/i.exec(text);
  if (match === null) return 'is not a vers range (vers:<scheme>/<constraint>|<constraint>…)';
  const name = match[1]!.toLowerCase();
  if (!VERS_SCHEMES.includes(name))
    return `names the vers scheme "${name.slice(0, 40)}", which bomwright does not compare (${VERS_SCHEMES.join(', ')})`;
  const scheme = schemeOf(name);
  const body = match[2]!.replace(/\s+/g, '');
  if (body === '*') return { scheme, contains: () => true };
  const constraints: { op: Comparator; version: string }[] = [];
  for (const part of body.split('|')) {
    const c = /^(!=|<=|>=|=|<|>)?(.+)$/.exec(part);
    if (c === null) return 'has an empty constraint';
    let version: string;
    try {
      version = decodeURIComponent(c[2]!);
    } catch {
      return `has a malformed percent-encoding in "${c[2]!.slice(0, 40)}"`;
    }
    if (/^[<>=!*]/.test(version)) return `has a malformed constraint "${part.slice(0, 40)}"`;
    if (compareVersions(scheme, version, version) === undefined)
      return `has "${version.slice(0, 40)}", which is not a ${name} version`;
    constraints.push({ op: (c[1] ?? '=') as Comparator, version });
  }
  const sorted = [...constraints].sort((x, y) => compareVersions(scheme, x.version, y.version)!);
  for (let i = 1; i < sorted.length; i++)
    if (compareVersions(scheme, sorted[i - 1]!.version, sorted[i]!.version) === 0)
      return `names the version "${sorted[i]!.version.slice(0, 40)}" twice`;
  const equal = sorted.filter((c) => c.op === '=' || c.op === '!=');
  const bounds = sorted.filter((c) => c.op !== '=' && c.op !== '!=');
  return {
    scheme,
    contains: (version) => {
      if (compareVersions(scheme, version, version) === undefined) return undefined;
      const order = (c: { version: string }) => compareVersions(scheme, version, c.version)!;
      for (const c of equal) if (order(c) === 0) return c.op === '=';
      if (bounds.length === 0) return equal.some((c) => c.op === '!=');
      // The spec's containment: below a first upper bound, above a last lower bound, or between a lower and the
      // upper bound that follows it.
      const first = bounds[0]!;
      if ((first.op === '<' && order(first) < 0) || (first.op === '<=' && order(first) <= 0)) return true;
      const last = bounds.at(-1)!;
      if ((last.op === '>' && order(last) > 0) || (last.op === '>=' && order(last) >= 0)) return true;
      for (let i = 0; i + 1 < bounds.length; i++) {
        const low = bounds[i]!;
        const high = bounds[i + 1]!;
        if (low.op !== '>' && low.op !== '>=') continue;
        if (high.op !== '<' && high.op !== '<=') continue;
        const aboveLow = low.op === '>' ? order(low) > 0 : order(low) >= 0;
        const belowHigh = high.op === '<' ? order(high) < 0 : order(high) <= 0;
        if (aboveLow && belowHigh) return true;
      }
      return false;
    },
  };
}

// --- Maven ----------------------------------------------------------------------------------------------------

/** Qualifiers in Maven's order; an unknown one sorts after them all, by its text. */
const MAVEN_QUALIFIERS = ['alpha', 'beta', 'milestone', 'rc', 'snapshot', '', 'sp'];
const MAVEN_ALIASES: Readonly<Record<string, string>> = { ga: '', final: '', release: '', cr: 'rc' };

type MavenItem = number | string;

/** Items of a Maven version: numbers and qualifiers, split at `.`, `-` and where digits and letters meet. */
function mavenItems(version: string): MavenItem[] {
  const tokens =
    version
      .trim()
      .toLowerCase()
      .match(/\d+|[a-z]+/g) ?? [];
  const items: MavenItem[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (/^\d/.test(token)) {
      items.push(Number(token));
      continue;
    }
    // `a1`, `b2`, `m3`: alpha, beta, milestone when a number follows at once.
    const next = tokens[i + 1];
    const short = next !== undefined && /^\d/.test(next) && version.toLowerCase().includes(`${token}${next}`);
    const long =
      short && token === 'a' ? 'alpha' : short && token === 'b' ? 'beta' : short && token === 'm' ? 'milestone' : token;
    items.push(MAVEN_ALIASES[long] ?? long);
  }
  // Trailing zeros and release qualifiers say nothing: 1.0.0 = 1 = 1-final.
  while (items.length > 0 && (items.at(-1) === 0 || items.at(-1) === '')) items.pop();
  return items;
}

function qualifierRank(q: string): [number, string] {
  const index = MAVEN_QUALIFIERS.indexOf(q);
  return index === -1 ? [MAVEN_QUALIFIERS.length, q] : [index, ''];
}

function compareMavenItem(a: MavenItem | undefined, b: MavenItem | undefined): number {
  if (typeof a === 'number' || typeof b === 'number') {
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    // A number is newer than any qualifier; a missing item is 0 against a number.
    if (typeof a === 'number') return b === undefined ? a - 0 : 1;
    return a === undefined ? 0 - (b as number) : -1;
  }
  const [x, xs] = qualifierRank(a ?? '');
  const [y, ys] = qualifierRank(b ?? '');
  return x - y || (xs < ys ? -1 : xs > ys ? 1 : 0);
}

function compareMaven(a: string, b: string): number {
  const x = mavenItems(a);
  const y = mavenItems(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const order = compareMavenItem(x[i], y[i]);
    if (order !== 0) return Math.sign(order);
  }
  return 0;
}

// --- Debian and RPM ---------------------------------------------------------------------------------------------

interface Evr {
  epoch: number;
  version: string;
  release: string;
}

function compareEvr(a: Evr, b: Evr, compare: (x: string, y: string) => number): number {
  return Math.sign(a.epoch - b.epoch || compare(a.version, b.version) || compare(a.release, b.release));
}

/** `[epoch:]upstream[-revision]`, as dpkg reads it; undefined when dpkg would refuse it. */
function debianParts(text: string): Evr | undefined {
  const match = /^(?:(\d+):)?([0-9][A-Za-z0-9.+~:-]*?)(?:-([A-Za-z0-9.+~]+))?$/.exec(text.trim());
  if (match === null) return undefined;
  return { epoch: Number(match[1] ?? 0), version: match[2]!, release: match[3] ?? '' };
}

/** dpkg's order of characters: `~` before everything (even the end), letters before the rest. */
function debianOrder(c: string | undefined): number {
  if (c === undefined) return 0;
  if (c === '~') return -1;
  if (/[A-Za-z]/.test(c)) return c.charCodeAt(0);
  return c.charCodeAt(0) + 256;
}

/** dpkg's verrevcmp: alternating non-digit parts (by debianOrder) and digit parts (by value). */
function verrevcmp(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    let first = 0;
    while ((i < a.length && !isDigit(a[i]!)) || (j < b.length && !isDigit(b[j]!))) {
      const x = i < a.length && !isDigit(a[i]!) ? debianOrder(a[i]) : 0;
      const y = j < b.length && !isDigit(b[j]!) ? debianOrder(b[j]) : 0;
      if (x !== y) return x - y;
      i++;
      j++;
    }
    while (a[i] === '0') i++;
    while (b[j] === '0') j++;
    while (i < a.length && isDigit(a[i]!) && j < b.length && isDigit(b[j]!)) {
      if (first === 0) first = a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
    if (i < a.length && isDigit(a[i]!)) return 1;
    if (j < b.length && isDigit(b[j]!)) return -1;
    if (first !== 0) return first;
  }
  return 0;
}

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

/** `[epoch:]version[-release]`, as rpm reads it. */
function rpmParts(text: string): Evr | undefined {
  const match = /^(?:(\d+):)?([^\s:-][^\s-]*)(?:-([^\s-]+))?$/.exec(text.trim());
  if (match === null) return undefined;
  return { epoch: Number(match[1] ?? 0), version: match[2]!, release: match[3] ?? '' };
}

/** rpm's rpmvercmp: alphanumeric segments, digits by value and newer than letters; `~` before, `^` after the end. */
export function rpmvercmp(a: string, b: string): number {
  if (a === b) return 0;
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < a.length && !/[A-Za-z0-9~^]/.test(a[i]!)) i++;
    while (j < b.length && !/[A-Za-z0-9~^]/.test(b[j]!)) j++;
    if (a[i] === '~' || b[j] === '~') {
      if (a[i] !== '~') return 1;
      if (b[j] !== '~') return -1;
      i++;
      j++;
      continue;
    }
    if (a[i] === '^' || b[j] === '^') {
      if (i >= a.length) return -1;
      if (j >= b.length) return 1;
      if (a[i] !== '^') return 1;
      if (b[j] !== '^') return -1;
      i++;
      j++;
      continue;
    }
    if (i >= a.length || j >= b.length) break;
    const numeric = isDigit(a[i]!);
    const segment = numeric ? /^\d+/ : /^[A-Za-z]+/;
    const x = segment.exec(a.slice(i))?.[0] ?? '';
    const y = segment.exec(b.slice(j))?.[0] ?? '';
    if (y === '') return numeric ? 1 : -1;
    i += x.length;
    j += y.length;
    if (numeric) {
      const xs = x.replace(/^0+/, '');
      const ys = y.replace(/^0+/, '');
      if (xs.length !== ys.length) return xs.length - ys.length;
      if (xs !== ys) return xs < ys ? -1 : 1;
    } else if (x !== y) return x < y ? -1 : 1;
  }
  if (i >= a.length && j >= b.length) return 0;
  return i >= a.length ? -1 : 1;
}

// --- Alpine -----------------------------------------------------------------------------------------------------

interface AlpineVersion {
  numbers: string[];
  letter: string;
  suffixes: [number, number][];
  revision: number;
}

/** apk's suffixes: the pre-releases before none, the post-releases after. */
const ALPINE_SUFFIXES = ['alpha', 'beta', 'pre', 'rc', '', 'cvs', 'svn', 'git', 'hg', 'p'];

function alpineVersion(text: string): AlpineVersion | undefined {
  const match = /^(\d+(?:\.\d+)*)([a-z]?)((?:_(?:alpha|beta|pre|rc|cvs|svn|git|hg|p)\d*)*)(?:-r(\d+))?$/.exec(
    text.trim(),
  );
  if (match === null) return undefined;
  const suffixes = [...match[3]!.matchAll(/_([a-z]+)(\d*)/g)].map(
    (s) => [ALPINE_SUFFIXES.indexOf(s[1]!), Number(s[2] || 0)] as [number, number],
  );
  return { numbers: match[1]!.split('.'), letter: match[2]!, suffixes, revision: Number(match[4] ?? 0) };
}

function compareAlpine(a: AlpineVersion, b: AlpineVersion): number {
  for (let i = 0; i < Math.max(a.numbers.length, b.numbers.length); i++) {
    const x = a.numbers[i];
    const y = b.numbers[i];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    // apk compares a part after the first with a leading zero as a fraction: by its digits, not its value.
    const order =
      i > 0 && (x.startsWith('0') || y.startsWith('0')) ? (x < y ? -1 : x > y ? 1 : 0) : Number(x) - Number(y);
    if (order !== 0) return Math.sign(order);
  }
  if (a.letter !== b.letter) return a.letter < b.letter ? -1 : 1;
  const none = ALPINE_SUFFIXES.indexOf('');
  for (let i = 0; i < Math.max(a.suffixes.length, b.suffixes.length); i++) {
    const [x, xn] = a.suffixes[i] ?? [none, 0];
    const [y, yn] = b.suffixes[i] ?? [none, 0];
    if (x !== y) return Math.sign(x - y);
    if (xn !== yn) return Math.sign(xn - yn);
  }
  return Math.sign(a.revision - b.revision);
}

// --- generic ----------------------------------------------------------------------------------------------------

/** vers' generic scheme: segments split at `.` and `-`, numbers by value and before text, text by its characters. */
function compareGeneric(a: string, b: string): number {
  const x = a.trim().split(/[.-]/);
  const y = b.trim().split(/[.-]/);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const p = x[i] ?? '0';
    const q = y[i] ?? '0';
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    let order: number;
    if (pn && qn) order = Number(p) - Number(q);
    else if (pn !== qn) order = pn ? 1 : -1;
    else order = p < q ? -1 : p > q ? 1 : 0;
    if (order !== 0) return Math.sign(order);
  }
  return 0;
}
