/**
 * CLI, Action and package tests run the build, not the sources: refuse to run them against a build that is
 * missing or older than the sources, rather than let them pass on old code. `npm test` builds first.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInputsHash, STAMP_FILE } from '../../src/build/inputs.js';

export default function checkBuild(): void {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const stamp = path.join(root, STAMP_FILE);
  if (!existsSync(stamp)) throw new Error('There is no build: run npm run build (npm test does it for you)');
  if (readFileSync(stamp, 'utf8').trim() !== buildInputsHash(root))
    throw new Error('The build is older than the sources: run npm run build (npm test does it for you)');
}
