/**
 * The paths people walk first (issue 27): usage errors on one line with the nearest name, --max-warnings saying
 * why a run failed, output folders created, normalize/diff/version rule agreeing on which arrays are ordered,
 * diff showing the differing part, and add/set refusing duplicates and near-miss SPDX ids.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { minimalBom, runCli, tempDirs } from '../helpers.js';

const temp = tempDirs();
const ONE_USAGE_LINE = /^bomwright: E_USAGE: [^\n]+\n$/;

/** Every command's usage errors: [arguments, what the one line must say]. */
const USAGE: readonly (readonly [string[], string])[] = [
  [['valdate'], 'unknown command "valdate" (did you mean validate?)'],
  [[], 'Name a command'],
  [
    ['validate', '--max-warning', '0', 'w.json'],
    'unknown option --max-warning for bomwright validate (did you mean --max-warnings?)',
  ],
  [
    ['validate', '--format', 'xml', 'w.json'],
    '--format: "xml" is not one of text, json, sarif, junit, github, html; see "bomwright validate --help"',
  ],
  [['validate', '--signatures', 'verfy', 'w.json'], '(did you mean verify?)'],
  [['validate', 'w.json', '--bogus-flag'], 'unknown option --bogus-flag'],
  [['sign'], 'bomwright sign needs <file>'],
  [['sign', 'w.json'], 'bomwright sign needs --key'],
  [['verify'], 'bomwright verify needs <files>'],
  [['verify', 'w.json', '--trustt', 'k'], '(did you mean --trust?)'],
  [['init'], 'bomwright init needs --output'],
  [['init', '-o', 'x.json', '--format', 'spdx'], '--format: "spdx" is not one of cyclonedx, cbom'],
  [['add'], 'bomwright add needs <kind> and <file>'],
  [
    ['add', 'compnent', 'bom.json'],
    '<kind>: "compnent" is not one of component, service, dependency, property, composition (did you mean component?)',
  ],
  [['add', 'component'], 'bomwright add needs <file>'],
  [['add', 'component', 'bom.json', '--nmae', 'x'], '(did you mean --name?)'],
  [['add', 'dependency', 'bom.json', '--dependency-type', 'usess'], '(did you mean uses?)'],
  [['set'], 'bomwright set needs <file> and <pointer>'],
  [['set', 'bom.json', 'metadata.licenses'], 'bomwright set needs <value>'],
  [['bump'], 'bomwright bump needs <file>'],
  [['bump', 'bom.json', '--bogus'], 'unknown option --bogus'],
  [['normalize'], 'bomwright normalize needs <file>'],
  [['normalize', 'bom.json', '--chek'], '(did you mean --check?)'],
  [['normalize', 'a', 'b'], 'unexpected argument "b" for bomwright normalize'],
  [['diff'], 'bomwright diff needs <old> and <new>'],
  [['diff', 'a.json'], 'bomwright diff needs <new>'],
  [['diff', 'a.json', 'b.json', '--format', 'yaml'], '--format: "yaml" is not one of text, json'],
  [['keygen', '--alg', 'ES257'], '(did you mean ES256?)'],
  [['keygen', '--algorithm', 'ES256'], 'unknown option --algorithm for bomwright keygen (did you mean --alg?)'],
  [['explain', '--format', 'yaml'], '--format: "yaml" is not one of text, json'],
  [['explain', 'json/duplicate-ky'], 'did you mean json/duplicate-key?'],
  [['merge-reports', '--format', 'xml'], '--format: "xml" is not one of sarif, json, junit'],
  [['enrich'], 'Name a flow'],
  [['enrich', 'autors'], 'unknown bomwright enrich subcommand "autors" (did you mean authors?)'],
  [['import', 'workbok'], '(did you mean workbook?)'],
  [['publish', 'thred'], '(did you mean thread?)'],
  [['notify', 'forwrd'], '(did you mean forward?)'],
  [['service'], 'bomwright service needs <operation>'],
  [
    ['service', 'get-chart-point-at'],
    'unknown bomwright service subcommand "get-chart-point-at" (did you mean get-chart-point?)',
  ],
  [['service', 'list-fixturs'], '(did you mean list-fixtures?)'],
  [['emulator', 'strat'], '<action>: "strat" is not one of run, seed, token, cert'],
  [['emulator', 'run', '--prot', '1'], 'unknown option --prot for bomwright emulator (did you mean --port?)'],
  [
    ['set', 'bom.json', 'metadata.licence', 'MIT'],
    'CycloneDX 1.6 has no member "licence" at /metadata/licence (did you mean "licenses"?)',
  ],
  // A typo beside a missing option: the typo is named, with the option it meant.
  [['sign', 'w.json', '--kee', 'k'], 'unknown option --kee for bomwright sign (did you mean --key?)'],
  // An option that takes a value, given none: refused, never defaulted (a gate must not fail open).
  [['validate', 'w.json', '-f'], '-f needs a value, one of text, json, sarif, junit, github, html'],
  [['validate', 'w.json', '--max-warnings'], '--max-warnings needs a value; see "bomwright validate --help"'],
  [['validate', '--max-warnings', '--quiet', 'w.json'], '--max-warnings needs a value'],
  [['validate', 'w.json', '--trust'], '--trust needs a value'],
  [['validate', 'w.json', '-o'], '-o needs a value'],
  [['diff', 'a.json', 'b.json', '--format'], '--format needs a value, one of text, json'],
  [['merge', 'a.json', 'b.json', '-o'], '-o needs a value; see "bomwright merge --help"'],
  [['emulator', 'run', '--port'], '--port needs a value'],
];

