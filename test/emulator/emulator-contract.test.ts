/**
 * startEmulator()'s contract, in-process: the admin routes (health, token minting for loopback callers and the
 * exact refusal of each bad token request), keys kept in the state folder, tokens minted offline, the options
 * that reach the server (port, latency, body limit, clone polls, TLS folder) and a port it cannot listen on.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SEED,
  defaultTlsDir,
  SEED_IDS,
  startEmulator,
  tenantOf,
  tlsDirFor,
  tokenFromState,
  type EmulatorOptions,
} from '../../src/emulator/index.js';
import { isLoopbackAddress } from '../../src/emulator/emulator.js';
import { encodeRecord } from '../../src/emulator/journal.js';
import {
  checkServerOptions,
  parseLatency,
  parseList,
  tlsChoice,
  tokenRequest,
} from '../../src/emulator/run-options.js';
import { Store } from '../../src/emulator/store.js';
import { tempDir } from '../helpers.js';
import { Harness, type Body, type Reply } from './harness.js';

const started: Harness[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((api) => api.emulator.close()));
});

/** An emulator started inside the test (so its start-up counts for the test), closed after it. */
async function start(options: EmulatorOptions = {}): Promise<Harness> {
  const api = new Harness(options);
  await api.start();
  started.push(api);
  return api;
}

function claims(token: string): Body {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}

const admin = (api: Harness, method: string, route: string, body?: unknown): Promise<Reply> =>
  api.call(method, `${api.emulator.url}/_emulator/${route}`, { token: null, body });

