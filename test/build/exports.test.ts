/**
 * No dead exports: a name a module of src/ exports is used by another file (src, tests, benchmarks, the bin), so
 * what a module offers is what others take, and a function nobody calls does not hide behind `export`. Read as
 * text, a word anywhere else counts as a use, so this can only miss dead code, never flag live code wrongly.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

/** Modules whose exports are used where this check cannot see it, with the reason. */
const ENTRY_POINTS: Record<string, string> = {
  'src/index.ts': 'the library API',
  'src/service/resources.ts': "the service's resource types, re-exported whole by src/service/index.ts (export type *)",
  'src/cli/fast-args.ts': "the CLI fast path's bundle entry (src/build/bundle.ts), loaded by bin/bomwright.cjs",
};

describe('exports', () => {
  it('every export of src/ is used by another file', () => {
    const files = fg.sync(
      ['src/**/*.ts', 'test/**/*.{ts,mjs,js}', 'bench/**/*.{js,cjs,mjs}', 'bin/*', 'action/*.cjs'],
      {
        cwd: ROOT,
        ignore: ['**/node_modules/**', 'test/fixtures/**', 'bench/.data/**'],
      },
    );
    const texts = new Map(files.map((file) => [file, readFileSync(path.join(ROOT, file), 'utf8')]));
    const unused: string[] = [];
    let exports = 0;
    for (const [file, text] of texts) {
      if (!file.startsWith('src/') || file in ENTRY_POINTS || file.startsWith('src/build/')) continue;
      for (const [, name] of text.matchAll(
        /^export (?:declare )?(?:async )?(?:function\*? |const |let |class |interface |type |enum |abstract class )(\w+)/gm,
      )) {
        exports++;
        const word = new RegExp(`\\b${name}\\b`);
        if (![...texts].some(([other, otherText]) => other !== file && word.test(otherText)))
          unused.push(`${file}: ${name}`);
      }
    }
    expect(unused).toEqual([]);
    expect(exports).toBeGreaterThan(300);
  });
});
