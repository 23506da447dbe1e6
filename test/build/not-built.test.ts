import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers.js';

describe('a checkout that was not built', () => {
  // The fast path's command lines too (validate, --version, --help): a checkout with package.json but no build.
  it.each([['validate', 'samples'], ['--version'], ['--help'], ['-h']])(
    '%s: says so in one line and exits 2, never "Cannot find module"',
    (...args) => {
      const dir = tempDir();
      mkdirSync(path.join(dir, 'bin'));
      copyFileSync(path.join(ROOT, 'bin/bomwright.cjs'), path.join(dir, 'bin/bomwright.cjs'));
      copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
      const run = spawnSync(process.execPath, [path.join(dir, 'bin/bomwright.cjs'), ...args], {
        encoding: 'utf8',
      });
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        'bomwright: E_NOT_BUILT: bomwright is not built here; run npm run build (npm ci does it)\n',
      );
    },
  );
});
