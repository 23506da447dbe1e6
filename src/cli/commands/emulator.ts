/**
 * `bomwright emulator`: runs the local service emulator until SIGINT/SIGTERM; `emulator seed` prints the default
 * tenant; `emulator token` prints a bearer token (from a running emulator, or offline from its --state folder).
 * The emulator's code is its own bundle, loaded only here, so other commands never pay for it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { homedir } from 'node:os';
import path from 'node:path';
import { BomwrightError } from '../../errors.js';
import { tlsCause } from '../../service/tls-cause.js';
import {
  checkServerOptions,
  parseLatency,
  parseRateLimit,
  tlsChoice,
  tokenRequest,
} from '../../emulator/run-options.js';
import { loadCommandBundle } from '../command-bundle.js';
import { defineCommand, type CliContext } from '../command.js';
import { EXIT_OK } from '../exit-codes.js';
import { STDIN } from '../../node/discover.js';
import { MAX_SMALL_FILE, readInput } from '../../node/files.js';
import { STDIN_TOKEN } from '../options.js';
import { jsonErrorPlace } from './service.js';

type EmulatorModule = typeof import('../../emulator/index.js');

const loadEmulator = (): Promise<EmulatorModule> => loadCommandBundle<EmulatorModule>('emulator');

const DEFAULT_PORT = 8787;

/** The emulator's per-user certificate folder (as src/emulator/tls.ts has it), without loading the emulator. */
function defaultTlsDir(): string {
  return path.join(process.env.BOMWRIGHT_HOME ?? path.join(homedir(), '.bomwright'), 'emulator-tls');
}
const ACTIONS = ['run', 'seed', 'token', 'cert', 'requests', 'reset', 'stub', 'faults'] as const;
/** Actions that talk to a running emulator's control routes. */
type ControlAction = 'requests' | 'reset' | 'stub' | 'faults';

interface RunOptions {
  host: string;
  port: number;
  seed?: string;
  state?: string;
  throttle?: number;
  retryAfter: number;
  rateLimit?: string;
  latency?: string;
  clonePolls: number;
  quiet: boolean;
  tls: boolean;
  cert?: string;
  key?: string;
  faults?: string;
  reportPermissions: boolean;
  odataNamespace?: 'vendor.graph' | 'microsoft.graph';
}

