/**
 * The XML engine's worker thread (src/xml/engine-thread.ts), in-process: when a document goes to a worker, the
 * answer the worker's side gives for a document's bytes, and the calling side of a worker (its answer, its
 * errors, a worker that ends without answering), driven by small worker scripts. The whole path through the
 * built worker entry is parallel.test.ts's.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BomwrightError, isBomwrightError } from '../../src/errors.js';
import {
  engineAnswer,
  isXmlEngineThread,
  rootVersion,
  startXmlWorker,
  wantsXmlWorker,
  XML_WORKER_MIN_LENGTH,
} from '../../src/xml/engine-thread.js';
import { utf8 } from '../../src/xml/engine.js';
import { tempDirs } from '../helpers.js';

const newDir = tempDirs('bomwright-engine-thread-');
const NS = 'http://cyclonedx.org/schema/bom/1.6';
const VALID = `<bom xmlns="${NS}" version="1"/>`;

describe('which documents go to a worker', () => {
  const context = { override: undefined, cores: 2, isMainThread: true } as const;
  const long = (length: number) => ' '.repeat(length);

  it('from the threshold’s length on, with two cores or more, from the main thread', () => {
    expect(wantsXmlWorker(long(XML_WORKER_MIN_LENGTH), context)).toBe(true);
    expect(wantsXmlWorker(long(XML_WORKER_MIN_LENGTH - 1), context)).toBe(false);
    expect(wantsXmlWorker(long(XML_WORKER_MIN_LENGTH), { ...context, cores: 1 })).toBe(false);
    expect(wantsXmlWorker(long(XML_WORKER_MIN_LENGTH), { ...context, cores: 8 })).toBe(true);
    expect(wantsXmlWorker(long(XML_WORKER_MIN_LENGTH), { ...context, isMainThread: false })).toBe(false);
  });

  it('never a document with a DOCTYPE (the reader refuses it first)', () => {
    const doctype = `<!DOCTYPE bom>${long(XML_WORKER_MIN_LENGTH)}`;
    expect(wantsXmlWorker(doctype, context)).toBe(false);
    expect(wantsXmlWorker('<!DOCTYPE bom><bom/>', { ...context, override: 'always' })).toBe(false);
  });

  it('the test switch: always whatever the size and cores (not from another thread), never whatever they are', () => {
    expect(wantsXmlWorker(VALID, { ...context, override: 'always', cores: 1 })).toBe(true);
    expect(wantsXmlWorker(VALID, { ...context, override: 'always', isMainThread: false })).toBe(false);
    expect(wantsXmlWorker(long(XML_WORKER_MIN_LENGTH), { ...context, override: 'never' })).toBe(false);
  });

  it('the version the model reader picks: a CycloneDX <bom> root only', () => {
    expect(rootVersion({ local: 'bom', namespace: NS })).toBe('1.6');
    expect(rootVersion({ local: 'bom', namespace: undefined })).toBeUndefined();
    expect(rootVersion({ local: 'component', namespace: NS })).toBeUndefined();
    expect(isXmlEngineThread()).toBe(false);
  });
});

describe("the worker's answer", () => {
  it('a document checked against the XSD its root names, or for well-formedness alone', async () => {
    expect(await engineAnswer(utf8(VALID))).toEqual({
      ok: true,
      check: { wellFormed: true, problems: [] },
      version: '1.6',
    });
    const invalid = await engineAnswer(utf8(`<bom xmlns="${NS}" version="x"/>`));
    expect(invalid).toMatchObject({ ok: true, check: { wellFormed: true }, version: '1.6' });
    expect(invalid.ok && invalid.check.problems.length).toBe(1);
    expect(await engineAnswer(utf8('<project/>'))).toEqual({
      ok: true,
      check: { wellFormed: true, problems: [] },
      version: undefined,
    });
    expect(await engineAnswer(utf8('<bom'))).toMatchObject({ ok: true, check: { wellFormed: false } });
  });

  it('an error is plain data: its first line, and its code when it is one of bomwright’s', async () => {
    /** Bytes that fail as soon as the engine reads them, with `error`. */
    const failing = (error: unknown) =>
      new Proxy(new Uint8Array(4), {
        get() {
          throw error;
        },
      });
    expect(await engineAnswer(failing(new BomwrightError('E_INPUT', 'first\nsecond')))).toEqual({
      ok: false,
      code: 'E_INPUT',
      message: 'first',
    });
    expect(await engineAnswer(failing(new Error('plain\nmore')))).toEqual({
      ok: false,
      code: undefined,
      message: 'plain',
    });
    expect(await engineAnswer(failing('a string'))).toEqual({ ok: false, code: undefined, message: 'a string' });
  });
});

