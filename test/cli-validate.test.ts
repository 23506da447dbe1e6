import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { minimalBom, runCli, tempDir } from './helpers.js';

describe('bomwright validate (subprocess)', () => {
  it('exits 0 for a valid document and 1 for an invalid one', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'ok.json'), JSON.stringify(minimalBom('1.6')));
    writeFileSync(path.join(dir, 'bad.json'), JSON.stringify(minimalBom('1.6', { version: 0 })));
    const ok = await runCli(['validate', 'ok.json'], { cwd: dir });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('1 document valid');
    const bad = await runCli(['validate', 'bad.json'], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(
      /bad\.json:1:\d+ {2}error {2}version must be an integer of at least 1 at \/version {2}bom\/version/,
    );
  });

  it('exits 2 without a stack trace for a missing path', async () => {
    const result = await runCli(['validate', 'does-not-exist.json'], { cwd: tempDir() });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('bomwright: E_NOT_FOUND: No such file or directory: does-not-exist.json');
  });
});
