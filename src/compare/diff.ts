/**
 * What changed between two versions of a BOM: components and services (matched by bom-ref, then purl, then
 * name and version), dependency entries, metadata and the other top-level members. Signatures are not content
 * and are ignored. Linear: elements are matched through maps, and each is serialized once to find the changed.
 */
import { appendPointer } from '../json/pointer.js';
import { checkDepth } from '../json/walk.js';
import { isRecord } from '../values.js';
import { isUnorderedArray } from './order.js';

/**
 * One changed member: a dotted path and the old and new values as JSON values. For two arrays, also the items only
 * in the new one and only in the old one (compared as multisets), which are both empty when only the order
 * changed; an item changed in place (an object sharing members with one it replaced) is not among them but has
 * changes of its own, at `path[index]` (its index in the new array): `externalReferences[1].url`.
 */
export interface MemberChange {
  path: string;
  /** Absent when the member was added. */
  old?: unknown;
  /** Absent when the member was removed. */
  new?: unknown;
  added?: unknown[];
  removed?: unknown[];
}

export interface ElementSummary {
  /** The purl, else the bom-ref, else name@version: how the element is shown. */
  label: string;
  /** Where it is (in the new document; in the old one for removed elements). */
  pointer: string;
  bomRef?: string;
  purl?: string;
  name?: string;
  version?: string;
}

export interface ElementChange extends ElementSummary {
  matchedBy: 'bom-ref' | 'purl' | 'name@version';
  oldPointer: string;
  changes: MemberChange[];
}

export interface ElementDiff {
  added: ElementSummary[];
  removed: ElementSummary[];
  changed: ElementChange[];
}

export interface DependencyEntry {
  ref: string;
  dependencyType?: string;
  dependsOn: string[];
  provides: string[];
}

export interface DependencyChange {
  ref: string;
  dependencyType?: string;
  dependsOnAdded: string[];
  dependsOnRemoved: string[];
  providesAdded: string[];
  providesRemoved: string[];
}

/** The differences between two documents; plain JSON data. */
export interface BomDiff {
  /** True when nothing differs (signatures aside). */
  identical: boolean;
  /** Top-level members other than metadata, components, services and dependencies (version, serialNumber…). */
  document: MemberChange[];
  metadata: { members: string[]; changes: MemberChange[] };
  components: ElementDiff;
  services: ElementDiff;
  dependencies: { added: DependencyEntry[]; removed: DependencyEntry[]; changed: DependencyChange[] };
}

const SIGNATURE = 'signature';

/**
 * Sorted-member JSON without signatures: equal for equal content whatever the member order, and whatever the
 * order of the arrays compare/order.ts calls sets (`member` is the name of the member holding `value`).
 */
function contentKey(value: unknown, skip: ReadonlySet<string> | undefined, depth: number, member = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  checkDepth(depth);
  if (Array.isArray(value)) {
    const items = value.map((v) => contentKey(v, undefined, depth + 1));
    if (isUnorderedArray(member)) items.sort();
    return '[' + items.join(',') + ']';
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => k !== SIGNATURE && record[k] !== undefined && !skip?.has(k))
    .sort();
  return (
    '{' + keys.map((k) => JSON.stringify(k) + ':' + contentKey(record[k], undefined, depth + 1, k)).join(',') + '}'
  );
}

function same(a: unknown, b: unknown, depth: number, member: string): boolean {
  if (a === undefined || b === undefined) return a === b;
  return contentKey(a, undefined, depth, member) === contentKey(b, undefined, depth, member);
}

/**
 * The items only in `b` and only in `a`, as multisets (a repeated item counts as often as it occurs), with their
 * indexes in `b` and `a`.
 */
function itemChanges(a: readonly unknown[], b: readonly unknown[], depth: number) {
  const aKeys = a.map((item) => contentKey(item, undefined, depth + 1));
  const bKeys = b.map((item) => contentKey(item, undefined, depth + 1));
  const pending = new Map<string, number>();
  for (const k of aKeys) pending.set(k, (pending.get(k) ?? 0) + 1);
  const added: number[] = [];
  bKeys.forEach((k, j) => {
    const left = pending.get(k) ?? 0;
    if (left > 0) pending.set(k, left - 1);
    else added.push(j);
  });
  const removed: number[] = [];
  aKeys.forEach((k, i) => {
    const left = pending.get(k) ?? 0;
    if (left > 0) {
      pending.set(k, left - 1);
      removed.push(i);
    }
  });
  return { added, removed };
}

