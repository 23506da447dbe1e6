/** Hashing artefact files: one streaming read for every algorithm, the same digests as hashing the whole file. */
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashFile } from '../../src/node/hash-files.js';
import { tempDirs } from '../helpers.js';

const temp = tempDirs('bomwright-hash-');

describe('hashFile', () => {
  it('streams a file larger than one read chunk (64 KiB) and gives the digests of the whole, per algorithm', async () => {
    for (const size of [0, 65_535, 65_536, 65_537, 300_000]) {
      const file = path.join(temp(), `artefact-${size}.bin`);
      const bytes = randomBytes(size);
      writeFileSync(file, bytes);
      const artefact = await hashFile(file, ['SHA-256', 'SHA-512', 'SHA3-256', 'BLAKE2b-512']);
      expect(artefact.fileName).toBe(`artefact-${size}.bin`);
      expect(artefact.hashes).toEqual([
        { alg: 'SHA-256', content: createHash('sha256').update(bytes).digest('hex') },
        { alg: 'SHA-512', content: createHash('sha512').update(bytes).digest('hex') },
        { alg: 'SHA3-256', content: createHash('sha3-256').update(bytes).digest('hex') },
        { alg: 'BLAKE2b-512', content: createHash('blake2b512').update(bytes).digest('hex') },
      ]);
    }
  });

  it('refuses an algorithm it cannot compute, naming the nearest, and a missing file with E_NOT_FOUND', async () => {
    const file = path.join(temp(), 'a.bin');
    writeFileSync(file, 'a');
    await expect(hashFile(file, ['SHA512'])).rejects.toMatchObject({
      code: 'E_USAGE',
      message: expect.stringMatching(/Cannot compute "SHA512" \(did you mean SHA-512\?\)/),
    });
    await expect(hashFile(file, ['BLAKE3'])).rejects.toMatchObject({ code: 'E_USAGE' });
    await expect(hashFile(path.join(temp(), 'missing.bin'), ['SHA-256'])).rejects.toMatchObject({
      code: 'E_NOT_FOUND',
    });
  });
});
