/**
 * Writing files so that nothing is ever lost: a rewritten file is replaced in one rename after its bytes are on
 * disk, a symbolic link stays a link (its target is rewritten), a device or pipe is written to rather than
 * replaced, and temporary files that a killed run left behind are removed by the next write to the same file.
 */
import {
  closeSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { BomwrightError } from '../errors.js';
import { errnoReason } from './files.js';

let sequence = 0;

function writeError(file: string, error: unknown): BomwrightError {
  return new BomwrightError('E_WRITE', `Cannot write ${file}: ${errnoReason(error)}`, { cause: error });
}

/**
 * Why a new entry (a folder, or the temporary file beside the target) cannot be made in `dir`, which exists: said
 * of the folder, as what failed is the folder's, whatever the target is (/proc/version is a regular file, but
 * /proc takes no new files).
 */
function folderError(file: string, dir: string, error: unknown): BomwrightError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const why =
    code === 'EACCES' || code === 'EPERM'
      ? `its folder ${dir} is not writable (permission denied)`
      : code === 'EROFS'
        ? `its folder ${dir} is on a read-only file system`
        : code === 'ENOSPC' || code === 'EDQUOT'
          ? `no space left in ${dir}`
          : code === 'ENOENT'
            ? // The folder is there and still says "no such file": a file system that takes no new files (/proc, /sys).
              `its folder ${dir} does not take new files (a special file system)`
            : `a new file in ${dir} cannot be made: ${errnoReason(error)}`;
  return new BomwrightError('E_WRITE', `Cannot write ${file}: ${why}`, { cause: error });
}

function statOrUndefined(file: string, follow: boolean): Stats | undefined {
  try {
    return follow ? statSync(file) : lstatSync(file);
  } catch (error) {
    // ENOTDIR: a file stands where a folder of the path should be; the path names nothing (yet).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** Where a write to `file` must land: the final target of a symbolic link (so the link stays a link). */
function writeTarget(file: string): string {
  const own = statOrUndefined(file, false);
  if (own === undefined || !own.isSymbolicLink()) return file;
  try {
    return realpathSync(file);
  } catch {
    // A dangling link: rewriting it would replace the link with a file, leaving what it named untouched.
    throw new BomwrightError('E_WRITE', `Cannot write ${file}: it is a symbolic link to nothing`);
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

function writeAll(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  for (let offset = 0; offset < bytes.byteLength;) {
    try {
      offset += writeSync(fd, bytes, offset);
    } catch (error) {
      // A non-blocking pipe (stdout under a process manager) is full: wait for the reader.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(pause, 0, 0, 5);
    }
  }
}

/** Our temporary files for `target`: `.<name>.<pid>-<time>-<n>.tmp` beside it. */
function temporaryName(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}-${Date.now()}-${++sequence}.tmp`);
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes temporary files of ours for `target` whose writer is gone (killed before its rename). */
function removeStaleTemporaries(target: string): void {
  const base = path.basename(target);
  const prefix = `.${base}.`;
  let names: string[];
  try {
    names = readdirSync(path.dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const match = /^(\d+)-\d+-\d+\.tmp$/.exec(name.slice(prefix.length));
    if (match === null || isAlive(Number(match[1]))) continue;
    try {
      rmSync(path.join(path.dirname(target), name), { force: true });
    } catch {
      // Someone else's problem now; it is not in the way of this write.
    }
  }
}

function fsyncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems cannot sync a directory; the rename itself is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * A new file's missing folders are created first (`-o reports/run.sarif` in a fresh CI checkout), one level at a
 * time from the nearest one that exists: `mkdirSync(..., { recursive: true })` never returns under /proc (Node 20),
 * and a failure is said of the folder it happened in.
 */
function makeParents(file: string, target: string): void {
  const missing: string[] = [];
  let dir = path.dirname(target);
  for (;;) {
    let stats: Stats | undefined;
    try {
      stats = statOrUndefined(dir, true);
    } catch (error) {
      throw writeError(file, error);
    }
    if (stats !== undefined) {
      if (!stats.isDirectory())
        throw new BomwrightError('E_WRITE', `Cannot write ${file}: its folder cannot be created, ${dir} is a file`);
      break;
    }
    missing.push(dir);
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (const folder of missing.reverse())
    try {
      mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw folderError(file, path.dirname(folder), error);
    }
}

/**
 * Writes `data` to `file` atomically: a temporary file in the same directory (created exclusively, so it can
 * never clobber anything), fsync, rename over the target, fsync of the directory. Readers never see a partial
 * file and an error leaves the original untouched. A rewritten file keeps its permissions; a new one gets
 * `mode` (default 0644). A symbolic link is followed; a character device or pipe (`/dev/stdout`) is written to
 * directly, and any other non-regular file is refused.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, mode?: number): void {
  let target: string;
  let existing: Stats | undefined;
  try {
    // What the path leads to, links followed: a pipe behind /dev/stdout has no name of its own to rename over.
    const descriptor = ownDescriptor(file);
    if (descriptor !== undefined) return writeDescriptor(file, descriptor, data);
    existing = statOrUndefined(file, true);
    if (existing !== undefined && !existing.isFile()) {
      if (existing.isCharacterDevice() || existing.isFIFO()) return writeStream(file, data);
      throw new BomwrightError(
        'E_WRITE',
        `Cannot write ${file}: it is ${existing.isDirectory() ? 'a directory' : 'not a regular file'}`,
      );
    }
    target = writeTarget(file);
  } catch (error) {
    if (error instanceof BomwrightError) throw error;
    throw writeError(file, error);
  }
  if (existing === undefined) makeParents(file, target);
  removeStaleTemporaries(target);
  const temp = temporaryName(target);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', mode ?? (existing === undefined ? 0o644 : existing.mode & 0o7777));
  } catch (error) {
    throw folderError(file, path.dirname(target), error);
  }
  try {
    writeAll(fd, data);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, target);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw writeError(file, error);
  }
  fsyncDirectory(path.dirname(target));
}

/** `/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`: this process's own descriptors, which may be sockets or pipes. */
export function isOwnStream(file: string): boolean {
  return ownDescriptor(file) !== undefined;
}

function ownDescriptor(file: string): number | undefined {
  const match = /^\/(?:dev\/(stdout|stderr)|dev\/fd\/(\d+)|proc\/self\/fd\/(\d+))$/.exec(path.resolve(file));
  if (match === null) return undefined;
  return match[1] === 'stdout' ? 1 : match[1] === 'stderr' ? 2 : Number(match[2] ?? match[3]);
}

function writeDescriptor(file: string, fd: number, data: string | Uint8Array): void {
  try {
    writeAll(fd, data);
  } catch (error) {
    throw writeError(file, error);
  }
}

function writeStream(file: string, data: string | Uint8Array): void {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'w');
    writeAll(fd, data);
  } catch (error) {
    throw writeError(file, error);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
