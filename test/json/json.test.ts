import { expectLinear } from '../growth.js';
import { describe, expect, it } from 'vitest';
import { decodeJsonBytes, firstInvalidUtf8 } from '../../src/json/decode.js';
import { locatePointers, offsetsToPositions } from '../../src/json/locate.js';
import { parseJsonText } from '../../src/json/parse.js';
import { parsePointer, resolvePointer, toPointer } from '../../src/json/pointer.js';
import { MAX_DEPTH, scanJson } from '../../src/json/scan.js';

const bytes = (...values: number[]) => Uint8Array.from(values);
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('decodeJsonBytes', () => {
  it('accepts a UTF-8 byte-order mark with a warning and strips it', () => {
    const result = decodeJsonBytes(bytes(0xef, 0xbb, 0xbf, ...utf8('{"a":1}')));
    expect(result.text).toBe('{"a":1}');
    expect(result.diagnostics.map((d) => [d.ruleId, d.severity])).toEqual([['read/byte-order-mark', 'warning']]);
  });

  it('rejects invalid UTF-8 with the position of the first bad byte', () => {
    const result = decodeJsonBytes(bytes(...utf8('{\n"a": "'), 0xc3, 0x28, ...utf8('"}')));
    expect(result.text).toBeUndefined();
    expect(result.diagnostics).toMatchObject([{ ruleId: 'read/invalid-utf8', severity: 'error', line: 2, column: 7 }]);
  });

  it.each([
    ['overlong encoding', [0xc0, 0xaf]],
    ['encoded surrogate', [0xed, 0xa0, 0x80]],
    ['above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['truncated sequence', [0xe2, 0x82]],
    ['stray continuation byte', [0x80]],
  ])('finds the %s', (_name, sequence) => {
    expect(firstInvalidUtf8(bytes(0x61, ...sequence, 0x62))).toBe(1);
    expect(decodeJsonBytes(bytes(0x22, ...sequence, 0x22)).diagnostics[0]?.ruleId).toBe('read/invalid-utf8');
  });

  it('rejects UTF-16 and UTF-32 documents by their byte-order mark', () => {
    expect(decodeJsonBytes(bytes(0xff, 0xfe, 0x7b, 0x00)).diagnostics[0]).toMatchObject({
      ruleId: 'read/unsupported-encoding',
    });
    expect(decodeJsonBytes(bytes(0xfe, 0xff, 0x00, 0x7b)).diagnostics[0]?.message).toContain('UTF-16');
    expect(decodeJsonBytes(bytes(0xff, 0xfe, 0x00, 0x00)).diagnostics[0]?.message).toContain('UTF-32');
  });

  it('reports an empty or blank file', () => {
    expect(decodeJsonBytes(bytes()).diagnostics[0]?.ruleId).toBe('read/empty');
    expect(decodeJsonBytes(utf8(' \n\t ')).diagnostics[0]?.ruleId).toBe('read/empty');
  });
});

describe('parseJsonText', () => {
  it.each([
    ['{"a":1,}', 1, 8],
    ['{\n  "a": [1,\n    2 3]}', 3, 7],
    ['{"a": 1}\nx', 2, 1],
    ['{"a":', 1, 6],
    ['{"a": "x\ny"}', 1, 9],
  ])('reports syntax errors in %j with line:column', (text, line, column) => {
    const { value, diagnostics } = parseJsonText(text);
    expect(value).toBeUndefined();
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ ruleId: 'json/syntax', severity: 'error', line, column });
    expect(diagnostics[0]!.message).not.toMatch(/position/);
  });

  it('reports every duplicate member name with its pointer and position', () => {
    const text = '{\n  "a": 1,\n  "b": {"x": 1, "x": 2},\n  "a": 3\n}';
    const { value, diagnostics } = parseJsonText(text);
    expect(value).toEqual({ a: 3, b: { x: 2 } });
    expect(diagnostics.map((d) => [d.ruleId, d.pointer, d.line, d.column])).toEqual([
      ['json/duplicate-key', '/b/x', 3, 17],
      ['json/duplicate-key', '/a', 4, 3],
    ]);
  });

  it('compares member names after unescaping', () => {
    const { diagnostics } = parseJsonText('{"a": 1, "\\u0061": 2}');
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]!.message).toBe('Duplicate member name "a"');
  });

  it('does not confuse values, escaped quotes or array items with member names', () => {
    const text = '{"a": "a", "b": ["a", "a"], "c": "x\\"a\\":", "d": [{"a": 1}, {"a": 2}]}';
    expect(parseJsonText(text).diagnostics).toEqual([]);
  });

  it('finds duplicates in objects with many members', () => {
    const members = Array.from({ length: 50 }, (_, i) => `"k${i}": ${i}`);
    members.push('"k7": 0');
    expect(parseJsonText(`{${members.join(',')}}`).diagnostics.map((d) => d.pointer)).toEqual(['/k7']);
  });

  it('rejects unpaired surrogate escapes but accepts pairs', () => {
    expect(parseJsonText('{"a": "\\ud83d\\ude00"}').diagnostics).toEqual([]);
    for (const bad of [
      '"\\ud83d"',
      '"\\ude00"',
      '"\\ud83dx"',
      '"\\ud83d\\n"',
      '"\\ud83d\\ud83d"',
      '"x\\ude00\\ud83d"',
    ]) {
      const { diagnostics } = parseJsonText(`{"a": [1, ${bad}]}`);
      expect(
        diagnostics.map((d) => [d.ruleId, d.pointer]),
        bad,
      ).toEqual([['json/lone-surrogate', '/a/1']]);
    }
  });

  it('rejects unpaired surrogates in member names', () => {
    expect(parseJsonText('{"\\udc00": 1}').diagnostics[0]?.ruleId).toBe('json/lone-surrogate');
  });

  it('rejects raw unpaired surrogates in text given as a string', () => {
    expect(parseJsonText('{"a": "\ud800"}').diagnostics.map((d) => d.ruleId)).toEqual(['json/lone-surrogate']);
  });

  it('refuses nesting deeper than the limit and returns no value', () => {
    const deep = '['.repeat(MAX_DEPTH + 1) + ']'.repeat(MAX_DEPTH + 1);
    const result = parseJsonText(deep);
    expect(result.value).toBeUndefined();
    expect(result.diagnostics.map((d) => d.ruleId)).toEqual(['json/too-deep']);
    const fine = '['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH);
    expect(parseJsonText(fine).diagnostics).toEqual([]);
  });

  it('scans a large document in linear time', () => {
    const document = (size: number) => {
      const items = Array.from({ length: size }, (_, i) => `{"name":"n${i}","v":"\\u00e9${i}"}`);
      return `{"items":[${items.join(',')}]}`;
    };
    expect(scanJson(document(1000))).toEqual([]);
    expectLinear((size) => {
      const text = document(size);
      return () => scanJson(text);
    }, 60_000);
  });
});

