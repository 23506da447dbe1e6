import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { minimalBom, ROOT, runCli, SAMPLES, tempDir } from '../helpers.js';

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** A folder with one valid and one invalid BOM, a non-BOM JSON file, and BOMs that must be skipped. */
function workspace(): string {
  const dir = tempDir();
  mkdirSync(path.join(dir, 'boms/nested'), { recursive: true });
  mkdirSync(path.join(dir, 'node_modules/dep'), { recursive: true });
  mkdirSync(path.join(dir, '.git'), { recursive: true });
  writeFileSync(path.join(dir, 'boms/ok.json'), json(minimalBom('1.6')));
  writeFileSync(path.join(dir, 'boms/nested/bad.json'), json(minimalBom('1.5', { version: 0 })));
  writeFileSync(path.join(dir, 'boms/package.json'), json({ name: 'not-a-bom', version: '1.0.0' }));
  writeFileSync(path.join(dir, 'node_modules/dep/bom.json'), json(minimalBom('1.6', { version: -1 })));
  writeFileSync(path.join(dir, '.git/bom.json'), json(minimalBom('1.6', { version: -1 })));
  return dir;
}

describe('validate: inputs', () => {
  it('recurses into directories, skipping non-BOM JSON, node_modules and .git', async () => {
    const dir = workspace();
    const result = await runCli(['validate', 'boms', '--format', 'json'], { cwd: dir });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.documents.map((d: { path: string; valid: boolean }) => [d.path, d.valid])).toEqual([
      ['boms/nested/bad.json', false],
      ['boms/ok.json', true],
    ]);
    const all = await runCli(['validate', '--format', 'json'], { cwd: dir });
    expect(JSON.parse(all.stdout).documents).toHaveLength(2);
  });

  it('expands glob patterns', async () => {
    const dir = workspace();
    const result = await runCli(['validate', 'boms/**/ok.json'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('1 document valid\n');
  });

  it('reads standard input for -', async () => {
    const ok = await runCli(['validate', '-'], { input: json(minimalBom('1.7')) });
    expect(ok.code).toBe(0);
    const bad = await runCli(['validate', '-'], {
      input: '{"bomFormat": "CycloneDX", "specVersion": "1.6", "version": 1,}',
    });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('<stdin>:1:63  error  Expected double-quoted property name  json/syntax');
  });

  it('reports a non-BOM file named explicitly (exit 1)', async () => {
    const dir = workspace();
    const result = await runCli(['validate', 'boms/package.json'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('bom/not-a-bom');
  });

  it.each([
    [['validate', 'missing.json'], 'bomwright: E_NOT_FOUND: No such file or directory: missing.json'],
    [['validate', 'boms/**/*.xml'], 'bomwright: E_NO_MATCH: Pattern matched no files: boms/**/*.xml'],
    [['validate', 'empty'], 'bomwright: E_NO_MATCH: No BOM documents found in empty'],
  ])('exits 2 on %j with one line', async (args, message) => {
    const dir = workspace();
    mkdirSync(path.join(dir, 'empty'));
    const result = await runCli(args, { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(message + '\n');
    expect(result.stdout).toBe('');
  });

  it('exits 2 for an unreadable file even when others are invalid', async () => {
    const dir = workspace();
    mkdirSync(path.join(dir, 'locked.json'));
    // A directory named *.json is found by the glob but cannot be read as a file.
    const result = await runCli(['validate', 'boms/nested/bad.json', 'locked.json/../boms/ok.json'], { cwd: dir });
    expect(result.code).toBe(1);
    if (process.getuid?.() !== 0) {
      const file = path.join(dir, 'secret.json');
      writeFileSync(file, json(minimalBom()), { mode: 0o000 });
      const unreadable = await runCli(['validate', 'secret.json', 'boms/nested/bad.json'], { cwd: dir });
      expect(unreadable.code).toBe(2);
      expect(unreadable.stdout).toContain('secret.json: E_READ: Cannot read');
    }
  });

  it('refuses documents over --max-size without reading them', async () => {
    const dir = workspace();
    const result = await runCli(['validate', 'boms/ok.json', '--max-size', '100'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /error {2}The document is \d+ bytes, over the --max-size limit of 100 bytes {2}read\/too-large/,
    );
    const stdin = await runCli(['validate', '-', '--max-size', '1K'], { input: ' '.repeat(5000) });
    expect(stdin.stdout).toContain('read/too-large');
  });
});

describe('validate: options', () => {
  it('--max-warnings turns warnings over the limit into exit 1', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'w.json'),
      json(minimalBom('1.6', { serialNumber: 'urn:uuid:00000000-0000-0000-0000-000000000000' })),
    );
    expect((await runCli(['validate', 'w.json'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['validate', 'w.json', '--max-warnings', '1'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['validate', 'w.json', '--max-warnings', '0'], { cwd: dir })).code).toBe(1);
    const quiet = await runCli(['validate', 'w.json', '--quiet'], { cwd: dir });
    expect(quiet.stdout).toBe('');
  });

  it('--output writes the report to a file', async () => {
    const dir = workspace();
    const result = await runCli(['validate', 'boms', '--format', 'sarif', '--output', 'report.sarif'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const log = JSON.parse(readFileSync(path.join(dir, 'report.sarif'), 'utf8'));
    expect(log.version).toBe('2.1.0');
    // The CLI bundle carries the rule pages: every rule links to its page and holds it as help.
    for (const rule of log.runs[0].tool.driver.rules) {
      expect(rule.helpUri).toBe(`https://github.com/bomwright/bomwright/blob/main/docs/rules/${rule.id}.md`);
      expect(rule.help.markdown).toBe(readFileSync(path.join(ROOT, 'docs/rules', `${rule.id}.md`), 'utf8'));
    }
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('uses paths relative to the repository root in SARIF', async () => {
    const dir = workspace();
    const result = await runCli(['validate', '.', '--format', 'sarif'], { cwd: path.join(dir, 'boms') });
    const uris = JSON.parse(result.stdout).runs[0].results.map(
      (r: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) =>
        r.locations[0]!.physicalLocation.artifactLocation.uri,
    );
    expect(uris).toEqual(['boms/nested/bad.json']);
  });

  it('--spec-version forces a schema and rejects unknown versions', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'b.json'), json(minimalBom('1.6', { components: [{ type: 'data', name: 'd' }] })));
    expect((await runCli(['validate', 'b.json'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['validate', 'b.json', '--spec-version', '1.4'], { cwd: dir })).code).toBe(1);
    const bad = await runCli(['validate', 'b.json', '--spec-version', '9.9'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^bomwright: E_USAGE: --spec-version: "9.9" is not one of 1.2, [^\n]*\n$/);
  });

  it('--signatures require fails unsigned documents; ignore and verify accept them', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'b.json'), json(minimalBom('1.6')));
    expect((await runCli(['validate', 'b.json', '--signatures', 'require'], { cwd: dir })).code).toBe(1);
    expect((await runCli(['validate', 'b.json', '--signatures', 'ignore'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['validate', 'b.json', '--signatures', 'sometimes'], { cwd: dir })).code).toBe(2);
  });

  it.each([
    [['validate', '--bogus']],
    [['validate', '--max-warnings', '-1']],
    [['validate', '--max-size', 'lots']],
    [['frobnicate']],
    [[]],
  ])('exits 2 on usage error %j without a stack trace', async (args) => {
    const result = await runCli(args, { cwd: workspace() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^bomwright: E_USAGE: [^\n]+\n$/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('--help and --version exit 0', async () => {
    const help = await runCli(['validate', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--signatures');
    const version = await runCli(['--version']);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(path.join(SAMPLES, '../package.json'), 'utf8')).version);
  });
});

describe('validate: formats over the samples', () => {
  it.each(['text', 'json', 'sarif', 'junit', 'github'])(
    '%s runs over samples/ and exits 1 (they include invalid documents)',
    async (format) => {
      const result = await runCli(['validate', 'samples', '--format', format]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('');
      expect(result.stdout.length).toBeGreaterThan(100);
    },
  );

  it('every valid sample passes on its own', async () => {
    const valid = readdirSync(SAMPLES).filter((f) => f.startsWith('valid-'));
    const result = await runCli(['validate', ...valid.map((f) => `samples/${f}`)]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${valid.length} documents valid\n`);
  });
});
