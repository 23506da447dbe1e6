/**
 * A deterministic form of a document, so that two producers' (or two runs') output of the same BOM is the same
 * text: members in the schema's order (unknown ones alphabetically after), and arrays sorted only where the
 * specification gives their order no meaning. Licences keep their order (1.5/1.6 give a single expression
 * meaning by position), and so does every array whose order a signature covers.
 */
import { BomwrightError } from '../errors.js';
import { canonicalKey } from '../validate/unique.js';
import { isUnorderedArray } from '../compare/order.js';
import { checkDepth } from '../json/walk.js';
import { isRecord, setMember } from '../values.js';

type Kind = 'root' | 'metadata' | 'tools' | 'component' | 'service' | 'dependency' | 'other';

/** Member order of the CycloneDX schemas (1.2–1.7 and CBOM merged; each version uses a subsequence). */
const ORDER: Partial<Record<Kind, readonly string[]>> = {
  root: [
    '$schema',
    'bomFormat',
    'specVersion',
    'serialNumber',
    'version',
    'metadata',
    'components',
    'services',
    'externalReferences',
    'dependencies',
    'compositions',
    'vulnerabilities',
    'annotations',
    'formulation',
    'declarations',
    'definitions',
    'citations',
    'properties',
    'signature',
  ],
  metadata: [
    'timestamp',
    'lifecycles',
    'tools',
    'manufacturer',
    'authors',
    'component',
    'manufacture',
    'supplier',
    'licenses',
    'properties',
    'distributionConstraints',
  ],
  tools: ['components', 'services'],
  component: [
    'type',
    'mime-type',
    'bom-ref',
    'supplier',
    'manufacturer',
    'authors',
    'author',
    'publisher',
    'group',
    'name',
    'version',
    'versionRange',
    'isExternal',
    'description',
    'scope',
    'hashes',
    'licenses',
    'copyright',
    'patentAssertions',
    'cpe',
    'purl',
    'omniborId',
    'swhid',
    'swid',
    'modified',
    'pedigree',
    'externalReferences',
    'components',
    'evidence',
    'releaseNotes',
    'modelCard',
    'data',
    'cryptoProperties',
    'properties',
    'tags',
    'signature',
  ],
  service: [
    'bom-ref',
    'provider',
    'group',
    'name',
    'version',
    'description',
    'endpoints',
    'authenticated',
    'x-trust-boundary',
    'trustZone',
    'data',
    'licenses',
    'patentAssertions',
    'externalReferences',
    'services',
    'releaseNotes',
    'properties',
    'tags',
    'signature',
  ],
  dependency: ['ref', 'dependsOn', 'provides', 'dependencyType'],
};

const RANK = new Map(Object.entries(ORDER).map(([kind, keys]) => [kind, new Map(keys.map((k, i) => [k, i]))]));

function memberKind(kind: Kind, key: string): Kind {
  if (kind === 'root' && key === 'metadata') return 'metadata';
  if (kind === 'metadata' && key === 'component') return 'component';
  if (kind === 'metadata' && key === 'tools') return 'tools';
  return 'other';
}

function itemKind(kind: Kind, key: string): Kind {
  if (key === 'components' && (kind === 'root' || kind === 'component' || kind === 'tools')) return 'component';
  if (key === 'services' && (kind === 'root' || kind === 'service' || kind === 'tools')) return 'service';
  if (key === 'dependencies' && kind === 'root') return 'dependency';
  return 'other';
}

