/**
 * Writing a changed model back into the JSON text it was read from, keeping the text's layout: only the members
 * and items whose value changed are written, members added or removed are spliced in or out in the style of
 * their container (its indentation, one line or many, its separators), and every other byte stays as it was (key
 * order, number spellings such as `1.0`, escapes, the final newline or its absence, CRLF, tabs). A `bump` of a
 * prettier-formatted BOM is then a two-line diff, not a rewrite of its compact arrays.
 *
 * Linear in the text: the two models are compared once into a plan, the spans of the containers the plan changes
 * are found in one pass (json/spans.ts), and the result is assembled from slices of the text and the new parts in
 * one join. The patched text must read back as the new model exactly, or it is not used (the caller writes the
 * document afresh): a patch is never allowed to corrupt.
 */
import { layoutOf } from '../json/layout.js';
import { containerSpans, type ContainerSpan, type EntrySpan, type SpanRequest } from '../json/spans.js';
import { isRecord } from '../values.js';

/** What becomes of a value: kept as written, written anew, or a container edited entry by entry. */
type Plan = 'same' | 'replace' | ContainerPlan;

interface ContainerPlan {
  readonly object: boolean;
  /** The entries of the new container, in order: one of the old ones (by key or index), or a new value. */
  readonly items: readonly Item[];
  readonly request: SpanRequest;
}

type Item =
  | { readonly old: string; readonly plan: Plan; readonly value: unknown }
  | { readonly key?: string; readonly value: unknown };

/**
 * `text` (whose model is `before`) changed to read as `after`, its layout kept; undefined when that cannot be done
 * (the root is no container in one of them, or the result would not read as `after`).
 */
export function patchJson(text: string, before: unknown, after: unknown): string | undefined {
  const plan = planOf(before, after);
  if (plan === 'same') return JSON.stringify(before) === JSON.stringify(after) ? text : undefined;
  if (plan === 'replace') return undefined;
  const root = containerSpans(text, plan.request);
  if (root === undefined) return undefined;
  const layout = layoutOf(text);
  const style: FileStyle = {
    unit: typeof layout.indent === 'number' ? ' '.repeat(layout.indent) : layout.indent,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
  const out: string[] = [text.slice(0, root.open)];
  if (!emitContainer(text, root, plan, style, out)) return undefined;
  out.push(text.slice(root.end));
  const patched = out.join('');
  return readsAs(patched, after) ? patched : undefined;
}

function readsAs(text: string, model: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(model);
  } catch {
    return false;
  }
}

/** The whole request tree of a plan's changed containers (they are the only ones whose entries are needed). */
function planOf(before: unknown, after: unknown): Plan {
  if (before === after) return 'same';
  if (Array.isArray(before)) return Array.isArray(after) ? arrayPlan(before, after) : 'replace';
  if (isRecord(before) && isRecord(after) && !Array.isArray(after)) return objectPlan(before, after);
  return 'replace';
}

function objectPlan(before: Record<string, unknown>, after: Record<string, unknown>): Plan {
  const oldKeys = Object.keys(before);
  const position = new Map(oldKeys.map((key, i) => [key, i]));
  const items: Item[] = [];
  const children = new Map<string, SpanRequest>();
  let changed = false;
  let last = -1;
  let kept = 0;
  for (const key of Object.keys(after)) {
    if (after[key] === undefined) continue; // not written, as JSON.stringify leaves it out
    const at = position.get(key);
    if (at === undefined) {
      items.push({ key, value: after[key] });
      changed = true;
      continue;
    }
    // Members kept in another order: the container is written anew (normalize's job, not an edit's).
    if (at < last) return 'replace';
    last = at;
    kept++;
    const plan = planOf(before[key], after[key]);
    if (plan !== 'same') changed = true;
    if (typeof plan === 'object') children.set(key, plan.request);
    items.push({ old: key, plan, value: after[key] });
  }
  if (!changed && kept === oldKeys.length) return 'same';
  return { object: true, items, request: { children } };
}

function arrayPlan(before: readonly unknown[], after: readonly unknown[]): Plan {
  const items: Item[] = [];
  const children = new Map<string, SpanRequest>();
  let changed = false;
  if (before.length === after.length) {
    for (let i = 0; i < before.length; i++) {
      const plan = planOf(before[i], after[i]);
      if (plan !== 'same') changed = true;
      if (typeof plan === 'object') children.set(String(i), plan.request);
      items.push({ old: String(i), plan, value: after[i] });
    }
    return changed ? { object: false, items, request: { children } } : 'same';
  }
  // Resized: the items equal at the start and at the end are kept as written, those between written anew.
  const shorter = Math.min(before.length, after.length);
  let head = 0;
  while (head < shorter && sameValue(before[head], after[head])) head++;
  let tail = 0;
  while (tail < shorter - head && sameValue(before[before.length - 1 - tail], after[after.length - 1 - tail])) tail++;
  for (let i = 0; i < head; i++) items.push({ old: String(i), plan: 'same', value: after[i] });
  for (let i = head; i < after.length - tail; i++) items.push({ value: after[i] });
  for (let i = before.length - tail; i < before.length; i++)
    items.push({ old: String(i), plan: 'same', value: before[i] });
  return { object: false, items, request: { children } };
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  if (!isRecord(a) || !isRecord(b) || Array.isArray(b)) return false;
  const keys = Object.keys(a);
  const others = Object.keys(b);
  if (keys.length !== others.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (others[i] !== key || !sameValue(a[key], b[key])) return false;
  }
  return true;
}

/** The file's indentation unit ('' when it is on one line) and its line ending. */
interface FileStyle {
  unit: string;
  eol: string;
}