/** A POST of JSON from a chosen local address, with node:http (fetch cannot pick its source address). */
function postFrom(url: string, localAddress: string, payload: unknown): Promise<{ status: number; body: Body }> {
  const data = JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', localAddress, headers: { 'Content-Type': 'application/json' } },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    request.on('error', reject);
    request.end(data);
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('the admin routes', () => {
  it('answers GET /_emulator/health with the tenant, and 404 for any other admin route or method', async () => {
    const api = await start();
    const health = await admin(api, 'GET', 'health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok', tenantId: api.emulator.tenantId });
    expect(api.emulator.tenantId).toBe(DEFAULT_SEED.tenant.id);
    for (const [method, route] of [
      ['POST', 'health'],
      ['GET', 'token'],
      ['GET', 'other'],
    ] as const) {
      const reply = await admin(api, method, route, method === 'POST' ? {} : undefined);
      expect(reply.status, `${method} ${route}`).toBe(404);
      expect(reply.body.error).toMatchObject({
        code: 'NotFound',
        message: `No emulator route ${method} /_emulator/${route}.`,
      });
    }
  });

  it('mints a bearer token for the default user that the emulator accepts, valid for an hour by default', async () => {
    const api = await start();
    const reply = await admin(api, 'POST', 'token', {});
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ token_type: 'Bearer', access_token: expect.any(String), expires_in: 3600 });
    const token = claims(reply.body.access_token);
    expect(token).toMatchObject({ idtyp: 'user', upn: DEFAULT_SEED.tenant.defaultUser, tid: api.emulator.tenantId });
    expect(token.exp - token.iat).toBe(3600);
    const me = await api.call('GET', '/me/authentication/methods', { token: reply.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body['@odata.context']).toContain(SEED_IDS.users.adele);
  });

  it('mints for the user, app, scopes, roles, directory roles and lifetime asked for', async () => {
    const api = await start();
    const user = await admin(api, 'POST', 'token', {
      user: 'megan@contoso.example',
      scopes: ['User.Read'],
      directoryRoles: ['Global Reader'],
      expiresInSeconds: 60,
    });
    expect(user.status, user.text).toBe(200);
    expect(user.body.expires_in).toBe(60);
    const userClaims = claims(user.body.access_token);
    expect(userClaims).toMatchObject({
      idtyp: 'user',
      oid: SEED_IDS.users.megan,
      upn: 'megan@contoso.example',
      scp: 'User.Read',
      wids: ['Global Reader'],
    });
    expect(userClaims.exp - userClaims.iat).toBe(60);

    const app = await admin(api, 'POST', 'token', { app: SEED_IDS.app, roles: ['User.Read.All'] });
    expect(app.status, app.text).toBe(200);
    expect(claims(app.body.access_token)).toMatchObject({
      idtyp: 'app',
      appid: SEED_IDS.app,
      roles: ['User.Read.All'],
      wids: [],
    });
  });

  it('ignores a user or app that is not a string, and mints for the default user', async () => {
    const api = await start();
    for (const body of [{ user: 5 }, { app: 5 }, { user: null, app: ['x'] }]) {
      const reply = await admin(api, 'POST', 'token', body);
      expect(reply.status, JSON.stringify(body)).toBe(200);
      expect(claims(reply.body.access_token), JSON.stringify(body)).toMatchObject({
        idtyp: 'user',
        upn: DEFAULT_SEED.tenant.defaultUser,
      });
    }
  });

  it('accepts lifetimes from -86400 to 31536000 seconds, and refuses anything outside or not a whole number', async () => {
    const api = await start();
    for (const expiresInSeconds of [-86_400, 0, 31_536_000]) {
      const reply = await admin(api, 'POST', 'token', { expiresInSeconds });
      expect(reply.status, String(expiresInSeconds)).toBe(200);
      expect(reply.body.expires_in).toBe(expiresInSeconds);
    }
    for (const expiresInSeconds of [-86_401, 31_536_001, 1.5, '60', null, true]) {
      const reply = await admin(api, 'POST', 'token', { expiresInSeconds });
      expect(reply.status, String(expiresInSeconds)).toBe(400);
      expect(reply.body.error).toMatchObject({
        code: 'BadRequest',
        message: 'expiresInSeconds must be an integer number of seconds.',
      });
    }
  });

  it('refuses an unknown option, naming it (cut to 40 characters)', async () => {
    const api = await start();
    const reply = await admin(api, 'POST', 'token', { user: 'megan@contoso.example', colour: 'blue' });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ code: 'BadRequest', message: "Unknown token option 'colour'." });
    const long = 'x'.repeat(60);
    const longReply = await admin(api, 'POST', 'token', { [long]: 1 });
    expect(longReply.body.error.message).toBe(`Unknown token option '${'x'.repeat(40)}'.`);
  });

  it('refuses scopes, roles or directory roles that are not a list of strings', async () => {
    const api = await start();
    for (const name of ['scopes', 'roles', 'directoryRoles'])
      for (const value of ['User.Read', ['User.Read', 1], [2], {}]) {
        const reply = await admin(api, 'POST', 'token', { [name]: value });
        expect(reply.status, `${name} ${JSON.stringify(value)}`).toBe(400);
        expect(reply.body.error).toMatchObject({ code: 'BadRequest', message: `${name} must be a list of strings.` });
      }
  });

  it('refuses a user who is not in the tenant with a 400 naming them', async () => {
    const api = await start();
    const reply = await admin(api, 'POST', 'token', { user: 'nobody@contoso.example' });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({
      code: 'BadRequest',
      message: "No user 'nobody@contoso.example' in the emulator's tenant",
    });
  });

  it('mints for callers at 127.0.0.1 and ::1, and refuses any other address', async () => {
    const v6 = await start({ host: '::1' });
    expect(v6.emulator.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
    expect((await admin(v6, 'POST', 'token', {})).status).toBe(200);
    const v4 = await start();
    expect((await postFrom(`${v4.emulator.url}/_emulator/token`, '127.0.0.1', {})).status).toBe(200);
    // 127.0.0.2 stands for a caller on another address: only the exact loopback addresses are trusted.
    const other = await postFrom(`${v4.emulator.url}/_emulator/token`, '127.0.0.2', {});
    expect(other.status).toBe(403);
    expect(other.body.error).toMatchObject({
      code: 'Authorization_RequestDenied',
      message: 'Tokens are minted for loopback callers only.',
    });
  });

  it('counts 127.0.0.1 as a dual-stack socket reports it as loopback, and nothing else', () => {
    // Checked without a server on '::', which would listen on every interface.
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(address)).toBe(true);
    for (const address of [undefined, '', '127.0.0.2', '::ffff:127.0.0.2', '::2', '10.0.0.1', '0.0.0.0', '::'])
      expect(isLoopbackAddress(address), String(address)).toBe(false);
  });
});

