/**
 * `bomwright emulator requests|reset|stub|faults`: a running emulator's test-double controls from the command line
 * (for tests in any language), the built CLI in its own process against an emulator on loopback.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { useEmulator } from '../emulator/harness.js';
import { runCli, tempDir } from '../helpers.js';

const api = useEmulator();
beforeEach(() => api.emulator.reset());
const G = SEED_IDS.groups.release;
const cli = (args: string[], options: { cwd?: string; input?: string } = {}) =>
  runCli(['emulator', ...args, '--url', api.emulator.url], options);

describe('bomwright emulator stub', () => {
  it('adds a stub from a file (or a list, or standard input), lists them, removes one, clears them', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'stub.json'),
      JSON.stringify({ operation: 'getGroup', response: { status: 200, body: { id: G, displayName: 'From CLI' } } }),
    );
    const added = await cli(['stub', 'stub.json'], { cwd: dir });
    expect(added.code, added.stderr).toBe(0);
    const stub = JSON.parse(added.stdout) as { id: string };
    expect(stub).toMatchObject({ id: expect.stringMatching(/^stub-\d+$/), operation: 'getGroup' });
    expect((await api.call('GET', `/groups/${G}`)).body.displayName).toBe('From CLI');
    const piped = await cli(['stub', '-'], {
      input: JSON.stringify([
        { path: '/me/presence', response: { status: 200, body: { availability: 'Away' } } },
        { path: '/me/x', response: { status: 418 } },
      ]),
    });
    expect(piped.code, piped.stderr).toBe(0);
    expect(JSON.parse(piped.stdout)).toHaveLength(2);
    const listed = await cli(['stub']);
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((s) => s.id)).toHaveLength(3);
    expect((await cli(['stub', '--remove', stub.id])).code).toBe(0);
    expect((await api.call('GET', `/groups/${G}`)).body.displayName).not.toBe('From CLI');
    const again = await cli(['stub', '--remove', stub.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      `bomwright: E_SERVICE: The emulator at ${api.emulator.url} refused: No stub '${stub.id}'.\n`,
    );
    expect((await cli(['stub', '--clear'])).code).toBe(0);
    expect(api.emulator.stubs()).toEqual([]);
  });

  it('refuses a bad stub in one line naming the member, and a file for an action that takes none', async () => {
    const bad = await cli(['stub', '-'], {
      input: JSON.stringify({ operation: 'getGrop', response: { status: 200 } }),
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      `bomwright: E_SERVICE: The emulator at ${api.emulator.url} refused: the stub.operation: "getGrop" is not an operation (did you mean getGroup?)\n`,
    );
    const notJson = await cli(['stub', '-'], { input: '{' });
    expect(notJson.stderr).toBe(
      'bomwright: E_USAGE: standard input is not JSON (line 1, column 2: it ends too soon)\n',
    );
    const extra = await cli(['reset', 'x.json']);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toBe('bomwright: E_USAGE: emulator reset takes no file (x.json); only stub and faults do\n');
  });
});

describe('bomwright emulator requests, reset and faults', () => {
  it('lists requests with filters and the unmatched ones, clears them; reset goes back to the seed', async () => {
    await api.call('GET', `/groups/${G}`);
    await api.call('GET', '/me/nowhere');
    const all = await cli(['requests']);
    expect(all.code, all.stderr).toBe(0);
    expect((JSON.parse(all.stdout) as { path: string }[]).map((r) => r.path)).toEqual([
      `/v1.0/groups/${G}`,
      '/v1.0/me/nowhere',
    ]);
    const unmatched = await cli(['requests', '--unmatched']);
    expect((JSON.parse(unmatched.stdout) as { path: string }[]).map((r) => r.path)).toEqual(['/v1.0/me/nowhere']);
    const byOperation = await cli(['requests', '--operation', 'getGroup', '--method', 'get']);
    expect(JSON.parse(byOperation.stdout)).toHaveLength(1);
    expect((await cli(['requests', '--clear'])).code).toBe(0);
    expect(api.emulator.requests()).toEqual([]);
    await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: 'gone after reset' } });
    api.emulator.stub({ path: '/x', response: { status: 200 } });
    const reset = await cli(['reset']);
    expect([reset.code, reset.stdout]).toEqual([0, '']);
    expect(api.emulator.requests()).toEqual([]);
    expect(api.emulator.stubs()).toEqual([]);
  });

  it('sets, shows and clears fault rules', async () => {
    const set = await cli(['faults', '-'], {
      input: JSON.stringify({ rules: [{ operation: 'getGroup', fault: 503 }] }),
    });
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ rules: [{ operation: 'getGroup', fault: 503 }] });
    expect((await api.call('GET', `/groups/${G}`)).status).toBe(503);
    expect(JSON.parse((await cli(['faults'])).stdout)).toEqual({ rules: [{ operation: 'getGroup', fault: 503 }] });
    expect(JSON.parse((await cli(['faults', '--clear'])).stdout)).toEqual({ rules: [] });
    expect((await api.call('GET', `/groups/${G}`)).status).toBe(200);
  });

  it('says so in one line when no emulator answers', async () => {
    const run = await runCli(['emulator', 'requests', '--url', 'http://127.0.0.1:9']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'bomwright: E_NETWORK: No emulator answers at http://127.0.0.1:9; start one with "bomwright emulator"\n',
    );
  });
});
