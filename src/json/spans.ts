/**
 * Where the entries of chosen containers stand in JSON text: for an in-place edit (document/json-patch.ts), which
 * must know the span of each member or item of the containers it changes, and nothing of the rest. One forward
 * pass with the locator's tools (StringSkipper, BracketJumper): containers off the requested tree are jumped over
 * whole, so asking for the root and `metadata` of a 20,000-component document costs about one indexOf sweep.
 */
import { BracketJumper, isDelimiter } from './locate.js';
import { StringSkipper } from './strings.js';

/** The containers wanted: a tree by member name or array index (as a decimal string), the root at the top. */
export interface SpanRequest {
  readonly children: ReadonlyMap<string, SpanRequest>;
}

/** One member of an object or item of an array. */
export interface EntrySpan {
  /** The member's name (objects only). */
  readonly key?: string;
  /** Where the entry starts: the member name's opening quote, or the item's first character. */
  readonly start: number;
  /** Objects: just past the member name's closing quote (what lies between it and the value is the colon). */
  readonly nameEnd?: number;
  /** Where its value starts and ends (exclusive). */
  readonly valueStart: number;
  readonly valueEnd: number;
  /** The value's own spans, when the request asked for that container. */
  readonly child?: ContainerSpan;
}

/** A container's brackets and entries. */
export interface ContainerSpan {
  readonly object: boolean;
  /** The opening bracket's offset, and the offset just past the closing one. */
  readonly open: number;
  readonly end: number;
  readonly entries: readonly EntrySpan[];
}

/**
 * The spans of the root container and of every container the request names below it, in well-formed JSON text
 * (the caller parsed it); undefined when the text does not read as the request expects (a requested member that
 * is no container, or text that is not JSON).
 */
export function containerSpans(text: string, request: SpanRequest): ContainerSpan | undefined {
  const strings = new StringSkipper(text);
  const jumper = new BracketJumper(text, strings);
  const n = text.length;
  const skipSpace = (from: number): number => {
    let i = from;
    while (i < n && text.charCodeAt(i) <= 0x20) i++;
    return i;
  };
  /** The end (exclusive) of the value starting at `i`, jumping over containers whole. */
  const valueEnd = (i: number): number => {
    const c = text.charCodeAt(i);
    if (c === 0x22) return strings.end(i) + 1;
    if (c === 0x7b || c === 0x5b) return jumper.closing(i + 1, c === 0x7b);
    let j = i;
    while (j < n && !isDelimiter(text.charCodeAt(j))) j++;
    return j;
  };
  // Recursion only along the request, which is as deep as the model (the parser refuses deeper than MAX_DEPTH).
  const container = (open: number, wanted: SpanRequest): ContainerSpan | undefined => {
    const first = text.charCodeAt(open);
    if (first !== 0x7b && first !== 0x5b) return undefined;
    const object = first === 0x7b;
    const closer = object ? 0x7d : 0x5d;
    const entries: EntrySpan[] = [];
    let i = skipSpace(open + 1);
    if (text.charCodeAt(i) === closer) return { object, open, end: i + 1, entries };
    for (;;) {
      const start = i;
      let key: string | undefined;
      let nameEnd: number | undefined;
      if (object) {
        if (text.charCodeAt(i) !== 0x22) return undefined;
        const close = strings.end(i);
        key = strings.value(i, close);
        nameEnd = close + 1;
        i = skipSpace(nameEnd);
        if (text.charCodeAt(i) !== 0x3a) return undefined;
        i = skipSpace(i + 1);
      }
      const valueStart = i;
      const inner = wanted.children.get(key ?? String(entries.length));
      let child: ContainerSpan | undefined;
      if (inner !== undefined) {
        child = container(valueStart, inner);
        if (child === undefined) return undefined;
        i = child.end;
      } else i = valueEnd(valueStart);
      if (i > n || i === valueStart) return undefined;
      entries.push({
        ...(key === undefined ? {} : { key, nameEnd }),
        start,
        valueStart,
        valueEnd: i,
        ...(child === undefined ? {} : { child }),
      });
      i = skipSpace(i);
      const c = text.charCodeAt(i);
      if (c === closer) return { object, open, end: i + 1, entries };
      if (c !== 0x2c) return undefined;
      i = skipSpace(i + 1);
    }
  };
  return container(skipSpace(0), request);
}
