import { describe, expect, it } from 'vitest';
import { cpuNow, expectLinear } from '../growth.js';
import { locatePointers, offsetsToPositions } from '../../src/json/locate.js';
import { forEachRoundedInteger, scanJson } from '../../src/json/scan.js';
import { parseJsonText } from '../../src/json/parse.js';
import { roundedIntegerLiteral } from '../../src/json/numbers.js';
import { StringSkipper } from '../../src/json/strings.js';
import { firstSyntaxError } from '../../src/json/syntax.js';

describe('StringSkipper: where a string literal ends, and whether it has escapes', () => {
  it.each([
    ['"abc"', 4, false, 'abc'],
    ['"a\\"b"', 5, true, 'a"b'],
    ['"a\\\\"', 4, true, 'a\\'],
    ['"a\\\\\\"b"', 7, true, 'a\\"b'],
    ['"\\u0041"', 7, true, 'A'],
    ['""', 1, false, ''],
  ])('%s ends at %i', (text, end, hadEscape, value) => {
    const strings = new StringSkipper(text);
    expect(strings.end(0)).toBe(end);
    expect(strings.hadEscape).toBe(hadEscape);
    expect(strings.value(0, end)).toBe(value);
  });

  it('tracks escapes per literal: a string after an escaped one has none', () => {
    const text = '"a\\\\" "b" "c\\n" "d"';
    const strings = new StringSkipper(text);
    const seen: [number, boolean][] = [];
    for (let start = text.indexOf('"'); start >= 0;) {
      const end = strings.end(start);
      seen.push([end, strings.hadEscape]);
      start = text.indexOf('"', end + 1);
    }
    expect(seen).toEqual([
      [4, true],
      [8, false],
      [14, true],
      [18, false],
    ]);
  });

  it('treats an unterminated literal as running to the end of the text', () => {
    expect(new StringSkipper('"abc').end(0)).toBe(4);
    expect(new StringSkipper('"x\\"').end(0)).toBe(4);
    expect(new StringSkipper('"x\\" and \\"').end(0)).toBe(11);
  });

  it('gives malformed escapes back as they are written', () => {
    const text = '"a\\qb"';
    const strings = new StringSkipper(text);
    expect(strings.value(0, strings.end(0))).toBe('a\\qb');
  });

  it('stays linear on many strings without escapes, and with one escape at the very end', () => {
    expectLinear((size) => {
      const text = `[${Array.from({ length: size }, (_, i) => `"s${i}"`).join(',')}, "\\n"]`;
      return () => scanJson(text);
    }, 60_000);
  });
});

