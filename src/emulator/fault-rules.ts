/**
 * Fault rules (`--faults FILE`, the `faults` option): per route, a share of requests, the first N or every Nth
 * answered with a server error (the service's error body, Retry-After where it fits), a connection reset or a body
 * that stops halfway, and a latency range. Pure: parsing and the decision per request; the transport acts on it.
 */
import { BomwrightError } from '../errors.js';
import { didYouMean, nearestNames } from '../nearest.js';
import { specPath } from '../service/namespace.js';
import { OPERATIONS } from '../service/operations.js';

export const FAULT_KINDS = [429, 500, 502, 503, 504, 'reset', 'truncate'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  /** A name for the journal and the log (default `rule N`, from 1). */
  readonly name?: string;
  /** Requests to this operation of the table (any of its path forms)… */
  readonly operation?: string;
  /** …with this method… */
  readonly method?: string;
  /** …whose path after `/v1.0` matches: `*` stands for any text within one segment, `**` for any text at all. */
  readonly path?: string;
  /**
   * What they get: a status (with the service's error body), `reset` (the connection is reset before the request
   * is handled: nothing changes) or `truncate` (the request is handled and its answer stops halfway). Without it a
   * rule only adds latency.
   */
  readonly fault?: FaultKind;
  /** …whose body contains this text (any case; a request without a body never matches). */
  readonly bodyContains?: string;
  /** Which of the matching requests: a share (0 to 1, drawn at random), the first N, or every Nth (N, 2N, ...). */
  readonly rate?: number;
  readonly first?: number;
  readonly every?: number;
  /** Retry-After in seconds (decimals allowed) on 429 and 503 (default 1; 0 sends none). */
  readonly retryAfterSeconds?: number;
  /** Delay before answering: fixed milliseconds or a [min, max] range. */
  readonly latencyMs?: number | readonly [number, number];
}

const RULE_KEYS = [
  'name',
  'operation',
  'method',
  'path',
  'bodyContains',
  'fault',
  'rate',
  'first',
  'every',
  'retryAfterSeconds',
  'latencyMs',
] as const;
const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];
const MAX_FAULT_RULES = 1_000;

/** The service's code and message for each status a rule can answer with. */
export const FAULT_ERRORS: Readonly<Record<Exclude<FaultKind, 'reset' | 'truncate'>, [string, string]>> = {
  429: ['TooManyRequests', 'Too many requests; retry after the time in the Retry-After header.'],
  500: ['generalException', 'An unspecified error has occurred.'],
  502: ['badGateway', 'The service could not reach an upstream server.'],
  503: ['serviceNotAvailable', 'The service is temporarily unavailable; try again after the Retry-After time.'],
  504: ['gatewayTimeout', 'The service did not answer in time.'],
};

function refuse(where: string, message: string): BomwrightError {
  return new BomwrightError('E_USAGE', `${where}: ${message}`);
}

function wholeNumber(value: unknown, where: string, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > 1_000_000_000)
    throw refuse(where, `must be a whole number from ${min}, not ${JSON.stringify(value)}`);
  return value;
}

function latency(value: unknown, where: string): number | readonly [number, number] {
  const ms = (item: unknown): number => {
    if (typeof item !== 'number' || !Number.isInteger(item) || item < 0 || item > 600_000)
      throw refuse(where, `takes whole milliseconds from 0 to 600000, not ${JSON.stringify(item)}`);
    return item;
  };
  if (!Array.isArray(value)) return ms(value);
  if (value.length !== 2) throw refuse(where, 'is a number or a [min, max] pair');
  const range: [number, number] = [ms(value[0]), ms(value[1])];
  if (range[1] < range[0]) throw refuse(where, 'has its maximum below its minimum');
  return range;
}

/**
 * A route pattern of a rule or stub: a path after /v1.0 (`*` within a segment, `**` any text). Written as the
 * request's whole path it would never match the path after the version, so a leading `/v1.0` is taken as meant.
 */
export function routePattern(value: unknown, where: string): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > 1_000)
    throw refuse(where, 'is a path after /v1.0, starting with / (at most 1000 characters)');
  const version = /^\/v1\.0(?=\/|$)/.exec(value);
  const path = version === null ? value : value.slice(version[0].length) || '/';
  if (/^\/(?:beta|v\d[^/]*)(?:\/|$)/i.test(path))
    throw refuse(where, `is a path after /v1.0 (the emulator serves v1.0 only), not ${value.slice(0, 60)}`);
  return path;
}