describe('tokens minted by the library', () => {
  it('give an app token no directory roles unless asked, and a user token the roles the seed gives the user', async () => {
    const api = await start();
    expect(claims(await api.emulator.token({ app: SEED_IDS.app }))).toMatchObject({ idtyp: 'app', wids: [] });
    expect(claims(await api.emulator.token({ app: SEED_IDS.app, directoryRoles: ['x'] })).wids).toEqual(['x']);
    // An application the tenant does not know is refused as an unknown user is, whatever its case.
    await expect(api.emulator.token({ app: 'app-2' })).rejects.toMatchObject({
      code: 'E_USAGE',
      message: `No application 'app-2' in the emulator's tenant (its app ids: ${SEED_IDS.app})`,
    });
    expect(claims(await api.emulator.token({ app: SEED_IDS.app.toUpperCase() })).appid).toBe(
      SEED_IDS.app.toUpperCase(),
    );
    const seed = structuredClone(DEFAULT_SEED) as unknown as { users: Record<string, unknown>[] };
    const roles = seed.users.map((user) => user.directoryRoles);
    expect(roles.some((value) => Array.isArray(value) && value.length > 0)).toBe(true);
    for (const user of seed.users) {
      const token = claims(await api.emulator.token({ user: String(user.userPrincipalName) }));
      expect(token.wids, String(user.userPrincipalName)).toEqual(
        Array.isArray(user.directoryRoles) ? user.directoryRoles : [],
      );
    }
  });

  it('give a user without directory roles in the seed a token without any', async () => {
    const seed = {
      tenant: { id: 't1', defaultUser: 'ada@example.org' },
      users: [{ id: 'u1', userPrincipalName: 'ada@example.org', displayName: 'Ada' }],
    };
    const api = await start({ seed });
    expect(api.emulator.tenantId).toBe('t1');
    expect(claims(await api.emulator.token())).toMatchObject({ oid: 'u1', tid: 't1', wids: [], acct: 0 });
  });

  it('reads an empty tenant as empty id and default user', () => {
    expect(tenantOf(new Store())).toEqual({ id: '', defaultUser: '' });
  });
});

