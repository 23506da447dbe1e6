/** The per-caller quota (`rateLimit`, `--rate-limit N/S`): RateLimit-* headers on every answer, 429 once spent. */
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { parseRateLimit } from '../../src/emulator/run-options.js';
import { runCli } from '../helpers.js';

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('rateLimit', () => {
  it('counts down per caller, refuses the request after the last with Retry-After, and a reset starts again', async () => {
    emulator = await startEmulator({ rateLimit: { limit: 2, windowSeconds: 60 } });
    const e = emulator;
    const adele = await e.token();
    const megan = await e.token({ user: 'megan@contoso.example' });
    const get = (token: string) =>
      fetch(`${e.url}/v1.0/me/authentication/methods`, { headers: { Authorization: `Bearer ${token}` } });
    const quota = (reply: Response) =>
      ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy', 'retry-after'].map((name) =>
        reply.headers.get(name),
      );
    const first = await get(adele);
    expect(first.status).toBe(200);
    expect(quota(first)).toEqual(['2', '1', '60', '2;w=60', null]);
    const second = await get(adele);
    expect(second.status).toBe(200);
    expect(quota(second).slice(0, 2)).toEqual(['2', '0']);
    const third = await get(adele);
    expect(third.status).toBe(429);
    const [limit, remaining, reset, , retryAfter] = quota(third);
    expect([limit, remaining]).toEqual(['2', '0']);
    expect(retryAfter).toBe(reset);
    expect(Number(reset)).toBeGreaterThanOrEqual(59);
    expect(Number(reset)).toBeLessThanOrEqual(60);
    expect(((await third.json()) as { error: { code: string } }).error.code).toBe('TooManyRequests');
    // Another caller has a quota of its own.
    expect(quota(await get(megan)).slice(0, 2)).toEqual(['2', '1']);
    await e.reset();
    expect((await get(adele)).status).toBe(200);
  });

  it('starts a new window when the last one ended', async () => {
    emulator = await startEmulator({ rateLimit: { limit: 1, windowSeconds: 1 } });
    const e = emulator;
    const token = await e.token();
    const get = () =>
      fetch(`${e.url}/v1.0/me/authentication/methods`, { headers: { Authorization: `Bearer ${token}` } });
    expect((await get()).status).toBe(200);
    const refused = await get();
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '1']);
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    expect((await get()).status).toBe(200);
  });

  it('sends no RateLimit header without a quota, and refuses quotas that are not whole and positive', async () => {
    emulator = await startEmulator({});
    const reply = await fetch(`${emulator.url}/v1.0/me/authentication/methods`, {
      headers: { Authorization: `Bearer ${await emulator.token()}` },
    });
    expect(reply.headers.get('ratelimit-limit')).toBeNull();
    for (const rateLimit of [
      { limit: 0, windowSeconds: 1 },
      { limit: 1, windowSeconds: 0 },
      { limit: 1.5, windowSeconds: 1 },
      { limit: 1, windowSeconds: 86_401 },
    ])
      await expect(startEmulator({ rateLimit })).rejects.toThrow(/^rateLimit takes a whole number/);
  });
});

describe('--rate-limit N/S', () => {
  it('takes whole N from 1 and S from 1 to 86400', () => {
    expect(parseRateLimit('120/60')).toEqual({ limit: 120, windowSeconds: 60 });
    expect(parseRateLimit('1/1')).toEqual({ limit: 1, windowSeconds: 1 });
    expect(parseRateLimit('1/86400')).toEqual({ limit: 1, windowSeconds: 86_400 });
    expect(parseRateLimit(undefined)).toBeUndefined();
    for (const bad of ['0/60', '1/0', '1/86401', '1.5/60', '10', 'x/y'])
      expect(() => parseRateLimit(bad)).toThrow(/^--rate-limit takes N\/S/);
  });

  it('is one line and exit 2 from the CLI', async () => {
    const run = await runCli(['emulator', '--port', '0', '--rate-limit', '10']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "bomwright: E_USAGE: --rate-limit takes N/S, N requests (from 1) per S seconds (1 to 86400), not '10'\n",
    );
  });
});
