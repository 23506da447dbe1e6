/**
 * The html report's content, section by section, read back from the page: the totals, the table by rule, the
 * documents' table, each document's findings, signatures, version-rule verdict and embedded graph (parsed back
 * from its data block), what the graph budget keeps, and the escaping of document text. Results come from
 * validate(…, { details: true }) where a real document can produce them, and are written by hand where only a
 * hand-made result reaches a branch (a signer trusted by a root, a truncated change list).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatReports, parseKeyMaterial, validate, type FileReport } from '../../src/index.js';
import { signDocument as sign } from '../../src/jsf/sign-document.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { RULES, type RuleId } from '../../src/diagnostics/rules.js';
import { GRAPH_BUDGET, GraphBudget, contentSecurityPolicy } from '../../src/format/html.js';
import { STYLE, SCRIPT } from '../../src/format/html-page.js';
import { embedGraph, type EmbeddedGraph } from '../../src/format/html-graph.js';
import type { ReportOptions } from '../../src/format/report.js';
import {
  emptyGraph,
  type DependencyGraph,
  type SignatureDetail,
  type ValidationDetails,
} from '../../src/validate/details.js';
import type { ValidationResult } from '../../src/validate/index.js';
import type { VersionVerdict } from '../../src/validate/version-rule.js';
import { sampleBom, testKey } from '../author/fixtures.js';
import { minimalBom } from '../helpers.js';

const options: ReportOptions = { toolVersion: '1.2.3' };
const json = (value: unknown) => JSON.stringify(value, null, 2);
const html = (reports: readonly FileReport[], opts: ReportOptions = options) => formatReports('html', reports, opts);

async function checked(document: unknown, uri: string, more: Parameters<typeof validate>[1] = {}): Promise<FileReport> {
  return { path: uri, uri, result: await validate(json(document), { ...more, details: true }) };
}

/** A result written by hand: counts and verdict follow from the diagnostics. */
function made(uri: string, diagnostics: Diagnostic[], details?: Partial<ValidationDetails>): FileReport {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const result: ValidationResult = {
    formatId: 'cyclonedx-1.6',
    diagnostics,
    errors,
    warnings: diagnostics.length - errors,
    valid: errors === 0,
  };
  if (details !== undefined) result.details = { signatures: [], omittedSignatures: 0, graph: emptyGraph(), ...details };
  return { path: uri, uri, result };
}

const finding = (ruleId: RuleId, over: Partial<Diagnostic> = {}): Diagnostic => ({
  ruleId,
  severity: RULES[ruleId].severity,
  message: `${ruleId} broke`,
  pointer: '/x',
  ...over,
});

/** The lines between two markers, both included. */
function block(page: string, start: string, end: string): string {
  const from = page.indexOf(start);
  expect(from, start).toBeGreaterThanOrEqual(0);
  const to = page.indexOf(end, from);
  expect(to, end).toBeGreaterThan(from);
  return page.slice(from, to + end.length);
}

const headerOf = (page: string) => block(page, '<header>', '</header>').split('\n');
const sectionOf = (page: string, n: number) => block(page, `<section class="doc" id="doc-${n}"`, '</section>');
const tableOf = (page: string, label: string) => block(page, `<table aria-label="${label}">`, '</table>');

/** The embedded graph of document n, parsed back. */
function graphOf(page: string, n: number): EmbeddedGraph {
  const m = new RegExp(`<script type="application/json" id="graph-${n}">(.*?)</script>`, 's').exec(page);
  expect(m, `graph-${n}`).not.toBeNull();
  return JSON.parse(m![1]!) as EmbeddedGraph;
}

/** A graph of n bare nodes (no edges), cheap enough to build at the budget's scale. */
function bareGraph(n: number, edges = 0): DependencyGraph {
  const graph = emptyGraph();
  graph.ref = Array<string>(n).fill('n');
  graph.name = Array<string>(n).fill('');
  graph.version = Array<string>(n).fill('');
  graph.kind = Array<string>(n).fill('library');
  graph.parent = Array<number>(n).fill(-1);
  graph.pointer = Array<string>(n).fill('/components/0');
  graph.severity = Array<number>(n).fill(0);
  graph.edges = Array.from({ length: 2 * edges }, (_, i) => (i % 2 === 0 ? 0 : 1 + (((i - 1) / 2) % (n - 1))));
  return graph;
}

