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
  knownApplicationRoles,
  knownDelegatedScopes,
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
import { ODATA_NAMESPACES, type ODataNamespace } from './namespace.js';
import { controlBody, controlCallerRefusal, controlRoute, isLoopbackAddress } from './control-routes.js';
import { FaultPlan, parseFaultRules, type FaultRule } from './fault-rules.js';
import { didYouMean, nearestNames } from '../nearest.js';
import { PermissionUsageLog, type PermissionUsage } from './permission-usage.js';
import {
  DEFAULT_MAX_BODY_BYTES_KEPT,
  DEFAULT_MAX_REQUEST_BYTES,
  DEFAULT_MAX_REQUESTS,
  RequestJournal,
  type RecordedRequest,
  type RequestFilter,
} from './requests.js';
import { parseSeed, seedChanges, type Seed } from './seed.js';
import { StubSet, type Stub, type StubSpec } from './stubs.js';
import { DEFAULT_MAX_BODY_BYTES, startServer, type ThrottleOptions } from './server.js';
import { Store, type Change, type JsonRecord, type StateImage } from './store.js';
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
  /**
   * A quota per caller: `limit` requests per window of `windowSeconds` (whole numbers). Every answer says where
   * the caller stands in `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` and `RateLimit-Policy`; a
   * request over it is answered 429 with `Retry-After` until the window ends.
   */
  rateLimit?: { limit: number; windowSeconds: number };
  /** Delay every response: a fixed number of milliseconds or a [min, max] range. */
  latencyMs?: number | readonly [number, number];
  /** One line per request (method, path, status, time, request-id) and any internal error. */
  log?: (line: string) => void;
  /** False leaves the line per request out of `log` (state messages and internal errors still go there). */
  logRequests?: boolean;
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
  /**
   * Fault rules (as a `--faults` file holds them, `{ rules: [...] }`, or the list itself): per route, server errors,
   * connection resets, cut bodies and latency. `setFaults()` replaces them while running.
   */
  faults?: unknown;
  /** The draw for fault rules' `rate` and latency ranges (default Math.random; a test makes it fixed). */
  faultRandom?: () => number;
  /**
   * Bounds of the request journal: requests kept (default 1,000), their total size in bytes (default 8 MiB) and
   * the longest body kept whole (default 16 KiB; a longer one is kept as its first bytes of text).
   */
  requestJournal?: { maxRequests?: number; maxBytes?: number; maxBodyBytes?: number };
  /**
   * The namespace of type names on the wire: the spec's `vendor.graph` (default), or the real service's
   * `microsoft.graph`, which the Graph SDKs' typed models read (`#microsoft.graph.fido2AuthenticationMethod`) and
   * which is then accepted in bodies and cast segments too.
   */
  odataNamespace?: ODataNamespace;
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
  /** The requests made so far (newest last), optionally only those of a method, path or operation. */
  requests(filter?: RequestFilter): RecordedRequest[];
  /** Empties the request journal. */
  clearRequests(): void;
  /**
   * Back to the seed: the state, the request journal, the fault rules given at start (their counts from zero),
   * no stubs, throttling windows and rate-limit windows. With `stateDir` the return to the seed is one journal record, durable before this resolves.
   */
  reset(): Promise<void>;
  /** Keeps the state now under a name (in memory, for this run; the same name again replaces it). */
  snapshot(name: string): Promise<void>;
  /** Brings back the state kept under a name (durable before this resolves, with `stateDir`). */
  restore(name: string): Promise<void>;
  /** The names of the snapshots kept. */
  snapshots(): string[];
  /** Forgets a snapshot; false when none is kept under the name. */
  deleteSnapshot(name: string): boolean;
  /** Replaces the fault rules in force (an empty list removes them all). */
  setFaults(rules: unknown): void;
  /**
   * Answers the requests a stub matches with its response, in place of the emulator, until the stub is removed or
   * the emulator is reset (WireMock's stubFor); the newest matching stub answers. Returns it with its id.
   */
  stub(stub: StubSpec): Stub;
  /** Removes a stub by its id; false when there is none. */
  removeStub(id: string): boolean;
  /** The stubs in force, oldest first. */
  stubs(): Stub[];
  /** Per caller, the least-privileged permissions its calls needed, from the operations table. */
  permissionsUsed(): PermissionUsage[];
  /** Stops accepting requests, lets those in flight finish, writes state out, and releases the port. */
  close(): Promise<void>;
}

