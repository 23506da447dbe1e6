/**
 * The report formatters' exact output at the edges: no findings, warnings only, several documents in order, a
 * finding without a position or a pointer, column and line defaults, severity mapping, escaping of each format's
 * special characters, and the counts. Results are made by hand so that every field is known.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { RULE_IDS, RULES, type RuleId } from '../../src/diagnostics/rules.js';
import { formatDiff, formatDiffText } from '../../src/format/diff.js';
import { formatRuleList, formatRulePage } from '../../src/format/explain.js';
import { formatGithub, formatGithubSummary } from '../../src/format/github.js';
import { formatReports } from '../../src/format/index.js';
import { artifactsUrl, formatJobSummary } from '../../src/format/job-summary.js';
import { formatJunit, unescapeXml } from '../../src/format/junit.js';
import { compareUri, displayPointer, totals, visibleDiagnostics, type FileReport } from '../../src/format/report.js';
import { formatSarif } from '../../src/format/sarif.js';
import { formatText, formatTextSummary } from '../../src/format/text.js';
import { formatVerify } from '../../src/format/verify.js';
import type { BomDiff } from '../../src/compare/diff.js';
import type { SignerReport } from '../../src/jsf/verify.js';

const options = { toolVersion: '9.8.7' };
const quiet = { ...options, quiet: true };

const d = (ruleId: RuleId, over: Partial<Diagnostic> = {}): Diagnostic => ({
  ruleId,
  severity: RULES[ruleId].severity,
  message: `${ruleId} broke`,
  pointer: '/p',
  ...over,
});

/** A document's report; `null` for a document that could not be routed to a format. */
function doc(uri: string, diagnostics: Diagnostic[], formatId: string | null = 'cyclonedx-1.6'): FileReport {
  const errors = diagnostics.filter((x) => x.severity === 'error').length;
  return {
    path: `./${uri}`,
    uri,
    result: {
      ...(formatId === null ? {} : { formatId }),
      diagnostics,
      errors,
      warnings: diagnostics.length - errors,
      valid: errors === 0,
    },
  };
}

const gone = (uri: string, failure = 'E_READ: Cannot read it'): FileReport => ({ path: `./${uri}`, uri, failure });

/** A warning, an error with a value and a position, an error about the whole document without one. */
const findings = (): Diagnostic[] => [
  d('bom/serial-number-nil', { line: 3, column: 17, pointer: '/serialNumber' }),
  d('bom/version', { line: 5, column: 3, pointer: '/version', value: '0' }),
  d('schema/type', { pointer: '', message: 'not an object' }),
];

describe('report helpers', () => {
  it('order uris code unit by code unit', () => {
    expect(compareUri('a', 'b')).toBe(-1);
    expect(compareUri('b', 'a')).toBe(1);
    expect(compareUri('a', 'a')).toBe(0);
    expect(compareUri('B', 'a')).toBe(-1);
    expect(['b', 'a/b', 'a', 'B'].sort(compareUri)).toEqual(['B', 'a', 'a/b', 'b']);
  });

  it('show pointers of up to 120 characters whole, and longer ones by their start and end', () => {
    const at = `/${'a'.repeat(119)}`;
    expect(displayPointer(at)).toBe(at);
    const over = `/${'a'.repeat(59)}${'m'.repeat(11)}${'z'.repeat(50)}`;
    expect(over).toHaveLength(121);
    expect(displayPointer(over)).toBe(`/${'a'.repeat(59)}…${'z'.repeat(50)}`);
  });

  it('hide warnings only when quiet, and total every document', () => {
    const report = doc('a.json', findings());
    expect(visibleDiagnostics(report, options)).toEqual(findings());
    expect(visibleDiagnostics(report, quiet).map((x) => x.ruleId)).toEqual(['bom/version', 'schema/type']);
    expect(visibleDiagnostics({ path: 'x', uri: 'x' }, options)).toEqual([]);
    expect(totals([report, gone('b.json'), doc('c.json', [])])).toEqual({
      files: 3,
      errors: 2,
      warnings: 1,
      invalidFiles: 1,
      failures: 1,
    });
  });
});

