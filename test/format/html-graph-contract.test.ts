/**
 * The embedded graph's contract, on graphs made by hand so that every index is known: where the depth-first walk
 * starts, that it visits each node once, how nesting, edges, marks and findings are renumbered, how bom-refs are
 * shortened to a purl prefix, where a graph stops being drawn whole, and which nodes a clustered graph pins.
 */
import { describe, expect, it } from 'vitest';
import { depthFirstOrder, embedGraph, FLAT_LIMIT } from '../../src/format/html-graph.js';
import { emptyGraph, type DependencyGraph } from '../../src/validate/details.js';

interface NodeSpec {
  ref?: string;
  name?: string;
  version?: string;
  kind?: string;
  parent?: number;
  pointer?: string;
  severity?: number;
}

function graphOf(nodes: readonly NodeSpec[], edges: number[] = [], findings: number[] = []): DependencyGraph {
  const graph = emptyGraph();
  nodes.forEach((node, i) => {
    graph.ref.push(node.ref ?? `n${i}`);
    graph.name.push(node.name ?? '');
    graph.version.push(node.version ?? '');
    graph.kind.push(node.kind ?? 'library');
    graph.parent.push(node.parent ?? -1);
    graph.pointer.push(node.pointer ?? `/components/${i}`);
    graph.severity.push(node.severity ?? 0);
  });
  graph.edges = edges;
  graph.findings = findings;
  return graph;
}

const bare = (n: number, over: (i: number) => NodeSpec = () => ({})) => Array.from({ length: n }, (_, i) => over(i));

describe('the depth-first order', () => {
  it('starts at the root component wherever it is, then at nodes nothing depends on or nests, then at cycles', () => {
    // 0 c nested in 3 p; 2 x depends on 1 y; 4 is the root, depending on 7 q; 5 and 6 depend on each other.
    const graph = graphOf(
      [
        { ref: 'c', parent: 3 },
        { ref: 'y' },
        { ref: 'x' },
        { ref: 'p' },
        { ref: 'app', pointer: '/metadata/component', kind: 'application' },
        { ref: 'cyc1' },
        { ref: 'cyc2' },
        { ref: 'q' },
      ],
      [2, 1, 4, 7, 5, 6, 6, 5],
    );
    const parents: number[] = [];
    expect(depthFirstOrder(graph, parents)).toEqual([4, 7, 2, 1, 3, 0, 5, 6]);
    expect(parents).toEqual([3, 2, -1, -1, -1, -1, 5, 4]);
    const embedded = embedGraph(graph);
    expect(embedded.r).toEqual(['app', 'q', 'x', 'y', 'p', 'c', 'cyc1', 'cyc2']);
    expect(embedded.tp).toEqual([0, 1, 0, 1, 0, 1, 0, 1]);
    // Nesting pairs (child, parent) and edges, renumbered to positions in that order.
    expect(embedded.p).toEqual([5, 4]);
    expect(embedded.e).toEqual([2, 3, 0, 1, 6, 7, 7, 6]);
    // Kinds numbered in the order first seen.
    expect(embedded.t).toEqual(['application', 'library']);
    expect(embedded.k).toEqual([0, 1, 1, 1, 1, 1, 1, 1]);
  });

  it('visits a node reached twice only once', () => {
    // A diamond: 0 → 1, 0 → 2, 1 → 2, and 2 back to 0.
    const graph = graphOf(bare(3), [0, 1, 0, 2, 1, 2, 2, 0]);
    const parents: number[] = [];
    expect(depthFirstOrder(graph, parents)).toEqual([0, 1, 2]);
    expect(parents).toEqual([-1, 0, 1]);
    expect(embedGraph(graph).tp).toEqual([0, 1, 1]);
  });
});

