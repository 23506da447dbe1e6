/**
 * Installs the test-only tools (test/package.json: mutation testing, a browser driver, third-party SDKs and
 * generators for the interop tests, load generators for the benchmarks) into test/node_modules, where the tests'
 * imports find them. They are not root devDependencies, so installing bomwright itself (a pre-commit hook, a git
 * dependency) does not fetch them. `npm test`, `npm run lint`, `npm run mutation` and `npm run bench` run this first.
 *
 * It installs only when test/package-lock.json differs from what was last installed (a stamp in test/node_modules
 * holds the lockfile's digest), so a second run costs a file read. npm's log goes to standard error.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const stamp = path.join(dir, 'node_modules/.bomwright-installed');
const digest = createHash('sha256')
  .update(readFileSync(path.join(dir, 'package-lock.json')))
  .digest('hex');

if (!existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== digest) {
  process.stderr.write('Installing the test tools (test/package.json) into test/node_modules\n');
  // The outer `npm run` describes the root package: its settings (cache, registry, certificates) carry over, but the
  // project folder is this one.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^npm_(package_|lifecycle_|config_local_prefix$)/i.test(name)),
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], {
    cwd: dir,
    env,
    stdio: ['ignore', process.stderr, process.stderr],
    shell: process.platform === 'win32',
  });
  if (run.status !== 0) {
    process.stderr.write(`Installing the test tools failed (npm ci in ${dir}): run it there to see why\n`);
    process.exit(run.status ?? 1);
  }
  writeFileSync(stamp, `${digest}\n`);
}
