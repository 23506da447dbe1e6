/**
 * The permission rule of an operation (from the table) checked against a caller, before any handler runs:
 * `me` routes need a signed-in user; a delegated call on another user needs a scope that acts on other users;
 * work-or-school-only operations refuse personal accounts; required directory roles. Rules that depend on the
 * resource itself (group owner roles, team membership) are checked by the handlers.
 */
import type { Operation } from '../service/operations.js';
import type { Principal } from './auth.js';
import { forbidden, type ServiceFault } from './faults.js';
import type { Store } from './store.js';

/** Whether the route addresses the signed-in user (`/me/...`). */
export function isMeRoute(template: string): boolean {
  return template.startsWith('/me/') || template === '/me';
}

/** What a call needed: one of `alternatives` (least privileged first) and, when listed, one of `directoryRoles`. */
export interface PermissionNeed {
  readonly operation: string;
  readonly kind: 'delegated' | 'application';
  readonly alternatives: readonly string[];
  readonly directoryRoles?: readonly string[];
}

/** The permissions the table asks of this caller for this call (the same choice of list as `checkPermission`). */
export function permissionNeeded(
  operation: Operation,
  params: Readonly<Record<string, string>>,
  principal: Principal,
  store: Store,
): PermissionNeed {
  const rule = operation.permission;
  const forGroup = params.group !== undefined && rule.group !== undefined ? rule.group : undefined;
  const roles = rule.directoryRoles === undefined ? {} : { directoryRoles: rule.directoryRoles };
  if (principal.kind === 'app')
    return {
      operation: operation.name,
      kind: 'application',
      alternatives: forGroup?.application ?? rule.application,
      ...roles,
    };
  const other = params.user !== undefined && !addressesSelf(params.user, principal, store);
  return {
    operation: operation.name,
    kind: 'delegated',
    alternatives: other ? (rule.delegatedOther ?? []) : (forGroup?.delegated ?? rule.delegated),
    ...roles,
  };
}

/** Returns the refusal, or undefined when the caller may call the operation. */
export function checkPermission(
  operation: Operation,
  template: string,
  params: Readonly<Record<string, string>>,
  principal: Principal,
  store: Store,
): ServiceFault | undefined {
  const rule = operation.permission;
  // A group form of an operation that also has user forms: the group's scopes, not the calendar's.
  const forGroup = params.group !== undefined && rule.group !== undefined ? rule.group : undefined;
  const application = forGroup?.application ?? rule.application;
  if (principal.kind === 'app') {
    if (isMeRoute(template)) return forbidden('/me request is only valid with delegated authentication flow.');
    if (application.length === 0)
      return forbidden(
        `Application permissions are not supported for ${operation.name}; use a delegated (user) token.`,
      );
    if (!application.some((role) => principal.roles.has(role)))
      return forbidden(
        `Insufficient privileges to complete the operation. Requires one of the application permissions: ${application.join(', ')}.`,
      );
  } else {
    const other = params.user !== undefined && !addressesSelf(params.user, principal, store);
    // Never the caller's own scopes for another user: a missing list means other users cannot be addressed.
    const scopes = other ? (rule.delegatedOther ?? []) : (forGroup?.delegated ?? rule.delegated);
    if (other && scopes.length === 0)
      return forbidden(`${operation.name} cannot address another user with a delegated token.`);
    if (scopes.length === 0)
      return forbidden(`Delegated permissions are not supported for ${operation.name}; use an application token.`);
    if (!scopes.some((scope) => principal.scopes.has(scope)))
      return forbidden(
        `Insufficient privileges to complete the operation. Requires one of the delegated permissions: ${scopes.join(', ')}.`,
      );
    if (rule.workOrSchoolOnly === true && principal.personalAccount)
      return forbidden(`${operation.name} is supported for work or school accounts only, not for personal accounts.`);
  }
  if (rule.directoryRoles !== undefined && !rule.directoryRoles.some((role) => principal.directoryRoles.has(role)))
    return forbidden(
      `Insufficient privileges to complete the operation. Requires the directory role: ${rule.directoryRoles.join(' or ')}.`,
    );
  return undefined;
}

function addressesSelf(user: string, principal: Principal & { kind: 'user' }, store: Store): boolean {
  if (user === principal.userId || user.toLowerCase() === principal.userPrincipalName.toLowerCase()) return true;
  return store.user(user)?.id === principal.userId;
}