describe('the html page', () => {
  // First in this file: the policy's hashes are computed once, by the first page made.
  it('allows only its own style and script, hashed as sha256 in base64', () => {
    const page = html([made('a.json', [])]);
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
    const expected = [
      "default-src 'none'",
      `style-src ${hash(STYLE)}`,
      `script-src ${hash(SCRIPT)}`,
      "img-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
    ].join('; ');
    expect(contentSecurityPolicy()).toBe(expected);
    expect(page.split('\n').slice(0, 9)).toEqual([
      '<!doctype html>',
      '<html lang="en">',
      '<head>',
      '<meta charset="utf-8">',
      `<meta http-equiv="Content-Security-Policy" content="${expected}">`,
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      '<meta name="color-scheme" content="light dark">',
      '<meta name="generator" content="bomwright 1.2.3">',
      '<title>bomwright report: valid, 1 document</title>',
    ]);
    expect(page).toContain(`<style>${STYLE}</style>\n</head>\n<body>\n<header>\n`);
    expect(page.endsWith(`</main>\n<script>${SCRIPT}</script>\n</body>\n</html>\n`)).toBe(true);
  });

  it('counts documents, verdicts, errors and warnings in the header, marking only what is not zero', async () => {
    const warned = await checked(
      minimalBom('1.6', { serialNumber: 'urn:uuid:00000000-0000-0000-0000-000000000000' }),
      'w.json',
    );
    expect(warned.result).toMatchObject({ valid: true, errors: 0, warnings: 1 });
    const clean = html([warned]);
    expect(clean).toContain('<title>bomwright report: valid, 1 document</title>');
    expect(headerOf(clean)).toEqual([
      '<header>',
      '<h1>bomwright validation report</h1>',
      '<p class="muted">bomwright 1.2.3</p>',
      '<ul class="totals">',
      '<li><strong>1</strong> document</li>',
      '<li><strong class="good">1</strong> valid</li>',
      '<li><strong class="">0</strong> invalid</li>',
      '<li><strong class="">0</strong> errors</li>',
      '<li><strong class="meh">1</strong> warning</li>',
      '</ul>',
      '</header>',
    ]);

    const bad = await checked(minimalBom('1.6', { version: 0 }), 'bad.json');
    const gone: FileReport = { path: 'gone.json', uri: 'gone.json', failure: 'E_READ: Cannot read gone.json' };
    const mixed = html([bad, gone, made('ok.json', [])], { ...options, quiet: true });
    expect(mixed).toContain('<title>bomwright report: 1 error, 3 documents</title>');
    expect(headerOf(mixed)).toEqual([
      '<header>',
      '<h1>bomwright validation report</h1>',
      '<p class="muted">bomwright 1.2.3 · errors only (--quiet)</p>',
      '<ul class="totals">',
      '<li><strong>3</strong> documents</li>',
      '<li><strong class="good">1</strong> valid</li>',
      '<li><strong class="bad">1</strong> invalid</li>',
      '<li><strong class="bad">1</strong> not checked</li>',
      '<li><strong class="bad">1</strong> error</li>',
      '<li><strong class="">0</strong> warnings</li>',
      '</ul>',
      '</header>',
    ]);

    // A document that could not be read is not "valid", even with no error anywhere.
    const unread = html([gone, gone]);
    expect(unread).toContain('<title>bomwright report: 0 errors, 2 documents</title>');
    expect(headerOf(unread).slice(4, 10)).toEqual([
      '<li><strong>2</strong> documents</li>',
      '<li><strong class="good">0</strong> valid</li>',
      '<li><strong class="">0</strong> invalid</li>',
      '<li><strong class="bad">2</strong> not checked</li>',
      '<li><strong class="">0</strong> errors</li>',
      '<li><strong class="">0</strong> warnings</li>',
    ]);
    // A result that says valid does not count when the document also failed.
    const failedValid: FileReport = { ...made('v.json', []), failure: 'E_READ: later' };
    expect(headerOf(html([failedValid])).slice(5, 8)).toEqual([
      '<li><strong class="good">0</strong> valid</li>',
      '<li><strong class="">0</strong> invalid</li>',
      '<li><strong class="bad">1</strong> not checked</li>',
    ]);
    // Valid with an error count of 2 in the title.
    const two = html([made('a.json', [finding('bom/version'), finding('schema/type')])]);
    expect(two).toContain('<title>bomwright report: 2 errors, 1 document</title>');
  });

  it('counts findings by rule: most findings first, then by id, with the documents each rule is in', () => {
    const reports = [
      made('a.json', [
        finding('schema/type'),
        finding('schema/type'),
        finding('bom/serial-number-nil'),
        finding('bom/version'),
      ]),
      made('b.json', [finding('schema/type', { severity: 'warning' }), finding('bom/version')]),
      made('c.json', []),
    ];
    const description = (id: RuleId) => RULES[id].description.replaceAll("'", '&#39;').replaceAll('"', '&quot;');
    expect(tableOf(html(reports), 'Findings by rule').split('\n')).toEqual([
      '<table aria-label="Findings by rule"><thead><tr><th>Rule</th><th class="num">Errors</th><th class="num">Warnings</th><th class="num">Documents</th><th>What it means</th></tr></thead><tbody>',
      `<tr><td><code>schema/type</code></td><td class="num">2</td><td class="num">1</td><td class="num">2</td><td>${description('schema/type')}</td></tr>`,
      `<tr><td><code>bom/version</code></td><td class="num">2</td><td class="num">0</td><td class="num">2</td><td>${description('bom/version')}</td></tr>`,
      `<tr><td><code>bom/serial-number-nil</code></td><td class="num">0</td><td class="num">1</td><td class="num">1</td><td>${description('bom/serial-number-nil')}</td></tr>`,
      '</tbody></table>',
    ]);
    // Ties by id, and more findings first whatever their severity, in whichever order the documents name them.
    const order = (diagnostics: Diagnostic[]) =>
      [
        ...tableOf(html([made('a.json', diagnostics)]), 'Findings by rule').matchAll(/<tr><td><code>([^<]+)<\/code>/g),
      ].map((m) => m[1]);
    expect(order([finding('schema/type'), finding('bom/version')])).toEqual(['bom/version', 'schema/type']);
    expect(order([finding('bom/version'), finding('schema/type')])).toEqual(['bom/version', 'schema/type']);
    const warnings = Array.from({ length: 3 }, () => finding('bom/serial-number-nil'));
    const errors = [finding('schema/type'), finding('schema/type')];
    expect(order([...warnings, ...errors])).toEqual(['bom/serial-number-nil', 'schema/type']);
    expect(order([...errors, ...warnings])).toEqual(['bom/serial-number-nil', 'schema/type']);
    // --quiet leaves warnings out of the table, and a rule with only warnings out altogether.
    const quiet = tableOf(html(reports, { ...options, quiet: true }), 'Findings by rule');
    expect(quiet).toContain(
      '<tr><td><code>schema/type</code></td><td class="num">2</td><td class="num">0</td><td class="num">1</td>',
    );
    expect(quiet).not.toContain('bom/serial-number-nil');
    // Nothing to count: a sentence instead of an empty table.
    const none = html([made('a.json', [finding('bom/serial-number-nil')])], { ...options, quiet: true });
    expect(block(none, '<h2>Findings by rule</h2>', '<h2>Documents</h2>')).toBe(
      '<h2>Findings by rule</h2>\n<p class="muted">No findings.</p>\n<h2>Documents</h2>',
    );
    expect(block(none, '<form id="filters"', '</form>')).toBe(
      '<form id="filters" hidden aria-label="Filter the findings"><fieldset><legend>Severity</legend>' +
        '<label><input type="checkbox" name="severity" value="error" checked> errors</label>' +
        '<label><input type="checkbox" name="severity" value="warning" checked> warnings</label></fieldset>' +
        '<label>Rule <select id="filter-rule"><option value="">all rules</option></select></label>' +
        '<button type="button" id="filter-reset">Show all</button>' +
        '<span id="filter-status" role="status" aria-live="polite"></span></form>',
    );
    expect(none).toContain('</header>\n<main>\n<h2>Findings by rule</h2>\n');
  });

  it('lists the documents with format, verdict, counts, signatures and the version rule’s outcome', async () => {
    const signature = (over: Partial<SignatureDetail>): SignatureDetail => ({
      pointer: '/signature',
      signedPointer: '',
      shape: 'single',
      keySource: 'publicKey',
      verdict: 'valid',
      trust: 'untrusted',
      ...over,
    });
    const signed = made('s.json', [finding('bom/serial-number-nil')], {
      signatures: [
        signature({ trust: 'trusted', trustedBy: 'key' }),
        signature({ verdict: 'invalid' }),
        signature({ verdict: 'valid' }),
      ],
    });
    const before = sampleBom();
    const after = { ...sampleBom(), version: 4, services: [] };
    const bumped = await checked(after, 'v.json', { baseline: { document: before, name: 'HEAD' } });
    const gone: FileReport = { path: 'gone.json', uri: 'gone.json', failure: 'E_READ: nope' };
    const page = html([signed, bumped, gone, { path: 'x.json', uri: 'x.json' }]);
    expect(tableOf(page, 'Documents').split('\n')).toEqual([
      '<table aria-label="Documents"><thead><tr><th>Document</th><th>Format</th><th>Verdict</th><th class="num">Errors</th><th class="num">Warnings</th><th>Signatures</th><th>Version rule</th></tr></thead><tbody>',
      '<tr id="row-doc-1"><td><a href="#doc-1" data-to="doc-1"><code>s.json</code></a></td><td>cyclonedx-1.6</td><td><span class="good">valid</span></td><td class="num">0</td><td class="num">1</td><td>2/3 valid, 1 trusted</td><td></td></tr>',
      '<tr id="row-doc-2"><td><a href="#doc-2" data-to="doc-2"><code>v.json</code></a></td><td>cyclonedx-1.6</td><td><span class="good">valid</span></td><td class="num">0</td><td class="num">0</td><td></td><td>pass</td></tr>',
      '<tr id="row-doc-3"><td><a href="#doc-3" data-to="doc-3"><code>gone.json</code></a></td><td></td><td><span class="bad">not checked</span></td><td class="num">0</td><td class="num">0</td><td></td><td></td></tr>',
      '<tr id="row-doc-4"><td><a href="#doc-4" data-to="doc-4"><code>x.json</code></a></td><td></td><td><span class="bad">invalid</span></td><td class="num">0</td><td class="num">0</td><td></td><td></td></tr>',
      '</tbody></table>',
    ]);
    // Each document's own section: the failure alone for an unread one, a format line for the rest.
    expect(sectionOf(page, 3).split('\n')).toEqual([
      '<section class="doc" id="doc-3" aria-labelledby="doc-3-title">',
      '<h2 id="doc-3-title" tabindex="-1"><span class="bad">not checked</span> <code>gone.json</code></h2>',
      '<p class="bad">E_READ: nope</p></section>',
    ]);
    expect(sectionOf(page, 4).split('\n')).toEqual([
      '<section class="doc" id="doc-4" aria-labelledby="doc-4-title">',
      '<h2 id="doc-4-title" tabindex="-1"><span class="bad">invalid</span> <code>x.json</code></h2>',
      '<p class="muted">format unknown · 0 errors · 0 warnings</p>',
      '<p class="muted">No findings.</p>',
      '</section>',
    ]);
    expect(sectionOf(page, 1).split('\n').slice(0, 3)).toEqual([
      '<section class="doc" id="doc-1" aria-labelledby="doc-1-title">',
      '<h2 id="doc-1-title" tabindex="-1"><span class="good">valid</span> <code>s.json</code></h2>',
      '<p class="muted">cyclonedx-1.6 · 0 errors · 1 warning</p>',
    ]);
  });

  it('shows each finding with severity, rule, line:column, pointer, message and value', async () => {
    const bad = await checked(
      minimalBom('1.6', { version: 0, serialNumber: 'urn:uuid:00000000-0000-0000-0000-000000000000' }),
      'bad.json',
    );
    const [nil, version] = ['bom/serial-number-nil', 'bom/version'].map((id) =>
      bad.result!.diagnostics.find((d) => d.ruleId === id)!,
    );
    expect(version).toMatchObject({ line: expect.any(Number), column: expect.any(Number), value: '0' });
    const handMade = made('hand.json', [
      finding('schema/type', { pointer: '', message: 'a <b> & "c"', line: 1, column: undefined }),
      finding('bom/serial-number-nil', { line: undefined, value: '"<x>"' }),
      finding('schema/required', { line: 10, column: 1, pointer: `/${'p'.repeat(130)}` }),
    ]);
    const page = html([bad, handMade]);
    const rows = (n: number) =>
      sectionOf(page, n)
        .split('\n')
        .filter((l) => l.startsWith('<tr class="finding"'));
    const indexOf = (d: Diagnostic) => bad.result!.diagnostics.indexOf(d);
    expect(rows(1)).toEqual(
      expect.arrayContaining([
        `<tr class="finding" data-severity="warning" data-rule="bom/serial-number-nil" data-index="${indexOf(nil!)}"><td class="sev-warning">warning</td><td><code>bom/serial-number-nil</code></td><td class="num mono">${nil!.line}:${nil!.column}</td><td><code>/serialNumber</code></td><td class="message">${nil!.message}</td><td><code>&quot;urn:uuid:00000000-0000-0000-0000-000000000000&quot;</code></td></tr>`,
        `<tr class="finding" data-severity="error" data-rule="bom/version" data-index="${indexOf(version!)}"><td class="sev-error">error</td><td><code>bom/version</code></td><td class="num mono">${version!.line}:${version!.column}</td><td><code>/version</code></td><td class="message">${version!.message}</td><td><code>0</code></td></tr>`,
      ]),
    );
    expect(rows(1)).toHaveLength(bad.result!.diagnostics.length);
    expect(rows(2)).toEqual([
      '<tr class="finding" data-severity="error" data-rule="schema/type" data-index="0"><td class="sev-error">error</td><td><code>schema/type</code></td><td class="num mono">1:1</td><td><code>(document)</code></td><td class="message">a &lt;b&gt; &amp; &quot;c&quot;</td><td><code></code></td></tr>',
      '<tr class="finding" data-severity="warning" data-rule="bom/serial-number-nil" data-index="1"><td class="sev-warning">warning</td><td><code>bom/serial-number-nil</code></td><td class="num mono"></td><td><code>/x</code></td><td class="message">bom/serial-number-nil broke</td><td><code>&quot;&lt;x&gt;&quot;</code></td></tr>',
      `<tr class="finding" data-severity="error" data-rule="schema/required" data-index="2"><td class="sev-error">error</td><td><code>schema/required</code></td><td class="num mono">10:1</td><td><code>/${'p'.repeat(59)}…${'p'.repeat(50)}</code></td><td class="message">schema/required broke</td><td><code></code></td></tr>`,
    ]);
    expect(block(sectionOf(page, 2), '<table class="findings"', '</p>')).toBe(
      '<table class="findings" aria-label="Findings of document 2"><thead><tr><th>Severity</th><th>Rule</th><th class="num">Line:col</th><th>Pointer</th><th>Message</th><th>Value</th></tr></thead><tbody>\n' +
        rows(2).join('\n') +
        '\n</tbody></table><p class="no-match muted" hidden>No finding matches the filters.</p>',
    );
    // --quiet: warnings are left out, and the rows keep their index in the result, which the graph refers to.
    const quiet = html([handMade], { ...options, quiet: true });
    expect(
      [...sectionOf(quiet, 1).matchAll(/data-rule="([^"]+)" data-index="(\d+)"/g)].map((m) => `${m[1]} ${m[2]}`),
    ).toEqual(['schema/type 0', 'schema/required 2']);
    expect(quiet).toContain(
      '<option value="schema/required">schema/required</option><option value="schema/type">schema/type</option></select>',
    );
    const onlyWarnings = html([made('w.json', [finding('bom/serial-number-nil')])], { ...options, quiet: true });
    expect(sectionOf(onlyWarnings, 1)).toContain(
      '0 errors · 1 warning</p>\n<p class="muted">No findings.</p>\n</section>',
    );
  });
});

