/**
 * Where the precompiled validators come from: generated/validators/<id>.cjs beside the package, loaded with a
 * code cache. A single-file bundle (the GitHub Action) replaces this module with one that carries them inside.
 */
import { fileURLToPath } from 'node:url';
import { requireBundle } from '../runtime/code-cache.js';

const GENERATED_DIR = fileURLToPath(new URL('../../generated/validators/', import.meta.url));

/** The module of the precompiled validator `id` (its default export is the validate function). */
export function loadValidatorModule(id: string): unknown {
  return requireBundle(`${GENERATED_DIR}${id}.cjs`);
}