describe('text', () => {
  it('prints each finding with its place, severity, message, pointer and rule, then the totals', () => {
    const out = formatText([doc('a.json', findings()), doc('b.json', [d('bom/version', { line: 7 })], null)], options);
    expect(out).toBe(
      [
        './a.json  (cyclonedx-1.6)',
        '  ./a.json:3:17  warning  bom/serial-number-nil broke at /serialNumber  bom/serial-number-nil',
        '  ./a.json:5:3  error  bom/version broke at /version  bom/version',
        '  ./a.json:1:1  error  not an object  schema/type',
        '',
        './b.json',
        '  ./b.json:7:1  error  bom/version broke at /p  bom/version',
        '',
        '3 errors, 1 warning in 2 documents (2 invalid)',
        '',
      ].join('\n'),
    );
  });

  it('sums up valid runs, warnings, unreadable inputs and --quiet', () => {
    expect(formatText([doc('a.json', [])], options)).toBe('1 document valid\n');
    expect(formatText([doc('a.json', []), doc('b.json', [])], quiet)).toBe('');
    const warned = [doc('a.json', [d('bom/serial-number-nil')]), doc('b.json', [])];
    expect(formatTextSummary(warned, options)).toBe(
      '1 error, 1 warning in 2 documents (0 invalid)\n'.replace('1 error', '0 errors'),
    );
    expect(formatTextSummary(warned, quiet)).toBe('');
    expect(formatTextSummary([doc('a.json', [d('bom/serial-number-nil'), d('bom/serial-number-nil')])], options)).toBe(
      '0 errors, 2 warnings in 1 document (0 invalid)\n',
    );
    // An error and a warning are two problems, not none.
    expect(formatTextSummary([doc('a.json', [d('bom/version'), d('bom/serial-number-nil')])], options)).toBe(
      '1 error, 1 warning in 1 document (1 invalid)\n',
    );
    expect(formatTextSummary([doc('a.json', [d('bom/version')])], quiet)).toBe('1 error in 1 document (1 invalid)\n');
    // An unreadable input alone is a failure of the run, said with the count of inputs.
    expect(formatText([gone('x.json')], options)).toBe(
      './x.json: E_READ: Cannot read it\n\n0 errors, 0 warnings, 1 input unreadable in 1 document (0 invalid)\n',
    );
    expect(formatTextSummary([gone('x.json'), gone('y.json'), doc('z.json', [])], quiet)).toBe(
      '0 errors, 2 inputs unreadable in 3 documents (0 invalid)\n',
    );
  });

  it('prints nothing for a result-less or clean document, and only errors with --quiet', () => {
    expect(formatText([{ path: 'x', uri: 'x' }, doc('a.json', [d('bom/serial-number-nil')])], quiet)).toBe('');
    expect(formatText([doc('a.json', findings())], quiet).split('\n')[0]).toBe('./a.json  (cyclonedx-1.6)');
    expect(formatText([doc('a.json', findings())], quiet)).not.toContain('warning');
  });
});

describe('github', () => {
  it('annotates each finding on its file, line and column, with the rule as title', () => {
    const out = formatGithub(
      [doc('a,b:c.json', findings()), doc('ok.json', []), gone('x.json', '50% gone\r\n')],
      options,
    );
    expect(out).toBe(
      [
        '::warning file=a%2Cb%3Ac.json,line=3,col=17,title=bom/serial-number-nil::bom/serial-number-nil broke at /serialNumber',
        '::error file=a%2Cb%3Ac.json,line=5,col=3,title=bom/version::bom/version broke at /version',
        '::error file=a%2Cb%3Ac.json,title=schema/type::not an object',
        '::error file=x.json,title=bomwright::50%25 gone%0D%0A',
        'bomwright: 2 errors, 1 warning in 3 documents',
        '',
      ].join('\n'),
    );
  });

  it('gives only the summary when there is nothing to annotate, and a column of 1 when none is known', () => {
    expect(formatGithub([doc('ok.json', [])], options)).toBe('bomwright: 0 errors, 0 warnings in 1 document\n');
    expect(formatGithubSummary([doc('a.json', [d('bom/version')])])).toBe(
      'bomwright: 1 error, 0 warnings in 1 document\n',
    );
    expect(formatGithub([doc('a.json', [d('bom/version', { line: 2 })])], quiet).split('\n')[0]).toBe(
      '::error file=a.json,line=2,col=1,title=bom/version::bom/version broke at /p',
    );
    expect(formatGithub([doc('a.json', findings())], quiet)).not.toContain('::warning');
  });
});

