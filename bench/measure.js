// Timing primitives for the benchmark harness: one child node process per run, wall time or self-reported time.
import { spawnSync } from 'node:child_process';

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
  const start = process.hrtime.bigint();
  const child = spawnSync(process.execPath, command.args, {
    cwd: command.cwd,
    env: CHILD_ENV,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: command.timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
    encoding: 'utf8',
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;

  if (child.error?.code === 'ETIMEDOUT') return { timedOut: true, ms: wallMs };
  if (child.error) throw new BenchError(`${describe(command)} could not run: ${child.error.message}`);
  if (child.status !== 0) {
    const how = child.signal ? `was killed by ${child.signal}` : `exited ${child.status}`;
    throw new BenchError(`${describe(command)} ${how}; a failing run is not worth timing.\n${tail(child)}`);
  }
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
  return ['node', ...command.args].map(quote).join(' ');
}

function tail(child) {
  const text = `${child.stderr ?? ''}${child.stdout ?? ''}`.trim();
  return text ? text.split('\n').slice(-15).join('\n') : '(no output)';
}
