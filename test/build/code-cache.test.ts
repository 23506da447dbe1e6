import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

  const { stampBundle, unstampBundle } = createRequire(import.meta.url)(LOADER) as {
    stampBundle: (source: string) => string;
    unstampBundle: (source: string) => string;
  };
  const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 24);
  const suffix = `-${process.version}-${process.arch}.cache`;

  it('are found by the digest the build stamped on the bundle, so a run hashes nothing', () => {
    const dir = tempDir();
    const bundle = path.join(dir, 'b.cjs');
    const source = 'module.exports = { value: "stamped" };';
    const stamped = stampBundle(source);
    expect(stamped).toBe(`${source}\n//# bomwright-source-digest=${digest(source)}\n`);
    expect(unstampBundle(stamped)).toBe(source);
    writeFileSync(bundle, stamped);
    expect(load(bundle, 'writeCodeCaches();')).toBe('stamped');
    expect(readdirSync(dir).filter((f) => f.endsWith('.cache'))).toEqual([`b.cjs.${digest(source)}${suffix}`]);
    // The key is read, not computed: a stamp that does not match the text still names the cache (the build
    // stamps what it wrote, so only a hand-edited bundle could disagree).
    const forged = `${source}\n//# bomwright-source-digest=${'0'.repeat(24)}\n`;
    writeFileSync(bundle, forged);
    expect(load(bundle, 'writeCodeCaches();')).toBe('stamped');
    expect(readdirSync(dir).filter((f) => f.endsWith('.cache'))).toEqual([`b.cjs.${'0'.repeat(24)}${suffix}`]);
  });

  it('are found by a digest of the whole text when the stamp is absent or malformed', () => {
    const dir = tempDir();
    const bundle = path.join(dir, 'b.cjs');
    for (const source of [
      'module.exports = { value: "plain" };',
      // 23 and 25 hex digits, upper case, no final newline: not a stamp.
      `module.exports = { value: "plain" };\n//# bomwright-source-digest=${'a'.repeat(23)}\n`,
      `module.exports = { value: "plain" };\n//# bomwright-source-digest=${'a'.repeat(25)}\n`,
      `module.exports = { value: "plain" };\n//# bomwright-source-digest=${'A'.repeat(24)}\n`,
      `module.exports = { value: "plain" };\n//# bomwright-source-digest=${'a'.repeat(24)}`,
      `module.exports = { value: "plain" };\n//# bomwright-source-digest=${'a'.repeat(24)}\n\n`,
    ]) {
      writeFileSync(bundle, source);
      expect(unstampBundle(source)).toBe(source);
      expect(load(bundle, 'writeCodeCaches();')).toBe('plain');
      expect(readdirSync(dir).filter((f) => f.endsWith('.cache'))).toEqual([`b.cjs.${digest(source)}${suffix}`]);
    }
  });

  it('of the built bundles are stamped, and the stamps are right', () => {
    for (const file of ['dist/bundle/cli.cjs', 'dist/bundle/fast.cjs', 'generated/validators/cyclonedx-1.6.cjs']) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      const source = unstampBundle(text);
      expect(source.length, file).toBeLessThan(text.length);
      expect(stampBundle(source), file).toBe(text);
    }
  });
});
