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
    expect(first.stdout).toContain('3 components added, 0 updated, 0 unchanged, 1 row rejected');
    expect(first.stdout).toContain('Wrote bom.json (new) (2 service calls)');
    const written = readFileSync(path.join(dir, 'bom.json'), 'utf8');
    expect(JSON.parse(written).components).toHaveLength(3);
    const validate = await runCli(['validate', 'bom.json'], { cwd: dir });
    expect(validate.code, validate.stdout).toBe(0);
    const second = await runCli(args, { cwd: dir, env: await env() });
    expect(second.stdout).toContain(
      '0 components added, 0 updated, 3 unchanged, 1 row rejected\nbom.json unchanged (version 1; 2 service calls)\n',
    );
    // --spec-version shapes a new BOM only: with the BOM there it is refused, not ignored.
    const versioned = await runCli([...args, '--spec-version', '1.5'], { cwd: dir, env: await env() });
    expect(versioned.code).toBe(2);
    expect(versioned.stderr).toBe(
      'bomwright: E_USAGE: --spec-version is for a new BOM, and bom.json exists (it keeps its own spec version): drop --spec-version, or name a new file with -o\n',
    );
    // A dry run with --flag says which rows would be flagged (it writes nothing to the workbook).
    const dry = await runCli([...args, '--flag', '--dry-run'], { cwd: dir, env: await env() });
    expect(dry.stdout).toContain('is not an SPDX identifier or expression (would be flagged)\n');
    // Key options without --key, and --key with --drop-signatures, are refused, not ignored.
    for (const [extra, message] of [
      [
        ['--key-id', 'k'],
        '--key-id goes with --key (the key that re-signs what the change invalidates): add --key FILE, or drop it',
      ],
      [
        ['--passphrase-env', 'P', '--cert-chain', 'c.pem'],
        '--passphrase-env, --cert-chain go with --key (the key that re-signs what the change invalidates): add --key FILE, or drop them',
      ],
      [
        ['--key', 'k.pem', '--drop-signatures'],
        '--key re-signs what the change invalidates and --drop-signatures removes it: choose one',
      ],
    ] as const) {
      const refused = await runCli([...args, ...extra], { cwd: dir, env: await env() });
      expect(refused.code, extra.join(' ')).toBe(2);
      expect(refused.stderr).toBe(`bomwright: E_USAGE: ${message}\n`);
    }
    expect(readFileSync(path.join(dir, 'bom.json'), 'utf8')).toBe(written);
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
  it('publish thread: --dry-run shows the reply and sends nothing (it only reads); then the reply is sent', async () => {
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
    expect(requests.map((line) => line.split(' ')[0])).toEqual(['GET']);
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

  it('publish tab --static refuses --name and --url (the spec: they must not be sent), one line, exit 2, nothing sent', async () => {
    const args = [
      'publish',
      'tab',
      '--team',
      G,
      '--channel',
      SEED_IDS.channels.builds,
      '--app',
      SEED_IDS.teamsApps.wiki,
    ];
    for (const [extra, given] of [
      [['--name', 'X'], '--name'],
      [['--url', 'https://x.example'], '--url'],
      [['--name', 'X', '--url', 'https://x.example'], '--name and --url'],
    ] as const) {
      requests.length = 0;
      const result = await runCli([...args, '--static', ...extra], { env: await env() });
      expect(result.code, given).toBe(2);
      expect(result.stderr).toBe(
        `bomwright: E_USAGE: A static tab takes its name and configuration from the app, and the spec says they must not be sent: drop ${given}, or pin a configurable tab without --static\n`,
      );
      expect(result.stdout).toBe('');
      expect(requests).toEqual([]);
    }
  });

  it('publish bundle and notify forward; an address that is not one is a usage error', async () => {
    const bundle = await runCli(['publish', 'bundle', '--bundle', '123456!90', '--item', '123456!87'], {
      env: await env(),
    });
    expect(bundle.code, bundle.stderr).toBe(0);
    expect(bundle.stdout).toBe('Added drive item 123456!87 to bundle 123456!90\n');
    requests.length = 0;
    const again = await runCli(['publish', 'bundle', '--bundle', '123456!90', '--item', '123456!87'], {
      env: await env(),
    });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('Drive item 123456!87 is already in bundle 123456!90; nothing changed\n');
    // The rerun only reads the bundle's children.
    expect(requests.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
      'GET /v1.0/drive/bundles/123456!90/children 200',
    ]);
    const dry = await runCli(['publish', 'bundle', '--bundle', '123456!90', '--item', '123456!87', '--dry-run'], {
      env: await env(),
    });
    expect(dry.stdout).toBe('Drive item 123456!87 is already in bundle 123456!90; nothing to send\n');
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

describe('publish, run again (a CI rerun)', () => {
  const calls = () => requests.map((line) => line.split(' ').slice(0, 2).join(' '));

  it('publish thread: the second run only reads, says the version is already there, exit 0; --force replies again', async () => {
    const dir = tempDir();
    const serial = 'urn:uuid:6f1c3e55-0b7a-4c1e-9d2f-1a2b3c4d5e6f';
    writeFileSync(
      path.join(dir, 'app.cdx.json'),
      JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.6', serialNumber: serial, version: 5, components: [] }),
    );
    const thread = SEED_IDS.threads.suppliers;
    const args = ['publish', 'thread', 'app.cdx.json', '--group', G, '--thread', thread];
    const first = await runCli(args, { cwd: dir, env: await env() });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^Replied in thread .*: app\.cdx\.json attached \(\d+ bytes\)\n/);
    requests.length = 0;
    const second = await runCli(args, { cwd: dir, env: await env() });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(
      new RegExp(
        `^Already published in thread ${thread} of group ${G} \\(post [^)]+\\): ${serial} version 5; nothing sent \\(--force replies again\\)\\n$`,
      ),
    );
    // The figure: calls made by a second publish run, reads only.
    expect(calls()).toEqual([`GET /v1.0/groups/${G}/threads/${thread}/posts`]);
    const json = await runCli([...args, '--format', 'json'], { cwd: dir, env: await env() });
    expect(JSON.parse(json.stdout)).toMatchObject({
      published: false,
      identity: `${serial} version 5`,
      sameContent: true,
      existingPost: expect.any(String),
    });
    const dry = await runCli([...args, '--dry-run'], { cwd: dir, env: await env() });
    expect(dry.stdout).toMatch(/^Already published in thread .*; would send nothing\n$/);
    requests.length = 0;
    const forced = await runCli([...args, '--force'], { cwd: dir, env: await env() });
    expect(forced.stdout).toMatch(/^Replied in thread /);
    expect(calls()).toEqual([`POST /v1.0/groups/${G}/threads/${thread}/reply`]);
  });

  it('publish thread of a changed but unbumped BOM says so, and sends nothing', async () => {
    const dir = tempDir();
    const serial = 'urn:uuid:6f1c3e55-0b7a-4c1e-9d2f-1a2b3c4d5e70';
    const write = (components: unknown[]) =>
      writeFileSync(
        path.join(dir, 'bom.json'),
        JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.6', serialNumber: serial, version: 2, components }),
      );
    write([]);
    const args = ['publish', 'thread', 'bom.json', '--group', G, '--thread', SEED_IDS.threads.suppliers];
    expect((await runCli(args, { cwd: dir, env: await env() })).code).toBe(0);
    write([{ type: 'library', name: 'x' }]);
    requests.length = 0;
    const second = await runCli(args, { cwd: dir, env: await env() });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(
      "nothing sent (--force replies again). That post's BOM has this serial number and version but other content: bump the version (bomwright bump) to publish the change\n",
    );
    expect(calls().every((call) => call.startsWith('GET '))).toBe(true);
  });

  it('publish tab: the second run only reads, says which tab is there, exit 0; --force pins another', async () => {
    const channel = SEED_IDS.channels.builds;
    const args = [
      'publish',
      'tab',
      '--team',
      G,
      '--channel',
      channel,
      '--app',
      SEED_IDS.teamsApps.dashboard,
      '--url',
      'https://dashboard.contoso.example/sbom/6.0',
      '--name',
      'SBOM 6.0',
    ];
    const first = await runCli(args, { env: await env() });
    expect(first.code, first.stderr).toBe(0);
    const id = /^Pinned tab "SBOM 6\.0" \(([^)]+)\)/.exec(first.stdout)?.[1];
    expect(id).toBeDefined();
    requests.length = 0;
    const second = await runCli(args, { env: await env() });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(
      `Already pinned to channel ${channel}: tab "SBOM 6.0" (${id}); nothing sent (--force pins another)\n`,
    );
    expect(calls()).toEqual([`GET /v1.0/teams/${G}/channels/${encodeURIComponent(channel)}/tabs`]);
    const forced = await runCli([...args, '--force'], { env: await env() });
    expect(forced.stdout).toMatch(/^Pinned tab "SBOM 6\.0" \(/);
    expect(forced.stdout).not.toContain(id);
  });
});
