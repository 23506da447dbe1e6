/** The pool's worker entry (see pool-worker.ts). */
import { servePoolWorker } from './pool-worker.js';

servePoolWorker();
