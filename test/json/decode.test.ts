import { describe, expect, it } from 'vitest';
import { decodedText, decodeJsonBytes, firstInvalidUtf8 } from '../../src/json/decode.js';

const bytes = (...values: number[]) => Uint8Array.from(values);
const utf8 = (text: string) => new TextEncoder().encode(text);

// RFC 3629 §4: the lead byte decides the length and the range of the first continuation byte.
describe('UTF-8 well-formedness at every boundary (RFC 3629)', () => {
  it.each([
    ['0x7f', [0x7f]],
    ['0xc2 0x80 (smallest two-byte)', [0xc2, 0x80]],
    ['0xdf 0xbf (largest two-byte)', [0xdf, 0xbf]],
    ['0xe0 0xa0 0x80 (smallest three-byte)', [0xe0, 0xa0, 0x80]],
    ['0xe1 0x80 0x80', [0xe1, 0x80, 0x80]],
    ['0xed 0x9f 0xbf (just below the surrogates)', [0xed, 0x9f, 0xbf]],
    ['0xee 0x80 0x80 (just above the surrogates)', [0xee, 0x80, 0x80]],
    ['0xef 0xbf 0xbf (largest three-byte)', [0xef, 0xbf, 0xbf]],
    ['0xf0 0x90 0x80 0x80 (smallest four-byte)', [0xf0, 0x90, 0x80, 0x80]],
    ['0xf3 0xbf 0xbf 0xbf', [0xf3, 0xbf, 0xbf, 0xbf]],
    ['0xf4 0x8f 0xbf 0xbf (U+10FFFF)', [0xf4, 0x8f, 0xbf, 0xbf]],
  ])('accepts %s, and what follows it is read from the right place', (_name, sequence) => {
    // The sequence is valid, so an invalid byte after it is found exactly where it is.
    const input = bytes(0x61, ...sequence, 0x62, ...sequence, 0xff);
    expect(firstInvalidUtf8(input)).toBe(input.length - 1);
    expect(firstInvalidUtf8(bytes(0x61, ...sequence, 0x62))).toBe(sequence.length + 2);
  });

  it.each([
    ['0x80 (continuation byte as lead)', [0x80]],
    ['0xc0 0x80 (overlong)', [0xc0, 0x80]],
    ['0xc1 0xbf (overlong)', [0xc1, 0xbf]],
    ['0xc2 0x7f (continuation below range)', [0xc2, 0x7f]],
    ['0xc2 0xc0 (continuation above range)', [0xc2, 0xc0]],
    ['0xe0 0x9f 0xbf (overlong three-byte)', [0xe0, 0x9f, 0xbf]],
    ['0xe1 0x7f 0x80', [0xe1, 0x7f, 0x80]],
    ['0xe1 0x80 0x7f (bad third byte)', [0xe1, 0x80, 0x7f]],
    ['0xe1 0x80 0xc0 (bad third byte)', [0xe1, 0x80, 0xc0]],
    ['0xed 0xa0 0x80 (encoded surrogate)', [0xed, 0xa0, 0x80]],
    ['0xef 0xc0 0x80', [0xef, 0xc0, 0x80]],
    ['0xf0 0x8f 0xbf 0xbf (overlong four-byte)', [0xf0, 0x8f, 0xbf, 0xbf]],
    ['0xf1 0x80 0x80 0x7f (bad fourth byte)', [0xf1, 0x80, 0x80, 0x7f]],
    ['0xf4 0x90 0x80 0x80 (above U+10FFFF)', [0xf4, 0x90, 0x80, 0x80]],
    ['0xf5 0x80 0x80 0x80 (no such lead byte)', [0xf5, 0x80, 0x80, 0x80]],
    ['0xff', [0xff]],
  ])('refuses %s at its first byte', (_name, sequence) => {
    expect(firstInvalidUtf8(bytes(0x61, 0x62, ...sequence, 0x63))).toBe(2);
    expect(decodeJsonBytes(bytes(0x22, ...sequence, 0x22)).diagnostics).toEqual([
      {
        ruleId: 'read/invalid-utf8',
        severity: 'error',
        message: 'Invalid UTF-8 byte sequence at byte offset 1',
        pointer: '',
        line: 1,
        column: 2,
      },
    ]);
  });

  it.each([
    ['two-byte', [0xc3]],
    ['three-byte', [0xe2, 0x82]],
    ['four-byte', [0xf0, 0x9f, 0x98]],
  ])('refuses a %s sequence cut off by the end of the input', (_name, sequence) => {
    expect(firstInvalidUtf8(bytes(0x61, ...sequence))).toBe(1);
  });

  it('starts where it is told, and says "no error" with the length', () => {
    expect(firstInvalidUtf8(bytes(0xff, 0x61, 0x62), 1)).toBe(3);
    expect(firstInvalidUtf8(bytes())).toBe(0);
  });

  it('counts the line, and the column in bytes, after a byte-order mark and multi-byte characters', () => {
    const input = bytes(0xef, 0xbb, 0xbf, ...utf8('{\n"é": "'), 0xc3, 0x28, ...utf8('"}'));
    expect(decodeJsonBytes(input).diagnostics.at(-1)).toMatchObject({ line: 2, column: 8 });
  });
});