describe('signatures in the html page', () => {
  it('name what each signer signs, how, with which key, its verdict and its trust', async () => {
    const key = testKey();
    const document = sign(sampleBom(), { key, targets: ['root', '/components/0'] }) as Record<string, unknown>;
    (document.components as Record<string, unknown>[])[1]!.name = 'tampered';
    const pinned = parseKeyMaterial(key.publicKey!.export({ type: 'spki', format: 'pem' }) as string, 'release.pem');
    const trusted = await checked(document, 'signed.json', { trust: { keys: pinned, roots: [] } });
    const untrusted = await checked(document, 'signed.json');
    const rows = (report: FileReport) =>
      block(html([report]), '<h3>Signatures</h3>', '</table>')
        .split('\n')
        .filter((l) => l.startsWith('<tr>'));
    const invalid = trusted.result!.details!.signatures.find((s) => s.signedPointer === '')!;
    expect(invalid.verdict).toBe('invalid');
    expect(rows(trusted)).toEqual([
      `<tr><td><code>(document)</code></td><td>single</td><td><code>ES256</code></td><td>publicKey</td><td><span class="bad">invalid</span>: ${invalid.reason}</td><td><span class="muted">—</span></td></tr>`,
      '<tr><td><code>/components/0</code></td><td>single</td><td><code>ES256</code></td><td>publicKey</td><td><span class="good">valid</span></td><td><span class="good">trusted</span> by a pinned key (the embedded key is in the trust store)</td></tr>',
    ]);
    expect(rows(untrusted)[1]).toBe(
      '<tr><td><code>/components/0</code></td><td>single</td><td><code>ES256</code></td><td>publicKey</td><td><span class="good">valid</span></td><td><span class="meh">untrusted</span>: the embedded key is not in the trust store</td></tr>',
    );
  });

  it('spell out every shape, key, chain and trust, escaped, and count the signers left out', () => {
    const signatures: SignatureDetail[] = [
      {
        pointer: '/signature',
        signedPointer: '',
        shape: 'single',
        algorithm: 'ES384',
        keySource: 'certificatePath',
        certificates: ['CN=leaf <1>', 'CN=CA & co'],
        verdict: 'valid',
        trust: 'trusted',
        trustedBy: 'root',
        trustReason: 'chains to "root"',
      },
      {
        pointer: '/signature/signers/0',
        signedPointer: '/components/0',
        shape: 'signers',
        index: 0,
        algorithm: 'Ed25519',
        keySource: 'keyId',
        keyId: 'key <one>',
        certificates: [],
        verdict: 'valid',
        trust: 'trusted',
        trustedBy: 'key',
      },
      {
        pointer: '/signature/chain/1',
        signedPointer: '/components/0',
        shape: 'chain',
        index: 1,
        keySource: 'implicit',
        verdict: 'unverifiable',
        reason: 'no key & no <luck>',
        trust: 'untrusted',
        trustReason: 'not shown for an unverifiable signature',
      },
      {
        pointer: '/s',
        signedPointer: '/s',
        shape: 'signers',
        keySource: 'publicKey',
        verdict: 'invalid',
        trust: 'untrusted',
      },
      {
        pointer: '/t',
        signedPointer: '/t',
        shape: 'single',
        keySource: 'publicKey',
        verdict: 'valid',
        trust: 'untrusted',
      },
      {
        pointer: '/u',
        signedPointer: '/u',
        shape: 'single',
        keySource: 'publicKey',
        verdict: 'valid',
        trust: 'trusted',
      },
    ];
    const page = html([
      made('a.json', [], { signatures, omittedSignatures: 1 }),
      made('b.json', [], { omittedSignatures: 0 }),
    ]);
    expect(block(sectionOf(page, 1), '<h3>Signatures</h3>', '</p>').split('\n')).toEqual([
      '<h3>Signatures</h3><table><thead><tr><th>Signed object</th><th>Signer</th><th>Algorithm</th><th>Key</th><th>Verdict</th><th>Trust</th></tr></thead><tbody>',
      '<tr><td><code>(document)</code></td><td>single</td><td><code>ES384</code></td><td>certificatePath<ol class="chain"><li>CN=leaf &lt;1&gt;</li><li>CN=CA &amp; co</li></ol></td><td><span class="good">valid</span></td><td><span class="good">trusted</span> by a trust root (chains to &quot;root&quot;)</td></tr>',
      '<tr><td><code>/components/0</code></td><td>signers #1</td><td><code>Ed25519</code></td><td>keyId <code>key &lt;one&gt;</code></td><td><span class="good">valid</span></td><td><span class="good">trusted</span> by a pinned key</td></tr>',
      '<tr><td><code>/components/0</code></td><td>chain #2</td><td><code>?</code></td><td>implicit</td><td><span class="bad">unverifiable</span>: no key &amp; no &lt;luck&gt;</td><td><span class="muted">—</span></td></tr>',
      '<tr><td><code>/s</code></td><td>signers #1</td><td><code>?</code></td><td>publicKey</td><td><span class="bad">invalid</span></td><td><span class="muted">—</span></td></tr>',
      '<tr><td><code>/t</code></td><td>single</td><td><code>?</code></td><td>publicKey</td><td><span class="good">valid</span></td><td><span class="meh">untrusted</span></td></tr>',
      '<tr><td><code>/u</code></td><td>single</td><td><code>?</code></td><td>publicKey</td><td><span class="good">valid</span></td><td><span class="good">trusted</span> by a pinned key</td></tr>',
      '</tbody></table><p class="muted">1 more signer not listed.</p>',
    ]);
    expect(tableOf(page, 'Documents')).toContain('<td>4/6 valid, 3 trusted</td>');
    expect(sectionOf(page, 2)).toContain('<h3>Signatures</h3><p class="muted">Not signed.</p>\n');
    const many = html([made('a.json', [], { signatures: signatures.slice(0, 1), omittedSignatures: 2 })]);
    expect(many).toContain('</tbody></table><p class="muted">2 more signers not listed.</p>\n');
    expect(html([made('a.json', [], { signatures: signatures.slice(0, 1) })])).toContain(
      '</tr>\n</tbody></table>\n\n<h3>Dependency graph</h3>',
    );
  });
});

