/** Hashes of a file, every algorithm in one streaming read (a release artefact may be larger than memory). */
import { createHash, getHashes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { BomwrightError } from '../errors.js';
import { HASH_ALGORITHMS, type Artefact } from '../author/hashes.js';
import { didYouMean, nearestNames } from '../nearest.js';

/** The algorithms by their CycloneDX names; one Node cannot compute is refused with the ones it can. */
function checkAlgorithms(algorithms: readonly string[]): string[] {
  const available = new Set(getHashes());
  return algorithms.map((alg) => {
    const node = Object.hasOwn(HASH_ALGORITHMS, alg) ? HASH_ALGORITHMS[alg] : undefined;
    if (node === undefined || !available.has(node)) {
      const names = Object.keys(HASH_ALGORITHMS).filter((a) => available.has(HASH_ALGORITHMS[a]!));
      throw new BomwrightError(
        'E_USAGE',
        `Cannot compute ${JSON.stringify(alg)}${didYouMean(nearestNames(alg, names))}; one of: ${names.join(', ')}`,
      );
    }
    return alg;
  });
}

export async function hashFile(file: string, algorithms: readonly string[]): Promise<Artefact> {
  const hashers = checkAlgorithms(algorithms).map((alg) => ({ alg, hash: createHash(HASH_ALGORITHMS[alg]!) }));
  try {
    for await (const chunk of createReadStream(file)) for (const { hash } of hashers) hash.update(chunk as Buffer);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BomwrightError(
      code === 'ENOENT' ? 'E_NOT_FOUND' : 'E_READ',
      `Cannot read ${file}${code === undefined ? '' : ` (${code})`}`,
      { cause: error },
    );
  }
  return {
    fileName: path.basename(file),
    hashes: hashers.map(({ alg, hash }) => ({ alg, content: hash.digest('hex') })),
  };
}
