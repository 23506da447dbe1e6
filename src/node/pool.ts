import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TrustStore } from '../jsf/trust.js';
import { checkFile, type CheckJob, type CheckOutcome, type CheckSettings } from './check-file.js';
import { STDIN } from './discover.js';

/** Below this many files a pool costs more (thread start-up, loading the engine twice) than it saves. */
const MIN_FILES_FOR_WORKERS = 8;

export function defaultJobs(): number {
  return Math.max(1, availableParallelism());
}

/**
 * More threads than cores only add memory (each loads the engine and holds a document): requests are clamped to
 * the core count, and to the number of files.
 */
function effectiveJobs(requested: number, files: number): number {
  return Math.max(1, Math.min(Math.floor(requested), defaultJobs(), files));
}

/**
 * Checks every job, at most `jobs` at a time, and reports each outcome as soon as it is known (in completion
 * order). Each worker holds one document at a time, so memory stays bounded by the largest documents, not
 * their number. Standard input is always read by the main thread.
 */
export async function checkAll(
  jobList: readonly CheckJob[],
  settings: CheckSettings,
  trust: TrustStore,
  jobs: number,
  onOutcome: (index: number, outcome: CheckOutcome) => void,
): Promise<{ workers: number }> {
  const fileIndexes = jobList.map((job, index) => ({ job, index }));
  const mainThread = fileIndexes.filter(({ job }) => job.source === STDIN);
  const pooled = fileIndexes.filter(({ job }) => job.source !== STDIN);
  for (const { job, index } of mainThread) onOutcome(index, await checkFile(job, settings, trust));
  const workerFile = workerScript();
  if (jobs <= 1 || pooled.length < MIN_FILES_FOR_WORKERS || workerFile === undefined) {
    for (const { job, index } of pooled) onOutcome(index, await checkFile(job, settings, trust));
    return { workers: 0 };
  }
  const workers = effectiveJobs(jobs, pooled.length);
  if (workers <= 1) {
    for (const { job, index } of pooled) onOutcome(index, await checkFile(job, settings, trust));
    return { workers: 0 };
  }
  await runWorkers(pooled, settings, trust, workers, workerFile, onOutcome);
  return { workers };
}

/**
 * The worker thread's entry, relative to this module. Unbundled (the library in dist/) it is worker.js beside
 * this file; a bundle names its own worker entry at build time through this constant (esbuild `define`), and a
 * single-file bundle may name itself, acting as the worker when started as one. From TypeScript sources (the
 * test runner) there is no runnable worker file, so files are checked in this thread.
 */
declare const __BOMWRIGHT_WORKER_ENTRY__: string | undefined;

function workerScript(): string | undefined {
  const entry = typeof __BOMWRIGHT_WORKER_ENTRY__ === 'string' ? __BOMWRIGHT_WORKER_ENTRY__ : './worker.js';
  const url = new URL(entry, import.meta.url);
  if (url.protocol !== 'file:' || url.pathname.endsWith('.ts')) return undefined;
  const file = fileURLToPath(url);
  return existsSync(file) ? file : undefined;
}

function runWorkers(
  queue: { job: CheckJob; index: number }[],
  settings: CheckSettings,
  trust: TrustStore,
  count: number,
  file: string,
  onOutcome: (index: number, outcome: CheckOutcome) => void,
): Promise<void> {
  return new Promise((resolve) => {
    let next = 0;
    let running = count;
    const leftovers: { job: CheckJob; index: number }[] = [];
    const finish = () => {
      if (--running > 0) return;
      // Work dead workers could not do (the files they held, and any never handed out) is done here, so a
      // failing thread never loses a file.
      leftovers.push(...queue.slice(next));
      next = queue.length;
      void (async () => {
        for (const { job, index } of leftovers) onOutcome(index, await checkFile(job, settings, trust));
        resolve();
      })();
    };
    for (let w = 0; w < count; w++) {
      // No execArgv: the parent's may hold `-e SCRIPT`, which a worker would run instead of its entry.
      const worker = new Worker(file, { workerData: { bomwrightPoolWorker: true, settings }, execArgv: [] });
      let current: { job: CheckJob; index: number } | undefined;
      const feed = () => {
        current = queue[next++];
        if (current === undefined) {
          void worker.terminate();
          return;
        }
        worker.postMessage({ id: current.index, job: current.job });
      };
      worker.on('message', (message: { id: number; outcome: CheckOutcome }) => {
        onOutcome(message.id, message.outcome);
        feed();
      });
      let done = false;
      const end = () => {
        if (done) return;
        done = true;
        if (current !== undefined) leftovers.push(current);
        current = undefined;
        finish();
      };
      worker.on('error', end);
      worker.on('exit', end);
      feed();
    }
  });
}
