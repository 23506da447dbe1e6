// Timing primitives for the benchmark harness: one child node process per run, wall time or self-reported time,
// optionally with the child's peak resident set size (through GNU time).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Thrown when a measurement is meaningless (non-zero exit, bad probe output); run.js turns it into an abort. */
export class BenchError extends Error {}

// The children get the parent's environment minus the variables that would change what node does at start-up,
// so that a developer's shell settings (--inspect, a loader, a compile cache) do not leak into the figures.
const CHILD_ENV = { ...process.env };
delete CHILD_ENV.NODE_OPTIONS;
delete CHILD_ENV.NODE_COMPILE_CACHE;

/**
 * Runs `node ...args` once and returns `{ ms }`: the wall time around spawnSync for metric 'wall' (process
 * creation and node start-up included: what a user waits for), or the probe's own {"ms": N} for 'reported'.
 * Returns `{ timedOut: true }` when `timeoutMs` passed; whether that is acceptable is the caller's decision.
 * Throws BenchError on any non-zero exit.
 * @param {{ args: string[], cwd: string, timeoutMs: number, metric: 'wall' | 'reported' }} command
 * @returns {{ ms: number, timedOut?: boolean }}
 */
export function runOnce(command) {
  const { child, wallMs } = spawnTimed(process.execPath, command.args, command);
  if (child.error?.code === 'ETIMEDOUT') return { timedOut: true, ms: wallMs };
  checkExit(command, child);
  if (command.metric === 'wall') return { ms: wallMs };

  // 'reported': the probe prints {"ms": N} as its last line (time since its first statement, start-up excluded).
  const last = child.stdout.trim().split('\n').at(-1) ?? '';
  let reported;
  try {
    reported = JSON.parse(last).ms;
  } catch {
    reported = undefined;
  }
  if (typeof reported !== 'number' || !Number.isFinite(reported)) {
    throw new BenchError(`${describe(command)} did not report its time (last stdout line: ${JSON.stringify(last)})`);
  }
  return { ms: reported };
}

const TIME = '/usr/bin/time';
// GNU time's report, on its own line at the end of stderr: the peak RSS of the command in KiB (%M).
const RSS_FORMAT = 'bench-peak-rss-kib=%M';
const RSS_LINE = /\n?bench-peak-rss-kib=(\d+)\s*$/;
let peakRssSupport;

/**
 * Whether peak RSS can be measured here: /usr/bin/time exists and is GNU time (`-f %M`; BSD time has no -f).
 * Probed once, with `node -e 0`.
 */
export function canMeasurePeakRss() {
  if (peakRssSupport === undefined) {
    const probe = existsSync(TIME)
      ? spawnSync(TIME, ['-f', RSS_FORMAT, process.execPath, '-e', '0'], {
          env: CHILD_ENV,
          stdio: ['ignore', 'pipe', 'pipe'],
          timeout: 30_000,
          encoding: 'utf8',
        })
      : null;
    peakRssSupport = probe?.status === 0 && RSS_LINE.test(probe.stderr);
  }
  return peakRssSupport;
}

/**
 * Runs `node ...args` once and returns `{ ms, rssBytes }`: the wall time of the whole process (as runOnce with
 * metric 'wall') and its peak resident set size in bytes, or `rssBytes: null` when that cannot be measured here
 * (see canMeasurePeakRss). The child runs as `/usr/bin/time -f %M node ...args`, which adds one exec of a small
 * C program to the wall time (about a millisecond); compare such times only with times measured the same way.
 * Returns `{ timedOut: true }` when `timeoutMs` passed; throws BenchError on any non-zero exit.
 * @param {{ args: string[], cwd: string, timeoutMs: number }} command
 * @returns {{ ms: number, rssBytes: number | null, timedOut?: boolean }}
 */
