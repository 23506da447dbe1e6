import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { useEmulator } from './harness.js';

const api = useEmulator();

describe('smoke', () => {
  it('lists phone methods', async () => {
    const reply = await api.call('GET', '/me/authentication/phoneMethods');
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.value).toHaveLength(3);
    const other = await api.call('GET', `/users/megan@contoso.example/authentication/phoneMethods`);
    expect(other.status, other.text).toBe(200);
    expect(SEED_IDS.users.megan).toBeTruthy();
  });
});