describe('decoding the whole file', () => {
  it('warns about a UTF-8 byte-order mark at 1:1 and strips it', () => {
    expect(decodeJsonBytes(bytes(0xef, 0xbb, 0xbf, ...utf8('[]')))).toEqual({
      text: '[]',
      diagnostics: [
        {
          ruleId: 'read/byte-order-mark',
          severity: 'warning',
          message: 'The file starts with a UTF-8 byte-order mark',
          pointer: '',
          line: 1,
          column: 1,
        },
      ],
    });
  });

  it('strips one byte-order mark only: a second one is text, which JSON refuses', () => {
    const { text, diagnostics } = decodeJsonBytes(bytes(0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, ...utf8('{}')));
    expect(text).toBe('\ufeff{}');
    expect(diagnostics.map((d) => d.ruleId)).toEqual(['read/byte-order-mark']);
  });

  it('keeps a byte-order mark that is not at the start (it is content)', () => {
    expect(decodeJsonBytes(utf8('["\ufeff"]'))).toEqual({ text: '["\ufeff"]', diagnostics: [] });
  });

  it('names the encoding of UTF-16 and UTF-32 files at 1:1', () => {
    expect(decodeJsonBytes(bytes(0x00, 0x00, 0xfe, 0xff, 0, 0, 0, 0x7b)).diagnostics).toEqual([
      {
        ruleId: 'read/unsupported-encoding',
        severity: 'error',
        message: 'The file is UTF-32-encoded; JSON documents must be UTF-8',
        pointer: '',
        line: 1,
        column: 1,
      },
    ]);
  });

  it('does not mistake short input for a byte-order mark', () => {
    expect(decodeJsonBytes(bytes(0xef, 0xbb)).diagnostics.map((d) => d.ruleId)).toEqual(['read/invalid-utf8']);
    expect(decodeJsonBytes(utf8('1')).text).toBe('1');
  });

  it.each([[''], [' '], ['\n\t\r ']])('reports %j as empty', (text) => {
    const empty = { ruleId: 'read/empty', severity: 'error', message: 'The file is empty', pointer: '' };
    expect(decodeJsonBytes(utf8(text))).toEqual({ diagnostics: [empty] });
    expect(decodedText(text)).toEqual({ diagnostics: [empty] });
  });

  it('does not call text with content empty', () => {
    expect(decodeJsonBytes(utf8(' 0 '))).toEqual({ text: ' 0 ', diagnostics: [] });
    expect(decodedText(' x')).toEqual({ text: ' x', diagnostics: [] });
  });

  it('applies the same byte-order-mark rule to text decoded by the caller', () => {
    const { text, diagnostics } = decodedText('\ufeff{}');
    expect(text).toBe('{}');
    expect(diagnostics).toEqual([expect.objectContaining({ ruleId: 'read/byte-order-mark', line: 1, column: 1 })]);
    expect(decodedText('\ufeff').diagnostics.map((d) => d.ruleId)).toEqual(['read/byte-order-mark', 'read/empty']);
    expect(decodedText('{}\ufeff')).toEqual({ text: '{}\ufeff', diagnostics: [] });
  });
});
