import { describe, expect, it } from 'vitest';
import { isIdnEmail, isIri, isIriReference, parseIriReference } from '../../src/validate/iri.js';

const at = (cp: number) => String.fromCodePoint(cp);

// RFC 3987 §2.2: ucschar is allowed in every component, iprivate only in the query.
describe('iri-reference: the code point ranges of RFC 3987', () => {
  it.each([
    [0xa0, 'first of ucschar'],
    [0xd7ff, 'end of the first range'],
    [0xf900, 'start of the CJK compatibility range'],
    [0xfdcf, 'just below the non-characters'],
    [0xfdf0, 'just above the non-characters'],
    [0xffef, 'end of the BMP range'],
    [0x10000, 'first supplementary code point'],
    [0x1fffd, 'last of plane 1'],
    [0x20000, 'first of plane 2'],
    [0xdfffd, 'last of plane 13'],
    [0xe1000, 'first of plane 14 after the tags'],
    [0xefffd, 'last of ucschar'],
  ])('accepts U+%s (%s) in a path', (cp) => {
    expect(isIriReference(`https://example.com/a${at(cp)}b`), cp.toString(16)).toBe(true);
    expect(isIriReference(`a${at(cp)}`), cp.toString(16)).toBe(true);
  });

  it.each([
    [0x7f, 'DEL'],
    [0x80, 'a C1 control'],
    [0x9f, 'the last C1 control'],
    [0xe000, 'private use (BMP)'],
    [0xf8ff, 'private use (BMP end)'],
    [0xfdd0, 'a non-character'],
    [0xfdef, 'the last non-character of the block'],
    [0xfff0, 'a specials code point'],
    [0xfffe, 'a non-character'],
    [0x1fffe, 'a plane-end non-character'],
    [0xe0000, 'a tag'],
    [0xe0fff, 'the last tag'],
    [0xefffe, 'a plane-end non-character'],
    [0xf0000, 'private use (plane 15)'],
    [0x10fffd, 'private use (plane 16)'],
  ])('refuses U+%s (%s) in a path and a fragment', (cp) => {
    expect(isIriReference(`https://example.com/a${at(cp)}b`), cp.toString(16)).toBe(false);
    expect(isIriReference(`https://example.com/#${at(cp)}`), cp.toString(16)).toBe(false);
  });

  it.each([
    [0xe000, true],
    [0xf8ff, true],
    [0xf0000, true],
    [0xffffd, true],
    [0x100000, true],
    [0x10fffd, true],
    [0xf900, true],
    [0xdfff + 1, true],
    [0xfffe, false],
    [0xffffe, false],
    [0x10fffe, false],
  ])('in the query, private use is allowed: U+%s → %s', (cp, allowed) => {
    expect(isIriReference(`https://example.com/?q=${at(cp)}`), cp.toString(16)).toBe(allowed);
  });

  it('reads a supplementary character as one code point, whatever follows it', () => {
    expect(isIriReference(`https://example.com/${at(0x1f600)}/x`)).toBe(true);
    expect(isIriReference(`https://example.com/${at(0x20000)}%41`)).toBe(true);
    expect(isIriReference(`https://example.com/${at(0x20000)} `)).toBe(false);
  });
});

describe('iri-reference: syntax of each component', () => {
  it.each([
    ['pct-encoded octets in every component', 'https://u%41@h%41.com/%41?%41#%41', true],
    ['a pct-encoded octet at the very end', 'a/%4F', true],
    ['a lone percent sign', 'a/%', false],
    ['a percent sign with one hex digit at the end', 'a/%4', false],
    ['a percent sign followed by non-hex', 'a/%GG', false],
    ['sub-delims in a path', "a/!$&'()*+,;=", true],
    ['unreserved punctuation', 'a/-._~', true],
    ['"?" and "/" in a fragment', 'https://h/#a/b?c', true],
    ['"?" in the query', 'https://h/?a?b', true],
    ['"@" and ":" in a path', 'https://h/a@b:c', true],
    ['"[" in a query', 'https://h/?a[', false],
    ['a user name with ":"', 'https://user:pass@host/', true],
    ['"@" in a user name after the last', 'https://a@b@host/', false],
    ['a user name with "/"', 'https://u[@host/', false],
    ['an empty port', 'https://host:/', true],
    ['an empty host with a port', 'http://:8080/', true],
    ['a numeric port', 'https://host:8080', true],
    ['a port with letters', 'https://host:80a/', false],
    ['an IPv6 literal with a port', 'https://[::1]:8080/', true],
    ['an IPv6 literal with an empty port', 'https://[::1]:/', true],
    ['an IPv6 literal followed by text', 'https://[::1]x/', false],
    ['an IPv6 literal with a bad port', 'https://[::1]:8a/', false],
    ['an IPv4-in-IPv6 literal', 'https://[::ffff:192.0.2.1]/', true],
    ['a full IPv6 literal', 'https://[2001:db8:0:0:0:0:2:1]/', true],
    ['an IPv6 literal with too many groups', 'https://[1:2:3:4:5:6:7:8:9]/', false],
    ['an IPvFuture literal', 'https://[v1.a:b]/', true],
    ['an IPvFuture literal without a version', 'https://[v.a]/', false],
    ['an authority without a path', 'https://host', true],
    ['an empty authority', 'file:///etc/hosts', true],
    ['a host with a space', 'https://ho st/', false],
    ['a scheme with "+", "." and "-"', 'a+b.c-d:x', true],
    ['a scheme starting with a digit', '1a:x', false],
    ['a relative reference whose first segment holds ":"', 'a:b/c'.replace('a:', 'a/:').replace('/:', ':/'), true],
    ['a relative reference starting with ":"', ':a', false],
    ['a network-path reference', '//host/a', true],
    ['a query and a fragment only', '?a#b', true],
  ])('%s: %j → %s', (_name, value, valid) => {
    expect(isIriReference(value)).toBe(valid);
  });

  it('needs a scheme for iri, not for iri-reference', () => {
    expect(isIri('a:b')).toBe(true);
    expect(isIri('//host/a')).toBe(false);
    expect(isIriReference('//host/a')).toBe(true);
    expect(isIri('https://host/a b')).toBe(false);
  });
});

