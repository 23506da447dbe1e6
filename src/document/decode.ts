/**
 * Bytes → text for a document that may be JSON or XML. JSON must be UTF-8 (json/decode.ts); XML follows XML 1.0
 * §4.3.3 and its Appendix F, as libxml2 (xmllint) reads it: UTF-8 or UTF-16, told by a byte-order mark (FE FF,
 * FF FE) or, without one, by the bytes of `<?` (00 3C 00 3F, 3C 00 3F 00). One mark belongs to the encoding and
 * is no warning; a second U+FEFF is text before the document, which is not well-formed (validate/xml.ts).
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { decodedText, decodeJsonBytes, type DecodeResult } from '../json/decode.js';
import { syntaxOf } from './syntax.js';

/** Markup first, after any further byte-order marks and white space: XML (JSON never starts so). */
export function startsAsXml(text: string): boolean {
  return syntaxOf(text) === 'xml';
}

type Utf16 = 'UTF-16LE' | 'UTF-16BE';

/** The UTF-16 form the first bytes announce, and how many bytes the mark takes; undefined when none. */
function utf16Of(bytes: Uint8Array): { encoding: Utf16; skip: number } | undefined {
  const [b0, b1, b2, b3] = bytes;
  if (b0 === 0xfe && b1 === 0xff) return { encoding: 'UTF-16BE', skip: 2 };
  // FF FE 00 00 is UTF-32LE's mark, which neither syntax reads.
  if (b0 === 0xff && b1 === 0xfe && !(b2 === 0 && b3 === 0)) return { encoding: 'UTF-16LE', skip: 2 };
  if (b0 === 0x00 && b1 === 0x3c && b2 === 0x00 && b3 === 0x3f) return { encoding: 'UTF-16BE', skip: 0 };
  if (b0 === 0x3c && b1 === 0x00 && b2 === 0x3f && b3 === 0x00) return { encoding: 'UTF-16LE', skip: 0 };
  return undefined;
}

const decoders = {
  'UTF-16LE': new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true }),
  'UTF-16BE': new TextDecoder('utf-16be', { fatal: true, ignoreBOM: true }),
};

/** {@link decodeJsonBytes} for a document of either syntax: XML may also be UTF-16, and its mark is no warning. */
export function decodeDocumentBytes(bytes: Uint8Array): DecodeResult {
  const utf16 = utf16Of(bytes);
  if (utf16 !== undefined) {
    let text: string;
    try {
      text = decoders[utf16.encoding].decode(bytes.subarray(utf16.skip));
    } catch {
      const lenient = new TextDecoder(utf16.encoding.toLowerCase()).decode(bytes.subarray(utf16.skip, 1024));
      return startsAsXml(lenient) ? { diagnostics: [notUtf16(utf16.encoding)] } : decodeJsonBytes(bytes);
    }
    // UTF-16 JSON stays refused, as JSON requires.
    if (startsAsXml(text)) return { text, diagnostics: [], encoding: utf16.encoding, mark: utf16.skip > 0 };
    return decodeJsonBytes(bytes);
  }
  return withoutMarkWarning(decodeJsonBytes(bytes));
}

/** {@link decodedText} for a document of either syntax: an XML document's one mark is no warning. */
export function decodedDocumentText(text: string): DecodeResult {
  return withoutMarkWarning(decodedText(text));
}

function withoutMarkWarning(decoded: DecodeResult): DecodeResult {
  if (decoded.text === undefined || !startsAsXml(decoded.text)) return decoded;
  const diagnostics = decoded.diagnostics.filter((d) => d.ruleId !== 'read/byte-order-mark');
  if (diagnostics.length === decoded.diagnostics.length) return decoded;
  return { ...decoded, diagnostics, mark: true };
}

/**
 * The first `length` bytes as text, enough to find the markup and the root element a walk looks for: UTF-16 where
 * the bytes say so, otherwise Latin-1 (every byte one character, ASCII names as they are), one UTF-8 mark dropped.
 */
export function headText(bytes: Uint8Array, length = 65536): string {
  const utf16 = utf16Of(bytes);
  if (utf16 !== undefined)
    return new TextDecoder(utf16.encoding.toLowerCase()).decode(bytes.subarray(utf16.skip, length & ~1));
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return Buffer.from(
    bytes.buffer,
    bytes.byteOffset + start,
    Math.max(0, Math.min(bytes.byteLength, length) - start),
  ).toString('latin1');
}

function notUtf16(encoding: Utf16): Diagnostic {
  return {
    ruleId: 'xml/syntax',
    severity: 'error',
    message: `Not well-formed XML: the document is not valid ${encoding} (an unpaired surrogate or an odd byte count)`,
    pointer: '',
  };
}
