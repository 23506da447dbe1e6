import { parsePointer } from './pointer.js';
import { StringSkipper } from './strings.js';

export interface Position {
  line: number;
  column: number;
}

interface TrieNode {
  children: Map<string, TrieNode>;
  /** The children whose segment is an array index (`0`, `17`, never `01`), by number, for array items. */
  items: Map<number, TrieNode>;
  /** The highest such index, -1 when there is none: an array's later items hold nothing requested. */
  lastItem: number;
  parent: TrieNode | null;
  pointer?: string;
  /** Requested pointers at or below this node not found yet: at 0, the rest of its container is skipped. */
  unfound: number;
}

const ARRAY_INDEX = /^(?:0|[1-9]\d{0,14})$/;

function trieNode(parent: TrieNode | null): TrieNode {
  return { children: new Map(), items: new Map(), lastItem: -1, parent, unfound: 0 };
}

/**
 * Source offsets of the given pointers in well-formed JSON text, in one linear pass. Only containers on the way
 * to a pointer not found yet are walked token by token; the rest (most of a large document when a few places
 * are asked for) is jumped over with indexOf (see {@link BracketJumper}), and the pass ends once every pointer
 * is found. Object members map to the offset of their name (where editors put the cursor); array items and the
 * root to the value.
 */
export function locatePointers(text: string, pointers: Iterable<string>): Map<string, number> {
  const found = new Map<string, number>();
  const root = trieNode(null);
  let wanted = 0;
  for (const pointer of new Set(pointers)) {
    let node = root;
    for (const segment of parsePointer(pointer)) {
      let child = node.children.get(segment);
      if (child === undefined) {
        child = trieNode(node);
        node.children.set(segment, child);
        if (ARRAY_INDEX.test(segment)) {
          const index = Number(segment);
          node.items.set(index, child);
          if (index > node.lastItem) node.lastItem = index;
        }
      }
      node = child;
    }
    if (node.pointer === undefined) {
      node.pointer = pointer;
      wanted++;
      for (let up: TrieNode | null = node; up !== null; up = up.parent) up.unfound++;
    }
  }
  if (wanted === 0) return found;

  interface Frame {
    isObject: boolean;
    expectKey: boolean;
    node: TrieNode;
    /** Trie node of the member whose value comes next, and where its name started. */
    pending: TrieNode | null;
    pendingOffset: number;
    index: number;
  }
  const stack: Frame[] = [];
  const n = text.length;
  let i = 0;
  const strings = new StringSkipper(text);
  const jumper = new BracketJumper(text, strings);

  const record = (node: TrieNode | null, offset: number) => {
    if (node?.pointer === undefined || found.has(node.pointer)) return;
    found.set(node.pointer, offset);
    for (let up: TrieNode | null = node; up !== null; up = up.parent) up.unfound--;
  };
  // Called at the start of every value: decides which trie node the value belongs to.
  const valueStart = (offset: number): TrieNode | null => {
    const frame = stack[stack.length - 1];
    if (frame === undefined) {
      record(root, offset);
      return root;
    }
    if (frame.isObject) {
      const node = frame.pending;
      record(node, frame.pendingOffset);
      return node;
    }
    const node = frame.node.items.get(frame.index) ?? null;
    record(node, offset);
    return node;
  };

  while (i < n && found.size < wanted) {
    const c = text.charCodeAt(i);
    if (c <= 0x20) {
      i++;
      continue;
    }
    const top = stack[stack.length - 1];
    if (top !== undefined && (top.node.unfound === 0 || (!top.isObject && top.index > top.node.lastItem))) {
      // Nothing requested is left in this container: jump to its end.
      i = jumper.closing(i, top.isObject);
      stack.pop();
      continue;
    }
    if (c === 0x22) {
      const start = i;
      const end = strings.end(start);
      i = end + 1;
      if (top !== undefined && top.isObject && top.expectKey) {
        top.expectKey = false;
        top.pending = top.node.children.size === 0 ? null : (top.node.children.get(strings.value(start, end)) ?? null);
        top.pendingOffset = start;
      } else {
        valueStart(start);
      }
      continue;
    }
    switch (c) {
      case 0x7b:
      case 0x5b: {
        const node = valueStart(i);
        if (node === null || node.unfound === 0) {
          // Off the way to every pointer not found yet: jump to the container's end.
          i = jumper.closing(i + 1, c === 0x7b);
          continue;
        }
        stack.push({ isObject: c === 0x7b, expectKey: true, node, pending: null, pendingOffset: 0, index: 0 });
        break;
      }
      case 0x7d:
      case 0x5d:
        stack.pop();
        break;
      case 0x2c: {
        if (top !== undefined) {
          if (top.isObject) {
            top.expectKey = true;
            top.pending = null;
          } else top.index++;
        }
        break;
      }
      case 0x3a:
        break;
      default: {
        // Number or literal: record its start, then skip to its end.
        valueStart(i);
        while (i + 1 < n && !isDelimiter(text.charCodeAt(i + 1))) i++;
        break;
      }
    }
    i++;
  }
  return found;
}

