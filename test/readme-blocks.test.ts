/**
 * Every code block of the README and of the pages under docs/ (test/docs.ts) that a user can paste runs here, so the
 * documentation cannot drift: each shell block as a
 * bash script (`set -e`: every command must succeed) and each TypeScript or JavaScript block as a program (a vitest
 * file under vitest), in a folder of its own with `bomwright` on the PATH, a valid `bom.json`, and the emulator on
 * 127.0.0.1, port 0. The README's default address `127.0.0.1:8787` is rewritten to that port, placeholders such as
 * `GROUP_ID` to the default tenant's ids, and a line that starts the emulator (`bomwright emulator [--tls …]`) is
 * started in the background with `--port 0` instead. A block that cannot run here is in EXEMPT with its reason, and
 * a block that is neither run nor exempt fails the first test. A `console` block is a transcript: its command (after
 * `$ `) runs, and each line it shows but `…` must be a line of what the command printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { SEED_IDS, startEmulator, type RunningEmulator } from '../src/emulator/index.js';
import { docPages } from './docs.js';
import { BIN, ROOT, SAMPLES, tempDirs } from './helpers.js';

const newDir = tempDirs();

interface Block {
  /** The page it is on: `README.md`, `docs/commands/merge.md`. */
  file: string;
  /** The info string: `sh`, `ts`, `js run`, `yaml`, or empty. */
  info: string;
  text: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The block's first line, which names it below. */
  first: string;
}

function readmeBlocks(file: string, text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(.*)$/.exec(lines[i]!);
    if (open === null) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
    blocks.push({ file, info: open[1]!.trim(), text: `${body.join('\n')}\n`, line: start + 1, first: body[0] ?? '' });
  }
  return blocks;
}

/** Blocks not run here, by their first line, each with the reason. */
const EXEMPT: Record<string, string> = {
  "bomwright set bom.json /metadata/authors/- 'Jane Doe <jane@acme.example>'":
    'the journey on a real composer BOM (docs/profiles/journey.md): test/cli/journey.test.ts runs this block as written, on that BOM in JSON and in XML, and checks every built-in profile before and after',
  'npm install --save-dev git+https://github.com/bomwright/bomwright.git#<commit id>':
    'installs from GitHub, which the tests cannot reach (no network but loopback); test/build/package.test.ts checks what the package holds, and test/hook/pre-commit.test.ts installs the hook from a local clone',
  'npm ci && npx bomwright validate samples':
    'the quick start installs from the npm registry and runs the whole suite, this file included; CI runs both (.ci/run)',
  'npm ci                 # install; `prepare` builds (tsc, precompiled validators, bundles, code caches, build stamp)':
    'the development commands: installs, the suite itself, fuzzing, benchmark and mutation campaigns of minutes to hours; CI runs install, lint and the suite',
  'repos:':
    'a pre-commit configuration: test/hook/pre-commit.test.ts installs the hook from this very block with the pre-commit framework',
  'jobs:':
    'a GitHub Actions workflow: it runs on GitHub runners; the steps it runs (validate --shard, merge-reports) are run by test/cli',
  '- uses: actions/checkout@v4':
    'a GitHub Actions step list: test/action runs the Action bundle the way the runner does',
  '██████░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░ 304/2000 files | 4 with errors | 89.7 files/s | ETA 15s':
    'not code: what the progress bar looks like on a terminal',
  'bomwright merge FILE... -o OUT [--name N --version V | --from package.json] [--hierarchical]':
    'not code: the synopsis of merge, with placeholders for every option',
  'bomwright convert IN -o OUT [--to json|xml] [--spec-version V]':
    'not code: the synopsis of convert, with placeholders for every option',
  '$ bomwright validate bom.json --profile bsi-2.1 --profile ntia-2021':
    'a transcript (a command and an abridged report): test/cli/profiles.test.ts runs --profile and checks these lines',
  '{': 'the example policy: test/validate/profiles/format.test.ts parses this block, checks it against the profile schema and judges documents with it',
  "import { createGraphServiceClient, GraphRequestAdapter } from '@microsoft/msgraph-sdk';":
    'a fragment that goes on from the block above (its auth provider) against an emulator with --odata-namespace microsoft.graph: test/sdk/kiota-models.test.ts makes these calls through GraphRequestAdapter',
  'permissions: adele@contoso.example (delegated): Group.ReadWrite.All, Mail.ReadWrite; directory roles: mailSystemAdministrator (4 operations)':
    'not code: the lines --report-permissions prints (test/emulator/permissions-used.test.ts)',
};

/** Data blocks checked here by loading them as what they are. */
const LOADED: Record<string, (text: string) => Promise<void>> = {
  // A --faults file: the emulator starts with it (a bad rule is refused at start).
  '{ "rules": [': async (text) => {
    const emulator = await startEmulator({ port: 0, log: () => {}, faults: JSON.parse(text) as unknown });
    await emulator.close();
  },
};

