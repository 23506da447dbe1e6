import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, SAMPLES, tempDir } from '../helpers.js';

/**
 * The committed bundle, run the way the runner runs a node24 action (`node <main>` in the workspace), from a copy
 * outside the repository: nothing in node_modules/, dist/ or generated/ can be found from there, so a dependency
 * the bundle failed to carry fails these tests.
 */
const ENTRY = path.join(tempDir('bomwright-action-'), 'index.cjs');
copyFileSync(path.join(ROOT, 'action/dist/index.cjs'), ENTRY);
const SAMPLE = readFileSync(path.join(SAMPLES, 'valid-full-1.6.json'), 'utf8');

/** Runs the action's entry the way action.yml does: INPUT_* variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files. */
function runAction(
  workspace: string,
  inputs: Record<string, string>,
  extra: Record<string, string> = {},
  entry = ENTRY,
) {
  const output = path.join(workspace, '.github-output');
  const summary = path.join(workspace, '.github-summary');
  writeFileSync(output, '');
  writeFileSync(summary, '');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: summary,
    ...extra,
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  const run = spawnSync(process.execPath, [entry], { cwd: workspace, env, encoding: 'utf8' });
  return { ...run, outputs: readFileSync(output, 'utf8'), summary: readFileSync(summary, 'utf8') };
}

function git(dir: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd: dir,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@e.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@e.com',
    },
  });
}

