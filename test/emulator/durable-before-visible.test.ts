/**
 * Durable before visible: the emulator (a subprocess with --state) is killed with SIGKILL while a write is applied
 * in memory but its journal record is not yet on disk (the test-only BOMWRIGHT_TEST_JOURNAL_DELAY_MS holds the
 * journal write back). No response may have depended on that write: after the restart the write is gone, so any
 * answer that showed it (the message in a delta page, "already an owner") would have been a lie.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { BIN, tempDirs } from '../helpers.js';

const stateFolder = tempDirs('bomwright-durable-');
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

async function launch(
  stateDir: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'emulator', '--port', '0', '--quiet', '--state', stateDir], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout);
      if (match !== null) resolve({ child, url: match[1]! });
    });
    child.on('exit', (code) => reject(new Error(`emulator exited (${code}) before listening: ${stderr}`)));
  });
}

async function token(url: string, request: object = {}): Promise<string> {
  const reply = await fetch(`${url}/_emulator/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
  });
  return ((await reply.json()) as { access_token: string }).access_token;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('durable before visible', () => {
  it('no answer depends on a write that a kill -9 between its apply and its fsync loses', async () => {
    const dir = stateFolder();
    // Seed the folder first (the seed itself goes through the journal).
    const first = await launch(dir);
    first.child.kill('SIGTERM');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const { child, url } = await launch(dir, { BOMWRIGHT_TEST_JOURNAL_DELAY_MS: '3000' });
    const user = await token(url);
    const app = await token(url, { app: SEED_IDS.app });
    const answered: string[] = [];
    const send = (name: string, path: string, bearer: string, body?: unknown): void => {
      void fetch(`${url}/v1.0${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
        .then(async (reply) => answered.push(`${name} ${reply.status} ${await reply.text()}`))
        .catch(() => undefined);
    };
    const owner = { '@odata.id': `${url}/v1.0/users/${SEED_IDS.users.alex}` };
    const physicsOwners = `/groups/${SEED_IDS.groups.physics}/owners/$ref`;
    send('add owner', physicsOwners, app, owner);
    send('create message', '/me/mailFolders/inbox/messages', user, { subject: 'never acknowledged' });
    await sleep(300);
    // Both writes are applied in memory now; their journal record waits. Requests that read what they changed:
    send('add the same owner again', physicsOwners, app, owner);
    send('message delta', '/me/mailFolders/inbox/messages/delta', user);
    // A request that reads nothing not yet durable is answered at once.
    const phone = await fetch(`${url}/v1.0/me/authentication/phoneMethods`, {
      headers: { Authorization: `Bearer ${user}` },
    });
    expect(phone.status).toBe(200);
    await sleep(500);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(answered).toEqual([]);

    // After the restart the writes are gone: the owner can be added (204, not "already exists"), the message is not there.
    const restarted = await launch(dir);
    const appAgain = await token(restarted.url, { app: SEED_IDS.app });
    const added = await fetch(`${restarted.url}/v1.0${physicsOwners}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${appAgain}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ '@odata.id': `${restarted.url}/v1.0/users/${SEED_IDS.users.alex}` }),
    });
    expect(added.status).toBe(204);
    const delta = await fetch(`${restarted.url}/v1.0/me/mailFolders/inbox/messages/delta?$top=1000`, {
      headers: { Authorization: `Bearer ${await token(restarted.url)}` },
    });
    const subjects = ((await delta.json()) as { value: { subject: string }[] }).value.map((m) => m.subject);
    expect(subjects).not.toContain('never acknowledged');
    expect(subjects.length).toBeGreaterThan(0);
  });
});
