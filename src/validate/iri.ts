/**
 * RFC 3987 IRI-reference and RFC 6531 internationalized e-mail address syntax, which ajv-formats lacks.
 * Both regular expressions are linear: every repeated group has alternatives that start with disjoint characters.
 */

const UCS =
  '\\u{A0}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFEF}' +
  Array.from({ length: 13 }, (_, i) => `\\u{${(i + 1).toString(16)}0000}-\\u{${(i + 1).toString(16)}FFFD}`).join('') +
  '\\u{E1000}-\\u{EFFFD}';
const PRIVATE = '\\u{E000}-\\u{F8FF}\\u{F0000}-\\u{FFFFD}\\u{100000}-\\u{10FFFD}';
const PCT = '%[0-9A-Fa-f]{2}';
const UNRESERVED = `A-Za-z0-9\\-._~${UCS}`;
const SUB_DELIMS = "!$&'()*+,;=";

const IPV4 = '(?:(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const H16 = '[0-9A-Fa-f]{1,4}';
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

const IPCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT})`;
const SEGMENT = `${IPCHAR}*`;
const SEGMENT_NZ = `${IPCHAR}+`;
const SEGMENT_NZ_NC = `(?:[${UNRESERVED}${SUB_DELIMS}@]|${PCT})+`;
const QUERY = `(?:[${UNRESERVED}${SUB_DELIMS}:@/?${PRIVATE}]|${PCT})*`;
const FRAGMENT = `(?:[${UNRESERVED}${SUB_DELIMS}:@/?]|${PCT})*`;
const USERINFO = `(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT})*`;
const REG_NAME = `(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT})*`;
const IP_LITERAL = `\\[(?:${IPV6}|v[0-9A-Fa-f]+\\.[A-Za-z0-9\\-._~${SUB_DELIMS}:]+)\\]`;
const AUTHORITY = `(?:${USERINFO}@)?(?:${IP_LITERAL}|${REG_NAME})(?::\\d*)?`;
const PATH_ABEMPTY = `(?:/${SEGMENT})*`;
const PATH_ABSOLUTE = `/(?:${SEGMENT_NZ}(?:/${SEGMENT})*)?`;
const PATH_ROOTLESS = `${SEGMENT_NZ}(?:/${SEGMENT})*`;
const PATH_NOSCHEME = `${SEGMENT_NZ_NC}(?:/${SEGMENT})*`;
const TAIL = `(?:\\?${QUERY})?(?:#${FRAGMENT})?`;
const IRI = `[A-Za-z][A-Za-z0-9+\\-.]*:(?://${AUTHORITY}${PATH_ABEMPTY}|${PATH_ABSOLUTE}|${PATH_ROOTLESS}|)${TAIL}`;
const IRELATIVE_REF = `(?://${AUTHORITY}${PATH_ABEMPTY}|${PATH_ABSOLUTE}|${PATH_NOSCHEME}|)${TAIL}`;

const IRI_REFERENCE_RE = new RegExp(`^(?:${IRI}|${IRELATIVE_REF})$`, 'u');
const IRI_RE = new RegExp(`^${IRI}$`, 'u');

export function isIriReference(value: string): boolean {
  return IRI_REFERENCE_RE.test(value);
}

export function isIri(value: string): boolean {
  return IRI_RE.test(value);
}

// RFC 6531: RFC 5321 Mailbox where atext, qtext and domain labels may also hold non-ASCII (UTF8-non-ascii, U-labels).
const NON_ASCII = '(?![\\u{0}-\\u{7F}])[\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}]';
const ATEXT = `(?:[A-Za-z0-9!#$%&'*+\\-/=?^_\`{|}~]|${NON_ASCII})`;
const DOT_STRING = `${ATEXT}+(?:\\.${ATEXT}+)*`;
const QUOTED_STRING = `"(?:[\\u{20}\\u{21}\\u{23}-\\u{5B}\\u{5D}-\\u{7E}]|\\\\[\\u{20}-\\u{7E}]|${NON_ASCII})*"`;
const LABEL_CHAR = '[A-Za-z0-9\\p{L}\\p{M}\\p{N}]';
const LABEL = `${LABEL_CHAR}(?:[A-Za-z0-9\\-\\p{L}\\p{M}\\p{N}]*${LABEL_CHAR})?`;
const DOMAIN = `${LABEL}(?:\\.${LABEL})*`;
const ADDRESS_LITERAL = `\\[(?:${IPV4}|IPv6:${IPV6}|[A-Za-z0-9-]*[A-Za-z0-9]:[\\u{21}-\\u{5A}\\u{5E}-\\u{7E}]+)\\]`;
const MAILBOX_RE = new RegExp(`^(${DOT_STRING}|${QUOTED_STRING})@(${DOMAIN}|${ADDRESS_LITERAL})$`, 'u');

const utf8 = new TextEncoder();

export function isIdnEmail(value: string): boolean {
  const match = MAILBOX_RE.exec(value);
  if (match === null) return false;
  const [, localPart, domain] = match as unknown as [string, string, string];
  // RFC 5321 §4.5.3.1: local part at most 64 octets, domain at most 255, each label at most 63.
  if (utf8.encode(localPart).length > 64 || utf8.encode(domain).length > 255) return false;
  if (!domain.startsWith('[')) {
    for (const label of domain.split('.')) if (utf8.encode(label).length > 63) return false;
  }
  return true;
}
