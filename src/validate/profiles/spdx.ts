/**
 * SPDX licence expressions, read with a real parser (spdx-expression-parse), and the questions policies ask of
 * them: is an entry a valid licence statement, and can the component be used under the allowed licences only.
 */
import { nearestNames } from '../../nearest.js';
import { isRecord } from '../../values.js';
import { profileLibraries, type SpdxLeaf, type SpdxNode } from './libraries.js';

/** Bounds the parser's recursion and work on hostile documents. */
const MAX_EXPRESSION_LENGTH = 2000;
const MAX_NESTING = 32;

const parsed = new Map<string, SpdxNode | undefined>();

/** The expression's tree, or undefined when it is not a valid SPDX licence expression. */
function parseExpression(expression: string): SpdxNode | undefined {
  if (parsed.has(expression)) return parsed.get(expression);
  let node: SpdxNode | undefined;
  if (expression.length <= MAX_EXPRESSION_LENGTH && nesting(expression) <= MAX_NESTING) {
    try {
      node = profileLibraries().parseSpdx(expression);
    } catch {
      node = undefined;
    }
  }
  if (parsed.size > 10_000) parsed.clear();
  parsed.set(expression, node);
  return node;
}

function nesting(expression: string): number {
  let depth = 0;
  let most = 0;
  for (const c of expression) {
    if (c === '(') most = Math.max(most, ++depth);
    else if (c === ')') depth--;
  }
  return most;
}

/** The trimmed text, or undefined when there is none; trimmed once (this runs per licence entry of every component). */
function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

const UNSTATED = new Set(['NOASSERTION', 'NONE']);
const UNSTATED_LENGTHS = new Set([...UNSTATED].map((u) => u.length));

/** Why a `licenses[]` entry is not a valid licence statement (see {@link isValidLicenceEntry}); undefined when it is. */
export function licenceEntryFault(entry: unknown): string | undefined {
  if (isValidLicenceEntry(entry)) return undefined;
  if (!isRecord(entry)) return 'the entry is not an object';
  const expression = text(entry.expression);
  if (expression !== undefined)
    return `the expression ${JSON.stringify(truncated(expression))} is not a valid SPDX licence expression`;
  const licence = entry.license;
  if (!isRecord(licence)) return 'the entry has neither license nor expression';
  const id = text(licence.id);
  if (id !== undefined) return `${id} states no licence`;
  const name = text(licence.name);
  if (name === undefined) return 'the licence has neither id nor name';
  const { ids } = knownIds();
  const asId = ids.get(name.toLowerCase());
  if (asId !== undefined)
    return `${JSON.stringify(truncated(name))} is given as a name; it is the SPDX id ${asId}: write it as license.id`;
  return `the name ${JSON.stringify(truncated(name))} is neither an SPDX id nor a LicenseRef-…${nearest(name, ids.values())}`;
}

const truncated = (value: string) => (value.length > 80 ? `${value.slice(0, 80)}…` : value);

/**
 * A `licenses[]` entry as BSI TR-03183-2 reads it: an SPDX id, a `LicenseRef-` name, or a valid SPDX expression;
 * NOASSERTION and NONE state nothing.
 */
export function isValidLicenceEntry(entry: unknown): boolean {
  if (!isRecord(entry)) return false;
  const expression = text(entry.expression);
  if (expression !== undefined) return parseExpression(expression) !== undefined;
  const licence = entry.license;
  if (!isRecord(licence)) return false;
  const id = text(licence.id);
  // Only two ids state nothing; upper-casing every id of a large BOM to find them would cost an allocation each.
  if (id !== undefined) return !(UNSTATED_LENGTHS.has(id.length) && UNSTATED.has(id.toUpperCase()));
  const name = text(licence.name);
  return name !== undefined && name.startsWith('LicenseRef-');
}

/** The entry as an expression tree: an id or a name is one leaf; undefined when it cannot be read. */
function entryTree(entry: unknown): SpdxNode | undefined {
  if (!isRecord(entry)) return undefined;
  const expression = text(entry.expression);
  if (expression !== undefined) return parseExpression(expression);
  const licence = entry.license;
  if (!isRecord(licence)) return undefined;
  const id = text(licence.id) ?? text(licence.name);
  return id === undefined ? undefined : { license: id };
}

