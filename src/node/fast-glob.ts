/**
 * fast-glob, loaded on first use: commands that name files never pay for it, and the CLI bundle takes it from
 * node_modules. A single-file bundle (the GitHub Action) replaces this module with one that carries it inside.
 */
import { createRequire } from 'node:module';

export function loadFastGlob(): typeof import('fast-glob') {
  return createRequire(import.meta.url)('fast-glob') as typeof import('fast-glob');
}
