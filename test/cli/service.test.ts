import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { OPERATIONS } from '../../src/service/operations.js';
import { runCli, tempDir } from '../helpers.js';
import { useEmulator } from '../emulator/harness.js';

const api = useEmulator();
const env = async (extra: Record<string, string> = {}) => ({
  BOMWRIGHT_SERVICE_URL: api.emulator.url,
  BOMWRIGHT_TOKEN: await api.token(),
  ...extra,
});

describe('bomwright service', () => {
  it('lists every operation of the table with its method and path', async () => {
    const help = await runCli(['service', '--help']);
    expect(help.code).toBe(0);
    const flat = help.stdout.replace(/\s+/g, ' ');
    for (const operation of OPERATIONS) {
      const name = operation.name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      expect(flat).toContain(` ${name} `);
    }
    expect(flat).toContain('GET /me/authentication/phoneMethods');
  });

  it('calls an operation and prints JSON, or a table of a collection', async () => {
    const json = await runCli(['service', 'list-phone-methods', '--user', 'megan@contoso.example'], {
      env: await env(),
    });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).value).toHaveLength(1);
    const tableOut = await runCli(['service', 'list-phone-methods', '--format', 'table'], { env: await env() });
    expect(tableOut.stdout.split('\n')[0]).toMatch(/^id\s+phoneNumber\s+phoneType\s+smsSignInState$/);
    expect(tableOut.stdout.split('\n')).toHaveLength(6);
  });

  it('sends a body from a file or standard input, and follows paging with --all', async () => {
    const dir = tempDir();
    const body = path.join(dir, 'forward.json');
    writeFileSync(body, JSON.stringify({ ToRecipients: [{ EmailAddress: { Address: 'dana@fabrikam.example' } }] }));
    const forwarded = await runCli(['service', 'forward-event', '--event', 'evt-adele-gonogo', '--body', body], {
      env: await env(),
    });
    expect(forwarded.code, forwarded.stderr).toBe(0);
    expect(JSON.parse(forwarded.stdout)).toEqual({ status: 202 });
    const created = await runCli(['service', 'create-message', '--folder', 'inbox', '--body', '-'], {
      env: await env(),
      input: '{"subject":"from stdin"}',
    });
    expect(JSON.parse(created.stdout).subject).toBe('from stdin');
    const all = await runCli(
      ['service', 'message-delta', '--folder', 'inbox', '--top', '2', '--select', 'subject', '--all'],
      { env: await env() },
    );
    expect(JSON.parse(all.stdout).value.map((m: { subject: string }) => m.subject)).toContain('from stdin');
  });

  it('prints a service error on one line with its code and request-id, exit 1', async () => {
    const result = await runCli(['service', 'list-authentication-methods', '--user', 'nobody@contoso.example'], {
      env: await env(),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^bomwright: E_SERVICE: Request_ResourceNotFound: .* \(status 404, request-id [0-9a-f-]{36}\)\n$/,
    );
    const forbidden = await runCli(['service', 'delete-building-map', '--building', 'x'], {
      env: await env({ BOMWRIGHT_TOKEN: await api.token({ user: 'megan@contoso.example' }) }),
    });
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toContain('Authorization_RequestDenied');
  });

  it('says which setting is missing, and refuses bad requests before sending them, exit 2', async () => {
    const noUrl = await runCli(['service', 'list-phone-methods'], {
      env: { BOMWRIGHT_SERVICE_URL: '', BOMWRIGHT_TOKEN: 'x' },
    });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/No service address: pass --base-url or set BOMWRIGHT_SERVICE_URL/);
    const noToken = await runCli(['service', 'list-phone-methods', '--base-url', api.emulator.url], {
      env: { BOMWRIGHT_TOKEN: '' },
    });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toMatch(
      /No token: pass --token or set BOMWRIGHT_TOKEN \(for the local emulator: bomwright emulator token\)/,
    );
    const badBody = await runCli(['service', 'forward-event', '--event', 'e', '--body', '-'], {
      env: await env(),
      input: '{"Comment":"x"}',
    });
    expect(badBody.code).toBe(2);
    expect(badBody.stderr).toMatch(/^bomwright: E_REQUEST_SHAPE: forwardEvent: /);
    const notJson = await runCli(['service', 'forward-event', '--event', 'e', '--body', '-'], {
      env: await env(),
      input: 'nope',
    });
    expect(notJson.code).toBe(2);
    const unknownFlag = await runCli(['service', 'list-phone-methods', '--colour', 'red'], { env: await env() });
    expect(unknownFlag.code).toBe(2);
    expect(SEED_IDS.users.adele).toBeTruthy();
  });
});
