/**
 * Reading files the way every command must: bounded, with one wording per failure, and without an
 * intermediate buffer where the text is all that is needed.
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { BomwrightError } from '../errors.js';
import { decodedText, decodeJsonBytes, type DecodeResult } from '../json/decode.js';
import { STDIN } from './discover.js';

/** A whole file, or an E_NOT_FOUND / E_READ error that names it. */
export function readFileOrFail(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BomwrightError(
      code === 'ENOENT' ? 'E_NOT_FOUND' : 'E_READ',
      `Cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : (code ?? 'unreadable')}`,
    );
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

const MARKERS = ['"bomFormat"', '"specVersion"'];
const BYTE_MARKERS = MARKERS.flatMap((m) => [
  Buffer.from(m, 'utf8'),
  Buffer.from(m, 'utf16le'),
  Buffer.from(m, 'utf16le').swap16(),
]);
const BLANK = /^[\t\n\r ]*$/;

/**
 * Cheap test for "looks like a BOM", used to skip other JSON files found in directories or by patterns: the
 * content names bomFormat or specVersion (in UTF-8 or, for bytes, UTF-16). Empty files count: an empty bom.json
 * is what a crashed generator leaves behind, which CI must catch.
 */
export function looksLikeBom(content: string | Uint8Array): boolean {
  if (typeof content === 'string') {
    return (content.length <= 64 && BLANK.test(content)) || MARKERS.some((marker) => content.includes(marker));
  }
  const buffer = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  if (buffer.length <= 64 && BLANK.test(buffer.toString('latin1'))) return true;
  return BYTE_MARKERS.some((marker) => buffer.includes(marker));
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
    // Text that cannot be decoded is reported, never skipped.
    return { decoded, looksLikeBom: decoded.text === undefined || looksLikeBom(decoded.text) };
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw ioError(file, error);
  }
  return { decoded: decodeJsonBytes(bytes), looksLikeBom: looksLikeBom(bytes) };
}