describe('usage errors', () => {
  it(`are one line with E_USAGE and the nearest name, for ${USAGE.length} usage errors of every command`, async () => {
    const dir = temp();
    writeFileSync(path.join(dir, 'bom.json'), JSON.stringify(minimalBom()));
    const runs = await Promise.all(USAGE.map(([args]) => runCli(args, { cwd: dir })));
    USAGE.forEach(([args, says], i) => {
      const run = runs[i]!;
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(ONE_USAGE_LINE);
      expect(run.stderr, args.join(' ')).toContain(says);
      expect(run.stderr).not.toContain('Run "bomwright --help"');
    });
  }, 120_000);

  it('take a value that looks like an option only where it is one: "-" (standard input), "-1", "--x="', async () => {
    const dir = temp();
    writeFileSync(path.join(dir, 'w.json'), JSON.stringify(minimalBom('1.6')));
    const stdin = await runCli(['validate', '-f', 'json', '-'], { cwd: dir, input: JSON.stringify(minimalBom('1.6')) });
    expect(stdin.code, stdin.stderr).toBe(0);
    expect(JSON.parse(stdin.stdout).summary.documents).toBe(1);
    const negative = await runCli(['validate', 'w.json', '--max-warnings', '-1'], { cwd: dir });
    expect(negative.stderr).toBe('bomwright: E_USAGE: --max-warnings must be a whole number of at least 0\n');
    const explicitEmpty = await runCli(['validate', 'w.json', '--shard='], { cwd: dir });
    expect(explicitEmpty.stderr).toContain('--shard must be I/N');
    expect(explicitEmpty.stderr).not.toContain('needs a value');
  });

  it('leave the --help hint off refusals of a document', async () => {
    const dir = temp();
    const file = path.join(dir, 'bom.json');
    writeFileSync(file, JSON.stringify(minimalBom()));
    const args = ['add', 'component', file, '--name', 'a', '--version', '1', '--purl', 'pkg:npm/a@1'];
    expect((await runCli(args)).code).toBe(0);
    const again = await runCli(args);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(ONE_USAGE_LINE);
    expect(again.stderr).not.toContain('--help');
  });
});

