import { closeSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { decodedText, decodeJsonBytes, type DecodeResult } from '../json/decode.js';
import { createRequire } from 'node:module';
import path from 'node:path';
import { BomwrightError } from '../errors.js';

export const STDIN = '-';

export interface Input {
  /** Absolute path, or `-` for standard input. */
  source: string;
  /** Named on the command line (as a file or `-`), rather than found in a directory or by a pattern. */
  explicit: boolean;
}

const IGNORED = ['**/node_modules/**', '**/.git/**'];

/**
 * Command-line operands → inputs: `-` (stdin), files, directories (their *.json, without node_modules and
 * .git) and fast-glob patterns. A missing path or a pattern that matches nothing is a usage error (exit 2),
 * so a typo in CI can never pass as "nothing to validate".
 */
export async function resolveInputs(operands: readonly string[], cwd: string): Promise<Input[]> {
  const inputs: Input[] = [];
  const seen = new Set<string>();
  const add = (source: string, explicit: boolean) => {
    if (seen.has(source)) return;
    seen.add(source);
    inputs.push({ source, explicit });
  };
  for (const operand of operands) {
    if (operand === STDIN) {
      add(STDIN, true);
      continue;
    }
    const absolute = path.resolve(cwd, operand);
    const stat = statOrUndefined(absolute);
    if (stat?.isDirectory()) {
      for (const file of await glob(['**/*.json'], absolute)) add(file, false);
    } else if (stat !== undefined) {
      add(absolute, true);
    } else {
      if (!loadFastGlob().isDynamicPattern(operand)) {
        throw new BomwrightError('E_NOT_FOUND', `No such file or directory: ${operand}`);
      }
      const files = await glob([operand], cwd);
      if (files.length === 0) throw new BomwrightError('E_NO_MATCH', `Pattern matched no files: ${operand}`);
      for (const file of files) add(file, false);
    }
  }
  return inputs;
}

/** Loaded on demand (and with require, which the bundled CLI can use): named files do not pay for it. */
function loadFastGlob(): typeof import('fast-glob') {
  return createRequire(import.meta.url)('fast-glob') as typeof import('fast-glob');
}

async function glob(patterns: string[], cwd: string): Promise<string[]> {
  const files = await loadFastGlob()(patterns, {
    cwd,
    absolute: true,
    ignore: IGNORED,
    onlyFiles: true,
    dot: false,
    followSymbolicLinks: false,
  });
  return files.map((f) => path.normalize(f)).sort();
}

function statOrUndefined(file: string) {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/** Reads one input, refusing more than maxSize bytes without reading them (then only the size is returned). */
export async function readInput(source: string, maxSize: number): Promise<{ bytes?: Uint8Array; size: number }> {
  if (source === STDIN) return readStdin(maxSize);
  // Synchronous on purpose: one document at a time, and node:fs/promises costs start-up time.
  try {
    const fd = openSync(source, 'r');
    try {
      const { size } = fstatSync(fd);
      if (size > maxSize) return { size };
      return { bytes: readFileSync(fd), size };
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw ioError(source, error);
  }
}

async function readStdin(maxSize: number): Promise<{ bytes?: Uint8Array; size: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxSize) {
      process.stdin.destroy();
      return { size };
    }
    chunks.push(chunk);
  }
  return { bytes: Buffer.concat(chunks), size };
}

export function ioError(source: string, error: unknown): BomwrightError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const reason =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'is a directory'
          : (code ?? 'unreadable');
  return new BomwrightError('E_READ', `Cannot read ${source}: ${reason}`, { cause: error });
}

const MARKERS = ['"bomFormat"', '"specVersion"'].flatMap((m) => [
  Buffer.from(m, 'utf8'),
  Buffer.from(m, 'utf16le'),
  Buffer.from(m, 'utf16le').swap16(),
]);

/**
 * Cheap test for "looks like a BOM", used to skip other JSON files found in directories or by patterns. Empty
 * files count: an empty bom.json is what a crashed generator leaves behind, which CI must catch.
 */
export function looksLikeBom(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (/^[\t\n\r ]*$/.test(buffer.subarray(0, 64).toString('latin1')) && buffer.length <= 64) return true;
  return MARKERS.some((marker) => buffer.includes(marker));
}

/**
 * A file's content as text, in the cheapest way that is still exact. Node's own UTF-8 read produces the string
 * without a JavaScript buffer (which would otherwise stay in memory beside the text and the parsed document);
 * it replaces invalid bytes with U+FFFD, so text holding U+FFFD or NUL (UTF-16) is read again as bytes and
 * checked strictly.
 */
export function readDocumentText(file: string): { decoded: DecodeResult; looksLikeBom: boolean } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw ioError(file, error);
  }
  if (!text.includes('\uFFFD') && !text.includes('\u0000')) {
    const decoded = decodedText(text);
    const bom =
      decoded.text === undefined || decoded.text.includes('"bomFormat"') || decoded.text.includes('"specVersion"');
    return { decoded, looksLikeBom: bom };
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw ioError(file, error);
  }
  return { decoded: decodeJsonBytes(bytes), looksLikeBom: looksLikeBom(bytes) };
}
