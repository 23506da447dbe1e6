import { createRequire } from 'node:module';
import type * as CliProgress from 'cli-progress';

export interface Progress {
  /** One more file done; `errors` is the running total of documents with errors. */
  tick(errors: number): void;
  /** Prints text to stdout without tearing the bar (when both share a terminal). */
  print(text: string): void;
  stop(): void;
}

interface ProgressOptions {
  total: number;
  /** --progress / --no-progress; undefined means "decide". */
  forced?: boolean;
  quiet: boolean;
  env: NodeJS.ProcessEnv;
  stderr: NodeJS.WriteStream;
  stdoutIsTerminal: boolean;
  stdout: (text: string) => void;
}

const SHOW_AFTER_MS = 1000;
const SHOW_ABOVE_FILES = 20;

function isCi(env: NodeJS.ProcessEnv): boolean {
  return env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
}

/**
 * A progress bar on stderr (files done, documents with errors, throughput, ETA) for runs of more than 20 files
 * or longer than a second. Never on a non-terminal, with --quiet or in CI, unless --progress forces it;
 * --no-progress always wins. cli-progress is loaded only when a bar is really drawn.
 */
export function createProgress(options: ProgressOptions): Progress {
  const allowed = options.forced ?? (options.stderr.isTTY === true && !options.quiet && !isCi(options.env));
  const plain: Progress = { tick: () => undefined, print: (text) => options.stdout(text), stop: () => undefined };
  if (!allowed || options.total === 0) return plain;

  let done = 0;
  let errors = 0;
  const started = Date.now();
  let bars: { multi: CliProgress.MultiBar; bar: CliProgress.SingleBar } | undefined;
  const show = () => {
    if (bars !== undefined) return;
    const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof CliProgress;
    const multi = new cliProgress.MultiBar(
      {
        stream: options.stderr,
        format: '{bar} {value}/{total} files | {errors} with errors | {rate} files/s | ETA {eta_formatted}',
        hideCursor: true,
        clearOnComplete: true,
        noTTYOutput: options.forced === true,
        etaBuffer: 50,
        notTTYSchedule: 1000,
      },
      cliProgress.Presets.shades_classic,
    );
    bars = { multi, bar: multi.create(options.total, done, payload()) };
  };
  const payload = () => ({ errors, rate: (done / Math.max((Date.now() - started) / 1000, 0.001)).toFixed(1) });
  const timer = options.total > SHOW_ABOVE_FILES ? undefined : setTimeout(show, SHOW_AFTER_MS);
  timer?.unref();
  if (options.total > SHOW_ABOVE_FILES) show();

  return {
    tick(errorCount) {
      done++;
      errors = errorCount;
      bars?.bar.update(done, payload());
    },
    print(text) {
      // Text on the same terminal goes above the bar; a pipe or a file gets it directly.
      if (bars !== undefined && options.stdoutIsTerminal) bars.multi.log(text.endsWith('\n') ? text : `${text}\n`);
      else options.stdout(text);
    },
    stop() {
      if (timer !== undefined) clearTimeout(timer);
      // Off a terminal (forced with --progress) lines are printed on a schedule: print the final state too.
      if (bars !== undefined && options.stderr.isTTY !== true) bars.multi.update();
      bars?.multi.stop();
    },
  };
}
