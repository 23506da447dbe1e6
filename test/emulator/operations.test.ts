import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { useEmulator } from './harness.js';
import { SAMPLES } from './samples.js';

const api = useEmulator();

describe('every operation against the default tenant', () => {
  it('answers each sample request as the spec says, with the default token (or an application token where only that works)', async () => {
    const app = await api.token({ app: SEED_IDS.app });
    for (const [name, sample] of Object.entries(SAMPLES)) {
      const reply = await api.call(sample.method, sample.path, {
        token: sample.app === true ? app : undefined,
        body: sample.body?.(api.emulator.url),
      });
      expect(reply.status, `${name}: ${reply.text}`).toBe(sample.status);
      expect(reply.headers.get('request-id'), name).toMatch(/^[0-9a-f-]{36}$/);
      if (reply.status === 204) expect(reply.text, name).toBe('');
      if (reply.status === 200 && sample.method === 'GET')
        expect(reply.headers.get('content-type'), name).toMatch(/^application\/json/);
    }
  });

  it('really removes on DELETE: the second DELETE of the same thing is 404', async () => {
    const app = await api.token({ app: SEED_IDS.app });
    for (const name of [
      'deleteAssignmentPolicy',
      'deleteBuildingMap',
      'deleteEngagementRoleMember',
      'deletePrintTaskDefinition',
      'deleteMessage',
    ]) {
      const sample = SAMPLES[name]!;
      const again = await api.call(sample.method, sample.path, { token: sample.app === true ? app : undefined });
      expect(again.status, `${name}: ${again.text}`).toBe(404);
      expect(again.body.error.code, name).toMatch(/NotFound/i);
    }
    const event = await api.call('POST', SAMPLES.permanentDeleteEvent!.path);
    expect(event.status).toBe(404);
  });
});