/** Snapshots kept at once (each shares its records with the state, so it costs the maps only). */
const MAX_SNAPSHOTS = 64;
const SNAPSHOT_NAME = /^[A-Za-z0-9._-]{1,64}$/;

const KEYS_FILE = 'keys.json';
/** The seed a state folder was made from: what a reset goes back to, across restarts. */
const SEED_FILE = 'seed.json';

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
): Promise<{ store: Store; keys: EmulatorKeys; journal?: Journal; seedImage: StateImage }> {
  const seedValue: Seed =
    seed === undefined ? (DEFAULT_SEED as unknown as Seed) : parseSeed(JSON.stringify(seed), 'the seed');
  if (stateDir === undefined) {
    const store = new Store();
    store.apply(seedChanges(seedValue));
    return { store, keys: await createKeys(), seedImage: store.image() };
  }
  mkdirSync(stateDir, { recursive: true });
  const keys = await loadOrCreateKeys(stateDir);
  const loaded = loadState(stateDir);
  if (loaded.tornTail !== undefined)
    log?.(
      `state: cut ${loaded.tornTail.bytes} bytes of a torn, never-acknowledged write at byte ${loaded.tornTail.offset} of the journal`,
    );
  const journal = await Journal.open(stateDir, loaded.seq, loaded.store, compactBytes);
  const seedFile = path.join(stateDir, SEED_FILE);
  let resetTo = seedValue;
  if (loaded.fresh) {
    // Kept before the tenant is journaled: a state that exists always has the seed it goes back to on reset.
    writeFileAtomic(seedFile, JSON.stringify(seedValue), 0o600);
    const changes = seedChanges(seedValue);
    loaded.store.apply(changes);
    await journal.append(changes);
    await journal.compact();
  } else {
    if (seed !== undefined) log?.(`state: ${stateDir} already holds a tenant; the seed is not applied again`);
    let text: string | undefined;
    try {
      text = readFileSync(seedFile, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new BomwrightError('E_STATE', `${seedFile} cannot be read`);
    }
    // A folder from before seed.json was kept resets to the seed given now (or the default one).
    if (text !== undefined) resetTo = parseSeed(text, seedFile);
  }
  const seedStore = new Store();
  seedStore.apply(seedChanges(resetTo));
  return { store: loaded.store, keys, journal, seedImage: seedStore.image() };
}

export function tenantOf(store: Store): { id: string; defaultUser: string } {
  const tenant = store.get('meta', 'tenant');
  return { id: String(tenant?.id ?? ''), defaultUser: String(tenant?.defaultUser ?? '') };
}

/** Refuses a scope or role no operation names (a typo such as Mail.Raed would only be refused later, as 403). */
function checkNames(given: readonly string[] | undefined, known: Set<string>, what: string): void {
  for (const name of given ?? [])
    if (!known.has(name))
      throw new BomwrightError(
        'E_USAGE',
        `Unknown ${what} '${name.slice(0, 100)}'${didYouMean(nearestNames(name, [...known]), (n) => `'${n}'`)}`,
      );
}

/** Mints a token for a tenant; refuses names that are not in it, and scopes or roles no operation names. */
export async function tokenFor(store: Store, keys: EmulatorKeys, options: TokenOptions = {}): Promise<string> {
  checkNames(options.scopes, knownDelegatedScopes(), 'scope');
  checkNames(options.roles, knownApplicationRoles(), 'application permission');
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

export { isLoopbackAddress };

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
  if (options.odataNamespace !== undefined && !ODATA_NAMESPACES.includes(options.odataNamespace))
    throw new BomwrightError(
      'E_USAGE',
      `odataNamespace is ${ODATA_NAMESPACES.join(' or ')}, not ${JSON.stringify(String(options.odataNamespace).slice(0, 60))}`,
    );
  const rateLimit = options.rateLimit;
  if (
    rateLimit !== undefined &&
    (!Number.isInteger(rateLimit.limit) ||
      rateLimit.limit < 1 ||
      rateLimit.limit > 1_000_000_000 ||
      !Number.isInteger(rateLimit.windowSeconds) ||
      rateLimit.windowSeconds < 1 ||
      rateLimit.windowSeconds > 86_400)
  )
    throw new BomwrightError(
      'E_USAGE',
      `rateLimit takes a whole number of requests from 1 and a window of 1 to 86400 whole seconds, not ${JSON.stringify(rateLimit).slice(0, 80)}`,
    );
  const startFaults = options.faults === undefined ? undefined : parseFaultRules(options.faults, 'the faults option');
  const { store, keys, journal, seedImage } = await openState(
    options.stateDir,
    options.seed,
    options.compactBytes,
    options.log,
  );
  const requestJournal = new RequestJournal({
    maxRequests: options.requestJournal?.maxRequests ?? DEFAULT_MAX_REQUESTS,
    maxBytes: options.requestJournal?.maxBytes ?? DEFAULT_MAX_REQUEST_BYTES,
    maxBodyBytes: options.requestJournal?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES_KEPT,
  });
  const permissionUsage = new PermissionUsageLog();
  const planOf = (rules: readonly FaultRule[] | undefined): FaultPlan | undefined =>
    rules === undefined || rules.length === 0 ? undefined : new FaultPlan(rules, options.faultRandom);
  let faults = planOf(startFaults);
  const snapshots = new Map<string, StateImage>();
  const stubSet = new StubSet();
  const commit = (changes: readonly Change[]): Promise<void> => {
    if (journal === undefined) {
      store.apply(changes);
      return Promise.resolve();
    }
    // Applied now, marked not durable under the seq its journal record gets, until that record is fsynced.
    store.apply(changes, journal.lastSeq + 1);
    return journal.append(changes);
  };
  /** Turns the state into `target` as one change set, through the journal like any write. */
  const becomeState = async (target: StateImage): Promise<void> => {
    store.takeReadHorizon();
    const changes = store.changesTo(target);
    store.takeReadHorizon();
    if (changes.length > 0) await commit(changes);
    // A no-op still waits for writes it would have undone: the answer must not get ahead of the disk.
    const pending = journal?.whenDurable(journal.lastSeq);
    if (pending !== undefined) await pending;
  };
  const checkName = (name: unknown): string => {
    if (typeof name !== 'string' || !SNAPSHOT_NAME.test(name))
      throw new BomwrightError(
        'E_USAGE',
        `A snapshot name is 1 to 64 letters, digits, '.', '_' or '-', not ${JSON.stringify(String(name).slice(0, 70))}`,
      );
    return name;
  };
  const control = {
    async reset(): Promise<void> {
      await becomeState(seedImage);
      requestJournal.clear();
      faults = planOf(startFaults);
      stubSet.clear();
      forgetThrottling();
    },
    snapshot(name: unknown): void {
      const key = checkName(name);
      if (!snapshots.has(key) && snapshots.size >= MAX_SNAPSHOTS)
        throw new BomwrightError('E_USAGE', `At most ${MAX_SNAPSHOTS} snapshots are kept; this run has that many`);
      snapshots.set(key, store.image());
    },
    async restore(name: unknown): Promise<void> {
      const key = checkName(name);
      const image = snapshots.get(key);
      if (image === undefined)
        throw new BomwrightError(
          'E_USAGE',
          `No snapshot '${key}'${didYouMean(nearestNames(key, snapshots.keys()), (n) => `'${n}'`)}${snapshots.size === 0 ? ' (none is kept)' : ''}`,
        );
      await becomeState(image);
    },
    setFaults(rules: unknown): void {
      faults = planOf(parseFaultRules(rules, 'the fault rules'));
    },
    deleteSnapshot(name: unknown): boolean {
      return snapshots.delete(checkName(name));
    },
    addStub: (value: unknown): Stub => stubSet.add(value),
    removeStub: (id: string): boolean => stubSet.remove(id),
    clearStubs: (): void => stubSet.clear(),
  };
  // Set once the server listens: a reset forgets its throttling windows.
  let forgetThrottling = (): void => {};
  const verificationKey = await publicVerificationKey(keys);
  const tenant = tenantOf(store);
  const verified = new VerifiedTokens((token) => verifyToken(tenant.id, verificationKey, token));
  const throttle: ThrottleOptions | undefined =
    options.throttle === undefined
      ? undefined
      : {
          rate: options.throttle.rate,
          retryAfterSeconds: options.throttle.retryAfterSeconds ?? 2,
          random: options.throttle.random,
        };
  const latency = options.latencyMs;
  const settings: { -readonly [K in keyof EmulatorSettings]: EmulatorSettings[K] } = {
    baseUrl: '',
    tenantId: tenant.id,
    clonePolls: options.clonePolls ?? 1,
    ...(options.odataNamespace === undefined ? {} : { odataNamespace: options.odataNamespace }),
    ...(options.cloneRetryAfterSeconds === undefined ? {} : { cloneRetryAfterSeconds: options.cloneRetryAfterSeconds }),
  };

  const running = await startServer(
    {
      store,
      settings,
      links: linkTokens(keys.linkSecret),
      authenticate: (token) => verified.principal(token),
      commit,
      durable: (seq) => journal?.whenDurable(seq),
      record: (request) => requestJournal.recordRaw(request),
      faults: () => faults,
      stubs: () => stubSet,
      noteCall: (caller, need, held) => permissionUsage.note(caller, need, held),
      async admin(method, adminPath, text, request, query): Promise<HandlerResult | undefined> {
        if (method === 'GET' && adminPath === '/_emulator/health')
          return { status: 200, body: { status: 'ok', tenantId: tenant.id } };
        const answer = await controlRoute(
          control,
          {
            requests: requestJournal,
            snapshots: () => [...snapshots.keys()],
            faults: () => faults?.rules ?? [],
            stubs: () => stubSet.list(),
            permissions: () => permissionUsage.report(),
          },
          method,
          adminPath,
          text,
          request,
          query,
        );
        if (answer !== undefined) return answer;
        if (method === 'POST' && adminPath === '/_emulator/token') {
          const refused = controlCallerRefusal(request);
          if (refused !== undefined)
            throw new ServiceFault(
              403,
              'Authorization_RequestDenied',
              refused.includes('loopback callers only') ? 'Tokens are minted for loopback callers only.' : refused,
            );
          const body = controlBody(text, request);
          if (body === null || typeof body !== 'object' || Array.isArray(body))
            throw badRequest('The body is a JSON object.');
          const request_ = body as JsonRecord;
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
      logRequests: options.logRequests,
      tls: tls === undefined ? undefined : { cert: tls.cert, key: tls.key },
      odataNamespace: options.odataNamespace,
      ...(rateLimit === undefined
        ? {}
        : { rateLimit: { limit: rateLimit.limit, windowSeconds: rateLimit.windowSeconds } }),
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
  forgetThrottling = running.forgetThrottling;
  const server = running;

  let closing: Promise<void> | undefined;
  return {
    url: server.url,
    tenantId: tenant.id,
    token: (tokenOptions) => tokenFor(store, keys, tokenOptions),
    requests: (filter) => requestJournal.list(filter),
    clearRequests: () => requestJournal.clear(),
    reset: () => control.reset(),
    snapshot: (name) => {
      try {
        control.snapshot(name);
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error as Error);
      }
    },
    restore: (name) => control.restore(name),
    snapshots: () => [...snapshots.keys()],
    deleteSnapshot: (name) => control.deleteSnapshot(name),
    setFaults: (rules) => control.setFaults(rules),
    stub: (value) => control.addStub(value),
    removeStub: (id) => control.removeStub(id),
    stubs: () => stubSet.list(),
    permissionsUsed: () => permissionUsage.report(),
    ...(tls === undefined ? {} : { ca: tls.ca, ...(tls.caPath === undefined ? {} : { caPath: tls.caPath }) }),
    close() {
      closing ??= (async () => {
        await server.close();
        await journal?.close();
      })();
      return closing;
    },
  };
}