function readPem(file: string, what: string, cwd: string): string {
  try {
    return readFileSync(path.resolve(cwd, file), 'utf8');
  } catch (error) {
    throw new BomwrightError(
      'E_READ',
      `Cannot read the ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
}

/** `--tls`: the emulator's own certificate; with `--cert` and `--key`: the user's (which imply --tls). */
function tlsOption(options: { tls: boolean; cert?: string; key?: string }, cwd: string) {
  const choice = tlsChoice(options);
  if (choice === undefined || choice === true) return choice;
  return { cert: readPem(choice.cert, 'certificate', cwd), key: readPem(choice.key, 'private key', cwd) };
}

async function run(options: RunOptions, context: CliContext): Promise<number> {
  checkServerOptions(options);
  const emulator = await loadEmulator();
  let seed: unknown;
  if (options.seed !== undefined) {
    const file = path.resolve(context.cwd, options.seed);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new BomwrightError(
        'E_READ',
        `Cannot read the seed ${options.seed}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
      );
    }
    seed = emulator.parseSeed(text, options.seed);
  }
  let faults: unknown;
  if (options.faults !== undefined) {
    let text: string;
    try {
      text = readFileSync(path.resolve(context.cwd, options.faults), 'utf8');
    } catch (error) {
      throw new BomwrightError(
        'E_READ',
        `Cannot read the faults file ${options.faults}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
      );
    }
    try {
      faults = JSON.parse(text);
    } catch {
      throw new BomwrightError('E_USAGE', `--faults ${options.faults}: not JSON ({ "rules": [ ... ] })`);
    }
    faults = emulator.parseFaultRules(faults, `--faults ${options.faults}`);
  }
  const log = options.quiet ? undefined : (line: string) => context.stderr(`${line}\n`);
  const running = await emulator.startEmulator({
    host: options.host,
    port: options.port,
    seed,
    stateDir: options.state === undefined ? undefined : path.resolve(context.cwd, options.state),
    throttle:
      options.throttle === undefined ? undefined : { rate: options.throttle, retryAfterSeconds: options.retryAfter },
    rateLimit: parseRateLimit(options.rateLimit),
    latencyMs: parseLatency(options.latency),
    clonePolls: options.clonePolls,
    tls: tlsOption(options, context.cwd),
    faults,
    odataNamespace: options.odataNamespace,
    log: (line) =>
      line.startsWith('state:') || line.startsWith('internal error') ? context.stderr(`${line}\n`) : log?.(line),
    // --quiet: no request line is built only to be dropped.
    logRequests: !options.quiet,
  });
  context.stdout(`listening on ${running.url}\n`);
  if (running.caPath !== undefined)
    context.stdout(`CA certificate: ${running.caPath} (trust it with NODE_EXTRA_CA_CERTS=${running.caPath})\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await running.close();
  if (options.reportPermissions)
    for (const line of emulator.permissionLines(running.permissionsUsed())) context.stderr(`${line}\n`);
  context.stderr('emulator stopped\n');
  return EXIT_OK;
}

interface TokenCommandOptions {
  url: string;
  state?: string;
  ca?: string;
  user?: string;
  app?: string;
  scopes?: string[];
  roles?: string[];
  directoryRoles?: string[];
  expiresIn?: number;
}

/** The CA an https emulator's token endpoint is checked against: --ca, else the emulator's own, when there is one. */
function trustedCa(options: { ca?: string; state?: string }, cwd: string): string | undefined {
  if (options.ca !== undefined) return readPem(options.ca, 'CA certificate', cwd);
  const own = path.join(
    options.state === undefined ? defaultTlsDir() : path.join(path.resolve(cwd, options.state), 'tls'),
    'ca.pem',
  );
  return existsSync(own) ? readFileSync(own, 'utf8') : undefined;
}

/** POSTs JSON with node:http(s) (an https emulator's own CA trusted), and reads the JSON answer. */
function postJson(url: string, payload: unknown, ca: string | undefined): Promise<{ status: number; body: never }> {
  return sendJson('POST', url, payload, ca);
}

/** Sends a request (JSON, when there is a payload) with node:http(s) and reads the JSON answer. */
function sendJson(
  method: string,
  url: string,
  payload: unknown,
  ca: string | undefined,
): Promise<{ status: number; body: never }> {
  const data = payload === undefined ? '' : JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    const request = send(
      url,
      {
        method,
        headers: {
          ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
          'Content-Length': Buffer.byteLength(data),
        },
        timeout: 10_000,
        ...(ca === undefined ? {} : { ca }),
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          if (text.length < 1_000_000) text += chunk;
        });
        response.on('end', () => {
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: response.statusCode ?? 0, body: body as never });
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', reject);
    request.end(data);
  });
}

async function token(options: TokenCommandOptions, context: CliContext): Promise<number> {
  const request = tokenRequest(options);
  if (options.state !== undefined) {
    const emulator = await loadEmulator();
    context.stdout(`${await emulator.tokenFromState(path.resolve(context.cwd, options.state), request)}\n`);
    return EXIT_OK;
  }
  const endpoint = `${options.url.replace(/\/+$/, '')}/_emulator/token`;
  let answer: { status: number; body: { access_token?: string; error?: { message?: string } } | undefined };
  try {
    answer = await postJson(
      endpoint,
      request,
      endpoint.startsWith('https:') ? trustedCa(options, context.cwd) : undefined,
    );
  } catch (error) {
    const tls = tlsCause(error);
    if (tls !== undefined)
      throw new BomwrightError(
        'E_NETWORK',
        `No TLS connection to the emulator at ${options.url}: ${tls.reason} (${tls.code})${tls.untrusted ? '; pass its CA with --ca FILE (bomwright emulator cert [--state DIR] prints the file of an emulator started with --tls)' : ''}`,
      );
    throw new BomwrightError(
      'E_NETWORK',
      `No emulator answers at ${options.url}; start one with "bomwright emulator" or mint offline with --state DIR`,
    );
  }
  const body = answer.body;
  if (answer.status !== 200 || typeof body?.access_token !== 'string')
    throw new BomwrightError(
      'E_SERVICE',
      `The emulator at ${options.url} refused the token request: ${body?.error?.message ?? `HTTP ${answer.status}`}`,
    );
  context.stdout(`${body.access_token}\n`);
  return EXIT_OK;
}

