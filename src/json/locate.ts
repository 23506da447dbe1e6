import { parsePointer } from './pointer.js';
import { StringSkipper } from './strings.js';

export interface Position {
  line: number;
  column: number;
}

interface TrieNode {
  /** Made on a node's first child only: most nodes are leaves (40,000 findings, 40,000 leaves). */
  children: Map<string, TrieNode> | undefined;
  /** The children whose segment is an array index (`0`, `17`, never `01`), by number, for array items. */
  items: Map<number, TrieNode> | undefined;
  /** The highest such index, -1 when there is none: an array's later items hold nothing requested. */
  lastItem: number;
  parent: TrieNode | null;
  pointer?: string;
  /** Requested pointers at or below this node not found yet: at 0, the rest of its container is skipped. */
  unfound: number;
}

const ARRAY_INDEX = /^(?:0|[1-9]\d{0,14})$/;

interface LocateOptions {
  /**
   * The caller knows no object of the text repeats a member name (the parser found no duplicate): a member of the
   * root can then be found from the end of the text (see {@link findTailMembers}), which a duplicate would make
   * the wrong one of two.
   */
  uniqueMemberNames?: boolean;
}

function trieNode(parent: TrieNode | null): TrieNode {
  return { children: undefined, items: undefined, lastItem: -1, parent, unfound: 0 };
}

/**
 * Source offsets of the given pointers in well-formed JSON text, in one linear pass. Only containers on the way
 * to a pointer not found yet are walked token by token; the rest (most of a large document when a few places
 * are asked for) is jumped over with indexOf (see {@link BracketJumper}), and the pass ends once every pointer
 * is found. Object members map to the offset of their name (where editors put the cursor); array items and the
 * root to the value.
 */
export function locatePointers(
  text: string,
  pointers: Iterable<string>,
  options: LocateOptions = {},
): Map<string, number> {
  const found = new Map<string, number>();
  const root = trieNode(null);
  let wanted = 0;
  for (const pointer of new Set(pointers)) {
    let node = root;
    for (const segment of parsePointer(pointer)) {
      let child = node.children?.get(segment);
      if (child === undefined) {
        child = trieNode(node);
        (node.children ??= new Map()).set(segment, child);
        if (ARRAY_INDEX.test(segment)) {
          const index = Number(segment);
          (node.items ??= new Map()).set(index, child);
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
  // Root members requested for themselves only (nothing inside them): those findTailMembers may find.
  let tailLeft = 0;
  for (const child of root.children?.values() ?? []) if (isTailCandidate(child)) tailLeft++;

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
  // Tried once, when only members of the root are left to find and the scan is about to jump over a container.
  let tailTried = options.uniqueMemberNames !== true;

  const record = (node: TrieNode | null, offset: number) => {
    if (node?.pointer === undefined || found.has(node.pointer)) return;
    found.set(node.pointer, offset);
    for (let up: TrieNode | null = node; up !== null; up = up.parent) up.unfound--;
    if (node.parent === root && isTailCandidate(node)) tailLeft--;
  };
  // Whether the tail is worth trying here: only root members left, each requested for itself.
  const tailNow = (): boolean => {
    if (tailTried || tailLeft === 0 || tailLeft !== root.unfound) return false;
    tailTried = true;
    return true;
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
    const node = frame.node.items?.get(frame.index) ?? null;
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
      if (tailNow() && findTailMembers(text, i, root, record) && found.size === wanted) break;
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
        top.pending =
          top.node.children === undefined ? null : (top.node.children.get(strings.value(start, end)) ?? null);
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
          if (tailNow() && findTailMembers(text, i, root, record) && found.size === wanted) break;
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

/** A node requested for itself, with nothing requested inside it. */
function isTailCandidate(node: TrieNode): boolean {
  return node.pointer !== undefined && node.children === undefined;
}

/** Tries for the last occurrence of each member name before giving up on it. */
const TAIL_TRIES = 8;

/**
 * When every pointer left is a member of the root object requested for itself (`/dependencies` after a large `/components`), finds
 * them from the end of the text instead of jumping over what lies between: the last occurrence of the member's
 * name (as JSON.stringify writes it; other spellings are left to the forward scan) is a member of the root when
 * what follows it reads as the rest of an object that closes at the text's end. Tried only where that tail is
 * shorter than the stretch the forward scan would jump over (from `from`), so it never costs more than it
 * saves. Records what it finds; whether it found any.
 */
function findTailMembers(
  text: string,
  from: number,
  root: TrieNode,
  record: (node: TrieNode, offset: number) => void,
): boolean {
  const n = text.length;
  let recorded = false;
  for (const [name, child] of root.children ?? []) {
    if (child.unfound === 0 || !isTailCandidate(child)) continue;
    const needle = JSON.stringify(name);
    let tries = 0;
    for (let at = text.lastIndexOf(needle); at > from && tries < TAIL_TRIES; at = text.lastIndexOf(needle, at - 1)) {
      if (n - at >= at - from) break; // earlier occurrences only have longer tails
      tries++;
      const members = rootMembersFrom(text, at);
      if (members === undefined) continue;
      for (const [key, offset] of members) {
        const node = root.children?.get(key);
        if (node !== undefined && node.unfound === 1 && isTailCandidate(node)) {
          record(node, offset);
          recorded = true;
        }
      }
      break;
    }
  }
  return recorded;
}

/**
 * The member names (with their offsets) from the member name at `at` to the end of the text, when they are the
 * last members of the root object: the object they are in closes at the text's last non-space character. Assumes
 * well-formed JSON text; anything else answers undefined.
 */
function rootMembersFrom(text: string, at: number): [string, number][] | undefined {
  const n = text.length;
  if (isEscaped(text, at)) return undefined; // inside a string
  const strings = new StringSkipper(text, at);
  const jumper = new BracketJumper(text, strings);
  const members: [string, number][] = [];
  let i = at;
  for (;;) {
    // A member: name, colon, value.
    if (text.charCodeAt(i) !== 0x22) return undefined;
    const end = strings.end(i);
    if (end >= n) return undefined;
    members.push([strings.value(i, end), i]);
    i = skipSpace(text, end + 1);
    if (text.charCodeAt(i) !== 0x3a) return undefined;
    i = skipSpace(text, i + 1);
    const c = text.charCodeAt(i);
    if (c === 0x22) i = strings.end(i) + 1;
    else if (c === 0x7b || c === 0x5b) i = jumper.closing(i + 1, c === 0x7b);
    else while (i < n && !isDelimiter(text.charCodeAt(i))) i++;
    i = skipSpace(text, i);
    const next = text.charCodeAt(i);
    if (next === 0x2c) i = skipSpace(text, i + 1);
    else if (next === 0x7d) return skipSpace(text, i + 1) === n ? members : undefined;
    else return undefined;
  }
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && text.charCodeAt(i) <= 0x20) i++;
  return i;
}

function isEscaped(text: string, quote: number): boolean {
  let backslashes = 0;
  for (let k = quote - 1; k >= 0 && text.charCodeAt(k) === 0x5c; k--) backslashes++;
  return backslashes % 2 === 1;
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
export class BracketJumper {
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

export function isDelimiter(c: number): boolean {
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
