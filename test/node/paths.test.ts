import { linkSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayPath, refuseOverwriting, repositoryRoot, toPosix } from '../../src/node/paths.js';
import { expectErrorCode, tempDirs } from '../helpers.js';

const newDir = tempDirs('bomwright-paths-');
// realpath: os.tmpdir() may itself be a symlink, and the functions resolve paths textually.
const scratch = (): string => realpathSync(newDir());

describe('repositoryRoot', () => {
  it('is the nearest ancestor holding .git, folder or file (a worktree)', () => {
    const root = scratch();
    const nested = path.join(root, 'a', 'b', 'c');
    mkdirSync(nested, { recursive: true });
    mkdirSync(path.join(root, '.git'));
    expect(repositoryRoot(nested)).toBe(root);
    expect(repositoryRoot(root)).toBe(root);
    writeFileSync(path.join(root, 'a', '.git'), 'gitdir: elsewhere\n');
    expect(repositoryRoot(nested)).toBe(path.join(root, 'a'));
    expect(repositoryRoot(path.join(root, 'a'))).toBe(path.join(root, 'a'));
  });

  it('is the folder itself, made absolute, when no ancestor holds .git', () => {
    const root = scratch();
    const nested = path.join(root, 'x', 'y');
    mkdirSync(nested, { recursive: true });
    expect(repositoryRoot(nested)).toBe(nested);
    expect(repositoryRoot(path.join(nested, '..', 'y', '.'))).toBe(nested);
    const relative = path.relative(process.cwd(), nested);
    expect(path.isAbsolute(relative)).toBe(false);
    expect(repositoryRoot(relative)).toBe(nested);
  });
});

describe('toPosix', () => {
  it('joins the platform separator as forward slashes and leaves other text unchanged', () => {
    expect(toPosix(['a', 'b', 'c.json'].join(path.sep))).toBe('a/b/c.json');
    expect(toPosix('bom.json')).toBe('bom.json');
    expect(toPosix('')).toBe('');
  });
});

describe('displayPath', () => {
  const base = path.resolve('/work/project');

  it('is relative to base, with forward slashes, for a file inside it', () => {
    expect(displayPath(path.join(base, 'boms', 'app.json'), base)).toBe('boms/app.json');
    expect(displayPath(path.join(base, 'app.json'), base)).toBe('app.json');
    // A name that merely starts with two dots is still inside base.
    expect(displayPath(path.join(base, '..boms', 'app.json'), base)).toBe('..boms/app.json');
    expect(displayPath(path.join(base, '..'), base)).toBe(toPosix(path.resolve('/work')));
  });

  it('is the file as given for base itself and for files outside base', () => {
    expect(displayPath(base, base)).toBe(toPosix(base));
    expect(displayPath(path.resolve('/work/other/app.json'), base)).toBe('/work/other/app.json');
    expect(displayPath(path.resolve('/work/project-2/app.json'), base)).toBe('/work/project-2/app.json');
    expect(displayPath(path.resolve('/work'), base)).toBe('/work');
  });
});

describe('refuseOverwriting', () => {
  function setup() {
    const dir = scratch();
    const input = path.join(dir, 'bom.json');
    const key = path.join(dir, 'key.pem');
    writeFileSync(input, '{}');
    writeFileSync(key, 'KEY');
    return { dir, input, key };
  }

  it('allows an output that does not exist yet, even beside missing protected files', () => {
    const { dir, input } = setup();
    const output = path.join(dir, 'new.json');
    expect(() =>
      refuseOverwriting(output, [
        { file: path.join(dir, 'missing.json'), role: 'an input' },
        { file: input, role: 'an input' },
      ]),
    ).not.toThrow();
  });

  it('allows an existing output that is none of the protected files', () => {
    const { dir, input, key } = setup();
    const output = path.join(dir, 'out.json');
    writeFileSync(output, 'old');
    expect(() =>
      refuseOverwriting(output, [
        { file: input, role: 'an input' },
        { file: key, role: 'the signing key' },
        { file: path.join(dir, 'missing.json'), role: 'an input' },
      ]),
    ).not.toThrow();
    expect(() => refuseOverwriting(output, [])).not.toThrow();
  });

  it('refuses the same file by path, by another spelling, by hard link and by symlink, with E_USAGE', () => {
    const { dir, input, key } = setup();
    const hard = path.join(dir, 'hard.json');
    const soft = path.join(dir, 'soft.json');
    linkSync(input, hard);
    symlinkSync(input, soft);
    const protectedFiles = [
      { file: key, role: 'the signing key' },
      { file: input, role: 'an input' },
    ];
    for (const output of [input, path.join(dir, '.', 'sub', '..', 'bom.json'), hard, soft]) {
      const error = expectErrorCode(() => refuseOverwriting(output, protectedFiles), 'E_USAGE');
      expect(error.message).toBe(
        `Refusing to write ${output}: it is an input of this command (${input}); choose another --output`,
      );
    }
  });

  it('names the protected file as given, link included, and the first that matches', () => {
    const { dir, input, key } = setup();
    const soft = path.join(dir, 'soft.pem');
    symlinkSync(key, soft);
    const error = expectErrorCode(
      () =>
        refuseOverwriting(key, [
          { file: input, role: 'an input' },
          { file: soft, role: 'the signing key' },
          { file: key, role: 'a trust file' },
        ]),
      'E_USAGE',
    );
    expect(error.message).toBe(
      `Refusing to write ${key}: it is the signing key of this command (${soft}); choose another --output`,
    );
  });
});
