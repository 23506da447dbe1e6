/**
 * The emulator's bearer tokens: JWTs it signs itself (ES256, jose) and verifies on every request (signature,
 * algorithm, issuer, audience, expiry). A token names a user (delegated: scopes in `scp`) or an application
 * (app permissions in `roles`), the directory roles in `wids`, and the account type in `acct` (0 work or
 * school, 1 personal), as the real identity platform's access tokens do.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { errors as joseErrors, exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK } from 'jose';
import { OPERATIONS, DIRECTORY_ROLES, type DirectoryRole } from '../service/operations.js';

export const TOKEN_AUDIENCE = 'api://bomwright-emulator';
const TOKEN_ALGORITHM = 'ES256';
const DEFAULT_TOKEN_LIFETIME_S = 3600;

export function tokenIssuer(tenantId: string): string {
  return `https://login.bomwright.invalid/${tenantId}/v2.0`;
}

/** Secrets of one emulator state: the token signing key and the key that makes paging links tamper-evident. */
export interface EmulatorKeys {
  readonly signingKey: JWK;
  readonly linkSecret: string;
}

export async function createKeys(): Promise<EmulatorKeys> {
  const { privateKey } = await generateKeyPair(TOKEN_ALGORITHM, { extractable: true });
  const jwk = await exportJWK(privateKey);
  return {
    signingKey: { ...jwk, kid: randomUUID(), alg: TOKEN_ALGORITHM },
    linkSecret: randomBytes(32).toString('base64url'),
  };
}

export function isEmulatorKeys(value: unknown): value is EmulatorKeys {
  const keys = value as EmulatorKeys | null;
  return (
    typeof keys === 'object' &&
    keys !== null &&
    typeof keys.linkSecret === 'string' &&
    typeof keys.signingKey === 'object' &&
    keys.signingKey !== null &&
    keys.signingKey.kty === 'EC'
  );
}

interface TokenRequest {
  /** Delegated: the user's id or user principal name. */
  readonly user?: { readonly id: string; readonly userPrincipalName: string; readonly accountType?: string };
  /** Application: its app id. */
  readonly appId?: string;
  readonly scopes?: readonly string[];
  readonly roles?: readonly string[];
  readonly directoryRoles?: readonly string[];
  readonly expiresInSeconds?: number;
}

/** Every delegated scope some operation of the table needs: the default user token carries them all. */
function allDelegatedScopes(): string[] {
  const scopes = new Set<string>();
  for (const operation of OPERATIONS) {
    if (operation.permission.delegated[0] !== undefined) scopes.add(operation.permission.delegated[0]);
    if (operation.permission.delegatedOther?.[0] !== undefined) scopes.add(operation.permission.delegatedOther[0]);
    if (operation.permission.group?.delegated[0] !== undefined) scopes.add(operation.permission.group.delegated[0]);
  }
  return [...scopes].sort();
}

/** Scopes every real token may carry besides the table's: sign-in and the signed-in user's own profile. */
const COMMON_SCOPES = [
  'openid',
  'profile',
  'email',
  'offline_access',
  'User.Read',
  'User.ReadBasic.All',
  'User.Read.All',
  'Directory.Read.All',
];
/** Application permissions an app commonly holds besides the table's (reading the directory). */
const COMMON_ROLES = ['User.Read.All', 'User.ReadBasic.All', 'Directory.Read.All'];

/** Every delegated scope the table names (any entry of any list), and the common ones. */
export function knownDelegatedScopes(): Set<string> {
  const scopes = new Set<string>(COMMON_SCOPES);
  for (const { permission } of OPERATIONS)
    for (const list of [permission.delegated, permission.delegatedOther ?? [], permission.group?.delegated ?? []])
      for (const scope of list) scopes.add(scope);
  return scopes;
}

/** Every application permission the table names (any entry of any list). */
export function knownApplicationRoles(): Set<string> {
  const roles = new Set<string>(COMMON_ROLES);
  for (const { permission } of OPERATIONS)
    for (const list of [permission.application, permission.group?.application ?? []])
      for (const role of list) roles.add(role);
  return roles;
}

/** Every application permission some operation of the table needs. */
export function allApplicationRoles(): string[] {
  const roles = new Set<string>();
  for (const operation of OPERATIONS) {
    if (operation.permission.application[0] !== undefined) roles.add(operation.permission.application[0]);
    if (operation.permission.group?.application[0] !== undefined) roles.add(operation.permission.group.application[0]);
  }
  return [...roles].sort();
}

export async function mintToken(keys: EmulatorKeys, tenantId: string, request: TokenRequest): Promise<string> {
  const key = await importJWK(keys.signingKey, TOKEN_ALGORITHM);
  const now = Math.floor(Date.now() / 1000);
  const lifetime = request.expiresInSeconds ?? DEFAULT_TOKEN_LIFETIME_S;
  const claims: Record<string, unknown> = {
    tid: tenantId,
    ver: '2.0',
    wids: [...(request.directoryRoles ?? [])],
  };
  if (request.user !== undefined) {
    Object.assign(claims, {
      idtyp: 'user',
      oid: request.user.id,
      upn: request.user.userPrincipalName,
      scp: [...(request.scopes ?? allDelegatedScopes())].join(' '),
      acct: request.user.accountType === 'personal' ? 1 : 0,
    });
  } else {
    Object.assign(claims, { idtyp: 'app', appid: request.appId, roles: [...(request.roles ?? allApplicationRoles())] });
  }
  return new SignJWT(claims)
    .setProtectedHeader({ alg: TOKEN_ALGORITHM, typ: 'JWT', kid: keys.signingKey.kid })
    .setIssuer(tokenIssuer(tenantId))
    .setAudience(TOKEN_AUDIENCE)
    .setSubject(request.user?.id ?? request.appId ?? '')
    .setIssuedAt(now)
    .setNotBefore(now - 1)
    .setExpirationTime(now + lifetime)
    .setJti(randomUUID())
    .sign(key);
}

