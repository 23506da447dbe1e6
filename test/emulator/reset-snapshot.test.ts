/** `reset()`, `snapshot(name)` and `restore(name)`, through the library, on the wire, and with --state. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEED_IDS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { tempDirs } from '../helpers.js';
import { useEmulator } from './harness.js';

const api = useEmulator();
const newDir = tempDirs();
const G = SEED_IDS.groups;
const U = SEED_IDS.users;
const POLICY = `/identityGovernance/entitlementManagement/assignmentPolicies/${SEED_IDS.assignmentPolicies.adminsOnly}`;

async function subjects(emulator: RunningEmulator, token: string): Promise<string[]> {
  const reply = await fetch(`${emulator.url}/v1.0/me/mailFolders/inbox/messages/delta?$select=subject`, {
    headers: { Authorization: `Bearer ${token}`, Prefer: 'odata.maxpagesize=1000' },
  });
  return ((await reply.json()) as { value: { subject: string }[] }).value.map((m) => m.subject).sort();
}

async function owners(emulator: RunningEmulator, token: string): Promise<string[]> {
  const reply = await fetch(`${emulator.url}/v1.0/groups/${G.release}/owners`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return ((await reply.json()) as { value: { id: string }[] }).value.map((o) => o.id);
}

async function post(emulator: RunningEmulator, token: string, subject: string): Promise<number> {
  const reply = await fetch(`${emulator.url}/v1.0/me/mailFolders/inbox/messages`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ subject }),
  });
  return reply.status;
}

describe('reset()', () => {
  it('brings back the seed: writes undone, deletions restored, the journal emptied; tokens still work', async () => {
    const e = api.emulator;
    const token = await api.token();
    const seeded = await subjects(e, token);
    expect(await post(e, token, 'reset: new')).toBe(201);
    const addOwner = await api.call('POST', `/groups/${G.release}/owners/$ref`, {
      body: { '@odata.id': `${e.url}/v1.0/users/${U.megan}` },
    });
    expect(addOwner.status).toBe(204);
    const deleted = await api.call('DELETE', POLICY);
    expect(deleted.status).toBe(204);
    expect(await subjects(e, token)).toContain('reset: new');
    expect(await owners(e, token)).toEqual([U.adele, U.megan]);
    await e.reset();
    expect(await subjects(e, token)).toEqual(seeded);
    expect(await owners(e, token)).toEqual([U.adele]);
    const again = await api.call('DELETE', POLICY);
    expect(again.status).toBe(204);
    // The journal holds what came after the reset only.
    expect(e.requests().map((r) => r.operation)).toEqual(['messageDelta', 'listGroupOwners', 'deleteAssignmentPolicy']);
    await e.reset();
  });

  it('a reset of an untouched emulator changes nothing and is idempotent', async () => {
    const token = await api.token();
    await api.emulator.reset();
    const before = await subjects(api.emulator, token);
    await api.emulator.reset();
    await api.emulator.reset();
    expect(await subjects(api.emulator, token)).toEqual(before);
  });

  it('restarts the fault rules given at start, and forgets rules set since', async () => {
    const e = await startEmulator({ faults: [{ operation: 'listPhoneMethods', fault: 500, first: 1 }] });
    try {
      const token = await e.token();
      const call = async (): Promise<number> =>
        (await fetch(`${e.url}/v1.0/me/authentication/phoneMethods`, { headers: { Authorization: `Bearer ${token}` } }))
          .status;
      expect([await call(), await call()]).toEqual([500, 200]);
      e.setFaults([{ operation: 'listPhoneMethods', fault: 503, retryAfterSeconds: 0 }]);
      expect(await call()).toBe(503);
      await e.reset();
      expect([await call(), await call()]).toEqual([500, 200]);
    } finally {
      await e.close();
    }
  });

  it('forgets throttling windows', async () => {
    let draws = 0;
    const e = await startEmulator({
      throttle: { rate: 0.5, retryAfterSeconds: 60, random: () => (draws++ === 0 ? 0 : 1) },
    });
    try {
      const token = await e.token();
      const call = async (): Promise<number> =>
        (await fetch(`${e.url}/v1.0/me/authentication/phoneMethods`, { headers: { Authorization: `Bearer ${token}` } }))
          .status;
      expect([await call(), await call()]).toEqual([429, 429]);
      await e.reset();
      expect(await call()).toBe(200);
    } finally {
      await e.close();
    }
  });
});

describe('snapshot(name) and restore(name)', () => {
  it('keep a state and bring it back, as often as asked; a later snapshot of the same name replaces it', async () => {
    const e = api.emulator;
    await e.reset();
    const token = await api.token();
    expect(await post(e, token, 'snap: one')).toBe(201);
    await e.snapshot('one');
    expect(await post(e, token, 'snap: two')).toBe(201);
    await e.snapshot('two');
    expect(await post(e, token, 'snap: three')).toBe(201);
    await e.restore('one');
    const afterOne = await subjects(e, token);
    expect(afterOne).toContain('snap: one');
    expect(afterOne).not.toContain('snap: two');
    await e.restore('two');
    expect(await subjects(e, token)).toEqual(expect.arrayContaining(['snap: one', 'snap: two']));
    expect(await subjects(e, token)).not.toContain('snap: three');
    await e.restore('one');
    expect(await subjects(e, token)).not.toContain('snap: two');
    await e.snapshot('two');
    await e.restore('two');
    expect(await subjects(e, token)).not.toContain('snap: two');
    expect(e.snapshots().sort()).toEqual(['one', 'two']);
    await e.reset();
  });

  it('refuses an unknown name with the nearest one, and a name outside 1-64 letters, digits, ".", "_" or "-"', async () => {
    const e = api.emulator;
    await e.snapshot('baseline');
    await expect(e.restore('baseline2')).rejects.toThrow("No snapshot 'baseline2' (did you mean 'baseline'?)");
    await expect(e.restore('zzz')).rejects.toThrow(/^No snapshot 'zzz'$/);
    await expect(e.snapshot('')).rejects.toThrow(/A snapshot name is 1 to 64 letters/);
    await expect(e.snapshot('a/b')).rejects.toThrow(/A snapshot name is 1 to 64 letters/);
    await expect(e.snapshot('x'.repeat(65))).rejects.toThrow(/A snapshot name is 1 to 64 letters/);
    await e.snapshot('x'.repeat(64));
    await e.snapshot('A-z_0.9');
  });

  it('keeps at most 64 snapshots (a name kept already may be taken again)', async () => {
    const e = await startEmulator();
    try {
      await expect(e.restore('none')).rejects.toThrow("No snapshot 'none' (none is kept)");
      for (let i = 0; i < 64; i++) await e.snapshot(`s${i}`);
      await e.snapshot('s0');
      await expect(e.snapshot('s64')).rejects.toThrow('At most 64 snapshots are kept; this run has that many');
    } finally {
      await e.close();
    }
  });
});

describe('on the wire', () => {
  it('POST /_emulator/reset, POST /_emulator/snapshots, GET /_emulator/snapshots, POST /_emulator/snapshots/{name}/restore', async () => {
    const e = api.emulator;
    await e.reset();
    const token = await api.token();
    const wire = (p: string, init?: RequestInit) => fetch(`${e.url}/_emulator${p}`, init);
    const json = { 'Content-Type': 'application/json' };
    expect(await post(e, token, 'wire: kept')).toBe(201);
    const made = await wire('/snapshots', { method: 'POST', headers: json, body: JSON.stringify({ name: 'wire' }) });
    expect(made.status).toBe(201);
    expect(await made.json()).toEqual({ name: 'wire' });
    expect(((await (await wire('/snapshots')).json()) as { value: string[] }).value).toContain('wire');
    expect(await post(e, token, 'wire: dropped')).toBe(201);
    expect((await wire('/snapshots/wire/restore', { method: 'POST', headers: json })).status).toBe(204);
    const now = await subjects(e, token);
    expect(now).toContain('wire: kept');
    expect(now).not.toContain('wire: dropped');
    expect((await wire('/reset', { method: 'POST', headers: json })).status).toBe(204);
    expect(await subjects(e, token)).not.toContain('wire: kept');

    const unknown = await wire('/snapshots/wir/restore', { method: 'POST', headers: json });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'itemNotFound',
      message: "No snapshot 'wir' (did you mean 'wire'?)",
    });
    const badName = await wire('/snapshots', { method: 'POST', headers: json, body: JSON.stringify({ name: 7 }) });
    expect(badName.status).toBe(400);
    const extra = await wire('/snapshots', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'a', x: 1 }),
    });
    expect(extra.status).toBe(400);
    expect(((await extra.json()) as { error: { message: string } }).error.message).toBe(
      "Unknown member 'x'; this route takes name.",
    );
    const getReset = await wire('/reset');
    expect(getReset.status).toBe(405);
    expect(getReset.headers.get('allow')).toBe('POST');
    expect((await wire('/snapshots/%E0%A4/restore', { method: 'POST', headers: json })).status).toBe(400);
  });

  it('answers loopback callers only (as token minting does)', async () => {
    // The emulator listens on 0.0.0.0 here and is reached at a non-loopback address of this machine, if it has one.
    const { networkInterfaces } = await import('node:os');
    const address = Object.values(networkInterfaces())
      .flat()
      .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal)?.address;
    if (address === undefined) return; // no other interface: nothing but loopback can connect
    const e = await startEmulator({ host: '0.0.0.0' });
    try {
      const port = new URL(e.url).port;
      for (const [method, route] of [
        ['POST', '/reset'],
        ['GET', '/requests'],
        ['DELETE', '/requests'],
        ['GET', '/snapshots'],
        ['POST', '/snapshots/x/restore'],
        ['GET', '/faults'],
        ['GET', '/permissions'],
      ] as const) {
        const reply = await fetch(`http://${address}:${port}/_emulator${route}`, { method });
        expect(reply.status, `${method} ${route}`).toBe(403);
        expect(((await reply.json()) as { error: { code: string } }).error.code).toBe('Authorization_RequestDenied');
      }
      expect((await fetch(`http://127.0.0.1:${port}/_emulator/snapshots`)).status).toBe(200);
    } finally {
      await e.close();
    }
  });
});

describe('with --state', () => {
  it('a reset is journaled: it survives a restart, and the folder keeps the seed it goes back to', async () => {
    const stateDir = newDir();
    const seed = JSON.parse(JSON.stringify((await import('../../src/emulator/index.js')).DEFAULT_SEED)) as {
      users: { displayName: string }[];
    };
    seed.users[0]!.displayName = 'Adele (custom seed)';
    let e = await startEmulator({ stateDir, seed });
    let token = await e.token();
    expect(await post(e, token, 'state: before reset')).toBe(201);
    await e.reset();
    expect(await post(e, token, 'state: after reset')).toBe(201);
    await e.close();
    expect(JSON.parse(readFileSync(path.join(stateDir, 'seed.json'), 'utf8'))).toEqual(seed);
    // Restarted without --seed: the state is kept, and a reset still goes back to the folder's own seed.
    e = await startEmulator({ stateDir });
    try {
      token = await e.token();
      const kept = await subjects(e, token);
      expect(kept).toContain('state: after reset');
      expect(kept).not.toContain('state: before reset');
      await e.reset();
      expect(await subjects(e, token)).not.toContain('state: after reset');
      const me = await fetch(`${e.url}/v1.0/groups/${G.release}/owners`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(((await me.json()) as { value: { displayName: string }[] }).value[0]!.displayName).toBe(
        'Adele (custom seed)',
      );
    } finally {
      await e.close();
    }
  });

  it('a restore is journaled too', async () => {
    const stateDir = newDir();
    let e = await startEmulator({ stateDir });
    let token = await e.token();
    expect(await post(e, token, 'restore: kept')).toBe(201);
    await e.snapshot('kept');
    expect(await post(e, token, 'restore: dropped')).toBe(201);
    await e.restore('kept');
    await e.close();
    e = await startEmulator({ stateDir });
    try {
      token = await e.token();
      const now = await subjects(e, token);
      expect(now).toContain('restore: kept');
      expect(now).not.toContain('restore: dropped');
      // Snapshots live for one run.
      expect(e.snapshots()).toEqual([]);
    } finally {
      await e.close();
    }
  });
});
