/** RFC 3987 IRI-reference and RFC 6531 internationalized e-mail address syntax, which ajv-formats lacks. */

/*
 * RFC 3987 IRI-reference as a small linear parser rather than one large regular expression: V8 interprets a
 * fresh regular expression before compiling it, and the full grammar took 15 ms for the first hundred URLs,
 * a tenth of a whole CLI run.
 */

const H16 = '[0-9A-Fa-f]{1,4}';
const IPV4 = '(?:(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
const IPV6 =
  '(?:' +
  [
    `(?:${H16}:){6}${LS32}`,
    `::(?:${H16}:){5}${LS32}`,
    `(?:${H16})?::(?:${H16}:){4}${LS32}`,
    `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
    `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
    `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
    `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
    `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
    `(?:(?:${H16}:){0,6}${H16})?::`,
  ].join('|') +
  ')';
let ipLiteral: RegExp | undefined;

const SUB_DELIMS = "!$&'()*+,;=";
const asciiTables = new Map<string, Uint8Array>();

/** 128-entry table: iunreserved (ASCII part), sub-delims and the component's extra characters. */
function asciiTable(extra: string): Uint8Array {
  let table = asciiTables.get(extra);
  if (table === undefined) {
    table = new Uint8Array(128);
    const allowed = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~' + SUB_DELIMS + extra;
    for (const ch of allowed) table[ch.charCodeAt(0)] = 1;
    asciiTables.set(extra, table);
  }
  return table;
}

/** ucschar (RFC 3987 §2.2): the non-ASCII code points an IRI may carry outside the query. */
function isUcschar(cp: number): boolean {
  if (cp >= 0xa0 && cp <= 0xd7ff) return true;
  if (cp >= 0xf900 && cp <= 0xfdcf) return true;
  if (cp >= 0xfdf0 && cp <= 0xffef) return true;
  if (cp >= 0x10000 && cp <= 0xeffff) return (cp & 0xffff) <= 0xfffd && (cp < 0xe0000 || cp >= 0xe1000);
  return false;
}

function isIprivate(cp: number): boolean {
  return (cp >= 0xe000 && cp <= 0xf8ff) || (cp >= 0xf0000 && cp <= 0xffffd) || (cp >= 0x100000 && cp <= 0x10fffd);
}

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/*
 * The parser works on index ranges of the value [from, to), never on substrings: it runs for every URL of a
 * document (two per component in a typical SBOM), and slices and match arrays were most of its cost.
 */

/**
 * Whether every character of `text` in [from, to) is an iunreserved, a pct-encoded octet, a sub-delim or one of
 * `extra` (and iprivate when allowed): the character-level rule of every IRI component. A surrogate pair counts
 * as one code point only when both halves are inside the range.
 */
function isComponent(text: string, from: number, to: number, extra: string, allowPrivate = false): boolean {
  const table = asciiTable(extra);
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (table[c] === 1) continue;
      if (
        c === 0x25 /* % */ &&
        i + 2 < to &&
        isHexDigit(text.charCodeAt(i + 1)) &&
        isHexDigit(text.charCodeAt(i + 2))
      ) {
        i += 2;
        continue;
      }
      return false;
    }
    let cp = c;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        cp = (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
        i++;
      }
    }
    if (isUcschar(cp) || (allowPrivate && isIprivate(cp))) continue;
    return false;
  }
  return true;
}

/** The last `ch` in [from, to), or -1. */
function lastIn(text: string, ch: string, from: number, to: number): number {
  if (to <= from) return -1;
  const at = text.lastIndexOf(ch, to - 1);
  return at >= from ? at : -1;
}

/** The first `ch` in [from, to), or -1. */
function firstIn(text: string, ch: string, from: number, to: number): number {
  const at = text.indexOf(ch, from);
  return at >= 0 && at < to ? at : -1;
}

function isPort(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isDigit(text.charCodeAt(i))) return false;
  return true;
}

function isAuthority(text: string, from: number, to: number): boolean {
  const at = lastIn(text, '@', from, to);
  if (at >= 0 && !isComponent(text, from, at, ':')) return false;
  const hostFrom = at >= 0 ? at + 1 : from;
  if (hostFrom < to && text.charCodeAt(hostFrom) === 0x5b /* [ */) {
    const close = firstIn(text, ']', hostFrom, to);
    if (close < 0) return false;
    ipLiteral ??= new RegExp(`^(?:${IPV6}|v[0-9A-Fa-f]+\\.[A-Za-z0-9\\-._~${SUB_DELIMS}:]+)$`);
    if (!ipLiteral.test(text.slice(hostFrom + 1, close))) return false;
    return close + 1 === to || (text.charCodeAt(close + 1) === 0x3a /* : */ && isPort(text, close + 2, to));
  }
  const colon = lastIn(text, ':', hostFrom, to);
  return isComponent(text, hostFrom, colon < 0 ? to : colon, '') && (colon < 0 || isPort(text, colon + 1, to));
}

/** Where `scheme ":"` ends at the start of [0, to), or 0 when there is none (`ALPHA *( ALPHA / DIGIT / + - . )`). */
function schemeEnd(text: string, to: number): number {
  if (to === 0 || (text.charCodeAt(0) | 0x20) < 0x61 || (text.charCodeAt(0) | 0x20) > 0x7a) return 0;
  for (let i = 1; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3a /* : */) return i + 1;
    const letter = (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
    if (!(letter || isDigit(c) || c === 0x2b || c === 0x2d || c === 0x2e)) return 0;
  }
  return 0;
}

/** The RFC 3987 parser alone, without the fast path below (exported for the test that compares the two). */
export function parseIriReference(value: string, requireScheme: boolean): boolean {
  let end = value.length;
  const hash = value.indexOf('#');
  if (hash >= 0) {
    if (!isComponent(value, hash + 1, end, ':@/?')) return false;
    end = hash;
  }
  const question = firstIn(value, '?', 0, end);
  if (question >= 0) {
    if (!isComponent(value, question + 1, end, ':@/?', true)) return false;
    end = question;
  }
  const start = schemeEnd(value, end);
  if (start === 0 && requireScheme) return false;
  let path = start;
  if (end - start >= 2 && value.charCodeAt(start) === 0x2f && value.charCodeAt(start + 1) === 0x2f) {
    const slash = firstIn(value, '/', start + 2, end);
    if (!isAuthority(value, start + 2, slash < 0 ? end : slash)) return false;
    path = slash < 0 ? end : slash;
  } else if (start === 0) {
    // ipath-noscheme: a relative reference's first segment may not hold ":" (it would read as a scheme).
    const slash = firstIn(value, '/', 0, end);
    if (firstIn(value, ':', 0, slash < 0 ? end : slash) >= 0) return false;
  }
  // ipath-absolute may not start with "//" (that is an authority), which the branch above already took.
  return isComponent(value, path, end, ':@/');
}

/*
 * Most URLs in SBOMs are `scheme://host[:port]/path` in ASCII, without userinfo, percent-encoding, query or
 * fragment: one compiled regular expression accepts those in a third of the parser's time (two per component of a
 * large BOM). It accepts nothing the parser rejects (test/validate/iri.test.ts compares them on generated
 * strings); whatever it does not accept goes to the parser. No class overlaps the character that ends it, so it
 * never backtracks.
 */
