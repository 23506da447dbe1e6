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
    for (const name of ['index.cjs', 'THIRD-PARTY-NOTICES.txt']) {
      const committed = readFileSync(path.join(ROOT, 'action/dist', name));
      const rebuilt = readFileSync(path.join(path.dirname(fresh), name));
      if (!committed.equals(rebuilt))
        throw new Error(`action/dist/${name} is stale: run npm run build:action and commit the result`);
      expect(committed.length).toBeGreaterThan(10_000);
    }
    // Every package the bundle carries has its licence beside it.
    const notices = readFileSync(path.join(ROOT, 'action/dist/THIRD-PARTY-NOTICES.txt'), 'utf8');
    for (const name of ['fast-glob', 'ajv', '@cyclonedx/cyclonedx-library']) expect(notices).toContain(`\n${name}@`);
  }, 60_000);
});
