/**
 * A worker thread of the validation pool: loads the trust material once, then checks one file per message.
 * Only plain data crosses the thread boundary (jobs in, outcomes out).
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { checkFile, type CheckJob, type CheckSettings } from './check-file.js';
import { loadTrustStore } from './keys.js';

/** True in a thread the pool started: a single-file bundle that is its own worker entry checks this first. */
export function isPoolWorker(): boolean {
  return !isMainThread && (workerData as { bomwrightPoolWorker?: unknown } | null)?.bomwrightPoolWorker === true;
}

export function servePoolWorker(): void {
  const settings = (workerData as { settings: CheckSettings }).settings;
  const trust = loadTrustStore(settings.trustPaths, settings.trustRootPaths);
  parentPort?.on('message', (message: { id: number; job: CheckJob }) => {
    void checkFile(message.job, settings, trust).then((outcome) =>
      parentPort?.postMessage({ id: message.id, outcome }),
    );
  });
}
