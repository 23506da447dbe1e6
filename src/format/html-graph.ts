/**
 * The dependency graph as the html report embeds it: compact columns, the nodes in the preorder of a depth-first
 * spanning tree of the dependencies (nesting included), with each node's parent in that tree. In that order every
 * subtree is one run of nodes, so the page clusters a large graph by subtree with nothing more embedded: a
 * collapsed node's descendants are one cluster, and a node with more than 32 children shows them in runs of 32
 * (of 32 × 32, …), each a cluster too. Offending nodes and their neighbours are pinned: drawn on their own even
 * while their clusters are collapsed.
 */
import type { DependencyGraph } from '../validate/details.js';

/** Graphs of up to this many nodes are drawn whole, without clusters. */
export const FLAT_LIMIT = 150;
/** Items per cluster level: a collapsed level shows at most this many. */
export const BRANCHING = 32;
/** Offending nodes pinned outside their clusters, and neighbours pinned per offending node. */
const PINNED_OFFENDERS = 60;
const PINNED_NEIGHBOURS = 6;

/** What the page reads (short member names: a 20,000-component graph is embedded as it is). */
export interface EmbeddedGraph {
  /** Node count. */
  n: number;
  /** Cluster branching factor. */
  b: number;
  /** Drawn whole (no clusters). */
  flat: boolean;
  /**
   * bom-ref, name, version per node. A bom-ref that is a prefix + name@version (a purl, typically) is the prefix's
   * index in `rp` instead: a third of a large graph's bytes.
   */
  r: (string | number)[];
  rp: string[];
  a: string[];
  v: string[];
  /** Kind per node, as an index into `t`. */
  k: number[];
  t: string[];
  /** Nesting as pairs: child, parent… */
  p: number[];
  /**
   * Each node's parent in the spanning tree as the distance back to it (0 for a root): its subtree is the run of
   * nodes after it. Distances are short numbers.
   */
  tp: number[];
  /** dependsOn edges as pairs: from, to… */
  e: number[];
  /** Marked nodes as pairs: node, severity (1 warning, 2 error)… */
  s: number[];
  /** Findings as pairs: node, diagnostic index… */
  f: number[];
  /** Nodes drawn even inside a collapsed cluster: the offending ones and their neighbours. */
  pin: number[];
  /** Nodes and edges the document had beyond the limits, not in the graph. */
  o: { nodes: number; edges: number };
}

/**
 * The depth-first order: from the root component, then from nodes nothing depends on, then whatever is left (cycles),
 * each in document order; a node's nested elements come before what it depends on. `parent` receives each node's
 * parent in the spanning tree this walk makes (-1 for the nodes it starts from).
 */
export function depthFirstOrder(graph: DependencyGraph, parent: number[] = []): number[] {
  const n = graph.ref.length;
  const children: number[][] = Array.from({ length: n }, () => []);
  const hasParent = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const parent = graph.parent[i]!;
    if (parent >= 0) {
      children[parent]!.push(i);
      hasParent[i] = 1;
    }
  }
  const incoming = new Uint8Array(n);
  for (let i = 0; i < graph.edges.length; i += 2) {
    children[graph.edges[i]!]!.push(graph.edges[i + 1]!);
    incoming[graph.edges[i + 1]!] = 1;
  }
  const order: number[] = [];
  const visited = new Uint8Array(n);
  parent.length = n;
  const visit = (start: number) => {
    if (visited[start]) return;
    // Iterative: a dependency chain can be 20,000 long. Pairs of (node, the node that reached it).
    const stack = [start, -1];
    while (stack.length > 0) {
      const from = stack.pop()!;
      const node = stack.pop()!;
      if (visited[node]) continue;
      visited[node] = 1;
      order.push(node);
      parent[node] = from;
      const next = children[node]!;
      for (let j = next.length - 1; j >= 0; j--) if (!visited[next[j]!]) stack.push(next[j]!, node);
    }
  };
  const rootIndex = graph.pointer.indexOf('/metadata/component');
  if (rootIndex !== -1) visit(rootIndex);
  for (let i = 0; i < n; i++) if (!incoming[i] && !hasParent[i]) visit(i);
  for (let i = 0; i < n; i++) visit(i);
  return order;
}

