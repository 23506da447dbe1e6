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

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const PORT = /^\d*$/;
const SUB_DELIMS = "!$&'()*+,;=";
const HEX = /^[0-9A-Fa-f]{2}$/;
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

/**
 * Whether every character of `text` is an iunreserved, a pct-encoded octet, a sub-delim or one of `extra`
 * (and iprivate when allowed): the character-level rule of every IRI component.
 */
function isComponent(text: string, extra: string, allowPrivate = false): boolean {
  const table = asciiTable(extra);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (table[c] === 1) continue;
      if (c === 0x25 /* % */ && HEX.test(text.slice(i + 1, i + 3))) {
        i += 2;
        continue;
      }
      return false;
    }
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) i++;
    if (isUcschar(cp) || (allowPrivate && isIprivate(cp))) continue;
    return false;
  }
  return true;
}

function isAuthority(authority: string): boolean {
  const at = authority.lastIndexOf('@');
  if (at >= 0 && !isComponent(authority.slice(0, at), ':')) return false;
  const hostPort = authority.slice(at + 1);
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']');
    if (close < 0) return false;
    ipLiteral ??= new RegExp(`^(?:${IPV6}|v[0-9A-Fa-f]+\\.[A-Za-z0-9\\-._~${SUB_DELIMS}:]+)$`);
    const rest = hostPort.slice(close + 1);
    return ipLiteral.test(hostPort.slice(1, close)) && (rest === '' || (rest[0] === ':' && PORT.test(rest.slice(1))));
  }
  const colon = hostPort.lastIndexOf(':');
  const host = colon < 0 ? hostPort : hostPort.slice(0, colon);
  return isComponent(host, '') && (colon < 0 || PORT.test(hostPort.slice(colon + 1)));
}

function parseIriReference(value: string, requireScheme: boolean): boolean {
  let rest = value;
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    if (!isComponent(rest.slice(hash + 1), ':@/?')) return false;
    rest = rest.slice(0, hash);
  }
  const question = rest.indexOf('?');
  if (question >= 0) {
    if (!isComponent(rest.slice(question + 1), ':@/?', true)) return false;
    rest = rest.slice(0, question);
  }
  const scheme = SCHEME.exec(rest);
  if (scheme !== null) rest = rest.slice(scheme[0].length);
  else if (requireScheme) return false;
  let path = rest;
  if (rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    const authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    if (!isAuthority(authority)) return false;
    path = slash < 0 ? '' : rest.slice(slash);
  } else if (scheme === null) {
    // ipath-noscheme: a relative reference's first segment may not hold ":" (it would read as a scheme).
    const firstSegment = path.split('/', 1)[0]!;
    if (firstSegment.includes(':')) return false;
  }
  // ipath-absolute may not start with "//" (that is an authority), which the branch above already took.
  return isComponent(path, ':@/');
}

export function isIriReference(value: string): boolean {
  return parseIriReference(value, false);
}

export function isIri(value: string): boolean {
  return parseIriReference(value, true);
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
