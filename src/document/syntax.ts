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

/** The syntax of decoded text (a leading U+FEFF is skipped): `xml` when its first character past white space is `<`. */
export function syntaxOf(text: string): Syntax {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return text.charCodeAt(i) === 0x3c ? 'xml' : 'json';
}

/** {@link syntaxOf} for bytes, without decoding them: a UTF-8 byte-order mark is skipped. */
export function syntaxOfBytes(bytes: Uint8Array): Syntax {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
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
