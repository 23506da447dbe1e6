/** The html report at the library level: escaping of hostile text, the page's policy, determinism, budgets. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatReports, validate, type FileReport } from '../../src/index.js';
import { GRAPH_BUDGET, GraphBudget, escapeHtml, jsonForScript } from '../../src/format/html.js';
import { validationDetails } from '../../src/validate/details.js';
import type { EmbeddedGraph } from '../../src/format/html-graph.js';
import { minimalBom } from '../helpers.js';

const options = { toolVersion: '0.0.0-test' };
const HOSTILE = '</script><img src=x onerror=alert(1)>--><!--\u2028\u2029&amp;"\'';

async function report(document: unknown, uri = 'boms/bom.json'): Promise<FileReport> {
  return { path: uri, uri, result: await validate(JSON.stringify(document, null, 2), { details: true }) };
}

/** The embedded graphs, parsed back. */
function graphs(page: string): EmbeddedGraph[] {
  return [...page.matchAll(/<script type="application\/json" id="graph-\d+">(.*?)<\/script>/gs)].map(
    (m) => JSON.parse(m[1]!) as EmbeddedGraph,
  );
}

function hostileBom(): Record<string, unknown> {
  return minimalBom('1.6', {
    metadata: { component: { type: 'application', 'bom-ref': `app${HOSTILE}`, name: `app${HOSTILE}`, version: '1' } },
    components: [
      // An unknown member named with markup: the schema's message repeats the name.
      { type: 'library', 'bom-ref': HOSTILE, name: HOSTILE, version: HOSTILE, [`<img onerror=x>${HOSTILE}`]: 1 },
    ],
    dependencies: [{ ref: `app${HOSTILE}`, dependsOn: [HOSTILE, `ghost${HOSTILE}`] }],
  });
}

