/**
 * One self-contained html page: a summary, each document's findings, signatures, version-rule verdict and
 * dependency graph. No network at all (a strict Content-Security-Policy: nothing but the page's own style and
 * script, by hash), so it works as a CI artifact opened offline. The summary and the findings are plain html
 * tables (they need no script); the script adds the filters and draws the graphs. Document text is escaped for
 * html where the page is written, for a script element where data is embedded, and set with textContent by the
 * script. The same reports give the same bytes: nothing depends on the time or the machine.
 */
import { createHash } from 'node:crypto';
import { findingCount, type Diagnostic } from '../diagnostics/diagnostic.js';
import { RULES, type RuleId } from '../diagnostics/rules.js';
import { emptyGraph, type DependencyGraph, type SignatureDetail, type ValidationDetails } from '../validate/details.js';
import type { ChangeCount, VersionVerdict } from '../validate/version-rule.js';
import { embedGraph } from './html-graph.js';
import { documentVerdicts, profileSummaries, shortDigest } from './profiles.js';
import { SCRIPT, STYLE } from './html-page.js';
import {
  displayPointer,
  plural,
  totals,
  visibleDiagnostics,
  warningLimitReason,
  type FileReport,
  type ReportOptions,
} from './report.js';

/**
 * Graph nodes embedded in one report, all documents together: documents with findings first, then in report
 * order, until one does not fit. A 20,000-component document fits; 2,000 documents of 500 components do not all.
 */
export const GRAPH_BUDGET = 100_000;

/** A graph a {@link GraphBudget} dropped: no nodes kept, its size counted as left out. */
const isDropped = (graph: DependencyGraph) => graph.ref.length === 0 && graph.omitted.nodes > 0;

/**
 * Drops, as results arrive, the graphs that the report could not embed anyway, so that holding every result of
 * a large run costs about the budget, not every document's graph. Safe in any arrival order: a graph is dropped
 * only when graphs that come before it in the report's order (findings first, then by path) already fill the
 * budget without it, and the report embeds exactly what it would have. Reports must be formatted in path order,
 * as validateFiles returns them.
 */
export class GraphBudget {
  /** Kept graphs as a max-heap on the report's order: the one to drop first is on top. */
  private readonly heap: { key: [number, string]; nodes: number; report: FileReport }[] = [];
  private total = 0;

  add(report: FileReport): void {
    const graph = report.result?.details?.graph;
    if (graph === undefined || graph.ref.length === 0) return;
    const entry = {
      key: [report.result!.diagnostics.length > 0 ? 0 : 1, report.uri] as [number, string],
      nodes: graph.ref.length,
      report,
    };
    this.push(entry);
    this.total += entry.nodes;
    while (this.total > GRAPH_BUDGET) {
      const last = this.pop()!;
      this.total -= last.nodes;
      const details = last.report.result!.details!;
      details.graph = {
        ...emptyGraph(),
        omitted: { nodes: last.nodes, edges: details.graph.edges.length / 2, findings: 0 },
      };
    }
  }

  private static after(a: { key: [number, string] }, b: { key: [number, string] }): boolean {
    return a.key[0] !== b.key[0] ? a.key[0] > b.key[0] : a.key[1] > b.key[1];
  }

  private push(entry: GraphBudget['heap'][number]): void {
    const heap = this.heap;
    heap.push(entry);
    for (let i = heap.length - 1; i > 0;) {
      const up = (i - 1) >> 1;
      if (!GraphBudget.after(heap[i]!, heap[up]!)) break;
      [heap[i], heap[up]] = [heap[up]!, heap[i]!];
      i = up;
    }
  }