describe('the embedded graph', () => {
  it('renumbers nesting under the first node, marks and findings to positions, and copies what was left out', () => {
    // 0 nests 1; 2 depends on 0, so 2 comes first.
    const graph = graphOf(
      [{ severity: 2 }, { parent: 0 }, { severity: 1, kind: 'service' }],
      [2, 0],
      [0, 4, 2, 1, 0, 0],
    );
    graph.omitted = { nodes: 3, edges: 9, findings: 2 };
    expect(embedGraph(graph)).toEqual({
      n: 3,
      b: 32,
      flat: true,
      r: ['n2', 'n0', 'n1'],
      rp: [],
      a: ['', '', ''],
      v: ['', '', ''],
      k: [0, 1, 1],
      t: ['service', 'library'],
      p: [2, 1],
      tp: [0, 1, 1],
      e: [0, 1],
      s: [0, 1, 1, 2],
      f: [1, 4, 0, 1, 1, 0],
      pin: [],
      o: { nodes: 3, edges: 9 },
    });
  });

  it('spells a bom-ref that is a prefix plus name@version as the prefix’s number, and keeps any other', () => {
    const graph = graphOf([
      { ref: 'pkg:npm/a@1', name: 'a', version: '1' },
      { ref: 'pkg:pypi/b@2', name: 'b', version: '2' },
      { ref: 'pkg:npm/c@3', name: 'c', version: '3' },
      // The whole ref is name@version: nothing to shorten.
      { ref: 'd@4', name: 'd', version: '4' },
      // No version, no name, or a ref that does not end with name@version.
      { ref: 'pkg:npm/e@', name: 'e', version: '' },
      { ref: 'x@5', name: '', version: '5' },
      { ref: 'pkg:npm/f@6', name: 'f', version: '7' },
    ]);
    const embedded = embedGraph(graph);
    expect(embedded.r).toEqual([0, 1, 0, 'd@4', 'pkg:npm/e@', 'x@5', 'pkg:npm/f@6']);
    expect(embedded.rp).toEqual(['pkg:npm/', 'pkg:pypi/']);
    expect(embedded.a).toEqual(['a', 'b', 'c', 'd', 'e', '', 'f']);
    expect(embedded.v).toEqual(['1', '2', '3', '4', '', '5', '7']);
  });

  it('draws graphs of up to 150 nodes whole, and clusters from 151', () => {
    expect(FLAT_LIMIT).toBe(150);
    const at = embedGraph(graphOf(bare(150, (i) => ({ severity: i === 3 ? 2 : 0 }))));
    expect(at).toMatchObject({ n: 150, flat: true, pin: [] });
    const over = embedGraph(graphOf(bare(151, (i) => ({ severity: i === 3 ? 2 : 0 }))));
    expect(over).toMatchObject({ n: 151, flat: false, pin: [3] });
  });

  it('pins errors before warnings, at most 60 offenders, each with up to 6 neighbours by edge or nesting', () => {
    // Node 0 depends on 1…8 (so positions are indices); 181 is nested in 180 and 183 in 182. Warnings on 20…89
    // come before the errors 0, 181 and 182 in document order, errors first all the same.
    const severity = (i: number) => (i === 0 || i === 181 || i === 182 ? 2 : i >= 20 && i < 90 ? 1 : 0);
    const nodes = bare(200, (i) => ({
      severity: severity(i),
      ...(i === 181 ? { parent: 180 } : i === 183 ? { parent: 182 } : {}),
    }));
    const edges = [1, 2, 3, 4, 5, 6, 7, 8].flatMap((to) => [0, to]);
    const embedded = embedGraph(graphOf(nodes, edges));
    expect(embedded.r).toEqual(Array.from({ length: 200 }, (_, i) => `n${i}`));
    expect(embedded.flat).toBe(false);
    // 3 errors, then the first 57 of 70 warnings; 0's first 6 dependencies; 181's parent and 182's child.
    const warnings = Array.from({ length: 57 }, (_, i) => 20 + i);
    expect(embedded.pin).toEqual([0, 1, 2, 3, 4, 5, 6, ...warnings, 180, 181, 182, 183]);
    // Pinned or not, every mark is listed.
    expect(embedded.s.length).toBe(2 * 73);
  });

  it('pins the first warnings in document order when there are more than 60', () => {
    const nodes = bare(200, (i) => ({ severity: i >= 100 && i < 170 ? 1 : i === 10 ? 2 : 0 }));
    const embedded = embedGraph(graphOf(nodes));
    expect(embedded.pin).toEqual([10, ...Array.from({ length: 59 }, (_, i) => 100 + i)]);
  });

  it('pins a neighbour that depends on the offender as well as one it depends on', () => {
    const nodes = bare(160, (i) => ({ severity: i === 5 ? 1 : 0 }));
    // 4 → 5 → 6: positions stay indices (4 is a root, 5 and 6 follow it).
    const embedded = embedGraph(graphOf(nodes, [4, 5, 5, 6]));
    expect(embedded.pin).toEqual([4, 5, 6]);
  });
});
