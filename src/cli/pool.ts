import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TrustStore } from '../jsf/trust.js';
import { checkFile, type CheckJob, type CheckOutcome, type CheckSettings } from './check-file.js';
import { STDIN } from './inputs.js';

/** Below this many files a pool costs more (thread start-up, loading the engine twice) than it saves. */
const MIN_FILES_FOR_WORKERS = 8;

export function defaultJobs(): number {
  return Math.max(1, availableParallelism());
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
): Promise<void> {
  const fileIndexes = jobList.map((job, index) => ({ job, index }));
  const mainThread = fileIndexes.filter(({ job }) => job.source === STDIN);
  const pooled = fileIndexes.filter(({ job }) => job.source !== STDIN);
  for (const { job, index } of mainThread) onOutcome(index, await checkFile(job, settings, trust));
  const workerFile = workerScript();
  if (jobs <= 1 || pooled.length < MIN_FILES_FOR_WORKERS || workerFile === undefined) {
    for (const { job, index } of pooled) onOutcome(index, await checkFile(job, settings, trust));
    return;
  }
  await runWorkers(pooled, settings, trust, Math.min(jobs, pooled.length), workerFile, onOutcome);
}

/** The bundled worker entry beside the bundled CLI; absent when running from sources (tests of the library). */
function workerScript(): string | undefined {
  const url = new URL('./worker.cjs', import.meta.url);
  return url.pathname.endsWith('/bundle/worker.cjs') ? fileURLToPath(url) : undefined;
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
      // Work a dead worker could not do is done here, so a failing thread never loses a file.
      void (async () => {
        for (const { job, index } of leftovers) onOutcome(index, await checkFile(job, settings, trust));
        resolve();
      })();
    };
    for (let w = 0; w < count; w++) {
      const worker = new Worker(file, { workerData: { settings } });
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
