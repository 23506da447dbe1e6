import { describe, expect, it } from 'vitest';
import { appendPointer, escapeSegment, parsePointer, resolvePointer, toPointer } from '../../src/json/pointer.js';

// RFC 6901: '~' is written '~0' and '/' is written '~1'; on reading, '~1' is undone before '~0'.
describe('JSON pointers (RFC 6901)', () => {
  it.each([
    ['plain', 'plain'],
    ['a/b', 'a~1b'],
    ['m~n', 'm~0n'],
    ['~1', '~01'],
    ['/~', '~1~0'],
    ['', ''],
  ])('escapes %j as %j and reads it back', (segment, escaped) => {
    expect(escapeSegment(segment)).toBe(escaped);
    expect(parsePointer('/' + escaped)).toEqual([segment]);
  });

  it('builds pointers from paths, numbers included, and appends one segment', () => {
    expect(toPointer([])).toBe('');
    expect(toPointer(['components', 0, 'a/b'])).toBe('/components/0/a~1b');
    expect(appendPointer('/components', 12)).toBe('/components/12');
    expect(appendPointer('', 'm~n')).toBe('/m~0n');
  });

  it('reads the whole-document pointer and empty segments', () => {
    expect(parsePointer('')).toEqual([]);
    expect(parsePointer('/')).toEqual(['']);
    expect(parsePointer('/a//b')).toEqual(['a', '', 'b']);
  });

  const document = { a: [10, { 'b/c': 'slash', 'm~n': 'tilde' }], '': 'empty', nil: null, text: 'abc' };

  it('resolves members, array indices and escaped names', () => {
    expect(resolvePointer(document, '')).toBe(document);
    expect(resolvePointer(document, '/a/0')).toBe(10);
    expect(resolvePointer(document, '/a/1/b~1c')).toBe('slash');
    expect(resolvePointer(document, '/a/1/m~0n')).toBe('tilde');
    expect(resolvePointer(document, '/')).toBe('empty');
    expect(resolvePointer(document, '/nil')).toBeNull();
  });

  it('reads multi-digit indices', () => {
    const items = Array.from({ length: 12 }, (_, i) => i * 10);
    expect(resolvePointer({ items }, '/items/11')).toBe(110);
    expect(resolvePointer({ items }, '/items/10')).toBe(100);
  });

  it.each(['/a/01', '/a/-', '/a/1x', '/a/x1', '/a/ 1', '/a/2', '/a/length', '/a/-1', '/a/1.0'])(
    'an array index must be a plain decimal of an existing item: %s is undefined',
    (pointer) => {
      expect(resolvePointer(document, pointer)).toBeUndefined();
    },
  );

  it('follows only own members, so inherited names are inert', () => {
    expect(resolvePointer(document, '/__proto__')).toBeUndefined();
    expect(resolvePointer(document, '/toString')).toBeUndefined();
    expect(resolvePointer(document, '/constructor/prototype')).toBeUndefined();
  });

  it('stops at scalars and null instead of indexing into them', () => {
    expect(resolvePointer(document, '/text/0')).toBeUndefined();
    expect(resolvePointer(document, '/text/length')).toBeUndefined();
    expect(resolvePointer(document, '/nil/a')).toBeUndefined();
    expect(resolvePointer(document, '/a/0/0')).toBeUndefined();
    expect(resolvePointer('abc', '/0')).toBeUndefined();
  });
});
