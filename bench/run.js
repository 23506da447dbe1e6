// bomwright benchmark harness (`npm run bench`; see bench/README.md for what each case measures).
//   node bench/run.js [--quick] [--only A|B|C ...]
// Cases run one after another, never in parallel (CI machines have 2 cores and parallel runs would skew each
// other). Within a case the commands are interleaved round-robin so that drift in machine load hits every
// command alike, which keeps the ratios honest. The markdown report goes to stdout and bench/.data/results.md;
// progress goes to stderr.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateBom } from './generate.js';
import { BenchError, describe, runOnce, summarize } from './measure.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DATA_DIR = join(ROOT, 'bench', '.data');
const RESULTS_FILE = join(DATA_DIR, 'results.md');
const CASES = ['A', 'B', 'C'];
// Safety net so that a hung child cannot hang the harness; only the 20k library run may time out legitimately.
const DEFAULT_TIMEOUT_MS = 120_000;
const LIBRARY_20K_TIMEOUT_MS = 300_000;

const USAGE = `usage: node bench/run.js [--quick] [--only A|B|C ...]
  --quick      fewer runs (5, slow peers 3) and no 20,000-component library run
  --only CASE  run only these cases; repeat or comma-separate (--only A,C)`;

function main() {
  const options = parseOptions(process.argv.slice(2));
  if (!options) return 0;
  const buildState = checkBuild();
  // Facts are taken before measuring, so that the CPU sample describes the machine, not the benchmark itself.
  const busy = sampleCpuBusy();
  const facts = machineFacts(busy, buildState);
  if (busy > 0.25) log(`warning: the CPUs were ${formatPercent(busy)} busy before start; figures will be inflated`);

  // Full: 11 timed runs per command, 7 for the slower library peer (0.5-1 s a run); odd counts make
  // the median an actual run.
  const runs = options.quick ? { fast: 5, slow: 3 } : { fast: 11, slow: 7 };
  const sections = [];
  for (const id of options.only) sections.push(...CASE_BUILDERS[id](runs, options));

  const before = cpuAccount();
  const results = sections.map(measureSection);
  const others = otherCpuShare(before, cpuAccount());
  if (others !== null) {
    const at = facts.findIndex(([key]) => key.startsWith('CPU busy')) + 1;
    facts.splice(at, 0, ['CPU used by other processes while measuring', formatPercent(others)]);
    if (others > 0.1) log(`warning: other processes used ${formatPercent(others)} of the CPUs; figures are noisy`);
  }
  const report = renderReport(results, options, runs, facts);
  mkdirSync(DATA_DIR, { recursive: true });
  writeFileSync(RESULTS_FILE, report);
  process.stdout.write(report);
  log(`\nwritten to ${relative(ROOT, RESULTS_FILE)}`);
  return 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Cases. Each builder returns sections; a section is a group of rows compared with its reference row (ratio 1×).

const bomwrightCli = (file) => [cliEntry(), 'validate', file];
const libraryPeer = (file, ...flags) => ['bench/peers/cyclonedx-library.js', file, ...flags];
const bomwrightProbe = (file, ...flags) => ['bench/peers/bomwright-library.js', file, ...flags];

const CASE_BUILDERS = {
  A(runs) {
    const input = prepareBom(100);
    return [
      {
        caseId: 'A',
        title: 'Start-up: CLI on a small BOM vs bare node, whole process',
        input,
        rows: [
          row('`node -e 0`', ['-e', '0'], runs.fast, { reference: true }),
          row('bomwright CLI `validate`', bomwrightCli(input.path), runs.fast, { subject: true }),
          row('cyclonedx-library script', libraryPeer(input.path), runs.slow),
        ],
        goal: { text: 'bomwright CLI ÷ `node -e 0`', target: '≤ 1.5×', met: (r) => r <= 1.5 },
      },
    ];
  },

  B(runs) {
    const input = prepareBom(1000);
    return [
      {
        caseId: 'B',
        title: 'Medium BOM: bomwright vs the CycloneDX library, whole process',
        input,
        rows: [
          row('bomwright CLI `validate`', bomwrightCli(input.path), runs.fast, { reference: true }),
          row('cyclonedx-library script', libraryPeer(input.path), runs.slow, { subject: true }),
        ],
        goal: { text: 'library ÷ bomwright, whole process', target: '≥ 5×', met: (r) => r >= 5 },
      },
      {
        caseId: 'B',
        title: 'Medium BOM: time to first result in a fresh process, node start-up excluded',
        input,
        rows: [
          row('bomwright `validate()`', bomwrightProbe(input.path, '--timing'), runs.fast, {
            reference: true,
            metric: 'reported',
          }),
          row('cyclonedx-library `validate()`', libraryPeer(input.path, '--timing'), runs.slow, {
            subject: true,
            metric: 'reported',
          }),
        ],
        goal: { text: 'library ÷ bomwright, in-process', target: 'none (informational)', met: null },
      },
    ];
  },

  C(runs, options) {
    const input = prepareBom(20000);
    const library = row('cyclonedx-library script', libraryPeer(input.path), 1, {
      // Known to be quadratic in the component count (~2 minutes here): one run, no warm-up, bounded.
      warmup: false,
      timeoutMs: LIBRARY_20K_TIMEOUT_MS,
      mayTimeOut: true,
      skipped: options.quick ? 'skipped (--quick)' : null,
    });
    return [
      {
        caseId: 'C',
        title: 'Large BOM: CLI vs just reading and parsing the file, whole process',
        input,
        rows: [
          row(
            '`node -e` readFileSync + JSON.parse',
            ['-e', "JSON.parse(require('node:fs').readFileSync(process.argv[1], 'utf8'))", input.path],
            runs.fast,
            { reference: true },
          ),
          row('bomwright CLI `validate`', bomwrightCli(input.path), runs.fast, { subject: true }),
          library,
        ],
        goal: { text: 'bomwright CLI ÷ read + JSON.parse', target: '≤ 3×', met: (r) => r <= 3 },
      },
    ];
  },
};

/** A measured command. `metric`: 'wall' = wall time of the whole process; 'reported' = the probe's own figure. */
function row(label, args, runs, extra = {}) {
  return {
    label,
    command: { args, cwd: ROOT, timeoutMs: extra.timeoutMs ?? DEFAULT_TIMEOUT_MS, metric: extra.metric ?? 'wall' },
    runs,
    warmup: extra.warmup ?? true,
    mayTimeOut: extra.mayTimeOut ?? false,
    reference: extra.reference ?? false,
    subject: extra.subject ?? false,
    skipped: extra.skipped ?? null,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Measurement

function measureSection(section) {
  log(`\n[${section.caseId}] ${section.title} (${section.input.name}, ${formatBytes(section.input.bytes)})`);
  const active = section.rows.filter((r) => !r.skipped);
  const samples = new Map(active.map((r) => [r, []]));
  const timedOut = new Set();

  // One untimed warm-up per command: fills the OS file cache and fails fast on a broken build.
  for (const r of active.filter((r) => r.warmup)) measureOnce(r);

  const rounds = Math.max(0, ...active.map((r) => r.runs));
  for (let round = 0; round < rounds; round++) {
    for (const r of active) {
      if (round >= r.runs || timedOut.has(r)) continue;
      if (r.mayTimeOut) log(`    ${r.label}: one run, timeout ${r.command.timeoutMs / 1000} s ...`);
      const result = measureOnce(r);
      if (result.timedOut) timedOut.add(r);
      else samples.get(r).push(result.ms);
    }
    progress(`    round ${round + 1}/${rounds}`);
  }

  const rows = section.rows.map((r) => {
    if (r.skipped) return { ...r, outcome: { skipped: r.skipped } };
    if (timedOut.has(r)) return { ...r, outcome: { timedOut: true, runs: 1 } };
    const stats = summarize(samples.get(r));
    log(`    ${r.label}: median ${formatMs(stats.median)} over ${stats.runs} run${stats.runs === 1 ? '' : 's'}`);
    return { ...r, outcome: stats };
  });
  return { ...section, rows };
}

function measureOnce(r) {
  const result = runOnce(r.command);
  if (result.timedOut && !r.mayTimeOut) {
    throw new BenchError(`${describe(r.command)} did not finish within ${r.command.timeoutMs / 1000} s`);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// Report

function renderReport(results, options, runs, facts) {
  const lines = ['# bomwright benchmarks', ''];
  for (const [key, value] of facts) lines.push(`- ${key}: ${value}`);
  const mode = options.quick ? 'quick' : 'full';
  lines.push(
    `- Mode: ${mode} (${runs.fast} timed runs, ${runs.slow} for the library peer, after one untimed warm-up); ` +
      `cases ${options.only.join(', ')}`,
    '',
    '## Results',
    '',
    '| Case | Measurement | Input | Runs | Median | Min | Max | × ref |',
    '| :-- | :-- | :-- | --: | --: | --: | --: | --: |',
  );
  for (const section of results) {
    const ref = section.rows.find((r) => r.reference).outcome;
    for (const r of section.rows) {
      const o = r.outcome;
      const kind = r.command.metric === 'reported' ? 'in-process' : 'whole process';
      const input = `${section.input.name} (${formatBytes(section.input.bytes)})`;
      const cells = o.skipped
        ? ['—', o.skipped, '—', '—', '—']
        : o.timedOut
          ? [
              '1',
              `> ${r.command.timeoutMs / 1000} s (timeout)`,
              '—',
              '—',
              `> ${formatRatio(r.command.timeoutMs / ref.median)}`,
            ]
          : [
              String(o.runs),
              formatMs(o.median),
              formatMs(o.min),
              formatMs(o.max),
              formatRatio(o.median / ref.median) + (r.reference ? ' (ref)' : ''),
            ];
      lines.push(`| ${section.caseId} | ${r.label}, ${kind} | ${input} | ${cells.join(' | ')} |`);
    }
  }

  lines.push('', '## Goals', '', '| Case | Ratio | Target | Measured | Met |', '| :-- | :-- | :-- | --: | :-: |');
  for (const section of results) {
    const ref = section.rows.find((r) => r.reference).outcome;
    const subject = section.rows.find((r) => r.subject);
    const goal = section.goal;
    // Goals compare medians; for case B the library is the subject, so the ratio reads "bomwright N× faster".
    const ratio = subject.outcome.median / ref.median;
    const verdict = goal.met ? (goal.met(ratio) ? 'yes' : '**no**') : '—';
    lines.push(`| ${section.caseId} | ${goal.text} | ${goal.target} | ${formatRatio(ratio)} | ${verdict} |`);
  }

  lines.push('', '## Commands (run from the repository root)', '');
  for (const section of results) {
    for (const r of section.rows) lines.push(`- ${section.caseId}, ${r.label}: \`${describe(r.command)}\``);
  }
  lines.push(
    '',
    'Median, min and max of the timed runs. "Whole process" is the wall time of spawning `node` until it exits, ' +
      'start-up included; "in-process" is the time the probe measured from its first statement to the ' +
      'validation result, in a fresh process (node start-up excluded, module loading included). ' +
      '"× ref" is the row\'s median divided by the median of the "(ref)" row of the same case and kind; ' +
      "in case B the reference is bomwright, so the library's figure says how many times faster bomwright is.",
    '',
  );
  return lines.join('\n');
}

function machineFacts(busy, buildState) {
  const cpus = os.cpus();
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const require = createRequire(import.meta.url);
  const libraryVersion = JSON.parse(readFileSync(require.resolve('@cyclonedx/cyclonedx-library/package.json'))).version;
  return [
    ['Date', new Date().toISOString().replace(/\.\d+Z$/, 'Z')],
    ['Node', `${process.version} (${process.platform} ${process.arch})`],
    ['CPU', `${cpus[0]?.model?.trim() || 'unknown'}, ${cpus.length} logical cores`],
    ['Memory', `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`],
    ['OS', `${os.type()} ${os.release()}`],
    // Other work on the machine inflates every figure; a high value here means the run is suspect.
    ['CPU busy before start (1 s sample)', formatPercent(busy)],
    ['bomwright', `${pkg.version}${gitRevision()}; ${buildState}`],
    ['@cyclonedx/cyclonedx-library', libraryVersion],
  ];
}

/**
 * Share of CPU time spent busy over `ms`, all cores together. Measured rather than read from the load average,
 * which in VMs and containers can count other guests' or blocked tasks and says little about free CPU.
 */
function sampleCpuBusy(ms = 1000) {
  const totals = () =>
    os.cpus().reduce(
      (acc, { times }) => {
        const all = times.user + times.nice + times.sys + times.irq + times.idle;
        return { all: acc.all + all, idle: acc.idle + times.idle };
      },
      { all: 0, idle: 0 },
    );
  const before = totals();
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms); // sleep without spinning a core
  const after = totals();
  const all = after.all - before.all;
  return all > 0 ? 1 - (after.idle - before.idle) / all : 0;
}

/**
 * Machine-wide busy and idle CPU time (ms, from os.cpus()) and, on Linux, the CPU time of this process and its
 * reaped children (ms, from /proc/self/stat). Their difference is work done by other processes while measuring.
 */
function cpuAccount() {
  const machine = os.cpus().reduce(
    (acc, { times }) => ({
      busy: acc.busy + times.user + times.nice + times.sys + times.irq,
      idle: acc.idle + times.idle,
    }),
    { busy: 0, idle: 0 },
  );
  let own = null;
  try {
    // Fields 14-17 (utime, stime, cutime, cstime) after the parenthesised command name; Linux USER_HZ is 100.
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    own = fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) * 10;
  } catch {
    // Not Linux: the figure is simply left out of the report.
  }
  return { ...machine, own };
}

/** Share of all CPU time (every core) that went to other processes between two cpuAccount() calls, or null. */
function otherCpuShare(before, after) {
  if (before.own === null || after.own === null) return null;
  const total = after.busy + after.idle - (before.busy + before.idle);
  const others = after.busy - before.busy - (after.own - before.own);
  return total > 0 ? Math.max(0, others / total) : null;
}

/** The CLI as installed: package.json's `bin` entry (its file name has changed before, .js to .cjs). */
function cliEntry() {
  const { bin } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const entry = typeof bin === 'string' ? bin : bin?.bomwright;
  if (!entry || !existsSync(join(ROOT, entry))) throw new BenchError(`package.json has no usable bin entry (${entry})`);
  return entry.replace(/^\.\//, '');
}

/** " @ abc1234" plus a note when the measured code has uncommitted changes; empty outside a git checkout. */
function gitRevision() {
  const git = (...args) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  const head = git('rev-parse', '--short', 'HEAD');
  if (head.status !== 0) return '';
  const dirty = git('status', '--porcelain', '--', 'src', 'bin', 'schema', 'generated').stdout?.trim();
  return ` @ ${head.stdout.trim()}${dirty ? ' (with uncommitted changes)' : ''}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Set-up

function parseOptions(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        quick: { type: 'boolean', default: false },
        only: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    throw new BenchError(`${error.message}\n${USAGE}`);
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    return null;
  }
  const only = (parsed.only ?? CASES).flatMap((v) => v.split(',')).map((v) => v.trim().toUpperCase());
  const unknown = only.filter((v) => !CASES.includes(v));
  if (unknown.length) throw new BenchError(`unknown case ${unknown.join(', ')} (expected A, B or C)\n${USAGE}`);
  // Canonical order, no duplicates, whatever order the flags came in.
  return { quick: parsed.quick, only: CASES.filter((c) => only.includes(c)) };
}

/**
 * The harness measures dist/, not src/: refuse to run without a build, warn when the build looks stale and say
 * which it is, for the report.
 * Only the library entry is checked (the CLI's internal layout may change); a broken CLI fails its warm-up run.
 */
function checkBuild() {
  const entry = join(ROOT, 'dist', 'index.js');
  if (!existsSync(entry)) throw new BenchError('dist/ is not built: run `npm run build` first');
  const srcDir = join(ROOT, 'src');
  if (!existsSync(srcDir)) return 'dist/ as installed';
  const newest = readdirSync(srcDir, { recursive: true })
    .map((p) => join(srcDir, String(p)))
    .filter((p) => p.endsWith('.ts'))
    .reduce((max, p) => Math.max(max, statSync(p).mtimeMs), 0);
  if (newest <= statSync(entry).mtimeMs) return 'dist/ built after the last src/ change';
  log('warning: src/ changed after the last build; `npm run build` to measure it');
  return 'dist/ is OLDER than src/ (the last build was measured)';
}

/** Writes bench/.data/bom-N.json when missing or different from what the generator makes now. */
function prepareBom(n) {
  const name = `bom-${n}.json`;
  const path = join(DATA_DIR, name);
  const text = JSON.stringify(generateBom(n, { specVersion: '1.6', seed: 1 }), null, 2);
  if (!existsSync(path) || readFileSync(path, 'utf8') !== text) {
    mkdirSync(DATA_DIR, { recursive: true });
    writeFileSync(path, text);
    log(`generated ${relative(ROOT, path)}`);
  }
  return { name, path: relative(ROOT, path), bytes: Buffer.byteLength(text) };
}

// ---------------------------------------------------------------------------------------------------------------
// Formatting and logging

function formatMs(ms) {
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  return ms >= 100 ? `${Math.round(ms)} ms` : `${ms.toFixed(1)} ms`;
}

function formatBytes(bytes) {
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return bytes >= 1e3 ? `${(bytes / 1e3).toFixed(1)} kB` : `${bytes} B`;
}

const formatPercent = (share) => `${Math.round(share * 100)}%`;

const formatRatio = (ratio) => `${ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2)}×`;

// On a terminal, a round counter overwrites itself (progress) and log lines first clear it; logs stay clean.
const CLEAR_LINE = process.stderr.isTTY ? '\r\x1b[K' : '';
const log = (text) => process.stderr.write(`${CLEAR_LINE}${text}\n`);
const progress = (text) => CLEAR_LINE && process.stderr.write(`${CLEAR_LINE}${text}`);

try {
  process.exitCode = main();
} catch (error) {
  if (!(error instanceof BenchError)) throw error;
  log(`bench: ${error.message}`);
  process.exitCode = 1;
}
