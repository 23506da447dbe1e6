/**
 * What a build is made from: every file under src/ and schema/, the lock file and the compiler settings. The
 * build records their hash (dist/.build-stamp), so tests can tell a build that no longer matches its sources.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const INPUT_DIRS = ['src', 'schema'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : entry.isFile() ? [full] : [];
  });
}

/** One hash over the names and contents of every build input, in a fixed order. */
export function buildInputsHash(root: string): string {
  const hash = createHash('sha256');
  const files = [
    ...INPUT_DIRS.flatMap((dir) => filesUnder(path.join(root, dir))),
    ...INPUT_FILES.map((file) => path.join(root, file)),
  ]
    .map((file) => path.relative(root, file).split(path.sep).join('/'))
    .sort();
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

export const STAMP_FILE = 'dist/.build-stamp';
