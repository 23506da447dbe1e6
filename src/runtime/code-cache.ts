/**
 * Loads the CommonJS bundles (the CLI and the precompiled validators) through vm.Script with a V8 code cache
 * beside each, written at build time after a warm-up run. The cache holds the bytecode of every function that
 * ran, so a CLI run skips nearly all parsing and compiling (Node 20 has no module compile cache of its own).
 * A cache from another Node or V8 build is rejected by V8 itself, and the code is then compiled normally.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Script } from 'node:vm';

const loaded = new Map<string, { script: Script; exports: unknown }>();

function cacheFile(file: string): string {
  return `${file}.cache`;
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(cacheFile(file));
  } catch {
    return undefined;
  }
}

/** `require` for one self-contained CommonJS bundle, with its code cache. */
export function requireBundle(file: string): unknown {
  const known = loaded.get(file);
  if (known !== undefined) return known.exports;
  const source = readFileSync(file, 'utf8');
  const cachedData = readCache(file);
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const module = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  loaded.set(file, { script, exports: module.exports });
  return module.exports;
}

/** Build-time: after a warm-up run, store what V8 compiled for every bundle loaded in this process. */
export function writeCodeCaches(): string[] {
  const written: string[] = [];
  for (const [file, { script }] of loaded) {
    writeFileSync(cacheFile(file), script.createCachedData());
    written.push(cacheFile(file));
  }
  return written;
}