describe('--max-warnings', () => {
  const warned = () => {
    const dir = temp();
    const file = path.join(dir, 'w.json');
    writeFileSync(
      file,
      JSON.stringify(minimalBom('1.6', { serialNumber: 'urn:uuid:00000000-0000-0000-0000-000000000000' })),
    );
    return { dir, file };
  };
  const reason = '1 warning exceeds --max-warnings 0';

  it('says why the run failed in text and with -q, and nothing when the limit holds', async () => {
    const { file } = warned();
    const text = await runCli(['validate', file, '--max-warnings', '0']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`0 errors, 1 warning in 1 document (0 invalid): ${reason}\n`);
    const quiet = await runCli(['validate', '-q', file, '--max-warnings', '0']);
    expect([quiet.code, quiet.stdout]).toEqual([1, `${reason}\n`]);
    const within = await runCli(['validate', '-q', file, '--max-warnings', '1']);
    expect([within.code, within.stdout]).toEqual([0, '']);
    const loud = await runCli(['validate', file, '--max-warnings', '1']);
    expect(loud.stdout).not.toContain('exceed');
  });

  it('says it in json, sarif, junit, github and html', async () => {
    const { file } = warned();
    const run = (format: string, limit = '0') => runCli(['validate', '-f', format, file, '--max-warnings', limit]);
    const json = JSON.parse((await run('json')).stdout) as { maxWarnings: unknown };
    expect(json.maxWarnings).toEqual({ limit: 0, exceeded: true, reason });
    expect((JSON.parse((await run('json', '1')).stdout) as { maxWarnings: unknown }).maxWarnings).toEqual({
      limit: 1,
      exceeded: false,
    });
    const sarif = JSON.parse((await run('sarif')).stdout) as { runs: { invocations: Record<string, unknown>[] }[] };
    expect(sarif.runs[0]!.invocations[0]).toMatchObject({ exitCode: 1, exitCodeDescription: reason });
    const junit = (await run('junit')).stdout;
    expect(junit).toContain(`<failure message="${reason}" type="max-warnings"/>`);
    expect(junit).toContain('tests="2" failures="1"');
    expect((await run('github')).stdout).toContain(`::error title=bomwright::${reason}\n`);
    expect((await run('html')).stdout).toContain(`Failed: ${reason}`);
    expect((await run('html', '1')).stdout).not.toContain('Failed:');
  });
});

describe('output files', () => {
  it('get their missing folders: validate -o, init -o, keygen --out', async () => {
    const dir = temp();
    const bom = path.join(dir, 'new/deep/bom.json');
    expect((await runCli(['init', '-o', bom, '--name', 'app', '--version', '1'])).code).toBe(0);
    const report = path.join(dir, 'reports/ci/run.sarif');
    expect((await runCli(['validate', bom, '-f', 'sarif', '-o', report])).code).toBe(0);
    expect(JSON.parse(readFileSync(report, 'utf8'))).toHaveProperty('runs');
    expect((await runCli(['keygen', '--out', path.join(dir, 'keys/sub/k')])).code).toBe(0);
    expect(existsSync(path.join(dir, 'keys/sub/k.private.pem'))).toBe(true);
  });
});