describe('idn-email: lengths of RFC 5321 at their limits', () => {
  const label = (n: number) => 'x'.repeat(n);
  it.each([
    [`${label(64)}@example.com`, true, 'a 64-octet local part'],
    [`${label(65)}@example.com`, false, 'a 65-octet local part'],
    [`${'é'.repeat(32)}@example.com`, true, 'a local part of 64 octets in 32 characters'],
    [`${'é'.repeat(32)}x@example.com`, false, 'a local part of 65 octets in 33 characters'],
    [`a@${label(63)}.com`, true, 'a 63-octet label'],
    [`a@${label(64)}.com`, false, 'a 64-octet label'],
    [`a@${'é'.repeat(32)}.com`, false, 'a label of 64 octets in 32 characters'],
    [`a@${Array.from({ length: 4 }, () => label(63)).join('.')}`, true, 'a 255-octet domain'],
    [`a@${Array.from({ length: 4 }, () => label(63)).join('.')}x`, false, 'a 256-octet domain'],
    [`a@[${'1.'.repeat(3)}1]`, true, 'an address literal is not split into labels'],
  ])('%#: %s', (value, valid) => {
    expect(isIdnEmail(value)).toBe(valid);
  });

  it('uses the Unicode pattern only for non-ASCII addresses', () => {
    expect(isIdnEmail('ü@example.com')).toBe(true);
    expect(isIdnEmail('a@exämple.com')).toBe(true);
    expect(isIdnEmail('a@exa\u0080mple.com')).toBe(false);
    expect(isIdnEmail('"ü"@example.com')).toBe(true);
    // RFC 6531 extends qtext with non-ASCII, not the quoted pair.
    expect(isIdnEmail('"\\ü"@example.com')).toBe(false);
    expect(isIdnEmail('"\\a ü"@example.com')).toBe(true);
  });
});

describe('iri and iri-reference: the fast path for common URLs agrees with the parser', () => {
  // A seeded generator: the same strings every run.
  let seed = 0x2545f491;
  const next = (n: number) => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  const pick = <T>(list: readonly T[]) => list[next(list.length)]!;
  const SCHEMES = ['http://', 'git+https://', 'a.b-c+d://', 'A://', '1a://', '+a://', '//', 'mailto:', 'a:/', ''];
  const PIECES = [
    'example.com',
    'a',
    'Z9',
    '-',
    '.',
    '_',
    '~',
    '!',
    '$',
    '&',
    "'",
    '(',
    ')',
    '*',
    '+',
    ',',
    ';',
    '=',
    ':',
    ':8080',
    ':x',
    '@',
    'user@',
    '/',
    '//',
    '%',
    '%4',
    '%41',
    '%zz',
    '[',
    ']',
    '[::1]',
    '?',
    '?q=1',
    '#',
    '#f',
    ' ',
    '"',
    '<',
    '\\',
    '^',
    '`',
    '{',
    '|',
    '}',
    '\u0000',
    '\u007f',
    'é',
    '\u00a0',
    '\ue000',
    '\ud83d\ude00',
    '\ud83d',
    '\n',
  ];
  const generated = Array.from({ length: 20_000 }, () => {
    let text = pick(SCHEMES);
    const length = next(8);
    for (let i = 0; i < length; i++) text += pick(PIECES);
    return text;
  });

  it("gives the parser's verdict on 20,000 generated strings, both ways", () => {
    let accepted = 0;
    for (const value of generated) {
      const reference = parseIriReference(value, false);
      expect(isIriReference(value), JSON.stringify(value)).toBe(reference);
      expect(isIri(value), JSON.stringify(value)).toBe(parseIriReference(value, true));
      if (reference) accepted++;
    }
    // Both verdicts are well represented, so the comparison means something on each side.
    expect(accepted).toBeGreaterThan(2_000);
    expect(generated.length - accepted).toBeGreaterThan(2_000);
  });

  it.each([
    ['https://example.com/a/b', true],
    ['git+https://github.com/x/y.git', true],
    ['http://host:8080/', true],
    ['http://', true],
    ['http://:', true],
    ["h://a/:@!$&'()*+,;=-._~", true],
    ['http://ho st/', false],
    ['http://host:80a/', false],
    ['http://host/%zz', false],
    ['1http://host/', false],
    ['http://[::1/', false],
  ])('%s → %s, as the parser says', (value, expected) => {
    expect(isIriReference(value)).toBe(expected);
    expect(parseIriReference(value, false)).toBe(expected);
  });
});
