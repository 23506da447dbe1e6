/**
 * Writing a changed model back into the XML text it was read from, where only existing values changed (a bump's
 * version and timestamp, a new supplier name): each value is replaced where the model's locate map says it
 * stands, and everything else (layout, comments, extensions, an XML signature) stays as it was. Anything the
 * text cannot take that way (a member added or removed, an array reordered or resized) gives undefined: the
 * caller writes the document afresh.
 */
import { isRecord } from '../values.js';
import type { XmlPlace } from '../xml/model.js';

interface Change {
  pointer: string;
  value: string;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * `text` with the values that differ between `before` (its model) and `after` replaced in place, or undefined
 * when the change is not one of values alone. `reread` reads a text's model: the patched text must read as
 * `after` exactly, or it is not used.
 */
export function patchXml(
  text: string,
  before: unknown,
  after: unknown,
  locate: (pointer: string) => XmlPlace | undefined,
  reread: (text: string) => unknown,
): string | undefined {
  const changes: Change[] = [];
  if (!valueChanges(before, after, '', changes)) return undefined;
  if (changes.length === 0) return text;
  const edits: Edit[] = [];
  for (const change of changes) {
    const place = locate(change.pointer);
    const edit = place === undefined ? undefined : editAt(text, place, change.value);
    if (edit === undefined) return undefined;
    edits.push(edit);
  }
  edits.sort((a, b) => b.start - a.start);
  let patched = text;
  for (let i = 0; i < edits.length; i++) {
    const edit = edits[i]!;
    // Two values at one place: the map cannot tell them apart.
    if (i > 0 && edit.end > edits[i - 1]!.start) return undefined;
    patched = patched.slice(0, edit.start) + edit.text + patched.slice(edit.end);
  }
  return JSON.stringify(reread(patched)) === JSON.stringify(after) ? patched : undefined;
}

/**
 * Collects the scalar values of `after` that differ from `before` at the same place; false when the two differ
 * in shape (a member added, removed or moved, an array resized or reordered, a value of another kind).
 */
function valueChanges(before: unknown, after: unknown, pointer: string, out: Change[]): boolean {
  if (before === after) return true;
  if (Array.isArray(before)) {
    if (!Array.isArray(after) || after.length !== before.length) return false;
    let items: Set<string> | undefined;
    for (let i = 0; i < before.length; i++) {
      const found = out.length;
      if (!valueChanges(before[i], after[i], `${pointer}/${i}`, out)) return false;
      if (out.length === found || !isRecord(after[i])) continue;
      // An item that reads as another item of the old array was moved, not edited: its extensions would stay behind.
      items ??= new Set(before.map((item) => JSON.stringify(item)));
      if (items.has(JSON.stringify(after[i]))) return false;
    }
    return true;
  }
  if (isRecord(before)) {
    if (!isRecord(after)) return false;
    const keys = Object.keys(before);
    const others = Object.keys(after);
    if (keys.length !== others.length || keys.some((key, i) => others[i] !== key)) return false;
    return keys.every((key) => valueChanges(before[key], after[key], `${pointer}/${escape(key)}`, out));
  }
  const text = scalarText(before);
  const next = scalarText(after);
  if (text === undefined || next === undefined) return false;
  if (text !== next || typeof before !== typeof after) out.push({ pointer, value: next });
  return true;
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return String(value);
  return undefined;
}

function escape(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The replacement of the value at `place`: an attribute's value, or the text of an element with text alone. */
function editAt(text: string, place: XmlPlace, value: string): Edit | undefined {
  if (/\/@[^/]+$/.test(place.path)) {
    const head = /[^\s=>]+\s*=\s*(["'])/y;
    head.lastIndex = place.offset;
    const match = head.exec(text);
    if (match === null) return undefined;
    const quote = match[1]!;
    const start = head.lastIndex;
    const end = text.indexOf(quote, start);
    return end === -1 ? undefined : { start, end, text: escapeAttribute(value, quote) };
  }
  const open = /<([^\s/>]+)/y;
  open.lastIndex = place.offset;
  const name = open.exec(text)?.[1];
  if (name === undefined) return undefined;
  const gt = endOfStartTag(text, open.lastIndex);
  if (gt === -1) return undefined;
  if (text[gt - 1] === '/') return { start: gt - 1, end: gt + 1, text: `>${escapeText(value)}</${name}>` };
  // Text alone up to the end tag: a comment, CDATA or child element in between is left to a fresh write.
  const lt = text.indexOf('<', gt + 1);
  const close = new RegExp(`</${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\t\\n\\r ]*>`, 'y');
  close.lastIndex = lt;
  if (lt === -1 || !close.test(text)) return undefined;
  return { start: gt + 1, end: lt, text: escapeText(value) };
}

/** The offset of the `>` that ends a start tag whose attributes begin at `from` (quoted values may hold `>`). */
function endOfStartTag(text: string, from: number): number {
  let quote: string | undefined;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return -1;
}

function escapeText(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('\r', '&#13;');
}

/** Attribute values are normalized by readers (white space to spaces): those characters are written as references. */
function escapeAttribute(value: string, quote: string): string {
  return escapeText(value)
    .replaceAll(quote, quote === '"' ? '&quot;' : '&apos;')
    .replaceAll('\t', '&#9;')
    .replaceAll('\n', '&#10;');
}