/** How many members (at any depth, through objects) two values have in common. */
function sharedMembers(a: unknown, b: unknown, depth: number): number {
  if (!isRecord(a) || !isRecord(b)) return 0;
  checkDepth(depth);
  let shared = 0;
  for (const k of Object.keys(a)) {
    if (k === SIGNATURE || !Object.hasOwn(b, k) || a[k] === undefined) continue;
    if (contentKey(a[k], undefined, depth + 1, k) === contentKey(b[k], undefined, depth + 1, k)) shared++;
    else shared += sharedMembers(a[k], b[k], depth + 1);
  }
  return shared;
}

/** Above this many candidate pairs, changed items are listed as added and removed rather than paired. */
const MAX_PAIRINGS = 10_000;

/**
 * Removed and added objects that are one item changed: the pairs sharing the most members with equal content (at
 * least one, at any depth through objects), nearest in position on a tie. `[removed index in a, added index in b]`.
 */
function pairItems(
  a: readonly unknown[],
  b: readonly unknown[],
  removed: readonly number[],
  added: readonly number[],
  depth: number,
): [number, number][] {
  if (removed.length === 0 || added.length === 0 || removed.length * added.length > MAX_PAIRINGS) return [];
  const members = (item: unknown) =>
    isRecord(item)
      ? new Map(
          Object.keys(item)
            .filter((k) => k !== SIGNATURE && item[k] !== undefined)
            .map((k) => [k, contentKey(item[k], undefined, depth + 2, k)]),
        )
      : undefined;
  const news = added.map((j) => members(b[j]));
  const taken = new Set<number>();
  const pairs: [number, number][] = [];
  for (const i of removed) {
    const old = members(a[i]);
    if (old === undefined) continue;
    let best = -1;
    let bestScore = 0;
    news.forEach((candidate, n) => {
      if (candidate === undefined || taken.has(n)) return;
      let score = 0;
      for (const [k, key] of old) {
        const other = candidate.get(k);
        if (other === key) score++;
        // A wrapper such as {"license": {...}}: what the objects inside share counts.
        else if (other !== undefined)
          score += sharedMembers(
            (a[i] as Record<string, unknown>)[k],
            (b[added[n]!] as Record<string, unknown>)[k],
            depth + 2,
          );
      }
      const closer = best !== -1 && Math.abs(added[n]! - i) < Math.abs(added[best]! - i);
      if (score > bestScore || (score === bestScore && score > 0 && closer)) {
        best = n;
        bestScore = score;
      }
    });
    if (best === -1) continue;
    taken.add(best);
    pairs.push([i, added[best]!]);
  }
  return pairs;
}

/**
 * The changed leaves below `a` and `b`; objects are descended. Two arrays: an item changed in place (paired with
 * {@link pairItems}) is descended as `path[index]` (its index in `b`), and the items left over are listed whole.
 */
function changedPaths(
  a: unknown,
  b: unknown,
  path: string,
  skip: ReadonlySet<string> | undefined,
  out: MemberChange[],
  depth: number,
): void {
  checkDepth(depth);
  if (isRecord(a) && isRecord(b)) {
    const keys = [...Object.keys(a), ...Object.keys(b).filter((k) => !Object.hasOwn(a, k))];
    for (const key of keys) {
      if (key === SIGNATURE || skip?.has(key)) continue;
      const x = Object.hasOwn(a, key) ? a[key] : undefined;
      const y = Object.hasOwn(b, key) ? b[key] : undefined;
      changedPaths(x, y, path === '' ? key : `${path}.${key}`, undefined, out, depth + 1);
    }
    return;
  }
  if (same(a, b, depth, path.slice(path.lastIndexOf('.') + 1))) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    const { added, removed } = itemChanges(a, b, depth);
    const pairs = pairItems(a, b, removed, added, depth);
    const pairedOld = new Set(pairs.map(([i]) => i));
    const pairedNew = new Set(pairs.map(([, j]) => j));
    const rest = {
      added: added.filter((j) => !pairedNew.has(j)).map((j) => b[j]),
      removed: removed.filter((i) => !pairedOld.has(i)).map((i) => a[i]),
    };
    if (pairs.length === 0 || rest.added.length + rest.removed.length > 0) out.push({ path, old: a, new: b, ...rest });
    for (const [i, j] of pairs) changedPaths(a[i], b[j], `${path}[${j}]`, undefined, out, depth + 1);
    return;
  }
  const change: MemberChange = { path };
  if (a !== undefined) change.old = a;
  if (b !== undefined) change.new = b;
  out.push(change);
}

