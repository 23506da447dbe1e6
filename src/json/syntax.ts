/**
 * Where JSON text stops being JSON. JSON.parse says what went wrong, but for many errors not where (V8 gives a
 * snippet instead of a position): this finds the offset of the first character that cannot continue a valid
 * document, with an explicit stack, so hostile nesting cannot exhaust the call stack. Only run on text that
 * JSON.parse already refused.
 */
const WHITE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;

export function firstSyntaxError(text: string): number {
  let i = 0;
  const skip = () => {
    while (i < text.length && WHITE.has(text.charCodeAt(i))) i++;
  };
  /** Reads a string starting at i (a quote); returns false at the first bad character. */
  const string = (): boolean => {
    i++;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            i += 2;
            return false;
          }
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else {
          i++;
          return false;
        }
      } else i++;
    }
    return false;
  };
  // Each frame: the container kind and whether a value is expected next.
  const stack: ('object' | 'array')[] = [];
  let expectValue = true;
  skip();
  for (;;) {
    if (expectValue) {
      const c = text[i];
      if (c === '{') {
        i++;
        skip();
        if (text[i] === '}') {
          i++;
          expectValue = false;
        } else {
          if (text[i] !== '"' || !string()) return i;
          skip();
          if (text[i] !== ':') return i;
          i++;
          skip();
          stack.push('object');
          continue;
        }
      } else if (c === '[') {
        i++;
        skip();
        if (text[i] === ']') {
          i++;
          expectValue = false;
        } else {
          stack.push('array');
          continue;
        }
      } else if (c === '"') {
        if (!string()) return i;
        expectValue = false;
      } else {
        NUMBER.lastIndex = i;
        LITERAL.lastIndex = i;
        const match = NUMBER.exec(text) ?? LITERAL.exec(text);
        if (match === null || match[0] === '') return i;
        i += match[0].length;
        expectValue = false;
      }
    }
    skip();
    const top = stack[stack.length - 1];
    if (top === undefined) return i < text.length ? i : text.length;
    const c = text[i];
    if (c === ',') {
      i++;
      skip();
      if (top === 'object') {
        if (text[i] !== '"' || !string()) return i;
        skip();
        if (text[i] !== ':') return i;
        i++;
        skip();
      }
      expectValue = true;
    } else if ((c === '}' && top === 'object') || (c === ']' && top === 'array')) {
      i++;
      stack.pop();
      expectValue = false;
    } else return i;
  }
}