describe('json', () => {
  it('gives the tool, the totals and each document with its verdict, counts and visible diagnostics', () => {
    const text = formatReports(
      'json',
      [doc('a.json', findings(), null), doc('b.json', []), gone('c.json'), { path: 'd', uri: 'd' }],
      quiet,
    );
    expect(text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(text)).toEqual({
      reportVersion: 1,
      tool: { name: 'bomwright', version: '9.8.7' },
      summary: { documents: 4, errors: 2, warnings: 1, invalid: 1, unreadable: 1 },
      documents: [
        { path: 'a.json', valid: false, errors: 2, warnings: 1, diagnostics: findings().slice(1) },
        { path: 'b.json', format: 'cyclonedx-1.6', valid: true, errors: 0, warnings: 0, diagnostics: [] },
        { path: 'c.json', valid: false, errors: 0, warnings: 0, failure: 'E_READ: Cannot read it', diagnostics: [] },
        { path: 'd', valid: false, errors: 0, warnings: 0, diagnostics: [] },
      ],
    });
    const shard = { index: 1, count: 2, settings: 'abc' };
    expect(JSON.parse(formatReports('json', [], { ...options, shard })).shard).toEqual(shard);
  });

  it('is not valid when a document was unreadable even if a result says valid', () => {
    const both: FileReport = { ...doc('a.json', []), failure: 'E_READ: later' };
    expect(JSON.parse(formatReports('json', [both], options)).documents[0]).toMatchObject({
      valid: false,
      failure: 'E_READ: later',
    });
  });
});

describe('junit', () => {
  it('makes a failure of errors, lists every finding, and prints warnings-only documents as output', () => {
    const out = formatJunit(
      [
        doc('a.json', findings()),
        doc('w.json', [
          d('bom/serial-number-nil', { line: 2, column: 9 }),
          d('bom/serial-number-nil', { pointer: '' }),
        ]),
        doc('one.json', [d('bom/version', { pointer: '' })]),
        doc('ok.json', []),
        gone('x.json', 'E_READ: <gone>'),
      ],
      options,
    );
    expect(out).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="bomwright" tests="5" failures="3">',
        '  <testsuite name="bomwright validate" tests="5" failures="3" errors="0" skipped="0">',
        '    <testcase classname="bomwright.validate" name="a.json">',
        '      <failure message="2 errors: bom/version broke" type="bom/version">a.json:3:17 warning bom/serial-number-nil broke at /serialNumber [bom/serial-number-nil]',
        'a.json:5:3 error bom/version broke at /version [bom/version]',
        'a.json:1:1 error not an object [schema/type]</failure>',
        '    </testcase>',
        '    <testcase classname="bomwright.validate" name="w.json">',
        '      <system-out>w.json:2:9 warning bom/serial-number-nil broke at /p [bom/serial-number-nil]',
        'w.json:1:1 warning bom/serial-number-nil broke [bom/serial-number-nil]</system-out>',
        '    </testcase>',
        '    <testcase classname="bomwright.validate" name="one.json">',
        '      <failure message="1 error: bom/version broke" type="bom/version">one.json:1:1 error bom/version broke [bom/version]</failure>',
        '    </testcase>',
        '    <testcase classname="bomwright.validate" name="ok.json"/>',
        '    <testcase classname="bomwright.validate" name="x.json">',
        '      <failure message="E_READ: &lt;gone&gt;" type="io"/>',
        '    </testcase>',
        '  </testsuite>',
        '</testsuites>',
        '',
      ].join('\n'),
    );
  });

  it('stamps a shard, passes warnings-only documents under --quiet, and unescapes names', () => {
    const out = formatJunit([doc('w.json', [d('bom/serial-number-nil')])], {
      ...quiet,
      shard: { index: 2, count: 3, settings: 'a"b' },
    });
    expect(out.split('\n').slice(1, 8)).toEqual([
      '<testsuites name="bomwright" tests="1" failures="0">',
      '  <testsuite name="bomwright validate" tests="1" failures="0" errors="0" skipped="0">',
      '    <properties>',
      '      <property name="bomwright.shard" value="2/3"/>',
      '      <property name="bomwright.settings" value="a&quot;b"/>',
      '    </properties>',
      '    <testcase classname="bomwright.validate" name="w.json"/>',
    ]);
    expect(unescapeXml('a&lt;b&gt;&amp;&quot;c&quot;&amp;lt;')).toBe('a<b>&"c"&lt;');
  });
});

