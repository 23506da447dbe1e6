/**
 * Which origins may receive the token: the base URL's origin (scheme, host and port) and those the user allowed.
 * One check for every URL the client did not build itself (an `@odata.nextLink`, a delta link, a clone's
 * `Location`, a redirect), after Kiota's AllowedHostsValidator, plus a rule it lacks: no downgrade to http.
 *
 * An allowed entry is one of
 * - `host` (`graph.contoso.example`): that host on any port;
 * - `host:port` (`graph.contoso.example:8443`, `[::1]:8080`): that host on that port;
 * - an origin (`http://127.0.0.1:9000`): exactly that scheme, host and port.
 * A host or host:port entry takes https, or http only when the base URL itself is http: going from an https base
 * to http needs the http origin named in full.
 */
import { ServiceError } from './errors.js';

export interface AllowedOrigin {
  /** Exact scheme (`http:`/`https:`) when the entry was an origin. */
  protocol?: string;
  /** Lower-case host name, IPv6 in brackets, as URL.hostname gives it. */
  hostname: string;
  /** The port when the entry named one (the scheme's default port for an origin without one). */
  port?: string;
  /** The entry as given, for messages. */
  entry: string;
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

function portOf(url: URL): string {
  return url.port === '' ? (DEFAULT_PORTS[url.protocol] ?? '') : url.port;
}

/** Parses one allowed-host entry; throws E_REQUEST_SHAPE saying what the accepted forms are. */
export function parseAllowedHost(entry: string): AllowedOrigin {
  const bad = (why: string) =>
    new ServiceError(
      'E_REQUEST_SHAPE',
      `allowed host ${JSON.stringify(entry.slice(0, 100))} ${why}: give a host (api.example.com), host:port (api.example.com:8443) or an origin (https://api.example.com)`,
    );
  const trimmed = entry.trim();
  if (trimmed === '' || /[\s*]/.test(trimmed)) throw bad('is not a host');
  const isOrigin = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed);
  let url: URL;
  try {
    url = new URL(isOrigin ? trimmed : `https://${trimmed}`);
  } catch {
    throw bad('is not a host');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad(`has the scheme ${url.protocol}`);
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '')
    throw bad('has more than a scheme, host and port');
  if (url.pathname !== '/' || (!isOrigin && trimmed.includes('/'))) throw bad('has a path');
  if (isOrigin) return { protocol: url.protocol, hostname: url.hostname, port: portOf(url), entry: trimmed };
  return { hostname: url.hostname, ...(url.port === '' ? {} : { port: url.port }), entry: trimmed };
}

/** The origins that may receive the token besides the base URL's own. */
export class OriginPolicy {
  readonly base: URL;
  private readonly allowed: readonly AllowedOrigin[];

  constructor(baseUrl: URL, allowedHosts: readonly string[] = []) {
    this.base = baseUrl;
    this.allowed = allowedHosts.map(parseAllowedHost);
  }

  /** Whether `url` may be sent the token (and so be requested at all when it came from a response). */
  trusts(url: URL): boolean {
    if (url.origin === this.base.origin) return true;
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    return this.allowed.some((allowed) => {
      if (allowed.hostname !== url.hostname) return false;
      if (allowed.port !== undefined && allowed.port !== portOf(url)) return false;
      if (allowed.protocol !== undefined) return allowed.protocol === url.protocol;
      // A bare host never lets an https base fall back to http.
      return url.protocol === 'https:' || this.base.protocol === 'http:';
    });
  }

  /**
   * Parses a URL the service handed back and refuses it, before anything is sent, unless its origin is trusted.
   * `what` names where it came from (`@odata.nextLink`, `the clone's Location` ...).
   */
  check(link: string, what: string): URL {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      throw new ServiceError('E_RESPONSE_SHAPE', `${what} is not a URL`);
    }
    if (this.trusts(url)) return url;
    const origin = url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : `${url.protocol}//${url.host}`;
    throw new ServiceError(
      'E_FOREIGN_ORIGIN',
      `${what} points to ${origin}, not ${this.base.origin}: refused, nothing was sent to it (allow it with allowedHosts, --allow-host on the command line)`,
    );
  }
}
