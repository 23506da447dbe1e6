import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deltaLinkFile } from '../../src/node/delta-link-file.js';
import { createServiceClient, type ServiceClient } from '../../src/service/client.js';
import { syncMessages } from '../../src/service/flows.js';
import { invoke } from '../../src/service/invoke.js';
import { useEmulator } from '../emulator/harness.js';
import { ROOT, tempDir } from '../helpers.js';

const api = useEmulator();
let client: ServiceClient;
beforeAll(() => {
  client = createServiceClient({ baseUrl: api.emulator.url, getToken: () => api.token() });
});
afterAll(() => client.close());

describe('a delta link kept in a file', () => {
  it('lets another process resume the round, removals included', async () => {
    const file = path.join(tempDir(), 'inbox.delta');
    const first = await syncMessages(client, { folder: 'inbox', store: deltaLinkFile(file) });
    expect(first.changed.length).toBeGreaterThan(0);
    expect(readFileSync(file, 'utf8')).toMatch(/\$deltatoken=.+\n$/);
    await invoke(client, 'deleteMessage', { params: { message: 'AAMkAGMsgAdele0002' } });
    await invoke(client, 'createMessage', {
      params: { folder: 'inbox' },
      body: { subject: 'seen by the second process' },
    });
    const script = `
      const { createServiceClient } = await import(${JSON.stringify(path.join(ROOT, 'dist/service/client.js'))});
      const { syncMessages } = await import(${JSON.stringify(path.join(ROOT, 'dist/service/flows.js'))});
      const { deltaLinkFile } = await import(${JSON.stringify(path.join(ROOT, 'dist/node/delta-link-file.js'))});
      const client = createServiceClient({ baseUrl: process.env.URL, token: process.env.TOKEN });
      const result = await syncMessages(client, { folder: 'inbox', store: deltaLinkFile(process.env.FILE) });
      await client.close();
      console.log(JSON.stringify({ restarted: result.restarted, subjects: result.changed.map((m) => m.subject), removed: result.removed }));
    `;
    // Asynchronously: the emulator answering it runs in this process.
    const run = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, URL: api.emulator.url, TOKEN: await api.token(), FILE: file },
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      restarted: false,
      subjects: ['seen by the second process'],
      removed: ['AAMkAGMsgAdele0002'],
    });
  });

  it('starts a full round without a file, and refuses a file that holds something else', async () => {
    const store = deltaLinkFile(path.join(tempDir(), 'missing.delta'));
    expect(store.load()).toBeUndefined();
    const bad = path.join(tempDir(), 'bad.delta');
    writeFileSync(bad, 'not a link');
    expect(() => deltaLinkFile(bad).load()).toThrow(expect.objectContaining({ code: 'E_INPUT' }));
  });
});
