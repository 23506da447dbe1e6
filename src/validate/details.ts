/**
 * What a rich report shows beyond the findings, computed only when asked (`validate(…, { details: true })`): each
 * signer's verdict and trust, the version rule's verdict, and the dependency graph with the nodes that have
 * findings. Plain, structured-cloneable data (documents are checked in worker threads), bounded for hostile
 * documents: strings are cut, and lists stop at a limit with the number left out.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { SignerReport } from '../jsf/verify.js';
import { appendPointer } from '../json/pointer.js';
import { checkDepth } from '../json/walk.js';
import { display, isRecord, truncate } from '../values.js';
import type { VersionVerdict } from './version-rule.js';

/** Limits: a 20,000-component document fits; a hostile one costs at most this much. */
export const DETAIL_LIMITS = {
  /** Components, services and missing references drawn as graph nodes. */
  nodes: 50_000,
  /** dependsOn edges. */
  edges: 200_000,
  signatures: 1_000,
  /** Certificates listed per signer. */
  certificates: 10,
  /** Characters of any string taken from the document. */
  text: 200,
  /** (node, finding) pairs. */
  findings: 20_000,
} as const;

export interface SignatureDetail {
  /** Pointer of the signaturecore object (`/signature`, `/components/3/signature/signers/1`). */
  pointer: string;
  /** Pointer of the object it signs (`''` for the whole document). */
  signedPointer: string;
  shape: SignerReport['shape'];
  /** Position among `signers` or in the `chain`. */
  index?: number;
  algorithm?: string;
  keySource: SignerReport['keySource'];
  keyId?: string;
  /** The certificate path's subjects, the signer's certificate first. */
  certificates?: string[];
  verdict: SignerReport['verdict'];
  reason?: string;
  trust: SignerReport['trust'];
  trustReason?: string;
  trustedBy?: 'key' | 'root';
}

/**
 * The dependency graph, column by column (one entry per node in each array): metadata.component, then the
 * components depth-first (nested ones after their parent), then the services, then references that resolve to
 * nothing (kind `missing`).
 */
export interface DependencyGraph {
  ref: string[];
  name: string[];
  version: string[];
  /** The component's type, `service`, or `missing` for an unresolved reference. */
  kind: string[];
  /** The node that nests this one (a component's `components`), or -1. */
  parent: number[];
  /** Where the node is in the document (`''` for missing references). */
  pointer: string[];
  /** dependsOn edges as pairs: from, to, from, to… */
  edges: number[];
  /** 0 no finding, 1 warnings only, 2 an error. */
  severity: number[];
  /** Pairs of (node, index into the result's diagnostics): which findings are about which node. */
  findings: number[];
  /** Nodes, edges and findings left out at the limits. */
  omitted: { nodes: number; edges: number; findings: number };
}

export interface ValidationDetails {
  signatures: SignatureDetail[];
  /** Signers left out at the limit. */
  omittedSignatures: number;
  /** Present when a baseline was given. */
  versionRule?: VersionVerdict;
  graph: DependencyGraph;
}

const cut = (text: string): string => truncate(text, DETAIL_LIMITS.text);

function signatureDetail(report: SignerReport): SignatureDetail {
  const out: SignatureDetail = {
    pointer: cut(report.pointer),
    signedPointer: cut(report.signedPointer),
    shape: report.shape,
    keySource: report.keySource,
    verdict: report.verdict,
    trust: report.trust,
  };
  if (report.index !== undefined) out.index = report.index;
  if (report.algorithm !== undefined) out.algorithm = cut(report.algorithm);
  if (report.keyId !== undefined) out.keyId = cut(report.keyId);
  if (report.certificates !== undefined)
    out.certificates = report.certificates.slice(0, DETAIL_LIMITS.certificates).map(cut);
  if (report.reason !== undefined) out.reason = cut(report.reason);
  if (report.trustReason !== undefined) out.trustReason = cut(report.trustReason);
  if (report.trustedBy !== undefined) out.trustedBy = report.trustedBy;
  return out;
}

const text = (value: unknown): string => (value === undefined ? '' : cut(display(value, DETAIL_LIMITS.text) ?? ''));

/** A graph with no nodes: the start of one being built, or the stand-in for one left out. */
export function emptyGraph(): DependencyGraph {
  return {
    ref: [],
    name: [],
    version: [],
    kind: [],
    parent: [],
    pointer: [],
    edges: [],
    severity: [],
    findings: [],
    omitted: { nodes: 0, edges: 0, findings: 0 },
  };
}