interface ControlOptions {
  url: string;
  ca?: string;
  state?: string;
  file?: string;
  method?: string;
  path?: string;
  operation?: string;
  unmatched: boolean;
  clear: boolean;
  remove?: string;
}

/** A JSON file (or - for standard input) for `emulator stub` and `emulator faults`. */
async function readJsonFile(file: string, cwd: string): Promise<unknown> {
  const stdin = file === STDIN_TOKEN || file === STDIN;
  const source = stdin ? 'standard input' : file;
  const { bytes, size } = await readInput(stdin ? STDIN : path.resolve(cwd, file), MAX_SMALL_FILE);
  if (bytes === undefined)
    throw new BomwrightError('E_READ', `${source} is larger than ${MAX_SMALL_FILE} bytes (${size})`);
  const text = Buffer.from(bytes).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new BomwrightError('E_USAGE', `${source} is not JSON${jsonErrorPlace(text)}`);
  }
}

/**
 * `emulator requests|reset|stub|faults`: the test-double controls of a running emulator (at --url), for tests in
 * any language; each prints the emulator's answer as JSON (nothing for a reset or a removal).
 */
async function control(action: ControlAction, options: ControlOptions, context: CliContext): Promise<number> {
  const base = `${options.url.replace(/\/+$/, '')}/_emulator`;
  const ca = base.startsWith('https:') ? trustedCa(options, context.cwd) : undefined;
  const ask = async (method: string, route: string, payload?: unknown): Promise<unknown> => {
    let answer: { status: number; body: { error?: { message?: string } } | undefined };
    try {
      answer = await sendJson(method, `${base}${route}`, payload, ca);
    } catch (error) {
      const tls = tlsCause(error);
      throw new BomwrightError(
        'E_NETWORK',
        tls !== undefined
          ? `No TLS connection to the emulator at ${options.url}: ${tls.reason} (${tls.code})${tls.untrusted ? '; pass its CA with --ca FILE' : ''}`
          : `No emulator answers at ${options.url}; start one with "bomwright emulator"`,
      );
    }
    if (answer.status < 200 || answer.status > 299)
      throw new BomwrightError(
        'E_SERVICE',
        `The emulator at ${options.url} refused: ${answer.body?.error?.message ?? `HTTP ${answer.status}`}`,
      );
    return answer.body;
  };
  const print = (value: unknown) => context.stdout(`${JSON.stringify(value, null, 2)}\n`);
  const file = options.file === undefined ? undefined : await readJsonFile(options.file, context.cwd);
  switch (action) {
    case 'requests': {
      if (options.clear) {
        await ask('DELETE', '/requests');
        return EXIT_OK;
      }
      const query = new URLSearchParams();
      if (options.method !== undefined) query.set('method', options.method);
      if (options.path !== undefined) query.set('path', options.path);
      if (options.operation !== undefined) query.set('operation', options.operation);
      if (options.unmatched) query.set('unmatched', 'true');
      const text = query.toString();
      print(((await ask('GET', `/requests${text === '' ? '' : `?${text}`}`)) as { value: unknown }).value);
      return EXIT_OK;
    }
    case 'reset':
      await ask('POST', '/reset', {});
      return EXIT_OK;
    case 'stub': {
      if (options.remove !== undefined) {
        await ask('DELETE', `/stubs/${encodeURIComponent(options.remove)}`);
        return EXIT_OK;
      }
      if (options.clear) {
        await ask('DELETE', '/stubs');
        return EXIT_OK;
      }
      if (file === undefined) {
        print(((await ask('GET', '/stubs')) as { value: unknown }).value);
        return EXIT_OK;
      }
      // One stub, or a list of them (added in order, so the last one wins where they overlap).
      const added: unknown[] = [];
      for (const stub of Array.isArray(file) ? file : [file]) added.push(await ask('POST', '/stubs', stub));
      print(Array.isArray(file) ? added : added[0]);
      return EXIT_OK;
    }
    case 'faults': {
      if (options.clear) {
        print(await ask('POST', '/faults', { rules: [] }));
        return EXIT_OK;
      }
      print(await ask(file === undefined ? 'GET' : 'POST', '/faults', file));
      return EXIT_OK;
    }
  }
}

