/**
 * Telling JSON from XML, once for the whole house: a CycloneDX XML document starts, after an optional byte-order
 * mark and white space, with markup; a JSON document never does. Every reader (validate, the commands, the file
 * walk, the library) asks here rather than looking at the text itself.
 */

/** The two syntaxes of one data model. */
export const SYNTAXES = ['json', 'xml'] as const;
export type Syntax = (typeof SYNTAXES)[number];

/** White space as both JSON (RFC 8259 §2) and XML (S, §2.3) define it: the same four characters. */
function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/**
 * The syntax of decoded text: `xml` when its first character past byte-order marks and white space is `<`. (More
 * than one mark is XML that is not well-formed, which XML's reader then says, rather than JSON.)
 */
export function syntaxOf(text: string): Syntax {
  let i = 0;
  while (text.charCodeAt(i) === 0xfeff) i++;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return text.charCodeAt(i) === 0x3c ? 'xml' : 'json';
}

/**
 * {@link syntaxOf} for bytes, without decoding them: UTF-8 byte-order marks skipped, and UTF-16 (which only XML
 * may be, XML 1.0 §4.3.3) told by its mark or by the bytes of a `<` in either byte order.
 */
export function syntaxOfBytes(bytes: Uint8Array): Syntax {
  const [b0, b1] = bytes;
  if (
    (b0 === 0xfe && b1 === 0xff) ||
    (b0 === 0xff && b1 === 0xfe) ||
    (b0 === 0 && b1 === 0x3c) ||
    (b0 === 0x3c && b1 === 0)
  )
    return 'xml';
  let i = 0;
  while (bytes[i] === 0xef && bytes[i + 1] === 0xbb && bytes[i + 2] === 0xbf) i += 3;
  while (i < bytes.length && isSpace(bytes[i]!)) i++;
  return bytes[i] === 0x3c ? 'xml' : 'json';
}

/** The syntax a file name's extension names (`.json`, `.xml`, any case); undefined for any other name. */
export function syntaxOfName(name: string): Syntax | undefined {
  const extension = /\.([A-Za-z]+)$/.exec(name)?.[1]?.toLowerCase();
  return extension === 'json' ? 'json' : extension === 'xml' ? 'xml' : undefined;
}

/**
 * The syntax a command writes: `--to` when given, else the one the output file's extension names, else the
 * (first) input's, else JSON.
 */
export function outputSyntax(choice: {
  to?: Syntax | undefined;
  output?: string | undefined;
  input?: Syntax | undefined;
}): Syntax {
  return choice.to ?? (choice.output === undefined ? undefined : syntaxOfName(choice.output)) ?? choice.input ?? 'json';
}