/** README placeholders and the default tenant's values they stand for. */
const PLACEHOLDERS: Record<string, string> = {
  GROUP_ID: SEED_IDS.groups.release,
  THREAD_ID: SEED_IDS.threads.review,
  BUNDLE_ID: '123456!90',
  DRIVE_ITEM_ID: '123456!87',
  TEAM_ID: SEED_IDS.groups.release,
  CHANNEL_ID: SEED_IDS.channels.general,
  APP_ID: SEED_IDS.teamsApps.dashboard,
  EVENT_ID: 'evt-adele-gonogo',
  ITEM_ID: SEED_IDS.workbook,
  CATEGORY_ID: '0d4c3b2a-8002-4e5f-9a6b-7c8d9e0f1a02',
  SUBCATEGORY_ID: '4ce5bb37-fd0d-0155-a404-b4dba3a580c2',
  REQUEST_ID: SEED_IDS.assignmentRequests.delivered,
  ACCESS_PACKAGE_ID: SEED_IDS.accessPackage,
};

/** A placeholder: a whole word of capitals ending in _ID (SUBCATEGORY_ID is not CATEGORY_ID). */
const PLACEHOLDER = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_ID\b/g;

const blocks = docPages().flatMap((page) => readmeBlocks(page.file, page.text));
/** `js run` blocks are run, with their printed lines checked, by test/readme.test.ts. */
const runHere = (block: Block) => ['sh', 'ts', 'js', 'console'].includes(block.info) && !(block.first in EXEMPT);

describe('README code blocks', () => {
  it('are each run (here, or as `js run` by readme.test.ts) or exempt with a reason; no exemption is stale', () => {
    const unlisted = blocks.filter(
      (b) => !runHere(b) && b.info !== 'js run' && !(b.first in EXEMPT) && !(b.first in LOADED),
    );
    expect(unlisted.map((b) => `${b.file}:${b.line} ${b.info} ${b.first}`)).toEqual([]);
    const firsts = new Set(blocks.map((b) => b.first));
    expect([...Object.keys(EXEMPT), ...Object.keys(LOADED)].filter((first) => !firsts.has(first))).toEqual([]);
    // Every placeholder-looking word of a block that runs has a value.
    const unknown = blocks
      .filter(runHere)
      .flatMap((b) => [...b.text.matchAll(PLACEHOLDER)].map((m) => m[0]))
      .filter((name) => !(name in PLACEHOLDERS));
    expect(unknown).toEqual([]);
    // The figure: blocks executed by the tests.
    expect(blocks.filter((b) => runHere(b) || b.info === 'js run').length).toBeGreaterThanOrEqual(16);
  });
});

const running: ChildProcess[] = [];
const emulators: RunningEmulator[] = [];
afterEach(async () => {
  for (const child of running.splice(0)) if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
  for (const emulator of emulators.splice(0)) await emulator.close();
});

/** A folder where `bomwright` is on the PATH, `import ... from 'bomwright'` and the block's other imports resolve. */
function workspace(block: Block): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = newDir();
  mkdirSync(path.join(dir, 'node_modules', '@microsoft'), { recursive: true });
  mkdirSync(path.join(dir, '.bin'));
  symlinkSync(ROOT, path.join(dir, 'node_modules', 'bomwright'), 'dir');
  // `import x from 'p'` and the side-effect form `import 'p'` (Kiota's request builders augment the client so).
  for (const [, name] of block.text.matchAll(/(?:\bfrom|^import)\s*'((?:@[^/']+\/)?[^/'.][^/']*)/gm)) {
    if (name === 'bomwright' || name!.startsWith('node:') || existsSync(path.join(dir, 'node_modules', name!)))
      continue;
    const found = [path.join(ROOT, 'test', 'node_modules', name!), path.join(ROOT, 'node_modules', name!)].find((p) =>
      existsSync(p),
    );
    expect(found, `${name} is installed (root or test/package.json)`).toBeDefined();
    symlinkSync(found!, path.join(dir, 'node_modules', name!), 'dir');
  }
  const shim = path.join(dir, '.bin', 'bomwright');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(shim, 0o755);
  copyFileSync(path.join(SAMPLES, 'valid-full-1.6.json'), path.join(dir, 'bom.json'));
  copyFileSync(path.join(SAMPLES, 'valid-full-1.6.xml'), path.join(dir, 'bom.xml'));
  for (const folder of ['sboms', 'build']) {
    mkdirSync(path.join(dir, folder));
    copyFileSync(path.join(SAMPLES, 'valid-full-1.6.json'), path.join(dir, folder, 'app.cdx.json'));
  }
  const env: NodeJS.ProcessEnv = {
    PATH: `${path.join(dir, '.bin')}:${path.dirname(process.execPath)}:${process.env.PATH}`,
    HOME: dir,
    BOMWRIGHT_HOME: dir,
  };
  return { dir, env };
}

