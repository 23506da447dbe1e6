/**
 * `startEmulator()`: the emulator as a library (for users' own tests, the way undici's MockAgent or Azurite are
 * used) and the engine behind `bomwright emulator`. State lives in memory, or with `stateDir` in a journal on
 * disk that survives restarts and kill -9 (journal.ts).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BomwrightError } from '../errors.js';
import {
  createKeys,
  isEmulatorKeys,
  mintToken,
  publicVerificationKey,
  VerifiedTokens,
  verifyToken,
  type EmulatorKeys,
} from './auth.js';
import type { EmulatorSettings, HandlerResult } from './context.js';
import { DEFAULT_SEED } from './default-seed.js';
import { badRequest, ServiceFault } from './faults.js';
import { writeFileAtomic } from '../node/write.js';
import { DEFAULT_COMPACT_BYTES, Journal, loadState } from './journal.js';
import { linkTokens } from './links.js';
import { parseSeed, seedChanges, type Seed } from './seed.js';
import { DEFAULT_MAX_BODY_BYTES, startServer, type ThrottleOptions } from './server.js';
import { Store, type Change, type JsonRecord } from './store.js';
import { defaultTlsDir, ensureTlsMaterial, type TlsMaterial } from './tls.js';

export interface EmulatorOptions {
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Port; 0 (the default) picks a free one. */
  port?: number;
  /** The tenant to start with (a seed object, as `bomwright emulator seed` prints). Default: the built-in tenant. */
  seed?: unknown;
  /** Keep state in this folder (created if missing): every acknowledged write survives a restart or kill -9. */
  stateDir?: string;
  /** Answer this share of requests (0 to 1) with 429 and Retry-After. */
  throttle?: { rate: number; retryAfterSeconds?: number; random?: () => number };
  /** Delay every response: a fixed number of milliseconds or a [min, max] range. */
  latencyMs?: number | readonly [number, number];
  /** One line per request (method, path, status, time, request-id) and any internal error. */
  log?: (line: string) => void;
  /** Polls of a clone operation that answer "running" before it completes. Default 1. */
  clonePolls?: number;
  /**
   * Retry-After (seconds, decimals allowed) on a clone operation's answer while it runs, so a client that honours
   * it polls at that pace (tests poll fast with a small value). Default: none, and a client waits about 5 s.
   */
  cloneRetryAfterSeconds?: number;
  /** Largest request body accepted, in bytes. Default 16 MiB. */
  maxBodyBytes?: number;
  /** A request that has not arrived completely within this time is refused (408). Default 30 s. */
  requestTimeoutMs?: number;
  /** Compact the journal into a snapshot once it is this large (bytes). */
  compactBytes?: number;
  /**
   * Serve HTTPS: `true` with the emulator's own certificate for localhost, 127.0.0.1 and ::1 (made once and kept
   * in `tlsDir`), or a certificate and key of your own (PEM).
   */
  tls?: boolean | { cert: string; key: string; ca?: string };
  /** Where the emulator's own certificate is kept. Default: `tls/` in the state folder, else a per-user folder. */
  tlsDir?: string;
}

export interface TokenOptions {
  /** Delegated token for this user (user principal name or id). Default: the tenant's default user. */
  user?: string;
  /** Application token for this app id (instead of a user). */
  app?: string;
  /** Delegated scopes. Default: every scope some operation needs. */
  scopes?: readonly string[];
  /** Application permissions. Default: every permission some operation needs. */
  roles?: readonly string[];
  /** Directory roles. Default: the user's roles in the tenant. */
  directoryRoles?: readonly string[];
  /** Lifetime in seconds. Default 3600. */
  expiresInSeconds?: number;
}

export interface RunningEmulator {
  /** `{base_url}`: requests go to `${url}/v1.0/...`. */
  readonly url: string;
  readonly tenantId: string;
  /** A bearer token this emulator accepts. */
  token(options?: TokenOptions): Promise<string>;
  /** With `tls`: the CA certificate (PEM) to trust, e.g. as an undici Agent's `connect.ca`. */
  readonly ca?: string;
  /** With the emulator's own certificate: the CA certificate's file, for NODE_EXTRA_CA_CERTS. */
  readonly caPath?: string;
  /** Stops accepting requests, lets those in flight finish, writes state out, and releases the port. */
  close(): Promise<void>;
}

const KEYS_FILE = 'keys.json';

/** Where the emulator's own certificate is kept: beside the state, or in the per-user folder. */
export function tlsDirFor(stateDir: string | undefined): string {
  return stateDir === undefined ? defaultTlsDir() : path.join(stateDir, 'tls');
}

