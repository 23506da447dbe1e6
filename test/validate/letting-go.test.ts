/**
 * A document read from a file is parsed without its text being kept: once JSON.parse has returned, nothing may
 * refer to the text, so the collection V8 starts during a large parse frees it (case F of bench/: 337 → 309 MiB).
 * Measured in a child process started with --expose-gc, on the build: the heap in use is read, after a full
 * collection, while the tree is walked and while the rules run. With the text still held it would be about the
 * tree's size more. This is the reachability half only: whether V8's collection frees the text also depends on when
 * it marked what, which case F of bench/ measures (a restructure that passed these tests still kept it there).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file: string) => JSON.stringify(path.join(root, 'dist', file));
/** The text is a 40 MB string member: the tree holds a copy of it, so a held text doubles the heap. */
const SIZE = 40_000_000;

function heapInChild(script: string): Record<string, number> {
  const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout) as Record<string, number>;
}

describe('a rereadable document lets go of its text once parsed', () => {
  it('parseJsonTextLettingGo: the text is garbage while the tree is walked', () => {
    const measured = heapInChild(`
      const { parseJsonTextLettingGo } = await import(${dist('json/parse.js')});
      const { decodedText } = await import(${dist('json/decode.js')});
      const make = () => '{"a":"' + 'x'.repeat(${SIZE}) + '","b":[true]}';
      let during = 0;
      const result = parseJsonTextLettingGo(make, () => decodedText(make()), (tree, members) => {
        globalThis.gc();
        during = process.memoryUsage().heapUsed;
        return members === 2;
      });
      process.stdout.write(JSON.stringify({ during, length: result.value.a.length }));
    `);
    expect(measured.length).toBe(SIZE);
    expect(measured.during).toBeGreaterThan(SIZE);
    expect(measured.during).toBeLessThan(SIZE * 1.5);
  });

  it('validate(): the text is garbage while the rules run on a document read from a source', () => {
    const measured = heapInChild(`
      const { validate, RereadableSource } = await import(${dist('validate/index.js')});
      const { decodedText } = await import(${dist('json/decode.js')});
      const make = () => JSON.stringify({
        bomFormat: 'CycloneDX', specVersion: '1.6', version: 2,
        serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
        metadata: { component: { type: 'application', name: 'app', description: 'x'.repeat(${SIZE}) } },
      });
      let during = 0;
      // The version rule reads the baseline's serialNumber while the rules run, after the parse.
      const baseline = { bomFormat: 'CycloneDX', specVersion: '1.6', version: 1,
        get serialNumber() {
          globalThis.gc();
          during = process.memoryUsage().heapUsed;
          return 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79';
        } };
      const result = await validate(new RereadableSource(() => decodedText(make())), { baseline: { document: baseline } });
      process.stdout.write(JSON.stringify({ during, valid: result.valid ? 1 : 0 }));
    `);
    expect(measured.valid).toBe(1);
    expect(measured.during).toBeGreaterThan(SIZE);
    expect(measured.during).toBeLessThan(SIZE * 1.5);
  });
});
