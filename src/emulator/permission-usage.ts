/**
 * Permission guidance (`emulator.permissionsUsed()`, `--report-permissions`): per caller, the least-privileged
 * delegated scopes or application permissions, and directory roles, that cover every call it made, from the
 * operations table, and what its tokens held beyond them. Each call needs one of a list ordered least privileged
 * first; the fewest permissions that cover every list are named, the least privileged of such sets. Bounded: at most MAX_CALLERS callers, each with at most one entry per operation and form.
 */
import type { PermissionNeed } from './permissions.js';
import type { Caller } from './requests.js';

const MAX_CALLERS = 1_000;

export interface PermissionUsage {
  readonly caller: Caller;
  /** `delegated` for a user's token, `application` for an app's. */
  readonly kind: 'delegated' | 'application';
  /** The least-privileged permissions that cover every call (scopes or app roles), sorted. */
  readonly permissions: readonly string[];
  /** Directory roles some call required (one of each call's list), sorted. */
  readonly directoryRoles: readonly string[];
  /** The operations called, sorted. */
  readonly operations: readonly string[];
  /** Operations the caller called that its kind of token cannot call at all (an empty list in the table). */
  readonly unsupported: readonly string[];
  /**
   * Scopes (or application permissions) its tokens held that the calls did not need: what it holds beyond
   * `permissions`, sorted (Dev Proxy's minimal-permissions guidance).
   */
  readonly unneeded: readonly string[];
}

/** Nodes the exact search may visit before it settles for the greedy cover (never reached by the table's lists). */
const SEARCH_BUDGET = 100_000;

/** The smallest lists first, each covered by a choice already made or by its least-privileged entry. */
function greedyCover(lists: readonly (readonly string[])[]): string[] {
  const chosen: string[] = [];
  const ordered = [...lists].sort((a, b) => a.length - b.length);
  for (const list of ordered) if (!list.some((entry) => chosen.includes(entry))) chosen.push(list[0]!);
  return chosen;
}

/**
 * The fewest permissions such that every list holds one of them (each call needs one entry of its list), and of
 * those sets the least privileged: the one whose entries stand earliest in the lists they cover (each list is
 * ordered least privileged first). `Group.ReadWrite.All` alone covers a read and a write that each accept it,
 * where covering each list by its first entry would name `Group.Read.All` too. An exact search, branching on the
 * uncovered list with the fewest entries; the lists are short, so it stays small.
 */
export function leastPrivileged(lists: readonly (readonly string[])[]): string[] {
  const needs = lists.filter((list) => list.length > 0);
  if (needs.length === 0) return [];
  const cost = (chosen: readonly string[]): number =>
    needs.reduce((sum, list) => sum + Math.min(...chosen.map((entry) => list.indexOf(entry)).filter((i) => i >= 0)), 0);
  let best = greedyCover(needs);
  let bestCost = cost(best);
  let visits = 0;
  const search = (chosen: string[]): void => {
    if (++visits > SEARCH_BUDGET) return;
    let open: readonly string[] | undefined;
    for (const list of needs)
      if (!list.some((entry) => chosen.includes(entry)) && (open === undefined || list.length < open.length))
        open = list;
    if (open === undefined) {
      const total = cost(chosen);
      if (chosen.length < best.length || (chosen.length === best.length && total < bestCost)) {
        best = [...chosen];
        bestCost = total;
      }
      return;
    }
    if (chosen.length + 1 > best.length) return;
    for (const entry of open) search([...chosen, entry]);
  };
  search([]);
  return [...best].sort();
}

/** The lists come from the operations table (shared arrays): each is joined once, not once per call. */
const JOINED = new WeakMap<readonly string[], string>();

function joined(list: readonly string[]): string {
  let text = JOINED.get(list);
  if (text === undefined) JOINED.set(list, (text = list.join(',')));
  return text;
}

function callerKey(caller: Caller): string {
  return caller.kind === 'user' ? `user ${caller.id}` : `app ${caller.appId}`;
}

