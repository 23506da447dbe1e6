import { existsSync } from 'node:fs';
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
  return toPosix(relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? file : relative);
}