/** Known members in schema order, then the rest by UTF-16 code units (locale-independent). */
function orderedKeys(record: Record<string, unknown>, kind: Kind): string[] {
  const rank = RANK.get(kind);
  const keys = Object.keys(record);
  if (rank === undefined) return keys.sort();
  return keys.sort((a, b) => {
    const ra = rank.get(a);
    const rb = rank.get(b);
    if (ra !== undefined || rb !== undefined) return (ra ?? Infinity) - (rb ?? Infinity);
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function compareText(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

/** Sort keys for an array member, or undefined for arrays whose order is kept. */
function sortKeyOf(kind: Kind, key: string, items: readonly unknown[]): ((item: unknown) => string[]) | undefined {
  // Only arrays the one table calls sets are sorted, so the version rule and diff see no change.
  if (!isUnorderedArray(key)) return undefined;
  if (!items.every(isRecord)) {
    const strings = kind === 'dependency' && (key === 'dependsOn' || key === 'provides');
    return strings && items.every((i) => typeof i === 'string') ? (item) => [item as string] : undefined;
  }
  const field = (name: string) => (item: unknown) => text((item as Record<string, unknown>)[name]);
  const named = (item: Record<string, unknown>) => `${text(item.name)}@${text(item.version)}`;
  const element = itemKind(kind, key);
  if (element === 'component')
    return (item) => {
      const c = item as Record<string, unknown>;
      return [text(c['bom-ref']), text(c.purl), named(c), text(c.group)];
    };
  if (element === 'service')
    return (item) => {
      const s = item as Record<string, unknown>;
      return [text(s['bom-ref']), named(s), text(s.group)];
    };
  if (element === 'dependency') return (item) => [field('ref')(item), field('dependencyType')(item)];
  if (key === 'hashes') return (item) => [field('alg')(item), field('content')(item)];
  if (key === 'properties') return (item) => [field('name')(item)];
  if (key === 'externalReferences') return (item) => [field('type')(item), field('url')(item)];
  return undefined;
}

/** Elements whose position a tie would leave to input order get the full content as the last key. */
const FULL_TIEBREAK = new Set<Kind>(['component', 'service', 'dependency']);

/** Objects that hold a signature or contain one: their arrays keep their order. */
function findSigned(value: unknown, holders: WeakSet<object>, depth: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  checkDepth(depth);
  let found = false;
  if (Array.isArray(value)) {
    for (const item of value) if (findSigned(item, holders, depth + 1)) found = true;
  } else {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (key === 'signature') found = true;
      else if (findSigned(record[key], holders, depth + 1)) found = true;
    }
  }
  if (found) holders.add(value);
  return found;
}

interface Walk {
  holders: WeakSet<object>;
}

function normalizeObject(record: Record<string, unknown>, kind: Kind, frozen: boolean, walk: Walk, depth: number) {
  checkDepth(depth);
  const signed = Object.hasOwn(record, 'signature');
  // Inside a signed object nothing may move; an object on the way to one keeps its own arrays in order, so
  // signed objects stay where they are.
  const inside = frozen || signed;
  const keepArrays = inside || walk.holders.has(record);
  const out: Record<string, unknown> = {};
  for (const key of orderedKeys(record, kind)) {
    const value = record[key];
    let normalized: unknown;
    if (Array.isArray(value)) normalized = normalizeArray(value, kind, key, keepArrays, inside, walk, depth + 1);
    else if (isRecord(value)) normalized = normalizeObject(value, memberKind(kind, key), inside, walk, depth + 1);
    else normalized = value;
    setMember(out, key, normalized);
  }
  return out;
}

function normalizeArray(
  array: readonly unknown[],
  kind: Kind,
  key: string,
  keepOrder: boolean,
  frozen: boolean,
  walk: Walk,
  depth: number,
): unknown[] {
  checkDepth(depth);
  const elementKind = itemKind(kind, key);
  const items = array.map((item) =>
    Array.isArray(item)
      ? normalizeArray(item, 'other', '', keepOrder, frozen, walk, depth + 1)
      : isRecord(item)
        ? normalizeObject(item, elementKind, frozen, walk, depth + 1)
        : item,
  );
  const sortKey = keepOrder || walk.holders.has(array) ? undefined : sortKeyOf(kind, key, items);
  if (sortKey === undefined) return items;
  const tiebreak = FULL_TIEBREAK.has(elementKind);
  const keyed = items.map((item) => ({ item, key: sortKey(item), full: undefined as string | undefined }));
  keyed.sort((a, b) => {
    const order = compareText(a.key, b.key);
    if (order !== 0 || !tiebreak) return order;
    a.full ??= canonicalKey(a.item);
    b.full ??= canonicalKey(b.item);
    return a.full < b.full ? -1 : a.full > b.full ? 1 : 0;
  });
  return keyed.map((k) => k.item);
}

/**
 * The document with deterministic member and array order; the input is not modified. Member order: the
 * schema's for the document, metadata, tools, components, services and dependencies, alphabetical elsewhere.
 * Arrays sorted: components and services (recursively; by bom-ref, purl, name@version), dependencies (by ref)
 * and their dependsOn/provides, hashes (by alg), properties (by name, stable), externalReferences (by type and
 * url). Signatures stay valid: JSF signs the canonical form, where member order does not count but array order
 * does, so no array inside a signed object is reordered, nor any array member of an object containing one.
 * Idempotent.
 */
export function normalizeDocument(document: unknown): Record<string, unknown> {
  if (!isRecord(document)) throw new BomwrightError('E_INPUT', 'Only a BOM object can be normalized');
  const walk: Walk = { holders: new WeakSet() };
  findSigned(document, walk.holders, 0);
  return normalizeObject(document, 'root', false, walk, 0);
}

/** Whether a document is in normalized form already (the same members and arrays in the same order). */
export function isNormalized(document: unknown): boolean {
  return isRecord(document) && JSON.stringify(normalizeDocument(document)) === JSON.stringify(document);
}