describe('GitHub Action', () => {
  it('writes outputs, a summary table, annotations and a SARIF file, and fails on errors', () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'sboms'));
    writeFileSync(path.join(dir, 'sboms/ok.json'), SAMPLE);
    writeFileSync(path.join(dir, 'sboms/bad.json'), SAMPLE.replace('"version": 1', '"version": 0'));
    const run = runAction(dir, { paths: 'sboms', 'sarif-file': 'out/report.sarif' });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^::error file=sboms\/bad\.json,line=\d+,col=\d+,title=bom\/version::/m);
    expect(run.outputs).toContain('errors=1\nwarnings=0\n');
    expect(run.outputs).toContain(`sarif-file=${path.join(dir, 'out/report.sarif')}`);
    expect(run.summary).toContain('| `sboms/bad.json` | cyclonedx-1.6 | ❌ invalid | 1 | 0 |');
    expect(run.summary).toContain('| `sboms/ok.json` | cyclonedx-1.6 | ✅ valid | 0 | 0 |');
    const sarif = JSON.parse(readFileSync(path.join(dir, 'out/report.sarif'), 'utf8'));
    expect(sarif.runs[0].results).toHaveLength(1);
    // The single-file bundle carries the rule pages: the alert shows the page of its rule.
    const rule = sarif.runs[0].tool.driver.rules[sarif.runs[0].results[0].ruleIndex];
    expect(rule.helpUri).toBe('https://github.com/bomwright/bomwright/blob/main/docs/rules/bom/version.md');
    expect(rule.help.markdown).toBe(readFileSync(path.join(ROOT, 'docs/rules/bom/version.md'), 'utf8'));
    // The html report beside the SARIF file, named in the outputs and in the summary with the run's artifacts.
    const html = readFileSync(path.join(dir, 'out/bomwright.html'), 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<code>sboms/bad.json</code>');
    expect(html).toContain('data-graph="graph-1"');
    expect(run.outputs).toContain(`html-file=${path.join(dir, 'out/bomwright.html')}\n`);
    expect(run.summary).toContain('is `out/bomwright.html`.');
    expect(runAction(dir, { paths: 'sboms', 'fail-on': 'never' }).status).toBe(0);
    expect(runAction(dir, { paths: 'sboms/ok.json' }).status).toBe(0);
  });

  it('writes the html report where html-file says, and links the run’s artifacts from the summary', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'bom.json'), SAMPLE);
    const run = runAction(
      dir,
      { paths: 'bom.json', 'html-file': 'reports/bom.html' },
      { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/app', GITHUB_RUN_ID: '42' },
    );
    expect(run.status).toBe(0);
    expect(readFileSync(path.join(dir, 'reports/bom.html'), 'utf8')).toContain('<code>bom.json</code>');
    expect(run.outputs).toContain(`html-file=${path.join(dir, 'reports/bom.html')}\n`);
    expect(run.summary).toContain(
      "is `reports/bom.html` among [this run's artifacts](https://github.com/acme/app/actions/runs/42#artifacts) once uploaded.",
    );
    expect(run.stdout).toContain('; html: reports/bom.html');
  });

  it('on a pull request: the version rule against the base branch, annotations only on changed lines', () => {
    const dir = tempDir();
    git(dir, 'init', '-q', '-b', 'main');
    const doc = JSON.parse(SAMPLE);
    doc.serialNumber = 'urn:uuid:00000000-0000-0000-0000-000000000000'; // an old warning on an untouched line
    writeFileSync(path.join(dir, 'bom.json'), JSON.stringify(doc, null, 2));
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'base');
    git(dir, 'branch', 'base');
    doc.components[0].version = '9.9.9';
    writeFileSync(path.join(dir, 'bom.json'), JSON.stringify(doc, null, 2));
    const run = runAction(dir, { paths: 'bom.json', 'base-ref': 'base' });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('title=bom/version-rule::');
    expect(run.stdout).not.toContain('bom/serial-number-nil');
    expect(run.outputs).toContain('errors=1\nwarnings=1\n');
  });

  it('on a pull request: says how many findings on unchanged lines are not annotated, and where they are', () => {
    const dir = tempDir();
    git(dir, 'init', '-q', '-b', 'main');
    const doc = JSON.parse(SAMPLE);
    // Old errors on lines the pull request leaves alone: two unknown component types.
    doc.components[1].type = 'not a type';
    doc.components[2].type = 'not a type either';
    writeFileSync(path.join(dir, 'bom.json'), JSON.stringify(doc, null, 2));
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'base');
    git(dir, 'branch', 'base');
    const before = runAction(dir, { paths: 'bom.json' });
    const old = Number(/^errors=(\d+)$/m.exec(before.outputs)![1]);
    expect(old).toBe(2);
    // The pull request bumps the version (no version-rule error) and adds one error on a line it changes.
    doc.version += 1;
    doc.components[0].type = 'new and bad';
    writeFileSync(path.join(dir, 'bom.json'), JSON.stringify(doc, null, 2));
    const lineOf = (text: string) =>
      JSON.stringify(doc, null, 2)
        .split('\n')
        .findIndex((line) => line.includes(text)) + 1;
    const run = runAction(dir, { paths: 'bom.json', 'base-ref': 'base', 'sarif-file': 'out/bomwright.sarif' });
    expect(run.status).toBe(1);
    const annotations = run.stdout.split('\n').filter((line) => line.startsWith('::'));
    expect(annotations).toHaveLength(1);
    expect(annotations[0]).toContain(`line=${lineOf('new and bad')},`);
    expect(run.outputs).toContain(`errors=${old + 1}\nwarnings=0\n`);
    const errors = (n: number) => `${n} error${n === 1 ? '' : 's'}`;
    const where = `lines ${lineOf('"not a type"')} and ${lineOf('"not a type either"')}`;
    expect(run.stdout).toContain(
      `bomwright: ${errors(old + 1)}, 0 warnings in 1 document; SARIF: out/bomwright.sarif; html: out/bomwright.html\n` +
        `bomwright: ${errors(old)} on unchanged lines are not annotated: see the SARIF (out/bomwright.sarif) or html (out/bomwright.html) report\n` +
        `  bom.json: ${errors(old)}, ${where}\n`,
    );
    expect(run.summary).toContain(
      `${errors(old)} on unchanged lines are not annotated: see the SARIF or html report.\n\n- bom.json: ${errors(old)}, ${where}\n`,
    );

    // One finding left out: singular throughout. Nothing left out: no note at all.
    doc.components[2].type = 'library';
    writeFileSync(path.join(dir, 'bom.json'), JSON.stringify(doc, null, 2));
    git(dir, 'commit', '-q', '-am', 'one old error left');
    git(dir, 'branch', '-f', 'base');
    doc.version += 1;
    doc.components[0].type = 'library';
    writeFileSync(path.join(dir, 'bom.json'), JSON.stringify(doc, null, 2));
    const one = runAction(dir, { paths: 'bom.json', 'base-ref': 'base' });
    expect(one.stdout).toContain(
      'bomwright: 1 error on unchanged lines is not annotated: see the SARIF (bomwright.sarif) or html (bomwright.html) report\n' +
        `  bom.json: 1 error, line ${lineOf('"not a type"')}\n`,
    );
    expect(one.summary).toContain('1 error on unchanged lines is not annotated');
    const clean = runAction(dir, { paths: 'bom.json' });
    expect(clean.stdout).not.toContain('not annotated');
    expect(clean.summary).not.toContain('not annotated');
  });

  it('agrees in number: 1 error, 1 warning, 1 document', () => {
    const dir = tempDir();
    const doc = JSON.parse(SAMPLE);
    doc.serialNumber = 'urn:uuid:00000000-0000-0000-0000-000000000000';
    doc.version = 0;
    writeFileSync(path.join(dir, 'bom.json'), JSON.stringify(doc, null, 2));
    const run = runAction(dir, { paths: 'bom.json' });
    expect(run.stdout).toContain('bomwright: 1 error, 1 warning in 1 document; SARIF: bomwright.sarif');
    expect(run.summary).toContain('1 document: 1 error, 1 warning');
    writeFileSync(path.join(dir, 'two.json'), SAMPLE);
    expect(runAction(dir, { paths: 'bom.json two.json' }).stdout).toContain(
      'bomwright: 1 error, 1 warning in 2 documents;',
    );
  });

  it('without the base revision (a shallow checkout), says to check out with fetch-depth: 0', () => {
    const dir = tempDir();
    git(dir, 'init', '-q', '-b', 'feature');
    writeFileSync(path.join(dir, 'bom.json'), SAMPLE);
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'only commit');
    const run = runAction(dir, { paths: 'bom.json' }, { GITHUB_BASE_REF: 'main' });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe(
      '::error title=bomwright::E_USAGE: The base revision "origin/main" is not in this checkout: check out with fetch-depth: 0 (actions/checkout) so the base branch is there, or set base-ref\n',
    );
    expect(runAction(dir, { paths: 'bom.json', 'base-ref': 'v1' }).stdout).toContain(
      'The base revision "v1" is not in this checkout: check out with fetch-depth: 0',
    );
  });

  it('checks the profiles of its profile input, built-in or from the workspace, and sums them up in the job summary', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'bom.json'), SAMPLE);
    writeFileSync(path.join(dir, 'policy.json'), JSON.stringify({ name: 'acme', extends: 'cra', requirements: [] }));
    const run = runAction(dir, { paths: 'bom.json', profile: 'ntia-2021\n./policy.json', 'fail-on': 'never' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^::error file=bom\.json,line=\d+,col=\d+,title=profile\/ntia-2021\/component\.supplier::/m,
    );
    expect(run.summary).toContain('| profile | unmet requirements | components | documents passing |');
    expect(run.summary).toContain('| ❌ `ntia-2021` NTIA minimum elements (2021) | 1 of 8 | 4 | 0 of 1 |');
    expect(run.summary).toContain('| ✅ `acme` acme | 0 of 2 | 4 | 1 of 1 |');
    const sarif = JSON.parse(readFileSync(path.join(dir, 'bomwright.sarif'), 'utf8'));
    expect(sarif.runs[0].tool.driver.rules.map((r: { id: string }) => r.id)).toContain(
      'profile/acme/top-level-dependencies',
    );
    const unknown = runAction(dir, { paths: 'bom.json', profile: 'bsi2.1' });
    expect(unknown.status).not.toBe(0);
    expect(unknown.stdout).toContain('Unknown profile "bsi2.1"; did you mean bsi-2.1?');
  });

  it('carries the libraries policies need: SPDX expressions, purls, semver ranges and RE2 patterns', () => {
    const dir = tempDir();
    const bom = JSON.parse(SAMPLE) as { components: Record<string, unknown>[] };
    bom.components[0] = {
      ...bom.components[0],
      purl: 'pkg:npm/lodash@4.17.20',
      version: '4.17.20',
      licenses: [{ expression: 'MIT OR GPL-3.0-only' }],
    };
    bom.components[1] = { ...bom.components[1], licenses: [{ expression: 'GPL-3.0-only AND MIT' }] };
    writeFileSync(path.join(dir, 'bom.json'), JSON.stringify(bom));
    const requirement = (id: string, check: unknown) => ({
      id,
      level: 'MUST',
      clause: 'policy',
      message: `Fails ${id}`,
      hint: 'fix it',
      appliesTo: 'components',
      check,
      at: 'name',
    });
    const policy = {
      name: 'acme',
      requirements: [
        requirement('licences', { licencesAllowed: ['MIT', 'Apache-2.0'] }),
        requirement('lodash', { deny: [{ purl: 'pkg:npm/lodash', versions: '<4.17.21' }] }),
        requirement('version-form', { matches: 'version', pattern: '^\\d+\\.\\d+\\.\\d+$' }),
      ],
    };
    writeFileSync(path.join(dir, 'policy.json'), JSON.stringify(policy));
    const run = runAction(dir, { paths: 'bom.json', profile: './policy.json', 'fail-on': 'never' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('Cannot find module');
    expect(run.stdout).toContain('GPL-3.0-only AND MIT is not allowed');
    expect(run.stdout).toContain('version 4.17.20 is denied by pkg:npm/lodash <4.17.21');
    expect(run.stdout).not.toMatch(/MIT OR GPL-3\.0-only is not allowed/);
  });

  it('action.yml is a JavaScript action on the committed bundle, and every input is read', () => {
    const action = readFileSync(path.join(ROOT, 'action.yml'), 'utf8');
    const inputs = [
      ...action.slice(action.indexOf('inputs:'), action.indexOf('outputs:')).matchAll(/^ {2}([a-z-]+):$/gm),
    ].map((m) => m[1]!);
    expect(inputs).toEqual([
      'paths',
      'signatures',
      'trust',
      'require-trusted',
      'allow-unverifiable',
      'base-ref',
      'fail-on',
      'sarif-file',
      'html-file',
      'profile',
      'shard',
    ]);
    const source = readFileSync(path.join(ROOT, 'src/action/main.ts'), 'utf8');
    for (const name of inputs) expect(source, name).toContain(`'${name}'`);
    expect(action).toMatch(/runs:\n {2}using: node24\n {2}main: action\/dist\/index\.cjs\n/);
    expect(action).not.toContain('setup-node');
  });

  it('checks every input and names the allowed values', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'bom.json'), SAMPLE);
    for (const [name, value, allowed] of [
      ['signatures', 'required', 'verify, require or ignore'],
      ['fail-on', 'warnings', 'error, warning or never'],
      ['require-trusted', 'yes', 'true or false'],
      ['allow-unverifiable', '1', 'true or false'],
    ] as const) {
      const run = runAction(dir, { paths: 'bom.json', [name]: value });
      expect(run.status, name).toBe(2);
      expect(run.stdout).toBe(
        `::error title=bomwright::E_USAGE: input ${name} must be ${allowed}, not ${JSON.stringify(value)}\n`,
      );
    }
  });

  it('shard: checks its share, writes a stamped SARIF, and the merged shards are the unsharded SARIF', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, '.git'));
    mkdirSync(path.join(dir, 'sboms'));
    for (let i = 0; i < 12; i++)
      writeFileSync(
        path.join(dir, `sboms/bom-${i}.json`),
        i % 4 === 0 ? SAMPLE.replace('"version": 1', '"version": 0') : SAMPLE,
      );
    const whole = runAction(dir, { paths: 'sboms', 'sarif-file': 'all.sarif' });
    expect(whole.status).toBe(1);
    const files: string[] = [];
    let documents = 0;
    for (const index of [1, 2, 3]) {
      const run = runAction(dir, { paths: 'sboms', shard: ` ${index}/3 `, 'sarif-file': `shard-${index}.sarif` });
      expect(run.stdout).toMatch(new RegExp(`in (\\d+) documents \\(shard ${index}/3\\)`));
      const log = JSON.parse(readFileSync(path.join(dir, `shard-${index}.sarif`), 'utf8'));
      expect(log.runs[0].invocations[0].properties.shard).toMatchObject({ index, count: 3 });
      documents += log.runs[0].invocations[0].properties.shard.documents;
      files.push(`shard-${index}.sarif`);
    }
    expect(documents).toBe(12);
    const merged = await runCli(['merge-reports', ...files], { cwd: dir });
    expect(merged.code).toBe(0);
    expect(merged.stdout).toBe(readFileSync(path.join(dir, 'all.sarif'), 'utf8'));
    const bad = runAction(dir, { paths: 'sboms', shard: '4/3' });
    expect([bad.status, bad.stdout]).toEqual([
      2,
      '::error title=bomwright::E_USAGE: input shard must be I/N, shard I of N with 1 ≤ I ≤ N ≤ 999999 (e.g. 2/4), not "4/3"\n',
    ]);
  });

  it('checks many files in worker threads inside its single file, with the same results', () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'sboms'));
    for (let i = 0; i < 10; i++)
      writeFileSync(
        path.join(dir, `sboms/bom-${i}.json`),
        i === 3 ? SAMPLE.replace('"version": 1', '"version": 0') : SAMPLE,
      );
    const run = runAction(dir, { paths: 'sboms' });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/in 10 documents \(\d+ worker threads\)/);
    expect(run.outputs).toContain('errors=1\nwarnings=0\n');
  });

  it('checks a large XML BOM in its XML engine thread inside its single file, with the same results', () => {
    // Above the size where libxml2 runs in a worker thread (src/xml/engine-thread.ts), one component type wrong.
    const components = Array.from(
      { length: 40_000 },
      (_, i) =>
        `    <component type="${i === 4321 ? 'gadget' : 'library'}" bom-ref="c-${i}"><name>lib-${i}</name><version>1.0.${i}</version></component>`,
    );
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<bom xmlns="http://cyclonedx.org/schema/bom/1.6" version="1">\n  <components>\n${components.join('\n')}\n  </components>\n</bom>\n`;
    expect(xml.length).toBeGreaterThan(4_000_000);
    // The bundle carries libxml2-wasm and the schemas (issue 43): its copy outside the repository, with no
    // node_modules anywhere above it, checks XML in the main thread and in its worker alike.
    const dir = tempDir();
    writeFileSync(path.join(dir, 'bom.xml'), xml);
    const inThread = runAction(dir, { paths: 'bom.xml' }, { BOMWRIGHT_TEST_XML_WORKER: 'never' });
    const inWorker = runAction(dir, { paths: 'bom.xml' });
    expect(inWorker.stdout).toBe(inThread.stdout);
    expect(inWorker.outputs).toBe(inThread.outputs);
    expect(inWorker.status).toBe(1);
    expect(inWorker.stdout).toMatch(
      /^::error file=bom\.xml,line=4325,col=\d+,title=schema\/enum::\[facet 'enumeration'\] The value "gadget" is not an element of the set/m,
    );
    expect(inWorker.outputs).toContain('errors=1\nwarnings=0\n');
  });

  it('checks a small XML BOM outside the repository: valid, and each version’s schema', () => {
    const dir = tempDir();
    for (const v of ['1.0', '1.3', '1.6', '1.7']) {
      const version = ['1.0', '1.3'].includes(v) ? '<version>1.0.0</version>' : '';
      const modified = v === '1.0' ? '<modified>false</modified>' : '';
      writeFileSync(
        path.join(dir, `bom-${v}.xml`),
        `<?xml version="1.0" encoding="UTF-8"?>\n<bom xmlns="http://cyclonedx.org/schema/bom/${v}" version="1"><components><component type="library"><name>a</name>${version}${modified}</component></components></bom>\n`,
      );
    }
    const run = runAction(dir, { paths: '.' });
    expect(run.stdout).toContain('0 errors, 0 warnings in 4 documents');
    expect(run.outputs).toContain('errors=0\nwarnings=0\n');
    expect(run.status).toBe(0);
  });
});
