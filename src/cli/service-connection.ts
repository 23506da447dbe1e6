/**
 * What every command that talks to the service shares: where the service is and the token (flags or
 * environment), loading the client's bundle, and a service error as one line.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { Argv } from 'yargs';
import { BomwrightError } from '../errors.js';
import type { ServiceApi } from '../service/api.js';
import { isServiceError, redactTokens, type ServiceError } from '../service/errors.js';
import { parseAllowedHost } from '../service/origin.js';
import { bareToken } from '../service/token.js';
import type { ODataNamespace } from '../service/namespace.js';
import { loadCommandBundle } from './command-bundle.js';
import { ONE_VALUE_PER_FLAG } from './options.js';

export type ServiceModule = typeof import('../service/index.js');

/**
 * A service command makes a request or a few and exits. V8 compiles undici's HTTP parser (WebAssembly) with its
 * baseline compiler first and then again with the optimizing one in the background, and the process waits for
 * that second compile at exit (~75 ms, a third of the run) although it never uses its result. The baseline code
 * alone parses a few responses just as fast. Set before the bundle loads; a V8 flag, so nothing else changes.
 */
export function loadServiceModule(): Promise<ServiceModule> {
  setFlagsFromString('--liftoff-only');
  return loadCommandBundle<ServiceModule>('service');
}

export function connectionOptions<T>(y: Argv<T>, global = false) {
  return y
    .option('base-url', { type: 'string', describe: '{base_url} of the service (or BOMWRIGHT_SERVICE_URL)', global })
    .option('token', { type: 'string', describe: 'bearer token (or BOMWRIGHT_TOKEN)', global })
    .option('ca', {
      type: 'string',
      describe: 'CA certificate to trust for HTTPS (PEM; or BOMWRIGHT_CA, or NODE_EXTRA_CA_CERTS)',
      global,
    })
    .option('odata-namespace', {
      choices: ['vendor.graph', 'microsoft.graph'] as const,
      describe:
        "the service's type names: the spec's (default) or the real service's (an emulator run with the same flag)",
      global,
    })
    .option('allow-host', {
      type: 'string',
      ...ONE_VALUE_PER_FLAG,
      describe:
        'another origin that may receive the token when the service links to it (repeatable): HOST, HOST:PORT, or SCHEME://HOST[:PORT] (needed for http under an https base)',
      global,
    });
}

/** The service's address and token from the flags or the environment; one line saying which is missing and how. */
export function serviceConnection(
  argv: {
    baseUrl?: string;
    token?: string;
    ca?: string;
    allowHost?: readonly string[] | string;
    odataNamespace?: ODataNamespace;
  },
  env: NodeJS.ProcessEnv,
  cwd = process.cwd(),
): ServiceConnection {
  const baseUrl = argv.baseUrl ?? env.BOMWRIGHT_SERVICE_URL;
  const token = argv.token ?? env.BOMWRIGHT_TOKEN;
  const caFile = argv.ca ?? (env.BOMWRIGHT_CA === '' ? undefined : env.BOMWRIGHT_CA);
  if (baseUrl === undefined || baseUrl === '')
    throw new BomwrightError(
      'E_USAGE',
      'No service address: pass --base-url or set BOMWRIGHT_SERVICE_URL (the local emulator prints its address: bomwright emulator)',
    );
  if (token === undefined || token === '')
    throw new BomwrightError(
      'E_USAGE',
      'No token: pass --token or set BOMWRIGHT_TOKEN (for the local emulator: bomwright emulator token)',
    );
  const bare = bareToken(token);
  if ('problem' in bare)
    throw new BomwrightError(
      'E_USAGE',
      `The token from ${argv.token === undefined ? 'BOMWRIGHT_TOKEN' : '--token'} cannot be sent: ${bare.problem}; pass the token alone`,
    );
  const allowedHosts = allowHosts(argv.allowHost);
  const base = {
    baseUrl,
    token: bare.token,
    ...(allowedHosts.length === 0 ? {} : { allowedHosts }),
    ...(argv.odataNamespace === undefined ? {} : { odataNamespace: argv.odataNamespace }),
  };
  if (caFile === undefined) return base;
  try {
    return { ...base, ca: readFileSync(path.resolve(cwd, caFile), 'utf8') };
  } catch (error) {
    throw new BomwrightError(
      'E_READ',
      `Cannot read the CA certificate ${caFile}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
}

/** The --allow-host entries, each checked here so that a bad one is a usage error before anything is sent. */
function allowHosts(given: readonly string[] | string | undefined): string[] {
  const entries = given === undefined ? [] : typeof given === 'string' ? [given] : [...given];
  for (const entry of entries)
    try {
      parseAllowedHost(entry);
    } catch (error) {
      throw new BomwrightError('E_USAGE', `--allow-host: ${(error as Error).message}`);
    }
  return entries;
}

interface ServiceConnection {
  baseUrl: string;
  token: string;
  /** Origins besides the base URL's that may receive the token (--allow-host). */
  allowedHosts?: string[];
  /** CA certificates to trust (PEM), from --ca or BOMWRIGHT_CA. */
  ca?: string;
  /** The namespace of the service's type names (--odata-namespace); the client's default is the spec's. */
  odataNamespace?: ODataNamespace;
}

/**
 * `bomwright: E_SERVICE: <service code>: <message> (status 404, request-id …)`, with its newline; the token (and
 * anything like a bearer token) taken out once more, whatever built the error.
 */
export function serviceErrorLine(error: ServiceError, token?: string): string {
  const ids = [
    error.status === undefined ? undefined : `status ${error.status}`,
    error.requestId ? `request-id ${error.requestId}` : undefined,
  ]
    .filter(Boolean)
    .join(', ');
  const line = `${error.code}: ${error.message}${ids === '' ? '' : ` (${ids})`}`;
  return `bomwright: ${redactTokens(line.replace(/[\r\n]+/g, ' '), token === undefined ? [] : [token])}\n`;
}

/**
 * Runs `work` with a typed client of the service, closed afterwards. A service error is printed as one line and
 * comes back as `undefined` (the caller exits 1); a request refused before it was sent stays a usage error.
 */
export async function withServiceClient<T>(
  connection: ServiceConnection,
  context: { toolVersion: string; stderr: (text: string) => void },
  work: (api: ServiceApi) => Promise<T>,
): Promise<{ value: T } | undefined> {
  const service = await loadServiceModule();
  const api = service.createClient({ ...connection, toolVersion: context.toolVersion });
  try {
    return { value: await work(api) };
  } catch (error) {
    if (isServiceError(error) && error.code !== 'E_REQUEST_SHAPE') {
      context.stderr(serviceErrorLine(error, connection.token));
      return undefined;
    }
    throw error;
  } finally {
    await api.close();
  }
}
