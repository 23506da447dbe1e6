/**
 * Every git call of bomwright. Revisions come from users (--base-ref, the Action's base-ref input), so they go
 * through one checked path: a revision is resolved to a commit id first (an unknown one is a usage error, never
 * "nothing to compare with"), and only commit ids, after `--end-of-options`, reach other git commands.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BomwrightError } from '../errors.js';

/** A resolved commit: the only kind of revision that reaches git commands other than rev-parse. */
export interface Commit {
  readonly id: string;
  /** What the user named (`HEAD`, `origin/main`), for messages. */
  readonly name: string;
}

const COMMIT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const MAX_OUTPUT = 1024 * 1024 * 1024;

/** git's output, or undefined when it fails (a file absent at a commit): for questions, not commands. */
function gitQuietly(args: string[], root: string): string | undefined {
  try {
    return execFileSync('git', args, {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: MAX_OUTPUT,
    });
  } catch {
    return undefined;
  }
}

function git(args: string[], cwd: string): string {
  try {
    return execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: MAX_OUTPUT,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new BomwrightError('E_USAGE', 'git is not installed or not on PATH');
    const stderr =
      String((error as { stderr?: unknown }).stderr ?? '')
        .trim()
        .split('\n')[0] ?? '';
    throw new BomwrightError('E_USAGE', `git ${args[0]} failed${stderr ? `: ${stderr}` : ''}`);
  }
}

export function gitRoot(cwd: string): string {
  return git(['rev-parse', '--show-toplevel'], cwd).trim();
}

/**
 * Resolves a user's revision to a commit. Names that start with `-` (git would read them as options) and names
 * that are not commits are usage errors with the name in the message.
 */
export function resolveCommit(revision: string, root: string): Commit {
  const shown = JSON.stringify(revision);
  if (revision === '' || revision.startsWith('-') || /[\0\n\r]/.test(revision))
    throw new BomwrightError('E_USAGE', `Invalid git revision ${shown}`);
  let id: string;
  try {
    id = execFileSync('git', ['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    throw new BomwrightError('E_USAGE', `Unknown git revision ${shown}`);
  }
  if (!COMMIT_ID.test(id)) throw new BomwrightError('E_USAGE', `Unknown git revision ${shown}`);
  return { id, name: revision };
}

/** HEAD, or undefined in a repository without commits (every file is new then). */
export function headCommit(root: string): Commit | undefined {
  try {
    return resolveCommit('HEAD', root);
  } catch {
    return undefined;
  }
}

function repositoryPath(file: string, root: string): string {
  return path.relative(root, path.resolve(file)).split(path.sep).join('/');
}

/**
 * A file's content at a commit, or in the index (`'index'`); undefined when the file does not exist there (a
 * new file has no previous release).
 */
export function gitShow(at: Commit | 'index', file: string, root: string): string | undefined {
  const object = at === 'index' ? `:${repositoryPath(file, root)}` : `${at.id}:${repositoryPath(file, root)}`;
  return gitQuietly(['cat-file', 'blob', '--end-of-options', object], root);
}

/** Lines added or changed since `base` in `file`; undefined means "all of it" (a new file). */
export function changedLines(file: string, base: Commit, root: string): Set<number> | undefined {
  const diff = gitQuietly(['diff', '--unified=0', '--no-color', '--end-of-options', base.id, '--', file], root);
  if (diff === undefined || diff.includes('\nnew file mode')) return undefined;
  const lines = new Set<number>();
  for (const match of diff.matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm)) {
    const start = Number(match[1]);
    const count = match[2] === undefined ? 1 : Number(match[2]);
    for (let n = 0; n < count; n++) lines.add(start + n);
  }
  return lines;
}

/** Staged added, copied, modified or renamed *.json and *.xml files (absolute paths). */
export function stagedJsonFiles(root: string): string[] {
  return git(['diff', '--cached', '--name-only', '--diff-filter=ACMR', '-z'], root)
    .split('\0')
    .filter((f) => f.endsWith('.json') || f.endsWith('.xml'))
    .map((f) => path.join(root, f));
}

const BOM_FILE = /\.(?:json|xml)$/;

/** A BOM's serialNumber read from its text (JSON member or XML root attribute); undefined when it has none. */
function serialNumberOf(text: string): string | undefined {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (trimmed.startsWith('<')) return /<(?:\w+:)?bom\b[^>]*?\sserialNumber\s*=\s*(["'])([^"'<>]*)\1/.exec(trimmed)?.[2];
  try {
    const value: unknown = JSON.parse(trimmed);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const serial = (value as { serialNumber?: unknown }).serialNumber;
    return typeof serial === 'string' && serial !== '' ? serial : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where files came from since `base`, so a renamed BOM is still compared with its previous release: git's rename
 * detection first, then the serial number as the BOM's identity (an edit large enough to hide a rename from git
 * keeps the serialNumber). `staged` compares the index with `base` (pre-commit), else the working tree; `files`
 * (absolute paths) are the documents being checked, the only ones whose origin matters, untracked ones included.
 * Returns absolute new path → absolute old path.
 */
export function previousPaths(
  base: Commit,
  root: string,
  staged: boolean,
  files: readonly string[],
): Map<string, string> {
  const wanted = new Set(files.map((file) => path.resolve(file)));
  const origins = new Map<string, string>();
  if (wanted.size === 0) return origins;
  const output = gitQuietly(
    [
      'diff',
      ...(staged ? ['--cached'] : []),
      '-M',
      '--name-status',
      '-z',
      '--no-color',
      '--end-of-options',
      base.id,
      '--',
    ],
    root,
  );
  if (output === undefined) return origins;
  const fields = output.split('\0');
  const added: string[] = [];
  const deleted: string[] = [];
  for (let i = 0; i < fields.length - 1;) {
    const status = fields[i++]!;
    if (status.startsWith('R') || status.startsWith('C')) {
      const from = path.join(root, fields[i++]!);
      const to = path.join(root, fields[i++]!);
      if (status.startsWith('R')) origins.set(to, from);
    } else {
      const file = path.join(root, fields[i++]!);
      if (status === 'A') added.push(file);
      else if (status === 'D') deleted.push(file);
    }
  }
  const untracked = staged
    ? []
    : (gitQuietly(['ls-files', '--others', '--exclude-standard', '-z'], root) ?? '')
        .split('\0')
        .filter((f) => f !== '')
        .map((f) => path.join(root, f));
  const newcomers = [...added, ...untracked].filter((file) => wanted.has(file) && !origins.has(file));
  const gone = deleted.filter((file) => BOM_FILE.test(file) && ![...origins.values()].includes(file));
  if (newcomers.length === 0 || gone.length === 0) return origins;
  // A serial number held by two deleted files names neither: no guessing.
  const bySerial = new Map<string, string | null>();
  for (const file of gone) {
    const text = gitShow(base, file, root);
    const serial = text === undefined ? undefined : serialNumberOf(text);
    if (serial !== undefined) bySerial.set(serial, bySerial.has(serial) ? null : file);
  }
  for (const file of newcomers) {
    const text = staged ? gitShow('index', file, root) : readQuietly(file);
    const serial = text === undefined ? undefined : serialNumberOf(text);
    const from = serial === undefined ? undefined : bySerial.get(serial);
    if (typeof from === 'string') origins.set(file, from);
  }
  return origins;
}

function readQuietly(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
