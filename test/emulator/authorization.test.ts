import { readFileSync } from 'node:fs';
import path from 'node:path';
import { importJWK, SignJWT, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { OPERATIONS } from '../../src/service/operations.js';
import { tempDir } from '../helpers.js';
import { useEmulator } from './harness.js';
import { SAMPLES } from './samples.js';

const stateDir = tempDir();
const api = useEmulator({ stateDir });

let keys: { signingKey: JWK };
const ISSUER = `https://login.bomwright.invalid/${SEED_IDS.tenant}/v2.0`;

async function craft(
  claims: Record<string, unknown>,
  options: { audience?: string; issuer?: string; expiresIn?: number } = {},
): Promise<string> {
  const key = await importJWK(keys.signingKey, 'ES256');
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    idtyp: 'user',
    oid: SEED_IDS.users.adele,
    upn: 'adele@contoso.example',
    scp: 'Mail.Read',
    ...claims,
  })
    .setProtectedHeader({ alg: 'ES256', kid: keys.signingKey.kid })
    .setIssuer(options.issuer ?? ISSUER)
    .setAudience(options.audience ?? 'api://bomwright-emulator')
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresIn ?? 600))
    .sign(key);
}

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

beforeAll(() => {
  keys = JSON.parse(readFileSync(path.join(stateDir, 'keys.json'), 'utf8')) as { signingKey: JWK };
});

describe('every operation refuses a caller without what it needs', () => {
  it('has a sample request for every operation', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(OPERATIONS.map((o) => o.name).sort());
  });

  it('answers 401 InvalidAuthenticationToken with WWW-Authenticate to a missing, expired, forged, unsigned or misaddressed token', async () => {
    const valid = await api.token();
    const [header, payload, signature] = valid.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const bad: Record<string, string | null> = {
      missing: null,
      expired: await api.token({ expiresInSeconds: -120 }),
      'wrong audience': await craft({}, { audience: 'api://someone-else' }),
      'wrong issuer': await craft({}, { issuer: 'https://login.bomwright.invalid/other/v2.0' }),
      'forged payload': `${header}.${b64({ ...claims, wids: ['groupsAdministrator'] })}.${signature}`,
      'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      'HS256 with the public key as secret': `${b64({ alg: 'HS256', typ: 'JWT' })}.${payload}.${signature}`,
      garbage: 'not-a-token',
    };
    for (const [name, sample] of Object.entries(SAMPLES)) {
      for (const [kind, token] of Object.entries(bad)) {
        const reply = await api.call(sample.method, sample.path, { token, body: sample.body?.(api.emulator.url) });
        expect(reply.status, `${name} with ${kind}`).toBe(401);
        expect(reply.body.error.code, `${name} with ${kind}`).toBe('InvalidAuthenticationToken');
        expect(reply.headers.get('www-authenticate'), `${name} with ${kind}`).toMatch(/^Bearer /);
        if (token !== null) expect(reply.text).not.toContain(token);
      }
    }
  });

  it('answers 403 Authorization_RequestDenied to a delegated token without the scope, and to an app token without the permission', async () => {
    const noScope = await api.token({ scopes: ['User.Read'] });
    const noRole = await api.token({ app: SEED_IDS.app, roles: ['User.Read.All'] });
    for (const [name, sample] of Object.entries(SAMPLES)) {
      for (const [kind, token] of [
        ['delegated without scope', noScope],
        ['application without permission', noRole],
      ] as const) {
        const reply = await api.call(sample.method, sample.path, { token, body: sample.body?.(api.emulator.url) });
        expect(reply.status, `${name}: ${kind}`).toBe(403);
        expect(reply.body.error.code, `${name}: ${kind}`).toBe('Authorization_RequestDenied');
      }
    }
  });

  it('refuses an application token on every /me route, and a delegated token where only applications may call', async () => {
    const app = await api.token({ app: SEED_IDS.app });
    for (const operation of OPERATIONS) {
      for (const template of operation.paths.filter((p) => p.startsWith('/me/'))) {
        const params = Object.fromEntries([...template.matchAll(/\{(\w+)\}/g)].map(([, n]) => [n!, 'x']));
        const pathText = template.replace(/\{(\w+)\}/g, (_, n: string) => params[n]!);
        const reply = await api.call(operation.method, pathText, { token: app });
        expect(reply.status, `${operation.name} ${template}`).toBe(403);
        expect(reply.body.error.message).toMatch(/delegated/);
      }
    }
    const delegated = await api.call('DELETE', SAMPLES.deletePrintTaskDefinition!.path);
    expect(delegated.status).toBe(403);
    expect(delegated.body.error.message).toMatch(/application token/);
  });

  it('needs a scope that acts on other users for users/{id} of someone else, not for yourself', async () => {
    const self = await api.token({ scopes: ['UserAuthenticationMethod.Read'] });
    expect(
      (await api.call('GET', `/users/${SEED_IDS.users.adele}/authentication/phoneMethods`, { token: self })).status,
    ).toBe(200);
    expect(
      (await api.call('GET', '/users/ADELE@contoso.example/authentication/phoneMethods', { token: self })).status,
    ).toBe(200);
    const other = await api.call('GET', `/users/${SEED_IDS.users.megan}/authentication/phoneMethods`, { token: self });
    expect(other.status).toBe(403);
    expect(other.body.error.message).toContain('UserAuthenticationMethod.Read.All');
  });

  it('refuses a personal account where the operation is for work or school accounts only', async () => {
    const sam = await api.token({ user: 'sam@contoso.example' });
    const reply = await api.call('POST', SAMPLES.replyToThread!.path, {
      token: sam,
      body: SAMPLES.replyToThread!.body!(''),
    });
    expect(reply.status).toBe(403);
    expect(reply.body.error.message).toMatch(/work or school/);
  });

  it('requires the mail-system administrator role to delete a building map', async () => {
    const megan = await api.token({ user: 'megan@contoso.example' });
    const reply = await api.call('DELETE', SAMPLES.deleteBuildingMap!.path, { token: megan });
    expect(reply.status).toBe(403);
    expect(reply.body.error.message).toContain('mailSystemAdministrator');
  });

  it('never lets a token claim a directory role the emulator does not know', async () => {
    const token = await craft({ scp: 'Place.ReadWrite.All', wids: ['globalAdministrator', 'MAILSYSTEMADMINISTRATOR'] });
    const reply = await api.call('DELETE', SAMPLES.deleteBuildingMap!.path, { token });
    expect(reply.status).toBe(403);
  });
});