/** The graph of a BOM: its elements as nodes, dependsOn as edges, nesting as parents. */
export function dependencyGraph(
  document: Record<string, unknown>,
  diagnostics: readonly Diagnostic[],
): DependencyGraph {
  const graph = emptyGraph();
  const byPointer = new Map<string, number>();
  // Full (uncut) bom-ref → node, for resolving references; the first definition wins.
  const byRef = new Map<string, number>();
  const add = (record: Record<string, unknown>, pointer: string, kind: string, parent: number): number => {
    if (graph.ref.length >= DETAIL_LIMITS.nodes) {
      graph.omitted.nodes++;
      return -1;
    }
    const index = graph.ref.length;
    const ref = record['bom-ref'];
    graph.ref.push(typeof ref === 'string' ? cut(ref) : '');
    graph.name.push(text(record.name));
    graph.version.push(text(record.version));
    graph.kind.push(kind);
    graph.parent.push(parent);
    graph.pointer.push(pointer);
    graph.severity.push(0);
    byPointer.set(pointer, index);
    if (typeof ref === 'string' && !byRef.has(ref)) byRef.set(ref, index);
    return index;
  };

  const metadata = document.metadata;
  if (isRecord(metadata) && isRecord(metadata.component)) {
    const root = add(metadata.component, '/metadata/component', text(metadata.component.type) || 'component', -1);
    walkElements(metadata.component.components, '/metadata/component/components', 'components', root, add, 3);
  }
  walkElements(document.components, '/components', 'components', -1, add, 1);
  walkElements(document.services, '/services', 'services', -1, add, 1);

  // Edges; a reference to nothing becomes a `missing` node, so it can be drawn and marked.
  const missing = new Map<string, number>();
  const nodeOf = (ref: string): number => {
    const found = byRef.get(ref) ?? missing.get(ref);
    if (found !== undefined) return found;
    const index = add({ 'bom-ref': ref }, '', 'missing', -1);
    if (index !== -1) missing.set(ref, index);
    return index;
  };
  const entries = Array.isArray(document.dependencies) ? document.dependencies : [];
  const entryNodes: number[] = [];
  const seen = new Set<string>();
  entries.forEach((entry: unknown) => {
    if (!isRecord(entry) || typeof entry.ref !== 'string') {
      entryNodes.push(-1);
      return;
    }
    const from = nodeOf(entry.ref);
    entryNodes.push(from);
    if (from === -1 || !Array.isArray(entry.dependsOn)) return;
    for (const target of entry.dependsOn) {
      if (typeof target !== 'string') continue;
      const to = nodeOf(target);
      if (to === -1) continue;
      const key = `${from},${to}`;
      if (seen.has(key)) continue;
      if (graph.edges.length / 2 >= DETAIL_LIMITS.edges) {
        graph.omitted.edges++;
        continue;
      }
      seen.add(key);
      graph.edges.push(from, to);
    }
  });

  // Findings to nodes: the element at or above the finding's pointer; a dependency entry's finding to its ref,
  // or to the missing node it names.
  diagnostics.forEach((d, i) => {
    const node = nodeForPointer(d.pointer, byPointer, entries, entryNodes, missing);
    if (node === undefined) return;
    graph.severity[node] = Math.max(graph.severity[node]!, d.severity === 'error' ? 2 : 1);
    if (graph.findings.length / 2 >= DETAIL_LIMITS.findings) graph.omitted.findings++;
    else graph.findings.push(node, i);
  });
  return graph;
}

type Add = (record: Record<string, unknown>, pointer: string, kind: string, parent: number) => number;

/** Elements of `items` and, recursively, those nested under the same member, depth-first in document order. */
function walkElements(
  items: unknown,
  pointer: string,
  member: 'components' | 'services',
  parent: number,
  add: Add,
  depth: number,
): void {
  if (!Array.isArray(items)) return;
  checkDepth(depth);
  items.forEach((item: unknown, i) => {
    if (!isRecord(item)) return;
    const at = appendPointer(pointer, i);
    const kind = member === 'services' ? 'service' : text(item.type) || 'component';
    const node = add(item, at, kind, parent);
    if (node !== -1) walkElements(item[member], appendPointer(at, member), member, node, add, depth + 2);
  });
}

function nodeForPointer(
  pointer: string,
  byPointer: ReadonlyMap<string, number>,
  entries: readonly unknown[],
  entryNodes: readonly number[],
  missing: ReadonlyMap<string, number>,
): number | undefined {
  const dependency = /^\/dependencies\/(\d+)(?:\/dependsOn\/(\d+))?/.exec(pointer);
  if (dependency !== null) {
    const entry = entries[Number(dependency[1])];
    if (dependency[2] !== undefined && isRecord(entry) && Array.isArray(entry.dependsOn)) {
      const target: unknown = entry.dependsOn[Number(dependency[2])];
      if (typeof target === 'string') {
        const node = missing.get(target);
        if (node !== undefined) return node;
      }
    }
    const node = entryNodes[Number(dependency[1])];
    return node === undefined || node === -1 ? undefined : node;
  }
  for (let at = pointer.length; at > 0; at = pointer.lastIndexOf('/', at - 1)) {
    const node = byPointer.get(pointer.slice(0, at));
    if (node !== undefined) return node;
  }
  return undefined;
}

/** The details of a validated document (its diagnostics final: findings refer to them by index). */
export function validationDetails(
  document: Record<string, unknown> | undefined,
  diagnostics: readonly Diagnostic[],
  signatures: readonly SignerReport[],
  versionRule: VersionVerdict | undefined,
): ValidationDetails {
  return {
    signatures: signatures.slice(0, DETAIL_LIMITS.signatures).map(signatureDetail),
    omittedSignatures: Math.max(0, signatures.length - DETAIL_LIMITS.signatures),
    ...(versionRule === undefined ? {} : { versionRule }),
    graph: document === undefined ? emptyGraph() : dependencyGraph(document, diagnostics),
  };
}
