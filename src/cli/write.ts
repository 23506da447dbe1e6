import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BomwrightError } from '../errors.js';

/** Writes via a temporary file in the same directory and a rename, so readers never see a partial file. */
export async function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, data, { mode, flag: 'wx' });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    const code = (error as NodeJS.ErrnoException | undefined)?.code ?? 'unknown error';
    throw new BomwrightError('E_WRITE', `Cannot write ${file}: ${code}`, { cause: error });
  }
}