describe('normalize, diff and the version rule agree on array order', () => {
  const component = (name: string, refs: { type: string; url: string }[]) => ({
    type: 'library',
    'bom-ref': `pkg:npm/${name}@1`,
    name,
    version: '1',
    purl: `pkg:npm/${name}@1`,
    externalReferences: refs,
  });
  const refs = [
    { type: 'website', url: 'https://b.example' },
    { type: 'vcs', url: 'https://a.example' },
  ];

  it('normalize reorders only what diff and the rule compare as sets', async () => {
    const dir = temp();
    const old = path.join(dir, 'old.json');
    writeFileSync(
      old,
      JSON.stringify(minimalBom('1.6', { components: [component('zed', refs), component('abc', refs)] })),
    );
    const normalized = path.join(dir, 'normalized.json');
    expect((await runCli(['normalize', old, '-o', normalized])).code).toBe(0);
    expect(readFileSync(normalized, 'utf8')).not.toBe(readFileSync(old, 'utf8'));
    const diff = await runCli(['diff', old, normalized]);
    expect([diff.code, diff.stdout]).toEqual([0, 'No differences\n']);
    const rule = await runCli(['validate', '--baseline', old, normalized]);
    expect(rule.code).toBe(0);
  });

  it('normalize --check passes on what init, add and set wrote', async () => {
    const dir = temp();
    const file = path.join(dir, 'bom.json');
    await runCli(['init', '-o', file, '--name', 'app', '--version', '1']);
    for (const name of ['zed', 'abc'])
      await runCli([
        'add',
        'component',
        file,
        '--name',
        name,
        '--version',
        '1',
        '--property',
        'b=1',
        '--property',
        'a=2',
      ]);
    await runCli(['set', file, 'metadata.licenses', 'MIT']);
    const check = await runCli(['normalize', '--check', file]);
    expect([check.code, check.stdout]).toEqual([0, `${file}: normalized\n`]);
  });
});

