/**
 * A command with heavy dependencies of its own (the emulator, the service client) ships as its own bundle beside
 * the CLI's (src/build/bundle.ts) and is loaded only when that command runs; from an unbundled build, the compiled
 * module is imported instead.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { requireBundle } from '../runtime/code-cache.js';

export async function loadCommandBundle<T>(name: 'emulator' | 'service'): Promise<T> {
  const bundle = fileURLToPath(new URL(`./${name}.cjs`, import.meta.url));
  if (existsSync(bundle)) return requireBundle(bundle) as T;
  return (await import(new URL(`../${name}/index.js`, import.meta.url).href)) as T;
}
