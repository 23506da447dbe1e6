/** `bomwright service`: where a bad body stops being JSON, and `--format table` on a 207's results. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { useEmulator } from '../emulator/harness.js';
import { runCli, tempDir } from '../helpers.js';

const api = useEmulator();
const env = async (): Promise<NodeJS.ProcessEnv> => ({
  BOMWRIGHT_SERVICE_URL: api.emulator.url,
  BOMWRIGHT_TOKEN: await api.token(),
});

describe('a body that is not JSON', () => {
  it('is refused naming the line and column where it stops, or that it ends too soon', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'bad.json'), '{\n  "subject": }\n');
    writeFileSync(path.join(dir, 'short.json'), '{"subject":');
    const args = (file: string) => ['service', 'create-message', '--folder', 'inbox', '--body', file];
    const bad = await runCli(args('bad.json'), { cwd: dir, env: await env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('bomwright: E_USAGE: The body in bad.json is not JSON (line 2, column 14)\n');
    const short = await runCli(args('short.json'), { cwd: dir, env: await env() });
    expect(short.stderr).toBe(
      'bomwright: E_USAGE: The body in short.json is not JSON (line 1, column 12: it ends too soon)\n',
    );
  });
});

describe('--format table on a 207', () => {
  it('prints one row per item, and still exits 1 for the items that failed', async () => {
    const dir = tempDir();
    const member = (id: string) => ({
      '@odata.type': 'vendor.graph.dirUserConversationMember',
      'user@odata.bind': `${api.emulator.url}/v1.0/users('${id}')`,
    });
    writeFileSync(
      path.join(dir, 'remove.json'),
      JSON.stringify({ values: [member(SEED_IDS.users.adele), member(SEED_IDS.users.lee)] }),
    );
    const run = await runCli(
      [
        'service',
        'remove-team-members',
        '--team',
        SEED_IDS.groups.company,
        '--body',
        'remove.json',
        '--format',
        'table',
      ],
      { cwd: dir, env: await env() },
    );
    expect(run.code).toBe(1);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^userId\s+error\s*$/);
    expect(lines.slice(-2)[0]).toContain(SEED_IDS.users.adele);
    expect(lines.at(-1)).toContain('NotFound');
    expect(run.stdout).not.toContain('{\n');
  });
});
