import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import { parseRulePage, plainText, projectUrls } from '../../src/build/rule-pages.js';
import { formatReports, RULE_IDS, validate, type FileReport } from '../../src/index.js';
import { minimalBom, ROOT } from '../helpers.js';

const require = createRequire(import.meta.url);
const options = { toolVersion: '0.0.0-test' };

async function reports(): Promise<FileReport[]> {
  const bad = JSON.stringify(
    minimalBom('1.6', { version: 0, serialNumber: 'urn:uuid:00000000-0000-0000-0000-000000000000', 'x,y': 1 }),
    null,
    2,
  );
  return [
    { path: 'boms/ok.json', uri: 'boms/ok.json', result: await validate(JSON.stringify(minimalBom('1.6'))) },
    { path: 'boms/bad file.json', uri: 'boms/bad file.json', result: await validate(bad) },
    { path: 'boms/gone.json', uri: 'boms/gone.json', failure: 'E_READ: Cannot read boms/gone.json: permission denied' },
  ];
}

describe('SARIF', () => {
  it('validates against the SARIF 2.1.0 schema', async () => {
    const schemaFile = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
    const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as object;
    // CommonJS default export, mistyped under NodeNext.
    const Ajv04 = (AjvDraft04 as unknown as { default: typeof AjvDraft04 }).default ?? AjvDraft04;
    const ajv = new (Ajv04 as unknown as new (options: object) => import('ajv').default)({
      allErrors: true,
      strict: false,
      validateFormats: false,
      unicodeRegExp: false,
    });
    const check = ajv.compile(schema);
    const log = JSON.parse(formatReports('sarif', await reports(), options)) as unknown;
    expect(check(log), JSON.stringify(check.errors, null, 2)).toBe(true);
    // A shard's log too: its stamp is an invocation's property bag.
    const shard = { index: 2, count: 4, settings: '0123456789abcdef' };
    const stamped = JSON.parse(formatReports('sarif', await reports(), { ...options, shard }));
    expect(stamped.runs[0].invocations[0].properties).toEqual({ shard: { ...shard, documents: 3 } });
    expect(check(stamped), JSON.stringify(check.errors, null, 2)).toBe(true);
  });

  it('uses repository-relative URIs, stable rule ids and rule indexes', async () => {
    const log = JSON.parse(formatReports('sarif', await reports(), options));
    const run = log.runs[0];
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(RULE_IDS);
    expect(run.results).toHaveLength(3);
    for (const result of run.results) {
      expect(run.tool.driver.rules[result.ruleIndex].id).toBe(result.ruleId);
      expect(result.locations[0].physicalLocation.artifactLocation).toEqual({
        uri: 'boms/bad%20file.json',
        uriBaseId: '%SRCROOT%',
      });
      expect(result.locations[0].physicalLocation.region.startLine).toBeGreaterThan(0);
    }
    expect(run.results.map((r: { ruleId: string; level: string }) => [r.ruleId, r.level])).toEqual([
      ['bom/serial-number-nil', 'warning'],
      ['bom/version', 'error'],
      ['schema/additional-property', 'error'],
    ]);
    expect(run.invocations[0].executionSuccessful).toBe(false);
    expect(run.invocations[0].toolExecutionNotifications[0].message.text).toContain('permission denied');
  });

  it("gives each rule its page: the address, the page as help and its 'What it checks' as full description", async () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const { homepage, rulePages } = projectUrls(pkg);
    expect(rulePages).toBe('https://github.com/bomwright/bomwright/blob/main/docs/rules/');
    const text = formatReports('sarif', await reports(), options);
    const driver = JSON.parse(text).runs[0].tool.driver;
    expect(driver.informationUri).toBe(homepage);
    for (const rule of driver.rules) {
      const page = readFileSync(path.join(ROOT, 'docs/rules', `${rule.id}.md`), 'utf8');
      const checks = parseRulePage(page).sections.find((s) => s.name === 'What it checks')!.body;
      expect(rule.helpUri).toBe(`${rulePages}${rule.id}.md`);
      expect(rule.help).toEqual({ text: page, markdown: page });
      expect(rule.fullDescription).toEqual({ text: plainText(checks), markdown: checks });
      expect(rule.fullDescription.text).not.toMatch(/`|\*\*|\n/);
    }
    // Deterministic: the same reports give the same bytes.
    expect(formatReports('sarif', await reports(), options)).toBe(text);
  });
});

describe('text', () => {
  it('groups by file with file:line:col, severity, message and rule id, then a summary', async () => {
    const out = formatReports('text', await reports(), options);
    expect(out).toContain('boms/bad file.json  (cyclonedx-1.6)\n');
    expect(out).toMatch(
      / {2}boms\/bad file\.json:\d+:\d+ {2}error {2}version must be a whole number from 1 to 2\^53 - 1 at \/version {2}bom\/version\n/,
    );
    expect(out).toMatch(/boms\/bad file\.json:\d+:\d+ {2}warning {2}serialNumber is the nil UUID/);
    expect(out).not.toContain('boms/ok.json');
    expect(out).toContain('boms/gone.json: E_READ: Cannot read boms/gone.json: permission denied');
    expect(out.trimEnd().split('\n').at(-1)).toBe('2 errors, 1 warning, 1 input unreadable in 3 documents (1 invalid)');
  });

  it('--quiet drops warnings', async () => {
    const out = formatReports('text', await reports(), { ...options, quiet: true });
    expect(out).not.toContain('warning');
  });

  it('says how many documents are valid when all are', async () => {
    const all = (await reports()).slice(0, 1);
    expect(formatReports('text', all, options)).toBe('1 document valid\n');
  });
});

describe('json', () => {
  it('lists every document with its verdict and diagnostics', async () => {
    const out = JSON.parse(formatReports('json', await reports(), options));
    expect(out.summary).toEqual({ documents: 3, errors: 2, warnings: 1, invalid: 1, unreadable: 1 });
    expect(out.documents.map((d: { path: string; valid: boolean }) => [d.path, d.valid])).toEqual([
      ['boms/ok.json', true],
      ['boms/bad file.json', false],
      ['boms/gone.json', false],
    ]);
    expect(out.documents[1].diagnostics[0]).toMatchObject({
      ruleId: expect.any(String),
      severity: expect.any(String),
      pointer: expect.any(String),
      line: expect.any(Number),
    });
  });
});

describe('junit', () => {
  it('makes one test case per document and a failure per invalid or unreadable one', async () => {
    const out = formatReports('junit', await reports(), options);
    expect(out).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="bomwright" tests="3" failures="2">/,
    );
    expect(out).toContain('<testcase classname="bomwright.validate" name="boms/ok.json"/>');
    expect(out).toContain(
      '<failure message="2 errors: version must be a whole number from 1 to 2^53 - 1" type="bom/version">',
    );
    expect(out).toContain('type="io"');
  });

  it('escapes markup and characters XML cannot carry', async () => {
    const report: FileReport = {
      path: 'a<&>"\u0001.json',
      uri: 'a<&>"\u0001.json',
      failure: 'E_READ: <bad> & "worse"',
    };
    const out = formatReports('junit', [report], options);
    expect(out).toContain('name="a&lt;&amp;&gt;&quot;\uFFFD.json"');
    expect(out).toContain('message="E_READ: &lt;bad&gt; &amp; &quot;worse&quot;"');
  });
});

describe('github', () => {
  it('emits workflow commands with escaped properties and data', async () => {
    const out = formatReports('github', await reports(), options).split('\n');
    expect(out).toContain(
      '::error file=boms/bad file.json,line=5,col=3,title=bom/version::version must be a whole number from 1 to 2^53 - 1 at /version',
    );
    expect(
      out.some(
        (l) => l.startsWith('::warning file=boms/bad file.json,') && l.includes('title=bom/serial-number-nil::'),
      ),
    ).toBe(true);
    // Commas and colons are escaped in properties only; the message keeps them.
    expect(out.find((l) => l.includes('Unknown member'))).toBe(
      '::error file=boms/bad file.json,line=6,col=3,title=schema/additional-property::Unknown member "x,y" at /x,y',
    );
  });

  it('escapes newlines, percent signs and property delimiters', () => {
    const report: FileReport = { path: 'a:b,c.json', uri: 'a:b,c.json', failure: '100% broken\nreally' };
    expect(formatReports('github', [report], options).split('\n')[0]).toBe(
      '::error file=a%3Ab%2Cc.json,title=bomwright::100%25 broken%0Areally',
    );
  });
});
