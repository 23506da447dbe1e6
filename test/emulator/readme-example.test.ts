/**
 * docs/emulator.md's "The emulator in your own tests" shows a complete vitest file: it is taken from the page as it
 * stands and run by vitest in a folder of its own, where `bomwright` is this (built) package.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDirs } from '../helpers.js';

const newDir = tempDirs();
const run = promisify(execFile);

/** The first ```ts block of a page's section. */
export function sectionBlock(readme: string, heading: string): string {
  const start = readme.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`the page has no section "${heading}"`);
  const rest = readme.slice(start + heading.length + 2);
  const next = rest.search(/^#{1,3} /m);
  const section = next === -1 ? rest : rest.slice(0, next);
  const block = /^```ts\n([\s\S]*?)^```$/m.exec(section);
  if (block === null) throw new Error(`The section "${heading}" has no ts block`);
  return block[1]!;
}

describe('docs/emulator.md: the emulator in your own tests', () => {
  const page = readFileSync(path.join(ROOT, 'docs/emulator.md'), 'utf8');
  const block = sectionBlock(page, '## The emulator in your own tests');

  it('is a whole test file that uses the journal, a reset and a fault rule', () => {
    expect(block).toContain("from 'bomwright/emulator'");
    expect(block).toMatch(/emulator\.requests\(/);
    expect(block).toMatch(/emulator\.reset\(\)/);
    expect(block).toMatch(/setFaults\(\[\{[^\]]*fault: 503/);
  });

  it('passes when vitest runs it against the built package', async () => {
    const dir = newDir();
    mkdirSync(path.join(dir, 'node_modules'));
    symlinkSync(ROOT, path.join(dir, 'node_modules', 'bomwright'), 'dir');
    symlinkSync(path.join(ROOT, 'node_modules', 'vitest'), path.join(dir, 'node_modules', 'vitest'), 'dir');
    writeFileSync(path.join(dir, 'emulator.test.ts'), block);
    const vitest = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    const result = await run(process.execPath, [vitest, 'run', '--root', dir, '--reporter', 'verbose'], {
      cwd: dir,
      env: { ...process.env, CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
    }).catch((error: { stdout: string; stderr: string }) => {
      throw new Error(`the page's test file failed:\n${error.stdout}\n${error.stderr}`);
    });
    const tests = [...block.matchAll(/^it\('([^']+)'/gm)].map((m) => m[1]!);
    expect(tests).toHaveLength(3);
    for (const name of tests) expect(result.stdout).toMatch(new RegExp(`✓ emulator\\.test\\.ts > ${name}`));
    expect(result.stdout).toMatch(/Tests\s+3 passed \(3\)/);
  });
});