async function loadOrCreateKeys(stateDir: string): Promise<EmulatorKeys> {
  const file = path.join(stateDir, KEYS_FILE);
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new BomwrightError('E_STATE', `${file} cannot be read`);
  }
  if (text !== undefined) {
    let keys: unknown;
    try {
      keys = JSON.parse(text);
    } catch {
      keys = undefined;
    }
    if (!isEmulatorKeys(keys)) throw new BomwrightError('E_STATE', `${file} is not an emulator key file`);
    return keys;
  }
  const keys = await createKeys();
  writeFileAtomic(file, JSON.stringify(keys), 0o600);
  return keys;
}

/** Opens the state of a folder (or a fresh memory state), seeding it when it is new. */
export async function openState(
  stateDir: string | undefined,
  seed: unknown,
  compactBytes = DEFAULT_COMPACT_BYTES,
  log?: (line: string) => void,
): Promise<{ store: Store; keys: EmulatorKeys; journal?: Journal }> {
  const seedValue: Seed =
    seed === undefined ? (DEFAULT_SEED as unknown as Seed) : parseSeed(JSON.stringify(seed), 'the seed');
  if (stateDir === undefined) {
    const store = new Store();
    store.apply(seedChanges(seedValue));
    return { store, keys: await createKeys() };
  }
  mkdirSync(stateDir, { recursive: true });
  const keys = await loadOrCreateKeys(stateDir);
  const loaded = loadState(stateDir);
  if (loaded.tornTail !== undefined)
    log?.(
      `state: cut ${loaded.tornTail.bytes} bytes of a torn, never-acknowledged write at byte ${loaded.tornTail.offset} of the journal`,
    );
  const journal = await Journal.open(stateDir, loaded.seq, loaded.store, compactBytes);
  if (loaded.fresh) {
    const changes = seedChanges(seedValue);
    loaded.store.apply(changes);
    await journal.append(changes);
    await journal.compact();
  } else if (seed !== undefined) log?.(`state: ${stateDir} already holds a tenant; the seed is not applied again`);
  return { store: loaded.store, keys, journal };
}

export function tenantOf(store: Store): { id: string; defaultUser: string } {
  const tenant = store.get('meta', 'tenant');
  return { id: String(tenant?.id ?? ''), defaultUser: String(tenant?.defaultUser ?? '') };
}

/** Mints a token for a tenant; refuses names that are not in it. */
export async function tokenFor(store: Store, keys: EmulatorKeys, options: TokenOptions = {}): Promise<string> {
  const tenant = tenantOf(store);
  if (options.app !== undefined) {
    // Refused as an unknown user is: an application the tenant has no service principal for cannot sign in.
    const known = [...store.all('servicePrincipals')].map((principal) => String(principal.appId));
    if (!known.some((appId) => appId.toLowerCase() === options.app!.toLowerCase()))
      throw new BomwrightError(
        'E_USAGE',
        `No application '${options.app.slice(0, 100)}' in the emulator's tenant${known.length === 0 ? '' : ` (its app ids: ${known.join(', ')})`}`,
      );
    return mintToken(keys, tenant.id, {
      appId: options.app,
      roles: options.roles,
      directoryRoles: options.directoryRoles ?? [],
      expiresInSeconds: options.expiresInSeconds,
    });
  }
  const name = options.user ?? tenant.defaultUser;
  const user = store.user(name);
  if (user === undefined) throw new BomwrightError('E_USAGE', `No user '${name}' in the emulator's tenant`);
  return mintToken(keys, tenant.id, {
    user: {
      id: String(user.id),
      userPrincipalName: String(user.userPrincipalName),
      accountType: String(user.accountType ?? ''),
    },
    scopes: options.scopes,
    directoryRoles:
      options.directoryRoles ?? (Array.isArray(user.directoryRoles) ? (user.directoryRoles as string[]) : []),
    expiresInSeconds: options.expiresInSeconds,
  });
}

/**
 * A token for the emulator whose state is in `stateDir`, minted without it running (or while it runs: the state
 * is only read).
 */
export async function tokenFromState(stateDir: string, options: TokenOptions = {}): Promise<string> {
  const file = path.join(stateDir, KEYS_FILE);
  let keys: unknown;
  try {
    keys = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BomwrightError(
      'E_STATE',
      code === 'ENOENT'
        ? `${stateDir} holds no emulator state (no ${KEYS_FILE}); start the emulator with --state ${stateDir} first`
        : `${file} is not an emulator key file`,
    );
  }
  if (!isEmulatorKeys(keys)) throw new BomwrightError('E_STATE', `${file} is not an emulator key file`);
  return tokenFor(loadState(stateDir, true).store, keys, options);
}