describe('the state folder', () => {
  it('creates its signing keys once, readable by the owner only, and signs with them again after a restart', async () => {
    const stateDir = path.join(tempDir(), 'nested', 'state');
    const first = await start({ stateDir });
    const token = await first.emulator.token();
    await first.emulator.close();
    const keysFile = path.join(stateDir, 'keys.json');
    expect(statSync(keysFile).mode & 0o777).toBe(0o600);
    const keys = readFileSync(keysFile, 'utf8');
    const second = await start({ stateDir });
    expect(readFileSync(keysFile, 'utf8')).toBe(keys);
    expect((await second.call('GET', '/me/authentication/methods', { token })).status).toBe(200);
  });

  it('refuses a key file that is not JSON, not keys, or cannot be read, with E_STATE naming it', async () => {
    for (const [content, message] of [
      ['{not json', 'is not an emulator key file'],
      ['{"signingKey":1}', 'is not an emulator key file'],
      [undefined, 'cannot be read'],
    ] as const) {
      const stateDir = tempDir();
      const keysFile = path.join(stateDir, 'keys.json');
      if (content === undefined) mkdirSync(keysFile);
      else writeFileSync(keysFile, content);
      await expect(startEmulator({ stateDir }), message).rejects.toMatchObject({
        code: 'E_STATE',
        message: `${keysFile} ${message}`,
      });
    }
  });

  it('mints tokens offline, refusing a folder without state or with a bad key file with E_STATE', async () => {
    const empty = tempDir();
    await expect(tokenFromState(empty)).rejects.toMatchObject({
      code: 'E_STATE',
      message: `${empty} holds no emulator state (no keys.json); start the emulator with --state ${empty} first`,
    });
    for (const content of ['{not json', '{"signingKey":1}', '[]']) {
      const stateDir = tempDir();
      writeFileSync(path.join(stateDir, 'keys.json'), content);
      await expect(tokenFromState(stateDir), content).rejects.toMatchObject({
        code: 'E_STATE',
        message: `${path.join(stateDir, 'keys.json')} is not an emulator key file`,
      });
    }
  });

  it('mints offline without touching the journal, even a torn tail a running emulator may still be writing', async () => {
    const stateDir = tempDir();
    const api = await start({ stateDir });
    await api.emulator.close();
    const journal = path.join(stateDir, 'journal.log');
    const next = JSON.parse(readFileSync(path.join(stateDir, 'snapshot.json'), 'utf8')).seq + 1;
    const content = encodeRecord(next, [['meta', 'probe', { value: 1 }]]) + '0badc0de {"s":1001,';
    writeFileSync(journal, content);
    const token = claims(await tokenFromState(stateDir, { user: 'megan@contoso.example' }));
    expect(token).toMatchObject({ upn: 'megan@contoso.example', oid: SEED_IDS.users.megan });
    expect(readFileSync(journal, 'utf8')).toBe(content);
  });

  it('cuts a torn tail and re-opens a seeded folder without a log function', async () => {
    const stateDir = tempDir();
    await (await start({ stateDir })).emulator.close();
    writeFileSync(path.join(stateDir, 'journal.log'), '0badc0de {"s":1001,');
    const api = await start({ stateDir, seed: DEFAULT_SEED });
    expect((await api.call('GET', '/me/authentication/methods')).status).toBe(200);
    expect(statSync(path.join(stateDir, 'journal.log')).size).toBe(0);
  });

  it('says nothing about the seed when restarted without one', async () => {
    const stateDir = tempDir();
    await (await start({ stateDir })).emulator.close();
    const logged: string[] = [];
    await start({ stateDir, log: (line) => logged.push(line) });
    expect(logged.filter((line) => line.startsWith('state:'))).toEqual([]);
  });

  it('refuses a seed object that is not a valid seed, calling it "the seed"', async () => {
    const seed = { ...structuredClone(DEFAULT_SEED), colour: 'blue' };
    await expect(startEmulator({ seed })).rejects.toMatchObject({
      code: 'E_SEED',
      message: "the seed is not a valid seed: /: must NOT have additional properties 'colour'",
    });
  });
});

