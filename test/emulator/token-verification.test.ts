/**
 * The emulator's token check, through its library functions: who a valid token speaks for, and the exact reason
 * the 401 gives for each way a token can be wrong (expired, another audience or issuer, another algorithm or key,
 * malformed, too long, naming nobody). Also which stored key sets are accepted.
 */
import { generateKeyPair, SignJWT } from 'jose';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  allApplicationRoles,
  createKeys,
  isEmulatorKeys,
  mintToken,
  publicVerificationKey,
  TOKEN_AUDIENCE,
  tokenIssuer,
  TokenRefusal,
  VerifiedTokens,
  verifyToken,
  type EmulatorKeys,
  type Principal,
  type VerificationKey,
} from '../../src/emulator/auth.js';
import { importJWK } from 'jose';

const TENANT = 'tenant-1';
let keys: EmulatorKeys;
let key: VerificationKey;
const user = { id: 'u-1', userPrincipalName: 'adele@contoso.example' };

beforeAll(async () => {
  keys = await createKeys();
  key = await publicVerificationKey(keys);
});

async function refusal(token: string): Promise<string> {
  try {
    await verifyToken(TENANT, key, token);
  } catch (error) {
    expect(error).toBeInstanceOf(TokenRefusal);
    return (error as Error).message;
  }
  throw new Error('the token was accepted');
}

/** A token signed with the emulator's key, with the claims given on top of valid ones. */
async function signed(claims: Record<string, unknown>, options: { iss?: string; aud?: string; exp?: number } = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ idtyp: 'user', oid: 'u-1', upn: 'a@b.example', ...claims })
    .setProtectedHeader({ alg: 'ES256' })
    .setIssuer(options.iss ?? tokenIssuer(TENANT))
    .setAudience(options.aud ?? TOKEN_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(options.exp ?? now + 600)
    .sign(await importJWK(keys.signingKey, 'ES256'));
}

describe('a valid token', () => {
  it('speaks for its user, with the scopes, directory roles and account kind it carries', async () => {
    const token = await mintToken(keys, TENANT, {
      user: { ...user, accountType: 'personal' },
      scopes: ['Mail.Read', 'User.Read'],
      directoryRoles: ['groupsAdministrator', 'Not A Role'],
    });
    const principal = await verifyToken(TENANT, key, token);
    expect(principal).toMatchObject({ kind: 'user', userId: 'u-1', userPrincipalName: user.userPrincipalName });
    if (principal.kind !== 'user') throw new Error('not a user');
    expect([...principal.scopes]).toEqual(['Mail.Read', 'User.Read']);
    expect([...principal.directoryRoles]).toEqual(['groupsAdministrator']);
    expect(principal.personalAccount).toBe(true);
    const work = await verifyToken(TENANT, key, await mintToken(keys, TENANT, { user }));
    expect(work.kind === 'user' && work.personalAccount).toBe(false);
  });

  it('speaks for its application, with its roles (every application role by default)', async () => {
    const principal = await verifyToken(
      TENANT,
      key,
      await mintToken(keys, TENANT, { appId: 'app-1', roles: ['A', 'B'] }),
    );
    expect(principal).toMatchObject({ kind: 'app', appId: 'app-1' });
    if (principal.kind !== 'app') throw new Error('not an app');
    expect([...principal.roles]).toEqual(['A', 'B']);
    const all = await verifyToken(TENANT, key, await mintToken(keys, TENANT, { appId: 'app-1' }));
    expect(all.kind === 'app' && [...all.roles]).toEqual(allApplicationRoles());
    expect(allApplicationRoles()).toEqual([...allApplicationRoles()].sort());
  });

  it('carries only what was asked for: no directory roles unless given, no subject without a user or app', async () => {
    const claims = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(claims(await mintToken(keys, TENANT, { user })).wids).toEqual([]);
    expect(claims(await mintToken(keys, TENANT, {})).sub).toBe('');
    expect(claims(await mintToken(keys, TENANT, { user })).sub).toBe(user.id);
    expect(claims(await mintToken(keys, TENANT, { appId: 'app-1' })).sub).toBe('app-1');
  });

  it('reads no roles from a token without a roles list, and no empty scope from doubled blanks', async () => {
    const app = await verifyToken(TENANT, key, await signed({ idtyp: 'app', appid: 'a' }));
    expect(app.kind === 'app' && app.roles.size).toBe(0);
    const spaced = await verifyToken(TENANT, key, await signed({ scp: ' Mail.Read  User.Read ' }));
    expect(spaced.kind === 'user' && [...spaced.scopes]).toEqual(['Mail.Read', 'User.Read']);
  });

  it('keeps only the strings of a roles list, and reads a missing scope as none', async () => {
    const app = await verifyToken(TENANT, key, await signed({ idtyp: 'app', appid: 'a', roles: ['R', 5, null] }));
    expect(app.kind === 'app' && [...app.roles]).toEqual(['R']);
    const noScope = await verifyToken(TENANT, key, await signed({}));
    expect(noScope.kind === 'user' && noScope.scopes.size).toBe(0);
  });
});

