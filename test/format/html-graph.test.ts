/** The graph as the page gets it: depth-first order (subtrees are runs), pinned offenders, compact at scale. */
import { describe, expect, it } from 'vitest';
import { BRANCHING, depthFirstOrder, embedGraph, FLAT_LIMIT } from '../../src/format/html-graph.js';
import { jsonForScript } from '../../src/format/html.js';
import { dependencyGraph } from '../../src/validate/details.js';
import type { Diagnostic } from '../../src/index.js';
import { loadGenerateBom } from '../author/fixtures.js';

const library = (ref: string, extra: Record<string, unknown> = {}) => ({
  type: 'library',
  'bom-ref': ref,
  name: ref,
  ...extra,
});
const error = (pointer: string): Diagnostic => ({ ruleId: 'schema/type', severity: 'error', message: 'x', pointer });

describe('the embedded graph', () => {
  it('orders nodes depth-first from the root, so each subtree is one run', () => {
    const document = {
      metadata: { component: library('app') },
      components: [library('c'), library('a'), library('b', { components: [library('b1')] }), library('lone')],
      dependencies: [
        { ref: 'app', dependsOn: ['a', 'b'] },
        { ref: 'a', dependsOn: ['c'] },
        { ref: 'x', dependsOn: ['y'] },
      ],
    };
    const graph = dependencyGraph(document, []);
    const parents: number[] = [];
    const refs = depthFirstOrder(graph, parents).map((i) => graph.ref[i]);
    // app's subtree (a, c, then b with its nested b1), then the roots nothing depends on, in document order.
    expect(refs).toEqual(['app', 'a', 'c', 'b', 'b1', 'lone', 'x', 'y']);
    const parentOf = (ref: string) => graph.ref[parents[graph.ref.indexOf(ref)]!] ?? null;
    expect(['app', 'a', 'c', 'b', 'b1', 'lone', 'x', 'y'].map(parentOf)).toEqual([
      null,
      'app',
      'a',
      'app',
      'b',
      null,
      null,
      'x',
    ]);
    // Embedded in that order, each subtree is the run after its root: a node's tree parent comes before it.
    const embedded = embedGraph(graph);
    expect(embedded.r).toEqual(refs);
    // As distances back to the parent, 0 for a root.
    expect(embedded.tp).toEqual([0, 1, 1, 3, 1, 0, 0, 1]);
  });

  it('visits cycles and long chains without recursion', () => {
    const n = 30_000;
    const components = Array.from({ length: n }, (_, i) => library(`c${i}`));
    const dependencies = components.map((_, i) => ({ ref: `c${i}`, dependsOn: [`c${(i + 1) % n}`] }));
    const graph = dependencyGraph({ components, dependencies }, []);
    const order = depthFirstOrder(graph);
    expect(order).toHaveLength(n);
    expect(new Set(order).size).toBe(n);
  });

  it('draws small graphs whole and clusters large ones, pinning offenders and their neighbours', () => {
    const small = embedGraph(dependencyGraph({ components: [library('a'), library('b')] }, []));
    expect(small).toMatchObject({ n: 2, flat: true, pin: [] });

    const n = FLAT_LIMIT + 50;
    const components = Array.from({ length: n }, (_, i) => library(`c${i}`));
    const dependencies = components.slice(0, -1).map((_, i) => ({ ref: `c${i}`, dependsOn: [`c${i + 1}`] }));
    const graph = embedGraph(dependencyGraph({ components, dependencies }, [error('/components/100/name')]));
    expect(graph).toMatchObject({ n, flat: false, b: BRANCHING, s: [100, 2] });
    expect(graph.pin).toEqual([99, 100, 101]);
    expect(graph.f).toEqual([100, 0]);
  });

  it('keeps a 20,000-component document compact', async () => {
    const generateBom = await loadGenerateBom();
    const document = generateBom(20_000);
    const graph = embedGraph(dependencyGraph(document, [error('/components/19990/hashes/0/alg')]));
    const size = jsonForScript(graph).length;
    expect(graph.n).toBe(20_001);
    expect(graph.e).toHaveLength(2 * 19_999);
    // Under 50 bytes a node: its name and version, kind, tree parent and edge.
    expect(size / graph.n).toBeLessThan(50);
    expect(graph.pin).toContain(1 + 19_990);
    // Purls spelled as a prefix and the node's name@version.
    expect(graph.rp).toEqual(['pkg:npm/']);
    expect(graph.r.slice(0, 3)).toEqual(['root-app', 0, 0]);
    expect(`${graph.rp[0]}${graph.a[1]}@${graph.v[1]}`).toBe(
      (document.components as Record<string, unknown>[])[0]!['bom-ref'],
    );
  });
});