describe('options that reach the server', () => {
  it('listens on the port asked for', async () => {
    const port = await freePort();
    const api = await start({ port });
    expect(api.emulator.url).toBe(`http://127.0.0.1:${port}`);
  });

  it('delays each response by a fixed latency or one within a range', async () => {
    for (const latencyMs of [150, [150, 200]] as const) {
      const api = await start({ latencyMs });
      const begin = performance.now();
      expect((await admin(api, 'GET', 'health')).status).toBe(200);
      expect(performance.now() - begin, JSON.stringify(latencyMs)).toBeGreaterThanOrEqual(140);
    }
  });

  it('refuses a body above maxBodyBytes with 413', async () => {
    const api = await start({ maxBodyBytes: 1000 });
    const reply = await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: 'x'.repeat(2000) } });
    expect(reply.status).toBe(413);
    expect(reply.body.error.message).toBe('The request body is larger than 1000 bytes.');
    const small = await api.call('POST', '/me/mailFolders/inbox/messages', { body: { subject: 'x'.repeat(100) } });
    expect(small.status).toBe(201);
  });

  it('keeps a team clone in progress for clonePolls polls (default 1)', async () => {
    for (const [clonePolls, running] of [
      [undefined, 1],
      [3, 3],
    ] as const) {
      const api = await start(clonePolls === undefined ? {} : { clonePolls });
      const clone = await api.call('POST', `/teams/${SEED_IDS.groups.release}/clone`, {
        body: { displayName: `Copy ${running}`, partsToClone: 'apps' },
      });
      expect(clone.status, clone.text).toBe(202);
      const statuses: string[] = [];
      for (let i = 0; i <= running; i++)
        statuses.push((await api.call('GET', clone.headers.get('location')!)).body.status);
      expect(statuses).toEqual([...Array<string>(running).fill('running'), 'succeeded']);
    }
  });

  it('keeps its own certificate in the state folder’s tls/ unless given a tlsDir', async () => {
    const stateDir = tempDir();
    const api = await start({ stateDir, tls: true });
    expect(api.emulator.url).toMatch(/^https:\/\//);
    expect(api.emulator.caPath).toBe(path.join(stateDir, 'tls', 'ca.pem'));
    expect(api.emulator.ca).toBe(readFileSync(path.join(stateDir, 'tls', 'ca.pem'), 'utf8'));
    expect(tlsDirFor(stateDir)).toBe(path.join(stateDir, 'tls'));
    expect(tlsDirFor(undefined)).toBe(defaultTlsDir());
  });

  it('with a certificate of the user’s, trusts the certificate itself when no CA is given, and has no caPath', async () => {
    const own = await (await import('../../src/emulator/index.js')).ensureTlsMaterial(tempDir());
    const api = await start({ tls: { cert: own.cert, key: own.key } });
    expect(api.emulator.ca).toBe(own.cert);
    expect('caPath' in api.emulator).toBe(false);
    const plain = await start({ tls: false });
    expect(plain.emulator.url).toMatch(/^http:\/\//);
    expect('ca' in plain.emulator).toBe(false);
  });

  it('refuses a port in use or an address it cannot listen on with E_USAGE, and rethrows other errors', async () => {
    const first = await start();
    const port = Number(new URL(first.emulator.url).port);
    await expect(startEmulator({ port })).rejects.toMatchObject({
      code: 'E_USAGE',
      message: `Cannot listen on 127.0.0.1:${port}: EADDRINUSE`,
    });
    const stateDir = tempDir();
    await expect(startEmulator({ port, stateDir })).rejects.toMatchObject({ code: 'E_USAGE' });
    // The journal was closed: the folder opens again.
    await start({ stateDir });
    // 192.0.2.1 (TEST-NET-1) is no address of this machine: nothing is sent anywhere.
    await expect(startEmulator({ host: '192.0.2.1' })).rejects.toMatchObject({
      code: 'E_USAGE',
      message: 'Cannot listen on 192.0.2.1:0: EADDRNOTAVAIL',
    });
    await expect(startEmulator({ port: 70_000 })).rejects.toMatchObject({ code: 'ERR_SOCKET_BAD_PORT' });
  });
});