describe('sarif', () => {
  it('maps severities, places, values and pointers into results, and failures into notifications', () => {
    const log = JSON.parse(formatSarif([doc('a b.json', findings()), gone('x.json')], options));
    const run = log.runs[0];
    const artifactLocation = { uri: 'a%20b.json', uriBaseId: '%SRCROOT%' };
    expect(run.results).toEqual([
      {
        ruleId: 'bom/serial-number-nil',
        ruleIndex: RULE_IDS.indexOf('bom/serial-number-nil'),
        level: 'warning',
        message: { text: 'bom/serial-number-nil broke' },
        locations: [
          {
            physicalLocation: { artifactLocation, region: { startLine: 3, startColumn: 17 } },
            logicalLocations: [{ fullyQualifiedName: '/serialNumber', kind: 'member' }],
          },
        ],
      },
      {
        ruleId: 'bom/version',
        ruleIndex: RULE_IDS.indexOf('bom/version'),
        level: 'error',
        message: { text: 'bom/version broke (value: 0)' },
        locations: [
          {
            physicalLocation: { artifactLocation, region: { startLine: 5, startColumn: 3 } },
            logicalLocations: [{ fullyQualifiedName: '/version', kind: 'member' }],
          },
        ],
      },
      {
        ruleId: 'schema/type',
        ruleIndex: RULE_IDS.indexOf('schema/type'),
        level: 'error',
        message: { text: 'not an object' },
        locations: [{ physicalLocation: { artifactLocation } }],
      },
    ]);
    expect(run.invocations).toEqual([
      {
        executionSuccessful: false,
        toolExecutionNotifications: [
          {
            level: 'error',
            message: { text: 'x.json: E_READ: Cannot read it' },
            locations: [{ physicalLocation: { artifactLocation: { uri: 'x.json', uriBaseId: '%SRCROOT%' } } }],
          },
        ],
      },
    ]);
    expect(run.originalUriBaseIds).toEqual({ '%SRCROOT%': { description: { text: 'The repository root' } } });
  });

  it('names the tool and gives each rule its default level; a clean run is successful and has no results', () => {
    const text = formatSarif([doc('a.json', [d('bom/version', { line: 4 })])], quiet);
    expect(text.endsWith('}\n')).toBe(true);
    const run = JSON.parse(text).runs[0];
    expect(run.results[0].locations[0].physicalLocation.region).toEqual({ startLine: 4, startColumn: 1 });
    expect(run.tool.driver).toMatchObject({ name: 'bomwright', version: '9.8.7' });
    const levels = Object.fromEntries(
      run.tool.driver.rules.map((r: { id: string; defaultConfiguration: { level: string } }) => [
        r.id,
        r.defaultConfiguration.level,
      ]),
    );
    expect(levels['bom/version']).toBe('error');
    expect(levels['bom/serial-number-nil']).toBe('warning');
    for (const id of RULE_IDS) expect(levels[id]).toBe(RULES[id].severity === 'error' ? 'error' : 'warning');
    const clean = JSON.parse(formatSarif([doc('a.json', [d('bom/serial-number-nil')])], quiet)).runs[0];
    expect(clean.results).toEqual([]);
    expect(clean.invocations).toEqual([{ executionSuccessful: true, toolExecutionNotifications: [] }]);
  });
});

describe('job summary', () => {
  it('keeps table cells on one line and escapes pipes and backticks', () => {
    const text = formatJobSummary([
      { path: 'a', uri: 'a|b`c\r\nd\n\ne.json', result: { diagnostics: [], errors: 0, warnings: 0, valid: true } },
      { path: 'x', uri: 'x.json' },
    ]);
    expect(text.split('\n').slice(6, 8)).toEqual([
      "| `a\\|b'c d e.json` |  | ✅ valid | 0 | 0 |",
      '| `x.json` |  | ❌ invalid | 0 | 0 |',
    ]);
  });

  it('links the artifacts only when the server, the repository and the run are all known', () => {
    const all = { GITHUB_SERVER_URL: 'https://ghe.example', GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '1 2' };
    expect(artifactsUrl(all)).toBe('https://ghe.example/o/r/actions/runs/1%202#artifacts');
    for (const name of Object.keys(all)) expect(artifactsUrl({ ...all, [name]: '' }), name).toBeUndefined();
    const lines = formatJobSummary([doc('a.json', [])], { file: 'r.html', artifactsUrl: 'https://x/(a)' }).split('\n');
    expect(lines.slice(-2)).toEqual([
      "The full report, with each document's findings, signatures, version rule and dependency graph, is `r.html` among [this run's artifacts](https://x/(a%29) once uploaded.",
      '',
    ]);
    expect(
      formatJobSummary([doc('a.json', [])], { file: 'r.html' })
        .split('\n')
        .slice(-2),
    ).toEqual([
      "The full report, with each document's findings, signatures, version rule and dependency graph, is `r.html`.",
      '',
    ]);
  });
});

