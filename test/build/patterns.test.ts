import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../../src/build/ajv.js';
import { FASTER_PATTERNS } from '../../src/build/schema-transform.js';
import { CODED_PATTERNS, isHexDigest, schemaRegExp } from '../../src/validate/schema-patterns.js';

const require = createRequire(import.meta.url);
const standaloneCode = require('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js').default;

const OFFICIAL = '^([a-fA-F0-9]{32}|[a-fA-F0-9]{40}|[a-fA-F0-9]{64}|[a-fA-F0-9]{96}|[a-fA-F0-9]{128})$';
const hex = (length: number, from = 0) =>
  Array.from({ length }, (_, i) => '0123456789abcdefABCDEF'[(i + from) % 22]).join('');

/** Around every accepted length, with a character that is not a hex digit at the first and the last place. */
function samples(): string[] {
  const texts: string[] = ['', 'g', hex(1)];
  for (const length of [32, 40, 64, 96, 128]) {
    for (const n of [length - 1, length, length + 1]) {
      const text = hex(n, length);
      texts.push(text, text.toUpperCase(), text.toLowerCase(), `${text}\n`, `\n${text}`);
    }
    const text = hex(length);
    // The code units next to 0-9, A-F and a-f, letters beyond f, and characters that look like digits or letters.
    for (const bad of ['/', ':', '@', 'G', '`', 'g', ' ', '\u00e6', '\uff46', '\u0660', '\u{1f600}']) {
      texts.push(
        bad + text.slice(bad.length),
        text.slice(0, -bad.length) + bad,
        text.slice(0, 10) + bad + text.slice(11),
      );
    }
  }
  return texts;
}

describe('patterns checked by code', () => {
  it.each([OFFICIAL, FASTER_PATTERNS[OFFICIAL]!])(
    '%s: isHexDigest accepts exactly what the pattern does',
    (pattern) => {
      expect(CODED_PATTERNS[pattern]).toBe(isHexDigest);
      const regExp = new RegExp(pattern, 'u');
      let accepted = 0;
      for (const text of samples()) {
        expect(isHexDigest(text), JSON.stringify(text)).toBe(regExp.test(text));
        if (regExp.test(text)) accepted++;
      }
      expect(accepted).toBe(15);
      // Every code unit, alone in an otherwise valid SHA-1 at its first and at its last place.
      for (let c = 0; c <= 0xffff; c++) {
        const unit = String.fromCharCode(c);
        for (const text of [unit + hex(39), hex(39) + unit])
          expect(isHexDigest(text), `U+${c.toString(16)}`).toBe(regExp.test(text));
      }
    },
  );

  it.each([
    ['31 digits', hex(31)],
    ['32 digits', hex(32)],
    ['33 digits', hex(33)],
    ['127 digits', hex(127)],
    ['128 digits', hex(128)],
    ['129 digits', hex(129)],
    ['a non-hex first character', `g${hex(63)}`],
    ['a non-hex last character', `${hex(63)}g`],
    ['a number', 64],
  ])('gives the errors a plain ajv gives for %s', (_name, value) => {
    for (const pattern of [OFFICIAL, FASTER_PATTERNS[OFFICIAL]!]) {
      const schema = { type: 'object', properties: { content: { type: 'string', pattern, maxLength: 128 } } };
      const ajv = createAjv();
      const build = ajv.compile(schema);
      const plain = new Ajv({ allErrors: true, strict: false, messages: false }).compile(schema);
      const document = { content: value };
      expect(build(document)).toBe(plain(document));
      expect(build.errors ?? null).toEqual(plain.errors ?? null);
      // The compiled code calls the function, not a regular expression.
      const code = standaloneCode(ajv, build);
      const engine = /const (func\d+) = runtime\.schemaRegExp;/.exec(code)?.[1];
      expect(code).toContain(`const pattern0 = ${engine}(${JSON.stringify(pattern)}, "u");`);
    }
  });

  it("leaves every other pattern to RegExp, with ajv's flags", () => {
    const other = schemaRegExp('^[a-z]+$', 'u');
    expect(other).toBeInstanceOf(RegExp);
    expect((other as RegExp).flags).toBe('u');
    expect(schemaRegExp(OFFICIAL, 'u')).not.toBeInstanceOf(RegExp);
    expect(String(schemaRegExp(OFFICIAL, 'u'))).toBe(`/${OFFICIAL}/u`);
    // An inherited name is no coded pattern.
    expect(schemaRegExp('toString', 'u')).toBeInstanceOf(RegExp);
  });
});
