/**
 * Bytes → text for a document of either syntax (src/document/decode.ts): XML in UTF-8 or UTF-16 (XML 1.0 §4.3.3,
 * Appendix F), told by a byte-order mark or by the bytes of `<?`; JSON in UTF-8 only. In-process, through the
 * functions the readers call.
 */
import { describe, expect, it } from 'vitest';
import { decodedDocumentText, decodeDocumentBytes, headText, startsAsXml } from '../../src/document/decode.js';

const XML =
  '<?xml version="1.0"?><bom xmlns="http://cyclonedx.org/schema/bom/1.6"><name>caf\u00e9 \u{1F600}</name></bom>';
const LE_MARK = [0xff, 0xfe];
const BE_MARK = [0xfe, 0xff];
const UTF8_MARK = [0xef, 0xbb, 0xbf];

function utf16(text: string, order: 'le' | 'be'): number[] {
  const bytes = [...Buffer.from(text, 'utf16le')];
  if (order === 'be') for (let i = 0; i < bytes.length; i += 2) [bytes[i], bytes[i + 1]] = [bytes[i + 1]!, bytes[i]!];
  return bytes;
}
const utf8 = (text: string) => [...Buffer.from(text, 'utf8')];
const decode = (bytes: number[]) => decodeDocumentBytes(new Uint8Array(bytes));

describe('UTF-16, which only XML may be', () => {
  it('is told by its mark in either byte order: the text without the mark, no warning', () => {
    expect(decode([...LE_MARK, ...utf16(XML, 'le')])).toEqual({
      text: XML,
      diagnostics: [],
      encoding: 'UTF-16LE',
      mark: true,
    });
    expect(decode([...BE_MARK, ...utf16(XML, 'be')])).toEqual({
      text: XML,
      diagnostics: [],
      encoding: 'UTF-16BE',
      mark: true,
    });
  });

  it('is told without a mark by the bytes of `<?` in either order', () => {
    expect(decode(utf16(XML, 'le'))).toEqual({ text: XML, diagnostics: [], encoding: 'UTF-16LE', mark: false });
    expect(decode(utf16(XML, 'be'))).toEqual({ text: XML, diagnostics: [], encoding: 'UTF-16BE', mark: false });
    // Only `<?` tells it: `<b` in UTF-16 without a mark is read as UTF-8 (whose NULs XML's reader then refuses).
    expect(decode(utf16('<bom/>', 'le'))).toEqual({
      text: '<\u0000b\u0000o\u0000m\u0000/\u0000>\u0000',
      diagnostics: [],
    });
    for (const bytes of [
      [0x3c, 0x00, 0x3f, 0x01],
      [0x3c, 0x01, 0x3f, 0x00],
      [0x00, 0x3c, 0x01, 0x3f],
      [0x01, 0x3c, 0x00, 0x3f],
    ])
      expect(decode(bytes).encoding).toBeUndefined();
  });

  it("UTF-32LE's mark (FF FE 00 00) is not UTF-16's: neither syntax reads it", () => {
    const result = decode([0xff, 0xfe, 0x00, 0x00, ...utf16(XML, 'le')]);
    expect(result.text).toBeUndefined();
    expect(result.diagnostics).toMatchObject([
      { ruleId: 'read/unsupported-encoding', message: 'The file is UTF-32-encoded; JSON documents must be UTF-8' },
    ]);
  });

  it('XML that is not valid UTF-16 is not well-formed, named with its byte order', () => {
    const odd = [...LE_MARK, ...utf16(XML, 'le'), 0x41];
    expect(decode(odd)).toEqual({
      diagnostics: [
        {
          ruleId: 'xml/syntax',
          severity: 'error',
          message:
            'Not well-formed XML: the document is not valid UTF-16LE (an unpaired surrogate or an odd byte count)',
          pointer: '',
        },
      ],
    });
    // An unpaired surrogate, in big-endian order.
    const unpaired = [...BE_MARK, ...utf16(XML.replace('</bom>', ''), 'be'), 0xd8, 0x00, ...utf16('</bom>', 'be')];
    expect(decode(unpaired).diagnostics[0]?.message).toContain('not valid UTF-16BE');
    // The start is looked at only so far: a fault past 1024 bytes still refuses the document as XML.
    const far = [...LE_MARK, ...utf16(`${XML}${' '.repeat(600)}`, 'le'), 0x41];
    expect(decode(far).diagnostics[0]?.ruleId).toBe('xml/syntax');
  });

  it('JSON in UTF-16 stays refused, as JSON requires, valid UTF-16 or not', () => {
    const refused = {
      diagnostics: [
        {
          ruleId: 'read/unsupported-encoding',
          severity: 'error',
          message: 'The file is UTF-16-encoded; JSON documents must be UTF-8',
          pointer: '',
          line: 1,
          column: 1,
        },
      ],
    };
    expect(decode([...LE_MARK, ...utf16('{"bomFormat":"CycloneDX"}', 'le')])).toEqual(refused);
    expect(decode([...BE_MARK, ...utf16('{"a":1}', 'be'), 0x41])).toEqual(refused);
  });
});