export function runWithPeakRss(command) {
  if (!canMeasurePeakRss()) return { ...runOnce({ ...command, metric: 'wall' }), rssBytes: null };
  // Detached: time and node get a process group of their own, so that a timeout can kill node too (spawnSync
  // only kills its direct child, time, which would leave node running).
  const { child, wallMs } = spawnTimed(TIME, ['-f', RSS_FORMAT, process.execPath, ...command.args], command, {
    detached: true,
  });
  if (child.error?.code === 'ETIMEDOUT') {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The group is gone already.
    }
    return { timedOut: true, ms: wallMs, rssBytes: null };
  }
  const match = RSS_LINE.exec(child.stderr ?? '');
  const stderr = match ? child.stderr.slice(0, match.index) : child.stderr;
  checkExit(command, { ...child, stderr });
  if (!match) throw new BenchError(`${describe(command)}: no peak RSS from ${TIME} (stderr: ${tail(child)})`);
  return { ms: wallMs, rssBytes: Number(match[1]) * 1024 };
}

/**
 * Runs `node ...args` once, untimed (preparing fixtures, reading a tool's report) and returns its stdout.
 * Throws BenchError on a timeout or a non-zero exit, with the command's output.
 * @param {{ args: string[], cwd: string, timeoutMs: number }} command
 * @returns {string}
 */
export function runForOutput(command) {
  const child = spawnSync(process.execPath, command.args, {
    cwd: command.cwd,
    env: CHILD_ENV,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: command.timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
    encoding: 'utf8',
  });
  if (child.error) throw new BenchError(`${describe(command)} could not run: ${child.error.message}`);
  // `diff` exits 1 when the documents differ, which is its result, not a failure.
  if (!(command.okExitCodes ?? [0]).includes(child.status)) {
    const how = child.signal ? `was killed by ${child.signal}` : `exited ${child.status}`;
    throw new BenchError(`${describe(command)} ${how} while preparing the benchmark.\n${tail(child)}`);
  }
  return child.stdout;
}

/** Median (mean of the two middle values for an even count), min and max. */
export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { runs: sorted.length, median, min: sorted[0], max: sorted.at(-1) };
}

/** The command as a user would type it from the repository root. */
export function describe(command) {
  const quote = (arg) => {
    if (/^[\w./@:=-]+$/.test(arg)) return arg;
    // Double quotes read better for `node -e` snippets, which use single quotes; they are safe without $ ` \ ".
    if (!/[$`\\"]/.test(arg)) return `"${arg}"`;
    return `'${arg.replaceAll("'", "'\\''")}'`;
  };
  const env = Object.entries(command.env ?? {}).map(([k, v]) => `${k}=${quote(v)}`);
  return [...env, 'node', ...command.args.map(quote)].join(' ');
}

/** spawnSync with the harness's settings, timed; `file` is node itself or a wrapper that runs it. */
function spawnTimed(file, args, command, extra = {}) {
  const start = process.hrtime.bigint();
  const child = spawnSync(file, args, {
    cwd: command.cwd,
    env: command.env ? { ...CHILD_ENV, ...command.env } : CHILD_ENV,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: command.timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
    encoding: 'utf8',
    ...extra,
  });
  return { child, wallMs: Number(process.hrtime.bigint() - start) / 1e6 };
}

/** Throws BenchError unless the timed child ran and exited 0. */
function checkExit(command, child) {
  if (child.error) throw new BenchError(`${describe(command)} could not run: ${child.error.message}`);
  // `diff` exits 1 when the documents differ, which is its result, not a failure.
  if (!(command.okExitCodes ?? [0]).includes(child.status)) {
    const how = child.signal ? `was killed by ${child.signal}` : `exited ${child.status}`;
    throw new BenchError(`${describe(command)} ${how}; a failing run is not worth timing.\n${tail(child)}`);
  }
}

function tail(child) {
  const text = `${child.stderr ?? ''}${child.stdout ?? ''}`.trim();
  return text ? text.split('\n').slice(-15).join('\n') : '(no output)';
}
