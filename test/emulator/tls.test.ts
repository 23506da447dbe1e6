/**
 * The emulator over HTTPS: its own certificate (made once, kept, private keys 0600), a certificate of the user's,
 * the client trusting the CA, and links that follow the scheme, host and port each request came in on.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureTlsMaterial, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { createClient, type Page, type MessageChange } from '../../src/service/index.js';
import { tempDir } from '../helpers.js';

async function withEmulator<T>(options: Parameters<typeof startEmulator>[0], work: (e: RunningEmulator) => Promise<T>) {
  const emulator = await startEmulator({ port: 0, ...options });
  try {
    return await work(emulator);
  } finally {
    await emulator.close();
  }
}

async function firstDeltaPage(baseUrl: string, emulator: RunningEmulator): Promise<Page<MessageChange>> {
  const service = createClient({
    baseUrl,
    getToken: () => emulator.token(),
    ...(emulator.ca ? { ca: emulator.ca } : {}),
  });
  try {
    for await (const page of service.mailAndCalendar.messageDelta({ folder: 'inbox', top: 2 }).pages()) return page;
    throw new Error('no page');
  } finally {
    await service.close();
  }
}

describe('the emulator over HTTPS', () => {
  it('serves its own certificate for localhost, 127.0.0.1 and ::1, signed by a CA it keeps, keys readable by the owner only', async () => {
    const dir = tempDir();
    const material = await ensureTlsMaterial(dir);
    const server = new X509Certificate(material.cert);
    const ca = new X509Certificate(material.ca);
    expect(server.verify(ca.publicKey)).toBe(true);
    expect(ca.ca).toBe(true);
    expect(server.checkHost('localhost')).toBe('localhost');
    expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(server.checkIP('::1')).toBe('::1');
    expect(material.caPath).toBe(path.join(dir, 'ca.pem'));
    for (const key of ['ca.key.pem', 'server.key.pem']) expect(statSync(path.join(dir, key)).mode & 0o777).toBe(0o600);
    // Kept: the next start finds the same certificate, and a renewal keeps the CA users already trust.
    expect(await ensureTlsMaterial(dir)).toEqual(material);
    const renewed = await ensureTlsMaterial(dir, Date.now() + 800 * 86_400_000);
    expect(renewed.ca).toBe(material.ca);
    expect(renewed.cert).not.toBe(material.cert);
  });

  it('answers the client over HTTPS with the CA trusted, and refuses a client that does not trust it', async () => {
    const dir = tempDir();
    await withEmulator({ tls: true, tlsDir: dir }, async (emulator) => {
      expect(emulator.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(emulator.ca).toBe(readFileSync(path.join(dir, 'ca.pem'), 'utf8'));
      expect(emulator.caPath).toBe(path.join(dir, 'ca.pem'));
      const trusting = createClient({ baseUrl: emulator.url, getToken: () => emulator.token(), ca: emulator.ca! });
      const phones = await trusting.authenticationMethods.listPhoneMethods({}).all();
      expect(phones.length).toBeGreaterThan(0);
      await trusting.close();
      const stranger = createClient({
        baseUrl: emulator.url,
        getToken: () => emulator.token(),
        retry: { maxRetries: 0 },
      });
      await expect(stranger.authenticationMethods.listPhoneMethods({}).all()).rejects.toMatchObject({
        code: 'E_NETWORK',
      });
      await stranger.close();
    });
  });

  it('serves a certificate of the user’s own', async () => {
    const own = await ensureTlsMaterial(tempDir());
    await withEmulator({ tls: { cert: own.cert, key: own.key, ca: own.ca } }, async (emulator) => {
      expect(emulator.ca).toBe(own.ca);
      expect(emulator.caPath).toBeUndefined();
      const page = await firstDeltaPage(emulator.url, emulator);
      expect(page.items.length).toBe(2);
    });
  });
});

describe('links follow the request', () => {
  it('over http and https, to 127.0.0.1 and to localhost', async () => {
    const dir = tempDir();
    for (const tls of [false, true])
      await withEmulator({ tls, tlsDir: dir }, async (emulator) => {
        const port = new URL(emulator.url).port;
        const scheme = tls ? 'https' : 'http';
        for (const host of ['127.0.0.1', 'localhost']) {
          const page = await firstDeltaPage(`${scheme}://${host}:${port}`, emulator);
          expect(page.nextLink, `${scheme} ${host}`).toMatch(
            new RegExp(`^${scheme}://${host}:${port}/v1\\.0/me/mailFolders`),
          );
        }
        // The clone's Location is relative, as the service gives it; the client resolves it against its own base.
        const service = createClient({
          baseUrl: `${scheme}://localhost:${port}`,
          getToken: () => emulator.token(),
          ...(emulator.ca ? { ca: emulator.ca } : {}),
        });
        const clone = await service.groupsAndTeams.cloneTeam({
          team: '2a7d9e10-3001-4b2c-8d3e-4f5a6b7c8d01',
          body: { displayName: `Copy over ${scheme}`, partsToClone: 'apps' },
        });
        expect(clone.operationUrl).toMatch(new RegExp(`^${scheme}://localhost:${port}/v1\\.0/teams\\(`));
        expect((await clone.wait({ intervalMs: 10 })).status).toBe('succeeded');
        await service.close();
      });
  });
});
