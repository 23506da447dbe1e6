/**
 * Who may call (spec: Authentication): the Authorization header and its 401 challenge, the exact 403 for each
 * permission rule, and what the transport does with whatever the token check throws (a refusal is a 401, anything
 * else a 500 whose details stay in the log).
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TokenRefusal, type Principal } from '../../src/emulator/auth.js';
import { ServiceFault, badRequest, forbidden, notFound } from '../../src/emulator/faults.js';
import { linkTokens } from '../../src/emulator/links.js';
import { checkPermission, isMeRoute } from '../../src/emulator/permissions.js';
import { startServer, type EmulatorCore, type RunningServer } from '../../src/emulator/server.js';
import { Store, type Change } from '../../src/emulator/store.js';
import { SEED_IDS, openState, tenantOf } from '../../src/emulator/index.js';
import { operationNamed, type Operation } from '../../src/service/operations.js';
import { useEmulator, type Body } from './harness.js';
import { SAMPLES } from './samples.js';

const api = useEmulator();
const METHODS = '/me/authentication/methods';
const CHALLENGE = `Bearer realm="", authorization_uri="https://login.bomwright.invalid/${SEED_IDS.tenant}/oauth2/authorize", client_id="00000003-0000-0000-c000-000000000000"`;

function expectFault(reply: { status: number; body: Body }, status: number, code: string, message: string): void {
  expect(reply.status).toBe(status);
  expect(reply.body.error.code).toBe(code);
  expect(reply.body.error.message).toBe(message);
}

describe('the Authorization header and the 401 challenge', () => {
  const withHeader = (value: string | undefined) =>
    api.call('GET', METHODS, { token: null, headers: value === undefined ? {} : { Authorization: value } });

  it('calls a missing or empty header an empty token, with a challenge that names no error', async () => {
    for (const value of [undefined, '']) {
      const reply = await withHeader(value);
      expectFault(reply, 401, 'InvalidAuthenticationToken', 'Access token is empty.');
      expect(reply.headers.get('www-authenticate')).toBe(CHALLENGE);
    }
  });

  it('refuses another scheme, a missing token or one with blanks inside as a malformed header', async () => {
    const token = await api.token();
    for (const value of ['Basic abc', 'Bearer', token, `Bearer ${token} x`, `Bearer a\tb`, 'Bearerx abc']) {
      const reply = await withHeader(value);
      expectFault(
        reply,
        401,
        'InvalidAuthenticationToken',
        'The Authorization header must be "Bearer <access token>".',
      );
      expect(reply.headers.get('www-authenticate'), value.slice(0, 20)).toBe(CHALLENGE);
    }
  });

  it('reads blanks the parser keeps (a no-break space) as blanks: no header at all, or a missing token', async () => {
    const { port } = new URL(api.emulator.url);
    const send = (authorization: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () =>
          socket.write(
            Buffer.from(
              `GET /v1.0${METHODS} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: ${authorization}\r\n\r\n`,
              'latin1',
            ),
          ),
        );
        let data = '';
        socket.on('data', (chunk) => (data += chunk.toString()));
        socket.on('error', reject);
        socket.on('close', () => resolve(data));
      });
    const blank = await send('\xa0');
    expect(blank).toMatch(/^HTTP\/1\.1 401 /);
    expect(blank).toContain('"message":"Access token is empty."');
    const noToken = await send('Bearer \xa0');
    expect(noToken).toMatch(/^HTTP\/1\.1 401 /);
    expect(noToken).toContain('The Authorization header must be \\"Bearer <access token>\\".');
  });

  it('gives the reason a token was refused, with error="invalid_token" in the challenge', async () => {
    const malformed = await withHeader('Bearer abc');
    expectFault(
      malformed,
      401,
      'InvalidAuthenticationToken',
      'Access token validation failure: the token is malformed.',
    );
    expect(malformed.headers.get('www-authenticate')).toBe(`${CHALLENGE}, error="invalid_token"`);
    const expired = await withHeader(`Bearer ${await api.token({ expiresInSeconds: -120 })}`);
    expectFault(expired, 401, 'InvalidAuthenticationToken', 'Lifetime validation failed, the token is expired.');
    expect(expired.headers.get('www-authenticate')).toBe(`${CHALLENGE}, error="invalid_token"`);
  });
});

describe('the 403 for each permission rule', () => {
  const U = SEED_IDS.users;

  it('names the application permissions an app token lacks, or says the operation takes none', async () => {
    const app = await api.token({ app: SEED_IDS.app, roles: ['User.Read.All'] });
    expectFault(
      await api.call('GET', `/users/${U.megan}/authentication/methods`, { token: app }),
      403,
      'Authorization_RequestDenied',
      'Insufficient privileges to complete the operation. Requires one of the application permissions: UserAuthenticationMethod.Read.All, UserAuthenticationMethod.ReadWrite.All.',
    );
    const allRoles = await api.token({ app: SEED_IDS.app });
    const sample = SAMPLES.getProgressTaskBoardFormat!;
    expectFault(
      await api.call(sample.method, sample.path, { token: allRoles }),
      403,
      'Authorization_RequestDenied',
      'Application permissions are not supported for getProgressTaskBoardFormat; use a delegated (user) token.',
    );
    expectFault(
      await api.call('GET', METHODS, { token: allRoles }),
      403,
      'Authorization_RequestDenied',
      '/me request is only valid with delegated authentication flow.',
    );
  });

  it('names the delegated scopes a user token lacks (those for other users on users/{id}), or says it takes none', async () => {
    const token = await api.token({ scopes: ['User.Read'] });
    expectFault(
      await api.call('GET', METHODS, { token }),
      403,
      'Authorization_RequestDenied',
      'Insufficient privileges to complete the operation. Requires one of the delegated permissions: UserAuthenticationMethod.Read, UserAuthenticationMethod.ReadWrite.',
    );
    expectFault(
      await api.call('GET', `/users/${U.megan}/authentication/methods`, { token }),
      403,
      'Authorization_RequestDenied',
      'Insufficient privileges to complete the operation. Requires one of the delegated permissions: UserAuthenticationMethod.Read.All, UserAuthenticationMethod.ReadWrite.All.',
    );
    const sample = SAMPLES.deletePrintTaskDefinition!;
    expectFault(
      await api.call(sample.method, sample.path),
      403,
      'Authorization_RequestDenied',
      'Delegated permissions are not supported for deletePrintTaskDefinition; use an application token.',
    );
  });

  it('names the account kind and the directory role an operation needs', async () => {
    const sam = await api.token({ user: 'sam@contoso.example' });
    const reply = SAMPLES.replyToThread!;
    expectFault(
      await api.call(reply.method, reply.path, { token: sam, body: reply.body!('') }),
      403,
      'Authorization_RequestDenied',
      'replyToThread is supported for work or school accounts only, not for personal accounts.',
    );
    const megan = await api.token({ user: 'megan@contoso.example' });
    const map = SAMPLES.deleteBuildingMap!;
    expectFault(
      await api.call(map.method, map.path, { token: megan }),
      403,
      'Authorization_RequestDenied',
      'Insufficient privileges to complete the operation. Requires the directory role: mailSystemAdministrator.',
    );
  });
});

describe('checkPermission on its own', () => {
  const base = operationNamed('listAuthenticationMethods')!;
  const user = (scopes: string[], roles: string[] = []): Principal => ({
    kind: 'user',
    userId: 'u-1',
    userPrincipalName: 'old@contoso.example',
    scopes: new Set(scopes),
    directoryRoles: new Set(roles) as Principal['directoryRoles'],
    personalAccount: false,
  });
  const own = ['UserAuthenticationMethod.Read'];

  it('treats /me and /me/... as the signed-in user’s routes, and nothing else', () => {
    expect(isMeRoute('/me')).toBe(true);
    expect(isMeRoute('/me/messages')).toBe(true);
    expect(isMeRoute('/meetings')).toBe(false);
    expect(isMeRoute('/users/{user}')).toBe(false);
  });

  it('takes any one of several directory roles, and names them all when none is held', () => {
    const operation: Operation = {
      ...base,
      permission: { ...base.permission, directoryRoles: ['groupsAdministrator', 'userAdministrator'] },
    };
    const store = new Store();
    expect(checkPermission(operation, '/me/x', {}, user(own, ['userAdministrator']), store)).toBeUndefined();
    const refusal = checkPermission(operation, '/me/x', {}, user(own, []), store);
    expect(refusal?.status).toBe(403);
    expect(refusal?.message).toBe(
      'Insufficient privileges to complete the operation. Requires the directory role: groupsAdministrator or userAdministrator.',
    );
  });

  it('counts users/{id} as the caller by the token’s id, its user principal name in any case, or the directory', () => {
    const store = new Store();
    const template = '/users/{user}/authentication/methods';
    // The token's own names are enough, even for a user the store does not hold.
    expect(checkPermission(base, template, { user: 'u-1' }, user(own), store)).toBeUndefined();
    expect(checkPermission(base, template, { user: 'OLD@Contoso.Example' }, user(own), store)).toBeUndefined();
    // A name the directory gives the caller now (renamed since the token was issued).
    store.apply([['users', 'u-1', { id: 'u-1', userPrincipalName: 'new@contoso.example' }]] as Change[]);
    expect(checkPermission(base, template, { user: 'new@contoso.example' }, user(own), store)).toBeUndefined();
    expect(checkPermission(base, template, { user: 'someone@contoso.example' }, user(own), store)?.message).toMatch(
      /delegated permissions: UserAuthenticationMethod\.Read\.All/,
    );
  });
});

describe('faults', () => {
  it('carry status, code, message and headers, as ServiceFault', () => {
    const missing = notFound('User', 'u-9');
    expect(missing).toBeInstanceOf(ServiceFault);
    expect([missing.status, missing.code, missing.message, missing.name]).toEqual([
      404,
      'itemNotFound',
      "User 'u-9' was not found.",
      'ServiceFault',
    ]);
    expect(missing.headers).toEqual({});
    const bad = badRequest('no');
    expect([bad.status, bad.code, bad.message]).toEqual([400, 'BadRequest', 'no']);
    const denied = forbidden('not you');
    expect([denied.status, denied.code, denied.message]).toEqual([403, 'Authorization_RequestDenied', 'not you']);
  });
});

describe('what the transport makes of the token check’s failures', () => {
  const logged: string[] = [];
  let running: RunningServer | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
    logged.length = 0;
  });

  const adele: Principal = {
    kind: 'user',
    userId: SEED_IDS.users.adele,
    userPrincipalName: 'adele@contoso.example',
    scopes: new Set(['UserAuthenticationMethod.Read', 'Group.ReadWrite.All']),
    directoryRoles: new Set(),
    personalAccount: false,
  };

  async function serve(
    authenticate: EmulatorCore['authenticate'],
    commit = vi.fn((_changes: readonly Change[]) => Promise.resolve()),
    logRequests?: boolean,
  ) {
    const { store, keys } = await openState(undefined, undefined);
    running = await startServer(
      {
        store,
        settings: { baseUrl: '', tenantId: tenantOf(store).id, clonePolls: 1 },
        links: linkTokens(keys.linkSecret),
        authenticate,
        commit: (changes) => {
          store.apply(changes);
          return commit(changes);
        },
        durable: () => undefined,
        admin: () => Promise.resolve(undefined),
        now: () => new Date(),
      },
      {
        host: '127.0.0.1',
        port: 0,
        maxBodyBytes: 4096,
        requestTimeoutMs: 5_000,
        log: (line) => logged.push(line),
        ...(logRequests === undefined ? {} : { logRequests }),
      },
    );
    return { url: running.url, commit };
  }

  const get = async (url: string, path = METHODS) => {
    const response = await fetch(`${url}/v1.0${path}`, { headers: { Authorization: 'Bearer t' } });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Body };
  };

  it('answers a refusal, thrown at once or later, with 401 and its reason', async () => {
    for (const authenticate of [
      () => {
        throw new TokenRefusal('Invalid audience.');
      },
      () => Promise.reject(new TokenRefusal('Invalid audience.')),
    ]) {
      const { url } = await serve(authenticate);
      const reply = await get(url);
      expectFault(reply, 401, 'InvalidAuthenticationToken', 'Invalid audience.');
      expect(reply.headers.get('www-authenticate')).toMatch(/, error="invalid_token"$/);
      await running!.close();
      running = undefined;
    }
  });

  it('answers any other failure with a bare 500 and logs its first line with the request-id', async () => {
    const { url } = await serve(() => {
      throw new Error('store exploded\nsecret detail');
    });
    const reply = await get(url);
    expectFault(reply, 500, 'generalException', 'An internal error occurred in the emulator.');
    const id = reply.headers.get('request-id')!;
    expect(logged).toContain(`internal error on GET /v1.0${METHODS} request-id=${id}: store exploded`);
    expect(JSON.stringify(reply.body)).not.toContain('exploded');

    const long = `/users/${'a'.repeat(500)}/authentication/methods`;
    const longReply = await get(url, long);
    expect(longReply.status).toBe(500);
    expect(logged).toContain(
      `internal error on GET ${`/v1.0${long}`.slice(0, 200)} request-id=${longReply.headers.get('request-id')!}: store exploded`,
    );
  });

  it('with logRequests false, logs internal errors but no line per request', async () => {
    logged.length = 0;
    let fail = false;
    const { url } = await serve(
      () => {
        if (fail) throw new Error('store exploded');
        return adele;
      },
      undefined,
      false,
    );
    expect((await get(url)).status).toBe(200);
    fail = true;
    const reply = await get(url);
    expect(reply.status).toBe(500);
    expect(logged).toEqual([
      `internal error on GET /v1.0${METHODS} request-id=${reply.headers.get('request-id')!}: store exploded`,
    ]);
    await running!.close();
    running = undefined;
    logged.length = 0;
    const logging = await serve(() => adele, undefined, true);
    const ok = await get(logging.url);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(
      new RegExp(
        `^GET /v1\\.0${METHODS.replaceAll('/', '\\/')} 200 \\d+\\.\\dms request-id=${ok.headers.get('request-id')!}$`,
      ),
    );
  });

  it('logs "unknown" for a failure that carries no message, and answers 500 for a rejected promise too', async () => {
    const { url } = await serve(() => Promise.reject({ code: 'E' }));
    const reply = await get(url);
    expectFault(reply, 500, 'generalException', 'An internal error occurred in the emulator.');
    expect(logged).toContain(
      `internal error on GET /v1.0${METHODS} request-id=${reply.headers.get('request-id')!}: unknown`,
    );
  });

  it('commits only requests that change something', async () => {
    const { url, commit } = await serve(() => adele);
    expect((await get(url)).status).toBe(200);
    expect(commit).not.toHaveBeenCalled();
    const reply = SAMPLES.replyToThread!;
    const response = await fetch(`${url}/v1.0${reply.path}`, {
      method: 'POST',
      headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' },
      body: JSON.stringify(reply.body!('')),
    });
    expect(response.status).toBe(202);
    expect(commit).toHaveBeenCalledTimes(1);
    expect(commit.mock.calls[0]![0]).not.toHaveLength(0);
  });
});
