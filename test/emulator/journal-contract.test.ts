/**
 * The state journal's contract (journal.ts), on files written by hand: what a snapshot and a journal load to,
 * the exact refusal of each kind of corruption, a torn tail cut back to the last complete record (and left alone
 * when reading only), compaction at its threshold, and a journal that can no longer write.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { open } from 'node:fs/promises';
import { encodeRecord, Journal, loadState, type JournalFile } from '../../src/emulator/journal.js';
import { Store, type Change, type JsonRecord } from '../../src/emulator/store.js';
import { tempDir } from '../helpers.js';
import type { Body } from './harness.js';

const FORMAT = 'bomwright-emulator-state/1';

function folder(files: { snapshot?: string | object; journal?: string } = {}): {
  dir: string;
  snapshot: string;
  journal: string;
} {
  const dir = tempDir();
  const snapshot = path.join(dir, 'snapshot.json');
  const journal = path.join(dir, 'journal.log');
  if (files.snapshot !== undefined)
    writeFileSync(snapshot, typeof files.snapshot === 'string' ? files.snapshot : JSON.stringify(files.snapshot));
  if (files.journal !== undefined) writeFileSync(journal, files.journal);
  return { dir, snapshot, journal };
}

/** A journal line with a correct checksum over any text. */
const line = (json: string): string => `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;

const put = (id: string, value: JsonRecord): Change => ['users', id, value];

function refusal(dir: string, message: string): void {
  expect(() => loadState(dir)).toThrow(expect.objectContaining({ code: 'E_STATE', message }));
}

const snapshotOf = (dir: string): Body => JSON.parse(readFileSync(path.join(dir, 'snapshot.json'), 'utf8'));

const openFds = (): number => readdirSync('/proc/self/fd').length;

describe('loading a state folder', () => {
  it('is fresh and empty when the folder holds nothing, or only an empty journal', () => {
    for (const files of [{}, { journal: '' }]) {
      const { dir } = folder(files);
      const loaded = loadState(dir);
      expect(loaded).toEqual({ store: expect.any(Store), seq: 0, fresh: true });
      expect(loaded.store.size('users')).toBe(0);
    }
  });

  it('is not fresh with a snapshot alone, or a journal of one record alone', () => {
    const snapshotOnly = loadState(folder({ snapshot: { format: FORMAT, seq: 3, state: {} } }).dir);
    expect(snapshotOnly).toMatchObject({ seq: 3, fresh: false });
    expect(snapshotOnly.tornTail).toBeUndefined();
    const journalOnly = loadState(folder({ journal: encodeRecord(1, [put('u1', { id: 'u1' })]) }).dir);
    expect(journalOnly).toMatchObject({ seq: 1, fresh: false });
    expect(journalOnly.store.get('users', 'u1')).toEqual({ id: 'u1' });
    expect(journalOnly.tornTail).toBeUndefined();
  });

  it('replays only the records after the snapshot’s seq, over the snapshot’s records', () => {
    const { dir } = folder({
      snapshot: {
        format: FORMAT,
        seq: 5,
        state: { users: { u1: { id: 'u1', name: 'snapshot' }, u2: { id: 'u2' } }, meta: { m: { value: 1 } } },
      },
      journal:
        encodeRecord(4, [put('u1', { id: 'u1', name: 'old' })]) +
        encodeRecord(5, [put('u1', { id: 'u1', name: 'also in the snapshot' })]) +
        encodeRecord(6, [put('u3', { id: 'u3' }), ['users', 'u2', null]]) +
        encodeRecord(7, [put('u1', { id: 'u1', name: 'latest' })]),
    });
    const { store, seq, fresh } = loadState(dir);
    expect({ seq, fresh }).toEqual({ seq: 7, fresh: false });
    expect(store.get('users', 'u1')).toEqual({ id: 'u1', name: 'latest' });
    expect(store.get('users', 'u2')).toBeUndefined();
    expect(store.get('users', 'u3')).toEqual({ id: 'u3' });
    expect(store.get('meta', 'm')).toEqual({ value: 1 });
  });

  it('skips a record whose seq is the snapshot’s own', () => {
    const { dir } = folder({
      snapshot: { format: FORMAT, seq: 5, state: { users: { u1: { id: 'u1', name: 'kept' } } } },
      journal: encodeRecord(5, [put('u1', { id: 'u1', name: 'replayed' })]),
    });
    expect(loadState(dir).store.get('users', 'u1')).toEqual({ id: 'u1', name: 'kept' });
  });

  it('refuses a snapshot that cannot be read, is not JSON or is not a state snapshot, naming the file', () => {
    const unreadable = folder();
    mkdirSync(unreadable.snapshot);
    refusal(unreadable.dir, `${unreadable.snapshot}: cannot be read`);
    const notJson = folder({ snapshot: '{"format":' });
    refusal(
      notJson.dir,
      `${notJson.snapshot}: is not valid JSON (it is written atomically, so the file was changed by hand)`,
    );
    for (const snapshot of [
      { format: 'bomwright-emulator-state/2', seq: 1, state: {} },
      { seq: 1, state: {} },
      { format: FORMAT, seq: '1', state: {} },
      { format: FORMAT, state: {} },
      { format: FORMAT, seq: 1, state: 'x' },
      { format: FORMAT, seq: 1 },
    ]) {
      const bad = folder({ snapshot });
      refusal(bad.dir, `${bad.snapshot}: is not a ${FORMAT} snapshot`);
    }
  });

  it('refuses a journal that cannot be read, naming it', () => {
    const { dir, journal } = folder();
    mkdirSync(journal);
    refusal(dir, `${journal}: cannot be read`);
  });

  it('refuses a complete record that fails its checksum, naming the record and its byte offset', () => {
    const first = encodeRecord(1, [put('u1', { id: 'u1' })]);
    const second = encodeRecord(2, [put('u2', { id: 'u2' })]);
    const flipped = folder({ journal: first + second.replace('"u2"}', '"u9"}') });
    refusal(
      flipped.dir,
      `${flipped.journal}: record 2 at byte ${Buffer.byteLength(first)} fails its checksum: the journal is corrupt`,
    );
    // The checksum must be the first 8 characters, then one space: a right checksum elsewhere does not count.
    const json = JSON.stringify({ s: 1, c: [] });
    const crc = crc32(json).toString(16).padStart(8, '0');
    for (const text of [`${crc}x ${json}\n`, ` ${crc} ${json}\n`, `${crc.slice(1)} ${json}\n`, `${json}\n`]) {
      const bad = folder({ journal: text });
      refusal(bad.dir, `${bad.journal}: record 1 at byte 0 fails its checksum: the journal is corrupt`);
    }
  });

  it('refuses a record with a right checksum that is not JSON', () => {
    const first = encodeRecord(1, []);
    const { dir, journal } = folder({ journal: first + line('{"s":2,"c":[') });
    refusal(dir, `${journal}: record 2 at byte ${first.length} is not JSON`);
  });

  it('refuses a record that is not a change record: no seq, or changes of the wrong shape', () => {
    const records: unknown[] = [
      null,
      5,
      [],
      { c: [] },
      { s: '1', c: [] },
      { s: 1 },
      { s: 1, c: {} },
      { s: 1, c: ['users'] },
      { s: 1, c: [['users', 'u1']] },
      { s: 1, c: [['users', 'u1', {}, 'extra']] },
      { s: 1, c: [['robots', 'u1', {}]] },
      { s: 1, c: [['users', 1, {}]] },
      { s: 1, c: [['users', 'u1', []]] },
      { s: 1, c: [['users', 'u1', 'text']] },
      { s: 1, c: [['users', 'u1', 1]] },
      {
        s: 1,
        c: [
          ['users', 'u1', {}],
          ['users', 'u2'],
        ],
      },
      {
        s: 1,
        c: [
          ['users', 'u1'],
          ['users', 'u2', {}],
        ],
      },
    ];
    for (const record of records) {
      const { dir, journal } = folder({ journal: line(JSON.stringify(record)) });
      expect(() => loadState(dir), JSON.stringify(record)).toThrow(
        expect.objectContaining({ code: 'E_STATE', message: `${journal}: record 1 at byte 0 is not a change record` }),
      );
    }
  });

  it('refuses a record that skips a seq, after the snapshot or after another record: records were lost', () => {
    const afterSnapshot = folder({
      snapshot: { format: FORMAT, seq: 5, state: {} },
      journal: encodeRecord(4, []) + encodeRecord(7, []),
    });
    refusal(
      afterSnapshot.dir,
      `${afterSnapshot.journal}: record 2 at byte ${encodeRecord(4, []).length} has seq 7 where 6 was next: records are missing`,
    );
    const first = encodeRecord(1, []) + encodeRecord(2, []);
    const afterRecord = folder({ journal: first + encodeRecord(4, []) });
    refusal(
      afterRecord.dir,
      `${afterRecord.journal}: record 3 at byte ${first.length} has seq 4 where 3 was next: records are missing`,
    );
    // Without its snapshot, a compacted journal no longer starts at 1.
    const noSnapshot = folder({ journal: encodeRecord(2, []) });
    refusal(
      noSnapshot.dir,
      `${noSnapshot.journal}: record 1 at byte 0 has seq 2 where 1 was next: records are missing`,
    );
  });

  it('accepts puts and removals (null) of any collection', () => {
    const { dir } = folder({
      journal:
        encodeRecord(1, [put('u1', { id: 'u1' })]) +
        line(
          JSON.stringify({
            s: 2,
            c: [
              ['groups', 'g1', { id: 'g1' }],
              ['users', 'u1', null],
            ],
          }),
        ),
    });
    const { store, seq } = loadState(dir);
    expect(seq).toBe(2);
    expect(store.get('groups', 'g1')).toEqual({ id: 'g1' });
    expect(store.get('users', 'u1')).toBeUndefined();
  });

  it('cuts a torn tail back to the last complete record, says what it cut, and closes the file', () => {
    const complete = encodeRecord(1, [put('u1', { id: 'u1' })]) + encodeRecord(2, [put('u2', { id: 'u2' })]);
    const torn = '0badc0de {"s":3,"c":[["users"';
    const { dir, journal } = folder({ journal: complete + torn });
    const before = openFds();
    const loaded = loadState(dir);
    expect(openFds()).toBe(before);
    expect(loaded.tornTail).toEqual({ offset: Buffer.byteLength(complete), bytes: torn.length });
    expect(loaded.seq).toBe(2);
    expect(loaded.store.get('users', 'u2')).toEqual({ id: 'u2' });
    expect(readFileSync(journal, 'utf8')).toBe(complete);
    // Cut once: the next load finds a clean journal.
    expect(loadState(dir).tornTail).toBeUndefined();
  });

  it('cuts a journal that is only a torn write down to nothing', () => {
    const { dir, journal } = folder({ journal: '0badc0de {"s":1' });
    expect(loadState(dir)).toMatchObject({ seq: 0, tornTail: { offset: 0, bytes: 15 } });
    expect(statSync(journal).size).toBe(0);
  });

  it('leaves a torn tail alone when reading only (it may be a write in progress)', () => {
    const complete = encodeRecord(1, [put('u1', { id: 'u1' })]);
    const content = `${complete}0badc0de {"s":2`;
    const { dir, journal } = folder({ journal: content });
    expect(loadState(dir, true)).toMatchObject({ seq: 1, tornTail: { offset: complete.length, bytes: 15 } });
    expect(readFileSync(journal, 'utf8')).toBe(content);
  });
});

describe('the journal', () => {
  async function opened(compactBytes?: number) {
    const dir = tempDir();
    const store = new Store();
    const journal = await Journal.open(dir, 0, store, compactBytes);
    const write = (changes: Change[]) => {
      store.apply(changes);
      return journal.append(changes);
    };
    return { dir, store, journal, write, file: path.join(dir, 'journal.log') };
  }

  it('has every acknowledged record on disk, numbered from the seq it opened at, and reloads to the same state', async () => {
    const dir = tempDir();
    const store = new Store();
    store.apply([put('u0', { id: 'u0' })]);
    writeFileSync(path.join(dir, 'snapshot.json'), JSON.stringify({ format: FORMAT, seq: 10, state: store.toJSON() }));
    const journal = await Journal.open(dir, 10, store);
    expect(journal.lastSeq).toBe(10);
    const changes: Change[][] = [[put('u1', { id: 'u1' })], [put('u2', { id: 'u2' }), ['users', 'u0', null]]];
    await Promise.all(
      changes.map((change) => {
        store.apply(change);
        return journal.append(change);
      }),
    );
    expect(journal.lastSeq).toBe(12);
    expect(readFileSync(path.join(dir, 'journal.log'), 'utf8')).toBe(
      encodeRecord(11, changes[0]!) + encodeRecord(12, changes[1]!),
    );
    const reloaded = loadState(dir, true);
    expect(reloaded.seq).toBe(12);
    expect(reloaded.store.get('users', 'u2')).toEqual({ id: 'u2' });
    expect(reloaded.store.toJSON()).toEqual(store.toJSON());
    await journal.close();
  });

  it('appends to a journal that already holds records', async () => {
    const dir = tempDir();
    const first = encodeRecord(1, [put('u1', { id: 'u1' })]);
    writeFileSync(path.join(dir, 'journal.log'), first);
    const { store, seq } = loadState(dir);
    const journal = await Journal.open(dir, seq, store, first.length + 10);
    const change: Change[] = [put('u2', { id: 'u2' })];
    store.apply(change);
    await journal.append(change);
    // Over the threshold counting the bytes already there: compacted (the snapshot is written before the
    // journal is emptied, which may still be under way when the write is acknowledged).
    expect(snapshotOf(dir)).toMatchObject({ seq: 2, state: { users: { u1: { id: 'u1' }, u2: { id: 'u2' } } } });
    await vi.waitFor(() => expect(statSync(path.join(dir, 'journal.log')).size).toBe(0));
    await journal.close();
    expect(loadState(dir).store.toJSON()).toEqual(store.toJSON());
  });

  it('compacts once the journal reaches compactBytes exactly, and not a byte before', async () => {
    const record = encodeRecord(1, [put('u1', { id: 'u1' })]);
    const below = await opened(record.length + 1);
    await below.write([put('u1', { id: 'u1' })]);
    expect(readFileSync(below.file, 'utf8')).toBe(record);
    expect(readdirSync(below.dir)).not.toContain('snapshot.json');
    await below.journal.close();

    const at = await opened(record.length);
    await at.write([put('u1', { id: 'u1' })]);
    const snapshot = snapshotOf(at.dir);
    expect(snapshot).toMatchObject({ format: FORMAT, seq: 1 });
    expect(snapshot.state.users).toEqual({ u1: { id: 'u1' } });
    await vi.waitFor(() => expect(statSync(at.file).size).toBe(0));
    // Counting starts again after a compaction.
    await at.write([put('u2', { id: 'u2' })]);
    expect(snapshotOf(at.dir).seq).toBe(2);
    await at.journal.close();
    expect(loadState(at.dir).store.toJSON()).toEqual(at.store.toJSON());
  });

  it('writes every record queued during an fsync with one write and one fsync, and acknowledges none before it', async () => {
    const dir = tempDir();
    const store = new Store();
    const events: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let syncs = 0;
    const watched = async (file: string): Promise<JournalFile> => {
      const handle = await open(file, 'a');
      return {
        write: (data: string) => {
          events.push(`write ${data.split('\n').length - 1}`);
          return handle.write(data);
        },
        datasync: async () => {
          const n = ++syncs;
          // The first fsync is held until every later record is queued behind it.
          if (n === 1) await held;
          await handle.datasync();
          events.push(`synced ${n}`);
        },
        truncate: (length: number) => handle.truncate(length),
        stat: () => handle.stat(),
        close: () => handle.close(),
      };
    };
    const journal = await Journal.open(dir, 0, store, undefined, watched);
    const append = (i: number) => {
      const change: Change[] = [put(`u${i}`, { id: `u${i}` })];
      store.apply(change);
      return journal.append(change).then(() => void events.push(`ack ${i}`));
    };
    const first = append(1);
    await vi.waitFor(() => expect(events).toEqual(['write 1']));
    const rest = Array.from({ length: 10 }, (_, i) => append(i + 2));
    // Nothing is acknowledged while its fsync has not returned.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toEqual(['write 1']);
    release();
    await Promise.all([first, ...rest]);
    expect(events.filter((e) => e.startsWith('write'))).toEqual(['write 1', 'write 10']);
    expect(syncs).toBe(2);
    expect(events.indexOf('ack 1')).toBeGreaterThan(events.indexOf('synced 1'));
    expect(events.indexOf('ack 1')).toBeLessThan(events.indexOf('synced 2'));
    for (let i = 2; i <= 11; i++) expect(events.indexOf(`ack ${i}`)).toBeGreaterThan(events.indexOf('synced 2'));
    await journal.close();
    expect(loadState(dir).store.toJSON()).toEqual(store.toJSON());
  });

  it('on close waits for every queued record, compacts, and refuses later appends', async () => {
    const { dir, store, journal, write, file } = await opened();
    const writes = Array.from({ length: 20 }, (_, i) => write([put(`u${i}`, { id: `u${i}` })]));
    await journal.close();
    await expect(Promise.all(writes)).resolves.toHaveLength(20);
    expect(statSync(file).size).toBe(0);
    const reloaded = loadState(dir);
    expect(reloaded.seq).toBe(20);
    expect(reloaded.store.toJSON()).toEqual(store.toJSON());
    await expect(journal.append([])).rejects.toMatchObject({
      code: 'E_STATE',
      message: 'the state journal is closed',
    });
  });

  it('refuses every queued and later write once the disk refuses one, and does not compact on close', async () => {
    const dir = tempDir();
    symlinkSync('/dev/full', path.join(dir, 'journal.log'));
    const store = new Store();
    const journal = await Journal.open(dir, 0, store);
    const failure = { code: 'E_STATE', message: 'cannot write the state journal: ENOSPC' };
    const results = await Promise.allSettled([journal.append([]), journal.append([]), journal.append([])]);
    for (const result of results) expect(result).toMatchObject({ status: 'rejected', reason: failure });
    await expect(journal.append([])).rejects.toMatchObject(failure);
    // A write refused up front takes no seq.
    expect(journal.lastSeq).toBe(3);
    await journal.close();
    expect(readdirSync(dir)).toEqual(['journal.log']);
  });
});