export type Principal =
  | {
      readonly kind: 'user';
      readonly userId: string;
      readonly userPrincipalName: string;
      readonly scopes: ReadonlySet<string>;
      readonly directoryRoles: ReadonlySet<DirectoryRole>;
      readonly personalAccount: boolean;
    }
  | {
      readonly kind: 'app';
      readonly appId: string;
      readonly roles: ReadonlySet<string>;
      readonly directoryRoles: ReadonlySet<DirectoryRole>;
    };

/** Why a token was refused: the message the 401 carries (never the token itself). */
export class TokenRefusal extends Error {}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Verifies a bearer token and returns who it speaks for; throws TokenRefusal with a safe message. */
export type VerificationKey = Awaited<ReturnType<typeof importJWK>>;

export async function verifyToken(
  tenantId: string,
  verificationKey: VerificationKey,
  token: string,
): Promise<Principal> {
  if (token.length > 16_384) throw new TokenRefusal('Access token is too long.');
  const key = verificationKey;
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, key, {
      algorithms: [TOKEN_ALGORITHM],
      issuer: tokenIssuer(tenantId),
      audience: TOKEN_AUDIENCE,
      clockTolerance: 5,
      requiredClaims: ['exp', 'iat'],
    }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired)
      throw new TokenRefusal('Lifetime validation failed, the token is expired.');
    if (error instanceof joseErrors.JWTClaimValidationFailed) {
      if (error.claim === 'aud') throw new TokenRefusal('Invalid audience.');
      if (error.claim === 'iss') throw new TokenRefusal('Invalid issuer.');
      throw new TokenRefusal(`Access token validation failure: claim ${error.claim} is not valid.`);
    }
    if (error instanceof joseErrors.JOSEAlgNotAllowed)
      throw new TokenRefusal('Access token validation failure: the signing algorithm is not allowed.');
    if (error instanceof joseErrors.JWSSignatureVerificationFailed)
      throw new TokenRefusal('Access token validation failure: invalid signature.');
    throw new TokenRefusal('Access token validation failure: the token is malformed.');
  }
  const directoryRoles = new Set(
    stringList(payload.wids).filter((role): role is DirectoryRole =>
      (DIRECTORY_ROLES as readonly string[]).includes(role),
    ),
  );
  if (payload.idtyp === 'user' && typeof payload.oid === 'string' && typeof payload.upn === 'string') {
    return {
      kind: 'user',
      userId: payload.oid,
      userPrincipalName: payload.upn,
      scopes: new Set(typeof payload.scp === 'string' ? payload.scp.split(' ').filter(Boolean) : []),
      directoryRoles,
      personalAccount: payload.acct === 1,
    };
  }
  if (payload.idtyp === 'app' && typeof payload.appid === 'string')
    return { kind: 'app', appId: payload.appid, roles: new Set(stringList(payload.roles)), directoryRoles };
  throw new TokenRefusal('Access token validation failure: the token names no user or application.');
}

export async function publicVerificationKey(keys: EmulatorKeys): Promise<VerificationKey> {
  const { d: _private, ...publicJwk } = keys.signingKey;
  return importJWK(publicJwk, TOKEN_ALGORITHM);
}

/**
 * Verified tokens by their text, so a client that sends the same token on every request pays for one signature
 * check, not one per request (ES256 verification is most of a small request's cost). Expiry is checked on every
 * hit; the cache is bounded and drops its oldest entries first.
 */
export class VerifiedTokens {
  private readonly entries = new Map<string, { principal: Principal; expires: number }>();
  /** The token of the last hit: a caller sends the same one again and again, and comparing costs less than hashing. */
  private lastToken: string | undefined;
  private lastHit: { principal: Principal; expires: number } | undefined;

  constructor(
    private readonly verify: (token: string) => Promise<Principal>,
    private readonly capacity = 10_000,
  ) {}

  principal(token: string): Principal | Promise<Principal> {
    const hit = token === this.lastToken ? this.lastHit : this.entries.get(token);
    if (hit !== undefined) {
      if (Date.now() < hit.expires) {
        this.lastToken = token;
        this.lastHit = hit;
        return hit.principal;
      }
      this.entries.delete(token);
      if (token === this.lastToken) this.lastToken = this.lastHit = undefined;
    }
    return this.verifyAndKeep(token);
  }

  private async verifyAndKeep(token: string): Promise<Principal> {
    const principal = await this.verify(token);
    const expires = expiryOf(token);
    if (expires !== undefined) {
      if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(token, { principal, expires });
    }
    return principal;
  }
}

/** The `exp` of a token that has just been verified, in milliseconds; the clock tolerance is not extended. */
function expiryOf(token: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}