/** A text the request body must contain (case-insensitively, as Dev Proxy's bodyFragment). */
export function bodyFragment(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 1_000)
    throw refuse(where, 'is a text of 1 to 1000 characters the request body contains');
  return value;
}

/** Whether a compiled route pattern matches a path after /v1.0, as sent or percent-decoded. */
export function routeMatches(pattern: RegExp, path: string): boolean {
  if (pattern.test(path)) return true;
  if (!path.includes('%')) return false;
  const decoded = decodePath(path);
  return decoded !== path && pattern.test(decoded);
}

/** Whether a body's text contains a fragment, ignoring case. */
export function bodyHas(text: string | undefined, fragment: string): boolean {
  return text !== undefined && text.toLowerCase().includes(fragment.toLowerCase());
}

/**
 * The rules of a faults file (`{ "rules": [...] }`) or of the option (the list itself), checked member by member:
 * each refusal names the rule and the member, with the nearest valid name.
 */
export function parseFaultRules(value: unknown, source: string): FaultRule[] {
  const list =
    value !== null && typeof value === 'object' && !Array.isArray(value) && 'rules' in value
      ? (value as { rules: unknown }).rules
      : value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value))
    for (const key of Object.keys(value))
      if (key !== 'rules')
        throw refuse(source, `unknown member '${key.slice(0, 40)}'${didYouMean(nearestNames(key, ['rules']))}`);
  if (!Array.isArray(list)) throw refuse(source, 'holds { "rules": [ ... ] }, a list of fault rules');
  if (list.length > MAX_FAULT_RULES) throw refuse(source, `has more than ${MAX_FAULT_RULES} rules`);
  const operationNames = OPERATIONS.map((operation) => operation.name);
  return list.map((item, index): FaultRule => {
    const at = `${source}: rules[${index}]`;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) throw refuse(at, 'is not an object');
    const rule = item as Record<string, unknown>;
    for (const key of Object.keys(rule))
      if (!(RULE_KEYS as readonly string[]).includes(key))
        throw refuse(at, `unknown member '${key.slice(0, 40)}'${didYouMean(nearestNames(key, RULE_KEYS))}`);
    const out: { -readonly [K in keyof FaultRule]: FaultRule[K] } = {};
    if (rule.name !== undefined) {
      if (typeof rule.name !== 'string' || rule.name.length === 0 || rule.name.length > 100)
        throw refuse(`${at}.name`, 'is a text of 1 to 100 characters');
      out.name = rule.name;
    }
    if (rule.operation !== undefined) {
      if (typeof rule.operation !== 'string' || !operationNames.includes(rule.operation))
        throw refuse(
          `${at}.operation`,
          `${JSON.stringify(String(rule.operation).slice(0, 60))} is not an operation${didYouMean(nearestNames(String(rule.operation), operationNames))}`,
        );
      out.operation = rule.operation;
    }
    if (rule.method !== undefined) {
      const method = typeof rule.method === 'string' ? rule.method.toUpperCase() : '';
      if (!METHODS.includes(method)) throw refuse(`${at}.method`, `is one of ${METHODS.join(', ')}`);
      out.method = method;
    }
    if (rule.path !== undefined) out.path = routePattern(rule.path, `${at}.path`);
    if (rule.bodyContains !== undefined) out.bodyContains = bodyFragment(rule.bodyContains, `${at}.bodyContains`);
    if (rule.fault !== undefined) {
      if (!(FAULT_KINDS as readonly unknown[]).includes(rule.fault))
        throw refuse(
          `${at}.fault`,
          `is one of ${FAULT_KINDS.join(', ')}, not ${JSON.stringify(rule.fault)?.slice(0, 40) ?? 'undefined'}`,
        );
      out.fault = rule.fault as FaultKind;
    }
    const triggers = (['rate', 'first', 'every'] as const).filter((key) => rule[key] !== undefined);
    if (triggers.length > 1) throw refuse(at, `takes one of rate, first and every, not ${triggers.join(' and ')}`);
    if (rule.rate !== undefined) {
      if (typeof rule.rate !== 'number' || !(rule.rate >= 0 && rule.rate <= 1))
        throw refuse(`${at}.rate`, `is a share from 0 to 1, not ${JSON.stringify(rule.rate)}`);
      out.rate = rule.rate;
    }
    if (rule.first !== undefined) out.first = wholeNumber(rule.first, `${at}.first`, 0);
    if (rule.every !== undefined) out.every = wholeNumber(rule.every, `${at}.every`, 1);
    if (rule.retryAfterSeconds !== undefined) {
      if (rule.fault !== 429 && rule.fault !== 503)
        throw refuse(`${at}.retryAfterSeconds`, 'goes with fault 429 or 503');
      const seconds = rule.retryAfterSeconds;
      if (typeof seconds !== 'number' || !(seconds >= 0 && seconds <= 3600))
        throw refuse(`${at}.retryAfterSeconds`, `takes seconds from 0 to 3600, not ${JSON.stringify(seconds)}`);
      out.retryAfterSeconds = seconds;
    }
    if (rule.latencyMs !== undefined) out.latencyMs = latency(rule.latencyMs, `${at}.latencyMs`);
    if (out.fault === undefined && out.latencyMs === undefined) throw refuse(at, 'needs a fault, a latencyMs or both');
    return out;
  });
}

