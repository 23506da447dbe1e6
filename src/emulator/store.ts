/**
 * The emulator's state: named collections of JSON records, read by handlers and changed only through a
 * transaction whose changes are whole-record puts and removals. Those changes are idempotent, so replaying a
 * journal suffix over a snapshot that already holds some of them gives the same state (see journal.ts).
 * Records are frozen when stored: a handler that mutates one in place fails loudly instead of bypassing the journal.
 */

export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };
export type JsonRecord = { readonly [key: string]: Json };

export const COLLECTIONS = [
  'meta',
  'users',
  'servicePrincipals',
  'groups',
  'threads',
  'teams',
  'teamsApps',
  'teamOperations',
  'messages',
  'removedMessages',
  'events',
  'workbooks',
  'workbookSessions',
  'accessPackages',
  'assignmentPolicies',
  'assignmentRequests',
  'homeRealmDiscoveryPolicies',
  'labelCategories',
  'ediscoveryCases',
  'places',
  'plannerTasks',
  'engagementRoles',
  'printTaskDefinitions',
  'cloudPcs',
  'driveItems',
  'bundles',
] as const;

export type CollectionName = (typeof COLLECTIONS)[number];

/** A whole state, collection by collection (see `Store.image`). */
export type StateImage = ReadonlyMap<CollectionName, ReadonlyMap<string, JsonRecord>>;

/** One change: a whole record put, or removed (`value` null). */
export type Change = readonly [collection: CollectionName, id: string, value: JsonRecord | null];

/** Records grouped under a parent key, for lookups such as "the messages of this folder". */
const PARENT_KEYS: Partial<Record<CollectionName, (record: JsonRecord) => string | undefined>> = {
  messages: (r) => `${String(r.userId)}/${String(r.folderId)}`,
  removedMessages: (r) => `${String(r.userId)}/${String(r.folderId)}`,
  threads: (r) => String(r.groupId),
  events: (r) => String(r.owner),
};

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export function isCollectionName(name: unknown): name is CollectionName {
  return typeof name === 'string' && (COLLECTIONS as readonly string[]).includes(name);
}

/**
 * Durable before visible: a change is applied here before its journal record is on disk, so every read notes the
 * journal seq of the newest not-yet-durable change of the collection it reads (`readHorizon`). A response that
 * read such a collection is held until that seq is durable (server.ts); one that did not goes out at once.
 */
export class Store {
  private readonly collections = new Map<CollectionName, Map<string, JsonRecord>>();
  private readonly children = new Map<CollectionName, Map<string, Set<string>>>();
  private readonly upnIndex = new Map<string, string>();
  /** Collections with changes whose journal record is not durable yet: the seq of the newest such change. */
  private readonly undurable = new Map<CollectionName, number>();
  private horizon = 0;

  constructor() {
    for (const name of COLLECTIONS) this.collections.set(name, new Map());
  }

  private read(collection: CollectionName): Map<string, JsonRecord> {
    if (this.undurable.size > 0) {
      const seq = this.undurable.get(collection);
      if (seq !== undefined && seq > this.horizon) this.horizon = seq;
    }
    return this.collections.get(collection)!;
  }

  /** The newest not-yet-durable seq read since the last call (0 when none), and a fresh start. */
  takeReadHorizon(): number {
    const horizon = this.horizon;
    this.horizon = 0;
    return horizon;
  }

  /** Every change up to `seq` is on disk: its collections read as durable again. */
  settle(seq: number): void {
    for (const [collection, newest] of this.undurable) if (newest <= seq) this.undurable.delete(collection);
  }

  get(collection: CollectionName, id: string): JsonRecord | undefined {
    return this.read(collection).get(id);
  }

  all(collection: CollectionName): IterableIterator<JsonRecord> {
    return this.read(collection).values();
  }

  size(collection: CollectionName): number {
    return this.read(collection).size;
  }

  /** Records of a collection under a parent key (see PARENT_KEYS). */
  childrenOf(collection: CollectionName, parent: string): JsonRecord[] {
    this.read(collection);
    const ids = this.children.get(collection)?.get(parent);
    if (ids === undefined) return [];
    const records = this.collections.get(collection)!;
    return [...ids].map((id) => records.get(id)!);
  }

  /** A user by id, or by user principal name (case-insensitive, as the directory compares them). */
  user(idOrUpn: string): JsonRecord | undefined {
    return this.get('users', idOrUpn) ?? this.get('users', this.upnIndex.get(idOrUpn.toLowerCase()) ?? '');
  }

