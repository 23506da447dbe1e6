/**
 * `bomwright merge` as a subprocess: BOMs of this very project from the official npm generator (two spec versions,
 * so two different writers' shapes), a Go-style BOM written here that collides with them, and the exit codes, files
 * and messages a user sees.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { validate } from '../../src/index.js';
import { ROOT, runCli, tempDirs } from '../helpers.js';
import { allComponents, bom, expectWhole, HASH, lib } from '../author/merge-fixtures.js';

type Json = Record<string, unknown>;
const GENERATOR = path.join(ROOT, 'test/node_modules/@cyclonedx/cyclonedx-npm/bin/cyclonedx-npm-cli.js');
const newDir = tempDirs('bomwright-merge-');
const dir = newDir();
const at = (name: string) => path.join(dir, name);
const read = (name: string) => JSON.parse(readFileSync(at(name), 'utf8')) as Json;
const write = (name: string, value: unknown) => writeFileSync(at(name), `${JSON.stringify(value, null, 2)}\n`);
const merge = (...args: string[]) => runCli(['merge', ...args], { cwd: dir });

/** The project's own BOM from cyclonedx-npm, from the lock file (the same on every machine, whatever is installed). */
function generate(version: string, file: string): void {
  const run = spawnSync(
    process.execPath,
    [GENERATOR, '--spec-version', version, '--package-lock-only', '--output-format', 'JSON', '--output-file', at(file)],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`cyclonedx-npm ${version}: ${run.stderr}`);
}

/** A BOM in the shape cyclonedx-gomod writes (1.4 tools list, golang purls), colliding with the npm BOM's refs. */
function goBom(npm: Json): Json {
  const npmComponents = npm.components as Json[];
  const taken = npmComponents[0]!['bom-ref'] as string;
  const shared = npmComponents[1]!;
  return bom({
    metadata: {
      tools: {
        components: [{ type: 'application', group: 'CycloneDX', name: 'cyclonedx-gomod', version: 'v1.9.0' }],
      },
      component: {
        type: 'application',
        'bom-ref': 'pkg:golang/example.com/agent@v1.0.0?type=module',
        name: 'example.com/agent',
        version: 'v1.0.0',
        purl: 'pkg:golang/example.com/agent@v1.0.0?type=module',
      },
    },
    components: [
      {
        type: 'library',
        // The same name as an npm component: a collision, renamed.
        'bom-ref': taken,
        name: 'golang.org/x/sys',
        version: 'v0.20.0',
        purl: 'pkg:golang/golang.org/x/sys@v0.20.0?type=module',
        hashes: [{ alg: 'SHA-256', content: HASH('c') }],
      },
      // The same package as an npm component, under another bom-ref (a wasm build step, say).
      { ...shared, 'bom-ref': 'npm-dependency-of-the-agent' },
    ],
    dependencies: [
      { ref: 'pkg:golang/example.com/agent@v1.0.0?type=module', dependsOn: [taken, 'npm-dependency-of-the-agent'] },
      { ref: taken, dependsOn: [] },
    ],
  });
}

