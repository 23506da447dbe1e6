/**
 * Readable XML location paths of elements, and the element a libxml2 finding is about. Both run once per finding,
 * so neither may look at all of an element's siblings each time (40,000 findings among 40,000 siblings would cost
 * 1.6 billion steps): each parent's children are counted once, on first need, and remembered.
 */
import type { XmlNode } from './scan.js';

/** Each element's path segment (`component[3]`, or `purl` where no sibling shares the name), by element. */
const segments = new WeakMap<XmlNode, string>();

function segmentOf(node: XmlNode): string {
  let segment = segments.get(node);
  if (segment !== undefined) return segment;
  const parent = node.parent;
  if (parent === undefined) {
    segments.set(node, node.name);
    return node.name;
  }
  const counts = new Map<string, number>();
  for (const child of parent.children) counts.set(child.name, (counts.get(child.name) ?? 0) + 1);
  const seen = new Map<string, number>();
  for (const child of parent.children) {
    const position = (seen.get(child.name) ?? 0) + 1;
    seen.set(child.name, position);
    segments.set(child, counts.get(child.name)! > 1 ? `${child.name}[${position}]` : child.name);
  }
  segment = segments.get(node);
  if (segment === undefined) throw new Error("An XML element is not among its parent's children");
  return segment;
}

/** `/bom/components/component[3]/purl`: a position only where siblings share the name. */
export function xmlPath(place: XmlNode): string {
  const parts: string[] = [];
  for (let node: XmlNode | undefined = place; node !== undefined; node = node.parent) parts.push(segmentOf(node));
  return '/' + parts.reverse().join('/');
}

/**
 * The element at `path` below `root`: its position among its parent's child elements at each level (as
 * src/xml/engine.ts reports a finding's element); undefined when the tree has no such element.
 */
export function elementAt(root: XmlNode, path: readonly number[]): XmlNode | undefined {
  let node: XmlNode | undefined = root;
  for (const position of path) {
    node = node.children[position];
    if (node === undefined) return undefined;
  }
  return node;
}