  /**
   * Applies changes in order. Used by transactions, by seeding and by journal replay. `seq`: the journal record
   * that will carry them, not yet durable (see `settle`).
   */
  apply(changes: readonly Change[], seq?: number): void {
    for (const [collection, id, value] of changes) {
      const records = this.collections.get(collection);
      if (records === undefined) throw new TypeError(`unknown collection ${String(collection)}`);
      if (seq !== undefined) this.undurable.set(collection, seq);
      const previous = records.get(id);
      if (previous !== undefined) this.unindex(collection, id, previous);
      if (value === null) records.delete(id);
      else {
        records.set(id, deepFreeze(value));
        this.index(collection, id, value);
      }
    }
  }

  /**
   * The whole state as it is now, cheaply: records are frozen, so the image shares them (a copy of the maps only).
   * Reading it counts as reading every collection (durable before visible).
   */
  image(): StateImage {
    const image = new Map<CollectionName, ReadonlyMap<string, JsonRecord>>();
    for (const name of COLLECTIONS) image.set(name, new Map(this.read(name)));
    return image;
  }

  /** The changes that turn the state now into `target`: removals, and puts of records that differ. */
  changesTo(target: StateImage): Change[] {
    const changes: Change[] = [];
    for (const name of COLLECTIONS) {
      const now = this.read(name);
      const wanted = target.get(name) ?? new Map<string, JsonRecord>();
      for (const id of now.keys()) if (!wanted.has(id)) changes.push([name, id, null]);
      for (const [id, record] of wanted) {
        const current = now.get(id);
        // Most records are the very objects of the target (shared, frozen); the rest are compared as JSON.
        if (current !== record && (current === undefined || JSON.stringify(current) !== JSON.stringify(record)))
          changes.push([name, id, record]);
      }
    }
    return changes;
  }

  /** The whole state as one JSON value (for a snapshot). */
  toJSON(): Record<string, Record<string, JsonRecord>> {
    const out: Record<string, Record<string, JsonRecord>> = {};
    for (const [name, records] of this.collections) out[name] = Object.fromEntries(records);
    return out;
  }

  private index(collection: CollectionName, id: string, record: JsonRecord): void {
    if (collection === 'users' && typeof record.userPrincipalName === 'string')
      this.upnIndex.set(record.userPrincipalName.toLowerCase(), id);
    const parentOf = PARENT_KEYS[collection];
    if (parentOf === undefined) return;
    const parent = parentOf(record);
    if (parent === undefined) return;
    let byParent = this.children.get(collection);
    if (byParent === undefined) this.children.set(collection, (byParent = new Map()));
    let ids = byParent.get(parent);
    if (ids === undefined) byParent.set(parent, (ids = new Set()));
    ids.add(id);
  }

  private unindex(collection: CollectionName, id: string, record: JsonRecord): void {
    if (collection === 'users' && typeof record.userPrincipalName === 'string')
      this.upnIndex.delete(record.userPrincipalName.toLowerCase());
    const parentOf = PARENT_KEYS[collection];
    const parent = parentOf?.(record);
    if (parent === undefined) return;
    const ids = this.children.get(collection)?.get(parent);
    ids?.delete(id);
    if (ids?.size === 0) this.children.get(collection)!.delete(parent);
  }
}

/**
 * A handler's view of the store: reads see the transaction's own changes; nothing reaches the store until
 * `changes()` is committed, so a handler that fails half-way changes nothing.
 */
export class Transaction {
  /** Made on the first change: most requests only read. */
  private pending: Map<string, Change> | undefined;

  constructor(readonly store: Store) {}

  get(collection: CollectionName, id: string): JsonRecord | undefined {
    const change = this.pending?.get(`${collection}\u0000${id}`);
    if (change !== undefined) return change[2] ?? undefined;
    return this.store.get(collection, id);
  }

  put(collection: CollectionName, id: string, value: JsonRecord): void {
    (this.pending ??= new Map()).set(`${collection}\u0000${id}`, [collection, id, value]);
  }

  remove(collection: CollectionName, id: string): void {
    (this.pending ??= new Map()).set(`${collection}\u0000${id}`, [collection, id, null]);
  }

  changes(): Change[] {
    return this.pending === undefined ? [] : [...this.pending.values()];
  }
}
