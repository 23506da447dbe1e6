import type { Diagnostic } from '../diagnostics/diagnostic.js';

export interface DecodeResult {
  /** The text without a leading byte-order mark; undefined when the bytes cannot be decoded. */
  text?: string;
  diagnostics: Diagnostic[];
  /** XML read from UTF-16 (document/decode.ts); absent for UTF-8. */
  encoding?: 'UTF-16LE' | 'UTF-16BE';
  /** XML whose one byte-order mark was removed without a warning (document/decode.ts), to be written back. */
  mark?: boolean;
}

const fatalDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Bytes → text. JSON must be UTF-8 (RFC 8259 §8.1); a UTF-8 byte-order mark is tolerated with a warning. */
export function decodeJsonBytes(bytes: Uint8Array): DecodeResult {
  const diagnostics: Diagnostic[] = [];
  if (startsWith(bytes, [0x00, 0x00, 0xfe, 0xff]) || startsWith(bytes, [0xff, 0xfe, 0x00, 0x00])) {
    return { diagnostics: [encodingDiagnostic('UTF-32')] };
  }
  if (startsWith(bytes, [0xfe, 0xff]) || startsWith(bytes, [0xff, 0xfe])) {
    return { diagnostics: [encodingDiagnostic('UTF-16')] };
  }
  let start = 0;
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) {
    start = 3;
    diagnostics.push(byteOrderMarkWarning());
  }
  let text: string;
  try {
    text = fatalDecoder.decode(start === 0 ? bytes : bytes.subarray(start));
  } catch {
    const offset = firstInvalidUtf8(bytes, start);
    const { line, column } = byteOffsetToLineColumn(bytes, start, offset);
    diagnostics.push({
      ruleId: 'read/invalid-utf8',
      severity: 'error',
      message: `Invalid UTF-8 byte sequence at byte offset ${offset}`,
      pointer: '',
      line,
      column,
    });
    return { diagnostics };
  }
  if (/^[\t\n\r ]*$/.test(text)) {
    diagnostics.push({ ruleId: 'read/empty', severity: 'error', message: 'The file is empty', pointer: '' });
    return { diagnostics };
  }
  return { text, diagnostics };
}

/**
 * The same checks for text that is already known to be valid UTF-8 (decoded by the caller): a leading
 * byte-order mark is a warning and is removed; blank text is `read/empty`.
 */
export function decodedText(text: string): DecodeResult {
  const diagnostics: Diagnostic[] = [];
  let body = text;
  if (body.charCodeAt(0) === 0xfeff) {
    body = body.slice(1);
    diagnostics.push(byteOrderMarkWarning());
  }
  if (/^[\t\n\r ]*$/.test(body)) {
    diagnostics.push({ ruleId: 'read/empty', severity: 'error', message: 'The file is empty', pointer: '' });
    return { diagnostics };
  }
  return { text: body, diagnostics };
}

/** The warning for a UTF-8 byte-order mark before JSON (which RFC 8259 §8.1 says not to write). */
export function byteOrderMarkWarning(): Diagnostic {
  return {
    ruleId: 'read/byte-order-mark',
    severity: 'warning',
    message: 'The file starts with a UTF-8 byte-order mark',
    pointer: '',
    line: 1,
    column: 1,
  };
}

function encodingDiagnostic(encoding: string): Diagnostic {
  return {
    ruleId: 'read/unsupported-encoding',
    severity: 'error',
    message: `The file is ${encoding}-encoded; JSON documents must be UTF-8`,
    pointer: '',
    line: 1,
    column: 1,
  };
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  if (bytes.length < prefix.length) return false;
  return prefix.every((b, i) => bytes[i] === b);
}

/** Byte offset of the first byte that starts an invalid UTF-8 sequence (RFC 3629: no overlongs, no surrogates). */
export function firstInvalidUtf8(bytes: Uint8Array, from = 0): number {
  let i = from;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lower = 0x80;
    let upper = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lower = 0xa0;
      if (b === 0xed) upper = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lower = 0x90;
      if (b === 0xf4) upper = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined) return i;
      if (k === 1 ? c < lower || c > upper : c < 0x80 || c > 0xbf) return i;
    }
    i += need + 1;
  }
  return n;
}

function byteOffsetToLineColumn(bytes: Uint8Array, start: number, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = start;
  for (let i = start; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
