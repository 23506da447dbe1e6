import { describe, expect, it } from 'vitest';
import { createServiceClient } from '../../src/service/client.js';
import { invoke } from '../../src/service/invoke.js';
import { Harness } from '../emulator/harness.js';

async function withThrottle<T>(rate: number, run: (harness: Harness) => Promise<T>): Promise<T> {
  const harness = new Harness({ throttle: { rate, retryAfterSeconds: 0.02 } });
  await harness.start();
  try {
    return await run(harness);
  } finally {
    await harness.emulator.close();
  }
}

describe('throttling against the emulator', () => {
  it('recovers from 429s within the retry budget, honouring Retry-After', async () => {
    await withThrottle(0.3, async (harness) => {
      const token = await harness.emulator.token();
      const client = createServiceClient({ baseUrl: harness.emulator.url, token, retry: { maxRetries: 10 } });
      let retried = 0;
      for (let i = 0; i < 40; i++) {
        const response = await invoke(client, 'listPhoneMethods');
        expect(response.status).toBe(200);
        retried += response.attempts - 1;
      }
      await client.close();
      expect(retried).toBeGreaterThan(0);
    });
  });

  it('reports an exhausted budget with its own code, the status and the service code', async () => {
    await withThrottle(1, async (harness) => {
      const token = await harness.emulator.token();
      const client = createServiceClient({ baseUrl: harness.emulator.url, token, retry: { maxRetries: 2 } });
      await expect(invoke(client, 'listPhoneMethods')).rejects.toMatchObject({
        code: 'E_RETRY_EXHAUSTED',
        status: 429,
        serviceCode: 'TooManyRequests',
        attempts: 3,
      });
      await client.close();
    });
  });
});
