/**
 * Reading files the way every command must: bounded, with one wording per failure, and without an
 * intermediate buffer where the text is all that is needed.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { BomwrightError } from '../errors.js';
import type { DecodeResult } from '../json/decode.js';
import { decodedDocumentText, decodeDocumentBytes, headText } from '../document/decode.js';
import { STDIN } from './discover.js';
import { syntaxOf } from '../document/syntax.js';

/** Files that are not documents (keys, certificates, package.json) are small; this bounds what they may cost. */
export const MAX_SMALL_FILE = 16 * 1024 * 1024;
export const DEFAULT_MAX_DOCUMENT = 512 * 1024 * 1024;

/**
 * Opens a named file for reading, refusing anything but a regular file without ever blocking: a FIFO opened
 * plainly waits for a writer forever, and a device such as /dev/zero never ends. The size bound is checked on
 * the open file, so a file swapped after a stat cannot slip past it.
 */
function openRegular(file: string, maxSize: number): { fd: number; size: number } {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw ioError(file, error);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw ioError(file, Object.assign(new Error('directory'), { code: 'EISDIR' }));
    if (!stat.isFile()) {
      throw new BomwrightError(
        'E_READ',
        `Cannot read ${file}: not a regular file (a pipe, device or socket); pass such content on standard input (-)`,
      );
    }
    if (stat.size > maxSize)
      throw new BomwrightError('E_READ', `Cannot read ${file}: ${stat.size} bytes, over the limit of ${maxSize} bytes`);
    return { fd, size: stat.size };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** A whole regular file of at most `maxSize` bytes, or an E_NOT_FOUND / E_READ error that names it. */
export function readFileOrFail(file: string, maxSize = MAX_SMALL_FILE): Buffer {
  const { fd } = openRegular(file, maxSize);
  try {
    return readFileSync(fd);
  } catch (error) {
    throw ioError(file, error);
  } finally {
    closeSync(fd);
  }
}

/**
 * A previous release named on the command line, which may be a pipe: `--baseline <(git show HEAD~1:bom.json)`
 * hands over /dev/fd/N, written by a process that is already running. A pipe is read to its end (at most
 * `maxSize` bytes); a device or socket is refused as for any document; a regular file is read as usual.
 */
export function readBaselineBytes(file: string, maxSize = DEFAULT_MAX_DOCUMENT): Buffer {
  let fifo: boolean;
  try {
    const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      fifo = fstatSync(fd).isFIFO();
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw ioError(file, error);
  }
  if (!fifo) return readFileOrFail(file, maxSize);
  const chunks: Buffer[] = [];
  let size = 0;
  let fd: number | undefined;
  try {
    // Blocking: the writer of a process substitution is there, and a read waits for its output.
    fd = openSync(file, constants.O_RDONLY);
    const chunk = Buffer.allocUnsafe(1 << 16);
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      size += n;
      if (size > maxSize) throw new BomwrightError('E_READ', `Cannot read ${file}: over the limit of ${maxSize} bytes`);
      chunks.push(Buffer.from(chunk.subarray(0, n)));
    }
  } catch (error) {
    throw error instanceof BomwrightError ? error : ioError(file, error);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return Buffer.concat(chunks);
}

/** Reads one input, refusing more than maxSize bytes without reading them (then only the size is returned). */
export async function readInput(source: string, maxSize: number): Promise<{ bytes?: Uint8Array; size: number }> {
  if (source === STDIN) return readStdin(maxSize);
  // Synchronous on purpose: one document at a time, and node:fs/promises costs start-up time.
  let opened: { fd: number; size: number };
  try {
    opened = openRegular(source, Number.MAX_SAFE_INTEGER);
  } catch (error) {
    throw error instanceof BomwrightError ? error : ioError(source, error);
  }
  try {
    if (opened.size > maxSize) return { size: opened.size };
    return { bytes: readFileSync(opened.fd), size: opened.size };
  } catch (error) {
    throw ioError(source, error);
  } finally {
    closeSync(opened.fd);
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

/** Words for the errno codes people meet with files; other codes as they are. */
export function errnoReason(error: unknown, missing = 'no such file'): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return missing;
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENAMETOOLONG':
      return 'the path is too long';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    default:
      return code ?? 'unreadable';
  }
}

/** One wording per reason a file cannot be read; a missing file is E_NOT_FOUND, anything else E_READ. */
export function ioError(source: string, error: unknown): BomwrightError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return new BomwrightError(
    code === 'ENOENT' || code === 'ENOTDIR' ? 'E_NOT_FOUND' : 'E_READ',
    `Cannot read ${source}: ${errnoReason(error)}`,
    { cause: error },
  );
}

