import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BomwrightError } from '../errors.js';

let sequence = 0;

/**
 * Writes via a temporary file in the same directory and a rename, so readers never see a partial file and an
 * error leaves the original untouched. The temporary name is unique per process and call, and created with
 * O_EXCL, so it can never clobber anything.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o644): void {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${Date.now()}-${++sequence}.tmp`);
  try {
    writeFileSync(temp, data, { mode, flag: 'wx' });
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
