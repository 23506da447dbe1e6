/** `bomwright emulator` as a test double: --faults, --report-permissions, and a reset that survives kill -9. */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, ROOT, runCli, tempDirs } from '../helpers.js';

const newDir = tempDirs();

interface Emulator {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

const running: Emulator[] = [];

function launch(args: string[]): Promise<Emulator> {
  const child = spawn(process.execPath, [BIN, 'emulator', '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const first = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout);
      if (first !== null) {
        const emulator = { child, url: first[1]!, stderr: () => stderr, exited };
        running.push(emulator);
        resolve(emulator);
      }
    });
    void exited.then((code) => reject(new Error(`emulator exited (${code}) before listening: ${stderr}`)));
  });
}

afterEach(() => {
  for (const emulator of running.splice(0)) emulator.child.kill('SIGKILL');
});

async function token(url: string, ...args: string[]): Promise<string> {
  const result = await runCli(['emulator', 'token', '--url', url, ...args]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout.trim();
}

async function inboxSubjects(url: string, bearer: string): Promise<string[]> {
  const reply = await fetch(`${url}/v1.0/me/mailFolders/inbox/messages/delta?$select=subject`, {
    headers: { Authorization: `Bearer ${bearer}`, Prefer: 'odata.maxpagesize=1000' },
  });
  return ((await reply.json()) as { value: { subject: string }[] }).value.map((m) => m.subject);
}

async function write(url: string, bearer: string, subject: string): Promise<number> {
  const reply = await fetch(`${url}/v1.0/me/mailFolders/inbox/messages`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ subject }),
  });
  return reply.status;
}

describe('bomwright emulator --faults FILE', () => {
  it('applies the rules of the file', async () => {
    const file = path.join(newDir(), 'faults.json');
    writeFileSync(file, JSON.stringify({ rules: [{ operation: 'listPhoneMethods', fault: 503, first: 1 }] }));
    const emulator = await launch(['--faults', file, '--quiet']);
    const bearer = await token(emulator.url);
    const call = async () =>
      (
        await fetch(`${emulator.url}/v1.0/me/authentication/phoneMethods`, {
          headers: { Authorization: `Bearer ${bearer}` },
        })
      ).status;
    expect([await call(), await call()]).toEqual([503, 200]);
  });

  it('refuses a missing, non-JSON or wrong file with one line and exit code 2', async () => {
    const dir = newDir();
    const missing = await runCli(['emulator', '--port', '0', '--faults', path.join(dir, 'none.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^bomwright: E_READ: Cannot read the faults file .*none\.json: ENOENT\n$/);
    writeFileSync(path.join(dir, 'bad.json'), '{ rules: ');
    const notJson = await runCli(['emulator', '--port', '0', '--faults', 'bad.json'], { cwd: dir });
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toBe('bomwright: E_USAGE: --faults bad.json: not JSON ({ "rules": [ ... ] })\n');
    writeFileSync(path.join(dir, 'wrong.json'), JSON.stringify({ rules: [{ operation: 'getGroups', fault: 500 }] }));
    const wrong = await runCli(['emulator', '--port', '0', '--faults', 'wrong.json'], { cwd: dir });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe(
      'bomwright: E_USAGE: --faults wrong.json: rules[0].operation: "getGroups" is not an operation (did you mean getGroup?)\n',
    );
  });
});

describe('bomwright emulator --report-permissions', () => {
  it('prints, at shutdown, a line per caller with the least-privileged permissions its calls needed', async () => {
    const emulator = await launch(['--report-permissions', '--quiet']);
    const bearer = await token(emulator.url);
    expect(await write(emulator.url, bearer, 'report')).toBe(201);
    emulator.child.kill('SIGTERM');
    expect(await emulator.exited).toBe(0);
    // The default token holds every scope some operation needs: all but Mail.ReadWrite went unused.
    expect(emulator.stderr()).toMatch(
      /^permissions: adele@contoso\.example \(delegated\): Mail\.ReadWrite; held but not needed: [^;\n]*\bGroup\.Read\.All\b[^;\n]* \(1 operation\)\nemulator stopped\n$/,
    );
    expect(emulator.stderr()).not.toMatch(/held but not needed: [^\n]*Mail\.ReadWrite,/);
  });

  it('prints nothing of the kind without the option', async () => {
    const emulator = await launch(['--quiet']);
    expect((await fetch(`${emulator.url}/_emulator/health`)).status).toBe(200);
    emulator.child.kill('SIGTERM');
    expect(await emulator.exited).toBe(0);
    expect(emulator.stderr()).toBe('emulator stopped\n');
  });
});

describe('a reset with --state', () => {
  it('is acknowledged only once durable: after kill -9 the state is the seed, and a write after it is kept', async () => {
    const state = newDir();
    let emulator = await launch(['--state', state, '--quiet']);
    let bearer = await token(emulator.url);
    const seeded = await inboxSubjects(emulator.url, bearer);
    expect(await write(emulator.url, bearer, 'before the reset')).toBe(201);
    expect(
      (
        await fetch(`${emulator.url}/_emulator/reset`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
        })
      ).status,
    ).toBe(204);
    expect(await write(emulator.url, bearer, 'after the reset')).toBe(201);
    emulator.child.kill('SIGKILL');
    await emulator.exited;
    emulator = await launch(['--state', state, '--quiet']);
    bearer = await token(emulator.url);
    const now = await inboxSubjects(emulator.url, bearer);
    expect(now).not.toContain('before the reset');
    expect(now).toContain('after the reset');
    expect(now.filter((s) => s !== 'after the reset').sort()).toEqual([...seeded].sort());
    // And once more, the reset itself the last thing before the kill.
    expect(
      (
        await fetch(`${emulator.url}/_emulator/reset`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
        })
      ).status,
    ).toBe(204);
    emulator.child.kill('SIGKILL');
    await emulator.exited;
    emulator = await launch(['--state', state, '--quiet']);
    bearer = await token(emulator.url);
    expect((await inboxSubjects(emulator.url, bearer)).sort()).toEqual([...seeded].sort());
  });
});
