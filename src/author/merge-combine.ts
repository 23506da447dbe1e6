/**
 * Combining the entries of one identity member by member: lists are unioned without duplicates (hashes as a set of
 * algorithm and value, licences by id/name/expression, external references by type and URL, properties by name and
 * value, anything else by content), objects member by member. A conflict is two values that cannot both be true (two
 * versions, two licences of one thing): the first value stays and the conflict is reported, never resolved
 * silently. Free text (descriptions, comments…) says the same thing in other words: the first is kept and the
 * difference only noted. Callers choose per member with a {@link MemberPolicy}.
 */
import { canonicalKey } from '../validate/unique.js';
import { checkDepth } from '../json/walk.js';
import { canonicalPurl } from './merge-identity.js';
import { display, isRecord, setMember } from '../values.js';

/** Two inputs disagree about one member of one element. */
export interface MergeConflict {
  /** The element: its purl, group/name@version, vulnerability id or bom-ref. */
  element: string;
  /** The member, e.g. `version`, `hashes[SHA-256]`, `licenses`, `supplier.name`. */
  member: string;
  /** The value kept (the earlier input's). */
  kept: string;
  /** The other value, and the input it comes from. */
  other: string;
  input: string;
}

/** What a difference in one member does: `fail` makes it a conflict; `first` keeps the earlier value and notes it. */
export type DifferencePolicy = 'fail' | 'first';

/**
 * Per-member choices, by member path without list keys (`description`, `externalReferences.comment`,
 * `supplier.name`) or by the last name alone (`comment`); the full path wins.
 */
export type MemberPolicy = Readonly<Record<string, DifferencePolicy>>;

/** Free text: two wordings of one thing are both true, so by default they never block a merge. */
const FREE_TEXT_MEMBERS: readonly string[] = [
  'description',
  'comment',
  'detail',
  'recommendation',
  'workaround',
  'notes',
  'text',
];

/**
 * Also `hashes`: by default a set (several SHA-256 values are one per distribution file); with `fail`, an
 * algorithm with different values on two entries is a conflict.
 */
function differencePolicy(policy: MemberPolicy, member: string): DifferencePolicy {
  const last = lastName(member);
  return chosenPolicy(policy, member) ?? (FREE_TEXT_MEMBERS.includes(last) ? 'first' : 'fail');
}

const withoutKeys = (member: string) => member.replace(/\[[^\]]*\]/g, '');
const lastName = (member: string) => withoutKeys(member).slice(withoutKeys(member).lastIndexOf('.') + 1);

/** The caller's choice for a member, if any. */
function chosenPolicy(policy: MemberPolicy, member: string): DifferencePolicy | undefined {
  return policy[withoutKeys(member)] ?? policy[lastName(member)];
}

export interface CombineContext {
  /** Conflicts are reported (components, services, vulnerabilities); tools are informational: first value kept. */
  strict: boolean;
  element: string;
  /** Name of the input whose entry is being combined in. */
  input: string;
  conflicts: MergeConflict[];
  /** Differences kept as the first value by policy (free text by default): reported, not blocking. */
  differences: MergeConflict[];
  policy: MemberPolicy;
  /** bom-ref of an entry dropped as a duplicate → the one kept, for references to follow. */
  aliases: Map<string, string>;
}

type ItemKey = (item: unknown) => string;

const field = (item: unknown, name: string): string => {
  const value = isRecord(item) ? item[name] : undefined;
  return typeof value === 'string' ? value : '';
};

/** Content without bom-refs: two copies of one thing from two inputs carry different ones. */
function contentKey(item: unknown): string {
  if (!isRecord(item) || !Object.hasOwn(item, 'bom-ref')) return canonicalKey(item);
  return canonicalKey({ ...item, 'bom-ref': undefined });
}

function licenseKey(item: unknown): string {
  if (!isRecord(item)) return canonicalKey(item);
  if (typeof item.expression === 'string') return `expression\u0000${item.expression}`;
  const license = isRecord(item.license) ? item.license : {};
  if (typeof license.id === 'string') return `id\u0000${license.id}`;
  if (typeof license.name === 'string') return `name\u0000${license.name}`;
  return contentKey(item);
}

/** Lists whose items have a key of their own; everything else is keyed by content. */
const KEYED: Readonly<Record<string, ItemKey>> = {
  externalReferences: (item) => `${field(item, 'type')}\u0000${field(item, 'url')}`,
  properties: (item) => `${field(item, 'name')}\u0000${field(item, 'value')}`,
  affects: (item) => field(item, 'ref') || contentKey(item),
};

/** `required` wins over `optional` over `excluded` (a missing scope means required): the product needs it if any part does. */
function combineScope(a: unknown, b: unknown): unknown {
  if (a === b) return a;
  const rank = (s: unknown) => (s === undefined || s === 'required' ? 0 : s === 'optional' ? 1 : 2);
  if (a === undefined || b === undefined) return rank(a) === 0 && rank(b) === 0 ? undefined : 'required';
  return rank(a) <= rank(b) ? a : b;
}

function conflict(ctx: CombineContext, member: string, kept: unknown, other: unknown): void {
  if (!ctx.strict) return;
  (differencePolicy(ctx.policy, member) === 'fail' ? ctx.conflicts : ctx.differences).push({
    element: ctx.element,
    member,
    kept: display(kept, 120) ?? '',
    other: display(other, 120) ?? '',
    input: ctx.input,
  });
}