/** Whether some choice the expression offers (OR picks one side, AND needs both) uses only accepted licences. */
function satisfiable(node: SpdxNode, accepted: (leaf: SpdxLeaf) => boolean): boolean {
  if ('conjunction' in node) {
    return node.conjunction === 'or'
      ? satisfiable(node.left, accepted) || satisfiable(node.right, accepted)
      : satisfiable(node.left, accepted) && satisfiable(node.right, accepted);
  }
  return accepted(node);
}

interface Known {
  /** Every licence id, current and deprecated, by its lower-case form. */
  ids: Map<string, string>;
  deprecated: Set<string>;
  exceptions: Map<string, string>;
}

let known: Known | undefined;

function knownIds(): Known {
  if (known !== undefined) return known;
  const lists = profileLibraries().spdxLists();
  const ids = new Map<string, string>();
  for (const id of [...lists.licences, ...lists.deprecated]) ids.set(id.toLowerCase(), id);
  return (known = {
    ids,
    deprecated: new Set(lists.deprecated),
    exceptions: new Map(lists.exceptions.map((e) => [e.toLowerCase(), e])),
  });
}

/** A licence leaf as it is meant: canonical case, deprecated ids and `+` replaced by what SPDX now calls them. */
interface LicenceMeaning {
  license: string;
  /** `X+` of a licence with no `-or-later` id: X or any later version. */
  plus: boolean;
  exception?: string;
}

/**
 * What a leaf means, read with SPDX's list of deprecated ids: SPDX deprecated the bare GNU ids (`GPL-2.0`) for
 * `-only`, `+` on them for `-or-later`, and `X-with-Y-exception` for `X-only WITH Y-exception-N`. Which ids are
 * deprecated comes from the list; which replace them from the ids the list holds (`GPL-2.0-only` exists). A
 * deprecated id whose replacement cannot be read off the list (`Nunit`, `wxWindows`) means only itself.
 */
function licenceMeaning(leaf: { license: string; plus?: boolean; exception?: string }): LicenceMeaning {
  const { ids, deprecated, exceptions } = knownIds();
  let license = ids.get(leaf.license.toLowerCase()) ?? leaf.license;
  let plus = leaf.plus === true;
  let exception =
    leaf.exception === undefined ? undefined : (exceptions.get(leaf.exception.toLowerCase()) ?? leaf.exception);
  if (deprecated.has(license)) {
    const withException = /^(.+)-with-(.+)-exception$/.exec(license);
    if (withException !== null && ids.has(`${withException[1]!}-only`.toLowerCase())) {
      exception ??= versionedException(withException[2]!, withException[1]!, exceptions);
      license = ids.get(`${withException[1]!}-only`.toLowerCase())!;
    } else if (ids.has(`${license}-only`.toLowerCase())) {
      const replaced = ids.get(`${license}-${plus ? 'or-later' : 'only'}`.toLowerCase());
      if (replaced !== undefined) {
        license = replaced;
        plus = false;
      }
    }
  } else if (plus && license.endsWith('-only')) {
    const later = ids.get(`${license.slice(0, -'-only'.length)}-or-later`.toLowerCase());
    if (later !== undefined) {
      license = later;
      plus = false;
    }
  }
  return { license, plus, ...(exception === undefined ? {} : { exception }) };
}

/** `GCC` for GPL-3.0 → `GCC-exception-3.1`: the exception of that name whose major version is the licence's. */
function versionedException(
  name: string,
  licence: string,
  exceptions: ReadonlyMap<string, string>,
): string | undefined {
  const major = /-(\d+)\.\d+$/.exec(licence)?.[1];
  const prefix = `${name.toLowerCase()}-exception-`;
  const candidates = [...exceptions.entries()].filter(
    ([key]) => key.startsWith(prefix) && /^\d+\.\d+$/.test(key.slice(prefix.length)),
  );
  const same = candidates.filter(([key]) => key.slice(prefix.length).split('.')[0] === major);
  const chosen = same.length === 1 ? same[0] : candidates.length === 1 ? candidates[0] : undefined;
  return chosen?.[1];
}

/** The key of a meaning in a list: lower case, `+` and the exception kept. */
function meaningKey(meaning: LicenceMeaning, withException = true): string {
  const base = `${meaning.license.toLowerCase()}${meaning.plus ? '+' : ''}`;
  return withException && meaning.exception !== undefined ? `${base} with ${meaning.exception.toLowerCase()}` : base;
}

