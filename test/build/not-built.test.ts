import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers.js';

describe('a checkout that was not built', () => {
  it('says so in one line and exits 2, never "Cannot find module"', () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'bin'));
    copyFileSync(path.join(ROOT, 'bin/bomwright.cjs'), path.join(dir, 'bin/bomwright.cjs'));
    const run = spawnSync(process.execPath, [path.join(dir, 'bin/bomwright.cjs'), 'validate', 'samples'], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'bomwright: E_NOT_BUILT: bomwright is not built here; run npm run build (npm ci does it)\n',
    );
  });
});