const noneBefore = (text: string, char: string, from: number): number => {
  const at = text.indexOf(char, from);
  return at < 0 ? text.length : at;
};

/**
 * Finds where containers close without a character loop: it keeps the position of the next quote and of the
 * next bracket of each kind (one indexOf each) and steps from one to the nearest, over strings whole. A position
 * is looked up again only once the scan has passed it, and scans only move forward, so one jumper used for a
 * whole pass does linear work however many containers it closes.
 */
class BracketJumper {
  private quote = -1;
  private openBrace = -1;
  private closeBrace = -1;
  private openBracket = -1;
  private closeBracket = -1;

  constructor(
    private readonly text: string,
    private readonly strings: StringSkipper,
  ) {}

  /**
   * The index just after the bracket that closes the object (or array) open at `from`, or the text's end. Only
   * brackets of its own kind are counted: in well-formed JSON the other kind nests within, and on other text
   * this still ends (every position only moves forward).
   */
  closing(from: number, object: boolean): number {
    const text = this.text;
    const n = text.length;
    let depth = 1;
    let i = from;
    for (;;) {
      if (this.quote < i) this.quote = noneBefore(text, '"', i);
      let open: number;
      let close: number;
      if (object) {
        if (this.openBrace < i) this.openBrace = noneBefore(text, '{', i);
        if (this.closeBrace < i) this.closeBrace = noneBefore(text, '}', i);
        open = this.openBrace;
        close = this.closeBrace;
      } else {
        if (this.openBracket < i) this.openBracket = noneBefore(text, '[', i);
        if (this.closeBracket < i) this.closeBracket = noneBefore(text, ']', i);
        open = this.openBracket;
        close = this.closeBracket;
      }
      if (this.quote < open && this.quote < close) {
        i = this.strings.end(this.quote) + 1;
        continue;
      }
      if (open < close) {
        depth++;
        i = open + 1;
        continue;
      }
      if (close >= n) return n;
      i = close + 1;
      if (--depth === 0) return i;
    }
  }
}

function isDelimiter(c: number): boolean {
  return c === 0x2c || c === 0x7d || c === 0x5d || c <= 0x20;
}

/** Converts UTF-16 offsets to 1-based line and column (UTF-16 code units), in one pass over the text. */
export function offsetsToPositions(text: string, offsets: Iterable<number>): Map<number, Position> {
  const sorted = [...new Set(offsets)].sort((a, b) => a - b);
  const positions = new Map<number, Position>();
  let line = 1;
  let lineStart = 0;
  let nextNewline = text.indexOf('\n');
  for (const offset of sorted) {
    while (nextNewline >= 0 && nextNewline < offset) {
      line++;
      lineStart = nextNewline + 1;
      nextNewline = text.indexOf('\n', lineStart);
    }
    positions.set(offset, { line, column: offset - lineStart + 1 });
  }
  return positions;
}