describe('scanJson findings', () => {
  it('stops at the limit it is given, counting every kind of finding', () => {
    const text = '{"a":1,"a":2,"a":3,"b":"\\ud800","c":"\\udc00"}';
    expect(scanJson(text).map((f) => f.kind)).toEqual([
      'duplicate-key',
      'duplicate-key',
      'lone-surrogate',
      'lone-surrogate',
    ]);
    expect(scanJson(text, 1)).toHaveLength(1);
    expect(scanJson(text, 2).map((f) => f.kind)).toEqual(['duplicate-key', 'duplicate-key']);
    expect(scanJson(text, 3).map((f) => f.kind)).toEqual(['duplicate-key', 'duplicate-key', 'lone-surrogate']);
  });

  it('reports a too-deep container by kind, offset and pointer', () => {
    const text = '{"k": [' + '['.repeat(600);
    expect(scanJson(text)).toEqual([{ kind: 'too-deep', offset: 517, pointer: '/k' + '/0'.repeat(511) }]);
  });

  it.each([
    ['"x\\udc00"', 'a low surrogate after another character'],
    ['"\\udbff"', 'the last high surrogate alone'],
    ['"\\udfff"', 'the last low surrogate alone'],
    ['"\\ud800\\u0041"', 'a high surrogate followed by another unicode escape'],
    ['"\\ud800x\\udc00"', 'a high and a low surrogate with a character between'],
  ])('flags %s (%s)', (literal) => {
    expect(scanJson(`[1, ${literal}]`)).toEqual([{ kind: 'lone-surrogate', offset: 4, pointer: '/1' }]);
  });

  it.each([
    ['"\\udbff\\udfff"', 'the last pair'],
    ['"\\ud7ff\\ue000"', 'the code units around the surrogate range'],
    ['"\\nd800"', 'hex digits after a non-unicode escape'],
    ['"\\nxud800"', 'literal text that looks like an escape'],
    ['"\\\\ud800"', 'an escaped backslash before "ud800"'],
    ['"\\u00e9\\ud83d\\ude00"', 'a pair after another escape'],
  ])('accepts %s (%s)', (literal) => {
    expect(scanJson(`[1, ${literal}]`)).toEqual([]);
  });

  it('checks the members of a large object for duplicates in about the time it takes to scan as many items', () => {
    // Member names are remembered in a set once an object grows: comparing each name with every earlier one would
    // make 20,000 members take a hundred times as long as 20,000 array items, not a few times.
    const size = 20_000;
    const members = `{${Array.from({ length: size }, (_, i) => `"m${i}":${i}`).join(',')}}`;
    const items = `[${Array.from({ length: size }, (_, i) => `"m${i}",${i}`).join(',')}]`;
    let best = Infinity;
    for (let attempt = 0; attempt < 5 && best >= 20; attempt++) {
      const time = (text: string) => {
        const started = cpuNow();
        scanJson(text);
        return cpuNow() - started;
      };
      time(members);
      time(items);
      best = Math.min(best, time(members) / Math.max(time(items), 0.05));
    }
    expect(best).toBeLessThan(20);
  });

  it('finds a duplicate among the first members of an object and after it grows', () => {
    for (const size of [2, 12, 13, 14, 40]) {
      const members = Array.from({ length: size }, (_, i) => `"m${i}":${i}`);
      expect(
        scanJson(`{${members.join(',')},"m0":0}`).map((f) => f.pointer),
        String(size),
      ).toEqual(['/m0']);
      expect(scanJson(`{${members.join(',')},"m${size - 1}":0}`).map((f) => f.pointer)).toEqual([`/m${size - 1}`]);
    }
  });
});

describe('firstSyntaxError at the edges', () => {
  it.each([
    ['["a\tb"]', 3, 'a tab inside a string'],
    ['["\\u0041",]', 10, 'an error after a valid unicode escape'],
    ['["\\u,"]', 4, 'a unicode escape cut short'],
    ['{"a":1 "b":2}', 7, 'a missing comma between members'],
    ['{"a":1,"b" 2}', 11, 'a missing colon after a later name'],
    ['{"a":1, 2}', 8, 'a later member without a name'],
    ['[1}', 2, 'a bracket that closes the wrong container'],
    ['{"a":1]', 6, 'a bracket that closes the wrong container'],
    ['[1e+]', 2, 'an exponent without digits'],
    ['[-]', 1, 'a sign without digits'],
    ['[1] x', 4, 'text after the document'],
    ['[tru]', 1, 'a cut-off literal'],
    ['"abc', 4, 'a string cut off by the end'],
    ['{"a":[{}, []] }', 15, 'nothing: the text is valid'],
    ['[1e5]', 5, 'nothing: an exponent without a sign is valid'],
    ['[1E-5,2]', 8, 'nothing: a signed exponent is valid'],
  ])('%j fails at %i (%s)', (text, offset) => {
    expect(firstSyntaxError(text)).toBe(offset);
  });
});

