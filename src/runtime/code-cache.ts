/**
 * Loads the CommonJS bundles (the CLI and the precompiled validators) through vm.Script with a V8 code cache,
 * so a CLI run skips nearly all parsing and compiling (Node 20 has no module compile cache of its own).
 *
 * V8 checks a cache only against the source's length, so a cache is found by a key over the exact source text,
 * the Node version and the architecture (`<bundle>.<key>.cache`): a rebuilt bundle never meets its old cache,
 * however long it is. Caches are written at build time after a warm-up run, and otherwise by the first run that
 * finds none (when the folder is writable); a failure to write one changes nothing but speed.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Script } from 'node:vm';

interface Loaded {
  script: Script;
  exports: unknown;
  cacheFile: string;
  /** Whether a cache was found and accepted for this load. */
  cached: boolean;
}

const loaded = new Map<string, Loaded>();
let writeAtExit = false;
/** Measurement switch (bench/): run without reading or writing caches. */
const disabled = process.env.BOMWRIGHT_NO_CODE_CACHE === '1';

/** Where the cache for this exact source lives. */
export function cacheFileFor(file: string, source: string): string {
  const key = createHash('sha256')
    .update(source)
    .update(`\0${process.version}\0${process.arch}`)
    .digest('hex')
    .slice(0, 24);
  return `${file}.${key}.cache`;
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** `require` for one self-contained CommonJS bundle, with its code cache. */
export function requireBundle(file: string): unknown {
  const known = loaded.get(file);
  if (known !== undefined) return known.exports;
  const source = readFileSync(file, 'utf8');
  const cacheFile = cacheFileFor(file, source);
  const cachedData = disabled ? undefined : readCache(cacheFile);
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const module = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  const cached = cachedData !== undefined && script.cachedDataRejected !== true;
  loaded.set(file, { script, exports: module.exports, cacheFile, cached });
  if (!cached && !disabled && !writeAtExit) {
    writeAtExit = true;
    process.once('exit', writeMissingCaches);
  }
  return module.exports;
}

/** Writes one cache atomically, and removes the caches of earlier builds of the same bundle. */
function writeCache(file: string, { script, cacheFile }: Loaded): boolean {
  const temp = `${cacheFile}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, script.createCachedData());
    renameSync(temp, cacheFile);
  } catch {
    rmSync(temp, { force: true });
    return false;
  }
  const prefix = `${path.basename(file)}.`;
  try {
    for (const name of readdirSync(path.dirname(file))) {
      if (name.startsWith(prefix) && name.endsWith('.cache') && name !== path.basename(cacheFile))
        rmSync(path.join(path.dirname(file), name), { force: true });
    }
  } catch {
    // Old caches are only wasted space.
  }
  return true;
}

/** At exit: a cache for every bundle this run loaded without one (it then holds what this run compiled). */
function writeMissingCaches(): void {
  for (const [file, entry] of loaded) if (!entry.cached) writeCache(file, entry);
}

/** Build-time: after a warm-up run, store what V8 compiled for every bundle loaded in this process. */
export function writeCodeCaches(): string[] {
  const written: string[] = [];
  for (const [file, entry] of loaded) {
    if (writeCache(file, entry)) {
      entry.cached = true;
      written.push(entry.cacheFile);
    }
  }
  return written;
}
