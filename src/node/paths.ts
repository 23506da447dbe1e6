import { existsSync, statSync } from 'node:fs';
import { BomwrightError } from '../errors.js';
import path from 'node:path';

/** The nearest ancestor of `dir` that holds a .git entry, else `dir`: SARIF URIs are relative to it. */
export function repositoryRoot(dir: string): string {
  for (let current = path.resolve(dir); ;) {
    if (existsSync(path.join(current, '.git'))) return current;
    const parent = path.dirname(current);
    if (parent === current) return path.resolve(dir);
    current = parent;
  }
}

export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/** Relative to `base` when inside it, else absolute; always with forward slashes. */
export function displayPath(file: string, base: string): string {
  const relative = path.relative(base, file);
  // `..foo` is a name inside base; only `..` itself or `../…` leaves it.
  const outside = relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
  return toPosix(relative === '' || outside ? file : relative);
}

function identity(file: string): string | undefined {
  try {
    const stat = statSync(file);
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * Refuses an output that would destroy something the command reads: one of its inputs, a key, a trust file
 * (`validate bom.json -f sarif -o bom.json`, `sign doc.json -k key.pem -o key.pem`). Links and other spellings
 * of the same file count: the comparison is by device and inode.
 */
export function refuseOverwriting(output: string, protectedFiles: readonly { file: string; role: string }[]): void {
  const target = identity(output);
  if (target === undefined) return;
  const hit = protectedFiles.find(({ file }) => identity(file) === target);
  if (hit !== undefined)
    throw new BomwrightError(
      'E_USAGE',
      `Refusing to write ${output}: it is ${hit.role} of this command (${hit.file}); choose another --output`,
    );
}
