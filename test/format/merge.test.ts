import { describe, expect, it } from 'vitest';
import {
  BomwrightError,
  formatReports,
  mergeReports,
  validate,
  type FileReport,
  type MergeFormat,
  type ReportOptions,
  type ReportText,
  type ShardStamp,
} from '../../src/index.js';
import { minimalBom } from '../helpers.js';

const FORMATS: readonly MergeFormat[] = ['json', 'sarif', 'junit'];
const SETTINGS = '0123456789abcdef';
const options: ReportOptions = { toolVersion: '0.0.0-test' };

const nilSerial = { serialNumber: 'urn:uuid:00000000-0000-0000-0000-000000000000' };

/**
 * Documents whose uris order differently once encoded: percent-encoding (`+` is encoded, `(` is not), XML
 * escaping (`&lt;` sorts before `;`), UTF-16 against code points (an emoji's surrogates sort before U+FF01),
 * a line break (a JUnit name over two lines), and one of each verdict.
 */
async function allReports(): Promise<FileReport[]> {
  const text = (extra: Record<string, unknown>) => JSON.stringify(minimalBom('1.6', extra), null, 2);
  const valid = await validate(text({}));
  const invalid = await validate(text({ version: 0 }));
  const warned = await validate(text(nilSerial));
  const both = await validate(text({ ...nilSerial, version: 0, extra: 1 }));
  const entries: [string, FileReport['result'] | string][] = [
    ['a(b.json', invalid],
    ['a+b.json', both],
    ['a;b.json', warned],
    ['a<b.json', invalid],
    ['boms/ok.json', valid],
    ['boms/gone.json', 'E_READ: Cannot read boms/gone.json: permission denied'],
    ['boms/\u{1F600}.json', invalid],
    ['boms/\uFF01.json', warned],
    ['boms/two\nlines.json', both],
    ['boms/Upper.json', invalid],
    ['boms/space d.json', valid],
    ['z/\u00e9.json', both],
    // Apart only by the line break (0x0A sorts before 0): the junit name keeps it.
    ['z/a\nb.json', invalid],
    ['z/a0.json', warned],
  ];
  const reports = entries.map(([uri, outcome]) =>
    typeof outcome === 'string' ? { path: uri, uri, failure: outcome } : { path: uri, uri, result: outcome! },
  );
  return reports.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
}

/** Each report goes to shard (position * 7 mod count) + 1: any split will do, as long as it is one. */
function split(reports: readonly FileReport[], count: number): FileReport[][] {
  const shards: FileReport[][] = Array.from({ length: count }, () => []);
  reports.forEach((report, i) => shards[(i * 7) % count]!.push(report));
  return shards;
}

function stamp(index: number, count: number, settings = SETTINGS): ShardStamp {
  return { index, count, settings };
}

function shardTexts(
  format: MergeFormat,
  reports: readonly FileReport[],
  count: number,
  reportOptions: ReportOptions = options,
): ReportText[] {
  return split(reports, count).map((shard, i) => ({
    name: `shard-${i + 1}.${format}`,
    text: formatReports(format, shard, { ...reportOptions, shard: stamp(i + 1, count) }),
  }));
}

function mergeError(run: () => unknown): BomwrightError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(BomwrightError);
    return error as BomwrightError;
  }
  throw new Error('expected mergeReports to refuse');
}

