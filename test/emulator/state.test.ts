import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED, SEED_IDS, startEmulator, tokenFromState } from '../../src/emulator/index.js';
import { encodeRecord, loadState } from '../../src/emulator/journal.js';
import { tempDir } from '../helpers.js';
import { Harness } from './harness.js';

const ownerBody = (url: string, user: string) => ({ '@odata.id': `${url}/v1.0/users/${user}` });

async function withEmulator<T>(
  options: ConstructorParameters<typeof Harness>[0],
  run: (api: Harness) => Promise<T>,
): Promise<T> {
  const api = new Harness(options);
  await api.start();
  try {
    return await run(api);
  } finally {
    await api.emulator.close();
  }
}

async function inboxSubjects(api: Harness): Promise<string[]> {
  const subjects: string[] = [];
  let next: string | undefined = '/me/mailFolders/inbox/messages/delta';
  while (next !== undefined) {
    const page = await api.call('GET', next, { headers: { Prefer: 'odata.maxpagesize=1000' } });
    subjects.push(...page.body.value.map((m: { subject: string }) => m.subject));
    next = page.body['@odata.nextLink'];
  }
  return subjects;
}

describe('durable state (--state DIR)', () => {
  it('keeps every acknowledged write, and the token signing key, across a restart', async () => {
    const stateDir = tempDir();
    const token = await withEmulator({ stateDir }, async (api) => {
      expect(
        (
          await api.call('POST', `/groups/${SEED_IDS.groups.company}/owners/$ref`, {
            body: ownerBody(api.emulator.url, SEED_IDS.users.lee),
          })
        ).status,
      ).toBe(204);
      expect((await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: 'kept' } })).status).toBe(
        201,
      );
      return api.token();
    });
    await withEmulator({ stateDir }, async (api) => {
      const again = await api.call('POST', `/groups/${SEED_IDS.groups.company}/owners/$ref`, {
        token,
        body: ownerBody(api.emulator.url, SEED_IDS.users.lee),
      });
      expect(again.status).toBe(400);
      expect(await inboxSubjects(api)).toContain('kept');
    });
  });

  it('has every acknowledged write on disk before the response, without a clean shutdown', async () => {
    const stateDir = tempDir();
    const emulator = await startEmulator({ stateDir });
    const api = new Harness();
    api.emulator = emulator;
    const subjects = Array.from({ length: 50 }, (_, i) => `durable ${i}`);
    await Promise.all(
      subjects.map((subject) => api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject } })),
    );
    // Read the folder as a fresh process would, while the emulator is still running (no close, no flush).
    const { store } = loadState(stateDir, true);
    const stored = [...store.all('messages')].map((m) => m.subject);
    for (const subject of subjects) expect(stored).toContain(subject);
    await emulator.close();
  });

  it('compacts the journal into a snapshot and loses nothing', async () => {
    const stateDir = tempDir();
    await withEmulator({ stateDir, compactBytes: 4096 }, async (api) => {
      for (let i = 0; i < 40; i++)
        await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: `compact ${i}` } });
      expect(statSync(path.join(stateDir, 'journal.log')).size).toBeLessThan(4096 + 2048);
    });
    await withEmulator({ stateDir }, async (api) => {
      const subjects = await inboxSubjects(api);
      for (let i = 0; i < 40; i++) expect(subjects).toContain(`compact ${i}`);
    });
  });

  it('cuts a torn, never-acknowledged tail off the journal, says so, and keeps every record before it', async () => {
    const stateDir = tempDir();
    await withEmulator({ stateDir }, async (api) => {
      await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: 'before the tear' } });
    });
    let torn = '';
    const journal = path.join(stateDir, 'journal.log');
    const message = {
      id: 'AAMkHandWritten',
      userId: SEED_IDS.users.adele,
      folderId: 'adele-inbox',
      subject: 'last acknowledged',
      receivedDateTime: '2026-11-23T00:00:00Z',
      createdSeq: 1_000_000,
      changeSeq: 1_000_000,
    };
    // The next record after the snapshot's seq: a record further on would mean records were lost.
    const next = (JSON.parse(readFileSync(path.join(stateDir, 'snapshot.json'), 'utf8')) as { seq: number }).seq + 1;
    const record = encodeRecord(next, [
      ['messages', message.id, message],
      ['meta', 'mailChangeSeq', { value: 1_000_000 }],
    ]);
    torn = '0badc0de {"s":1000001,"c":[["meta","x",';
    writeFileSync(journal, record + torn);
    const logged: string[] = [];
    await withEmulator({ stateDir, log: (line) => logged.push(line) }, async (api) => {
      expect(statSync(journal).size).toBe(Buffer.byteLength(record));
      expect(await inboxSubjects(api)).toEqual(expect.arrayContaining(['before the tear', 'last acknowledged']));
    });
    expect(logged).toContain(
      `state: cut ${torn.length} bytes of a torn, never-acknowledged write at byte ${Buffer.byteLength(record)} of the journal`,
    );
  });

  it('refuses to start on a corrupt record instead of dropping acknowledged writes after it', async () => {
    const stateDir = tempDir();
    const journal = path.join(stateDir, 'journal.log');
    await withEmulator({ stateDir, compactBytes: 1 << 30 }, async (api) => {
      await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: 'one' } });
      // Keep two complete records in the journal: stop before close() compacts them away.
      await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: 'two' } });
      const text = readFileSync(journal, 'utf8');
      expect(text.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(2);
    });
    // close() compacted; write two records by hand and flip a byte in the first.
    const first = encodeRecord(1000, [['meta', 'probe', { value: 1 }]]);
    const second = encodeRecord(1001, [['meta', 'probe', { value: 2 }]]);
    writeFileSync(journal, first.replace('"value":1', '"value":7') + second);
    await expect(startEmulator({ stateDir })).rejects.toMatchObject({
      code: 'E_STATE',
      message: expect.stringMatching(/record 1 at byte 0 fails its checksum/),
    });
  });

  it('mints tokens offline from the state folder, and refuses a folder without state', async () => {
    const stateDir = tempDir();
    await withEmulator({ stateDir }, async (api) => {
      const token = await tokenFromState(stateDir, { user: 'megan@contoso.example' });
      const reply = await api.call('GET', '/me/authentication/methods', { token });
      expect(reply.status).toBe(200);
      expect(reply.body['@odata.context']).toContain(SEED_IDS.users.megan);
    });
    await expect(tokenFromState(tempDir())).rejects.toMatchObject({
      code: 'E_STATE',
      message: expect.stringMatching(/holds no emulator state/),
    });
    await expect(tokenFromState(stateDir, { user: 'nobody@contoso.example' })).rejects.toMatchObject({
      code: 'E_USAGE',
      message: expect.stringMatching(/No user/),
    });
  });

  it('keeps the state’s tenant when started again with a seed, and says so', async () => {
    const stateDir = tempDir();
    await withEmulator({ stateDir }, async () => undefined);
    const seed = structuredClone(DEFAULT_SEED) as unknown as { tenant: { displayName: string } };
    seed.tenant.displayName = 'Other';
    const logged: string[] = [];
    await withEmulator({ stateDir, seed, log: (line) => logged.push(line) }, async () => undefined);
    expect(logged).toContain(`state: ${stateDir} already holds a tenant; the seed is not applied again`);
  });
});