function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input?: string },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end(options.input ?? '');
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts the emulator a block's line starts, on port 0 and in the background; its address. */
function startServerLine(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<URL> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `exec ${line} --port 0`], { cwd, env, detached: true });
    running.push(child);
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^listening on (\S+)/m.exec(out);
      if (match !== null) resolve(new URL(match[1]!));
    });
    child.on('close', (code) => reject(new Error(`${line} exited ${code}: ${out}`)));
  });
}

/** `bomwright emulator` with options only (no subcommand), without its comment. */
function serverLine(line: string): string | undefined {
  const command = line.replace(/\s+#.*$/, '').trim();
  return /^bomwright emulator(?:\s+--\S+(?:\s+[^-\s]\S*)?)*$/.test(command) ? command : undefined;
}

function fill(text: string, port: string): string {
  return text
    .replaceAll('127.0.0.1:8787', `127.0.0.1:${port}`)
    .replace(PLACEHOLDER, (name) => PLACEHOLDERS[name] ?? name);
}

describe.each(blocks.filter((b) => b.info === 'sh' && runHere(b)).map((b) => [`${b.file}:${b.line}`, b] as const))(
  '%s (sh)',
  (_, block) => {
    it('runs: every command succeeds', async () => {
      const { dir, env } = workspace(block);
      if (block.text.includes('release.private.pem') && !block.text.includes('keygen'))
        expect((await run('bomwright', ['keygen', '--out', 'release'], { cwd: dir, env })).code).toBe(0);
      const lines = block.text.split('\n');
      const servers = lines.filter((line) => serverLine(line) !== undefined);
      let port: string;
      if (servers.length > 0) {
        expect(servers).toHaveLength(1);
        port = (await startServerLine(serverLine(servers[0]!)!, dir, env)).port;
      } else {
        const emulator = await startEmulator({ port: 0, log: () => {} });
        emulators.push(emulator);
        port = new URL(emulator.url).port;
        env.BOMWRIGHT_SERVICE_URL = emulator.url;
        env.BOMWRIGHT_TOKEN = await emulator.token();
      }
      const script = fill(lines.filter((line) => serverLine(line) === undefined).join('\n'), port);
      const result = await run('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd: dir, env });
      expect(result.code, `${script}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`).toBe(0);
    });
  },
);

describe.each(
  blocks.filter((b) => ['ts', 'js'].includes(b.info) && runHere(b)).map((b) => [`${b.file}:${b.line}`, b] as const),
)('%s (ts)', (_, block) => {
  it('runs as a program (a vitest file under vitest) against the emulator', async () => {
    const { dir, env } = workspace(block);
    const https = block.text.includes('https://127.0.0.1:8787');
    const emulator = await startEmulator({
      port: 0,
      log: () => {},
      clonePolls: 0,
      ...(https ? { tls: true, tlsDir: path.join(dir, 'tls') } : {}),
    });
    emulators.push(emulator);
    const token = await emulator.token();
    Object.assign(env, {
      TOKEN: token,
      BOMWRIGHT_TOKEN: token,
      BOMWRIGHT_SERVICE_URL: emulator.url,
      ...(emulator.caPath === undefined ? {} : { NODE_EXTRA_CA_CERTS: emulator.caPath }),
    });
    const source = fill(block.text, new URL(emulator.url).port);
    const program = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    let result;
    if (/from 'vitest'/.test(source)) {
      writeFileSync(path.join(dir, 'example.test.mjs'), program);
      const vitest = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
      result = await run(process.execPath, [vitest, 'run', '--root', dir, 'example.test.mjs'], { cwd: dir, env });
    } else {
      writeFileSync(path.join(dir, 'example.mjs'), program);
      result = await run(process.execPath, ['example.mjs'], { cwd: dir, env });
    }
    expect(result.code, `${program}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`).toBe(0);
    expect(result.stderr).not.toMatch(/Error/);
  });
});

describe.each(blocks.filter((b) => b.first in LOADED).map((b) => [`${b.file}:${b.line}`, b] as const))(
  '%s (data)',
  (_, block) => {
    it('loads as what it is', async () => {
      await LOADED[block.first]!(block.text);
    });
  },
);

describe.each(blocks.filter((b) => b.info === 'console' && runHere(b)).map((b) => [`${b.file}:${b.line}`, b] as const))(
  '%s (console)',
  (_, block) => {
    it('prints the lines the transcript shows', async () => {
      const [command, ...shown] = block.text.trimEnd().split('\n');
      expect(command).toMatch(/^\$ bomwright /);
      const { dir, env } = workspace(block);
      const result = await run('bash', ['-c', command!.slice(2)], { cwd: dir, env });
      const printed = new Set(`${result.stdout}\n${result.stderr}`.split('\n'));
      const expected = shown.filter((line) => line.trim() !== '…');
      expect(expected.length).toBeGreaterThan(0);
      expect(
        expected.filter((line) => !printed.has(line)),
        `${result.stdout}\n${result.stderr}`,
      ).toEqual([]);
    });
  },
);
