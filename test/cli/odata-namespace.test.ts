/**
 * `service`, `enrich` and `publish thread` against an emulator that speaks the real service's namespace
 * (`--odata-namespace microsoft.graph`): the built CLI accepts its answers and a rerun of publish posts once; the
 * commands' own --odata-namespace sends type names and cast segments in the namespace it names.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { useEmulator } from '../emulator/harness.js';
import { runCli, tempDir } from '../helpers.js';

const requests: string[] = [];
const api = useEmulator({ odataNamespace: 'microsoft.graph', log: (line) => requests.push(line) });

async function env(): Promise<NodeJS.ProcessEnv> {
  return { BOMWRIGHT_SERVICE_URL: api.emulator.url, BOMWRIGHT_TOKEN: await api.token() };
}

describe('the CLI against a service in microsoft.graph', () => {
  it('service prints the answer as the service sent it, typed in its namespace', async () => {
    const run = await runCli(['service', 'list-authentication-methods', '--user', SEED_IDS.users.alex], {
      env: await env(),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).value[0]['@odata.type']).toBe(
      '#microsoft.graph.windowsHelloForBusinessAuthenticationMethod',
    );
  });

  it('enrich authors records the FIDO2 model and phishing-resistant sign-in', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'bom.json'),
      JSON.stringify({
        bomFormat: 'CycloneDX',
        specVersion: '1.6',
        version: 1,
        metadata: { authors: [{ name: 'Adele Vance', email: 'adele@contoso.example' }] },
      }),
    );
    const run = await runCli(['enrich', 'authors', 'bom.json'], { cwd: dir, env: await env() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('has phishing-resistant method');
    const written = JSON.parse(readFileSync(path.join(dir, 'bom.json'), 'utf8'));
    expect(written.metadata.properties).toContainEqual({
      name: 'bomwright:authentication:adele@contoso.example:fido2Model',
      value: 'YubiKey 5 NFC',
    });
  });

  it('publish thread run twice replies once', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'bom.json'),
      JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.6', version: 7, components: [] }),
    );
    const args = ['publish', 'thread', 'bom.json', '--group', SEED_IDS.groups.release];
    requests.length = 0;
    for (let run = 0; run < 2; run++) {
      const result = await runCli([...args, '--thread', SEED_IDS.threads.review], { cwd: dir, env: await env() });
      expect(result.code, result.stderr).toBe(0);
    }
    expect(requests.filter((line) => line.startsWith('POST '))).toHaveLength(1);
  });
});

const BUILDING = 'e5c4b3a2-a001-4b6c-8d7e-9f0a1b2c3d01';
const LEVEL = 'e537d463-a002-4b6c-8d7e-9f0a1b2c3d02';

describe('--odata-namespace on the commands that call the service', () => {
  it('sends cast segments in the namespace named, against an emulator in that namespace', async () => {
    const fixtures = ['service', 'list-fixtures', '--building', BUILDING, '--level', LEVEL, '--select', 'id'];
    api.emulator.clearRequests();
    const run = await runCli([...fixtures, '--odata-namespace', 'microsoft.graph'], { env: await env() });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).value.length).toBeGreaterThan(0);
    expect(api.emulator.requests().map((r) => r.path)).toEqual([
      `/v1.0/places/${BUILDING}/microsoft.graph.building/map/levels/${LEVEL}/fixtures`,
    ]);
    const refused = await runCli([...fixtures, '--odata-namespace', 'graph'], { env: await env() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^bomwright: E_USAGE: .*--odata-namespace.*graph/);
  });

  it('is taken by enrich, publish and notify', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'bom.json'),
      JSON.stringify({
        bomFormat: 'CycloneDX',
        specVersion: '1.6',
        version: 1,
        metadata: { authors: [{ name: 'Adele Vance', email: 'adele@contoso.example' }] },
      }),
    );
    const flag = ['--odata-namespace', 'microsoft.graph'];
    const enrich = await runCli(['enrich', 'authors', 'bom.json', '--dry-run', ...flag], {
      cwd: dir,
      env: await env(),
    });
    expect(enrich.code, enrich.stderr).toBe(0);
    const notify = await runCli(['notify', 'forward', '--event', 'e1', '--to', 'a@b.example', '--dry-run', ...flag], {
      env: await env(),
    });
    expect(notify.code, notify.stderr).toBe(0);
    const bundle = await runCli(
      ['publish', 'bundle', '--bundle', '123456!90', '--item', '123456!87', '--dry-run', ...flag],
      {
        env: await env(),
      },
    );
    expect(bundle.code, bundle.stderr).toBe(0);
  });
});

describe('--odata-namespace on the wire, against a service that records what it is sent', () => {
  let server: Server;
  let url: string;
  const seen: { path: string; body: string }[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        seen.push({ path: request.url ?? '', body });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("sends the spec's names by default and the real service's with microsoft.graph, whichever the body used", async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'remove.json'),
      JSON.stringify({
        values: [
          {
            '@odata.type': '#vendor.graph.dirUserConversationMember',
            'user@odata.bind': `${url}/v1.0/users('${SEED_IDS.users.adele}')`,
          },
        ],
      }),
    );
    const environment = { BOMWRIGHT_SERVICE_URL: url, BOMWRIGHT_TOKEN: 'tok' };
    for (const namespace of [undefined, 'vendor.graph', 'microsoft.graph'] as const) {
      seen.length = 0;
      const flag = namespace === undefined ? [] : ['--odata-namespace', namespace];
      const remove = await runCli(
        ['service', 'remove-team-members', '--team', 't1', '--body', 'remove.json', ...flag],
        {
          cwd: dir,
          env: environment,
        },
      );
      expect(remove.code, remove.stderr).toBe(0);
      const removal = await runCli(['service', 'delete-building-map', '--building', 'b1', ...flag], {
        env: environment,
      });
      expect(removal.code, removal.stderr).toBe(0);
      const real = namespace === 'microsoft.graph';
      expect(JSON.parse(seen[0]!.body).values[0]['@odata.type']).toBe(
        real ? '#microsoft.graph.aadUserConversationMember' : '#vendor.graph.dirUserConversationMember',
      );
      expect(seen[1]!.path).toBe(`/v1.0/places/b1/${real ? 'microsoft' : 'vendor'}.graph.building/map`);
    }
  });
});
