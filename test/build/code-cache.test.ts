import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers.js';

const LOADER = path.join(ROOT, 'dist/runtime/code-cache.cjs');

/** Loads `bundle` through the code-cache loader in a fresh process and prints what it exports. */
function load(bundle: string, extra = ''): string {
  const script = `
    const { requireBundle, writeCodeCaches } = require(${JSON.stringify(LOADER)});
    const value = requireBundle(${JSON.stringify(bundle)}).value;
    ${extra}
    console.log(value);
  `;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return run.stdout.trim();
}

describe('code caches', () => {
  it('never run old code after a rebuild of the same length', () => {
    const dir = tempDir();
    const bundle = path.join(dir, 'b.cjs');
    // Two sources of exactly the same length: V8 alone would accept the first one's cache for the second.
    const first = 'module.exports = { value: "old" + (function f(n) { return n; })(1) };';
    const second = 'module.exports = { value: "new" + (function f(n) { return n; })(2) };';
    expect(first.length).toBe(second.length);
    writeFileSync(bundle, first);
    expect(load(bundle, 'writeCodeCaches();')).toBe('old1');
    expect(readdirSync(dir).filter((f) => f.endsWith('.cache'))).toHaveLength(1);
    expect(load(bundle)).toBe('old1');
    writeFileSync(bundle, second);
    expect(load(bundle)).toBe('new2');
    // The first run of the new build left its own cache and removed the old one.
    const caches = readdirSync(dir).filter((f) => f.endsWith('.cache'));
    expect(caches).toHaveLength(1);
    expect(load(bundle)).toBe('new2');
  });
});