/** How one container is written: what precedes its first entry, separates two, follows the last. */
interface ContainerStyle {
  lead: string;
  gap: string;
  trail: string;
  colon: string;
  /** The indentation of its entries when it spans lines; undefined when it is written on one line. */
  indent: string | undefined;
  /** Inside the brackets of a one-line object and array written anew (prettier: `{ "a": 1 }`, `[1, 2]`). */
  objectPad: string;
  arrayPad: string;
}

function containerStyle(text: string, span: ContainerSpan, file: FileStyle): ContainerStyle {
  const entries = span.entries;
  const first = entries[0];
  const colon =
    first?.nameEnd === undefined ? (file.unit === '' ? ':' : ': ') : text.slice(first.nameEnd, first.valueStart);
  if (first === undefined) {
    // Empty: written over lines when the file is, indented one unit deeper than the line it opens on.
    const pads = { objectPad: file.unit === '' ? '' : ' ', arrayPad: '' };
    if (file.unit === '') return { lead: '', gap: ',', trail: '', colon, indent: undefined, ...pads };
    const outer = lineIndent(text, span.open);
    const indent = outer + file.unit;
    return { lead: file.eol + indent, gap: `,${file.eol}${indent}`, trail: file.eol + outer, colon, indent, ...pads };
  }
  const lead = text.slice(span.open + 1, first.start);
  const trail = text.slice(entries[entries.length - 1]!.valueEnd, span.end - 1);
  const newline = lead.lastIndexOf('\n');
  const indent = newline === -1 ? undefined : lead.slice(newline + 1);
  const second = entries[1];
  const gap =
    second !== undefined
      ? text.slice(first.valueEnd, second.start)
      : indent !== undefined
        ? `,${file.eol}${indent}`
        : file.unit === ''
          ? ','
          : ', ';
  // The padding of one-line containers, as this one shows it: its own, or its first item's when that is one.
  const pad = (at: number): string => /^[ \t]*/.exec(text.slice(at + 1, at + 9))![0];
  const inline = indent === undefined && /^[ \t]*$/.test(lead) ? lead : undefined;
  const firstPad = (open: string): string | undefined =>
    text[first.valueStart] === open && !text.slice(first.valueStart, first.valueEnd).includes('\n')
      ? pad(first.valueStart)
      : undefined;
  const objectPad = (span.object ? inline : undefined) ?? firstPad('{') ?? (file.unit === '' ? '' : ' ');
  const arrayPad = (span.object ? undefined : inline) ?? firstPad('[') ?? '';
  return { lead, gap, trail, colon, indent, objectPad, arrayPad };
}

/** The white space that begins the line `offset` stands on. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  let end = start;
  while (end < offset && (text[end] === ' ' || text[end] === '\t')) end++;
  return text.slice(start, end);
}

/** Appends the container's new text to `out`; false when the text does not match the plan. */
function emitContainer(
  text: string,
  span: ContainerSpan,
  plan: ContainerPlan,
  file: FileStyle,
  out: string[],
): boolean {
  const entries = span.entries;
  const index = new Map<string, number>();
  for (let i = 0; i < entries.length; i++) index.set(span.object ? entries[i]!.key! : String(i), i);
  if (index.size !== entries.length) return false;
  const style = containerStyle(text, span, file);
  out.push(text[span.open]!);
  if (plan.items.length === 0) {
    out.push(text[span.end - 1]!);
    return true;
  }
  out.push(style.lead);
  let previous: number | undefined;
  let firstItem = true;
  for (const item of plan.items) {
    const at = 'old' in item ? index.get(item.old) : undefined;
    if ('old' in item && at === undefined) return false;
    if (!firstItem) {
      out.push(
        at !== undefined && previous !== undefined && at === previous + 1
          ? text.slice(entries[previous]!.valueEnd, entries[at]!.start)
          : style.gap,
      );
    }
    firstItem = false;
    previous = at;
    if (at === undefined) {
      if (span.object) out.push(JSON.stringify('key' in item ? item.key : ''), style.colon);
      out.push(freshValue(item.value, style, file));
      continue;
    }
    const entry: EntrySpan = entries[at]!;
    const plan = 'plan' in item ? item.plan : 'same';
    if (plan === 'same') {
      out.push(text.slice(entry.start, entry.valueEnd));
      continue;
    }
    out.push(text.slice(entry.start, entry.valueStart));
    if (plan === 'replace') out.push(freshValue(item.value, style, file));
    else if (entry.child === undefined || !emitContainer(text, entry.child, plan, file, out)) return false;
  }
  out.push(style.trail, text[span.end - 1]!);
  return true;
}

/** A value written anew as an entry of a container in `style`: over lines as the file indents, or on one line. */
function freshValue(value: unknown, style: ContainerStyle, file: FileStyle): string {
  if (style.indent === undefined || file.unit === '') return oneLine(value, style);
  const written = JSON.stringify(value, null, file.unit);
  return written.includes('\n') ? written.replaceAll('\n', file.eol + style.indent) : written;
}

/** A value on one line, with the separators of the one-line container it goes into (`{ "a": 1, "b": [1, 2] }`). */
function oneLine(value: unknown, style: ContainerStyle): string {
  const comma = style.gap.includes('\n') ? ', ' : style.gap;
  const write = (v: unknown): string => {
    if (Array.isArray(v)) return `[${style.arrayPad}${v.map((item) => write(item)).join(comma)}${style.arrayPad}]`;
    if (isRecord(v)) {
      const members = Object.keys(v)
        .filter((key) => v[key] !== undefined)
        .map((key) => `${JSON.stringify(key)}${style.colon}${write(v[key])}`);
      return members.length === 0 ? '{}' : `{${style.objectPad}${members.join(comma)}${style.objectPad}}`;
    }
    return JSON.stringify(v) ?? 'null';
  };
  return write(value);
}
