import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers.js';

describe('the committed Action bundle', () => {
  it('is what the sources build today (run npm run build:action and commit action/dist when this fails)', async () => {
    const { buildAction } = (await import(path.join(ROOT, 'dist/build/action.js'))) as {
      buildAction: (outfile: string) => Promise<void>;
    };
    const fresh = path.join(tempDir(), 'index.cjs');
    await buildAction(fresh);
    const committed = readFileSync(path.join(ROOT, 'action/dist/index.cjs'));
    const rebuilt = readFileSync(fresh);
    if (!committed.equals(rebuilt))
      throw new Error('action/dist/index.cjs is stale: run npm run build:action and commit the result');
    expect(committed.length).toBeGreaterThan(100_000);
  }, 60_000);
});
