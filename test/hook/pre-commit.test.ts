/**
 * The pre-commit hook as its users install it: the pre-commit framework (https://pre-commit.com), docs/pre-commit.md's
 * `.pre-commit-config.yaml`, a repository of theirs. pre-commit clones this project at a commit and, the hook being
 * a `script`, installs nothing: the hook runs the committed Action bundle (action/dist/index.cjs) through
 * action/pre-commit.cjs on `git commit`.
 *
 * The project is snapshotted as it is on disk (committed or not) into a temporary repository, so the test checks
 * the working tree; the Action bundle in the snapshot is built from the sources, which is what
 * test/action/bundle.test.ts holds the committed one to. Skipped, with the reason, without the `pre-commit` command
 * (CI installs Debian's) or git. The install time is printed (bench/ records it too).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
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

/**
 * This project's working tree (tracked files and new ones git does not ignore) as one commit of a new repository,
 * with the Action bundle built from the sources.
 */
async function snapshot(env: NodeJS.ProcessEnv): Promise<{ repo: string; rev: string }> {
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
  const { buildAction } = (await import(path.join(ROOT, 'dist/build/action.js'))) as {
    buildAction: (outfile: string) => Promise<void>;
  };
  await buildAction(path.join(repo, 'action/dist/index.cjs'));
  git(repo, env, 'init', '-q', '-b', 'main');
  git(repo, env, 'add', '-A');
  git(repo, env, 'commit', '-q', '--no-verify', '-m', 'snapshot');
  return { repo, rev: git(repo, env, 'rev-parse', 'HEAD').trim() };
}

/** The configuration the README and docs/pre-commit.md show, with its placeholders filled in. */
function readmeConfig(repo: string, rev: string): string {
  const page = readFileSync(path.join(ROOT, 'docs/pre-commit.md'), 'utf8');
  const block = /^```yaml\n(repos:\n[\s\S]*?)```/m.exec(page)?.[1];
  expect(block, 'docs/pre-commit.md shows a .pre-commit-config.yaml').toBeDefined();
  expect(block).toContain(`repo: ${REPOSITORY}`);
  expect(block).toContain('rev: <commit id>');
  return block!.replace(REPOSITORY, repo).replace('<commit id>', rev);
}

/** The repository the README and docs/pre-commit.md tell users to pin: this package's. */
const REPOSITORY = 'https://github.com/bomwright/bomwright';

/** Every folder named node_modules below `dir`. */
function nodeModulesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name === 'node_modules')
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe.skipIf(SKIP !== undefined)('the pre-commit hook, installed by the pre-commit framework', () => {
  it('installs from the documented configuration, refuses an unbumped BOM and accepts the bumped one', async () => {
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
    const { repo, rev } = await snapshot(env);

    const work = temp();
    git(work, env, 'init', '-q', '-b', 'main');
    writeFileSync(path.join(work, '.pre-commit-config.yaml'), readmeConfig(repo, rev));
    const started = performance.now();
    const install = spawnSync('pre-commit', ['install', '--install-hooks'], { cwd: work, env, encoding: 'utf8' });
    const seconds = (performance.now() - started) / 1000;
    expect(install.status, `${install.stdout}\n${install.stderr}`).toBe(0);
    console.log(`pre-commit installed the bomwright-validate hook in ${seconds.toFixed(1)} s`);
    // Nothing to build and no package to download: the clone is all there is.
    expect(nodeModulesBelow(path.join(home, 'pre-commit'))).toEqual([]);

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

    // A rename with an edit is held to the same rule, compared with the file it came from.
    git(work, env, 'mv', 'bom.json', 'product.cdx.json');
    (bom as Record<string, unknown>).components = [{ type: 'library', name: 'left-pad', version: '1.3.1' }];
    writeFileSync(path.join(work, 'product.cdx.json'), JSON.stringify(bom, null, 2) + '\n');
    git(work, env, 'add', 'product.cdx.json');
    const renamed = commit('renamed and edited');
    expect(renamed.status, renamed.stdout + renamed.stderr).not.toBe(0);
    expect(renamed.stdout + renamed.stderr).toContain('(compared with HEAD:bom.json)');
    expect(git(work, env, 'rev-list', '--count', 'HEAD').trim()).toBe('2');

    // An XML BOM's change triggers the hook too (files: .json and .xml).
    git(work, env, 'reset', '-q', '--hard');
    writeFileSync(path.join(work, 'notes.xml'), '<notes/>\n');
    git(work, env, 'add', 'notes.xml');
    const xml = commit('an xml file');
    expect(xml.stdout + xml.stderr).toMatch(/bomwright validate \(staged BOMs\)\.+Passed/);
  }, 1_800_000);
});
