import { spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/node/write.js';
import { expectErrorCode, tempDir } from '../helpers.js';

describe('writeFileAtomic', () => {
  it('replaces a file in one step and keeps its mode', () => {
    const dir = tempDir();
    const file = path.join(dir, 'bom.json');
    writeFileSync(file, 'old', { mode: 0o640 });
    writeFileAtomic(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir)).toEqual(['bom.json']);
  });

  it('writes through a symbolic link: the link stays a link and its target changes', () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'real'));
    const target = path.join(dir, 'real/bom.json');
    const link = path.join(dir, 'link.json');
    writeFileSync(target, 'v1');
    symlinkSync(target, link);
    writeFileAtomic(link, 'v2');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('v2');
    // A link to a link is followed to the end.
    const chained = path.join(dir, 'chained.json');
    symlinkSync(link, chained);
    writeFileAtomic(chained, 'v3');
    expect(lstatSync(chained).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('v3');
  });

  it('refuses a dangling link and a directory, and names the reason', () => {
    const dir = tempDir();
    const dangling = path.join(dir, 'dangling.json');
    symlinkSync(path.join(dir, 'missing.json'), dangling);
    expect(expectErrorCode(() => writeFileAtomic(dangling, 'x'), 'E_WRITE').message).toMatch(
      /symbolic link to nothing/,
    );
    expect(lstatSync(dangling).isSymbolicLink()).toBe(true);
    expect(expectErrorCode(() => writeFileAtomic(dir, 'x'), 'E_WRITE').message).toMatch(/is a directory/);
    // A missing folder is created; one that cannot be (a file is in the way) is refused.
    writeFileAtomic(path.join(dir, 'new/folder/file.json'), 'x');
    expect(readFileSync(path.join(dir, 'new/folder/file.json'), 'utf8')).toBe('x');
    writeFileAtomic(path.join(dir, 'plain'), 'x');
    expect(expectErrorCode(() => writeFileAtomic(path.join(dir, 'plain/sub/file.json'), 'x'), 'E_WRITE').message).toBe(
      `Cannot write ${path.join(dir, 'plain/sub/file.json')}: its folder cannot be created, ${path.join(dir, 'plain')} is a file`,
    );
    expect(expectErrorCode(() => writeFileAtomic(path.join(dir, 'x'.repeat(300)), 'x'), 'E_WRITE').message).toMatch(
      /path is too long/,
    );
  });

  it.skipIf(!existsSync('/proc/version'))(
    'says what failed in a folder that takes no new files, and returns (recursive mkdir never does under /proc)',
    () => {
      // A regular file by stat, in a folder where no temporary file can be made: the folder is what failed.
      expect(expectErrorCode(() => writeFileAtomic('/proc/version', 'x'), 'E_WRITE').message).toBe(
        'Cannot write /proc/version: its folder /proc does not take new files (a special file system)',
      );
      expect(expectErrorCode(() => writeFileAtomic('/proc/bomwright-missing/sub/link', 'x'), 'E_WRITE').message).toBe(
        'Cannot write /proc/bomwright-missing/sub/link: its folder /proc does not take new files (a special file system)',
      );
    },
  );

  it.skipIf(process.getuid?.() === 0)('says a folder that is not writable is not writable', () => {
    const dir = tempDir();
    const locked = path.join(dir, 'locked');
    mkdirSync(locked, { mode: 0o555 });
    expect(expectErrorCode(() => writeFileAtomic(path.join(locked, 'bom.json'), 'x'), 'E_WRITE').message).toBe(
      `Cannot write ${path.join(locked, 'bom.json')}: its folder ${locked} is not writable (permission denied)`,
    );
    expect(expectErrorCode(() => writeFileAtomic(path.join(locked, 'a/bom.json'), 'x'), 'E_WRITE').message).toBe(
      `Cannot write ${path.join(locked, 'a/bom.json')}: its folder ${locked} is not writable (permission denied)`,
    );
  });

  it('writes to a character device instead of replacing it', () => {
    writeFileAtomic('/dev/null', 'discarded');
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('removes temporary files that a killed writer left behind, and only those', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'bom.json');
    writeFileSync(file, 'old');
    // A process that has exited: its pid is free (and not reused this quickly).
    const dead = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '0']);
      child.on('exit', () => resolve(child.pid!));
    });
    const stale = `.bom.json.${dead}-1700000000000-1.tmp`;
    const live = `.bom.json.${process.pid}-1700000000000-99.tmp`;
    const other = `.other.json.${dead}-1700000000000-1.tmp`;
    for (const name of [stale, live, other]) writeFileSync(path.join(dir, name), 'partial');
    writeFileAtomic(file, 'new');
    expect(readdirSync(dir).sort()).toEqual([live, other, 'bom.json'].sort());
  });
});