describe('the version rule in the html page', () => {
  const versionBlock = (page: string) => block(page, '<h3>Version rule</h3>', '\n').trimEnd();

  it('gives the verdict against the baseline, both identities and a summary of the changes', async () => {
    const after = sampleBom();
    (after.components as unknown[]).push({
      type: 'library',
      'bom-ref': 'pkg:npm/new@1.0.0',
      name: 'new',
      version: '1.0.0',
    });
    const broken = await checked(after, 'b.json', { baseline: { document: sampleBom(), name: 'v<3>.json' } });
    expect(versionBlock(html([broken]))).toBe(
      '<h3>Version rule</h3><p>The version rule <span class="bad">broken</span> against <code>v&lt;3&gt;.json</code>; the content changed.</p>' +
        '<table><thead><tr><th></th><th>version</th><th>serialNumber</th></tr></thead><tbody>' +
        '<tr><th scope="row">previous</th><td>3</td><td><code>urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79</code></td></tr>' +
        '<tr><th scope="row">current</th><td>3</td><td><code>urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79</code></td></tr></tbody></table>' +
        '<table><thead><tr><th>Changed</th><th class="num">added</th><th class="num">removed</th><th class="num">changed</th><th>examples</th></tr></thead><tbody>' +
        '<tr><td>components</td><td class="num">1</td><td class="num">0</td><td class="num">0</td><td>added: <code>pkg:npm/new@1.0.0</code></td></tr>' +
        '<tr><td>services</td><td class="num">0</td><td class="num">0</td><td class="num">0</td><td></td></tr>' +
        '<tr><td>dependency entries</td><td class="num">0</td><td class="num">0</td><td class="num">0</td><td></td></tr></tbody></table>',
    );
    const held = await checked(sampleBom(), 'same.json', { baseline: { document: sampleBom() } });
    expect(versionBlock(html([held]))).toBe(
      '<h3>Version rule</h3><p>The version rule <span class="good">holds</span>; the content is unchanged.</p>' +
        '<table><thead><tr><th></th><th>version</th><th>serialNumber</th></tr></thead><tbody>' +
        '<tr><th scope="row">previous</th><td>3</td><td><code>urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79</code></td></tr>' +
        '<tr><th scope="row">current</th><td>3</td><td><code>urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79</code></td></tr></tbody></table>',
    );
    // A baseline that is not a BOM: a new document, nothing to compare, no identities to show.
    const fresh = await checked(sampleBom(), 'new.json', { baseline: { document: 'not json', name: 'HEAD' } });
    expect(versionBlock(html([fresh]))).toBe(
      '<h3>Version rule</h3><p>The version rule <span class="muted">not compared</span> (the baseline is not a BOM: a new document) against <code>HEAD</code>; the content is unchanged.</p>',
    );
    expect(tableOf(html([fresh]), 'Documents')).toContain('<td></td><td>not-compared</td></tr>');
    // Without a baseline, no section at all.
    expect(html([await checked(sampleBom(), 'plain.json')])).not.toContain('Version rule</h3>');
  });

  it('shows missing identities, elided examples and changed members', () => {
    const count = (added: number, examples: string[]) => ({
      added,
      removed: 2,
      changed: 0,
      examples: { added: examples, removed: ['gone<1>', 'gone2'], changed: [] },
    });
    const versionRule: VersionVerdict = {
      outcome: 'not-compared',
      changed: true,
      previous: {},
      current: { version: '7' },
      diff: {
        components: count(3, ['a', 'b']),
        services: count(1, ['s']),
        dependencies: { added: 0, removed: 0, changed: 1, examples: { added: [], removed: [], changed: ['d'] } },
        members: ['version', 'metadata.<x>'],
      },
    };
    const page = html([made('a.json', [], { versionRule })]);
    expect(block(page, '<h3>Version rule</h3>', '\n').trimEnd()).toBe(
      '<h3>Version rule</h3><p>The version rule <span class="muted">not compared</span> (the baseline is not a BOM: a new document); the content changed.</p>' +
        '<table><thead><tr><th></th><th>version</th><th>serialNumber</th></tr></thead><tbody>' +
        '<tr><th scope="row">previous</th><td>missing</td><td><code>missing</code></td></tr>' +
        '<tr><th scope="row">current</th><td>7</td><td><code>missing</code></td></tr></tbody></table>' +
        '<table><thead><tr><th>Changed</th><th class="num">added</th><th class="num">removed</th><th class="num">changed</th><th>examples</th></tr></thead><tbody>' +
        '<tr><td>components</td><td class="num">3</td><td class="num">2</td><td class="num">0</td><td>added: <code>a</code>, <code>b</code>, …<br>removed: <code>gone&lt;1&gt;</code>, <code>gone2</code></td></tr>' +
        '<tr><td>services</td><td class="num">1</td><td class="num">2</td><td class="num">0</td><td>added: <code>s</code><br>removed: <code>gone&lt;1&gt;</code>, <code>gone2</code></td></tr>' +
        '<tr><td>dependency entries</td><td class="num">0</td><td class="num">0</td><td class="num">1</td><td>changed: <code>d</code></td></tr></tbody></table>' +
        '<p>Members changed: <code>version</code>, <code>metadata.&lt;x&gt;</code></p>',
    );
    // A failed rule with no previous identity still has its table; the current one alone.
    const failed = html([
      made('a.json', [], { versionRule: { outcome: 'fail', changed: false, current: { serialNumber: 's' } } }),
    ]);
    expect(block(failed, '<h3>Version rule</h3>', '\n').trimEnd()).toBe(
      '<h3>Version rule</h3><p>The version rule <span class="bad">broken</span>; the content is unchanged.</p>' +
        '<table><thead><tr><th></th><th>version</th><th>serialNumber</th></tr></thead><tbody>' +
        '<tr><th scope="row">current</th><td>missing</td><td><code>s</code></td></tr></tbody></table>',
    );
  });
});