describe('diff', () => {
  const none = () => ({ added: [], removed: [], changed: [] });
  const empty = (): BomDiff => ({
    identical: false,
    document: [],
    metadata: { members: [], changes: [] },
    components: none(),
    services: none(),
    dependencies: none(),
  });

  it('says so when the documents are the same, as text or JSON', () => {
    expect(formatDiffText({ ...empty(), identical: true })).toBe('No differences\n');
    expect(formatDiff('text', { ...empty(), identical: true })).toBe('No differences\n');
    const json = formatDiff('json', { ...empty(), identical: true });
    expect(json).toBe(`${JSON.stringify({ ...empty(), identical: true }, null, 2)}\n`);
  });

  it('writes one line per change: members, elements, and dependencies with what they gained and lost', () => {
    const diff: BomDiff = {
      ...empty(),
      document: [{ path: 'version', old: '1', new: '2' }],
      metadata: { members: ['timestamp'], changes: [{ path: 'metadata.timestamp', new: 't' }] },
      components: {
        added: [{ label: 'pkg:npm/a@1', pointer: '/components/0' }],
        removed: [{ label: 'b', pointer: '/components/1' }],
        changed: [
          {
            label: 'c',
            pointer: '/components/2',
            oldPointer: '/components/2',
            matchedBy: 'bom-ref',
            changes: [{ path: 'version', old: '1' }],
          },
        ],
      },
      services: { ...none(), added: [{ label: 's', pointer: '/services/0' }] },
      dependencies: {
        added: [
          { ref: 'x', dependsOn: ['y', 'z'], provides: [] },
          { ref: 'lone', dependencyType: 'optional', dependsOn: [], provides: [] },
        ],
        removed: [{ ref: 'old', dependencyType: 'dev', dependsOn: ['q'], provides: [] }],
        changed: [
          { ref: 'a', dependsOnAdded: ['b', 'c'], dependsOnRemoved: ['d'], providesAdded: [], providesRemoved: [] },
          { ref: 'p', dependsOnAdded: [], dependsOnRemoved: [], providesAdded: ['i'], providesRemoved: ['j', 'k'] },
          {
            ref: 'm',
            dependencyType: 'x',
            dependsOnAdded: [],
            dependsOnRemoved: ['n'],
            providesAdded: ['o'],
            providesRemoved: [],
          },
        ],
      },
    };
    expect(formatDiff('text', diff)).toBe(
      [
        '~ version: 1 → 2',
        '~ metadata.timestamp: (none) → t',
        '+ component pkg:npm/a@1',
        '- component b',
        '~ component c version: 1 → (none)',
        '+ service s',
        '+ dependency x → y, z',
        '+ dependency lone (optional)',
        '- dependency old (dev)',
        '~ dependency a dependsOn +b +c -d',
        '~ dependency p provides +i -j -k',
        '~ dependency m (x) dependsOn -n; provides +o',
        '',
      ].join('\n'),
    );
  });
});

describe('explain and verify', () => {
  it('end each JSON report with one newline', () => {
    expect(formatRulePage('bom/version', 'json').endsWith('}\n')).toBe(true);
    expect(formatRuleList('json').endsWith(']\n')).toBe(true);
    expect(formatRuleList('text').endsWith('page.\n')).toBe(true);
  });

  it('counts trusted signers among the valid ones', () => {
    const signer = (trust: SignerReport['trust']): SignerReport => ({
      pointer: '/signature',
      signedPointer: '',
      shape: 'single',
      keySource: 'publicKey',
      verdict: 'valid',
      trust,
    });
    const out = formatVerify('text', [
      { path: 'a.json', ok: true, signatures: [signer('trusted'), signer('trusted'), signer('untrusted')] },
    ]);
    expect(out.split('\n').at(-2)).toBe('3 signatures in 1 document: 3 valid (2 trusted), 0 not valid');
  });
});
