/**
 * Every git call of bomwright. Revisions come from users (--base-ref, the Action's base-ref input), so they go
 * through one checked path: a revision is resolved to a commit id first (an unknown one is a usage error, never
 * "nothing to compare with"), and only commit ids, after `--end-of-options`, reach other git commands.
 */
import { execFileSync } from 'node:child_process';
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

/** Fails with a usage error unless `revision` names a commit (kept for callers that only check). */
export function assertRevision(revision: string, root: string): void {
  resolveCommit(revision, root);
}
