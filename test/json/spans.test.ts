/**
 * The spans of chosen containers in JSON text (src/json/spans.ts), which in-place edits splice by: every entry of
 * a requested container, the containers off the request jumped over whole, and text that does not read as the
 * request expects refused.
 */
import { describe, expect, it } from 'vitest';
import { containerSpans, type SpanRequest } from '../../src/json/spans.js';

const request = (children: Record<string, SpanRequest> = {}): SpanRequest => ({
  children: new Map(Object.entries(children)),
});

describe('container spans', () => {
  const text = ' { "a" : [1, {"x": "}]"}], "b\\"q": {"c": true} , "d": "s" } \n';

  it('the root: each member from its name to the end of its value, with the colon between', () => {
    const root = containerSpans(text, request())!;
    expect(root.object).toBe(true);
    expect(text.slice(root.open, root.end)).toBe(text.trim());
    expect(root.entries.map((e) => [e.key, text.slice(e.start, e.valueEnd)])).toEqual([
      ['a', '"a" : [1, {"x": "}]"}]'],
      ['b"q', '"b\\"q": {"c": true}'],
      ['d', '"d": "s"'],
    ]);
    expect(root.entries.map((e) => text.slice(e.nameEnd, e.valueStart))).toEqual([' : ', ': ', ': ']);
    // Not asked for: no spans inside.
    expect(root.entries[0]!.child).toBeUndefined();
  });

  it('a requested array and an object inside it, by index; brackets inside strings are no brackets', () => {
    const root = containerSpans(text, request({ a: request({ '1': request() }) }))!;
    const array = root.entries[0]!.child!;
    expect(array.object).toBe(false);
    expect(array.entries.map((e) => text.slice(e.start, e.valueEnd))).toEqual(['1', '{"x": "}]"}']);
    expect(array.entries[1]!.child!.entries.map((e) => e.key)).toEqual(['x']);
  });

  it('empty containers, and a member name with an escape, are read as they are', () => {
    const root = containerSpans('{"e": [], "f": {}}', request({ e: request(), f: request() }))!;
    expect(root.entries.map((e) => e.child!.entries.length)).toEqual([0, 0]);
    expect(root.entries.map((e) => [e.child!.open, e.child!.end])).toEqual([
      [6, 8],
      [15, 17],
    ]);
  });

  it('a requested member that is no container, or text that is not JSON: undefined', () => {
    expect(containerSpans(text, request({ d: request() }))).toBeUndefined();
    expect(containerSpans('"s"', request())).toBeUndefined();
    expect(containerSpans('{"a" 1}', request())).toBeUndefined();
    expect(containerSpans('{"a": 1 "b": 2}', request())).toBeUndefined();
    expect(containerSpans('[1, 2', request())).toBeUndefined();
  });
});