  private pop(): GraphBudget['heap'][number] | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last !== undefined) {
      heap[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && GraphBudget.after(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && GraphBudget.after(heap[r]!, heap[m]!)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    }
    return top;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for html content and attribute values (quoted). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * JSON that can sit inside a script element: `<`, `>` and `&` cannot close it or open a comment, and U+2028/9 are
 * escaped too (JSON allows them raw; older JavaScript parsers did not).
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

let hashes: { style: string; script: string } | undefined;

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The page's policy: nothing may load, only the page's own style and script run. */
export function contentSecurityPolicy(): string {
  hashes ??= { style: sha256(STYLE), script: sha256(SCRIPT) };
  return [
    "default-src 'none'",
    `style-src ${hashes.style}`,
    `script-src ${hashes.script}`,
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

const e = escapeHtml;

function severityCell(severity: string): string {
  return `<td class="sev-${severity}">${severity}</td>`;
}

function findingsTable(report: FileReport, index: number, options: ReportOptions): string {
  const diagnostics = report.result?.diagnostics ?? [];
  const shown = visibleDiagnostics(report, options);
  if (shown.length === 0) return '<p class="muted">No findings.</p>';
  // Findings keep their index in the result, which the graph's data refers to.
  const position = new Map<Diagnostic, number>(diagnostics.map((d, i) => [d, i]));
  const rows = shown.map((d) => {
    const at = d.line === undefined ? '' : `${d.line}:${d.column ?? 1}`;
    return (
      `<tr class="finding" data-severity="${d.severity}" data-rule="${e(d.ruleId)}" data-index="${position.get(d)}">` +
      severityCell(d.severity) +
      `<td><code>${e(d.ruleId)}</code></td><td class="num mono">${at}</td>` +
      `<td><code>${e(displayPointer(d.pointer) || '(document)')}</code></td>` +
      `<td class="message">${e(d.message)}</td><td><code>${d.value === undefined ? '' : e(d.value)}</code></td></tr>`
    );
  });
  return (
    `<table class="findings" aria-label="Findings of document ${index + 1}"><thead><tr><th>Severity</th><th>Rule</th>` +
    `<th class="num">Line:col</th><th>Pointer</th><th>Message</th><th>Value</th></tr></thead><tbody>\n` +
    rows.join('\n') +
    '\n</tbody></table><p class="no-match muted" hidden>No finding matches the filters.</p>'
  );
}

function signerCell(s: SignatureDetail): string {
  const key = `${s.keySource}${s.keyId === undefined ? '' : ` <code>${e(s.keyId)}</code>`}`;
  const chain =
    s.certificates === undefined || s.certificates.length === 0
      ? ''
      : `<ol class="chain">${s.certificates.map((c) => `<li>${e(c)}</li>`).join('')}</ol>`;
  return `<td>${key}${chain}</td>`;
}

function signaturesSection(details: ValidationDetails): string {
  if (details.signatures.length === 0) return '<h3>Signatures</h3><p class="muted">Not signed.</p>';
  const rows = details.signatures.map((s) => {
    const where = `<code>${e(s.signedPointer || '(document)')}</code>`;
    const signer = s.shape === 'single' ? 'single' : `${s.shape} #${(s.index ?? 0) + 1}`;
    const verdict =
      s.verdict === 'valid'
        ? '<span class="good">valid</span>'
        : `<span class="bad">${s.verdict}</span>${s.reason === undefined ? '' : `: ${e(s.reason)}`}`;
    const trust =
      s.verdict !== 'valid'
        ? '<span class="muted">—</span>'
        : s.trust === 'trusted'
          ? `<span class="good">trusted</span> by ${s.trustedBy === 'root' ? 'a trust root' : 'a pinned key'}${s.trustReason === undefined ? '' : ` (${e(s.trustReason)})`}`
          : `<span class="meh">untrusted</span>${s.trustReason === undefined ? '' : `: ${e(s.trustReason)}`}`;
    return `<tr><td>${where}</td><td>${signer}</td><td><code>${e(s.algorithm ?? '?')}</code></td>${signerCell(s)}<td>${verdict}</td><td>${trust}</td></tr>`;
  });
  const omitted =
    details.omittedSignatures > 0
      ? `<p class="muted">${plural(details.omittedSignatures, 'more signer')} not listed.</p>`
      : '';
  return (
    '<h3>Signatures</h3><table><thead><tr><th>Signed object</th><th>Signer</th><th>Algorithm</th><th>Key</th>' +
    `<th>Verdict</th><th>Trust</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>${omitted}`
  );
}

function changeRow(kind: string, c: ChangeCount): string {
  const examples = (['added', 'removed', 'changed'] as const)
    .filter((k) => c.examples[k].length > 0)
    .map(
      (k) =>
        `${k}: ${c.examples[k].map((x) => `<code>${e(x)}</code>`).join(', ')}${c[k] > c.examples[k].length ? ', …' : ''}`,
    )
    .join('<br>');
  return `<tr><td>${kind}</td><td class="num">${c.added}</td><td class="num">${c.removed}</td><td class="num">${c.changed}</td><td>${examples}</td></tr>`;
}

function versionSection(verdict: VersionVerdict | undefined): string {
  if (verdict === undefined) return '';
  const against = verdict.baseline === undefined ? '' : ` against <code>${e(verdict.baseline)}</code>`;
  const outcome =
    verdict.outcome === 'pass'
      ? '<span class="good">holds</span>'
      : verdict.outcome === 'fail'
        ? '<span class="bad">broken</span>'
        : '<span class="muted">not compared</span> (the baseline is not a BOM: a new document)';
  const identity = (label: string, id: VersionVerdict['current'] | undefined) =>
    id === undefined
      ? ''
      : `<tr><th scope="row">${label}</th><td>${e(id.version ?? 'missing')}</td><td><code>${e(id.serialNumber ?? 'missing')}</code></td></tr>`;
  let diff = '';
  if (verdict.diff !== undefined) {
    const d = verdict.diff;
    diff =
      '<table><thead><tr><th>Changed</th><th class="num">added</th><th class="num">removed</th><th class="num">changed</th><th>examples</th></tr></thead><tbody>' +
      changeRow('components', d.components) +
      changeRow('services', d.services) +
      changeRow('dependency entries', d.dependencies) +
      '</tbody></table>' +
      (d.members.length > 0
        ? `<p>Members changed: ${d.members.map((m) => `<code>${e(m)}</code>`).join(', ')}</p>`
        : '');
  }
  return (
    `<h3>Version rule</h3><p>The version rule ${outcome}${against}; the content ${verdict.changed ? 'changed' : 'is unchanged'}.</p>` +
    (verdict.previous === undefined && verdict.outcome === 'not-compared'
      ? ''
      : `<table><thead><tr><th></th><th>version</th><th>serialNumber</th></tr></thead><tbody>${identity('previous', verdict.previous)}${identity('current', verdict.current)}</tbody></table>`) +
    diff
  );
}

/** Which documents' graphs are embedded: those with findings first, then the rest, while the budget lasts. */
function graphsToEmbed(reports: readonly FileReport[]): Set<number> {
  const order = reports
    .map((r, i) => {
      const graph = r.result?.details?.graph;
      return {
        i,
        nodes: graph === undefined ? 0 : isDropped(graph) ? Infinity : graph.ref.length,
        marked: (r.result?.diagnostics.length ?? 0) > 0,
      };
    })
    .filter((x) => x.nodes > 0)
    .sort((a, b) => Number(b.marked) - Number(a.marked) || a.i - b.i);
  const chosen = new Set<number>();
  let left = GRAPH_BUDGET;
  for (const x of order) {
    if (x.nodes > left) break;
    left -= x.nodes;
    chosen.add(x.i);
  }
  return chosen;
}

function graphSection(report: FileReport, index: number, embed: boolean): string {
  const graph = report.result?.details?.graph;
  if (graph === undefined) return '';
  const nodes = graph.ref.length;
  if (!embed && (nodes > 0 || isDropped(graph)))
    return `<h3>Dependency graph</h3><p class="muted">${plural(nodes + graph.omitted.nodes, 'node')}: not drawn here, as this report's graph budget (${GRAPH_BUDGET} nodes) is spent. A report of this document alone draws it.</p>`;
  if (nodes === 0) return '<h3>Dependency graph</h3><p class="muted">No components.</p>';
  const marked = graph.severity.filter((s) => s > 0).length;
  const size = `${plural(nodes, 'node')}, ${graph.edges.length / 2 === 1 ? '1 dependency' : `${graph.edges.length / 2} dependencies`}${marked > 0 ? `, ${marked} marked` : ''}`;
  const title = `Dependency graph: ${size}`;
  const id = `graph-${index + 1}`;
  return (
    `<details class="graph" data-graph="${id}"><summary>${e(title)}</summary><div class="graph-body">` +
    '<p class="muted">Drawing the graph needs JavaScript.</p></div></details>' +
    `<script type="application/json" id="${id}">${jsonForScript(embedGraph(graph))}</script>`
  );
}

function documentSection(report: FileReport, index: number, options: ReportOptions, embed: boolean): string {
  const result = report.result;
  const id = `doc-${index + 1}`;
  const verdict =
    report.failure !== undefined
      ? '<span class="bad">not checked</span>'
      : result?.valid
        ? '<span class="good">valid</span>'
        : '<span class="bad">invalid</span>';
  const parts = [
    `<section class="doc" id="${id}" aria-labelledby="${id}-title">`,
    `<h2 id="${id}-title" tabindex="-1">${verdict} <code>${e(report.uri)}</code></h2>`,
  ];
  if (report.failure !== undefined) {
    parts.push(`<p class="bad">${e(report.failure)}</p></section>`);
    return parts.join('\n');
  }
  parts.push(
    `<p class="muted">${e(result?.formatId ?? 'format unknown')} · ${plural(result?.errors ?? 0, 'error')} · ${plural(result?.warnings ?? 0, 'warning')}</p>`,
    findingsTable(report, index, options),
  );
  const details = result?.details;
  if (details !== undefined) {
    parts.push(signaturesSection(details), versionSection(details.versionRule), graphSection(report, index, embed));
  }
  parts.push('</section>');
  return parts.join('\n');
}

function ruleTable(reports: readonly FileReport[], options: ReportOptions): string {
  const counts = new Map<Diagnostic['ruleId'], { errors: number; warnings: number; documents: number }>();
  for (const report of reports) {
    const seen = new Set<Diagnostic['ruleId']>();
    for (const d of visibleDiagnostics(report, options)) {
      let c = counts.get(d.ruleId);
      if (c === undefined) counts.set(d.ruleId, (c = { errors: 0, warnings: 0, documents: 0 }));
      if (d.severity === 'error') c.errors += findingCount(d);
      else c.warnings += findingCount(d);
      if (!seen.has(d.ruleId)) {
        seen.add(d.ruleId);
        c.documents++;
      }
    }
  }
  const rules = [...counts.entries()].sort(
    ([a, x], [b, y]) => y.errors + y.warnings - (x.errors + x.warnings) || (a < b ? -1 : a > b ? 1 : 0),
  );
  if (rules.length === 0) return '<p class="muted">No findings.</p>';
  return (
    '<table aria-label="Findings by rule"><thead><tr><th>Rule</th><th class="num">Errors</th><th class="num">Warnings</th>' +
    '<th class="num">Documents</th><th>What it means</th></tr></thead><tbody>\n' +
    rules
      .map(
        ([id, c]) =>
          `<tr><td><code>${e(id)}</code></td><td class="num">${c.errors}</td><td class="num">${c.warnings}</td>` +
          `<td class="num">${c.documents}</td><td>${e(ruleDescription(id, reports))}</td></tr>`,
      )
      .join('\n') +
    '\n</tbody></table>'
  );
}

/** A profile requirement's message, a rule's description otherwise. */
function ruleDescription(id: Diagnostic['ruleId'], reports: readonly FileReport[]): string {
  if (Object.hasOwn(RULES, id)) return RULES[id as RuleId].description;
  for (const report of reports)
    for (const profile of report.result?.profiles ?? [])
      for (const r of profile.requirements) if (`profile/${profile.name}/${r.id}` === id) return r.message;
  return '';
}

/**
 * Profiles: a table of documents × profiles (pass or fail, each cell linking to the document), then per profile
 * its version and digest (which rules were applied), and its requirements × pass/fail with the components that
 * fall short (name and pointer, the first few per document, linking to the document).
 */
function profileSection(reports: readonly FileReport[]): string[] {
  const summaries = profileSummaries(reports);
  if (summaries.length === 0) return [];
  const indexOf = new Map(reports.map((r, i) => [r.uri, i + 1]));
  const link = (uri: string, inner: string) => {
    const i = indexOf.get(uri);
    return i === undefined ? inner : `<a href="#doc-${i}" data-to="doc-${i}">${inner}</a>`;
  };
  const parts = [
    '<h2>Profiles</h2>',
    `<table aria-label="Documents and profiles"><thead><tr><th>Document</th>${summaries.map((s) => `<th><code>${e(s.name)}</code></th>`).join('')}</tr></thead><tbody>`,
  ];
  for (const report of reports) {
    const verdicts = new Map(documentVerdicts(report).map((v) => [v.name, v]));
    if (verdicts.size === 0) continue;
    const cells = summaries.map((s) => {
      const v = verdicts.get(s.name);
      if (v === undefined) return '<td></td>';
      return v.passed
        ? '<td><span class="good">pass</span></td>'
        : `<td><span class="bad">fail</span> <span class="muted">${plural(v.unmet.must.length, 'MUST requirement')} unmet</span></td>`;
    });
    parts.push(`<tr><td>${link(report.uri, `<code>${e(report.uri)}</code>`)}</td>${cells.join('')}</tr>`);
  }
  parts.push('</tbody></table>');
  for (const s of summaries) {
    const source =
      s.source === undefined
        ? ''
        : ` · ${s.source.url === undefined ? e(s.source.title) : `<a href="${e(s.source.url)}" rel="noreferrer">${e(s.source.title)}</a>`}`;
    parts.push(
      `<h3><code>${e(s.name)}</code> ${e(s.title)}</h3>`,
      `<p class="muted">${s.unmet} of ${plural(s.requirements, 'requirement')} unmet in ${plural(s.components, 'component')} · ${s.passed} of ${plural(s.documents, 'document')} ${s.passed === 1 ? 'passes' : 'pass'}${source}</p>`,
      `<p class="muted">${s.version === undefined ? '' : `version ${e(s.version)} · `}rules applied: <code title="${e(s.digest)}">${e(shortDigest(s.digest))}</code>${s.superseded === undefined ? '' : ` · <span class="meh">superseded ${e(s.superseded)}</span>`}</p>`,
      `<table aria-label="Requirements of ${e(s.name)}"><thead><tr><th>Requirement</th><th>Level</th><th>Clause</th><th>Verdict</th><th>Falls short</th></tr></thead><tbody>`,
    );
    for (const row of s.rows) {
      const verdict =
        row.unmet === 0
          ? '<span class="good">pass</span>'
          : `<span class="${row.level === 'MUST' ? 'bad' : 'meh'}">fail</span>`;
      const failing = row.failing
        .map(
          (f) =>
            `${link(f.uri, `<code>${e(f.uri)}</code>`)}: ${f.pointers
              .map((p, i) => {
                const subject = f.subjects[i] ?? '';
                return `${subject === '' ? '' : `${e(subject)} `}<code>${e(p === '' ? '/' : p)}</code>`;
              })
              .join(', ')}${f.more > 0 ? ` and ${f.more} more` : ''}`,
        )
        .join('<br>');
      parts.push(
        `<tr><td><code>${e(row.id)}</code><br><span class="muted">${e(row.message)}</span></td><td>${row.level}</td><td>${e(row.clause)}</td><td>${verdict}</td><td>${failing}</td></tr>`,
      );
    }
    parts.push('</tbody></table>');
  }
  return parts;
}

function documentTable(reports: readonly FileReport[]): string {
  const rows = reports.map((r, i) => {
    const verdict =
      r.failure !== undefined
        ? '<span class="bad">not checked</span>'
        : r.result?.valid
          ? '<span class="good">valid</span>'
          : '<span class="bad">invalid</span>';
    const sigs = r.result?.details?.signatures;
    const signatures =
      sigs === undefined || sigs.length === 0
        ? ''
        : `${sigs.filter((s) => s.verdict === 'valid').length}/${sigs.length} valid, ${sigs.filter((s) => s.trust === 'trusted').length} trusted`;
    const rule = r.result?.details?.versionRule?.outcome ?? '';
    return (
      `<tr id="row-doc-${i + 1}"><td><a href="#doc-${i + 1}" data-to="doc-${i + 1}"><code>${e(r.uri)}</code></a></td>` +
      `<td>${e(r.result?.formatId ?? '')}</td><td>${verdict}</td><td class="num">${r.result?.errors ?? 0}</td>` +
      `<td class="num">${r.result?.warnings ?? 0}</td><td>${signatures}</td><td>${rule}</td></tr>`
    );
  });
  return (
    '<table aria-label="Documents"><thead><tr><th>Document</th><th>Format</th><th>Verdict</th><th class="num">Errors</th>' +
    '<th class="num">Warnings</th><th>Signatures</th><th>Version rule</th></tr></thead><tbody>\n' +
    rows.join('\n') +
    '\n</tbody></table>'
  );
}

function filterForm(reports: readonly FileReport[], options: ReportOptions): string {
  const rules = [...new Set(reports.flatMap((r) => visibleDiagnostics(r, options).map((d) => d.ruleId)))].sort();
  return (
    '<form id="filters" hidden aria-label="Filter the findings">' +
    '<fieldset><legend>Severity</legend>' +
    '<label><input type="checkbox" name="severity" value="error" checked> errors</label>' +
    '<label><input type="checkbox" name="severity" value="warning" checked> warnings</label></fieldset>' +
    '<label>Rule <select id="filter-rule"><option value="">all rules</option>' +
    rules.map((id) => `<option value="${e(id)}">${e(id)}</option>`).join('') +
    '</select></label><button type="button" id="filter-reset">Show all</button>' +
    '<span id="filter-status" role="status" aria-live="polite"></span></form>'
  );
}

/** Why the run failed although no document has an error. */
function limitNote(reason: string | undefined): string[] {
  return reason === undefined ? [] : [`<p class="bad" role="alert">Failed: ${e(reason)}</p>`];
}

/** The html report of a validation run (results with `details` get signatures, version rule and graph). */
export function formatHtml(reports: readonly FileReport[], options: ReportOptions): string {
  const t = totals(reports);
  const valid = reports.filter((r) => r.failure === undefined && r.result?.valid === true).length;
  const embed = graphsToEmbed(reports);
  const head = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy()}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<meta name="generator" content="bomwright ${e(options.toolVersion)}">`,
    `<title>bomwright report: ${t.errors === 0 && t.failures === 0 ? 'valid' : `${plural(t.errors, 'error')}`}, ${plural(t.files, 'document')}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
  ];
  const body = [
    '<body>',
    '<header>',
    `<h1>bomwright validation report</h1>`,
    `<p class="muted">bomwright ${e(options.toolVersion)}${options.quiet ? ' · errors only (--quiet)' : ''}</p>`,
    '<ul class="totals">',
    `<li><strong>${t.files}</strong> document${t.files === 1 ? '' : 's'}</li>`,
    `<li><strong class="good">${valid}</strong> valid</li>`,
    `<li><strong class="${t.invalidFiles > 0 ? 'bad' : ''}">${t.invalidFiles}</strong> invalid</li>`,
    ...(t.failures > 0 ? [`<li><strong class="bad">${t.failures}</strong> not checked</li>`] : []),
    `<li><strong class="${t.errors > 0 ? 'bad' : ''}">${t.errors}</strong> error${t.errors === 1 ? '' : 's'}</li>`,
    `<li><strong class="${t.warnings > 0 ? 'meh' : ''}">${t.warnings}</strong> warning${t.warnings === 1 ? '' : 's'}</li>`,
    '</ul>',
    ...limitNote(warningLimitReason(t, options)),
    '</header>',
    '<main>',
    ...profileSection(reports),
    '<h2>Findings by rule</h2>',
    ruleTable(reports, options),
    '<h2>Documents</h2>',
    documentTable(reports),
    filterForm(reports, options),
    ...reports.map((r, i) => documentSection(r, i, options, embed.has(i))),
    '</main>',
    `<script>${SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ];
  return [...head, ...body].join('\n');
}
