import { describe, expect, it } from 'vitest';
import { FASTER_PATTERNS } from '../../src/build/schema-transform.js';

/** Deterministic pseudo-random strings around the interesting lengths, hex and not. */
function* samples(): Generator<string> {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
  const alphabet = '0123456789abcdefABCDEF';
  for (let length = 0; length <= 140; length++) {
    for (let k = 0; k < 12; k++) {
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[next() % alphabet.length];
      yield text;
      if (length > 0) {
        const position = next() % length;
        yield text.slice(0, position) + 'g' + text.slice(position + 1);
      }
      yield text + '\n';
    }
  }
}

describe('faster schema patterns', () => {
  it.each(Object.entries(FASTER_PATTERNS))('%s is rewritten into an equivalent pattern', (original, faster) => {
    const a = new RegExp(original, 'u');
    const b = new RegExp(faster, 'u');
    let matched = 0;
    for (const text of samples()) {
      expect(b.test(text), JSON.stringify(text)).toBe(a.test(text));
      if (a.test(text)) matched++;
    }
    expect(matched).toBeGreaterThan(50);
  });
});
