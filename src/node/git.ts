import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { BomwrightError } from '../errors.js';

function git(args: string[], cwd: string): string {
  try {
    return execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 1024 * 1024 * 1024,
    });
  } catch (error) {
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
 * A file's content at a revision (`HEAD`, a branch, or `` for the index), or undefined when the file does not
 * exist there (a new file has no baseline).
 */
export function gitShow(revision: string, file: string, root: string): string | undefined {
  const relative = path.relative(root, path.resolve(file)).split(path.sep).join('/');
  try {
    return execFileSync('git', ['show', `${revision}:${relative}`], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 1024 * 1024 * 1024,
    });
  } catch {
    return undefined;
  }
}

/** Staged added, copied, modified or renamed *.json files (absolute paths). */
export function stagedJsonFiles(root: string): string[] {
  return git(['diff', '--cached', '--name-only', '--diff-filter=ACMR', '-z'], root)
    .split('\0')
    .filter((f) => f.endsWith('.json'))
    .map((f) => path.join(root, f));
}

/** Fails with a usage error unless `revision` names a commit. */
export function assertRevision(revision: string, root: string): void {
  try {
    execFileSync('git', ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`], { cwd: root, stdio: 'ignore' });
  } catch {
    throw new BomwrightError('E_USAGE', `Unknown git revision ${JSON.stringify(revision)}`);
  }
}