describe('diff', () => {
  it('shows the differing part of long strings and the items of arrays; json keeps JSON values', async () => {
    const dir = temp();
    const make = (description: string, refs: unknown[]) =>
      JSON.stringify(
        minimalBom('1.6', {
          components: [{ type: 'library', 'bom-ref': 'a', name: 'a', description, externalReferences: refs }],
        }),
      );
    const text = 'The quick brown fox jumps over the lazy dog and keeps running far away from the farm';
    writeFileSync(path.join(dir, 'a.json'), make(text, [{ type: 'vcs', url: 'https://a.example' }]));
    writeFileSync(
      path.join(dir, 'b.json'),
      make(text.replace('dog', 'cat'), [{ type: 'website', url: 'https://b.example' }]),
    );
    const run = await runCli(['diff', 'a.json', 'b.json'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '~ component a description: …jumps over the lazy dog and keeps running f… → …jumps over the lazy cat and keeps running f…',
    );
    expect(run.stdout).toContain(
      '~ component a externalReferences: +{"type":"website","url":"https://b.example"} -{"type":"vcs","url":"https://a.example"}',
    );
    const json = JSON.parse((await runCli(['diff', '-f', 'json', 'a.json', 'b.json'], { cwd: dir })).stdout) as {
      components: { changed: { changes: { path: string; old: unknown; new: unknown; added?: unknown }[] }[] };
    };
    const changes = json.components.changed[0]!.changes;
    expect(changes.find((c) => c.path === 'description')).toEqual({
      path: 'description',
      old: text,
      new: text.replace('dog', 'cat'),
    });
    expect(changes.find((c) => c.path === 'externalReferences')).toMatchObject({
      old: [{ type: 'vcs', url: 'https://a.example' }],
      added: [{ type: 'website', url: 'https://b.example' }],
    });
  });
});

describe('add and set', () => {
  it('refuse a duplicate purl, naming the one there; --allow-duplicate adds it', async () => {
    const dir = temp();
    const file = path.join(dir, 'bom.json');
    writeFileSync(file, JSON.stringify(minimalBom()));
    const args = [
      'add',
      'component',
      file,
      '--name',
      'lodash',
      '--version',
      '4.17.21',
      '--purl',
      'pkg:npm/lodash@4.17.21',
    ];
    await runCli(args);
    const before = readFileSync(file, 'utf8');
    const again = await runCli(args);
    expect(again.stderr).toBe(
      'bomwright: E_USAGE: pkg:npm/lodash@4.17.21 is already in the document at /components/0 (bom-ref "pkg:npm/lodash@4.17.21"); --allow-duplicate adds another\n',
    );
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect((await runCli([...args, '--allow-duplicate'])).code).toBe(0);
    // Another version of the same package is no duplicate.
    expect(
      (
        await runCli([
          'add',
          'component',
          file,
          '--name',
          'lodash',
          '--version',
          '4.17.20',
          '--purl',
          'pkg:npm/lodash@4.17.20',
        ])
      ).code,
    ).toBe(0);
  });

  it('refuse a near-miss SPDX id with the id; --license-name takes a name', async () => {
    const dir = temp();
    const file = path.join(dir, 'bom.json');
    writeFileSync(file, JSON.stringify(minimalBom()));
    for (const [typed, id] of [
      ['Apache2', 'Apache-2.0'],
      ['Apache2.0', 'Apache-2.0'],
    ]) {
      const run = await runCli(['add', 'component', file, '--name', 'a', '--license', typed!]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`"${typed!}" is not an SPDX licence id (did you mean ${id!}?)`);
    }
    expect(
      (await runCli(['add', 'component', file, '--name', 'a', '--license', 'apache-2.0', '--license-name', 'Apache2']))
        .code,
    ).toBe(0);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { components: { licenses: unknown }[] };
    expect(doc.components[0]!.licenses).toEqual([{ license: { id: 'Apache-2.0' } }, { license: { name: 'Apache2' } }]);
  });

  it('set metadata.licenses takes an SPDX id or expression as plain text', async () => {
    const dir = temp();
    const file = path.join(dir, 'bom.json');
    writeFileSync(file, JSON.stringify(minimalBom()));
    expect((await runCli(['set', file, 'metadata.licenses', 'MIT'])).code).toBe(0);
    let doc = JSON.parse(readFileSync(file, 'utf8')) as { metadata: { licenses: unknown } };
    expect(doc.metadata.licenses).toEqual([{ license: { id: 'MIT' } }]);
    expect((await runCli(['set', file, 'metadata.licenses', 'MIT OR Apache-2.0'])).code).toBe(0);
    doc = JSON.parse(readFileSync(file, 'utf8')) as { metadata: { licenses: unknown } };
    expect(doc.metadata.licenses).toEqual([{ expression: 'MIT OR Apache-2.0' }]);
  });
});

describe('XML BOMs and truncated JSON', () => {
  const xml = '<?xml version="1.0"?>\n<bom xmlns="http://cyclonedx.org/schema/bom/1.6" version="1"></bom>\n';

  it('a CycloneDX XML BOM named on the command line is validated as XML, not read as JSON', async () => {
    const dir = temp();
    writeFileSync(path.join(dir, 'app.xml'), xml);
    const run = await runCli(['validate', 'app.xml', '--format', 'json'], { cwd: dir });
    expect(run.stdout).not.toContain("Unexpected token '<'");
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout).documents).toMatchObject([{ path: 'app.xml', format: 'cyclonedx-1.6', valid: true }]);
    expect(run.code).toBe(0);
  });

  it('a directory walk takes CycloneDX XML BOMs and skips other XML', async () => {
    const dir = temp();
    writeFileSync(
      path.join(dir, 'pom.xml'),
      '<?xml version="1.0"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0"/>\n',
    );
    const none = await runCli(['validate', '.'], { cwd: dir });
    expect([none.code, none.stderr]).toEqual([2, 'bomwright: E_NO_MATCH: No BOM documents found in .\n']);
    writeFileSync(path.join(dir, 'a.xml'), xml);
    const some = await runCli(['validate', '.', '--format', 'json'], { cwd: dir });
    expect(JSON.parse(some.stdout).documents.map((d: { path: string }) => d.path)).toEqual(['a.xml']);
  });

  it('a truncated JSON file says "unexpected end of input" with its line and column', async () => {
    const dir = temp();
    writeFileSync(path.join(dir, 'cut.json'), '{"bomFormat":"CycloneDX","specVersion":"1.6",\n "components": [');
    const run = await runCli(['validate', 'cut.json'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/cut\.json:2:17 {2}error {2}Unexpected end of input {2}json\/syntax/i);
  });
});