/** Only these callers get tokens: 127.0.0.1, ::1, and 127.0.0.1 as a dual-stack socket reports it. */
export function isLoopbackAddress(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

function stringArray(value: unknown, name: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
    throw badRequest(`${name} must be a list of strings.`);
  return value as string[];
}

/** Starts the emulator and resolves once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const tls: TlsMaterial | undefined =
    options.tls === undefined || options.tls === false
      ? undefined
      : options.tls === true
        ? await ensureTlsMaterial(options.tlsDir ?? tlsDirFor(options.stateDir))
        : { cert: options.tls.cert, key: options.tls.key, ca: options.tls.ca ?? options.tls.cert };
  const { store, keys, journal } = await openState(options.stateDir, options.seed, options.compactBytes, options.log);
  const verificationKey = await publicVerificationKey(keys);
  const tenant = tenantOf(store);
  const verified = new VerifiedTokens((token) => verifyToken(tenant.id, verificationKey, token));
  const throttle: ThrottleOptions | undefined =
    options.throttle === undefined
      ? undefined
      : {
          rate: options.throttle.rate,
          retryAfterSeconds: options.throttle.retryAfterSeconds ?? 1.5,
          random: options.throttle.random,
        };
  const latency = options.latencyMs;
  const settings: { -readonly [K in keyof EmulatorSettings]: EmulatorSettings[K] } = {
    baseUrl: '',
    tenantId: tenant.id,
    clonePolls: options.clonePolls ?? 1,
    ...(options.cloneRetryAfterSeconds === undefined ? {} : { cloneRetryAfterSeconds: options.cloneRetryAfterSeconds }),
  };

  const running = await startServer(
    {
      store,
      settings,
      links: linkTokens(keys.linkSecret),
      authenticate: (token) => verified.principal(token),
      commit(changes: readonly Change[]) {
        if (journal === undefined) {
          store.apply(changes);
          return Promise.resolve();
        }
        // Applied now, marked not durable under the seq its journal record gets, until that record is fsynced.
        store.apply(changes, journal.lastSeq + 1);
        return journal.append(changes);
      },
      durable: (seq) => journal?.whenDurable(seq),
      async admin(method, adminPath, body, request): Promise<HandlerResult | undefined> {
        if (method === 'GET' && adminPath === '/_emulator/health')
          return { status: 200, body: { status: 'ok', tenantId: tenant.id } };
        if (method === 'POST' && adminPath === '/_emulator/token') {
          if (!isLoopbackAddress(request.socket.remoteAddress))
            throw new ServiceFault(403, 'Authorization_RequestDenied', 'Tokens are minted for loopback callers only.');
          const request_ = (body ?? {}) as JsonRecord;
          for (const key of Object.keys(request_))
            if (!['user', 'app', 'scopes', 'roles', 'directoryRoles', 'expiresInSeconds'].includes(key))
              throw badRequest(`Unknown token option '${key.slice(0, 40)}'.`);
          const expires = request_.expiresInSeconds;
          if (
            expires !== undefined &&
            (typeof expires !== 'number' || !Number.isInteger(expires) || expires < -86_400 || expires > 31_536_000)
          )
            throw badRequest('expiresInSeconds must be an integer number of seconds.');
          try {
            const token = await tokenFor(store, keys, {
              user: typeof request_.user === 'string' ? request_.user : undefined,
              app: typeof request_.app === 'string' ? request_.app : undefined,
              scopes: stringArray(request_.scopes, 'scopes'),
              roles: stringArray(request_.roles, 'roles'),
              directoryRoles: stringArray(request_.directoryRoles, 'directoryRoles'),
              expiresInSeconds: expires as number | undefined,
            });
            return { status: 200, body: { token_type: 'Bearer', access_token: token, expires_in: expires ?? 3600 } };
          } catch (error) {
            if (error instanceof BomwrightError) throw badRequest(error.message);
            throw error;
          }
        }
        return undefined;
      },
      now: () => new Date(),
    },
    {
      host: options.host ?? '127.0.0.1',
      port: options.port ?? 0,
      throttle,
      latencyMs:
        latency === undefined ? undefined : typeof latency === 'number' ? [latency, latency] : [latency[0], latency[1]],
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
      log: options.log,
      tls: tls === undefined ? undefined : { cert: tls.cert, key: tls.key },
    },
  ).catch(async (error: unknown) => {
    await journal?.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL')
      throw new BomwrightError(
        'E_USAGE',
        `Cannot listen on ${options.host ?? '127.0.0.1'}:${options.port ?? 0}: ${code}`,
      );
    throw error;
  });
  settings.baseUrl = running.url;

  let closing: Promise<void> | undefined;
  return {
    url: running.url,
    tenantId: tenant.id,
    token: (tokenOptions) => tokenFor(store, keys, tokenOptions),
    ...(tls === undefined ? {} : { ca: tls.ca, ...(tls.caPath === undefined ? {} : { caPath: tls.caPath }) }),
    close() {
      closing ??= (async () => {
        await running.close();
        await journal?.close();
      })();
      return closing;
    },
  };
}