describe('the dependency graph in the html page', () => {
  it('embeds the graph as data the page parses back, with a title that counts it', async () => {
    const bad = sampleBom();
    (bad.components as Record<string, unknown>[])[0]!.version = 7;
    const report = await checked(bad, 'g.json');
    const page = html([report]);
    expect(block(page, '<details class="graph"', '</details>')).toBe(
      '<details class="graph" data-graph="graph-1"><summary>Dependency graph: 6 nodes, 4 dependencies, 1 marked</summary><div class="graph-body"><p class="muted">Drawing the graph needs JavaScript.</p></div></details>',
    );
    const versionIndex = report.result!.diagnostics.findIndex((d) => d.pointer === '/components/0/version');
    expect(versionIndex).toBeGreaterThanOrEqual(0);
    expect(graphOf(page, 1)).toEqual({
      n: 6,
      b: 32,
      flat: true,
      r: ['app', 'pkg:npm/left-pad@1.3.0', 0, 0, 0, 'api@1'],
      rp: ['pkg:npm/'],
      a: ['app', 'left-pad', 'express', 'send', 'body-parser', 'api'],
      v: ['1.0.0', '7', '4.18.2', '0.18.0', '1.20.1', '1'],
      k: [0, 1, 2, 1, 1, 3],
      t: ['application', 'library', 'framework', 'service'],
      p: [3, 2, 4, 2],
      tp: [0, 1, 2, 1, 2, 0],
      e: [0, 1, 0, 2, 2, 3, 2, 4],
      s: [1, 2],
      f: [1, versionIndex],
      pin: [],
      o: { nodes: 0, edges: 0 },
    });
    expect(graphOf(page, 1)).toEqual(embedGraph(report.result!.details!.graph));
  });

  it('says 1 dependency, no dependencies, or no components, and marks warnings too', async () => {
    const one = minimalBom('1.6', {
      components: [
        { type: 'library', 'bom-ref': 'a', name: 'a' },
        { type: 'library', 'bom-ref': 'b', name: 'b' },
      ],
      dependencies: [{ ref: 'a', dependsOn: ['b'] }],
    });
    const summary = (page: string) => /<summary>(.*?)<\/summary>/.exec(page)![1];
    expect(summary(html([await checked(one, 'one.json')]))).toBe('Dependency graph: 2 nodes, 1 dependency');
    const lone = minimalBom('1.6', { components: [{ type: 'library', 'bom-ref': 'a', name: 'a' }] });
    expect(summary(html([await checked(lone, 'lone.json')]))).toBe('Dependency graph: 1 node, 0 dependencies');
    const graph = bareGraph(3);
    graph.severity = [1, 0, 1];
    expect(summary(html([made('w.json', [], { graph })]))).toBe('Dependency graph: 3 nodes, 0 dependencies, 2 marked');
    const empty = html([await checked(minimalBom('1.6'), 'empty.json')]);
    expect(empty).toContain('\n<h3>Dependency graph</h3><p class="muted">No components.</p>\n</section>');
    expect(empty).not.toContain('<script type="application/json"');
  });

  it('embeds graphs that lost nodes at the limits, and skips empty ones without spending the budget', () => {
    const clipped = bareGraph(3, 2);
    clipped.omitted = { nodes: 5, edges: 7, findings: 0 };
    const empty = made('a-empty.json', [finding('bom/version')], { graph: emptyGraph() });
    const page = html([empty, made('b.json', [], { graph: clipped })]);
    expect(sectionOf(page, 1)).toContain('<h3>Dependency graph</h3><p class="muted">No components.</p>');
    expect(graphOf(page, 2)).toMatchObject({ n: 3, e: [0, 1, 0, 2], o: { nodes: 5, edges: 7 } });
  });

  it('says why a graph is not drawn when the budget is spent, counting the nodes it would have had', () => {
    const big = made('a.json', [finding('bom/version')], { graph: bareGraph(GRAPH_BUDGET) });
    const over = made('b.json', [], { graph: bareGraph(1) });
    const dropped = made('c.json', [], {
      graph: { ...emptyGraph(), omitted: { nodes: 2, edges: 0, findings: 0 } },
    });
    const page = html([big, over, dropped]);
    expect(graphOf(page, 1).n).toBe(GRAPH_BUDGET);
    expect(graphOf(page, 1).flat).toBe(false);
    const notDrawn = (nodes: string) =>
      `<h3>Dependency graph</h3><p class="muted">${nodes}: not drawn here, as this report's graph budget (100000 nodes) is spent. A report of this document alone draws it.</p>`;
    expect(sectionOf(page, 2)).toContain(notDrawn('1 node'));
    expect(sectionOf(page, 3)).toContain(notDrawn('2 nodes'));
    // Exactly the budget fits.
    const fits = html([
      made('a.json', [], { graph: bareGraph(GRAPH_BUDGET - 1) }),
      made('b.json', [], { graph: bareGraph(1) }),
    ]);
    expect(graphOf(fits, 2).n).toBe(1);
  });
});

