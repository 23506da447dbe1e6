import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseJsonText, parseJsonTextLettingGo } from '../../src/json/parse.js';
import { decodedText } from '../../src/json/decode.js';
import { treeAgrees } from '../../src/json/quick-scan.js';
import { roundedIntegerLiteral } from '../../src/json/numbers.js';
import { MAX_DEPTH } from '../../src/json/scan.js';
import { RULES } from '../../src/diagnostics/rules.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('parseJsonText: every diagnostic in full', () => {
  it('reports an unpaired surrogate escape at its string', () => {
    expect(parseJsonText('{\n "a": ["x", "\\ud800"]}').diagnostics).toEqual([
      {
        ruleId: 'json/lone-surrogate',
        severity: 'error',
        message: 'String contains an unpaired surrogate escape',
        pointer: '/a/1',
        line: 2,
        column: 13,
      },
    ]);
  });

  it('reports nesting beyond the limit at the container that is too deep, and returns no value', () => {
    expect(RULES['json/too-deep'].description).toContain(`deeper than ${MAX_DEPTH} levels`);
    const text = '{"a": ' + '['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH) + '}';
    const result = parseJsonText(text);
    expect(result.value).toBeUndefined();
    expect(result.diagnostics).toEqual([
      {
        ruleId: 'json/too-deep',
        severity: 'error',
        message: `Nesting is deeper than ${MAX_DEPTH} levels`,
        pointer: '/a' + '/0'.repeat(MAX_DEPTH - 1),
        line: 1,
        column: 6 + MAX_DEPTH,
      },
    ]);
  });

  it.each([
    ['"x\ud800"', 1, 3],
    ['"\ud83d\ude00\udc00"', 1, 4],
    ['[\n"ab\udbff"]', 2, 4],
    ['"\udfff"', 1, 2],
    ['"\ud800x\udc00"', 1, 2],
    ['["\ud83d\ude00\ud83d\ude00", "\ud800"]', 1, 11],
  ])('reports a raw unpaired surrogate in %j at %i:%i, after well-formed pairs', (text, line, column) => {
    expect(parseJsonText(text).diagnostics).toEqual([
      {
        ruleId: 'json/lone-surrogate',
        severity: 'error',
        message: 'Text contains an unpaired surrogate',
        pointer: '',
        line,
        column,
      },
    ]);
  });

  it('accepts raw surrogate pairs at the edges of their ranges', () => {
    expect(parseJsonText('["\ud800\udc00", "\udbff\udfff", "\ud7ff\ue000"]').diagnostics).toEqual([]);
  });
});