describe('the calling side of a worker', () => {
  /** A worker script that answers the bytes it is sent with `answer` (JavaScript of `bytes`). */
  function worker(source: string): string {
    const file = path.join(newDir(), 'worker.mjs');
    writeFileSync(file, `import { parentPort } from 'node:worker_threads';\n${source}\n`);
    return file;
  }
  const echo = worker(
    `parentPort.once('message', (bytes) => parentPort.postMessage({ ok: true, version: '1.6', check: {
      wellFormed: new TextDecoder().decode(bytes) !== 'broken',
      problems: [{ message: new TextDecoder().decode(bytes), line: bytes.length, column: 0 }] } }));`,
  );

  it('sends the document as UTF-8 and gives the answer for the version the caller names', async () => {
    const text = 'caf\u00e9';
    const check = await startXmlWorker(echo, text)!.result('1.6');
    expect(check).toEqual({ wellFormed: true, problems: [{ message: text, line: 5, column: 0 }] });
  });

  it('an answer for another version is no answer (the caller checks itself); not well-formed is for any', async () => {
    expect(await startXmlWorker(echo, 'x')!.result('1.5')).toBeUndefined();
    expect(await startXmlWorker(echo, 'x')!.result(undefined)).toBeUndefined();
    expect(await startXmlWorker(echo, 'broken')!.result('1.5')).toMatchObject({ wellFormed: false });
  });

  it('an error the worker met: a BomwrightError with its code, else a plain error', async () => {
    const coded = worker(
      `parentPort.once('message', () => parentPort.postMessage({ ok: false, code: 'E_SCHEMA_MISSING', message: 'no engine' }));`,
    );
    const error = await startXmlWorker(coded, VALID)!
      .result('1.6')
      .catch((e: unknown) => e);
    expect(isBomwrightError(error) && [error.code, error.message]).toEqual(['E_SCHEMA_MISSING', 'no engine']);
    const plain = worker(`parentPort.once('message', () => parentPort.postMessage({ ok: false, message: 'odd' }));`);
    const other = await startXmlWorker(plain, VALID)!
      .result('1.6')
      .catch((e: unknown) => e);
    expect(other).toBeInstanceOf(Error);
    expect(isBomwrightError(other)).toBe(false);
    expect((other as Error).message).toBe('odd');
  });

  it('a worker that ends without answering, or fails, is one line (E_INTERNAL), never a hang', async () => {
    const failure = async (source: string) => {
      const error = await startXmlWorker(worker(source), VALID)!
        .result('1.6')
        .catch((e: unknown) => e);
      return isBomwrightError(error) ? `${error.code}: ${error.message}` : String(error);
    };
    expect(await failure('process.exit(7);')).toBe(
      "E_INTERNAL: The XML engine's thread stopped before it answered (exit code 7)",
    );
    expect(await failure('')).toBe("E_INTERNAL: The XML engine's thread stopped before it answered (exit code 0)");
    expect(await failure("throw new Error('first line\\nsecond line');")).toBe(
      "E_INTERNAL: The XML engine's thread failed: first line",
    );
  });

  it('no worker where none can be started; stop ends it, twice harmlessly', async () => {
    expect(startXmlWorker('not/a/valid/worker/path.js', VALID)).toBeUndefined();
    const waiting = worker(`parentPort.once('message', () => {});`);
    const started = startXmlWorker(waiting, VALID)!;
    started.stop();
    started.stop();
    await expect(started.result('1.6')).rejects.toThrow(/stopped before it answered/);
  });
});
