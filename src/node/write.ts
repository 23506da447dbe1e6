import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BomwrightError } from '../errors.js';

let sequence = 0;

/**
 * Writes via a temporary file in the same directory and a rename, so readers never see a partial file and an
 * error leaves the original untouched. The temporary name is unique per process and call, and created with
 * O_EXCL, so it can never clobber anything.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, mode?: number): void {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${Date.now()}-${++sequence}.tmp`);
  try {
    // A rewritten file keeps its permissions; a new one gets the given mode (default 0644).
    writeFileSync(temp, data, { mode: mode ?? existingMode(file) ?? 0o644, flag: 'wx' });
    renameSync(temp, file);
  } catch (error) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // The temporary file may not exist; the original error is what matters.
    }
    const code = (error as NodeJS.ErrnoException | undefined)?.code ?? 'unknown error';
    throw new BomwrightError('E_WRITE', `Cannot write ${file}: ${code}`, { cause: error });
  }
}

function existingMode(file: string): number | undefined {
  try {
    return statSync(file).mode & 0o7777;
  } catch {
    return undefined;
  }
}