const COMMON_URL =
  /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[A-Za-z0-9\-._~!$&'()*+,;=]*(?::[0-9]*)?(?:\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*)?$/;

export function isIriReference(value: string): boolean {
  return COMMON_URL.test(value) || parseIriReference(value, false);
}

export function isIri(value: string): boolean {
  return COMMON_URL.test(value) || parseIriReference(value, true);
}

/*
 * RFC 6531: RFC 5321 Mailbox where atext and qtext may also hold any non-ASCII character (RFC 6532
 * UTF8-non-ascii: every Unicode scalar value from U+0080, U+00A0 included) and domain labels may be U-labels.
 */
function mailboxPattern(ascii: boolean): RegExp {
  const nonAscii = ascii ? '' : '|[\\u{80}-\\u{D7FF}\\u{E000}-\\u{10FFFF}]';
  const letters = ascii ? '' : '\\p{L}\\p{M}\\p{N}';
  const atext = `(?:[A-Za-z0-9!#$%&'*+\\-/=?^_\`{|}~]${nonAscii})`;
  const dotString = `${atext}+(?:\\.${atext}+)*`;
  const quotedString = `"(?:[ !#-\\[\\]-~]|\\\\[ -~]${nonAscii})*"`;
  const labelChar = `[A-Za-z0-9${letters}]`;
  const label = `${labelChar}(?:[A-Za-z0-9\\-${letters}]*${labelChar})?`;
  const domain = `${label}(?:\\.${label})*`;
  const addressLiteral = `\\[(?:${IPV4}|IPv6:${IPV6}|[A-Za-z0-9-]*[A-Za-z0-9]:[!-Z^-~]+)\\]`;
  return new RegExp(`^(${dotString}|${quotedString})@(${domain}|${addressLiteral})$`, ascii ? '' : 'u');
}
let asciiMailbox: RegExp | undefined;
let unicodeMailbox: RegExp | undefined;

const utf8 = new TextEncoder();

/** RFC 5321 caps a path at 256 octets; the cap also bounds the regular expression's work on hostile input. */
const MAX_MAILBOX_LENGTH = 320;

export function isIdnEmail(value: string): boolean {
  if (value.length > MAX_MAILBOX_LENGTH) return false;
  const pattern = /^[\x00-\x7f]*$/.test(value)
    ? (asciiMailbox ??= mailboxPattern(true))
    : (unicodeMailbox ??= mailboxPattern(false));
  const match = pattern.exec(value);
  if (match === null) return false;
  const [, localPart, domain] = match as unknown as [string, string, string];
  // RFC 5321 §4.5.3.1: local part at most 64 octets, domain at most 255, each label at most 63.
  if (utf8.encode(localPart).length > 64 || utf8.encode(domain).length > 255) return false;
  if (!domain.startsWith('[')) {
    for (const label of domain.split('.')) if (utf8.encode(label).length > 63) return false;
  }
  return true;
}
