/**
 * The pre-commit hook's entry in the Action bundle (runPreCommit), in-process: validate --staged with the options a
 * hook's `args:` gives. test/hook/pre-commit.test.ts installs it with the pre-commit framework.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPreCommit } from '../../src/action/main.js';
import { expectErrorCode, git, minimalBom, tempDirs } from '../helpers.js';

const newDir = tempDirs();

async function hook(dir: string, args: string[] = []) {
  let out = '';
  const code = await runPreCommit(args, dir, (text) => (out += text));
  return { code, out };
}

describe('runPreCommit', () => {
  it('checks the staged BOMs only; --max-warnings counts warnings as validate does', async () => {
    const dir = newDir();
    git(dir, 'init', '-q', '-b', 'main');
    expect(await hook(dir)).toEqual({ code: 0, out: 'No staged BOM documents\n' });
    // The nil serial number is a warning.
    const bom = { ...minimalBom('1.6'), serialNumber: 'urn:uuid:00000000-0000-0000-0000-000000000000' };
    writeFileSync(path.join(dir, 'bom.json'), JSON.stringify(bom));
    writeFileSync(path.join(dir, 'unstaged.json'), '{');
    git(dir, 'add', 'bom.json');
    expect((await hook(dir)).code).toBe(0);
    expect((await hook(dir, ['--max-warnings', '1'])).code).toBe(0);
    const over = await hook(dir, ['--max-warnings', '0']);
    expect([over.code, over.out]).toEqual([1, expect.stringContaining('bom.json')]);
    expect(over.out).not.toContain('unstaged.json');
  });

  it('refuses options validate --staged would not take, in one line with the options it does', async () => {
    const dir = newDir();
    git(dir, 'init', '-q', '-b', 'main');
    for (const args of [['--bogus'], ['bom.json'], ['--max-warnings', '-1'], ['--signatures', 'maybe']]) {
      const error = await runPreCommit(args, dir, () => undefined).then(
        () => undefined,
        (e: unknown) => e,
      );
      expectErrorCode(() => {
        throw error;
      }, 'E_USAGE');
    }
    const unknown = await runPreCommit(['--bogus'], dir, () => undefined).catch((e: Error) => e.message);
    expect(unknown).toMatch(/^Unknown option '--bogus'; the hook takes --trust, .*--max-warnings$/);
  });
});
