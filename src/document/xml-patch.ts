/**
 * Writing a changed model back into the XML text it was read from, keeping its layout: each changed value is
 * replaced where the model's locate map says it stands; a member added is written by the XML writer (so in the
 * form and element order the version's XSD requires) and its element spliced in after its nearest preceding
 * sibling as the fresh document orders them, indented like its siblings; a member removed is cut out with the
 * white space before it. Everything else (layout, comments, extensions, an XML signature) stays as it was. Where
 * the text cannot take the change that way (an array reordered, items inserted before others, a member with no
 * element of its own), or the patched text would not read as the fresh document does, undefined: the caller
 * writes the document afresh.
 */
import { isRecord } from '../values.js';
import type { XmlPlace } from '../xml/model.js';
import type { XmlNode } from '../xml/scan.js';

interface Change {
  pointer: string;
  value: string;
}

/** A member or item added or removed: its pointer, and its parent's (a record, or an array). */
interface Shape {
  kind: 'add' | 'remove';
  pointer: string;
  parent: string;
  /** Added array items: the index (inserted after the item before it), and the new array's length. */
  index?: number;
  length?: number;
}

interface Edit {
  start: number;
  end: number;
  text: string;
  /** Among insertions at one offset: the order of the fresh document. */
  order: number;
}

/** What the patch needs of the document beyond its text: the way to places, the trees, reading, a fresh write. */
interface XmlPatchSource {
  locate(pointer: string): XmlPlace | undefined;
  /** The source's element tree. */
  tree(): XmlNode;
  /** A text's model; undefined when it does not read. */
  reread(text: string): unknown;
  /** The changed model written afresh (in the source's indentation), with its tree and locate map. */
  fresh(): { text: string; tree: XmlNode; locate(pointer: string): XmlPlace | undefined };
}

/**
 * `text` with the differences between `before` (its model) and `after` written in place, or undefined when that
 * cannot be done. With values changed only, the patched text must read as `after` exactly; with members added
 * or removed, as the fresh document reads (which leaves out what the version's XML cannot carry).
 */
export function patchXml(text: string, before: unknown, after: unknown, source: XmlPatchSource): string | undefined {
  const changes: Change[] = [];
  const shapes: Shape[] = [];
  if (!valueChanges(before, after, '', changes, shapes)) return undefined;
  if (changes.length === 0 && shapes.length === 0) return text;
  const edits: Edit[] = [];
  for (const change of changes) {
    const place = source.locate(change.pointer);
    const edit = place === undefined ? undefined : editAt(text, place, change.value);
    if (edit === undefined) return undefined;
    edits.push({ ...edit, order: 0 });
  }
  let expected: unknown = after;
  if (shapes.length > 0) {
    const fresh = source.fresh();
    expected = source.reread(fresh.text);
    if (expected === undefined || !shapeEdits(text, source, fresh, shapes, edits)) return undefined;
  }
  // At one offset, insertions (in the fresh document's order) before a removal that starts there.
  edits.sort((a, b) => a.start - b.start || a.order - b.order);
  const out: string[] = [];
  let at = 0;
  for (const edit of edits) {
    // Two edits over one stretch: the map cannot tell them apart.
    if (edit.start < at) return undefined;
    out.push(text.slice(at, edit.start), edit.text);
    at = edit.end;
  }
  out.push(text.slice(at));
  const patched = out.join('');
  return sameModel(source.reread(patched), expected) ? patched : undefined;
}

/** Deep equality of two models, member order aside (XML's attribute order is the XSD's, not the model's). */
function sameModel(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => sameModel(item, b[i]));
  if (!isRecord(a) || !isRecord(b) || Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameModel(a[key], b[key]))
  );
}

/** The source's indentation unit and line ending, as its first indented line shows them. */
function styleOf(text: string): { unit: string; eol: string } {
  return {
    unit: /\n([ \t]+)</.exec(text)?.[1] ?? '',
    eol: text.includes('\r\n') ? '\r\n' : text.includes('\n') ? '\n' : '',
  };
}

/** The nodes of a tree by their offset. */
function byOffset(root: XmlNode): Map<number, XmlNode> {
  const nodes = new Map<number, XmlNode>();
  const stack = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    nodes.set(node.offset, node);
    for (const child of node.children) stack.push(child);
  }
  return nodes;
}

