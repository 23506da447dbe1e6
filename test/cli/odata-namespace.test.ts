/**
 * `service`, `enrich` and `publish thread` against an emulator that speaks the real service's namespace
 * (`--odata-namespace microsoft.graph`): the built CLI accepts its answers and a rerun of publish posts once.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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