function alias(ctx: CombineContext, kept: unknown, dropped: unknown): void {
  const from = isRecord(dropped) ? dropped['bom-ref'] : undefined;
  const to = isRecord(kept) ? kept['bom-ref'] : undefined;
  if (typeof from === 'string' && typeof to === 'string' && from !== to) ctx.aliases.set(from, to);
}

/** Items of `source` not in `target` (by key) appended; items with the same key combined. */
function unionInto(
  target: unknown[],
  source: readonly unknown[],
  key: ItemKey,
  path: string,
  ctx: CombineContext,
  depth: number,
) {
  const index = new Map<string, number>();
  target.forEach((item, i) => {
    const k = key(item);
    if (!index.has(k)) index.set(k, i);
  });
  for (const item of source) {
    const k = key(item);
    const at = index.get(k);
    if (at === undefined) {
      index.set(k, target.length);
      target.push(item);
    } else if (isRecord(target[at]) && isRecord(item) && KEYED[path.slice(path.lastIndexOf('.') + 1)] !== undefined) {
      // Same key, possibly richer content (an affects entry with more versions): combine them.
      combineInto(
        target[at] as Record<string, unknown>,
        item,
        `${path}[${k.replaceAll('\u0000', ' ')}]`,
        ctx,
        depth + 1,
      );
    } else alias(ctx, target[at], item);
  }
}

/** Hashes are a set of (algorithm, value); under `fail` an algorithm whose values differ is a conflict too. */
function combineHashes(target: unknown[], source: readonly unknown[], member: string, ctx: CombineContext): void {
  const key = (hash: unknown) => `${field(hash, 'alg')}\u0000${field(hash, 'content').toLowerCase()}`;
  const have = new Set(target.map(key));
  const strict = chosenPolicy(ctx.policy, member) === 'fail';
  const byAlg = new Map<string, string>();
  for (const hash of target) if (!byAlg.has(field(hash, 'alg'))) byAlg.set(field(hash, 'alg'), key(hash));
  for (const hash of source) {
    if (have.has(key(hash))) continue;
    const alg = field(hash, 'alg');
    const known = byAlg.get(alg);
    if (strict && known !== undefined) {
      conflict(ctx, `${member}[${alg}]`, known.slice(alg.length + 1), field(hash, 'content').toLowerCase());
      continue;
    }
    have.add(key(hash));
    target.push(hash);
  }
}

function combineLicenses(target: unknown[], source: readonly unknown[], ctx: CombineContext): void {
  const keys = (list: readonly unknown[]) => [...new Set(list.map(licenseKey))].sort();
  const a = keys(target);
  const b = keys(source);
  if (a.join('\u0001') !== b.join('\u0001')) {
    conflict(ctx, 'licenses', target, source);
    return;
  }
  unionInto(target, source, licenseKey, 'licenses', ctx, 0);
}

/**
 * Combines `source` into `target` (the caller's own copy), member by member. `components` and `services` are the
 * caller's (they are placed, not combined); `signature` members never reach here.
 */
export function combineInto(
  target: Record<string, unknown>,
  source: Record<string, unknown>,
  path: string,
  ctx: CombineContext,
  depth = 0,
): void {
  checkDepth(depth);
  // A missing scope means required, so scope is combined even when only one side has it.
  if (path === '' && (Object.hasOwn(target, 'scope') || Object.hasOwn(source, 'scope'))) {
    const scope = combineScope(target.scope, source.scope);
    if (scope === undefined) delete target.scope;
    else target.scope = scope;
  }
  for (const key of Object.keys(source)) {
    const member = path === '' ? key : `${path}.${key}`;
    const theirs = source[key];
    const ours = target[key];
    if (path === '' && (key === 'components' || key === 'services' || key === 'scope')) continue;
    if (ours === undefined) {
      if (theirs !== undefined) setMember(target, key, theirs);
      continue;
    }
    if (key === 'bom-ref') {
      alias(ctx, target, source);
      continue;
    }
    if (key === 'purl' && typeof ours === 'string' && typeof theirs === 'string') {
      if (ours !== theirs && (canonicalPurl(ours) ?? ours) !== (canonicalPurl(theirs) ?? theirs))
        conflict(ctx, member, ours, theirs);
      continue;
    }
    if (Array.isArray(ours) && Array.isArray(theirs)) {
      if (key === 'hashes') combineHashes(ours, theirs, member, ctx);
      else if (key === 'licenses') {
        if (ours.length === 0) setMember(target, key, theirs);
        else if (theirs.length > 0) combineLicenses(ours, theirs, ctx);
      } else unionInto(ours, theirs, KEYED[key] ?? contentKey, member, ctx, depth);
      continue;
    }
    if (isRecord(ours) && isRecord(theirs)) {
      combineInto(ours, theirs, member, ctx, depth + 1);
      continue;
    }
    if (ours !== theirs && canonicalKey(ours) !== canonicalKey(theirs)) conflict(ctx, member, ours, theirs);
  }
}

/** A list without items equal in content (bom-refs aside), first kept; dropped items' bom-refs become aliases. */
export function withoutDuplicates(
  items: readonly unknown[],
  ctx: CombineContext,
  key: ItemKey = contentKey,
): unknown[] {
  const out: unknown[] = [];
  unionInto(out, items, key, '', ctx, 0);
  return out;
}