describe('a refused token says why', () => {
  it('expired', async () => {
    expect(await refusal(await mintToken(keys, TENANT, { user, expiresInSeconds: -60 }))).toBe(
      'Lifetime validation failed, the token is expired.',
    );
  });

  it('expired by more than the 5 s allowed for clock skew (docs/emulator.md says so), not within it', async () => {
    // Minted and checked within a second or two: -3 s is inside the allowance, -8 s outside it.
    const inside = await verifyToken(TENANT, key, await mintToken(keys, TENANT, { user, expiresInSeconds: -3 }));
    expect(inside.kind).toBe('user');
    expect(await refusal(await mintToken(keys, TENANT, { user, expiresInSeconds: -8 }))).toBe(
      'Lifetime validation failed, the token is expired.',
    );
  });

  it('another audience or another tenant’s issuer', async () => {
    expect(await refusal(await signed({}, { aud: 'api://elsewhere' }))).toBe('Invalid audience.');
    expect(await refusal(await signed({}, { iss: tokenIssuer('other-tenant') }))).toBe('Invalid issuer.');
    expect(await refusal(await mintToken(keys, 'other-tenant', { user }))).toBe('Invalid issuer.');
  });

  it('another algorithm, another key, or no token at all', async () => {
    const hmac = await new SignJWT({ idtyp: 'user' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('s'.repeat(32)));
    expect(await refusal(hmac)).toBe('Access token validation failure: the signing algorithm is not allowed.');
    const other = await generateKeyPair('ES256');
    const forged = await new SignJWT({ idtyp: 'user', oid: 'u', upn: 'u@x' })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer(tokenIssuer(TENANT))
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(other.privateKey);
    expect(await refusal(forged)).toBe('Access token validation failure: invalid signature.');
    expect(await refusal('not.a.token')).toBe('Access token validation failure: the token is malformed.');
  });

  it('a claim missing (no expiry), a token over 16 KiB, and one that names nobody', async () => {
    const noExpiry = await new SignJWT({ idtyp: 'user', oid: 'u', upn: 'u@x' })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer(tokenIssuer(TENANT))
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt()
      .sign(await importJWK(keys.signingKey, 'ES256'));
    expect(await refusal(noExpiry)).toBe('Access token validation failure: claim exp is not valid.');
    expect(await refusal('x'.repeat(16_385))).toBe('Access token is too long.');
    // Exactly 16 KiB is read (and then found malformed).
    expect(await refusal('x'.repeat(16_384))).toBe('Access token validation failure: the token is malformed.');
    for (const claims of [
      { idtyp: 'device' },
      { idtyp: 'device', appid: 'a' },
      { idtyp: 'user', oid: 5 },
      { idtyp: 'user', upn: undefined },
      { idtyp: 'app', appid: 7 },
    ])
      expect(await refusal(await signed(claims)), JSON.stringify(claims)).toBe(
        'Access token validation failure: the token names no user or application.',
      );
  });
});

describe('stored keys', () => {
  it('are accepted only with a link secret and an EC signing key', async () => {
    const good = await createKeys();
    expect(isEmulatorKeys(good)).toBe(true);
    for (const bad of [
      null,
      'keys',
      { ...good, linkSecret: 5 },
      { ...good, signingKey: null },
      { ...good, signingKey: 'jwk' },
      { ...good, signingKey: { ...good.signingKey, kty: 'RSA' } },
      { signingKey: good.signingKey },
    ])
      expect(isEmulatorKeys(bad), JSON.stringify(bad)).toBe(false);
  });
});

describe('verified tokens', () => {
  it('are checked once and then answered from memory until they expire', async () => {
    const token = await mintToken(keys, TENANT, { user });
    const verify = vi.fn((t: string) => verifyToken(TENANT, key, t));
    const cache = new VerifiedTokens(verify);
    const first = await cache.principal(token);
    const second = cache.principal(token);
    expect(second).not.toBeInstanceOf(Promise);
    expect(second).toBe(first);
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('the token answered last is held to its expiry as well, and other tokens still come from memory', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const first = await mintToken(keys, TENANT, { user, expiresInSeconds: 60 });
      const other = await mintToken(keys, TENANT, { user, expiresInSeconds: 600 });
      const principal: Principal = { kind: 'app', appId: 'a', roles: new Set(), directoryRoles: new Set() };
      const verify = vi.fn(() => Promise.resolve(principal));
      const cache = new VerifiedTokens(verify);
      await cache.principal(first);
      await cache.principal(other);
      expect(cache.principal(first)).toBe(principal);
      expect(cache.principal(first)).toBe(principal);
      expect(cache.principal(other)).toBe(principal);
      expect(cache.principal(first)).toBe(principal);
      expect(verify).toHaveBeenCalledTimes(2);
      vi.setSystemTime(Date.now() + 59_000);
      expect(cache.principal(first)).toBe(principal);
      vi.setSystemTime(Date.now() + 2_000);
      expect(cache.principal(first)).toBeInstanceOf(Promise);
      expect(verify).toHaveBeenCalledTimes(3);
      expect(cache.principal(other)).toBe(principal);
    } finally {
      vi.useRealTimers();
    }
  });

  it('are checked again once expired, and a refused token is never kept', async () => {
    const expired = await mintToken(keys, TENANT, { user, expiresInSeconds: -1 });
    const principal: Principal = { kind: 'app', appId: 'a', roles: new Set(), directoryRoles: new Set() };
    const verify = vi.fn(() => Promise.resolve(principal));
    const cache = new VerifiedTokens(verify);
    await cache.principal(expired);
    await cache.principal(expired);
    expect(verify).toHaveBeenCalledTimes(2);
    const refusing = new VerifiedTokens(() => Promise.reject(new TokenRefusal('no')));
    await expect(refusing.principal(expired)).rejects.toThrow('no');
  });
});