/**
 * Keys a leaf is known by in a list: `GPL-2.0-only WITH Classpath-exception-2.0` and `GPL-2.0-only`; `X+` (a
 * licence without an `-or-later` id) also as X, the version it offers first.
 */
function leafKeys(leaf: { license: string; plus?: boolean; exception?: string }): string[] {
  const meaning = licenceMeaning(leaf);
  const keys = [meaningKey(meaning), meaningKey(meaning, false)];
  if (meaning.plus) {
    const plain = { ...meaning, plus: false };
    keys.push(meaningKey(plain), meaningKey(plain, false));
  }
  return keys;
}

/** One licence: an id or a reference, an optional `+`, an optional `WITH` exception. */
const SINGLE = /^(\S+?)(\+?)(?:\s+WITH\s+(\S+))?$/i;
const REFERENCE = /^(?:DocumentRef-[A-Za-z0-9.-]+:)?LicenseRef-[A-Za-z0-9.-]+$/;

/**
 * A policy's list entry as a leaf: one licence, optionally with `+` and `WITH` an exception, ids in any case
 * (SPDX ids are case-insensitive); undefined when it is not one (the loader refuses those, {@link licenceEntryProblem}).
 */
function listEntryLeaf(entry: string): SpdxLeaf | undefined {
  const match = SINGLE.exec(entry.trim());
  if (match === null) return undefined;
  const { ids, exceptions } = knownIds();
  const license = REFERENCE.test(match[1]!) ? match[1]! : ids.get(match[1]!.toLowerCase());
  const exception = match[3] === undefined ? undefined : exceptions.get(match[3].toLowerCase());
  if (license === undefined || (match[3] !== undefined && exception === undefined)) return undefined;
  return {
    license,
    ...(match[2] === '+' ? { plus: true as const } : {}),
    ...(exception === undefined ? {} : { exception }),
  };
}

/** SPDX ids compared without case and punctuation: `gpl3.0-only` and `GPL-3.0-only` are one edit apart at most. */
const spdxKey = (id: string) => id.toLowerCase().replace(/[^a-z0-9]/g, '');

function nearest(text: string, candidates: Iterable<string>): string {
  const near = nearestNames(text, candidates, {
    key: spdxKey,
    maxEdits: (length) => (length >= 10 ? 2 : 1),
    prefixes: false,
  });
  return near.length === 0 ? '' : ` (did you mean ${near.map((n) => `"${n}"`).join(' or ')}?)`;
}

/** Why a policy's list entry is not one SPDX licence, with the nearest id; undefined when it is one. */
export function licenceEntryProblem(entry: string): string | undefined {
  if (listEntryLeaf(entry) !== undefined) return undefined;
  const trimmed = entry.trim();
  const shown = JSON.stringify(trimmed.length > 80 ? `${trimmed.slice(0, 80)}…` : trimmed);
  const match = SINGLE.exec(trimmed);
  if (match !== null) {
    const { ids, exceptions } = knownIds();
    const id = match[1]!;
    if (!REFERENCE.test(id) && !ids.has(id.toLowerCase()))
      return `${JSON.stringify(id.slice(0, 80))} is not an SPDX licence id${nearest(id, ids.values())}; use an id of the SPDX licence list or LicenseRef-…`;
    return `${JSON.stringify(match[3]!.slice(0, 80))} is not an SPDX exception id${nearest(match[3]!, exceptions.values())}`;
  }
  if (parseExpression(canonicalCase(trimmed)) !== undefined)
    return `${shown} is an expression: list one licence per entry (the list is read against each licence an expression offers)`;
  return `${shown} is not a valid SPDX licence expression: list one licence per entry, such as "GPL-3.0-only" or "GPL-2.0-only WITH Classpath-exception-2.0"`;
}

/** The expression with known ids, exceptions and operators in their canonical case (the parser reads them so). */
function canonicalCase(expression: string): string {
  const { ids, exceptions } = knownIds();
  return expression.replace(/[^\s()]+/g, (token) => {
    const upper = token.toUpperCase();
    if (upper === 'AND' || upper === 'OR' || upper === 'WITH') return upper;
    const plus = token.endsWith('+') ? '+' : '';
    const bare = plus === '' ? token : token.slice(0, -1);
    return (ids.get(bare.toLowerCase()) ?? exceptions.get(bare.toLowerCase()) ?? bare) + plus;
  });
}

