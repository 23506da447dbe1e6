/**
 * Durable state for `--state DIR`: an append-only journal of change records, fsynced before a write is
 * acknowledged, with group commit (every record queued during one fsync goes out with the next), compacted into a
 * snapshot when it grows.
 *
 * Files in DIR:
 * - `snapshot.json`  `{ format, seq, state }`, replaced atomically (node/write.ts: temp file, fsync, rename);
 * - `journal.log`    one record per line: `<crc32 hex> <json>\n`, json = `{ "s": seq, "c": [changes] }`;
 * - `keys.json`      the token signing key and the link-token secret, created once (mode 0600).
 *
 * Recovery: records at or below the snapshot's seq are already in it (replaying them again is harmless, since
 * changes are whole-record puts and removals). Bytes after the last newline are a torn write that was never
 * acknowledged (its fsync never returned): they are reported and cut off. A complete line that fails its checksum,
 * is not a change record, or skips a seq (records lost) is corruption: loading stops with an error naming the byte
 * offset rather than guess.
 */
import { closeSync, fsyncSync, ftruncateSync, openSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { BomwrightError } from '../errors.js';
import { writeFileAtomic } from '../node/write.js';
import { COLLECTIONS, isCollectionName, Store, type Change, type JsonRecord } from './store.js';

const SNAPSHOT = 'snapshot.json';
const JOURNAL = 'journal.log';
const SNAPSHOT_FORMAT = 'bomwright-emulator-state/1';
/** Compact once the journal is this large (bytes). */
export const DEFAULT_COMPACT_BYTES = 32 * 1024 * 1024;

interface LoadedState {
  store: Store;
  seq: number;
  /** Set when a torn tail was cut off: what was dropped, for the log. */
  tornTail?: { offset: number; bytes: number };
  /** True when DIR held no state yet (the caller seeds it). */
  fresh: boolean;
}

function checksum(json: string): string {
  return crc32(json).toString(16).padStart(8, '0');
}

export function encodeRecord(seq: number, changes: readonly Change[]): string {
  const json = JSON.stringify({ s: seq, c: changes });
  return `${checksum(json)} ${json}\n`;
}

function corrupt(file: string, message: string): BomwrightError {
  return new BomwrightError('E_STATE', `${file}: ${message}`);
}

function validChanges(value: unknown): value is Change[] {
  return (
    Array.isArray(value) &&
    value.every(
      (change) =>
        Array.isArray(change) &&
        change.length === 3 &&
        isCollectionName(change[0]) &&
        typeof change[1] === 'string' &&
        (change[2] === null || (typeof change[2] === 'object' && !Array.isArray(change[2]))),
    )
  );
}

/**
 * Reads snapshot and journal; cuts off a torn tail (and says so); refuses corruption. `readOnly` (a second
 * process reading the state of a running emulator) leaves a tail alone: it may be a write still in progress.
 */
export function loadState(dir: string, readOnly = false): LoadedState {
  const store = new Store();
  let seq = 0;
  let fresh = true;
  const snapshotFile = path.join(dir, SNAPSHOT);
  let snapshotText: string | undefined;
  try {
    snapshotText = readFileSync(snapshotFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw corrupt(snapshotFile, 'cannot be read');
  }
  if (snapshotText !== undefined) {
    fresh = false;
    let snapshot: { format?: unknown; seq?: unknown; state?: unknown };
    try {
      snapshot = JSON.parse(snapshotText) as typeof snapshot;
    } catch {
      throw corrupt(snapshotFile, 'is not valid JSON (it is written atomically, so the file was changed by hand)');
    }
    if (snapshot.format !== SNAPSHOT_FORMAT || typeof snapshot.seq !== 'number' || typeof snapshot.state !== 'object')
      throw corrupt(snapshotFile, `is not a ${SNAPSHOT_FORMAT} snapshot`);
    seq = snapshot.seq;
    const state = snapshot.state as Record<string, Record<string, JsonRecord>>;
    const changes: Change[] = [];
    for (const name of COLLECTIONS)
      for (const [id, record] of Object.entries(state[name] ?? {})) changes.push([name, id, record]);
    store.apply(changes);
  }

  const journalFile = path.join(dir, JOURNAL);
  let bytes: Buffer;
  try {
    bytes = readFileSync(journalFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { store, seq, fresh };
    throw corrupt(journalFile, 'cannot be read');
  }
  if (bytes.length > 0) fresh = false;
  let offset = 0;
  let line = 0;
  while (offset < bytes.length) {
    const end = bytes.indexOf(0x0a, offset);
    if (end === -1) {
      const tornTail = { offset, bytes: bytes.length - offset };
      if (!readOnly) truncate(journalFile, offset);
      return { store, seq, fresh, tornTail };
    }
    line++;
    const text = bytes.subarray(offset, end).toString('utf8');
    const space = text.indexOf(' ');
    const json = text.slice(space + 1);
    if (space !== 8 || checksum(json) !== text.slice(0, 8))
      throw corrupt(journalFile, `record ${line} at byte ${offset} fails its checksum: the journal is corrupt`);
    // A matching checksum over text that is not a record can only come from a hand edit: refused all the same.
    let record: { s?: unknown; c?: unknown } | null;
    try {
      record = JSON.parse(json) as typeof record;
    } catch {
      throw corrupt(journalFile, `record ${line} at byte ${offset} is not JSON`);
    }
    if (typeof record?.s !== 'number' || !validChanges(record.c))
      throw corrupt(journalFile, `record ${line} at byte ${offset} is not a change record`);
    // Records are numbered one after the other from the snapshot's seq: a jump means records were lost.
    if (record.s > seq + 1)
      throw corrupt(
        journalFile,
        `record ${line} at byte ${offset} has seq ${record.s} where ${seq + 1} was next: records are missing`,
      );
    if (record.s > seq) {
      store.apply(record.c);
      seq = record.s;
    }
    offset = end + 1;
  }
  return { store, seq, fresh };
}

function truncate(file: string, length: number): void {
  const fd = openSync(file, 'r+');
  try {
    ftruncateSync(fd, length);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** What the journal needs of its file: a FileHandle opened to append (a test wraps one to watch the calls). */
export interface JournalFile {
  write(data: string): Promise<unknown>;
  datasync(): Promise<void>;
  truncate(length: number): Promise<void>;
  stat(): Promise<{ size: number }>;
  close(): Promise<void>;
}

const appendTo = (file: string): Promise<JournalFile> => open(file, 'a', 0o600);

interface Pending {
  readonly line: string;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * TEST HOOK, inert unless set: BOMWRIGHT_TEST_JOURNAL_DELAY_MS holds every journal write back this long (1 to
 * 60000 ms), so a test can kill the emulator between a change's apply and its fsync. Never set it otherwise.
 */
function testJournalDelayMs(): number {
  const text = process.env.BOMWRIGHT_TEST_JOURNAL_DELAY_MS;
  if (text === undefined || !/^\d{1,5}$/.test(text)) return 0;
  return Math.min(Number(text), 60_000);
}

interface Waiter {
  readonly seq: number;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** Appends change records with group commit; `append` resolves once the record is on disk. */
export class Journal {
  private pending: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private failure: Error | undefined;
  private bytes = 0;
  private closed = false;
  /** The seq of the last record on disk. */
  private durable: number;
  private waiters: Waiter[] = [];
  private readonly testDelayMs = testJournalDelayMs();

  private constructor(
    private readonly dir: string,
    private handle: JournalFile,
    private seq: number,
    private readonly store: Store,
    private readonly compactBytes: number,
  ) {
    this.durable = seq;
  }

  static async open(
    dir: string,
    seq: number,
    store: Store,
    compactBytes = DEFAULT_COMPACT_BYTES,
    openFile: (file: string) => Promise<JournalFile> = appendTo,
  ): Promise<Journal> {
    const handle = await openFile(path.join(dir, JOURNAL));
    const journal = new Journal(dir, handle, seq, store, compactBytes);
    journal.bytes = (await handle.stat()).size;
    return journal;
  }

  /** The seq of the last record handed to the journal. */
  get lastSeq(): number {
    return this.seq;
  }

  /**
   * Undefined when every record up to `seq` is on disk; else a promise that resolves once it is (rejects when the
   * journal cannot be written: what memory holds may then be lost).
   */
  whenDurable(seq: number): Promise<void> | undefined {
    if (seq <= this.durable) return undefined;
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise<void>((resolve, reject) => this.waiters.push({ seq, resolve, reject }));
  }

  private settled(): void {
    this.store.settle(this.durable);
    if (this.waiters.length === 0) return;
    const waiting: Waiter[] = [];
    for (const waiter of this.waiters)
      if (waiter.seq <= this.durable) waiter.resolve();
      else waiting.push(waiter);
    this.waiters = waiting;
  }

  append(changes: readonly Change[]): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new BomwrightError('E_STATE', 'the state journal is closed'));
    const line = encodeRecord(++this.seq, changes);
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ line, resolve, reject });
      this.flushing ??= this.flushLoop();
    });
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending;
        this.pending = [];
        const last = this.seq;
        try {
          if (this.testDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.testDelayMs));
          const data = batch.map((entry) => entry.line).join('');
          await this.handle.write(data);
          await this.handle.datasync();
          this.bytes += Buffer.byteLength(data);
        } catch (error) {
          // Memory is now ahead of the disk: refuse every later write rather than acknowledge what may be lost.
          this.failure = new BomwrightError(
            'E_STATE',
            `cannot write the state journal: ${(error as NodeJS.ErrnoException).code ?? 'I/O error'}`,
          );
          for (const entry of [...batch, ...this.pending]) entry.reject(this.failure);
          for (const waiter of this.waiters) waiter.reject(this.failure);
          this.pending = [];
          this.waiters = [];
          return;
        }
        this.durable = last;
        this.settled();
        for (const entry of batch) entry.resolve();
        if (this.bytes >= this.compactBytes) await this.compact();
      }
    } finally {
      this.flushing = undefined;
    }
  }

  /**
   * Writes the whole state as a snapshot and empties the journal. The store may already hold changes still
   * queued here (they are applied before they are journaled); they are in the snapshot and are written to the
   * new journal as well, where replay skips them by seq.
   */
  async compact(): Promise<void> {
    const content = JSON.stringify({ format: SNAPSHOT_FORMAT, seq: this.seq, state: this.store.toJSON() });
    writeFileAtomic(path.join(this.dir, SNAPSHOT), content, 0o600);
    await this.handle.truncate(0);
    await this.handle.datasync();
    this.bytes = 0;
  }

  /** Waits for every queued record, compacts, and closes the file. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.flushing !== undefined) await this.flushing;
    if (this.failure === undefined) await this.compact();
    await this.handle.close();
  }
}