interface CallerEntry {
  readonly caller: Caller;
  readonly needs: Map<string, PermissionNeed>;
  /** The needs noted, by operation: a call like one before is found without building its key. */
  readonly byOperation: Map<string, PermissionNeed[]>;
  /** What its tokens held (each token's set once, by identity; at most MAX_HELD_SETS). */
  readonly held: Set<ReadonlySet<string>>;
}

const MAX_HELD_SETS = 64;

export class PermissionUsageLog {
  private readonly callers = new Map<string, CallerEntry>();
  /** Entries by caller object: the server passes the same object for every call of a token. */
  private byCaller = new WeakMap<Caller, CallerEntry>();

  /** Notes a call: what it needed, and what the caller's token held (its scopes, or its application roles). */
  note(caller: Caller, need: PermissionNeed, held?: ReadonlySet<string>): void {
    let entry = this.byCaller.get(caller);
    if (entry === undefined) {
      const key = callerKey(caller);
      entry = this.callers.get(key);
      if (entry === undefined) {
        if (this.callers.size >= MAX_CALLERS) return;
        this.callers.set(key, (entry = { caller, needs: new Map(), byOperation: new Map(), held: new Set() }));
      }
      this.byCaller.set(caller, entry);
    }
    if (held !== undefined && entry.held.size < MAX_HELD_SETS) entry.held.add(held);
    let noted = entry.byOperation.get(need.operation);
    if (noted === undefined) entry.byOperation.set(need.operation, (noted = []));
    else
      for (const before of noted)
        if (
          before.kind === need.kind &&
          (before.alternatives === need.alternatives || joined(before.alternatives) === joined(need.alternatives))
        )
          return;
    const needKey = `${need.kind} ${need.operation} ${joined(need.alternatives)}`;
    if (!entry.needs.has(needKey)) {
      entry.needs.set(needKey, need);
      noted.push(need);
    }
  }

  report(): PermissionUsage[] {
    return [...this.callers.values()].map(({ caller, needs, held }) => {
      const all = [...needs.values()];
      const permissions = leastPrivileged(all.map((need) => need.alternatives));
      const holds = new Set<string>();
      for (const set of held) for (const name of set) holds.add(name);
      return {
        caller,
        kind: caller.kind === 'user' ? 'delegated' : 'application',
        permissions,
        directoryRoles: leastPrivileged(all.map((need) => need.directoryRoles ?? [])),
        operations: [...new Set(all.map((need) => need.operation))].sort(),
        unsupported: [...new Set(all.filter((n) => n.alternatives.length === 0).map((n) => n.operation))].sort(),
        unneeded: [...holds].filter((name) => !permissions.includes(name)).sort(),
      };
    });
  }

  clear(): void {
    this.callers.clear();
    this.byCaller = new WeakMap();
  }
}

/** One line per caller, for the end of a run: `permissions: adele@… (delegated): A, B; directory roles: R`. */
export function permissionLines(report: readonly PermissionUsage[]): string[] {
  if (report.length === 0) return ['permissions: no calls reached an operation with a valid token'];
  return report.map((usage) => {
    const who = usage.caller.kind === 'user' ? usage.caller.userPrincipalName : `app ${usage.caller.appId}`;
    const parts = [
      `permissions: ${who} (${usage.kind}): ${usage.permissions.length === 0 ? 'none' : usage.permissions.join(', ')}`,
      ...(usage.directoryRoles.length === 0 ? [] : [`directory roles: ${usage.directoryRoles.join(', ')}`]),
      ...(usage.unsupported.length === 0
        ? []
        : [`not callable with this kind of token: ${usage.unsupported.join(', ')}`]),
      ...(usage.unneeded.length === 0 ? [] : [`held but not needed: ${usage.unneeded.join(', ')}`]),
    ];
    return `${parts.join('; ')} (${usage.operations.length} operation${usage.operations.length === 1 ? '' : 's'})`;
  });
}
