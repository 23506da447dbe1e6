/**
 * A worker thread of the validation pool: loads the trust material once, then checks one file per message.
 * Only plain data crosses the thread boundary (jobs in, outcomes out).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { checkFile, type CheckJob, type CheckSettings } from './check-file.js';
import { loadTrustStore } from './key-files.js';

const settings = (workerData as { settings: CheckSettings }).settings;
const trust = loadTrustStore(settings.trustPaths, settings.trustRootPaths);

parentPort?.on('message', (message: { id: number; job: CheckJob }) => {
  void checkFile(message.job, settings, trust).then((outcome) => parentPort?.postMessage({ id: message.id, outcome }));
});
