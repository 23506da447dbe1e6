import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, OUTPUT_FORMATS, SPEC_FORMATS } from '../src/index.js';
import { docPages } from './docs.js';
import { ROOT, runCli, SAMPLES, tempDirs } from './helpers.js';

const newDir = tempDirs();

const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

describe('README stays true', () => {
  it('has the two-command quick start', () => {
    expect(readme).toContain('```sh\nnpm ci && npx bomwright validate samples\nnpm test\n```');
  });

  it('documents every output format, error code and supported version, each on its page', () => {
    const page = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
    for (const format of OUTPUT_FORMATS) expect(page('docs/output-formats.md')).toContain(`\`${format}\``);
    for (const code of ERROR_CODES) expect(page('docs/exit-codes.md')).toContain(`\`${code}\``);
    expect(page('docs/commands/explain.md')).toContain('# `bomwright explain [RULE-ID]`');
    for (const format of SPEC_FORMATS)
      expect(page('docs/supported-documents.md')).toContain(`\`${format.specVersion}\``);
  });
});

describe('README and docs code that runs', () => {
  /** The blocks fenced as ```js run: whole programs against the built package. */
  const blocks = docPages().flatMap((page) =>
    [...page.text.matchAll(/^```js run\n([\s\S]*?)^```$/gm)].map((m) => m[1]!),
  );

  it('has the library signing example', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(1);
    expect(blocks.some((b) => b.includes('loadKey(') && b.includes('await sign('))).toBe(true);
  });

  it.each(blocks.map((block, i) => [i, block] as const))(
    'block %i runs and prints what its // → lines say',
    async (_, block) => {
      // A folder where `import ... from 'bomwright'` finds this package, with keygen's files and a valid BOM.
      const dir = newDir();
      mkdirSync(path.join(dir, 'node_modules'));
      symlinkSync(ROOT, path.join(dir, 'node_modules', 'bomwright'), 'dir');
      expect((await runCli(['keygen', '--out', 'release'], { cwd: dir })).code).toBe(0);
      copyFileSync(path.join(SAMPLES, 'valid-full-1.6.json'), path.join(dir, 'bom.json'));
      copyFileSync(path.join(SAMPLES, 'valid-full-1.6.xml'), path.join(dir, 'bom.xml'));
      writeFileSync(path.join(dir, 'example.mjs'), block);
      const stdout = execFileSync(process.execPath, ['example.mjs'], { cwd: dir, encoding: 'utf8' });
      const expected = [...block.matchAll(/^\/\/ → (.*)$/gm)].map((m) => m[1]!);
      expect(expected.length).toBeGreaterThan(0);
      expect(stdout.trimEnd().split('\n')).toEqual(expected);
    },
  );
});

describe('pre-commit hook definition', () => {
  it('declares bomwright-validate, a script running the committed bundle, for .json and .xml files', () => {
    const hooks = readFileSync(path.join(ROOT, '.pre-commit-hooks.yaml'), 'utf8');
    expect(hooks).toContain('- id: bomwright-validate');
    expect(hooks).toContain('entry: action/pre-commit.cjs');
    expect(hooks).toContain('language: script');
    expect(hooks).toContain('pass_filenames: false');
    const files = new RegExp(/^ {2}files: (.*)$/m.exec(hooks)![1]!);
    for (const name of ['bom.json', 'sbom/product.cdx.xml']) expect(files.test(name), name).toBe(true);
    for (const name of ['bom.yaml', 'bom.json.txt', 'notes.xmlx']) expect(files.test(name), name).toBe(false);
    // pre-commit runs a script's entry from its clone: it must be executable there, as git records it (a copy of the
    // checkout without its .git, as .ci/stranger makes, has only the file's own mode to show).
    expect(statSync(path.join(ROOT, 'action/pre-commit.cjs')).mode & 0o111).not.toBe(0);
    if (existsSync(path.join(ROOT, '.git'))) {
      const mode = execFileSync('git', ['ls-files', '-s', 'action/pre-commit.cjs'], { cwd: ROOT, encoding: 'utf8' });
      expect(mode).toMatch(/^100755 /);
    }
  });
});
