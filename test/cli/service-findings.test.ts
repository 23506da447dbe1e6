/**
 * `bomwright service`, `publish` and `notify`: what a failing write says, which operations take --all, path
 * parameters named as flags, a pasted "Bearer …" token, --wait-timeout spent in full, a saved link of another
 * operation, the request a --dry-run prints, and one exit code for a service that refused or cannot be reached.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { createClient, createServiceClient, syncMessages, waitForTeamClone } from '../../src/service/index.js';
import { useEmulator } from '../emulator/harness.js';
import { runCli, tempDir } from '../helpers.js';

const api = useEmulator();
const env = async (extra: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> => ({
  BOMWRIGHT_SERVICE_URL: api.emulator.url,
  BOMWRIGHT_TOKEN: await api.token(),
  ...extra,
});
const service = async (args: string[], extra: NodeJS.ProcessEnv = {}) =>
  runCli(['service', ...args], { env: await env(extra) });
const G = SEED_IDS.groups.release;

describe('--save-delta-link to a place that cannot take the file', () => {
  it.skipIf(!existsSync('/proc/version'))(
    'says that the folder takes no new files, and returns when a folder would have to be made there',
    async () => {
      const round = ['message-delta', '--folder', 'inbox', '--all', '--save-delta-link'];
      const file = await service([...round, '/proc/version']);
      expect(file.code).toBe(2);
      expect(file.stderr).toBe(
        'bomwright: E_WRITE: Cannot write /proc/version: its folder /proc does not take new files (a special file system)\n',
      );
      const deeper = await service([...round, '/proc/bomwright-missing/inbox.link']);
      expect(deeper.code).toBe(2);
      expect(deeper.stderr).toBe(
        'bomwright: E_WRITE: Cannot write /proc/bomwright-missing/inbox.link: its folder /proc does not take new files (a special file system)\n',
      );
    },
  );
});

describe('--all', () => {
  it('is offered on the paged GET operations only, and refused elsewhere saying why', async () => {
    expect((await runCli(['service', 'list-channels', '--help'])).stdout).toContain('--all');
    expect((await runCli(['service', 'message-delta', '--help'])).stdout).toContain('--all');
    for (const operation of ['move-message', 'create-message', 'get-group']) {
      const help = await runCli(['service', operation, '--help']);
      expect(help.stdout).not.toMatch(/--all\b/);
    }
    const refused = await service(['get-group', '--group', G, '--all']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'bomwright: E_USAGE: bomwright service get-group answers in one piece (GET, no pages): --all is for the collections and delta rounds\n',
    );
    const paged = await service(['list-channels', '--team', G, '--all']);
    expect(paged.code, paged.stderr).toBe(0);
  });
});

describe('path parameters and the body', () => {
  it('are named as the flags that give them', async () => {
    const none = await service(['list-folder-messages']);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      'bomwright: E_USAGE: bomwright service list-folder-messages takes --folder, or --user with --folder; got none\n',
    );
    const userOnly = await service(['list-folder-messages', '--user', SEED_IDS.users.adele]);
    expect(userOnly.stderr).toBe(
      'bomwright: E_USAGE: bomwright service list-folder-messages takes --folder, or --user with --folder; got --user\n',
    );
    // --user me is the signed-in user's form; either form with its flags is sent.
    expect((await service(['list-folder-messages', '--folder', 'inbox', '--user', 'me'])).code).toBe(0);
    expect((await service(['list-folder-messages', '--folder', 'inbox', '--user', SEED_IDS.users.adele])).code).toBe(0);
    const noBody = await service(['create-message', '--folder', 'inbox']);
    expect(noBody.code).toBe(2);
    expect(noBody.stderr).toBe(
      'bomwright: E_USAGE: bomwright service create-message needs --body: a JSON file, or - for standard input (bomwright service openapi shows its shape)\n',
    );
  });
});

describe('a token pasted with its scheme', () => {
  it('is sent once as Bearer; one that cannot be a bearer token is refused without being shown', async () => {
    const token = await api.token();
    for (const pasted of [`Bearer ${token}`, `bearer   ${token}`, ` ${token}\n`]) {
      const run = await runCli(['service', 'list-phone-methods', '--token', pasted], {
        env: { BOMWRIGHT_SERVICE_URL: api.emulator.url },
      });
      expect(run.code, run.stderr).toBe(0);
    }
    const basic = await runCli(['service', 'list-phone-methods', '--token', 'Basic dXNlcjpzZWNyZXQ='], {
      env: { BOMWRIGHT_SERVICE_URL: api.emulator.url },
    });
    expect(basic.code).toBe(2);
    expect(basic.stderr).toBe(
      'bomwright: E_USAGE: The token from --token cannot be sent: it starts with "Basic", a scheme other than Bearer; pass the token alone\n',
    );
    const split = await service(['list-phone-methods'], {
      BOMWRIGHT_TOKEN: `${token.slice(0, 40)} ${token.slice(40)}`,
    });
    expect(split.stderr).toBe(
      'bomwright: E_USAGE: The token from BOMWRIGHT_TOKEN cannot be sent: it holds whitespace; pass the token alone\n',
    );
    expect(split.stderr).not.toContain(token.slice(0, 40));
  });

  it('is taken as is by the library client too', async () => {
    const token = await api.token();
    const client = createClient({ baseUrl: api.emulator.url, token: `Bearer ${token}` });
    try {
      expect((await client.authenticationMethods.listPhoneMethods({}).all()).length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
    expect(() => createServiceClient({ baseUrl: api.emulator.url, token: 'Bearer ' })).toThrow(
      'The token cannot be sent: it is the scheme word alone, with no token after it; pass the token alone',
    );
    expect(() => createServiceClient({ baseUrl: api.emulator.url, token: 'Basic abc' })).toThrow(
      expect.objectContaining({
        code: 'E_REQUEST_SHAPE',
        message: 'The token cannot be sent: it starts with "Basic", a scheme other than Bearer; pass the token alone',
      }),
    );
  });
});

describe('a saved link of another operation', () => {
  it('is refused naming the operation it belongs to; one of the same operation is followed', async () => {
    const round = await service(['message-delta', '--folder', 'inbox', '--all']);
    const deltaLink = (JSON.parse(round.stdout) as { '@odata.deltaLink': string })['@odata.deltaLink'];
    const wrong = await service(['list-channels', '--next-link', deltaLink]);
    expect(wrong.code).toBe(2);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toBe(
      'bomwright: E_REQUEST_SHAPE: listChannels: the saved link (--next-link) is a link of messageDelta (GET /me/mailFolders/{folder}/messages/delta), not of listChannels\n',
    );
    const channels = `${api.emulator.url}/v1.0/teams/${G}/channels`;
    const back = await service(['message-delta', '--delta-link', channels]);
    expect(back.stderr).toMatch(
      /is a link of listChannels \(GET \/teams\/\{team\}\/channels\), not of messageDelta\n$/,
    );
    const nowhere = await service(['list-channels', '--next-link', `${api.emulator.url}/v1.0/nothing/here`]);
    expect(nowhere.stderr).toBe(
      "bomwright: E_REQUEST_SHAPE: listChannels: the saved link (--next-link) is not a link of listChannels: its path is no operation's of the table\n",
    );
    expect((await service(['list-channels', '--next-link', channels])).code).toBe(0);
    expect((await service(['message-delta', '--delta-link', deltaLink])).code).toBe(0);
  });

  it('is refused by the library: a delta store holding another link, a clone Location that is not an operation', async () => {
    const client = createServiceClient({ baseUrl: api.emulator.url, token: await api.token() });
    try {
      const store = { load: () => `${api.emulator.url}/v1.0/teams/${G}/channels`, save: () => undefined };
      await expect(syncMessages(client, { folder: 'inbox', store })).rejects.toMatchObject({
        code: 'E_REQUEST_SHAPE',
        message: expect.stringContaining('the saved delta link is a link of listChannels'),
      });
      await expect(waitForTeamClone(client, `/teams(${G})/channels`)).rejects.toMatchObject({
        code: 'E_REQUEST_SHAPE',
        message: expect.stringContaining("the clone's Location is a link of listChannels"),
      });
    } finally {
      await client.close();
    }
  });
});

describe('--dry-run of publish and notify', () => {
  it('prints the request that would be sent (method, URL, body) and sends nothing', async () => {
    api.emulator.clearRequests();
    const forward = await runCli(
      ['notify', 'forward', '--event', 'evt-adele-gonogo', '--to', 'dana@fabrikam.example', '--dry-run'],
      { env: await env() },
    );
    expect(forward.code, forward.stderr).toBe(0);
    expect(forward.stdout).toBe(
      `Would forward event evt-adele-gonogo to dana@fabrikam.example: POST ${api.emulator.url}/v1.0/me/events/evt-adele-gonogo/forward {"ToRecipients":[{"EmailAddress":{"Address":"dana@fabrikam.example"}}]}\n`,
    );
    const other = await runCli(
      ['notify', 'forward', '--event', 'e1', '--user', SEED_IDS.users.adele, '--to', 'a@b.example', '--dry-run'],
      { env: await env() },
    );
    expect(other.code, other.stderr).toBe(0);
    expect(other.stdout).toContain(`POST ${api.emulator.url}/v1.0/users/${SEED_IDS.users.adele}/events/e1/forward `);
    const report = await runCli(
      ['notify', 'forward', '--event', 'e1', '--to', 'a@b.example', '--dry-run', '--format', 'json'],
      { env: await env() },
    );
    expect(JSON.parse(report.stdout)).toMatchObject({
      dryRun: true,
      method: 'POST',
      url: `${api.emulator.url}/v1.0/me/events/e1/forward`,
      request: { ToRecipients: [{ EmailAddress: { Address: 'a@b.example' } }] },
    });
    const bundle = await runCli(['publish', 'bundle', '--bundle', '123456!90', '--item', '123456!87', '--dry-run'], {
      env: await env(),
    });
    expect(bundle.code, bundle.stderr).toBe(0);
    expect(bundle.stdout).toBe(
      `Would add drive item 123456!87 to bundle 123456!90: POST ${api.emulator.url}/v1.0/drive/bundles/123456!90/children {"id":"123456!87"}\n`,
    );
    expect(api.emulator.requests({ method: 'POST' })).toEqual([]);
  });
});

describe('--wait-timeout against a clone that stays running', () => {
  let server: Server;
  let url: string;
  const polls: number[] = [];
  let throttled = false;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.method === 'POST') {
        response.writeHead(202, { Location: '/teams(t1)/operations(op1)', 'Content-Length': '0' }).end();
        return;
      }
      polls.push(performance.now());
      if (throttled) {
        response.writeHead(429, { 'Retry-After': '0', 'Content-Type': 'application/json' });
        response.end('{"error":{"code":"TooManyRequests","message":"slow down"}}');
        return;
      }
      // The service asks for 5 s between polls: more than the whole --wait-timeout.
      response
        .writeHead(200, { 'Content-Type': 'application/json', 'Retry-After': '5' })
        .end(JSON.stringify({ id: 'op1', status: 'inProgress' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const clone = () => {
    const file = path.join(tempDir(), 'b.json');
    writeFileSync(file, '{"displayName":"x","partsToClone":"apps"}');
    return runCli(['service', 'clone-team', '--team', 't1', '--body', file, '--wait', '--wait-timeout', '1.5'], {
      env: { BOMWRIGHT_SERVICE_URL: url, BOMWRIGHT_TOKEN: 'tok' },
    });
  };

  it('spends the whole timeout: a last poll at the deadline, not a give-up after the first', async () => {
    polls.length = 0;
    const run = await clone();
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'bomwright: E_TIMEOUT: The clone was still running when --wait-timeout 1.5 s ran out; follow it with bomwright service get-team-operation --team t1 --operation op1\n',
    );
    // The first poll, then one at the deadline (sooner than Retry-After 5 asked, as the timeout is the caller's).
    expect(polls).toHaveLength(2);
    expect(polls[1]! - polls[0]!).toBeGreaterThanOrEqual(1_400);
  });

  it('says the other reason when it gives up for one (a retry budget spent), not that the timeout ran out', async () => {
    throttled = true;
    try {
      const run = await clone();
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^bomwright: E_RETRY_EXHAUSTED: /);
      expect(run.stderr).not.toContain('--wait-timeout');
    } finally {
      throttled = false;
    }
  });
});

describe('emulator token', () => {
  it('passes on the emulator’s refusal of a mistyped scope with the nearest known one, exit 1 as a service’s refusal', async () => {
    const run = await runCli(['emulator', 'token', '--url', api.emulator.url, '--scopes', 'Mail.Raed']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `bomwright: E_SERVICE: The emulator at ${api.emulator.url} refused the token request: Unknown scope 'Mail.Raed' (did you mean 'Mail.Read'?)\n`,
    );
    expect((await runCli(['emulator', 'token', '--url', api.emulator.url, '--scopes', 'Mail.Read'])).code).toBe(0);
  });
});

describe('--odata-namespace against an emulator in the spec’s namespace', () => {
  it('speaks it with vendor.graph (the default); microsoft.graph casts are not its paths', async () => {
    const building = 'e5c4b3a2-a001-4b6c-8d7e-9f0a1b2c3d01';
    const level = 'e537d463-a002-4b6c-8d7e-9f0a1b2c3d02';
    const fixtures = ['list-fixtures', '--building', building, '--level', level, '--select', 'id'];
    api.emulator.clearRequests();
    const spec = await service([...fixtures, '--odata-namespace', 'vendor.graph']);
    expect(spec.code, spec.stderr).toBe(0);
    const real = await service([...fixtures, '--odata-namespace', 'microsoft.graph']);
    expect(real.code).toBe(1);
    expect(real.stderr).toMatch(/^bomwright: E_SERVICE: /);
    expect(api.emulator.requests().map((r) => r.path)).toEqual([
      `/v1.0/places/${building}/vendor.graph.building/map/levels/${level}/fixtures`,
      `/v1.0/places/${building}/microsoft.graph.building/map/levels/${level}/fixtures`,
    ]);
  });
});