describe('the graph budget', () => {
  /** What the budget should keep: add in arrival order, and while over budget drop the last in report order. */
  function expectedKept(sizes: readonly number[], marked: ReadonlySet<number>, arrival: readonly number[]): number[] {
    const key = (i: number) => [marked.has(i) ? 0 : 1, i] as const;
    const kept: number[] = [];
    let total = 0;
    for (const i of arrival) {
      kept.push(i);
      total += sizes[i]!;
      while (total > GRAPH_BUDGET) {
        kept.sort((a, b) => key(a)[0] - key(b)[0] || key(a)[1] - key(b)[1]);
        total -= sizes[kept.pop()!]!;
      }
    }
    return kept.sort((a, b) => a - b);
  }

  const reportsOf = (sizes: readonly number[], marked: ReadonlySet<number>) =>
    sizes.map((n, i) =>
      made(`boms/${String(i).padStart(2, '0')}.json`, marked.has(i) ? [finding('bom/version')] : [], {
        graph: bareGraph(n, Math.min(n - 1, 3)),
      }),
    );

  it('keeps, in any arrival order, what a report-ordered budget keeps, and records what it dropped', () => {
    const sizes = [9_000, 31_000, 2_000, 44_000, 17_000, 26_000, 5_000, 38_000, 12_000, 21_000, 7_000, 15_000];
    const marked = new Set([2, 5, 9]);
    // A fixed shuffle per round (a linear congruential sequence), so every heap shape is reached.
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 12; round++) {
      const arrival = sizes.map((_, i) => i).sort(() => random() - 0.5);
      const reports = reportsOf(sizes, marked);
      const budget = new GraphBudget();
      for (const i of arrival) budget.add(reports[i]!);
      const kept = reports.flatMap((r, i) => (r.result!.details!.graph.ref.length > 0 ? [i] : []));
      expect(kept, `arrival ${arrival.join(',')}`).toEqual(expectedKept(sizes, marked, arrival));
      for (const [i, r] of reports.entries()) {
        if (kept.includes(i)) continue;
        expect(r.result!.details!.graph).toEqual({
          ...emptyGraph(),
          omitted: { nodes: sizes[i], edges: Math.min(sizes[i]! - 1, 3), findings: 0 },
        });
      }
    }
  });

  it('keeps a run that fills the budget exactly, drops one graph alone over it, and skips results without graphs', () => {
    const exact = reportsOf([60_000, 40_000], new Set());
    const budget = new GraphBudget();
    budget.add({ path: 'gone.json', uri: 'gone.json', failure: 'E_READ: nope' });
    budget.add(made('plain.json', []));
    budget.add(made('empty.json', [], { graph: emptyGraph() }));
    for (const r of exact) budget.add(r);
    expect(exact.map((r) => r.result!.details!.graph.ref.length)).toEqual([60_000, 40_000]);

    // One graph over the budget on its own is dropped; the heap is empty again, so later graphs are judged afresh.
    const alone = new GraphBudget();
    const huge = made('z.json', [], { graph: bareGraph(GRAPH_BUDGET + 1) });
    const [a, b] = reportsOf([60_000, 60_000], new Set());
    for (const r of [huge, a!, b!]) alone.add(r);
    expect([huge, a!, b!].map((r) => r.result!.details!.graph.ref.length)).toEqual([0, 60_000, 0]);
    expect(huge.result!.details!.graph.omitted.nodes).toBe(GRAPH_BUDGET + 1);
  });
});