describe('mergeReports: the same bytes as one run', () => {
  it.each(FORMATS)('%s: any number of shards, any order, with and without --quiet', async (format) => {
    const reports = await allReports();
    for (const quiet of [false, true]) {
      const reportOptions = { ...options, quiet };
      const single = formatReports(format, reports, reportOptions);
      for (const count of [1, 2, 3, 4, 7, 12]) {
        const texts = shardTexts(format, reports, count, reportOptions);
        const merged = mergeReports([...texts].reverse());
        expect(merged.text, `${format} ${count} quiet=${quiet}`).toBe(single);
        expect(merged).toMatchObject({ format, documents: reports.length, shards: count });
      }
    }
  });

  it.each(FORMATS)('%s: a shard that no document fell to merges', async (format) => {
    const reports = await allReports();
    // Fourteen reports over twenty shards: shard 20, among others, gets none.
    const texts = shardTexts(format, reports, 20);
    expect(texts.at(-1)!.text).toBe(formatReports(format, [], { ...options, shard: stamp(20, 20) }));
    expect(mergeReports(texts).text).toBe(formatReports(format, reports, options));
  });

  it('copies the tool and its rules from the shards rather than from this version of bomwright', async () => {
    const reports = await allReports();
    const texts = shardTexts('sarif', reports, 3).map(({ name, text }) => {
      const log = JSON.parse(text);
      for (const rule of log.runs[0].tool.driver.rules) rule.help.markdown = `More about ${rule.id}`;
      log.runs[0].columnKind = 'utf16CodeUnits';
      return { name, text: JSON.stringify(log, null, 2) + '\n' };
    });
    const merged = JSON.parse(mergeReports(texts).text);
    expect(merged.runs[0].tool.driver.rules[0].help.markdown).toMatch(/^More about /);
    expect(merged.runs[0].columnKind).toBe('utf16CodeUnits');
    const single = JSON.parse(formatReports('sarif', reports, options));
    expect(merged.runs[0].results).toEqual(single.runs[0].results);
  });

  it('recomputes the json summary and the sarif and junit counts', async () => {
    const reports = await allReports();
    const json = JSON.parse(mergeReports(shardTexts('json', reports, 3)).text);
    const single = JSON.parse(formatReports('json', reports, options));
    expect(json.summary).toEqual(single.summary);
    expect(json.summary).toEqual({ documents: 14, errors: 11, warnings: 6, invalid: 8, unreadable: 1 });
    expect(json.shard).toBeUndefined();
    const sarif = JSON.parse(mergeReports(shardTexts('sarif', reports, 3)).text);
    expect(sarif.runs[0].invocations[0]).not.toHaveProperty('properties');
    expect(sarif.runs[0].invocations[0].executionSuccessful).toBe(false);
    const junit = mergeReports(shardTexts('junit', reports, 3)).text;
    expect(junit).toContain('<testsuites name="bomwright" tests="14" failures="9">');
    expect(junit).not.toContain('<properties>');
  });

  it('keeps an invocation property that is not the stamp, and a successful run without notifications', async () => {
    const reports = (await allReports()).filter((r) => r.failure === undefined);
    const texts = shardTexts('sarif', reports, 2).map(({ name, text }) => {
      const log = JSON.parse(text);
      log.runs[0].invocations[0].properties.note = 'kept';
      return { name, text: JSON.stringify(log, null, 2) + '\n' };
    });
    const invocation = JSON.parse(mergeReports(texts).text).runs[0].invocations[0];
    expect(invocation).toEqual({
      executionSuccessful: true,
      toolExecutionNotifications: [],
      properties: { note: 'kept' },
    });
    // Such a property is part of what every shard must share.
    const other = JSON.parse(texts[1]!.text);
    other.runs[0].invocations[0].properties.note = 'changed';
    expect(
      mergeError(() => mergeReports([texts[0]!, { name: 'b', text: JSON.stringify(other, null, 2) + '\n' }])).message,
    ).toBe('b: differs from shard-1.sarif outside its documents (tool, rules or report layout)');
  });

  it('takes the format from the option or the first report', async () => {
    const texts = shardTexts('junit', await allReports(), 2);
    expect(mergeReports(texts, { format: 'junit' }).format).toBe('junit');
    expect(mergeError(() => mergeReports(texts, { format: 'sarif' })).message).toBe(
      'shard-1.junit: is a junit report, not sarif: merge the reports of one format',
    );
  });
});