interface LicenceVerdict {
  /** The index of the first entry that falls short, and why. */
  entry: number;
  reason: string;
}

/**
 * Allow: every entry can be satisfied with allowed licences only (`MIT OR GPL-3.0-only` with MIT allowed). An exception
 * only adds permissions, so `X WITH E` passes where X is allowed. Deny: no entry forces a denied licence
 * (`MIT OR GPL-3.0-only` passes a denylist holding GPL-3.0-only). A component without licences passes: require
 * them with a requirement of their own.
 */
/**
 * A policy's licence list, made once per policy. Components repeat a few licences thousands of times, so each
 * distinct entry (its expression, or its id or name) is judged once and the reason remembered.
 */
interface LicenceList {
  /** `allow`: every leaf of some choice is on the list; `deny`: none is. */
  mode: 'allow' | 'deny';
  accepted: (leaf: SpdxLeaf) => boolean;
  judged: Map<string, string | undefined>;
}

export function licenceList(list: readonly string[], mode: 'allow' | 'deny'): LicenceList {
  // Each entry by what it means (`GPL-2.0` is GPL-2.0-only); an entry that does not parse (only a hand-built
  // profile has one: the loader refuses them) by its text.
  const keys = new Set(
    list.map((entry) => {
      const leaf = listEntryLeaf(entry);
      return leaf === undefined ? entry.toLowerCase().replace(/\s+/g, ' ') : leafKeys(leaf)[0]!;
    }),
  );
  const listed = (leaf: SpdxLeaf) => leafKeys(leaf).some((k) => keys.has(k));
  // `X WITH E` is denied where the list names X or exactly `X WITH E`.
  return { mode, accepted: mode === 'allow' ? listed : (leaf) => !listed(leaf), judged: new Map() };
}

/** The entry's text as the tree is read from it (`e:` an expression, `l:` an id or name), or undefined. */
function entryKey(entry: unknown): string | undefined {
  if (!isRecord(entry)) return undefined;
  const expression = text(entry.expression);
  if (expression !== undefined) return `e:${expression}`;
  const licence = entry.license;
  if (!isRecord(licence)) return undefined;
  const id = text(licence.id) ?? text(licence.name);
  return id === undefined ? undefined : `l:${id}`;
}

/** Why the entry falls short of the list, or undefined when it does not. */
function judge(entry: unknown, list: LicenceList): string | undefined {
  const key = entryKey(entry);
  if (key === undefined) return 'its licence cannot be read as SPDX';
  if (list.judged.has(key)) return list.judged.get(key);
  const tree = entryTree(entry);
  const reason =
    tree === undefined
      ? 'its licence cannot be read as SPDX'
      : satisfiable(tree, list.accepted)
        ? undefined
        : `${describe(tree)} is ${list.mode === 'allow' ? 'not allowed' : 'denied'}`;
  if (list.judged.size > 10_000) list.judged.clear();
  list.judged.set(key, reason);
  return reason;
}

/**
 * Allow: every entry can be satisfied with allowed licences only (`MIT OR GPL-3.0-only` with MIT allowed). An exception
 * only adds permissions, so `X WITH E` passes where X is allowed. Deny: no entry forces a denied licence
 * (`MIT OR GPL-3.0-only` passes a denylist holding GPL-3.0-only). A component without licences passes: require
 * them with a requirement of their own.
 */
export function checkLicences(entries: readonly unknown[], list: LicenceList): LicenceVerdict | undefined {
  for (let index = 0; index < entries.length; index++) {
    const reason = judge(entries[index], list);
    if (reason !== undefined) return { entry: index, reason };
  }
  return undefined;
}

/** The expression as text, with parentheses where a part joins by the other operator (AND binds before OR). */
export function describe(node: SpdxNode): string {
  const text = describeNode(node);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

function describeNode(node: SpdxNode, parent?: 'and' | 'or'): string {
  if ('conjunction' in node) {
    const inner = `${describeNode(node.left, node.conjunction)} ${node.conjunction.toUpperCase()} ${describeNode(node.right, node.conjunction)}`;
    return parent !== undefined && parent !== node.conjunction ? `(${inner})` : inner;
  }
  return `${node.license}${node.plus ? '+' : ''}${node.exception ? ` WITH ${node.exception}` : ''}`;
}