/** What a rule decided for one request (the rule's name, its latency, its fault). */
export interface FaultDecision {
  readonly rule: string;
  readonly latencyMs?: number;
  readonly fault?: FaultKind;
  readonly retryAfterSeconds?: number;
}

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

export function pathPattern(pattern: string): RegExp {
  // Cast and function segments in the real service's namespace match the spec's the requests are routed by.
  const source = specPath(pattern, 'microsoft.graph')
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

/** The rules in force, with a count of the requests each has matched (for `first` and `every`). */
export class FaultPlan {
  private readonly counts: number[];
  private readonly patterns: (RegExp | undefined)[];

  /** Whether some rule looks at the body (the transport reads it before deciding only then). */
  readonly needsBody: boolean;

  constructor(
    readonly rules: readonly FaultRule[],
    private readonly random: () => number = Math.random,
  ) {
    this.needsBody = rules.some((rule) => rule.bodyContains !== undefined);
    this.counts = rules.map(() => 0);
    this.patterns = rules.map((rule) => (rule.path === undefined ? undefined : pathPattern(rule.path)));
  }

  /** Starts every rule's count again (a reset of the emulator). */
  restart(): void {
    this.counts.fill(0);
  }

  /**
   * The first rule that matches the request and selects it decides it; undefined when none does. A rule that
   * matches but does not select a request (past its first N, not an Nth, not drawn) leaves it to the rules after
   * it, so a spent `first` rule no longer shadows them. `path` is the path after /v1.0 as sent; a rule's path
   * matches it as sent or percent-decoded (`/users/adele@contoso.example/**`).
   */
  decide(method: string, path: string, operation: string | undefined, body?: string): FaultDecision | undefined {
    for (let index = 0; index < this.rules.length; index++) {
      const rule = this.rules[index]!;
      if (rule.operation !== undefined && rule.operation !== operation) continue;
      if (rule.method !== undefined && rule.method !== method) continue;
      const pattern = this.patterns[index];
      if (pattern !== undefined && !routeMatches(pattern, path)) continue;
      if (rule.bodyContains !== undefined && !bodyHas(body, rule.bodyContains)) continue;
      if (rule.first !== undefined && this.counts[index]! >= rule.first) continue;
      const count = ++this.counts[index]!;
      const selected =
        rule.first !== undefined
          ? true
          : rule.every !== undefined
            ? count % rule.every === 0
            : rule.rate !== undefined
              ? rule.rate > 0 && this.random() < rule.rate
              : true;
      if (!selected) continue;
      const range = rule.latencyMs;
      const latencyMs =
        range === undefined
          ? undefined
          : typeof range === 'number'
            ? range
            : range[0] + Math.round(this.random() * (range[1] - range[0]));
      const fault = rule.fault;
      return {
        rule: rule.name ?? `rule ${index + 1}`,
        ...(latencyMs === undefined ? {} : { latencyMs }),
        ...(fault === undefined ? {} : { fault }),
        ...(fault === 429 || fault === 503 ? { retryAfterSeconds: rule.retryAfterSeconds ?? 1 } : {}),
      };
    }
    return undefined;
  }
}