describe('the emulator command’s options', () => {
  const usage = (run: () => unknown, message: string) =>
    expect(run).toThrow(expect.objectContaining({ code: 'E_USAGE', message }));

  it('reads --latency as MS or MIN-MAX whole milliseconds, up to 6 digits, trimmed', () => {
    expect(parseLatency(undefined)).toBeUndefined();
    expect(parseLatency('0')).toEqual([0, 0]);
    expect(parseLatency(' 250 ')).toEqual([250, 250]);
    expect(parseLatency('10-20')).toEqual([10, 20]);
    expect(parseLatency('20-20')).toEqual([20, 20]);
    expect(parseLatency('999999-999999')).toEqual([999_999, 999_999]);
    for (const text of ['slow', '', '1000000', '-5', '1.5', '10-', '10-20-30', 'x10', '10x', '10 - 20'])
      usage(() => parseLatency(text), `--latency takes MS or MIN-MAX milliseconds, not '${text}'`);
    usage(() => parseLatency('21-20'), '--latency 21-20: the maximum is below the minimum');
  });

  it('accepts --throttle 0 to 1, --retry-after above 0 up to 3600 and --port 0 to 65535, and refuses the rest', () => {
    for (const options of [
      { retryAfter: 1.5, port: 0 },
      { throttle: 0, retryAfter: 0.001, port: 65_535 },
      { throttle: 1, retryAfter: 3600, port: 8787 },
      { throttle: 0.5, retryAfter: 1, port: 1 },
    ])
      expect(() => checkServerOptions(options), JSON.stringify(options)).not.toThrow();
    for (const throttle of [-0.01, 1.01, Number.NaN])
      usage(
        () => checkServerOptions({ throttle, retryAfter: 1, port: 0 }),
        `--throttle takes a share of requests between 0 and 1, not ${throttle}`,
      );
    for (const retryAfter of [0, -1, 3600.5, Number.NaN])
      usage(
        () => checkServerOptions({ retryAfter, port: 0 }),
        `--retry-after takes seconds between 0 and 3600, not ${retryAfter}`,
      );
    for (const port of [-1, 65_536, 80.5, Number.NaN])
      usage(() => checkServerOptions({ retryAfter: 1, port }), `--port takes 0 to 65535, not ${port}`);
  });

  it('serves HTTPS with the user’s files when --cert and --key are given, its own with --tls, else HTTP', () => {
    expect(tlsChoice({ tls: false })).toBeUndefined();
    expect(tlsChoice({ tls: true })).toBe(true);
    expect(tlsChoice({ tls: false, cert: 'c.pem', key: 'k.pem' })).toEqual({ cert: 'c.pem', key: 'k.pem' });
    expect(tlsChoice({ tls: true, cert: 'c.pem', key: 'k.pem' })).toEqual({ cert: 'c.pem', key: 'k.pem' });
    const message = '--cert and --key go together: the certificate and its private key (PEM)';
    usage(() => tlsChoice({ tls: true, cert: 'c.pem' }), message);
    usage(() => tlsChoice({ tls: false, key: 'k.pem' }), message);
  });

  it('builds the token request, splitting lists at commas and spaces, and refuses --user with --app', () => {
    expect(tokenRequest({})).toEqual({
      user: undefined,
      app: undefined,
      scopes: undefined,
      roles: undefined,
      directoryRoles: undefined,
      expiresInSeconds: undefined,
    });
    const scopes = ['User.Read, Mail.Read', ' Group.Read.All  Team.Create,,'];
    expect(
      tokenRequest({ user: 'megan', scopes, roles: ['a,b'], directoryRoles: ['Global Reader'], expiresIn: 60 }),
    ).toEqual({
      user: 'megan',
      app: undefined,
      scopes: ['User.Read', 'Mail.Read', 'Group.Read.All', 'Team.Create'],
      roles: ['a', 'b'],
      directoryRoles: ['Global', 'Reader'],
      expiresInSeconds: 60,
    });
    expect(scopes).toEqual(['User.Read, Mail.Read', ' Group.Read.All  Team.Create,,']);
    expect(tokenRequest({ app: 'app-1' })).toMatchObject({ app: 'app-1', user: undefined });
    expect(parseList([])).toEqual([]);
    usage(
      () => tokenRequest({ user: 'megan', app: 'app-1' }),
      '--user and --app are exclusive: a token speaks for a user or for an application',
    );
  });
});
