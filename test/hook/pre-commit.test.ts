/**
 * The pre-commit hook as its users install it: the pre-commit framework (https://pre-commit.com), the README's
 * `.pre-commit-config.yaml`, a repository of theirs. pre-commit clones this project at a commit, runs `npm install`
 * and `npm pack` in the clone (it takes the tarball's name from pack's standard output, so the build must print
 * nothing there), installs the tarball, and runs the hook on `git commit`.
 *
 * The project is snapshotted as it is on disk (committed or not) into a temporary repository, so the test checks
 * the working tree. Skipped, with the reason, without the `pre-commit` command (CI installs Debian's) or git.
 * npm prefers its cache (`npm ci` just filled it), so a run normally needs no network.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { minimalBom, ROOT, tempDirs } from '../helpers.js';

const temp = tempDirs('bomwright-pre-commit-');

function available(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

const HAVE_PRE_COMMIT = available('pre-commit', ['--version']);
const HAVE_GIT_CHECKOUT = available('git', ['--version']) && existsSync(path.join(ROOT, '.git'));
const SKIP = !HAVE_PRE_COMMIT
  ? 'the pre-commit command is not installed (apt-get install pre-commit, or pipx install pre-commit)'
  : !HAVE_GIT_CHECKOUT
    ? `${ROOT} is not a git checkout`
    : undefined;
if (SKIP !== undefined) console.warn(`Skipping the pre-commit hook test: ${SKIP}`);

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

function git(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** This project's working tree (tracked files and new ones git does not ignore) as one commit of a new repository. */
function snapshot(env: NodeJS.ProcessEnv): { repo: string; rev: string } {
  const repo = temp();
  const files = git(ROOT, env, 'ls-files', '-z', '--cached', '--others', '--exclude-standard')
    .split('\0')
    .filter((file) => file !== '' && existsSync(path.join(ROOT, file)));
  const archive = execFileSync('tar', ['--null', '-T', '-', '-cf', '-'], {
    cwd: ROOT,
    input: files.join('\0'),
    maxBuffer: 1 << 30,
  });
  execFileSync('tar', ['-xf', '-'], { cwd: repo, input: archive });
  git(repo, env, 'init', '-q', '-b', 'main');
  git(repo, env, 'add', '-A');
  git(repo, env, 'commit', '-q', '--no-verify', '-m', 'snapshot');
  return { repo, rev: git(repo, env, 'rev-parse', 'HEAD').trim() };
}

/** The README's configuration, with its placeholders filled in. */
function readmeConfig(repo: string, rev: string): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const block = /\*\*pre-commit\.\*\*[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block, 'the README shows a .pre-commit-config.yaml').toBeDefined();
  expect(block).toContain('<this repository>');
  expect(block).toContain('<a tag>');
  return block!.replace('<this repository>', repo).replace('<a tag>', rev);
}

describe.skipIf(SKIP !== undefined)('the pre-commit hook, installed by the pre-commit framework', () => {
  it('installs from the README configuration, refuses an unbumped BOM and accepts the bumped one', () => {
    const home = temp();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...GIT_ENV,
      PRE_COMMIT_HOME: path.join(home, 'pre-commit'),
      npm_config_prefer_offline: 'true',
      npm_config_update_notifier: 'false',
    };
    // Variables of the npm run that started the tests describe this project, not the hook's install.
    for (const name of Object.keys(env))
      if (/^npm_(package_|lifecycle_|config_local_prefix$)/i.test(name)) delete env[name];
    const { repo, rev } = snapshot(env);

    const work = temp();
    git(work, env, 'init', '-q', '-b', 'main');
    writeFileSync(path.join(work, '.pre-commit-config.yaml'), readmeConfig(repo, rev));
    const install = spawnSync('pre-commit', ['install', '--install-hooks'], { cwd: work, env, encoding: 'utf8' });
    expect(install.status, `${install.stdout}\n${install.stderr}`).toBe(0);

    const commit = (message: string) =>
      spawnSync('git', ['commit', '-m', message], { cwd: work, env, encoding: 'utf8' });
    const bom = { ...minimalBom('1.6'), serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79', version: 1 };
    const write = () => writeFileSync(path.join(work, 'bom.json'), JSON.stringify(bom, null, 2) + '\n');

    // A new BOM has no previous release: accepted.
    write();
    git(work, env, 'add', '.');
    const first = commit('first release');
    expect(first.status, `${first.stdout}\n${first.stderr}`).toBe(0);
    expect(first.stdout + first.stderr).toMatch(/bomwright validate \(staged BOMs\)\.+Passed/);

    // Changed content at the same version: refused with the version rule's message, and nothing is committed.
    (bom as Record<string, unknown>).components = [{ type: 'library', name: 'left-pad', version: '1.3.0' }];
    write();
    git(work, env, 'add', 'bom.json');
    const refused = commit('unbumped change');
    const said = refused.stdout + refused.stderr;
    expect(refused.status, said).not.toBe(0);
    expect(said).toMatch(/bomwright validate \(staged BOMs\)\.+Failed/);
    expect(said).toContain('content changed but version is still 1; expected 2');
    expect(said).toContain('run bomwright bump');
    expect(said).toContain('bom/version-rule');
    expect(git(work, env, 'rev-list', '--count', 'HEAD').trim()).toBe('1');

    // Bumped: accepted.
    bom.version = 2;
    write();
    git(work, env, 'add', 'bom.json');
    const bumped = commit('bumped change');
    expect(bumped.status, `${bumped.stdout}\n${bumped.stderr}`).toBe(0);
    expect(git(work, env, 'rev-list', '--count', 'HEAD').trim()).toBe('2');
  }, 1_800_000);
});