/** Edits for the members added and removed; false when one cannot be placed. */
function shapeEdits(
  text: string,
  source: XmlPatchSource,
  fresh: ReturnType<XmlPatchSource['fresh']>,
  shapes: readonly Shape[],
  edits: Edit[],
): boolean {
  const style = styleOf(text);
  const nodes = byOffset(source.tree());
  const freshNodes = byOffset(fresh.tree);
  const memo = <T>(cache: Map<string, T>, key: string, make: () => T): T => {
    if (!cache.has(key)) cache.set(key, make());
    return cache.get(key)!;
  };
  const itemLists = new Map<string, XmlNode[] | undefined>();
  /** The fresh element of an added array item: the list's elements, once per array, indexed. */
  const freshItem = (shape: Shape): XmlNode | undefined => {
    const list = memo(itemLists, shape.parent, () => {
      const first = fresh.locate(`${shape.parent}/0`);
      const node = first === undefined ? undefined : freshNodes.get(first.offset);
      const container = node?.parent;
      if (node === undefined || container === undefined) return undefined;
      const same = container.children.filter((c) => c.local === node.local && c.namespace === node.namespace);
      if (same.length === shape.length) return same;
      const all = container.children.filter((c) => c.namespace === node.namespace);
      return all.length === shape.length ? all : undefined;
    });
    return list?.[shape.index!];
  };
  const sourceParents = new Map<string, XmlNode | undefined>();
  // The fresh elements being added, so that one is never taken for the sibling another goes after.
  const added = new Set<XmlNode>();
  const additions: { shape: Shape; node: XmlNode }[] = [];
  for (const shape of shapes) {
    if (shape.kind === 'remove') {
      const place = source.locate(shape.pointer);
      const parent = source.locate(shape.parent);
      if (place === undefined || parent === undefined || place.offset === parent.offset) return false;
      const edit = /\/@[^/]+$/.test(place.path)
        ? attributeRemoval(text, place.offset)
        : elementRemoval(text, place.offset);
      if (edit === undefined) return false;
      edits.push(edit);
      continue;
    }
    // Items of one array: found among the fresh list's elements by index, not by a walk from the root each.
    const item = shape.index === undefined ? undefined : freshItem(shape);
    if (item !== undefined) {
      added.add(item);
      additions.push({ shape, node: item });
      continue;
    }
    const place = fresh.locate(shape.pointer);
    const parent = fresh.locate(shape.parent);
    // Not written (the version's XML cannot carry it): the fresh document says so to onDrop; nothing to insert.
    if (place === undefined || parent === undefined || place.offset === parent.offset) continue;
    if (/\/@[^/]+$/.test(place.path)) {
      const attribute = /[^\s=>]+\s*=\s*("[^"]*"|'[^']*')/y;
      attribute.lastIndex = place.offset;
      const written = attribute.exec(fresh.text)?.[0];
      const owner = source.locate(shape.parent);
      if (written === undefined || owner === undefined) return false;
      const gt = endOfStartTag(text, owner.offset + 1);
      if (gt === -1) return false;
      const at = text[gt - 1] === '/' ? gt - 1 : gt;
      edits.push({ start: at, end: at, text: ` ${written}`, order: place.offset });
      continue;
    }
    const node = freshNodes.get(place.offset);
    if (node === undefined) return false;
    added.add(node);
    additions.push({ shape, node });
  }
  // Sibling positions and names, made once per parent (a list of 20,000 items gets many additions in one edit).
  const positions = new Map<XmlNode, Map<XmlNode, { index: number; occurrence: number }>>();
  const positionOf = (node: XmlNode) => {
    const parent = node.parent!;
    let table = positions.get(parent);
    if (table === undefined) {
      table = new Map();
      const seen = new Map<string, number>();
      parent.children.forEach((child, index) => {
        const occurrence = seen.get(child.local) ?? 0;
        seen.set(child.local, occurrence + 1);
        table!.set(child, { index, occurrence });
      });
      positions.set(parent, table);
    }
    return table.get(node)!;
  };
  const named = new Map<XmlNode, Map<string, XmlNode[]>>();
  const childrenNamed = (parent: XmlNode, sibling: XmlNode): XmlNode[] => {
    let table = named.get(parent);
    if (table === undefined) {
      table = new Map();
      for (const child of parent.children) {
        const key = `${child.namespace ?? ''} ${child.local}`;
        const list = table.get(key);
        if (list === undefined) table.set(key, [child]);
        else list.push(child);
      }
      named.set(parent, table);
    }
    return table.get(`${sibling.namespace ?? ''} ${sibling.local}`) ?? [];
  };
  /**
   * The source's element a fresh element goes after: the counterpart (by name and occurrence) of its nearest
   * preceding sibling that is not new; undefined when none precedes it, null when the source has no counterpart.
   */
  const previousMemo = new Map<XmlNode, XmlNode | undefined | null>();
  const previousOf = (node: XmlNode, parentNode: XmlNode): XmlNode | undefined | null => {
    if (previousMemo.has(node)) return previousMemo.get(node);
    const { index } = positionOf(node);
    const sibling = index === 0 ? undefined : node.parent!.children[index - 1]!;
    const found =
      sibling === undefined
        ? undefined
        : added.has(sibling)
          ? previousOf(sibling, parentNode)
          : (childrenNamed(parentNode, sibling)[positionOf(sibling).occurrence] ?? null);
    previousMemo.set(node, found);
    return found;
  };
  for (const { shape, node } of additions) {
    const freshParent = node.parent;
    if (freshParent === undefined) return false;
    const end = elementEnd(fresh.text, node.offset);
    if (end === -1) return false;
    const freshIndent = lineIndent(fresh.text, node.offset);
    // The source's parent: for an array item, the element holding the items (the list, or the record repeating them).
    const parentNode = memo(sourceParents, shape.index === undefined ? shape.parent : `${shape.parent}/0`, () => {
      const parentPlace = source.locate(shape.index === undefined ? shape.parent : `${shape.parent}/0`);
      if (parentPlace === undefined) return undefined;
      return shape.index === undefined ? nodes.get(parentPlace.offset) : nodes.get(parentPlace.offset)?.parent;
    });
    if (parentNode === undefined) return false;
    // The nearest preceding sibling in the fresh document that the source has too, by name and occurrence.
    const previous = previousOf(node, parentNode);
    if (previous === null) return false;
    const first = parentNode.children[0];
    const outer = lineIndent(text, parentNode.offset);
    // Children written on the parent's line (`<component><name>a</name>…`): the new one joins them there.
    const inline = style.eol === '' || (first !== undefined && !onOwnLine(text, first.offset));
    const indent = inline ? '' : first !== undefined ? lineIndent(text, first.offset) : outer + style.unit;
    const lines = fresh.text.slice(node.offset, end).split('\n');
    const fragment = inline
      ? lines.map((line) => line.slice(leadingSpace(line))).join('')
      : lines
          .map((line, i) => (i === 0 ? line : indent + line.slice(Math.min(freshIndent.length, leadingSpace(line)))))
          .join(style.eol);
    const eol = inline ? '' : style.eol;
    const order = node.offset;
    if (previous !== undefined) {
      const after = elementEnd(text, previous.offset);
      if (after === -1) return false;
      edits.push({ start: after, end: after, text: `${eol}${indent}${fragment}`, order });
      continue;
    }
    const gt = endOfStartTag(text, parentNode.offset + 1);
    if (gt === -1) return false;
    if (text[gt - 1] === '/') {
      // <parent/>: opened, the element put in, closed.
      const name = parentNode.name;
      edits.push({
        start: gt - 1,
        end: gt + 1,
        text: `>${eol}${indent}${fragment}${eol}${outer}</${name}>`,
        order,
      });
    } else if (first === undefined && /^[\t\n\r ]*<\//.test(text.slice(gt + 1, gt + 200))) {
      // <parent></parent>, or only white space inside: the element on its own line, the end tag on the next.
      const close = text.indexOf('</', gt + 1);
      edits.push({ start: gt + 1, end: close, text: `${eol}${indent}${fragment}${eol}${outer}`, order });
    } else edits.push({ start: gt + 1, end: gt + 1, text: `${eol}${indent}${fragment}`, order });
  }
  return true;
}