interface Element {
  record: Record<string, unknown>;
  pointer: string;
}

/** Every element of a top-level array and, recursively, of the same member inside each element. */
function flatten(document: Record<string, unknown>, member: 'components' | 'services'): Element[] {
  const out: Element[] = [];
  const stack: { items: unknown; pointer: string; depth: number }[] = [
    { items: document[member], pointer: `/${member}`, depth: 1 },
  ];
  while (stack.length > 0) {
    const { items, pointer, depth } = stack.pop()!;
    if (!Array.isArray(items)) continue;
    checkDepth(depth);
    const nested: typeof stack = [];
    items.forEach((item: unknown, i) => {
      if (!isRecord(item)) return;
      const at = appendPointer(pointer, i);
      out.push({ record: item, pointer: at });
      nested.push({ items: item[member], pointer: appendPointer(at, member), depth: depth + 2 });
    });
    // Reversed onto the stack, so elements come out in document order.
    for (let i = nested.length - 1; i >= 0; i--) stack.push(nested[i]!);
  }
  return out;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function nameVersion(record: Record<string, unknown>): string | undefined {
  const name = str(record.name);
  if (name === undefined) return undefined;
  const version = str(record.version);
  return version === undefined ? name : `${name}@${version}`;
}

function summary(element: Element): ElementSummary {
  const { record } = element;
  const out: ElementSummary = {
    label: str(record.purl) ?? str(record['bom-ref']) ?? nameVersion(record) ?? element.pointer,
    pointer: element.pointer,
  };
  if (str(record['bom-ref']) !== undefined) out.bomRef = record['bom-ref'] as string;
  if (str(record.purl) !== undefined) out.purl = record.purl as string;
  if (str(record.name) !== undefined) out.name = record.name as string;
  if (str(record.version) !== undefined) out.version = record.version as string;
  return out;
}

const MATCHERS: [ElementChange['matchedBy'], (record: Record<string, unknown>) => string | undefined][] = [
  ['bom-ref', (r) => str(r['bom-ref'])],
  ['purl', (r) => str(r.purl)],
  ['name@version', nameVersion],
];

function diffElements(olds: Element[], news: Element[], member: 'components' | 'services'): ElementDiff {
  const newMatch = new Int32Array(news.length).fill(-1);
  const oldMatch = new Int32Array(olds.length).fill(-1);
  const matchedBy: ElementChange['matchedBy'][] = [];
  for (const [by, keyOf] of MATCHERS) {
    // Unmatched new elements by key, in document order: equal keys pair up in order.
    const queues = new Map<string, { list: number[]; next: number }>();
    news.forEach((element, j) => {
      if (newMatch[j] !== -1) return;
      const key = keyOf(element.record);
      if (key === undefined) return;
      const queue = queues.get(key);
      if (queue === undefined) queues.set(key, { list: [j], next: 0 });
      else queue.list.push(j);
    });
    olds.forEach((element, i) => {
      if (oldMatch[i] !== -1) return;
      const key = keyOf(element.record);
      const queue = key === undefined ? undefined : queues.get(key);
      if (queue === undefined || queue.next >= queue.list.length) return;
      const j = queue.list[queue.next++]!;
      oldMatch[i] = j;
      newMatch[j] = i;
      matchedBy[j] = by;
    });
  }
  // Nested elements are compared on their own, so an element's content leaves out its children.
  const skip = new Set([member]);
  const diff: ElementDiff = { added: [], removed: [], changed: [] };
  news.forEach((element, j) => {
    const i = newMatch[j]!;
    if (i === -1) {
      diff.added.push(summary(element));
      return;
    }
    const old = olds[i]!;
    if (contentKey(old.record, skip, 0) === contentKey(element.record, skip, 0)) return;
    const changes: MemberChange[] = [];
    changedPaths(old.record, element.record, '', skip, changes, 0);
    diff.changed.push({ ...summary(element), matchedBy: matchedBy[j]!, oldPointer: old.pointer, changes });
  });
  olds.forEach((element, i) => {
    if (oldMatch[i] === -1) diff.removed.push(summary(element));
  });
  return diff;
}

function dependencyEntries(document: Record<string, unknown>): Map<string, DependencyEntry> {
  const entries = new Map<string, DependencyEntry>();
  const list = document.dependencies;
  if (!Array.isArray(list)) return entries;
  const refs = (value: unknown) =>
    Array.isArray(value) ? value.filter((r): r is string => typeof r === 'string') : [];
  for (const item of list) {
    if (!isRecord(item) || typeof item.ref !== 'string') continue;
    const type = str(item.dependencyType);
    const key = type === undefined ? item.ref : `${item.ref}\u0000${type}`;
    const existing = entries.get(key);
    if (existing !== undefined) {
      // A repeated entry (invalid, but seen) adds to the first.
      existing.dependsOn.push(...refs(item.dependsOn));
      existing.provides.push(...refs(item.provides));
      continue;
    }
    const entry: DependencyEntry = { ref: item.ref, dependsOn: refs(item.dependsOn), provides: refs(item.provides) };
    if (type !== undefined) entry.dependencyType = type;
    entries.set(key, entry);
  }
  return entries;
}

const minus = (a: readonly string[], b: readonly string[]) => {
  const other = new Set(b);
  return [...new Set(a)].filter((x) => !other.has(x));
};

function diffDependencies(old: Record<string, unknown>, current: Record<string, unknown>): BomDiff['dependencies'] {
  const before = dependencyEntries(old);
  const after = dependencyEntries(current);
  const out: BomDiff['dependencies'] = { added: [], removed: [], changed: [] };
  for (const [key, entry] of after) {
    const was = before.get(key);
    if (was === undefined) {
      out.added.push(entry);
      continue;
    }
    const change: DependencyChange = {
      ref: entry.ref,
      dependsOnAdded: minus(entry.dependsOn, was.dependsOn),
      dependsOnRemoved: minus(was.dependsOn, entry.dependsOn),
      providesAdded: minus(entry.provides, was.provides),
      providesRemoved: minus(was.provides, entry.provides),
    };
    if (entry.dependencyType !== undefined) change.dependencyType = entry.dependencyType;
    const lists = [change.dependsOnAdded, change.dependsOnRemoved, change.providesAdded, change.providesRemoved];
    if (lists.some((l) => l.length > 0)) out.changed.push(change);
  }
  for (const [key, entry] of before) if (!after.has(key)) out.removed.push(entry);
  return out;
}

const ELEMENT_MEMBERS = new Set(['metadata', 'components', 'services', 'dependencies']);

/** The differences from `old` to `current`. Neither is modified; the result is plain JSON. */
export function diffDocuments(old: unknown, current: unknown): BomDiff {
  const a = isRecord(old) ? old : {};
  const b = isRecord(current) ? current : {};
  const document: MemberChange[] = [];
  changedPaths(a, b, '', ELEMENT_MEMBERS, document, 0);
  const metadataChanges: MemberChange[] = [];
  changedPaths(
    isRecord(a.metadata) ? a.metadata : {},
    isRecord(b.metadata) ? b.metadata : {},
    '',
    undefined,
    metadataChanges,
    1,
  );
  const metadata = {
    members: [...new Set(metadataChanges.map((c) => c.path.split(/[.[]/)[0]!))],
    changes: metadataChanges.map((c) => ({ ...c, path: `metadata.${c.path}` })),
  };
  const components = diffElements(flatten(a, 'components'), flatten(b, 'components'), 'components');
  const services = diffElements(flatten(a, 'services'), flatten(b, 'services'), 'services');
  const dependencies = diffDependencies(a, b);
  const identical =
    document.length === 0 &&
    metadataChanges.length === 0 &&
    [components, services, dependencies].every((d) => d.added.length + d.removed.length + d.changed.length === 0);
  return { identical, document, metadata, components, services, dependencies };
}
