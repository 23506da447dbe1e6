/**
 * libxml2's parse and XSD validation of one large document in a worker thread, while the main thread reads the
 * model and runs the rules (src/validate/xml.ts). The worker runs engine.ts, the same code as the main thread's
 * path: it loads libxml2-wasm and compiles the version's XSD itself. Only plain data crosses: the UTF-8 bytes in
 * (transferred, not copied), the XmlCheck out. The worker is always terminated, also on errors; a crash becomes
 * one line (E_INTERNAL), never a hang.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { BomwrightError, ERROR_CODES, isBomwrightError, type ErrorCode } from '../errors.js';
import { checkXmlBytes, utf8, type XmlCheck } from './engine.js';
import { xmlSpecVersion, type XmlSpecVersion } from './versions.js';

/**
 * Documents below this many characters stay in the calling thread. The worker saves the main thread's part
 * (reading the model, the rules: about 30-45 ns a character) and costs a thread's start (about 40 ms) and heap
 * (about 10 MB of peak memory): for one document they break even near 1,000,000 characters. But each worker
 * loads libxml2 and compiles the schema again (150-200 ms), which one thread does once for all the documents of
 * a run: near 4,000,000 characters the worker pays off for every document of a run, not only the first.
 */
export const XML_WORKER_MIN_LENGTH = 4_000_000;

/** The worker's answer: the check and the version it validated against, or the error it met. */
export type Answer =
  | { ok: true; check: XmlCheck; version: XmlSpecVersion | undefined }
  | { ok: false; code: ErrorCode | undefined; message: string };

/** The version the model reader picks for a root: a CycloneDX `<bom>`'s namespace (src/validate/xml.ts). */
export function rootVersion(root: { local: string; namespace: string | undefined }): XmlSpecVersion | undefined {
  return root.local === 'bom' ? xmlSpecVersion(root.namespace) : undefined;
}

/**
 * TEST HOOK, inert unless set: BOMWRIGHT_TEST_XML_WORKER=always sends every XML document that may go to the
 * worker there whatever its size and the number of cores, =never keeps every one in the calling thread, so tests
 * can compare both paths on small fixtures. Never set it otherwise.
 */
function testOverride(): 'always' | 'never' | undefined {
  const value = process.env.BOMWRIGHT_TEST_XML_WORKER;
  return value === 'always' || value === 'never' ? value : undefined;
}

/**
 * Whether libxml2 checks this text in a worker: a large document, on a machine with a spare core, from the main
 * thread (a thread of the validate --jobs pool has no spare core: the pool uses them all), with a worker entry to
 * start. A DOCTYPE (the reader refuses it before libxml2 may see it) keeps the document in this thread.
 */
export function xmlWorkerFor(text: string): string | undefined {
  const wanted = wantsXmlWorker(text, { override: testOverride(), cores: availableParallelism(), isMainThread });
  return wanted ? workerScript() : undefined;
}

/** {@link xmlWorkerFor}'s decision on what it depends on (the test switch, the cores, the thread), given. */
export function wantsXmlWorker(
  text: string,
  context: { override: 'always' | 'never' | undefined; cores: number; isMainThread: boolean },
): boolean {
  if (context.override === 'never') return false;
  if (context.override === undefined && (text.length < XML_WORKER_MIN_LENGTH || context.cores < 2)) return false;
  return context.isMainThread && !text.includes('<!DOCTYPE');
}

/**
 * The worker's entry, relative to this module: engine-worker.js beside it in the library (dist/); a bundle names
 * its own at build time (esbuild `define`; the Action's bundle is its own entry). From TypeScript sources (the
 * test runner) there is no runnable entry: the check stays in this thread.
 */
declare const __BOMWRIGHT_XML_WORKER_ENTRY__: string | undefined;

function workerScript(): string | undefined {
  const entry =
    typeof __BOMWRIGHT_XML_WORKER_ENTRY__ === 'string' ? __BOMWRIGHT_XML_WORKER_ENTRY__ : './engine-worker.js';
  const url = new URL(entry, import.meta.url);
  if (url.protocol !== 'file:' || url.pathname.endsWith('.ts')) return undefined;
  const file = fileURLToPath(url);
  return existsSync(file) ? file : undefined;
}

/**
 * A check under way in a worker: `result` answers it for the version the caller's reader names (undefined in the
 * unexpected case that libxml2's root names another: the caller then checks in its own thread); `stop` ends the
 * worker (idempotent: call it on every way out).
 */
export interface XmlWorkerCheck {
  result(version: XmlSpecVersion | undefined): Promise<XmlCheck | undefined>;
  stop(): void;
}

/**
 * Starts libxml2's check of `text` in a worker (from `xmlWorkerFor`); undefined when no thread can be started
 * (the caller then checks in its own thread). The UTF-8 bytes are made here and transferred. The worker is
 * unref'd, so it never holds the process open, and referenced only while `result` waits for it.
 */
export function startXmlWorker(file: string, text: string): XmlWorkerCheck | undefined {
  let worker: Worker;
  try {
    // No execArgv: the parent's may hold `-e SCRIPT`, which a worker would run instead of its entry.
    worker = new Worker(file, { workerData: { bomwrightXmlEngine: true }, execArgv: [] });
  } catch {
    return undefined;
  }
  worker.unref();
  const answer = new Promise<Answer>((resolve) => {
    worker.once('message', (message: Answer) => resolve(message));
    worker.once('error', (error: Error) =>
      resolve({ ok: false, code: 'E_INTERNAL', message: `The XML engine's thread failed: ${firstLine(error)}` }),
    );
    worker.once('exit', (code: number) =>
      resolve({
        ok: false,
        code: 'E_INTERNAL',
        message: `The XML engine's thread stopped before it answered (exit code ${code})`,
      }),
    );
  });
  const bytes = utf8(text);
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  worker.postMessage(bytes, whole ? [bytes.buffer as ArrayBuffer] : []);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    void worker.terminate();
  };
  return {
    stop,
    async result(version) {
      worker.ref();
      let answered: Answer;
      try {
        answered = await answer;
      } finally {
        stop();
      }
      if (!answered.ok)
        throw answered.code === undefined
          ? new Error(answered.message)
          : new BomwrightError(answered.code, answered.message);
      // The worker read the version from libxml2's root, the caller from its own reader's root (a document that
      // is not well-formed is that whatever the version).
      return !answered.check.wellFormed || answered.version === version ? answered.check : undefined;
    },
  };
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? '';
}

/** True in a thread startXmlWorker started: a single-file bundle that is its own worker entry checks this first. */
export function isXmlEngineThread(): boolean {
  return !isMainThread && (workerData as { bomwrightXmlEngine?: unknown } | null)?.bomwrightXmlEngine === true;
}

/** The worker's side: one document's bytes in, one answer out (the thread's shim around {@link engineAnswer}). */
// Stryker disable all: runs only inside a worker thread, which no in-process test reaches (its logic is engineAnswer's)
export function serveXmlEngine(): void {
  parentPort?.once('message', (bytes: Uint8Array) => {
    void engineAnswer(bytes).then((answer) => parentPort?.postMessage(answer));
  });
}
// Stryker restore all

/** The answer to one document's UTF-8 bytes: libxml2's check, or the error it met as plain data. */
export async function engineAnswer(bytes: Uint8Array): Promise<Answer> {
  try {
    const { check, version } = await checkXmlBytes(bytes, rootVersion);
    return { ok: true, check, version };
  } catch (error) {
    return {
      ok: false,
      code: isBomwrightError(error) && ERROR_CODES.includes(error.code) ? error.code : undefined,
      message: firstLine(error),
    };
  }
}