export const emulatorCommand = defineCommand({
  command: 'emulator [action] [file]',
  describe:
    'Run the local service emulator; "emulator seed" prints its default tenant, "emulator token" a bearer token, "emulator cert" the CA of --tls; "emulator requests|reset|stub|faults" control a running one',
  builder: (y) =>
    y
      .positional('action', {
        choices: ACTIONS,
        default: 'run' as (typeof ACTIONS)[number],
        describe: 'run (default), seed, token, cert, requests, reset, stub or faults',
      })
      .positional('file', {
        type: 'string',
        describe: 'stub: a stub (or a list) to add; faults: the rules to set (JSON; - for standard input)',
      })
      .option('method', { type: 'string', describe: 'requests: only this method', group: 'Control:' })
      .option('path', {
        type: 'string',
        describe: 'requests: only this path (with or without /v1.0)',
        group: 'Control:',
      })
      .option('operation', { type: 'string', describe: 'requests: only this operation', group: 'Control:' })
      .option('unmatched', {
        type: 'boolean',
        default: false,
        describe: 'requests: only those no operation or stub matched',
        group: 'Control:',
      })
      .option('clear', {
        type: 'boolean',
        default: false,
        describe: 'requests: empty the journal; stub: remove every stub; faults: remove every rule',
        group: 'Control:',
      })
      .option('remove', { type: 'string', describe: 'stub: remove the stub with this id', group: 'Control:' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'Interface to listen on', group: 'Server:' })
      .option('port', {
        type: 'number',
        default: DEFAULT_PORT,
        describe: 'Port (0 picks a free one)',
        group: 'Server:',
      })
      .option('seed', {
        type: 'string',
        describe: 'Seed file (JSON; see "emulator seed" and schema/emulator-seed.schema.json)',
        group: 'Server:',
      })
      .option('state', {
        type: 'string',
        describe: 'Keep state in DIR: acknowledged writes survive restarts and kill -9 (token: mint offline from DIR)',
        group: 'Server:',
      })
      .option('throttle', {
        type: 'number',
        describe: 'Answer this share of requests (0-1) with 429 + Retry-After',
        group: 'Server:',
      })
      .option('retry-after', {
        type: 'number',
        default: 2,
        describe: 'Seconds of a throttling window (Retry-After says them in whole seconds, rounded up)',
        group: 'Server:',
      })
      .option('rate-limit', {
        type: 'string',
        describe: 'A quota per caller, N requests per S seconds (N/S): RateLimit-* headers, 429 once spent',
        group: 'Server:',
      })
      .option('latency', {
        type: 'string',
        describe: 'Delay each response by MS or a random MIN-MAX milliseconds',
        group: 'Server:',
      })
      .option('clone-polls', {
        type: 'number',
        default: 1,
        describe: 'Polls a team clone answers "running" before it completes',
        group: 'Server:',
      })
      .option('quiet', { type: 'boolean', default: false, describe: 'No per-request log lines', group: 'Server:' })
      .option('tls', {
        type: 'boolean',
        default: false,
        describe: "Serve HTTPS with the emulator's own certificate for localhost (made once, kept; see emulator cert)",
        group: 'Server:',
      })
      .option('cert', {
        type: 'string',
        describe: 'Serve HTTPS with this certificate (PEM; with --key)',
        group: 'Server:',
      })
      .option('key', { type: 'string', describe: 'The private key of --cert (PEM)', group: 'Server:' })
      .option('faults', {
        type: 'string',
        describe: 'Fault rules file (JSON): per route, 5xx answers, connection resets, cut bodies, latency',
        group: 'Server:',
      })
      .option('odata-namespace', {
        choices: ['vendor.graph', 'microsoft.graph'] as const,
        describe:
          "Type names on the wire: the spec's (default) or the real service's, which the SDKs' typed models read",
        group: 'Server:',
      })
      .option('report-permissions', {
        type: 'boolean',
        default: false,
        describe: 'At shutdown, print per caller the least-privileged permissions its calls needed',
        group: 'Server:',
      })
      .option('ca', {
        type: 'string',
        describe: "token: the CA to trust for an https --url (default: the emulator's own)",
        group: 'Token:',
      })
      .option('url', {
        type: 'string',
        default: `http://127.0.0.1:${DEFAULT_PORT}`,
        describe: 'token, requests, reset, stub, faults: the running emulator to ask',
        group: 'Token:',
      })
      .option('user', {
        type: 'string',
        describe: 'token: delegated token for this user (UPN or id; default: the tenant default user)',
        group: 'Token:',
      })
      .option('app', { type: 'string', describe: 'token: application token for this app id', group: 'Token:' })
      .option('scopes', {
        type: 'string',
        array: true,
        describe: 'token: delegated scopes (default: every scope an operation needs)',
        group: 'Token:',
      })
      .option('roles', {
        type: 'string',
        array: true,
        describe: 'token: application permissions (default: all an operation needs)',
        group: 'Token:',
      })
      .option('directory-roles', {
        type: 'string',
        array: true,
        describe: "token: directory roles (default: the user's roles)",
        group: 'Token:',
      })
      .option('expires-in', { type: 'number', describe: 'token: lifetime in seconds (default 3600)', group: 'Token:' }),
  handler: async (argv, context) => {
    if (argv.action === 'seed') {
      const { DEFAULT_SEED } = await loadEmulator();
      context.stdout(`${JSON.stringify(DEFAULT_SEED, null, 2)}\n`);
      return EXIT_OK;
    }
    if (argv.action === 'cert') {
      const emulator = await loadEmulator();
      const dir = emulator.tlsDirFor(argv.state === undefined ? undefined : path.resolve(context.cwd, argv.state));
      const material = await emulator.ensureTlsMaterial(dir);
      context.stdout(`${material.caPath}\n`);
      return EXIT_OK;
    }
    if (argv.file !== undefined && argv.action !== 'stub' && argv.action !== 'faults')
      throw new BomwrightError(
        'E_USAGE',
        `emulator ${argv.action} takes no file (${argv.file.slice(0, 60)}); only stub and faults do`,
      );
    if (argv.action === 'requests' || argv.action === 'reset' || argv.action === 'stub' || argv.action === 'faults')
      return control(
        argv.action,
        {
          url: argv.url,
          ca: argv.ca,
          state: argv.state,
          file: argv.file,
          method: argv.method,
          path: argv.path,
          operation: argv.operation,
          unmatched: argv.unmatched,
          clear: argv.clear,
          remove: argv.remove,
        },
        context,
      );
    if (argv.action === 'token')
      return token(
        {
          url: argv.url,
          state: argv.state,
          ca: argv.ca,
          user: argv.user,
          app: argv.app,
          scopes: argv.scopes,
          roles: argv.roles,
          directoryRoles: argv.directoryRoles,
          expiresIn: argv.expiresIn,
        },
        context,
      );
    return run(
      {
        host: argv.host,
        port: argv.port,
        seed: argv.seed,
        state: argv.state,
        throttle: argv.throttle,
        retryAfter: argv.retryAfter,
        rateLimit: argv.rateLimit,
        latency: argv.latency,
        clonePolls: argv.clonePolls,
        quiet: argv.quiet,
        tls: argv.tls,
        cert: argv.cert,
        key: argv.key,
        faults: argv.faults,
        reportPermissions: argv.reportPermissions,
        odataNamespace: argv.odataNamespace,
      },
      context,
    );
  },
});