describe('locatePointers and offsetsToPositions at the edges', () => {
  it('finds a top-level scalar and gives up on what is not there', () => {
    expect(locatePointers('12', ['', '/a'])).toEqual(new Map([['', 0]]));
    expect(locatePointers('true', [])).toEqual(new Map());
  });

  it('gives each pointer once, however often it is asked for', () => {
    expect(locatePointers('{"a": [1, 2]}', ['/a/1', '/a/1', '/a'])).toEqual(
      new Map([
        ['/a', 1],
        ['/a/1', 10],
      ]),
    );
  });

  it('jumps over subtrees off the way, whatever brackets and quotes their strings hold', () => {
    // Each skipped subtree holds what a bracket counter must not count: brackets and escaped quotes in strings,
    // nested containers, and an empty one.
    const skipped = '{"s": "]}\\"[{", "t": [[], {}, ["\\\\", "}"]], "u": {"v": [1, {"w": "]"}]}}';
    const text = `{"a": [${skipped}, ${skipped}, {"b": [0, ${skipped}, {"c": 7}]}], "z": ${skipped}, "y": 1}`;
    const offsets = locatePointers(text, ['/a/2/b/2/c', '/y', '/a/1/t/2/1']);
    expect(offsets.get('/a/2/b/2/c')).toBe(text.indexOf('"c"'));
    expect(offsets.get('/y')).toBe(text.indexOf('"y"'));
    expect(offsets.get('/a/1/t/2/1')).toBe(text.indexOf('"}"', text.indexOf(skipped) + skipped.length));
    // A pointer inside a container that never closes (text cut short): nothing found, no endless loop.
    expect(locatePointers('{"a": [{"x": "]"', ['/b'])).toEqual(new Map());
  });

  it('maps offsets given in any order', () => {
    const text = 'ab\ncd\n\nef';
    const positions = offsetsToPositions(text, [8, 0, 4, 8, 6]);
    expect([...positions.entries()].sort((a, b) => a[0] - b[0])).toEqual([
      [0, { line: 1, column: 1 }],
      [4, { line: 2, column: 2 }],
      [6, { line: 3, column: 1 }],
      [8, { line: 4, column: 2 }],
    ]);
  });
});

describe('numbers that JSON.parse rounds to an integer', () => {
  it('finds only the first in the scan, and every one with its path in the second pass', () => {
    const text = '{"a":[1.0,1.0000000000000001,{"b":0.99999999999999999}],"c":1.5,"d":"1.0000000000000001","e":1e-400}';
    expect(scanJson(text)).toEqual([{ kind: 'rounded-integer', offset: 10, pointer: '/a/1' }]);
    const seen: [(string | number)[], string][] = [];
    forEachRoundedInteger(text, (path, literal) => seen.push([path, literal]));
    expect(seen).toEqual([
      [['a', 1], '1.0000000000000001'],
      [['a', 2, 'b'], '0.99999999999999999'],
      [['e'], '1e-400'],
    ]);
  });

  it('marks them on the parsed value, and reports nothing for them', () => {
    const parsed = parseJsonText('{"v":1.0000000000000001,"w":[2.0,2.0000000000000001]}');
    const value = parsed.value as { v: number; w: number[] };
    expect(parsed.diagnostics).toEqual([]);
    expect(roundedIntegerLiteral(value, 'v')).toBe('1.0000000000000001');
    expect(roundedIntegerLiteral(value.w, 0)).toBeUndefined();
    expect(roundedIntegerLiteral(value.w, 1)).toBe('2.0000000000000001');
    expect(roundedIntegerLiteral(parseJsonText('{"v":1.0}').value, 'v')).toBeUndefined();
  });

  it('still reports duplicate keys after many of them', () => {
    const text = `{"a":[${Array(2000).fill('1.0000000000000001').join(',')}],"k":1,"k":2}`;
    expect(scanJson(text).map((f) => f.kind)).toEqual(['rounded-integer', 'duplicate-key']);
  });

  it('stays linear on numbers, deep or many, rounded or not', () => {
    expectLinear((size) => {
      const deep = '['.repeat(50);
      const text = `${deep}${Array.from({ length: size }, (_, i) => (i % 2 ? '1.0000000000000001' : `${i}.5e3`)).join(',')}${']'.repeat(50)}`;
      return () => {
        parseJsonText(text);
      };
    }, 5_000);
  });
});
