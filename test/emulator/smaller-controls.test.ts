/** The smaller test-double findings: decoded path filters, deleting snapshots, and scopes checked when minted. */
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { useEmulator } from './harness.js';

const api = useEmulator();
const G = SEED_IDS.groups.release;
const CHANNEL = SEED_IDS.channels.builds;

describe('the journal’s path filter', () => {
  it('finds a request by its path as sent or percent-decoded, with or without /v1.0', async () => {
    api.emulator.clearRequests();
    await api.call('GET', `/teams/${G}/channels/${encodeURIComponent(CHANNEL)}/tabs`);
    const sent = api.emulator.requests()[0]!.path;
    expect(sent).toContain('%');
    for (const path of [
      `/teams/${G}/channels/${CHANNEL}/tabs`,
      `/v1.0/teams/${G}/channels/${CHANNEL}/tabs`,
      sent,
      sent.slice('/v1.0'.length),
    ])
      expect(api.emulator.requests({ path }), path).toHaveLength(1);
    expect(api.emulator.requests({ path: `/teams/${G}/channels/${CHANNEL}x/tabs` })).toHaveLength(0);
    const wire = await fetch(
      `${api.emulator.url}/_emulator/requests?path=${encodeURIComponent(`/teams/${G}/channels/${CHANNEL}/tabs`)}`,
    );
    expect(((await wire.json()) as { value: unknown[] }).value).toHaveLength(1);
  });
});

describe('snapshots', () => {
  it('are deleted by deleteSnapshot(name) and DELETE /_emulator/snapshots/{name}', async () => {
    await api.emulator.snapshot('one');
    await api.emulator.snapshot('two');
    expect(api.emulator.deleteSnapshot('one')).toBe(true);
    expect(api.emulator.deleteSnapshot('one')).toBe(false);
    expect(api.emulator.snapshots()).toEqual(['two']);
    const wire = (method: string, name: string) => fetch(`${api.emulator.url}/_emulator/snapshots/${name}`, { method });
    expect((await wire('DELETE', 'two')).status).toBe(204);
    expect((await wire('DELETE', 'two')).status).toBe(404);
    expect((await wire('GET', 'two')).status).toBe(405);
    expect((await wire('DELETE', 'bad%20name')).status).toBe(400);
    expect(api.emulator.snapshots()).toEqual([]);
  });
});

describe('minting', () => {
  it('refuses a scope or application permission no operation names, with the nearest one', async () => {
    await expect(api.emulator.token({ scopes: ['Mail.Raed'] })).rejects.toThrow(
      "Unknown scope 'Mail.Raed' (did you mean 'Mail.Read'?)",
    );
    await expect(api.emulator.token({ app: SEED_IDS.app, roles: ['Group.Read.Al'] })).rejects.toThrow(
      "Unknown application permission 'Group.Read.Al' (did you mean 'Group.Read.All'?)",
    );
    // The table's names and the common sign-in scopes are taken.
    await expect(api.emulator.token({ scopes: ['Mail.Read', 'User.Read', 'openid'] })).resolves.toEqual(
      expect.any(String),
    );
    const wire = await fetch(`${api.emulator.url}/_emulator/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ scopes: ['Mail.Raed'] }),
    });
    expect(wire.status).toBe(400);
  });
});
