/**
 * Issue 46's smaller findings, each through the CLI (or the library where it is the library's): hints that name
 * what the command takes, the nearest value, words in the singular, a document cut short, a baseline that is a
 * pipe, and XML messages that keep a file name whole.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { merge } from '../../src/index.js';
import { BIN, minimalBom, runCli, SAMPLES, tempDirs } from '../helpers.js';

const newDir = tempDirs();
const SAMPLE = path.join(SAMPLES, 'valid-full-1.6.json');

async function withBom(): Promise<string> {
  const dir = newDir();
  expect(
    (await runCli(['init', '--name', 'app', '--component-version', '1.0.0', '-o', 'bom.json'], { cwd: dir })).code,
  ).toBe(0);
  return dir;
}

describe('usage hints', () => {
  it('an option mistyped with no command names the option (--versoin, -v), not "Name a command"', async () => {
    for (const [flag, meant] of [
      ['--versoin', '--version'],
      ['-v', '--version'],
      ['--hlep', '--help'],
    ]) {
      const result = await runCli([flag!]);
      expect([result.code, result.stderr], flag).toEqual([
        2,
        `bomwright: E_USAGE: unknown option ${flag} for bomwright (did you mean ${meant}?)\n`,
      ]);
    }
    expect((await runCli([])).stderr).toMatch(/^bomwright: E_USAGE: Name a command/);
    // A letter that begins no option, or several, suggests none.
    expect((await runCli(['-x'])).stderr).toBe('bomwright: E_USAGE: unknown option -x; see "bomwright --help"\n');
  });

  it('a spec version suggests the numerically nearest one', async () => {
    const dir = newDir();
    for (const [typed, meant] of [
      ['1.8', '1.7'],
      ['1.0', '1.2'],
      ['2.5', '1.7'],
      ['1.10', '1.7'],
    ]) {
      const result = await runCli(['init', '--name', 'x', '-o', 'x.json', '--spec-version', typed!], { cwd: dir });
      expect(result.stderr, typed).toMatch(new RegExp(`\\(did you mean ${meant!.replace('.', '\\.')}\\?\\)\\n$`));
    }
  });

  it('set names its own way to give a licence name; add names --license-name', async () => {
    const dir = await withBom();
    const set = await runCli(['set', 'bom.json', 'metadata.licenses', 'Apache2.0'], { cwd: dir });
    expect(set.stderr).toBe(
      `bomwright: E_USAGE: "Apache2.0" is not an SPDX licence id (did you mean Apache-2.0?); a licence without an SPDX id is given as a name as JSON: '[{"license":{"name":"Apache2.0"}}]'\n`,
    );
    const named = await runCli(['set', 'bom.json', 'metadata.licenses', '[{"license":{"name":"Apache2.0"}}]'], {
      cwd: dir,
    });
    expect(named.code).toBe(0);
    const add = await runCli(['add', 'component', 'bom.json', '--name', 'x', '--license', 'Apache2.0'], { cwd: dir });
    expect(add.stderr).toContain('a licence without an SPDX id is given as a name (--license-name Apache2.0)');
  });

  it('a near-miss licence id suggests the id, and a way to give a name that the command has', async () => {
    const dir = await withBom();
    const help = async (...command: string[]) => (await runCli([...command, '--help'], { cwd: dir })).stdout;
    for (const [command, typed] of [
      [['init', '--name', 'x', '-o', 'new.json'], 'Apache2'],
      [['init', '--name', 'x', '-o', 'new.json'], 'apache 2.0'],
      [['add', 'component', 'bom.json', '--name', 'x'], 'Apache2'],
    ] as const) {
      const result = await runCli([...command, '--license', typed], { cwd: dir });
      expect(result.code, typed).toBe(2);
      expect(result.stderr).toMatch(/^bomwright: E_USAGE: .* is not an SPDX licence id \(did you mean Apache-2\.0\?\)/);
      // Every option the hint names is one of this command's.
      const named = [...result.stderr.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]);
      expect(named).toEqual(['--license-name']);
      const options = await help(...command.slice(0, command[0] === 'add' ? 2 : 1));
      for (const option of named) expect(options, `${command[0]} ${option}`).toContain(`${option} `);
    }
    // What the hint says works, on init as on add.
    const named = await runCli(
      ['init', '--name', 'x', '--license-name', 'Apache2', '--license', 'mit', '-o', 'n.json'],
      {
        cwd: dir,
      },
    );
    expect(named.code, named.stderr).toBe(0);
    const written = JSON.parse(readFileSync(path.join(dir, 'n.json'), 'utf8')) as {
      metadata: { component: { licenses: unknown } };
    };
    expect(written.metadata.component.licenses).toEqual([{ license: { id: 'MIT' } }, { license: { name: 'Apache2' } }]);
    // An id that is one (any case) is taken without a hint.
    expect((await runCli(['init', '--name', 'x', '--license', 'apache-2.0', '-o', 'm.json'], { cwd: dir })).code).toBe(
      0,
    );
  });

  it('a value outside a schema enum suggests the one meant (--type libary, --hash sha256:…)', async () => {
    const dir = await withBom();
    const type = await runCli(['add', 'component', 'bom.json', '--name', 'x', '--type', 'libary'], { cwd: dir });
    expect(type.stderr).toMatch(/"libary" is not one of .* \(did you mean "library"\?\) at \/components\/0\/type/);
    const hash = await runCli(['add', 'component', 'bom.json', '--name', 'x', '--hash', `sha256:${'a'.repeat(64)}`], {
      cwd: dir,
    });
    expect(hash.stderr).toMatch(/"sha256" is not one of .* \(did you mean "SHA-256"\?\)/);
    // A short value is nobody's typo.
    writeFileSync(
      path.join(dir, 'c.json'),
      JSON.stringify(minimalBom('1.6', { components: [{ type: 'x', name: 'c' }] })),
    );
    expect((await runCli(['validate', 'c.json'], { cwd: dir })).stdout).not.toContain('did you mean');
  });
});

describe('words', () => {
  it('keygen names the algorithm without an article to get wrong', async () => {
    const result = await runCli(['keygen', '--alg', 'ES256', '--out', 'k'], { cwd: newDir() });
    expect(result.stdout).toMatch(/^Generated a key for ES256:\n/);
  });

  it('the html report counts in the singular for one', async () => {
    const dir = newDir();
    const html = await runCli(['validate', SAMPLE, '--format', 'html', '-o', path.join(dir, 'r.html')]);
    expect(html.code).toBe(0);
    const page = readFileSync(path.join(dir, 'r.html'), 'utf8');
    expect(page).toContain('<li><strong>1</strong> document</li>');
    expect(page).toContain('<li><strong class="">0</strong> errors</li>');
  });
});

describe('inputs', () => {
  it('a document cut short says so, wherever it stops', async () => {
    const text = readFileSync(SAMPLE, 'utf8');
    for (const end of [text.indexOf(',\n') + 1, text.indexOf('"components"') + 14, text.length - 3]) {
      const result = await runCli(['validate', '-'], { input: text.slice(0, end) });
      expect(result.stdout, String(end)).toMatch(
        /error {2}Unexpected end of input(?:: the document is cut short \(| {2}json\/syntax)/,
      );
    }
    // Not when the text goes on after the mistake.
    const broken = await runCli(['validate', '-'], { input: text.replace('"bomFormat"', '"bomFormat" x') });
    expect(broken.stdout).not.toContain('cut short');
  });

  it('--baseline takes a pipe (<(git show …)); an unreadable baseline is named as the baseline', () => {
    const bash = (script: string) => spawnSync('bash', ['-c', script], { encoding: 'utf8' });
    const changed = bash(
      `node ${BIN} validate ${SAMPLE} --baseline <(sed 's/"version": 1,/"version": 1, "x": 1,/' ${SAMPLE} | node -e "const d=JSON.parse(require('fs').readFileSync(0,'utf8'));d.components[0].version='0';process.stdout.write(JSON.stringify(d))")`,
    );
    expect([changed.status, changed.stdout]).toEqual([1, expect.stringContaining('(compared with /dev/fd/')]);
    const same = bash(`node ${BIN} validate ${SAMPLE} --baseline <(cat ${SAMPLE})`);
    expect([same.status, same.stdout]).toEqual([0, '1 document valid\n']);
    const missing = bash(`node ${BIN} validate ${SAMPLE} --baseline /nonexistent/old.json`);
    expect(missing.stdout).toContain('E_NOT_FOUND: the baseline: Cannot read /nonexistent/old.json');
  });

  it('an XML document against an absolute baseline keeps the file name whole', async () => {
    const dir = newDir();
    const xml = (name: string) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<bom xmlns="http://cyclonedx.org/schema/bom/1.6" serialNumber="urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79" version="1">\n  <components>\n    <component type="library"><name>${name}</name></component>\n  </components>\n</bom>\n`;
    writeFileSync(path.join(dir, 'old.xml'), xml('a'));
    writeFileSync(path.join(dir, 'new.xml'), xml('b'));
    const result = await runCli(['validate', 'new.xml', '--baseline', path.join(dir, 'old.xml')], { cwd: dir });
    expect(result.stdout).toContain(`(compared with ${path.join(dir, 'old.xml')}) at /bom/@version`);
  });
});

describe('the library', () => {
  it('merge names this bomwright without being told its version', async () => {
    const result = await merge([{ document: minimalBom('1.6', { components: [] }), name: 'a' }]);
    const own = JSON.parse(readFileSync(path.join(path.dirname(BIN), '../package.json'), 'utf8')) as {
      version: string;
    };
    expect(JSON.stringify(result.document.metadata)).toContain(`"version":"${own.version}"`);
  });
});

describe('init --purl', () => {
  type Written = { metadata: { component: Record<string, unknown> } };
  const read = (dir: string, file: string) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Written;

  it('takes the name, version and group from the purl, as add component does', async () => {
    const dir = newDir();
    for (const [purl, expected] of [
      ['pkg:npm/left-pad@1.3.0', { name: 'left-pad', version: '1.3.0', purl: 'pkg:npm/left-pad@1.3.0' }],
      ['pkg:NPM/left-pad@1.3.0', { name: 'left-pad', version: '1.3.0', purl: 'pkg:npm/left-pad@1.3.0' }],
      [
        'pkg:npm/%40scope/pad@2.0.0',
        { group: '@scope', name: 'pad', version: '2.0.0', purl: 'pkg:npm/%40scope/pad@2.0.0' },
      ],
      ['pkg:maven/org.example/lib', { group: 'org.example', name: 'lib', purl: 'pkg:maven/org.example/lib' }],
    ] as const) {
      const result = await runCli(['init', '--purl', purl, '-o', 'bom.json', '--force'], { cwd: dir });
      expect(result.code, `${purl}: ${result.stderr}`).toBe(0);
      const component = read(dir, 'bom.json').metadata.component;
      const { type, 'bom-ref': ref, ...named } = component;
      expect([type, ref, named], purl).toEqual(['application', expected.purl, expected]);
      // The same component as add component --purl makes (in another document), apart from its default type.
      expect((await runCli(['init', '--name', 'other', '-o', 'other.json', '--force'], { cwd: dir })).code).toBe(0);
      expect((await runCli(['add', 'component', 'other.json', '--purl', purl], { cwd: dir })).code).toBe(0);
      const added = JSON.parse(readFileSync(path.join(dir, 'other.json'), 'utf8')) as {
        components: Written['metadata']['component'][];
      };
      expect({ ...added.components[0], type: 'application', 'bom-ref': expected.purl }).toEqual(component);
    }
  });

  it('refuses what contradicts the purl, and still needs a name or a purl', async () => {
    const dir = newDir();
    const run = (...args: string[]) => runCli(['init', ...args, '-o', 'bom.json', '--force'], { cwd: dir });
    expect((await run('--purl', 'pkg:npm/left-pad@1.3.0', '--name', 'right-pad')).stderr).toMatch(
      /^bomwright: E_USAGE: The name "right-pad" contradicts the purl pkg:npm\/left-pad@1.3.0/,
    );
    expect((await run('--purl', 'pkg:npm/left-pad@1.3.0', '--component-version', '1.4.0')).stderr).toMatch(
      /^bomwright: E_USAGE: The version "1.4.0" contradicts the purl/,
    );
    // Given ones that agree are taken.
    expect((await run('--purl', 'pkg:npm/left-pad@1.3.0', '--name', 'left-pad', '--version', '1.3.0')).code).toBe(0);
    expect((await run('--purl', 'left-pad')).stderr).toMatch(/^bomwright: E_USAGE: "left-pad" is not a package URL/);
    expect((await run()).stderr).toBe(
      'bomwright: E_USAGE: Name the component (--name or --purl) or give a package.json (--from)\n',
    );
  });

  it('a purl with a version meets 1.3, which requires one; without, it is asked for', async () => {
    const dir = newDir();
    const run = (purl: string) =>
      runCli(['init', '--purl', purl, '--spec-version', '1.3', '-o', 'bom.json', '--force'], { cwd: dir });
    expect((await run('pkg:npm/left-pad@1.3.0')).code).toBe(0);
    expect(read(dir, 'bom.json').metadata.component.version).toBe('1.3.0');
    expect((await run('pkg:npm/left-pad')).stderr).toMatch(
      /^bomwright: E_USAGE: CycloneDX 1.3 requires a component version/,
    );
  });

  it('beside a package.json, a purl names the component and the package.json is not read', async () => {
    const dir = newDir();
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'app', version: '9.9.9', license: 'MIT' }));
    expect((await runCli(['init', '--purl', 'pkg:npm/left-pad@1.3.0', '-o', 'bom.json'], { cwd: dir })).code).toBe(0);
    const component = read(dir, 'bom.json').metadata.component;
    expect([component.name, component.version, component.licenses]).toEqual(['left-pad', '1.3.0', undefined]);
    // Without a purl or a name, the package.json is the component.
    expect((await runCli(['init', '-o', 'b.json'], { cwd: dir })).code).toBe(0);
    expect(read(dir, 'b.json').metadata.component.name).toBe('app');
    // With --from as well, the purl must agree with the package.json's name.
    const from = await runCli(['init', '--from', 'package.json', '--purl', 'pkg:npm/left-pad@1.3.0', '-o', 'c.json'], {
      cwd: dir,
    });
    expect(from.stderr).toMatch(/^bomwright: E_USAGE: The name "app" contradicts the purl/);
  });
});