describe('UTF-8', () => {
  it("an XML document's one mark is no warning; JSON's is", () => {
    expect(decode([...UTF8_MARK, ...utf8(XML)])).toEqual({ text: XML, diagnostics: [], mark: true });
    expect(decode(utf8(XML))).toEqual({ text: XML, diagnostics: [] });
    expect(decode([...UTF8_MARK, ...utf8('{}')])).toMatchObject({
      text: '{}',
      diagnostics: [{ ruleId: 'read/byte-order-mark' }],
    });
    expect(decode([...UTF8_MARK, ...utf8('{}')])).not.toHaveProperty('mark');
  });

  it('decoded text is judged the same way', () => {
    expect(decodedDocumentText(`\uFEFF${XML}`)).toEqual({ text: XML, diagnostics: [], mark: true });
    expect(decodedDocumentText(XML)).toEqual({ text: XML, diagnostics: [] });
    expect(decodedDocumentText('\uFEFF{}')).toMatchObject({
      text: '{}',
      diagnostics: [{ ruleId: 'read/byte-order-mark' }],
    });
    expect(decodedDocumentText('  ')).toMatchObject({ diagnostics: [{ ruleId: 'read/empty' }] });
    // A second mark is text before the document: the first is the encoding's, the second is kept for XML to refuse.
    expect(decodedDocumentText(`\uFEFF\uFEFF${XML}`)).toEqual({ text: `\uFEFF${XML}`, diagnostics: [], mark: true });
    expect(startsAsXml(`\uFEFF ${XML}`)).toBe(true);
    expect(startsAsXml('{"a":"<"}')).toBe(false);
  });
});

describe('the head of a document, to find its markup and root element', () => {
  it('UTF-8 and Latin-1 bytes one character each; one UTF-8 mark dropped; cut at the length asked', () => {
    const bytes = (list: number[]) => new Uint8Array(list);
    expect(headText(bytes(utf8('<bom a="1"/>')))).toBe('<bom a="1"/>');
    expect(headText(bytes([...UTF8_MARK, ...utf8('<bom/>')]))).toBe('<bom/>');
    expect(headText(bytes([...UTF8_MARK, ...UTF8_MARK, ...utf8('<bom/>')]))).toBe('\u00ef\u00bb\u00bf<bom/>');
    expect(headText(bytes([0xef, 0xbb, 0x3c]))).toBe('\u00ef\u00bb<');
    expect(headText(bytes(utf8('caf\u00e9')))).toBe('caf\u00c3\u00a9');
    expect(headText(bytes(utf8('<bom/>')), 4)).toBe('<bom');
    expect(headText(bytes([...UTF8_MARK, ...utf8('<bom/>')]), 4)).toBe('<');
    expect(headText(bytes([...UTF8_MARK, ...utf8('<bom/>')]), 2)).toBe('');
    expect(headText(bytes(utf8('<bom/>')), 100)).toBe('<bom/>');
    expect(headText(new Uint8Array())).toBe('');
    // A view into a larger buffer is read from where it starts.
    const view = new Uint8Array([0x41, 0x42, ...utf8('<bom/>'), 0x43]).subarray(2, 8);
    expect(headText(view)).toBe('<bom/>');
    expect(headText(new Uint8Array([0x41, ...UTF8_MARK, ...utf8('<b/>')]).subarray(1), 5)).toBe('<b');
  });

  it('UTF-16 where the bytes say so, cut at a whole character', () => {
    const bytes = (list: number[]) => new Uint8Array(list);
    expect(headText(bytes([...LE_MARK, ...utf16('<bom/>', 'le')]))).toBe('<bom/>');
    expect(headText(bytes([...BE_MARK, ...utf16('<bom/>', 'be')]))).toBe('<bom/>');
    expect(headText(bytes(utf16('<?x?>', 'le')))).toBe('<?x?>');
    // The length counts the mark's bytes.
    expect(headText(bytes([...LE_MARK, ...utf16('<bom/>', 'le')]), 7)).toBe('<b');
    expect(headText(bytes([...LE_MARK, ...utf16('<bom/>', 'le')]), 8)).toBe('<bo');
  });
});