describe('html report', () => {
  it('escapes document text everywhere: names, bom-refs, messages, values, paths', async () => {
    const page = formatReports('html', [await report(hostileBom(), `boms/${HOSTILE}.json`)], options);
    // Only the page's own elements: one script, one graph data block, no image, no comment.
    expect(page.match(/<script/g)).toHaveLength(2);
    expect(page.match(/<\/script>/g)).toHaveLength(2);
    expect(page).not.toMatch(/<img/i);
    expect(page).not.toContain('-->');
    expect(page).not.toContain('<!--');
    expect(page).toContain('&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;--&gt;&lt;!--');
    // The message of the unknown member, and the path, as text.
    expect(page).toContain('Unknown member &quot;&lt;img onerror=x&gt;&lt;/script&gt;');
    expect(page).toContain('<code>boms/&lt;/script&gt;&lt;img');
    // The data block: no raw <, >, & or line separators, and it reads back exactly.
    const block = /<script type="application\/json" id="graph-1">(.*?)<\/script>/s.exec(page)![1]!;
    expect(block).not.toMatch(/[<>&\u2028\u2029]/);
    const [graph] = graphs(page);
    expect(graph!.r).toContain(HOSTILE);
    expect(graph!.a).toContain(HOSTILE);
    expect(graph!.r).toContain(`ghost${HOSTILE}`);
  });

  it('escapes with the helpers a page needs', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(jsonForScript({ s: '</script>\u2028&' })).toBe('{"s":"\\u003c/script\\u003e\\u2028\\u0026"}');
    expect(JSON.parse(jsonForScript({ s: HOSTILE }))).toEqual({ s: HOSTILE });
  });

  it('allows nothing but its own style and script, by hash', async () => {
    const page = formatReports('html', [await report(hostileBom())], options);
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)![1]!;
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const style = /<style>(.*?)<\/style>/s.exec(page)![1]!;
    const script = /<script>(.*?)<\/script>/s.exec(page)![1]!;
    expect(policy.split('; ')).toEqual([
      "default-src 'none'",
      `style-src ${hash(style)}`,
      `script-src ${hash(script)}`,
      "img-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
    ]);
    // Nothing to load: no address anywhere in the page's markup.
    expect(page).not.toMatch(/\b(?:src|href)="(?!#)/);
    // Inline style attributes and handlers would need 'unsafe-inline'.
    expect(page).not.toMatch(/<[a-z][^>]*\s(?:style|on[a-z]+)=/i);
  });

  it('renders the summary and the findings as tables, without script', async () => {
    const ok = await report(minimalBom('1.6'), 'boms/ok.json');
    const bad = await report(minimalBom('1.6', { version: 0, serialNumber: 'urn:uuid:nope' }), 'boms/bad.json');
    const gone: FileReport = { path: 'boms/gone.json', uri: 'boms/gone.json', failure: 'E_READ: Cannot read it' };
    const page = formatReports('html', [bad, gone, ok], options);
    expect(page).toContain('<li><strong>3</strong> documents</li>');
    expect(page).toContain('<li><strong class="good">1</strong> valid</li>');
    expect(page).toContain('<li><strong class="bad">1</strong> not checked</li>');
    const rows = [
      ...page.matchAll(/<tr class="finding" data-severity="(\w+)" data-rule="([^"]+)" data-index="(\d+)">/g),
    ];
    expect(rows.map((m) => `${m[1]} ${m[2]}`).sort()).toEqual(
      bad.result!.diagnostics.map((d) => `${d.severity} ${d.ruleId}`).sort(),
    );
    // Line:column, pointer and value of each finding.
    const serial = bad.result!.diagnostics.find((d) => d.ruleId === 'bom/serial-number')!;
    expect(page).toContain(
      `<td class="num mono">${serial.line}:${serial.column}</td><td><code>/serialNumber</code></td>`,
    );
    expect(page).toContain('E_READ: Cannot read it');
    // By rule: counts of errors and warnings.
    expect(page).toMatch(
      /<tr><td><code>bom\/serial-number<\/code><\/td><td class="num">1<\/td><td class="num">0<\/td>/,
    );
    // The filters exist for the script to show.
    expect(page).toContain('<form id="filters" hidden');
    expect(page).toContain('<option value="bom/serial-number">');
  });

  it('gives the same bytes for the same reports', async () => {
    const make = async () =>
      formatReports('html', [await report(hostileBom()), await report(minimalBom('1.5'), 'b.json')], options);
    expect(await make()).toBe(await make());
  });

  it('shows what it can of results validated without details', async () => {
    const plain: FileReport = {
      path: 'a.json',
      uri: 'a.json',
      result: await validate(JSON.stringify(minimalBom('1.6', { version: 0 }))),
    };
    const page = formatReports('html', [plain], options);
    expect(page).toContain('data-rule="bom/version"');
    expect(page).not.toContain('class="graph"');
  });

  it('embeds graphs within a budget, documents with findings first', async () => {
    const components = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => ({ type: 'library', 'bom-ref': `${prefix}${i}`, name: `${prefix}${i}` }));
    const third = Math.ceil(GRAPH_BUDGET / 3) + 1;
    const big = (prefix: string) =>
      report(minimalBom('1.6', { components: components(third, prefix) }), `${prefix}.json`);
    const marked = await report(minimalBom('1.6', { version: 0, components: components(10, 'd') }), 'd.json');
    const page = formatReports('html', [await big('a'), await big('b'), await big('c'), marked], options);
    expect(graphs(page).map((g) => g.n)).toEqual([third, third, 10]);
    expect(page).toContain('data-graph="graph-1"');
    expect(page).toContain('data-graph="graph-2"');
    expect(page).not.toContain('data-graph="graph-3"');
    expect(page).toContain('data-graph="graph-4"');
    expect(page).toContain(`not drawn here, as this report's graph budget (${GRAPH_BUDGET} nodes) is spent`);
  });

  it('drops, as results arrive, only the graphs the report could not embed anyway', () => {
    // Reports made by hand (validating 200,000 components would be slow): sizes around the budget, some marked.
    const sizes = [30_000, 5_000, 40_000, 20_000, 25_000, 1_000, 35_000, 10_000, 500];
    const marked = new Set([3, 6, 8]);
    const make = (): FileReport[] =>
      sizes.map((n, i) => {
        const components = Array.from({ length: n }, (_, j) => ({ 'bom-ref': `d${i}-${j}`, name: `c${j}` }));
        const diagnostics = marked.has(i)
          ? [
              {
                ruleId: 'schema/type' as const,
                severity: 'error' as const,
                message: 'x',
                pointer: '/components/0/name',
              },
            ]
          : [];
        const uri = `boms/${String(i).padStart(2, '0')}.json`;
        const details = validationDetails({ components }, diagnostics, [], undefined);
        return {
          path: uri,
          uri,
          result: { diagnostics, errors: diagnostics.length, warnings: 0, valid: !diagnostics.length, details },
        };
      });
    const whole = formatReports('html', make(), options);
    for (const arrival of [
      [0, 1, 2, 3, 4, 5, 6, 7, 8],
      [8, 7, 6, 5, 4, 3, 2, 1, 0],
      [4, 0, 8, 2, 6, 1, 3, 7, 5],
    ]) {
      const reports = make();
      const budget = new GraphBudget();
      for (const i of arrival) budget.add(reports[i]!);
      // Marked first (3, 6, 8: 55,500 nodes), then 0 (30,000) fits, then 1 (5,000) fits, then 2 (40,000) does not.
      const kept = reports.filter((r) => r.result!.details!.graph.ref.length > 0).map((r) => r.uri);
      expect(kept.length).toBeLessThanOrEqual(6);
      expect(kept).toEqual(
        expect.arrayContaining(['boms/00.json', 'boms/01.json', 'boms/03.json', 'boms/06.json', 'boms/08.json']),
      );
      expect(formatReports('html', reports, options)).toBe(whole);
    }
    expect(graphs(whole).map((g) => g.n)).toEqual([30_000, 5_000, 20_000, 35_000, 500]);
    expect(whole).toContain("40000 nodes: not drawn here, as this report's graph budget");
  });
});