describe('bomwright merge (CLI)', () => {
  beforeAll(() => {
    generate('1.6', 'npm-1.6.json');
    generate('1.5', 'npm-1.5.json');
    write('go.json', goBom(read('npm-1.6.json')));
  }, 120_000);

  it('two generators of one project: one BOM, one entry per package, every edge kept, linked under the product', async () => {
    const result = await merge('npm-1.6.json', 'go.json', '-o', 'out.json', '--name', 'product', '--version', '3.0.0');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const npm = read('npm-1.6.json');
    const go = read('go.json');
    const out = read('out.json');
    await expectWhole(out, [npm, go]);
    const taken = (npm.components as Json[])[0]!['bom-ref'] as string;
    expect(result.stdout).toContain(`renamed: go.json: ${taken} → ${taken}-2\n`);
    expect(result.stdout).toMatch(
      /^Merged 2 BOMs into out\.json: components (\d+) → (\d+) \(and the new root product@3\.0\.0\); (\d+) duplicates combined, 1 bom-ref renamed, 0 conflicts$/m,
    );
    // --version is the product's version, never bomwright's own.
    expect((out.metadata as Json).component).toEqual({
      type: 'application',
      'bom-ref': 'product@3.0.0',
      name: 'product',
      version: '3.0.0',
    });
    const npmRoot = ((npm.metadata as Json).component as Json)['bom-ref'];
    expect((out.dependencies as Json[]).at(-1)).toEqual({
      ref: 'product@3.0.0',
      dependsOn: [npmRoot, 'pkg:golang/example.com/agent@v1.0.0?type=module'],
    });
    // No package twice: every purl appears once.
    const purls = allComponents(out).flatMap((c) => (typeof c.purl === 'string' ? [c.purl] : []));
    expect(new Set(purls).size).toBe(purls.length);
    const tools = ((out.metadata as Json).tools as Json).components as Json[];
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['cyclonedx-gomod', 'bomwright']));
    expect(new Set(tools.map((t) => `${String(t.name)}@${String(t.version)}`)).size).toBe(tools.length);
  });

  it('two spec versions: refused (exit 2) unless --spec-version names the output version', async () => {
    const refused = await merge('npm-1.6.json', 'npm-1.5.json', '-o', 'mixed.json');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /different spec versions \(npm-1\.6\.json: 1\.6, npm-1\.5\.json: 1\.5\).*--spec-version/,
    );
    expect(existsSync(at('mixed.json'))).toBe(false);
    const merged = await merge('npm-1.6.json', 'npm-1.5.json', '-o', 'mixed.json', '--spec-version', '1.6');
    expect(merged.code, merged.stderr).toBe(0);
    const out = read('mixed.json');
    expect(out.specVersion).toBe('1.6');
    await expectWhole(out, [read('npm-1.6.json'), read('npm-1.5.json')]);
    // The same package tree: the two writers' copies combine into the first one's count.
    const count = allComponents(read('npm-1.6.json')).length;
    expect(merged.stdout).toMatch(new RegExp(`components ${2 * count} → \\d+;`));
    // The 1.5 input went through the conversion `bomwright convert` makes, each change on its line.
    expect(merged.stdout).toContain('converted: npm-1.5.json#/specVersion: 1.5 → 1.6\n');
    expect(merged.stdout).toMatch(/, \d+ values? converted\n$/);
  });

  it('conflicts: exit 1 and nothing written, or --on-conflict first writes and lists them', async () => {
    write('c1.json', bom({ components: [lib('x', '1', { hashes: [{ alg: 'SHA-256', content: HASH('a') }] })] }));
    write('c2.json', bom({ components: [lib('x', '1', { hashes: [{ alg: 'SHA-256', content: HASH('b') }] })] }));
    const strict = ['--on-difference', 'hashes=fail'];
    const refused = await merge('c1.json', 'c2.json', '-o', 'conflict.json', ...strict);
    expect(refused.code).toBe(1);
    expect(existsSync(at('conflict.json'))).toBe(false);
    // The summary, conflicts included, goes to standard output whether written or not; the refusal to stderr.
    expect(refused.stdout).toContain(
      `conflict: pkg:npm/x@1: hashes[SHA-256]: ${HASH('a')} (kept) vs ${HASH('b')} (c2.json)\n`,
    );
    expect(refused.stderr).toContain(
      'bomwright: refusing to write conflict.json: the inputs disagree (1 conflict); fix the inputs, or keep the earlier value of each with --on-conflict first\n',
    );
    const kept = await merge('c1.json', 'c2.json', '-o', 'conflict.json', '--on-conflict', 'first', ...strict);
    expect(kept.code).toBe(0);
    expect(kept.stdout).toContain('conflict: pkg:npm/x@1: hashes[SHA-256]');
    expect((read('conflict.json').components as Json[])[0]!.hashes).toEqual([{ alg: 'SHA-256', content: HASH('a') }]);
  });

  it('by default hashes are a set and free text never blocks; --on-difference chooses per member', async () => {
    const described = (text: string, hash: string) =>
      bom({ components: [lib('x', '1', { description: text, hashes: [{ alg: 'SHA-256', content: HASH(hash) }] })] });
    write('d1.json', described('A parser', 'a'));
    write('d2.json', described('A JSON parser', 'b'));
    const merged = await merge('d1.json', 'd2.json', '-o', 'diff.json');
    expect(merged.code).toBe(0);
    expect(merged.stdout).toContain(
      'note: 1 difference in free text (or members chosen with --on-difference MEMBER=first): the earlier value kept, e.g. pkg:npm/x@1: description\n',
    );
    expect((read('diff.json').components as Json[])[0]).toMatchObject({
      description: 'A parser',
      hashes: [
        { alg: 'SHA-256', content: HASH('a') },
        { alg: 'SHA-256', content: HASH('b') },
      ],
    });
    const strict = await merge('d1.json', 'd2.json', '-o', 'diff2.json', '--on-difference', 'description=fail');
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('conflict: pkg:npm/x@1: description: A parser (kept) vs A JSON parser (d2.json)\n');
    const wrong = await merge('d1.json', 'd2.json', '-o', 'diff3.json', '--on-difference', 'description=maybe');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('E_USAGE');
  });

  it('probable duplicates are reported; --match coordinates combines them', async () => {
    const busybox = (purl: string) => bom({ components: [{ type: 'library', name: 'busybox', version: '1', purl }] });
    write('p1.json', busybox('pkg:apk/alpine/busybox@1?distro=3.13.1'));
    write('p2.json', busybox('pkg:alpine/busybox@1'));
    const reported = await merge('p1.json', 'p2.json', '-o', 'p.json');
    expect(reported.code).toBe(0);
    expect(reported.stdout).toContain(
      'probable duplicate: pkg:apk/alpine/busybox@1?distro=3.13.1 and pkg:alpine/busybox@1 (one package? combine with --match coordinates)\n',
    );
    expect(read('p.json').components).toHaveLength(2);
    const combined = await merge('p1.json', 'p2.json', '-o', 'p.json', '--match', 'coordinates');
    expect(combined.code).toBe(0);
    expect(combined.stdout).not.toContain('probable duplicate');
    expect(read('p.json').components).toHaveLength(1);
  });

  it('replaces a longer old output whole (#219), and -o may not be an input', async () => {
    write('small.json', bom({ components: [lib('x', '1')] }));
    writeFileSync(at('stale.json'), `${' '.repeat(100_000)}{}`);
    const result = await merge('small.json', '-o', 'stale.json');
    expect(result.code).toBe(0);
    expect(readFileSync(at('stale.json'), 'utf8')).toBe(`${JSON.stringify(read('stale.json'), null, 2)}\n`);
    const onto = await merge('small.json', '-o', './small.json');
    expect(onto.code).toBe(2);
    expect(onto.stderr).toMatch(/Refusing to write .*small\.json: it is an input of this command/);
  });

  it('an invalid input is refused (exit 1), as bump and sign refuse one', async () => {
    write(
      'bad.json',
      bom({
        components: [
          { type: 'library', 'bom-ref': 'a', name: 'a' },
          { type: 'library', 'bom-ref': 'a', name: 'b' },
        ],
      }),
    );
    const result = await merge('small.json', 'bad.json', '-o', 'never.json');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/refusing to merge bad\.json: 1 error/);
    expect(existsSync(at('never.json'))).toBe(false);
  });

  it('signed inputs: each verified; invalid refused (exit 1); re-signing needs them trusted or --allow-untrusted', async () => {
    const work = newDir();
    const cli = (...args: string[]) => runCli(args, { cwd: work });
    expect((await cli('keygen', '--out', 'k')).code).toBe(0);
    writeFileSync(path.join(work, 'a.json'), JSON.stringify(bom({ components: [lib('x', '1')] })));
    expect((await cli('sign', 'a.json', '--key', 'k.private.pem')).code).toBe(0);
    const unsigned = await cli('merge', 'a.json', '-o', 'm.json');
    expect(unsigned.code).toBe(0);
    expect(unsigned.stderr).toBe(
      'bomwright: warning: 1 signature of the inputs cannot survive a merge: a.json#/signature (untrusted: the embedded key is not in the trust store); sign the result with --key\n',
    );
    const trusted = ['--trust', 'k.public.jwk'];
    const checked = await cli('merge', 'a.json', '-o', 'm.json', ...trusted);
    expect(checked.stderr).toContain('a.json#/signature (valid, trusted)');
    // Re-signing an input no trusted key vouches for: refused, unless allowed.
    const untrusted = await cli('merge', 'a.json', '-o', 'u.json', '--key', 'k.private.pem');
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toContain(
      'bomwright: refusing to merge a.json: its signature /signature is untrusted and the result would be signed (give --trust with its key, or --allow-untrusted)\n',
    );
    expect(existsSync(path.join(work, 'u.json'))).toBe(false);
    const allowed = await cli('merge', 'a.json', '-o', 'u.json', '--key', 'k.private.pem', '--allow-untrusted');
    expect(allowed.code).toBe(0);
    const signed = await cli('merge', 'a.json', '-o', 'm.json', '--key', 'k.private.pem', ...trusted);
    expect(signed.code).toBe(0);
    expect(signed.stderr).toBe(
      'bomwright: warning: 1 signature of the inputs cannot survive a merge: a.json#/signature (valid, trusted)\n',
    );
    const verified = await cli('verify', 'm.json', '--trust', 'k.public.jwk', '--require-trusted');
    expect(verified.code, verified.stdout).toBe(0);
    // A tampered input: refused with or without --key, whatever is trusted.
    const tampered = JSON.parse(readFileSync(path.join(work, 'a.json'), 'utf8')) as Json;
    (tampered.components as Json[])[0]!.version = '2';
    writeFileSync(path.join(work, 't.json'), JSON.stringify(tampered));
    for (const extra of [[], ['--key', 'k.private.pem', '--allow-untrusted', ...trusted]]) {
      const result = await cli('merge', 't.json', '-o', 't-out.json', ...extra);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('t.json#/signature (invalid: ');
      expect(result.stderr).toContain('bomwright: refusing to merge t.json: its signature /signature is invalid\n');
      expect(existsSync(path.join(work, 't-out.json'))).toBe(false);
    }
  });

  it('--from package.json names the product; --hierarchical without one is a usage error', async () => {
    write('package.json', { name: '@acme/product', version: '2.1.0', license: 'MIT' });
    const result = await merge('small.json', 'go.json', '-o', 'from.json', '--from', 'package.json', '--hierarchical');
    expect(result.code, result.stderr).toBe(0);
    const out = read('from.json');
    expect((out.metadata as Json).component).toMatchObject({
      'bom-ref': 'pkg:npm/%40acme/product@2.1.0',
      group: '@acme',
      name: 'product',
      version: '2.1.0',
    });
    expect((out.components as Json[]).map((c) => c.name)).toEqual(['small', 'example.com/agent']);
    expect((await validate(out)).valid).toBe(true);
    const unnamed = await merge('small.json', '-o', 'h.json', '--hierarchical');
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain('A hierarchical merge needs the merged product');
  });

  it('operands as validate takes them: - for standard input, folders, patterns; -o - for standard output', async () => {
    const work = newDir();
    const cli = (args: string[], input?: string) =>
      runCli(['merge', ...args], { cwd: work, ...(input === undefined ? {} : { input }) });
    const one = bom({ serialNumber: 'urn:uuid:00000000-0000-4000-8000-000000000001', components: [lib('x', '1')] });
    const two = bom({ serialNumber: 'urn:uuid:00000000-0000-4000-8000-000000000002', components: [lib('y', '1')] });
    mkdirSync(path.join(work, 'many'));
    writeFileSync(path.join(work, 'many/one.json'), JSON.stringify(one));
    writeFileSync(path.join(work, 'many/two.cdx.json'), JSON.stringify(two));
    const names = (document: Json) => (document.components as Json[]).map((c) => c.name);
    // Standard input in, standard output out: the BOM alone on stdout, what is said about it on stderr.
    const piped = await cli(['-', 'many/two.cdx.json', '-o', '-'], JSON.stringify(one));
    expect(piped.code, piped.stderr).toBe(0);
    expect(names(JSON.parse(piped.stdout) as Json)).toEqual(['x', 'y']);
    expect(piped.stderr).toMatch(/^Merged 2 BOMs into standard output: components 2 → 2;/m);
    // XML either way: read from stdin, written to stdout with --to xml.
    const xml = await cli(['-', '-o', '-', '--to', 'xml'], JSON.stringify(one));
    expect(xml.code, xml.stderr).toBe(0);
    expect(xml.stdout).toMatch(/^<\?xml[^]*<name>x<\/name>/);
    const fromXml = await cli(['-', 'many/two.cdx.json', '-o', '-', '--to', 'json'], xml.stdout);
    expect(fromXml.code, fromXml.stderr).toBe(0);
    expect(names(JSON.parse(fromXml.stdout) as Json)).toEqual(['x', 'y']);
    // A folder and a pattern: the files they hold, in name order.
    for (const operand of ['many', 'many/*.json']) {
      const found = await cli([operand, '-o', 'out.json']);
      expect(found.code, found.stderr).toBe(0);
      expect(names(JSON.parse(readFileSync(path.join(work, 'out.json'), 'utf8')) as Json)).toEqual(['x', 'y']);
      expect(found.stdout).toMatch(/^Merged 2 BOMs into out\.json/m);
    }
    // A file named twice: merged with itself, and said so (and it is one document twice).
    const twice = await cli(['many/one.json', 'many/one.json', '-o', 'twice.json']);
    expect(twice.code).toBe(0);
    expect(twice.stderr).toContain('bomwright: warning: many/one.json is named twice: it is merged with itself\n');
    expect(twice.stdout).toContain('same document: many/one.json and many/one.json have one serial number and version');
    // Standard input can be read once; a pattern that matches nothing is a usage error, as for validate.
    const stdinTwice = await cli(['-', '-', '-o', 'x.json'], JSON.stringify(one));
    expect(stdinTwice.code).toBe(2);
    expect(stdinTwice.stderr).toContain('Standard input (-) can be read once');
    const none = await cli(['nothing/*.json', '-o', 'x.json']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('E_NO_MATCH');
    expect(existsSync(path.join(work, 'x.json'))).toBe(false);
  });

  it('two different documents with one serial number are reported as one document twice', async () => {
    const serial = 'urn:uuid:00000000-0000-4000-8000-00000000000a';
    write('s1.json', bom({ serialNumber: serial, components: [lib('x', '1')] }));
    write('s2.json', bom({ serialNumber: serial, components: [lib('y', '1')] }));
    const result = await merge('s1.json', 's2.json', '-o', 's.json');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('same document: s1.json and s2.json have one serial number and version');
  });

  it('--format json: the summary on standard output written or not, after nothing else; stderr when -o -', async () => {
    write('j1.json', bom({ components: [lib('x', '1', { hashes: [{ alg: 'SHA-256', content: HASH('a') }] })] }));
    write('j2.json', bom({ components: [lib('x', '1', { hashes: [{ alg: 'SHA-256', content: HASH('b') }] })] }));
    const written = await merge('j1.json', 'j2.json', '-o', 'j.json', '--format', 'json');
    expect(written.code).toBe(0);
    expect(JSON.parse(written.stdout)).toMatchObject({ written: true, conflicts: [] });
    const refused = await merge(
      'j1.json',
      'j2.json',
      '-o',
      'j-no.json',
      '--format',
      'json',
      '--on-difference',
      'hashes=fail',
    );
    expect(refused.code).toBe(1);
    // A CI step piping stdout into jq gets the one JSON document, failure or not.
    expect(JSON.parse(refused.stdout)).toMatchObject({ written: false, conflicts: [{ member: 'hashes[SHA-256]' }] });
    expect(refused.stderr).not.toContain('{');
    const piped = await merge('j1.json', 'j2.json', '-o', '-', '--format', 'json');
    expect(piped.code).toBe(0);
    expect(JSON.parse(piped.stdout)).toMatchObject({ bomFormat: 'CycloneDX' });
    expect(JSON.parse(piped.stderr)).toMatchObject({ output: '-', written: true });
  });

  it("--from package.json --version: the product's purl and bom-ref name that version; init --from likewise", async () => {
    write('package.json', { name: '@acme/product', version: '2.1.0' });
    const result = await merge('small.json', '-o', 'v.json', '--from', 'package.json', '--version', '9.9.9');
    expect(result.code, result.stderr).toBe(0);
    expect((read('v.json').metadata as Json).component).toMatchObject({
      'bom-ref': 'pkg:npm/%40acme/product@9.9.9',
      version: '9.9.9',
      purl: 'pkg:npm/%40acme/product@9.9.9',
    });
    const init = await runCli(['init', '--from', 'package.json', '--version', '9.9.9', '-o', 'init.xml'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    const xml = readFileSync(at('init.xml'), 'utf8');
    expect(xml).toContain('bom-ref="pkg:npm/%40acme/product@9.9.9"');
    expect(xml).toContain('<purl>pkg:npm/%40acme/product@9.9.9</purl>');
    expect(xml).not.toContain('2.1.0');
  });

  it("signed inputs, JSON and XML: merge accepts an input's signatures exactly when verify does, flag for flag", async () => {
    const work = newDir();
    const keys = path.join(ROOT, 'test/xml/fixtures/signatures');
    const cli = (...args: string[]) => runCli(args, { cwd: work });
    writeFileSync(path.join(work, 'a.json'), JSON.stringify(bom({ components: [lib('x', '1')] })));
    expect((await cli('convert', 'a.json', '-o', 'a.xml')).code).toBe(0);
    // JSON: signed with its public key embedded (valid, untrusted unless --trust holds it). XML: a bare signature.
    expect((await cli('sign', 'a.json', '--key', path.join(keys, 'TEST-KEY-rsa.private.pem'))).code).toBe(0);
    expect((await cli('sign', 'a.xml', '--key', path.join(keys, 'TEST-KEY-rsa.private.pem'))).code).toBe(0);
    expect((await cli('keygen', '--out', 'other')).code).toBe(0);
    const right = ['--trust', path.join(keys, 'TEST-KEY-rsa.public.pem')];
    const wrong = ['--trust', 'other.public.jwk'];
    const policies = [
      [],
      right,
      wrong,
      [...wrong, '--allow-untrusted'],
      ['--allow-unverifiable'],
      [...wrong, '--allow-untrusted', '--allow-unverifiable'],
      ['--require-trusted'],
    ];
    const outcomes: string[] = [];
    for (const file of ['a.json', 'a.xml'])
      for (const flags of policies) {
        const verified = await cli('verify', file, ...flags);
        const merged = await cli('merge', file, '-o', 'm.json', ...flags);
        expect(merged.code, `${file} ${flags.join(' ')}: ${merged.stderr}`).toBe(verified.code);
        outcomes.push(`${file} ${flags.join(' ')}: ${merged.code}`.replace(keys, 'KEYS'));
        if (merged.code !== 0)
          expect(merged.stderr).toMatch(
            new RegExp(`refusing to merge ${file.replace('.', '\\.')}: its signature \\S+ is`),
          );
      }
    // Both outcomes occur for both syntaxes (else the comparison above proves little).
    expect(outcomes).toEqual([
      'a.json : 0',
      'a.json --trust KEYS/TEST-KEY-rsa.public.pem: 0',
      'a.json --trust other.public.jwk: 1',
      'a.json --trust other.public.jwk --allow-untrusted: 0',
      'a.json --allow-unverifiable: 0',
      'a.json --trust other.public.jwk --allow-untrusted --allow-unverifiable: 0',
      'a.json --require-trusted: 1',
      'a.xml : 1',
      'a.xml --trust KEYS/TEST-KEY-rsa.public.pem: 0',
      'a.xml --trust other.public.jwk: 1',
      'a.xml --trust other.public.jwk --allow-untrusted: 1',
      'a.xml --allow-unverifiable: 0',
      'a.xml --trust other.public.jwk --allow-untrusted --allow-unverifiable: 0',
      'a.xml --require-trusted: 1',
    ]);
    const ok = await cli('merge', 'a.xml', '-o', 'm.xml', ...right);
    expect(ok.stderr).toMatch(
      /1 signature of the inputs cannot survive a merge: a\.xml#\S+ \(valid, trusted\); sign the result/,
    );
    expect(readFileSync(path.join(work, 'm.xml'), 'utf8')).not.toContain('Signature');
    // A tampered XML input: refused whatever is trusted or allowed.
    const text = readFileSync(path.join(work, 'a.xml'), 'utf8');
    writeFileSync(path.join(work, 't.xml'), text.replace('<version>1</version>', '<version>2</version>'));
    const tampered = await cli(
      'merge',
      't.xml',
      '-o',
      't-out.json',
      ...right,
      '--allow-untrusted',
      '--allow-unverifiable',
    );
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toMatch(/refusing to merge t\.xml: its signature \S+ is invalid\n/);
    expect(existsSync(path.join(work, 't-out.json'))).toBe(false);
  });

  it('--format json: the summary as data; --baseline keeps the serial number', async () => {
    const first = await merge('small.json', '-o', 'base.json', '--format', 'json');
    expect(first.code).toBe(0);
    const summary = JSON.parse(first.stdout) as Json;
    expect(summary).toMatchObject({ written: true, valid: true, componentsIn: 1, componentsOut: 1, conflicts: [] });
    const again = await merge('small.json', '-o', 'base.json', '--baseline', 'base.json');
    expect(again.code).toBe(0);
    const base = read('base.json');
    expect(base.version).toBe(1);
    const next = await merge(
      'small.json',
      'go.json',
      '-o',
      'next.json',
      '--baseline',
      'base.json',
      '--name',
      'p',
      '--version',
      '1',
    );
    expect(next.code, next.stderr).toBe(0);
    expect(read('next.json')).toMatchObject({ serialNumber: base.serialNumber, version: 2 });
  });
});
