// Case O: installing the pre-commit hook. `pre-commit install --install-hooks` in a new repository whose
// .pre-commit-config.yaml names this checkout at its HEAD commit (the README's configuration), each run with an
// empty PRE_COMMIT_HOME, so every run clones and installs from scratch; npm's cache is whatever it is (the hook
// installs no package, so it plays no part). The committed state is what is installed: commit first.
//   node bench/hook.js [--quick]    (npm run bench -- --only O)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
const RUNS = values.quick ? 3 : 7;
const log = (text) => process.stderr.write(`${text}\n`);
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
};

function section(lines) {
  process.stdout.write(`### Case O: installing the pre-commit hook\n\n${lines.join('\n')}\n`);
}

if (spawnSync('pre-commit', ['--version'], { stdio: 'ignore' }).status !== 0) {
  section(['Not measured: the `pre-commit` command is not installed (apt-get install pre-commit).']);
} else {
  const rev = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const times = [];
  let packages = 0;
  for (let run = 1; run <= RUNS; run++) {
    const dir = mkdtempSync(join(tmpdir(), 'bomwright-bench-hook-'));
    try {
      const home = join(dir, 'home');
      const work = join(dir, 'work');
      execFileSync('git', ['init', '-q', '-b', 'main', work], { env: ENV });
      writeFileSync(
        join(work, '.pre-commit-config.yaml'),
        `repos:\n  - repo: ${ROOT}\n    rev: ${rev}\n    hooks:\n      - id: bomwright-validate\n`,
      );
      const started = process.hrtime.bigint();
      const install = spawnSync('pre-commit', ['install', '--install-hooks'], {
        cwd: work,
        env: { ...ENV, PRE_COMMIT_HOME: home },
        encoding: 'utf8',
      });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (install.status !== 0) throw new Error(`pre-commit install failed: ${install.stderr || install.stdout}`);
      times.push(ms);
      // What npm would have put there: every package folder below a node_modules.
      packages = readdirSync(home, { recursive: true, withFileTypes: true }).filter(
        (e) => e.isDirectory() && e.parentPath.endsWith('node_modules') && !e.name.startsWith('.'),
      ).length;
      log(`O: run ${run}/${RUNS}: ${(ms / 1000).toFixed(2)} s`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  section([
    `\`pre-commit install --install-hooks\` of this checkout at ${rev.slice(0, 12)}, ${RUNS} runs, each from an empty PRE_COMMIT_HOME.`,
    '',
    '| measure | value |',
    '| :-- | --: |',
    `| install time, median | ${(median(times) / 1000).toFixed(2)} s |`,
    `| install time, slowest | ${(Math.max(...times) / 1000).toFixed(2)} s |`,
    `| packages installed | ${packages} |`,
    '',
    'Goal: under 20 s on a warm npm cache (issue 46; it was about 100 s and 290 packages when the hook built from source).',
  ]);
}
