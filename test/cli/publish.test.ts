/** `bomwright import`, `publish` and `notify` as a user runs them: the built CLI against the emulator on loopback. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { useEmulator } from '../emulator/harness.js';
import { runCli, tempDir } from '../helpers.js';

const requests: string[] = [];
const api = useEmulator({ log: (line) => requests.push(line) });
const G = SEED_IDS.groups.release;

async function env(): Promise<NodeJS.ProcessEnv> {
  return { BOMWRIGHT_SERVICE_URL: api.emulator.url, BOMWRIGHT_TOKEN: await api.token() };
}

describe('bomwright import workbook', () => {
  it('creates the BOM named by -o, reports rejected rows by sheet row, and a second run changes nothing', async () => {
    const dir = tempDir();
    const args = ['import', 'workbook', '--item', SEED_IDS.workbook, '--table', 'ComponentTable', '-o', 'bom.json'];
    const first = await runCli(args, { cwd: dir, env: await env() });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('row 4 (A4:F4): license "not a licence" is not an SPDX identifier or expression');
    expect(first.stdout).toContain('3 components added, 0 updated, 1 row rejected');
    expect(first.stdout).toContain('Wrote bom.json (new) (2 service calls)');
    const written = readFileSync(path.join(dir, 'bom.json'), 'utf8');
    expect(JSON.parse(written).components).toHaveLength(3);
    const validate = await runCli(['validate', 'bom.json'], { cwd: dir });
    expect(validate.code, validate.stdout).toBe(0);
    const second = await runCli(args, { cwd: dir, env: await env() });
    expect(second.stdout).toContain('bom.json unchanged (version 1; 2 service calls)');
    expect(readFileSync(path.join(dir, 'bom.json'), 'utf8')).toBe(written);
  });

  it('without -o prints the new BOM on standard output and the report on standard error', async () => {
    const dir = tempDir();
    const result = await runCli(
      ['import', 'workbook', '--path', 'Documents/Inventory.xlsx', '--table', 'ComponentTable'],
      {
        cwd: dir,
        env: await env(),
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).components.map((c: { name: string }) => c.name)).toEqual([
      'libfoo',
      'libbar',
      'fastzip',
    ]);
    expect(result.stderr).toContain('Wrote the new BOM to standard output');
  });

  it('a table the service does not know is one line with its request-id, exit 1, and nothing written', async () => {
    const dir = tempDir();
    const result = await runCli(
      ['import', 'workbook', '--item', SEED_IDS.workbook, '--table', 'Nope', '-o', 'bom.json'],
      {
        cwd: dir,
        env: await env(),
      },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^bomwright: E_SERVICE: .*\(status 404, request-id [0-9a-f-]{36}\)\n$/);
    expect(existsSync(path.join(dir, 'bom.json'))).toBe(false);
  });
});

describe('bomwright publish and notify', () => {
  it('publish thread: --dry-run shows the reply and sends nothing; then the reply is sent', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'bom.json'),
      JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.6', version: 2, components: [] }),
    );
    const args = ['publish', 'thread', 'bom.json', '--group', G, '--thread', SEED_IDS.threads.review];
    requests.length = 0;
    const dry = await runCli([...args, '--dry-run'], { cwd: dir, env: await env() });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^Would reply in thread .*"contentBytes":"\(\d+ base64 characters\)"/);
    expect(requests).toEqual([]);
    const sent = await runCli([...args, '--format', 'json'], { cwd: dir, env: await env() });
    expect(sent.code, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ dryRun: false, attachment: 'file' });
    expect(requests.filter((line) => line.startsWith('POST '))).toHaveLength(1);
  });

  it('publish tab with a name for an app whose tab is static: the service refuses, one line, exit 1', async () => {
    const result = await runCli(
      [
        'publish',
        'tab',
        '--team',
        G,
        '--channel',
        SEED_IDS.channels.general,
        '--app',
        SEED_IDS.teamsApps.wiki,
        '--url',
        'https://x.example',
      ],
      { env: await env() },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^bomwright: E_SERVICE: BadRequest: The app declares a static tab .*request-id/);
    const pinned = await runCli(
      [
        'publish',
        'tab',
        '--team',
        G,
        '--channel',
        SEED_IDS.channels.general,
        '--app',
        SEED_IDS.teamsApps.wiki,
        '--static',
      ],
      { env: await env() },
    );
    expect(pinned.code, pinned.stderr).toBe(0);
    expect(pinned.stdout).toMatch(/^Pinned tab "Release wiki"/);
  });

  it('publish bundle and notify forward; an address that is not one is a usage error', async () => {
    const bundle = await runCli(['publish', 'bundle', '--bundle', '123456!90', '--item', '123456!87'], {
      env: await env(),
    });
    expect(bundle.code, bundle.stderr).toBe(0);
    expect(bundle.stdout).toBe('Added drive item 123456!87 to bundle 123456!90\n');
    const forward = await runCli(
      [
        'notify',
        'forward',
        '--event',
        'evt-adele-gonogo',
        '--to',
        'dana@fabrikam.example',
        '--comment',
        'Please review',
      ],
      { env: await env() },
    );
    expect(forward.code, forward.stderr).toBe(0);
    expect(forward.stdout).toBe('Forwarded event evt-adele-gonogo to dana@fabrikam.example\n');
    const bad = await runCli(['notify', 'forward', '--event', 'e', '--to', 'dana'], { env: await env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"dana" is not an email address/);
  });
});
