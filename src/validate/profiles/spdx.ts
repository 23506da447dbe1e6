/**
 * SPDX licence expressions, read with a real parser (spdx-expression-parse), and the questions policies ask of
 * them: is an entry a valid licence statement, and can the component be used under the allowed licences only.
 */
import { profileLibraries, type SpdxNode } from './libraries.js';

/** Bounds the parser's recursion and work on hostile documents. */
const MAX_EXPRESSION_LENGTH = 2000;
const MAX_NESTING = 32;

const parsed = new Map<string, SpdxNode | undefined>();

/** The expression's tree, or undefined when it is not a valid SPDX licence expression. */
export function parseExpression(expression: string): SpdxNode | undefined {
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The trimmed text, or undefined when there is none; trimmed once (this runs per licence entry of every component). */
function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

const UNSTATED = new Set(['NOASSERTION', 'NONE']);
const UNSTATED_LENGTHS = new Set([...UNSTATED].map((u) => u.length));

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
function satisfiable(node: SpdxNode, accepted: (leaf: { license: string; exception?: string }) => boolean): boolean {
  if ('conjunction' in node) {
    return node.conjunction === 'or'
      ? satisfiable(node.left, accepted) || satisfiable(node.right, accepted)
      : satisfiable(node.left, accepted) && satisfiable(node.right, accepted);
  }
  return accepted(node);
}

/** Keys a leaf is known by in a list: `GPL-2.0-only WITH Classpath-exception-2.0` and `GPL-2.0-only`. */
function leafKeys(leaf: { license: string; exception?: string }): string[] {
  const base = leaf.license.toLowerCase();
  return leaf.exception === undefined ? [base] : [`${base} with ${leaf.exception.toLowerCase()}`, base];
}

export interface LicenceVerdict {
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
export interface LicenceList {
  /** `allow`: every leaf of some choice is on the list; `deny`: none is. */
  mode: 'allow' | 'deny';
  accepted: (leaf: { license: string; exception?: string }) => boolean;
  judged: Map<string, string | undefined>;
}

export function licenceList(list: readonly string[], mode: 'allow' | 'deny'): LicenceList {
  const keys = new Set(list.map((a) => a.toLowerCase().replace(/\s+/g, ' ')));
  const listed = (leaf: { license: string; exception?: string }) => leafKeys(leaf).some((k) => keys.has(k));
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

function describe(node: SpdxNode): string {
  if ('conjunction' in node)
    return `${describe(node.left)} ${node.conjunction.toUpperCase()} ${describe(node.right)}`.slice(0, 120);
  return `${node.license}${node.plus ? '+' : ''}${node.exception ? ` WITH ${node.exception}` : ''}`;
}