const MARKERS = ['"bomFormat"', '"specVersion"'];
const BYTE_MARKERS = MARKERS.flatMap((m) => [
  Buffer.from(m, 'utf8'),
  Buffer.from(m, 'utf16le'),
  Buffer.from(m, 'utf16le').swap16(),
]);
const BLANK = /^[\t\n\r ]*$/;
/** A CycloneDX XML document's root element declares the namespace (not a comment or another element). */
const XML_NAMESPACE = 'http://cyclonedx.org/schema/bom/';
/** What may stand before the root element: white space, the declaration and other instructions, comments, a DOCTYPE. */
const PROLOG = /^(?:[\t\n\r ]+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE(?:[^[>]|\[[^\]]*\])*>)*/;
/** A start tag, its attribute values quoted (a `>` may stand inside one). */
const START_TAG = /^<[^\s/>!?]+(?:[^"'>]|"[^"]*"|'[^']*')*>?/;
const CYCLONEDX_XMLNS = /\sxmlns(?::[^\s=]+)?\s*=\s*(["'])http:\/\/cyclonedx\.org\/schema\/bom\//;

/**
 * Whether the root element of `text` (all of it, or the head of a file) declares the CycloneDX namespace. A pom.xml
 * that names it in a comment is not a BOM; a head that ends in the prolog falls back to any mention.
 */
function looksLikeXmlBom(text: string): boolean {
  if (syntaxOf(text) !== 'xml') return false;
  const body = text.replace(/^\uFEFF/, '');
  const prolog = PROLOG.exec(body)![0].length;
  if (prolog === body.length) return body.includes(XML_NAMESPACE);
  const root = START_TAG.exec(body.slice(prolog, prolog + 65536));
  return root !== null && CYCLONEDX_XMLNS.test(root[0]);
}

/**
 * Cheap test for "looks like a BOM", used to skip other JSON and XML files found in directories or by patterns:
 * the content names bomFormat or specVersion (in UTF-8 or, for bytes, UTF-16), or it is markup that names the
 * CycloneDX XML namespace (a Maven pom.xml or a JUnit report is skipped). Empty files count: an empty bom.json
 * is what a crashed generator leaves behind, which CI must catch.
 */
export function looksLikeBom(content: string | Uint8Array): boolean {
  if (typeof content === 'string') {
    return (
      (content.length <= 64 && BLANK.test(content)) ||
      MARKERS.some((marker) => content.includes(marker)) ||
      looksLikeXmlBom(content)
    );
  }
  const buffer = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  if (buffer.length <= 64 && BLANK.test(buffer.toString('latin1'))) return true;
  // XML in UTF-8 or UTF-16: its root element opens near the top.
  if (looksLikeXmlBom(headText(content))) return true;
  return BYTE_MARKERS.some((marker) => buffer.includes(marker));
}

/**
 * A file's content as text, in the cheapest way that is still exact. Node's own UTF-8 read produces the string
 * without a JavaScript buffer (which would otherwise stay in memory beside the text and the parsed document);
 * it replaces invalid bytes with U+FFFD, so text holding U+FFFD or NUL (UTF-16) is read again as bytes and
 * checked strictly.
 */
export function readDocumentText(
  file: string,
  maxSize = DEFAULT_MAX_DOCUMENT,
): { decoded: DecodeResult; looksLikeBom: boolean } {
  let text: string;
  const first = openRegular(file, maxSize);
  try {
    // Node decodes a file named by path straight into a string; read by descriptor it goes through a buffer as
    // large as the file. On Linux the open file itself has a path, so the checked file is read the fast way.
    text = readFileSync(process.platform === 'linux' ? `/proc/self/fd/${first.fd}` : first.fd, 'utf8');
  } catch (error) {
    throw ioError(file, error);
  } finally {
    closeSync(first.fd);
  }
  if (!text.includes('\uFFFD') && !text.includes('\u0000')) {
    const decoded = decodedDocumentText(text);
    // Text that cannot be decoded is reported, never skipped.
    return { decoded, looksLikeBom: decoded.text === undefined || looksLikeBom(decoded.text) };
  }
  const bytes = readFileOrFail(file, maxSize);
  return { decoded: decodeDocumentBytes(bytes), looksLikeBom: looksLikeBom(bytes) };
}