describe('the html page as a whole', () => {
  it('escapes hostile document text in every place it shows it', () => {
    const evil = '<script>alert("x")</script>&\'';
    const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;';
    const page = html(
      [
        made(`${evil}.json`, [finding('schema/type', { message: evil, value: evil, pointer: `/${evil}` })], {
          signatures: [
            {
              pointer: '/signature',
              signedPointer: `/${evil}`,
              shape: 'single',
              algorithm: evil,
              keySource: 'keyId',
              keyId: evil,
              verdict: 'invalid',
              reason: evil,
              trust: 'untrusted',
            },
          ],
          versionRule: {
            outcome: 'pass',
            changed: false,
            baseline: evil,
            previous: { version: evil },
            current: { serialNumber: evil },
          },
        }),
      ],
      { toolVersion: evil },
    );
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page).not.toContain(evil);
    expect(page).toContain(`<meta name="generator" content="bomwright ${escaped}">`);
    expect(page).toContain(`<p class="muted">bomwright ${escaped}</p>`);
    expect(page).toContain(`<code>${escaped}.json</code>`);
    expect(page).toContain(`<td class="message">${escaped}</td><td><code>${escaped}</code></td>`);
    expect(page).toContain(`<td><code>/${escaped}</code></td>`);
    expect(page).toContain(`<td><code>${escaped}</code></td><td>keyId <code>${escaped}</code></td>`);
    expect(page).toContain(`<span class="bad">invalid</span>: ${escaped}</td>`);
    expect(page).toContain(`against <code>${escaped}</code>`);
    expect(page).toContain(`<td>${escaped}</td><td><code>missing</code>`);
  });

  it('gives the same bytes for the same reports', async () => {
    const key = testKey();
    const signed = sign(sampleBom(), { key, targets: ['all'] });
    const make = async () =>
      html([
        await checked(signed, 'a.json', { baseline: { document: sampleBom(), name: 'HEAD' } }),
        await checked(minimalBom('1.6', { version: 0 }), 'b.json'),
      ]);
    expect(await make()).toBe(await make());
  });
});