describe('mergeReports: what it refuses', () => {
  it('nothing to merge, and a run whose shards found no document', () => {
    const none = mergeError(() => mergeReports([]));
    expect([none.code, none.message]).toEqual(['E_USAGE', 'Name the shard reports to merge']);
    for (const format of FORMATS) {
      const texts = [1, 2].map((index) => ({
        name: `s${index}`,
        text: formatReports(format, [], { ...options, shard: stamp(index, 2) }),
      }));
      const error = mergeError(() => mergeReports(texts));
      expect([error.code, error.message]).toEqual(['E_NO_MATCH', 'No BOM documents in any of the 2 shards']);
    }
  });

  it('a mix of formats', async () => {
    const reports = await allReports();
    const texts = [shardTexts('json', reports, 2)[0]!, shardTexts('sarif', reports, 2)[1]!];
    const error = mergeError(() => mergeReports(texts));
    expect([error.code, error.message]).toEqual([
      'E_MERGE',
      'shard-2.sarif: is a sarif report, not json: merge the reports of one format',
    ]);
  });

  it.each([
    ['text', 'bomwright: 0 errors\n', 'is neither JSON nor JUnit XML'],
    ['JSON of something else', '{"documents": []}', 'is not a json, sarif or junit report of bomwright validate'],
    ['a JSON array', '[1]', 'is not a json, sarif or junit report of bomwright validate'],
    ['JSON null', 'null', 'is not a json, sarif or junit report of bomwright validate'],
    ['another JSON report version', '{"reportVersion": 2}', 'has reportVersion 2, not 1'],
    ['XML of something else', '<?xml version="1.0"?>\n<a/>\n', 'is not JUnit XML as bomwright validate writes it'],
    ['very deep JSON', `{"reportVersion": 1, "x": ${'['.repeat(5000)}${']'.repeat(5000)}}`, 'nests deeper than 32'],
  ])('a file that is not a report: %s', (_, text, message) => {
    const error = mergeError(() => mergeReports([{ name: 'x.out', text }]));
    expect(error.code).toBe('E_MERGE');
    expect(error.message).toContain(`x.out: ${message}`);
  });

  it('json: nesting up to 32 levels, and not one more', async () => {
    const reports = await allReports();
    const [one, two] = shardTexts('json', reports, 2);
    // report → documents → document → diagnostics → diagnostic → extra: the arrays add the rest.
    const nested = (levels: number) => {
      const report = JSON.parse(two!.text);
      let value: unknown = 1;
      for (let i = 0; i < levels; i++) value = [value];
      report.documents[0].diagnostics.push({ extra: value });
      return { name: 'b', text: JSON.stringify(report, null, 2) + '\n' };
    };
    expect(mergeReports([one!, nested(27)]).documents).toBe(reports.length);
    expect(mergeError(() => mergeReports([one!, nested(28)])).message).toBe(
      'b: nests deeper than 32 levels, which no bomwright report does',
    );
  });

  it.each(FORMATS)('%s: a report that is not a shard report', async (format) => {
    const text = formatReports(format, await allReports(), options);
    expect(mergeError(() => mergeReports([{ name: 'all', text }])).message).toBe(
      'all: is not a shard report (it has no shard stamp): merge the reports of validate --shard I/N runs',
    );
  });

  it.each(FORMATS)('%s: shards of different runs', async (format) => {
    const reports = await allReports();
    const [one, two] = shardTexts(format, reports, 2);
    const otherCount = formatReports(format, [], { ...options, shard: stamp(2, 3) });
    expect(mergeError(() => mergeReports([one!, { name: 'b', text: otherCount }])).message).toBe(
      'b: is shard 2/3 but shard-1.' + format + ' is shard 1/2: merge the shards of one run',
    );
    const otherSettings = formatReports(format, split(reports, 2)[1]!, {
      ...options,
      shard: stamp(2, 2, 'ffffffffffffffff'),
    });
    expect(mergeError(() => mergeReports([one!, { name: 'b', text: otherSettings }])).message).toMatch(
      /^b: comes from another run than shard-1\.\w+ \(other operands, options or bomwright version\)/,
    );
    // The same stamps, yet another version of the tool wrote one: its frame differs.
    const otherTool = formatReports(format, split(reports, 2)[1]!, {
      toolVersion: '9.9.9',
      shard: stamp(2, 2),
    });
    if (format !== 'junit')
      expect(mergeError(() => mergeReports([one!, { name: 'b', text: otherTool }])).message).toBe(
        `b: differs from shard-1.${format} outside its documents (tool, rules or report layout)`,
      );
    expect(mergeReports([one!, two!]).documents).toBe(reports.length);
  });

  it.each(FORMATS)('%s: a shard twice, shards missing, and overlapping shards', async (format) => {
    const reports = await allReports();
    const texts = shardTexts(format, reports, 4);
    expect(mergeError(() => mergeReports([...texts, { ...texts[1]!, name: 'again' }])).message).toBe(
      `again: is shard 2/4, and so is shard-2.${format}`,
    );
    const missing = mergeError(() => mergeReports(texts.slice(0, 3)));
    expect([missing.code, missing.message]).toEqual([
      'E_MERGE',
      "shard 4/4 is missing: the merged report needs every shard's report",
    ]);
    expect(mergeError(() => mergeReports([texts[1]!, texts[3]!])).message).toBe(
      "shards 1/4, 3/4 are missing: the merged report needs every shard's report",
    );
    // A stamp that claims many shards: five are named, the rest counted.
    const many = formatReports(format, reports, { ...options, shard: stamp(3, 999_999) });
    expect(mergeError(() => mergeReports([{ name: 'many', text: many }])).message).toBe(
      "shards 1/999999, 2/999999, 4/999999, 5/999999, 6/999999 and 999993 more are missing: the merged report needs every shard's report",
    );
    const tooMany = formatReports(format, reports, { ...options, shard: stamp(1, 1_000_000) });
    expect(mergeError(() => mergeReports([{ name: 'x', text: tooMany }])).message).toBe(
      'x: has a shard stamp that is not one bomwright writes',
    );
    // Two stamps that claim the whole run each, over the same documents.
    const overlapping = [1, 2].map((index) => ({
      name: `o${index}`,
      text: formatReports(format, reports, { ...options, shard: stamp(index, 2) }),
    }));
    expect(mergeError(() => mergeReports(overlapping)).message).toBe(
      `o2: has ${JSON.stringify(reports[0]!.uri)}, and so has o1: the shards overlap`,
    );
  });

  it('json: a summary or document entry that is not what bomwright writes', async () => {
    const [one, two] = shardTexts('json', await allReports(), 2);
    const edit = (change: (report: { summary: { errors: number }; documents: Record<string, unknown>[] }) => void) => {
      const report = JSON.parse(two!.text);
      change(report);
      return () => mergeReports([one!, { name: 'b', text: JSON.stringify(report, null, 2) + '\n' }]);
    };
    expect(mergeError(edit((r) => (r.summary.errors += 1))).message).toBe(
      'b: has a summary that does not match its documents',
    );
    for (const change of [
      (d: Record<string, unknown>) => delete d.path,
      (d: Record<string, unknown>) => (d.valid = 'yes'),
      (d: Record<string, unknown>) => (d.errors = -1),
      (d: Record<string, unknown>) => (d.warnings = 1.5),
      (d: Record<string, unknown>) => (d.failure = 3),
      (d: Record<string, unknown>) => delete d.diagnostics,
    ])
      expect(mergeError(edit((r) => change(r.documents[0]!))).message).toBe(
        'b: has a document entry that is not one bomwright writes',
      );
    expect(mergeError(edit((r) => ((r as unknown as Record<string, unknown>).documents = {}))).message).toBe(
      'b: has no documents list where bomwright writes one',
    );
  });

  it('sarif: runs, invocations, URIs and counts that are not what bomwright writes', async () => {
    const [one, two] = shardTexts('sarif', await allReports(), 2);
    type Log = {
      runs: Record<string, unknown>[] & { 0: { invocations: Record<string, unknown>[]; results: unknown[] } };
    };
    const edit = (change: (log: Log) => void) => {
      const log = JSON.parse(two!.text) as Log;
      change(log);
      return mergeError(() => mergeReports([one!, { name: 'b', text: JSON.stringify(log, null, 2) + '\n' }])).message;
    };
    expect(edit((l) => l.runs.push({}))).toBe('b: does not hold exactly one SARIF run');
    expect(edit((l) => l.runs[0].invocations.push({}))).toBe('b: does not hold exactly one invocation');
    expect(edit((l) => (l.runs[0].invocations[0]!.executionSuccessful = true))).toBe(
      'b: has an executionSuccessful that does not match its notifications',
    );
    expect(
      edit((l) => delete (l.runs[0].invocations[0]!.properties as { shard: { documents?: number } }).shard.documents),
    ).toBe('b: has a shard stamp without its number of documents');
    expect(
      edit((l) => ((l.runs[0].invocations[0]!.properties as { shard: { documents: number } }).shard.documents = 1)),
    ).toBe('b: names more documents than its stamp says it checked (1)');
    for (const entry of [
      null,
      {},
      { locations: [] },
      { locations: [{}] },
      { locations: [{ physicalLocation: {} }] },
      { locations: [{ physicalLocation: { artifactLocation: {} } }] },
      { locations: [{ physicalLocation: { artifactLocation: { uri: 7 } } }] },
    ])
      expect(edit((l) => (l.runs[0].results[0] = entry))).toBe(
        'b: has a result or notification without an artifact URI',
      );
    const stamp = (l: Log) => (l.runs[0].invocations[0]!.properties as { shard: Record<string, unknown> }).shard;
    for (const [key, value] of [
      ['index', 0],
      ['index', 1.5],
      ['count', 2.5],
      ['count', 0],
      ['settings', 123],
      ['settings', 'xyz0123456789abcdef'],
      ['settings', '0123456789abcdefxyz'],
      ['settings', ''],
    ] as const)
      expect(
        edit((l) => (stamp(l)[key] = value)),
        `${key} ${value}`,
      ).toBe('b: has a shard stamp that is not one bomwright writes');
    expect(
      edit(
        (l) =>
          ((
            l.runs[0].results[0] as { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }
          ).locations[0]!.physicalLocation.artifactLocation.uri = 'a%zz'),
      ),
    ).toBe('b: has an artifact URI that is not percent-encoded text: "a%zz"');
    expect(edit((l) => ((l.runs[0].invocations[0]!.properties as { shard: { index: number } }).shard.index = 3))).toBe(
      'b: has a shard stamp that is not one bomwright writes',
    );
  });

  it('junit: counts, layout and names it cannot place', async () => {
    const reports = await allReports();
    const [one, two] = shardTexts('junit', reports, 2);
    const merge = (text: string) => mergeError(() => mergeReports([one!, { name: 'b', text }])).message;
    expect(merge(two!.text.replace(/ tests="\d+"/, ' tests="99"'))).toBe(
      'b: has tests or failures counts that do not match its test cases',
    );
    expect(merge(two!.text.replace(/failures="(\d+)" errors/, 'failures="99" errors'))).toBe(
      'b: has tests or failures counts that do not match its test cases',
    );
    expect(merge(two!.text.trimEnd())).toBe('b: is not JUnit XML as bomwright validate writes it');
    // Changed in every shard alike, so that only the layout check can tell.
    const both = (from: string | RegExp, to: string) =>
      mergeError(() =>
        mergeReports([one!, two!].map((t, i) => ({ name: `s${i + 1}`, text: t.text.replace(from, to) }))),
      ).message;
    for (const [from, to] of [
      ['<?xml version="1.0" encoding="UTF-8"?>', '<?xml version="1.1" encoding="UTF-8"?>'],
      ['<testsuites ', '<testsuitez '],
      ['  <testsuite ', '  <testsuitez '],
      ['</testsuites>\n', '</testsuites>\n\n'],
    ] as const)
      expect(both(from, to), from).toBe('s1: is not JUnit XML as bomwright validate writes it');
    for (const [from, to] of [
      ['    <properties>', '    <propertiez>'],
      ['    </properties>', '    </propertiez>'],
      ['      <property name="bomwright.shard"', 'x      <property name="bomwright.shard"'],
      [/(bomwright\.shard" value="\d\/2"\/>)/, '$1 '],
      ['      <property name="bomwright.settings"', 'x      <property name="bomwright.settings"'],
      [/(bomwright\.settings" value="\w+"\/>)/, '$1 '],
    ] as const)
      expect(both(from, to), String(from)).toBe(
        's1: is not a shard report (it has no shard stamp): merge the reports of validate --shard I/N runs',
      );
    expect(merge(two!.text.replace('<testsuites name="bomwright"', '<testsuites name="other"'))).toBe(
      'b: differs from shard-1.junit outside its documents (tool, rules or report layout)',
    );
    expect(merge(two!.text.replace('  </testsuite>\n', ''))).toBe(
      'b: is not JUnit XML as bomwright validate writes it',
    );
    expect(merge(two!.text.replace('    <testcase classname="bomwright.validate" name=', '    <testcase name='))).toBe(
      'b: is not JUnit XML as bomwright validate writes it',
    );
    expect(merge(two!.text.replace('    </properties>\n', '    </properties>\n  stray\n'))).toBe(
      'b: is not JUnit XML as bomwright validate writes it',
    );
    expect(merge(two!.text.replace('bomwright.shard" value="2/2"', 'bomwright.shard" value="3/2"'))).toBe(
      'b: has a shard stamp that is not one bomwright writes',
    );
    expect(merge(two!.text.replace(/bomwright\.settings" value="\w+"/, 'bomwright.settings" value="XYZ"'))).toBe(
      'b: has a shard stamp that is not one bomwright writes',
    );
    // A control character in a path is U+FFFD in XML: where it sorts is lost.
    const control: FileReport = { path: 'a\u0001.json', uri: 'a\u0001.json', failure: 'E_READ: gone' };
    const text = formatReports('junit', [control], { ...options, shard: stamp(2, 2) });
    expect(merge(text)).toBe(
      'b: names a document with a character XML cannot carry ("a\uFFFD.json"), so its place is unknown: merge json or sarif reports instead',
    );
  });
});
