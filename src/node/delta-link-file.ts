/**
 * A delta link kept in a file between runs (another process resumes from it): read if present, written
 * atomically, so a crash leaves the old link or the new one, never half of one.
 */
import { readFileSync } from 'node:fs';
import { BomwrightError } from '../errors.js';
import type { DeltaLinkStore } from '../service/flows.js';
import { errnoReason } from './files.js';
import { writeFileAtomic } from './write.js';

export function deltaLinkFile(file: string): DeltaLinkStore {
  return {
    load() {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw new BomwrightError('E_READ', `Cannot read the delta link in ${file}: ${errnoReason(error)}`);
      }
      const link = text.trim();
      if (!/^https?:\/\/\S+$/.test(link)) throw new BomwrightError('E_INPUT', `${file} does not hold a delta link`);
      return link;
    },
    save(link) {
      writeFileAtomic(file, `${link}\n`, 0o600);
    },
  };
}
