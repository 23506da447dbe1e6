/** How a JSON text is laid out, to write a changed value back the same way. */
export interface JsonLayout {
  /** Indentation: the first indented line's, or none for one-line documents. */
  indent: string | number;
  trailingNewline: boolean;
}

/** How a document is laid out, to write it back the same way. */
export function layoutOf(text: string): JsonLayout {
  const indentMatch = /\n([ \t]+)\S/.exec(text);
  return { indent: indentMatch ? indentMatch[1]! : '', trailingNewline: text.endsWith('\n') };
}

export function serializeJson(value: unknown, like: JsonLayout): string {
  const text = JSON.stringify(value, null, like.indent === '' ? undefined : like.indent);
  return like.trailingNewline || like.indent !== '' ? `${text}\n` : text;
}