function leadingSpace(line: string): number {
  return /^[ \t]*/.exec(line)![0].length;
}

/** The white space that begins the line `offset` stands on. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start, offset))![0];
}

/** Whether only white space stands before `offset` on its line. */
function onOwnLine(text: string, offset: number): boolean {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return start > 0 && /^[ \t]*$/.test(text.slice(start, offset));
}

/** An element cut out with the white space before it (its line's break and indentation). */
function elementRemoval(text: string, offset: number): Edit | undefined {
  const end = elementEnd(text, offset);
  if (end === -1) return undefined;
  let start = offset;
  while (start > 0 && /[\t\n\r ]/.test(text[start - 1]!)) start--;
  return { start, end, text: '', order: Number.MAX_SAFE_INTEGER };
}

/** An attribute cut out with the white space before it. */
function attributeRemoval(text: string, offset: number): Edit | undefined {
  const attribute = /[^\s=>]+\s*=\s*("[^"]*"|'[^']*')/y;
  attribute.lastIndex = offset;
  const match = attribute.exec(text);
  if (match === null) return undefined;
  let start = offset;
  while (start > 0 && /[\t\n\r ]/.test(text[start - 1]!)) start--;
  return { start, end: offset + match[0].length, text: '', order: Number.MAX_SAFE_INTEGER };
}