describe('locatePointers', () => {
  const text = '{\n  "a": {"b~c": [10, {"d/e": true}]},\n  "x\\ty": null,\n  "n": -1.5e3\n}';

  it('maps members to their name and items to their value', () => {
    const pointers = ['', '/a', '/a/b~0c', '/a/b~0c/0', '/a/b~0c/1/d~1e', '/x\ty', '/n', '/missing', '/a/b~0c/9'];
    const offsets = locatePointers(text, pointers);
    const positions = offsetsToPositions(text, offsets.values());
    const at = (p: string) => {
      const offset = offsets.get(p);
      return offset === undefined ? undefined : positions.get(offset);
    };
    expect(at('')).toEqual({ line: 1, column: 1 });
    expect(at('/a')).toEqual({ line: 2, column: 3 });
    expect(at('/a/b~0c')).toEqual({ line: 2, column: 9 });
    expect(at('/a/b~0c/0')).toEqual({ line: 2, column: 17 });
    expect(at('/a/b~0c/1/d~1e')).toEqual({ line: 2, column: 22 });
    expect(at('/x\ty')).toEqual({ line: 3, column: 3 });
    expect(at('/n')).toEqual({ line: 4, column: 3 });
    expect(at('/missing')).toBeUndefined();
    expect(at('/a/b~0c/9')).toBeUndefined();
  });
});

describe('JSON pointers', () => {
  it('round-trips escaped segments', () => {
    expect(toPointer(['a/b', 'c~d', 0])).toBe('/a~1b/c~0d/0');
    expect(parsePointer('/a~1b/c~0d/0')).toEqual(['a/b', 'c~d', '0']);
  });

  it('follows only own members, so __proto__ paths resolve to nothing', () => {
    expect(resolvePointer({ a: [1, { b: 2 }] }, '/a/1/b')).toBe(2);
    expect(resolvePointer({}, '/__proto__')).toBeUndefined();
    expect(resolvePointer({}, '/constructor/name')).toBeUndefined();
    expect(resolvePointer([1], '/01')).toBeUndefined();
  });

  it('reads every segment in place: empty names, escapes, and array indexes on both sides of their form', () => {
    const document = { '': { '': 1 }, 'a/b': { 'c~d': 2 }, '~1': 3, list: [10, 11, ['x']] };
    expect(resolvePointer(document, '')).toBe(document);
    expect(resolvePointer(document, '/')).toEqual({ '': 1 });
    expect(resolvePointer(document, '//')).toBe(1);
    expect(resolvePointer(document, '/a~1b/c~0d')).toBe(2);
    expect(resolvePointer(document, '/~01')).toBe(3);
    expect(resolvePointer(document, '/list/0')).toBe(10);
    expect(resolvePointer(document, '/list/1')).toBe(11);
    expect(resolvePointer(document, '/list/2/0')).toBe('x');
    for (const index of ['3', '00', '01', '-1', '1a', 'a', '', ' 1', '1.0', '9'.repeat(16), '1/x'])
      expect(resolvePointer(document, `/list/${index}`), index).toBeUndefined();
    expect(resolvePointer(document, '/list/1/x')).toBeUndefined();
    expect(resolvePointer(document, '/missing/0')).toBeUndefined();
    expect(resolvePointer(null, '/a')).toBeUndefined();
    expect(resolvePointer('text', '/0')).toBeUndefined();
  });
});

describe('scanJson on malformed text', () => {
  it.each(['{"a": "unterminated', '{"a\\', ']]],,,', '{"a": "x\\"', ',', '"', '{"k": "\\u12'])(
    'neither loops nor throws on %j',
    (text) => {
      expect(() => scanJson(text)).not.toThrow();
      expect(parseJsonText(text).diagnostics.map((d) => d.ruleId)).toEqual(['json/syntax']);
    },
  );
});
