/** The last build step: records which sources this build was made from (see inputs.ts). */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInputsHash, STAMP_FILE } from './inputs.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
writeFileSync(path.join(root, STAMP_FILE), `${buildInputsHash(root)}\n`);