/** Numbers each distinct string in first-seen order, so repeated kinds and purl prefixes are sent once. */
function interner(): { values: string[]; index(value: string): number } {
  const values: string[] = [];
  const indexOf = new Map<string, number>();
  return {
    values,
    index(value) {
      let index = indexOf.get(value);
      if (index === undefined) indexOf.set(value, (index = values.push(value) - 1));
      return index;
    },
  };
}

/** The graph in the page's form. */
export function embedGraph(graph: DependencyGraph): EmbeddedGraph {
  const n = graph.ref.length;
  const treeParent: number[] = [];
  const order = depthFirstOrder(graph, treeParent);
  const position = new Int32Array(n);
  order.forEach((node, i) => (position[node] = i));
  const kinds = interner();
  const k = order.map((node) => kinds.index(graph.kind[node]!));
  const p: number[] = [];
  order.forEach((node, i) => {
    const parent = graph.parent[node]!;
    if (parent >= 0) p.push(i, position[parent]!);
  });
  const e = graph.edges.map((node) => position[node]!);
  const s: number[] = [];
  order.forEach((node, i) => {
    if (graph.severity[node]! > 0) s.push(i, graph.severity[node]!);
  });
  const f: number[] = [];
  for (let i = 0; i < graph.findings.length; i += 2) f.push(position[graph.findings[i]!]!, graph.findings[i + 1]!);
  const flat = n <= FLAT_LIMIT;
  const prefixes = interner();
  const r = order.map((node) => {
    const ref = graph.ref[node]!;
    const tail = graph.name[node] === '' ? '' : `${graph.name[node]!}@${graph.version[node]!}`;
    if (tail === '' || graph.version[node] === '' || ref.length <= tail.length || !ref.endsWith(tail)) return ref;
    return prefixes.index(ref.slice(0, -tail.length));
  });
  return {
    n,
    b: BRANCHING,
    flat,
    r,
    rp: prefixes.values,
    a: order.map((node) => graph.name[node]!),
    v: order.map((node) => graph.version[node]!),
    k,
    t: kinds.values,
    p,
    tp: order.map((node, i) => (treeParent[node]! < 0 ? 0 : i - position[treeParent[node]!]!)),
    e,
    s,
    f,
    pin: flat ? [] : pinned(n, s, p, e),
    o: { nodes: graph.omitted.nodes, edges: graph.omitted.edges },
  };
}

/** Offending nodes (errors first, then in order) and a few neighbours of each: what a collapsed graph still shows. */
function pinned(n: number, marks: readonly number[], parents: readonly number[], edges: readonly number[]): number[] {
  const offenders: { node: number; severity: number }[] = [];
  for (let i = 0; i < marks.length; i += 2) offenders.push({ node: marks[i]!, severity: marks[i + 1]! });
  offenders.sort((x, y) => y.severity - x.severity || x.node - y.node);
  const chosen = offenders.slice(0, PINNED_OFFENDERS).map((o) => o.node);
  const wanted = new Set(chosen);
  const neighbours = new Map<number, number[]>();
  const link = (a: number, b: number) => {
    if (!wanted.has(a)) return;
    let list = neighbours.get(a);
    if (list === undefined) neighbours.set(a, (list = []));
    if (list.length < PINNED_NEIGHBOURS) list.push(b);
  };
  for (let i = 0; i < edges.length; i += 2) {
    link(edges[i]!, edges[i + 1]!);
    link(edges[i + 1]!, edges[i]!);
  }
  for (let i = 0; i < parents.length; i += 2) {
    link(parents[i]!, parents[i + 1]!);
    link(parents[i + 1]!, parents[i]!);
  }
  const out = new Set<number>();
  for (const node of chosen) {
    out.add(node);
    for (const other of neighbours.get(node) ?? []) if (other < n) out.add(other);
  }
  return [...out].sort((a, b) => a - b);
}