describe('syntax error messages', () => {
  it('say "Unexpected end of input" for a cut-off document', () => {
    expect(parseJsonText('{"a":').diagnostics).toEqual([
      { ruleId: 'json/syntax', severity: 'error', message: 'Unexpected end of input', pointer: '', line: 1, column: 6 },
    ]);
  });

  it('never quote the document, even where the engine abbreviates it', () => {
    const name = 'a'.repeat(48);
    const text = `{"${name}": 1, "b": x, "${'c'.repeat(40)}": 2}`;
    expect(parseJsonText(text).diagnostics).toEqual([
      { ruleId: 'json/syntax', severity: 'error', message: "Unexpected token 'x'", pointer: '', line: 1, column: 62 },
    ]);
  });

  it('escape control characters, so a report stays one line and the terminal is not driven', () => {
    const [diagnostic] = parseJsonText('{"a":\u0001}').diagnostics;
    expect(diagnostic!.message).toBe("Unexpected token '\\u0001'");
    const [bell] = parseJsonText('[\u007f]').diagnostics;
    expect(bell!.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  // Newer V8 versions phrase JSON.parse errors differently: the same cleaning applies to their messages.
  it.each([
    ['Unexpected token \'}\', "{"a":1,}" is not valid JSON', "Unexpected token '}'"],
    ['Unexpected token \'}\', ..."a":\n1,}" is not valid JSON', "Unexpected token '}'"],
    ['Unexpected token \'}\', ..."a":\n1,}"... is not valid JSON', "Unexpected token '}'"],
    [
      "Expected ',' or '}' after property value in JSON at position 9 (line 1 column 10)",
      "Expected ',' or '}' after property value",
    ],
    ['Expected double-quoted property name (line 12 column 345)', 'Expected double-quoted property name'],
    ['Unexpected end of JSON input', 'Unexpected end of input'],
    ['Bad control character \u2028 in string literal', 'Bad control character \\u2028 in string literal'],
    ['Unexpected end of JSON input (line 1 column 2) later', 'Unexpected end of JSON input (line 1 column 2) later'],
  ])('clean the engine message %j', (raw, message) => {
    vi.spyOn(JSON, 'parse').mockImplementation(() => {
      throw new SyntaxError(raw);
    });
    const [diagnostic] = parseJsonText('{"a":1,}').diagnostics;
    expect(diagnostic).toMatchObject({ ruleId: 'json/syntax', message, pointer: '' });
  });

  it('use the position the engine names, and find one when it names none', () => {
    vi.spyOn(JSON, 'parse').mockImplementation(() => {
      throw new SyntaxError('Something went wrong in JSON at position 3');
    });
    expect(parseJsonText('[\n1,]').diagnostics[0]).toMatchObject({
      message: 'Something went wrong',
      line: 2,
      column: 2,
    });
    vi.spyOn(JSON, 'parse').mockImplementation(() => {
      throw new SyntaxError('Something went wrong');
    });
    expect(parseJsonText('[\n1,]').diagnostics[0]).toMatchObject({
      message: 'Something went wrong',
      line: 2,
      column: 3,
    });
  });
});

describe('parseJsonTextLettingGo: the text handed over, read again only for the exact scan', () => {
  const run = (first: string, again: string = first) => {
    const calls = { take: 0, readAgain: 0 };
    const result = parseJsonTextLettingGo(
      () => (calls.take++, first),
      () => (calls.readAgain++, decodedText(again)),
      treeAgrees,
    );
    return { result, calls };
  };

  it('gives a clean text the same result as parseJsonText without reading it again', () => {
    for (const text of ['{"a": [1.5, {"b": "c"}]}', '[]', '"x"', '{"a": {}}']) {
      const { result, calls } = run(text);
      expect(result).toEqual(parseJsonText(text));
      expect(calls).toEqual({ take: 1, readAgain: 0 });
    }
  });

  it('reports a syntax error at its place without reading again', () => {
    const { result, calls } = run('{\n "a": }');
    expect(result).toEqual(parseJsonText('{\n "a": }'));
    expect(result.diagnostics).toMatchObject([{ ruleId: 'json/syntax', line: 2, column: 7 }]);
    expect(calls).toEqual({ take: 1, readAgain: 0 });
  });

  it('finds an unpaired surrogate in a tree that agrees with its text, without reading again', () => {
    const text = '{"a": "x\ud800"}';
    const { result, calls } = run(text);
    expect(result.diagnostics).toMatchObject([
      { ruleId: 'json/lone-surrogate', message: 'Text contains an unpaired surrogate' },
    ]);
    expect(result).toEqual(parseJsonText(text));
    expect(calls.readAgain).toBe(0);
  });

  it.each([
    ['a duplicate member name', '{"a": 1,\n "a": 2}', 'json/duplicate-key'],
    ['a number JSON.parse rounds to an integer', '{"a": 1.0000000000000001}', undefined],
    ['an integer directly inside an array', '{"a": [1, 2]}', undefined],
    // Both passes unsure (-1 each): still the exact scan, never taken as agreeing.
    ['a rounded number beside an integer inside an array', '{"a": 1.0000000000000001, "b": [1]}', undefined],
  ])('reads again for %s, and gives what parseJsonText gives on that text', (_name, text, ruleId) => {
    const { result, calls } = run(text);
    expect(calls).toEqual({ take: 1, readAgain: 1 });
    const { readAgain, ...parsed } = result;
    expect(readAgain).toBe(text);
    expect(parsed).toEqual(parseJsonText(text));
    expect(result.diagnostics.map((d) => d.ruleId)).toEqual(ruleId === undefined ? [] : [ruleId]);
  });

  it('parses what the second read holds when the text changed in between', () => {
    const { result } = run('{"a": 1, "a": 2}', '{"b": [true]}');
    expect(result).toEqual({ value: { b: [true] }, diagnostics: [], readAgain: '{"b": [true]}' });
  });

  it('reports why the second read could not be decoded, with no value', () => {
    const result = parseJsonTextLettingGo(
      () => '{"a": 1, "a": 2}',
      () => ({ diagnostics: [{ ruleId: 'read/empty', severity: 'error', message: 'The file is empty', pointer: '' }] }),
      treeAgrees,
    );
    expect(result).toEqual({
      diagnostics: [{ ruleId: 'read/empty', severity: 'error', message: 'The file is empty', pointer: '' }],
    });
  });
});

describe('both quick passes unsure', () => {
  it('marks a rounded integer even when the tree also holds an integer inside an array', () => {
    for (const parse of [
      (text: string) => parseJsonText(text),
      (text: string) =>
        parseJsonTextLettingGo(
          () => text,
          () => decodedText(text),
          treeAgrees,
        ),
    ]) {
      const { value } = parse('{"a": 1.0000000000000001, "b": [1]}');
      expect(roundedIntegerLiteral(value, 'a')).toBe('1.0000000000000001');
    }
  });
});
