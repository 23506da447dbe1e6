/**
 * Where the XML engine's code and schemas come from: libxml2-wasm and @cyclonedx/cyclonedx-library's res/schema/
 * in node_modules, for the library and the CLI. The Action's single-file bundle replaces this module with one
 * that carries both inside it (src/build/action.ts), so it checks XML wherever it runs.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** In the CLI's bundles: a CommonJS file beside the bundle that imports libxml2-wasm (src/build/bundle.ts). */
declare const __BOMWRIGHT_LIBXML2_LOADER__: string | undefined;

/** libxml2-wasm's module and its lower layer (lib/libxml2.mjs), one instance. */
export async function importLibxml2(): Promise<[typeof import('libxml2-wasm'), unknown]> {
  if (typeof __BOMWRIGHT_LIBXML2_LOADER__ === 'string') {
    const load = createRequire(import.meta.url)(__BOMWRIGHT_LIBXML2_LOADER__) as () => Promise<
      [typeof import('libxml2-wasm'), unknown]
    >;
    return load();
  }
  return Promise.all([import('libxml2-wasm'), import('libxml2-wasm/lib/libxml2.mjs')]);
}

/** A file of the CycloneDX schemas (`bom-1.6.SNAPSHOT.xsd`, `spdx.SNAPSHOT.xsd`). */
export function schemaFile(file: string): Uint8Array {
  const require = createRequire(import.meta.url);
  const dir = path.join(path.dirname(require.resolve('@cyclonedx/cyclonedx-library/package.json')), 'res/schema');
  return readFileSync(path.join(dir, file));
}
