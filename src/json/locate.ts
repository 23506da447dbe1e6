import { parsePointer } from './pointer.js';
import { StringSkipper } from './strings.js';

export interface Position {
  line: number;
  column: number;
}

interface TrieNode {
  children: Map<string, TrieNode>;
  pointer?: string;
}

/**
 * Source offsets of the given pointers in well-formed JSON text, in one linear pass. Only subtrees on the way to
 * a requested pointer are tracked, so the cost is a character scan, not a tree build. Object members map to the
 * offset of their name (where editors put the cursor); array items and the root to the value.
 */
export function locatePointers(text: string, pointers: Iterable<string>): Map<string, number> {
  const found = new Map<string, number>();
  const root: TrieNode = { children: new Map() };
  let wanted = 0;
  for (const pointer of pointers) {
    let node = root;
    for (const segment of parsePointer(pointer)) {
      let child = node.children.get(segment);
      if (child === undefined) {
        child = { children: new Map() };
        node.children.set(segment, child);
      }
      node = child;
    }
    if (node.pointer === undefined) {
      node.pointer = pointer;
      wanted++;
    }
  }
  if (wanted === 0) return found;

  interface Frame {
    isObject: boolean;
    expectKey: boolean;
    node: TrieNode | null;
    /** Trie node of the member or item whose value comes next, and where its name started. */
    pending: TrieNode | null;
    pendingOffset: number;
    index: number;
  }
  const stack: Frame[] = [];
  const n = text.length;
  let i = 0;
  const strings = new StringSkipper(text);

  const record = (node: TrieNode | null, offset: number) => {
    if (node?.pointer !== undefined && !found.has(node.pointer)) found.set(node.pointer, offset);
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
    const node = frame.node?.children.get(String(frame.index)) ?? null;
    record(node, offset);
    return node;
  };

  while (i < n && found.size < wanted) {
    const c = text.charCodeAt(i);
    if (c <= 0x20) {
      i++;
      continue;
    }
    if (c === 0x22) {
      const start = i;
      const end = strings.end(start);
      i = end + 1;
      const frame = stack[stack.length - 1];
      if (frame !== undefined && frame.isObject && frame.expectKey) {
        frame.expectKey = false;
        if (frame.node !== null) {
          const key = strings.value(start, end);
          frame.pending = frame.node.children.get(key) ?? null;
        }
        frame.pendingOffset = start;
      } else {
        valueStart(start);
      }
      continue;
    }
    switch (c) {
      case 0x7b:
      case 0x5b: {
        const node = valueStart(i);
        if (node === null) {
          // Off the way to every requested pointer (most of a large document when a few places are asked
          // for): jump to the container's end without tracking what is inside.
          i = skipContainer(text, i, strings);
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
        const frame = stack[stack.length - 1]!;
        if (frame.isObject) {
          frame.expectKey = true;
          frame.pending = null;
        } else frame.index++;
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

/** The index just after the container that opens at `start`, or the text's end when it never closes. */
function skipContainer(text: string, start: number, strings: StringSkipper): number {
  const n = text.length;
  let depth = 0;
  let i = start;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = strings.end(i) + 1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i + 1;
    i++;
  }
  return n;
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
