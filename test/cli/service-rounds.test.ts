/**
 * `bomwright service` for real work: delta rounds that resume from a saved link, clones that wait, partial failures
 * that fail, and query options that match the operation. The CLI as a subprocess against the emulator.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { BIN, runCli, tempDirs } from '../helpers.js';
import { useEmulator } from '../emulator/harness.js';

const api = useEmulator({ clonePolls: 2, cloneRetryAfterSeconds: 0.05 });
const tempDir = tempDirs();
const env = async (extra: Record<string, string> = {}) => ({
  BOMWRIGHT_SERVICE_URL: api.emulator.url,
  BOMWRIGHT_TOKEN: await api.token(),
  ...extra,
});
const service = async (args: string[], extra: Record<string, string> = {}) =>
  runCli(['service', ...args], { env: await env(extra) });

const TEAM = '2a7d9e10-3001-4b2c-8d3e-4f5a6b7c8d01';

describe('bomwright service message-delta: rounds that resume', () => {
  it('keeps the final deltaLink with --all, saves it atomically, and a later round from it returns only what changed', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'inbox.link');
    const first = await service([
      'message-delta',
      '--folder',
      'inbox',
      '--top',
      '2',
      '--all',
      '--save-delta-link',
      file,
    ]);
    expect(first.code, first.stderr).toBe(0);
    const round = JSON.parse(first.stdout) as { value: { id: string }[]; '@odata.deltaLink': string };
    expect(round.value.length).toBeGreaterThan(2);
    expect(round['@odata.deltaLink']).toMatch(/\/messages\/delta\?\$deltatoken=/);
    expect(readFileSync(file, 'utf8')).toBe(`${round['@odata.deltaLink']}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const quiet = await service(['message-delta', '--delta-link', file, '--all']);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(JSON.parse(quiet.stdout).value).toEqual([]);

    const created = await runCli(['service', 'create-message', '--folder', 'inbox', '--body', '-'], {
      env: await env(),
      input: '{"subject":"after the round"}',
    });
    expect(created.code, created.stderr).toBe(0);
    // The link as a URL, unchanged (its $top=2 came with it), and again saved for the next round.
    const next = await service([
      'message-delta',
      '--delta-link',
      round['@odata.deltaLink'],
      '--all',
      '--save-delta-link',
      file,
    ]);
    expect(next.code, next.stderr).toBe(0);
    const changes = JSON.parse(next.stdout) as { value: { subject: string }[]; '@odata.deltaLink': string };
    expect(changes.value.map((m) => m.subject)).toEqual(['after the round']);
    expect(readFileSync(file, 'utf8')).toBe(`${changes['@odata.deltaLink']}\n`);
    expect(changes['@odata.deltaLink']).not.toBe(round['@odata.deltaLink']);
  });

  it('prints a table on stdout and the link on stderr; --max-page-size sends Prefer: odata.maxpagesize', async () => {
    const page = await service(['message-delta', '--folder', 'inbox', '--max-page-size', '1', '--format', 'table']);
    expect(page.code, page.stderr).toBe(0);
    // One item per page: a header, a rule and one row; the round goes on at the nextLink.
    expect(page.stdout.trimEnd().split('\n')).toHaveLength(3);
    expect(page.stderr).toMatch(/^@odata\.nextLink: http:\/\/127\.0\.0\.1:\d+\/v1\.0\/.*\$skiptoken=\S+\n$/);
    const two = await service(['message-delta', '--folder', 'inbox', '--max-page-size', '2']);
    expect(JSON.parse(two.stdout).value).toHaveLength(2);
    const all = await service([
      'message-delta',
      '--folder',
      'inbox',
      '--max-page-size',
      '1',
      '--all',
      '--format',
      'table',
    ]);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stderr).toMatch(/^@odata\.deltaLink: \S+\$deltatoken=\S+\n$/);
    expect(all.stdout).not.toContain('odata');
    for (const bad of ['0', '-1', '1.5', '2147483648'])
      expect((await service(['message-delta', '--folder', 'inbox', '--max-page-size', bad])).stderr).toBe(
        `bomwright: E_USAGE: --max-page-size takes a whole number from 1 to 2147483647, not ${bad}\n`,
      );
    expect((await service(['message-delta', '--folder', 'inbox', '--max-page-size', '2147483647'])).code).toBe(0);
  });

  it('refuses options the saved link already holds, --save-delta-link without --all, and a link to another origin', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'link');
    const saved = await service(['message-delta', '--folder', 'inbox', '--all', '--save-delta-link', file]);
    expect(saved.code, saved.stderr).toBe(0);
    const withFolder = await service([
      'message-delta',
      '--delta-link',
      file,
      '--folder',
      'inbox',
      '--select',
      'subject',
    ]);
    expect(withFolder.code).toBe(2);
    expect(withFolder.stderr).toBe(
      'bomwright: E_USAGE: --delta-link starts from the saved link unchanged: it already holds the path and the query options, so --folder, --select cannot be given with it\n',
    );
    const noAll = await service(['message-delta', '--folder', 'inbox', '--save-delta-link', file]);
    expect(noAll.stderr).toBe(
      'bomwright: E_USAGE: --save-delta-link needs --all: the delta link comes on the last page of the round\n',
    );
    const missing = await service(['message-delta', '--delta-link', path.join(dir, 'none')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^bomwright: E_READ: --delta-link: .*none is neither a URL nor a file/);
    writeFileSync(path.join(dir, 'junk'), 'not a link\n');
    expect((await service(['message-delta', '--delta-link', path.join(dir, 'junk')])).stderr).toMatch(
      /E_INPUT: .*junk does not hold a delta link/,
    );
    // Another origin: refused before anything is sent, and the saved file is left as it was.
    const before = readFileSync(file, 'utf8');
    const foreign = await service([
      'message-delta',
      '--delta-link',
      'http://elsewhere.example/v1.0/me/mailFolders/inbox/messages/delta?$deltatoken=x',
      '--all',
      '--save-delta-link',
      file,
    ]);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toMatch(
      /^bomwright: E_FOREIGN_ORIGIN: messageDelta: the saved link \(--delta-link\) points to http:\/\/elsewhere\.example, not http:\/\/127\.0\.0\.1:\d+: refused/,
    );
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('gives a collection --next-link, held to the same rules', async () => {
    const help = await runCli(['service', 'list-channel-tabs', '--help']);
    expect(help.stdout).toContain('--next-link');
    expect(help.stdout).not.toContain('--delta-link');
    const tabs = await service([
      'list-channel-tabs',
      '--next-link',
      `${api.emulator.url}/v1.0/teams/${TEAM}/channels/${encodeURIComponent(SEED_IDS.channels.builds)}/tabs`,
    ]);
    expect(tabs.code, tabs.stderr).toBe(0);
    expect(JSON.parse(tabs.stdout).value.length).toBeGreaterThan(0);
    const both = await service(['list-channel-tabs', '--team', TEAM, '--next-link', 'http://x.example/']);
    expect(both.stderr).toMatch(
      /--next-link starts from the saved link unchanged: .* so --team cannot be given with it/,
    );
  });
});

describe('bomwright service clone-team --wait', () => {
  const body = (dir: string) => {
    const file = path.join(dir, 'clone.json');
    writeFileSync(
      file,
      JSON.stringify({ displayName: 'Release Engineering (copy)', partsToClone: 'apps,tabs,channels' }),
    );
    return file;
  };

  it('polls as Retry-After says and prints the final operation and the new team id, with no progress off a terminal', async () => {
    // The emulator answers "running" twice with Retry-After 0.05: a client that waited 5 s between polls would
    // run past --wait-timeout 3.
    const result = await service([
      'clone-team',
      '--team',
      TEAM,
      '--body',
      body(tempDir()),
      '--wait',
      '--wait-timeout',
      '3',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const out = JSON.parse(result.stdout) as {
      status: number;
      location: string;
      operation: { status: string; targetResourceId: string; attemptsCount: number };
      teamId: string;
    };
    expect(out.status).toBe(202);
    expect(out.location).toMatch(/^\/teams\(.+\)\/operations\(.+\)$/);
    expect(out.operation).toMatchObject({ status: 'succeeded', attemptsCount: 3 });
    expect(out.teamId).toBe(out.operation.targetResourceId);
    const channels = await service(['list-channels', '--team', out.teamId, '--select', 'displayName']);
    expect(channels.code, channels.stderr).toBe(0);
    expect(JSON.parse(channels.stdout).value.length).toBeGreaterThan(0);
  });

  it.skipIf(spawnSync('script', ['--version']).status !== 0)(
    'shows a progress line on a terminal, on stderr, cleared before the result',
    async () => {
      const file = body(tempDir());
      const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
      const output = path.join(tempDir(), 'out.json');
      // Standard output to a file, standard error on the terminal: the progress must come through stderr.
      const command = `${[process.execPath, BIN, 'service', 'clone-team', '--team', TEAM, '--body', file, '--wait']
        .map(quote)
        .join(' ')} > ${quote(output)}`;
      // Not spawnSync: the emulator answering it runs in this process.
      const child = spawn('script', ['-qec', command, '/dev/null'], {
        env: { ...process.env, ...(await env()) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
      const run = { status, stdout };
      expect(run.status, run.stdout).toBe(0);
      expect(run.stdout).toMatch(/\r\x1b\[Kclone running: 1 poll, 0 s; next in 0\.\d s/);
      expect(run.stdout).toMatch(/\r\x1b\[Kclone running: 2 polls, 0 s; next in 0\.\d s\r\x1b\[K$/);
      expect(JSON.parse(readFileSync(output, 'utf8')).operation.status).toBe('succeeded');
    },
  );

  it('without --wait prints the 202 and its Location only', async () => {
    const result = await service(['clone-team', '--team', TEAM, '--body', body(tempDir())]);
    expect(result.code, result.stderr).toBe(0);
    expect(Object.keys(JSON.parse(result.stdout))).toEqual(['status', 'location']);
  });

  it('refuses a bad --wait-timeout, and --wait-timeout without --wait', async () => {
    for (const bad of ['0', '-1', '86401'])
      expect(
        (await service(['clone-team', '--team', TEAM, '--body', body(tempDir()), '--wait', '--wait-timeout', bad]))
          .stderr,
      ).toBe(`bomwright: E_USAGE: --wait-timeout takes seconds above 0 and at most 86400, not ${bad}\n`);
    expect(
      (await service(['clone-team', '--team', TEAM, '--body', body(tempDir()), '--wait-timeout', '5'])).stderr,
    ).toBe('bomwright: E_USAGE: --wait-timeout bounds --wait: give --wait too\n');
    expect((await runCli(['service', 'get-group', '--wait'])).stderr).toMatch(/unknown option --wait/);
  });
});

describe('bomwright service clone-team --wait against a slow service', () => {
  let server: Server;
  let url: string;
  const polls: number[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.method === 'POST') {
        const op = request.url?.includes('/teams/t2/') === true ? 'op2' : 'op1';
        response.writeHead(202, { Location: `/teams(t1)/operations(${op})`, 'Content-Length': '0' }).end();
        return;
      }
      polls.push(Date.now());
      const failed = request.url?.includes('op2');
      const text = JSON.stringify(
        failed
          ? { id: 'op2', status: 'failed', error: { code: 'Conflict', message: 'The name is taken' } }
          : { id: 'op1', status: 'running' },
      );
      response.writeHead(200, { 'Content-Type': 'application/json', 'Retry-After': '1' }).end(text);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('stops at --wait-timeout with E_TIMEOUT and how to follow the operation, exit 1', async () => {
    const file = path.join(tempDir(), 'b.json');
    writeFileSync(file, '{"displayName":"x","partsToClone":"apps"}');
    const run = await runCli(
      ['service', 'clone-team', '--team', 't1', '--body', file, '--wait', '--wait-timeout', '1.5'],
      {
        env: { BOMWRIGHT_SERVICE_URL: url, BOMWRIGHT_TOKEN: 'tok' },
      },
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'bomwright: E_TIMEOUT: The clone was still running when --wait-timeout 1.5 s ran out; follow it with bomwright service get-team-operation --team t1 --operation op1\n',
    );
    // Retry-After 1: a second poll at 1 s, and a last one at the deadline (1.5 s) before giving up.
    expect(polls).toHaveLength(3);
  });

  it('prints a failed clone’s operation and its error on one line, exit 1', async () => {
    const file = path.join(tempDir(), 'b.json');
    writeFileSync(file, '{"displayName":"x","partsToClone":"apps"}');
    const run = await runCli(['service', 'clone-team', '--team', 't2', '--body', file, '--wait'], {
      env: { BOMWRIGHT_SERVICE_URL: url, BOMWRIGHT_TOKEN: 'tok' },
    });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      status: 202,
      location: '/teams(t1)/operations(op2)',
      operation: { id: 'op2', status: 'failed', error: { code: 'Conflict', message: 'The name is taken' } },
    });
    expect(run.stderr).toBe('bomwright: E_SERVICE: the clone failed: Conflict: The name is taken\n');
  });
});

describe('bomwright service: partial failure is failure', () => {
  it('exits 1 on a 207 whose items carry errors, printing each failed item', async () => {
    const dir = tempDir();
    const member = (user: string) => ({
      '@odata.type': 'vendor.graph.dirUserConversationMember',
      'user@odata.bind': `${api.emulator.url}/v1.0/users('${user}')`,
    });
    const file = path.join(dir, 'remove.json');
    writeFileSync(
      file,
      JSON.stringify({
        values: [member('ghost-1@contoso.example'), member(SEED_IDS.users.megan), member('ghost-2@contoso.example')],
      }),
    );
    const partial = await service(['remove-team-members', '--team', TEAM, '--body', file]);
    expect(partial.code).toBe(1);
    expect(JSON.parse(partial.stdout).value).toHaveLength(3);
    const lines = partial.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^bomwright: E_SERVICE: NotFound: .+ \(item 1 of 3, userId ghost-1@contoso\.example\)$/);
    expect(lines[1]).toMatch(/^bomwright: E_SERVICE: NotFound: .+ \(item 3 of 3, userId ghost-2@contoso\.example\)$/);
  });
});

describe('bomwright service: query options that match the operation', () => {
  it('offers exactly the options of the operation’s row, says which in --help, and refuses others naming them', async () => {
    const tabs = await runCli(['service', 'list-channel-tabs', '--help']);
    expect(tabs.stdout.replace(/\s+/g, ' ')).toContain(
      'Query options of list-channel-tabs (its row of the operations table): --select.',
    );
    expect(tabs.stdout).toContain('--select');
    expect(tabs.stdout).not.toMatch(/--top\b/);
    const phones = await runCli(['service', 'list-phone-methods', '--help']);
    expect(phones.stdout.replace(/\s+/g, ' ')).toContain(
      'Query options of list-phone-methods (its row of the operations table): none.',
    );
    const delta = await runCli(['service', 'message-delta', '--help']);
    expect(delta.stdout.replace(/\s+/g, ' ')).toContain(
      '--select, --top, --expand, --filter, --orderby, --skiptoken, --deltatoken, --change-type.',
    );
    expect(delta.stdout).not.toContain('--search');

    const selected = await service([
      'list-channel-tabs',
      '--team',
      TEAM,
      '--channel',
      SEED_IDS.channels.builds,
      '--select',
      'displayName',
    ]);
    expect(selected.code, selected.stderr).toBe(0);
    for (const tab of JSON.parse(selected.stdout).value) expect(Object.keys(tab).sort()).toEqual(['displayName', 'id']);

    const top = await service(['list-phone-methods', '--top', '1']);
    expect(top.code).toBe(2);
    expect(top.stderr).toBe(
      'bomwright: E_USAGE: bomwright service list-phone-methods takes no query options (the operations table gives it none), not --top\n',
    );
    const skip = await service(['list-channel-tabs', '--team', TEAM, '--channel', 'c', '--top', '2']);
    expect(skip.stderr).toBe(
      'bomwright: E_USAGE: bomwright service list-channel-tabs takes the query options --select, not --top\n',
    );
    const search = await service(['message-delta', '--folder', 'inbox', '--search', 'sbom']);
    expect(search.stderr).toMatch(/message-delta takes the query options --select, .*, not --search\n$/);
  });
});
