/**
 * The checks and parsing behind `bomwright emulator`'s options, as pure functions (no files, no process), so they
 * are tested in-process; the CLI reads files and runs the emulator with what they return. Each refusal is an
 * E_USAGE naming the option as it is typed.
 */
import { BomwrightError } from '../errors.js';

/** `--latency MS` or `--latency MIN-MAX` (whole milliseconds, at most 6 digits each): the delay range. */
export function parseLatency(text: string | undefined): [number, number] | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d{1,6})(?:-(\d{1,6}))?$/.exec(text.trim());
  if (match === null) throw new BomwrightError('E_USAGE', `--latency takes MS or MIN-MAX milliseconds, not '${text}'`);
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : Number(match[2]);
  if (max < min) throw new BomwrightError('E_USAGE', `--latency ${text}: the maximum is below the minimum`);
  return [min, max];
}

/** `--scopes a,b --scopes "c d"`: every name, split at commas and spaces, empty ones dropped. */
export function parseList(values: readonly string[] | undefined): string[] | undefined {
  return values?.flatMap((value) => value.split(/[\s,]+/)).filter(Boolean);
}

/** `--rate-limit N/S`: N requests per S seconds, whole numbers. */
export function parseRateLimit(text: string | undefined): { limit: number; windowSeconds: number } | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d{1,9})\/(\d{1,5})$/.exec(text.trim());
  const limit = Number(match?.[1]);
  const windowSeconds = Number(match?.[2]);
  if (match === null || limit < 1 || windowSeconds < 1 || windowSeconds > 86_400)
    throw new BomwrightError(
      'E_USAGE',
      `--rate-limit takes N/S, N requests (from 1) per S seconds (1 to 86400), not '${text.slice(0, 40)}'`,
    );
  return { limit, windowSeconds };
}

/** Refuses a `--throttle` share outside 0..1, a `--retry-after` outside (0, 3600] or a `--port` outside 0..65535. */
export function checkServerOptions(options: { throttle?: number; retryAfter: number; port: number }): void {
  if (options.throttle !== undefined && !(options.throttle >= 0 && options.throttle <= 1))
    throw new BomwrightError(
      'E_USAGE',
      `--throttle takes a share of requests between 0 and 1, not ${options.throttle}`,
    );
  if (!(options.retryAfter > 0 && options.retryAfter <= 3600))
    throw new BomwrightError('E_USAGE', `--retry-after takes seconds between 0 and 3600, not ${options.retryAfter}`);
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65_535)
    throw new BomwrightError('E_USAGE', `--port takes 0 to 65535, not ${options.port}`);
}

/**
 * What `--tls`, `--cert` and `--key` ask for: the files of the user's certificate and key (which imply HTTPS),
 * `true` for the emulator's own certificate, or `undefined` for plain HTTP. `--cert` and `--key` go together.
 */
export function tlsChoice(options: {
  tls: boolean;
  cert?: string;
  key?: string;
}): { cert: string; key: string } | true | undefined {
  if (options.cert === undefined || options.key === undefined) {
    if (options.cert !== options.key)
      throw new BomwrightError('E_USAGE', '--cert and --key go together: the certificate and its private key (PEM)');
    return options.tls ? true : undefined;
  }
  return { cert: options.cert, key: options.key };
}

/** The token request of `emulator token`'s options; `--user` and `--app` are exclusive. */
export function tokenRequest(options: {
  user?: string;
  app?: string;
  scopes?: readonly string[];
  roles?: readonly string[];
  directoryRoles?: readonly string[];
  expiresIn?: number;
}): {
  user?: string;
  app?: string;
  scopes?: string[];
  roles?: string[];
  directoryRoles?: string[];
  expiresInSeconds?: number;
} {
  if (options.user !== undefined && options.app !== undefined)
    throw new BomwrightError(
      'E_USAGE',
      '--user and --app are exclusive: a token speaks for a user or for an application',
    );
  return {
    user: options.user,
    app: options.app,
    scopes: parseList(options.scopes),
    roles: parseList(options.roles),
    directoryRoles: parseList(options.directoryRoles),
    expiresInSeconds: options.expiresIn,
  };
}