/** The offset just past the element whose start tag is at `offset`; -1 when the text ends first. */
function elementEnd(text: string, offset: number): number {
  let depth = 0;
  let i = offset;
  for (;;) {
    const lt = text.indexOf('<', i);
    if (lt === -1) return -1;
    const skip = text.startsWith('<!--', lt)
      ? ['-->', 4]
      : text.startsWith('<![CDATA[', lt)
        ? [']]>', 9]
        : text.startsWith('<?', lt)
          ? ['?>', 2]
          : undefined;
    if (skip !== undefined) {
      const close = text.indexOf(skip[0] as string, lt + (skip[1] as number));
      if (close === -1) return -1;
      i = close + (skip[0] as string).length;
      continue;
    }
    if (text[lt + 1] === '/') {
      const gt = text.indexOf('>', lt);
      if (gt === -1) return -1;
      i = gt + 1;
      if (--depth === 0) return i;
      continue;
    }
    const gt = endOfStartTag(text, lt + 1);
    if (gt === -1) return -1;
    i = gt + 1;
    if (text[gt - 1] !== '/') depth++;
    else if (depth === 0) return i;
  }
}

/**
 * Collects the scalar values of `after` that differ from `before` at the same place, and the members and trailing
 * items added or removed; false when the two differ otherwise (an array reordered, an item moved, a value of
 * another kind).
 */
function valueChanges(before: unknown, after: unknown, pointer: string, out: Change[], shapes: Shape[]): boolean {
  if (before === after) return true;
  if (Array.isArray(before)) {
    if (!Array.isArray(after)) return false;
    if (before.length !== after.length) return resized(before, after, pointer, shapes);
    let items: Set<string> | undefined;
    for (let i = 0; i < before.length; i++) {
      const found = out.length + shapes.length;
      if (!valueChanges(before[i], after[i], `${pointer}/${i}`, out, shapes)) return false;
      if (out.length + shapes.length === found || !isRecord(after[i])) continue;
      // An item that reads as another item of the old array was moved, not edited: its extensions would stay behind.
      items ??= new Set(before.map((item) => JSON.stringify(item)));
      if (items.has(JSON.stringify(after[i]))) return false;
    }
    return true;
  }
  if (isRecord(before)) {
    if (!isRecord(after)) return false;
    for (const key of Object.keys(before)) {
      const at = `${pointer}/${escape(key)}`;
      if (!Object.hasOwn(after, key) || after[key] === undefined)
        shapes.push({ kind: 'remove', pointer: at, parent: pointer });
      else if (!valueChanges(before[key], after[key], at, out, shapes)) return false;
    }
    for (const key of Object.keys(after))
      if (!Object.hasOwn(before, key) && after[key] !== undefined)
        shapes.push({ kind: 'add', pointer: `${pointer}/${escape(key)}`, parent: pointer });
    return true;
  }
  const text = scalarText(before);
  const next = scalarText(after);
  if (text === undefined || next === undefined) return false;
  if (text !== next || typeof before !== typeof after) out.push({ pointer, value: next });
  return true;
}

/**
 * An array that grew or shrank: the items equal at its start and at its end stay, those between are removed and
 * the new ones added in their place (after the item before them). Refused when it was empty (its element may not
 * exist to put items in).
 */
function resized(before: readonly unknown[], after: readonly unknown[], pointer: string, shapes: Shape[]): boolean {
  if (before.length === 0) return false;
  const shorter = Math.min(before.length, after.length);
  let head = 0;
  while (head < shorter && sameModel(before[head], after[head])) head++;
  let tail = 0;
  while (tail < shorter - head && sameModel(before[before.length - 1 - tail], after[after.length - 1 - tail])) tail++;
  for (let i = head; i < before.length - tail; i++)
    shapes.push({ kind: 'remove', pointer: `${pointer}/${i}`, parent: pointer });
  for (let i = head; i < after.length - tail; i++)
    shapes.push({ kind: 'add', pointer: `${pointer}/${i}`, parent: pointer, index: i, length: after.length });
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
function editAt(text: string, place: XmlPlace, value: string): Omit<Edit, 'order'> | undefined {
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
