/**
 * Loads the CommonJS bundles (the CLI and the precompiled validators) through vm.Script with a V8 code cache,
 * so a CLI run skips nearly all parsing and compiling (Node 20 has no module compile cache of its own).
 *
 * V8 checks a cache only against the source's length, so a cache is found by a key over the exact source text,
 * the Node version and the architecture (`<bundle>.<key>.cache`): a rebuilt bundle never meets its old cache,
 * however long it is. The build ends each bundle with that digest of the rest of its text (stampBundle), so a run
 * reads the key instead of hashing a megabyte, and loads no node:crypto; a bundle without one is hashed here.
 * Caches are written at build time after a warm-up run, and otherwise by the first run that finds none (when the
 * folder is writable); a failure to write one changes nothing but speed.
 */
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

/** The last line of a stamped bundle: this, then 24 hex digits of the SHA-256 of everything before the line. */
const STAMP = '\n//# bomwright-source-digest=';
const STAMP_PATTERN = /^[0-9a-f]{24}\n$/;

function sourceDigest(source: string): string {
  // node:crypto only for a bundle without a stamp (tests, a bundle built elsewhere): loading it costs start-up.
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(source).digest('hex').slice(0, 24);
}

/** The bundle's text with its digest appended (build time). */
export function stampBundle(source: string): string {
  return `${source}${STAMP}${sourceDigest(source)}\n`;
}

/** Where a stamp starts, or -1. */
function stampAt(source: string): number {
  const at = source.length - STAMP.length - 25;
  return at >= 0 && source.startsWith(STAMP, at) && STAMP_PATTERN.test(source.slice(at + STAMP.length)) ? at : -1;
}

/** The bundle's text without its stamp (for a bundle that carries another one's text). */
export function unstampBundle(source: string): string {
  const at = stampAt(source);
  return at === -1 ? source : source.slice(0, at);
}

/** The stamped digest, else the digest of the whole text. */
function digestOf(source: string): string {
  const at = stampAt(source);
  return at === -1 ? sourceDigest(source) : source.slice(at + STAMP.length, at + STAMP.length + 24);
}

/** Where the cache for this exact source lives. */
function cacheFileFor(file: string, source: string): string {
  return `${file}.${digestOf(source)}-${process.version}-${process.arch}.cache`;
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
