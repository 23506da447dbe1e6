/**
 * `bomwright convert` as a subprocess: real BOMs of this very project from the official npm generator converted to
 * every version, standard input and output, XML input, the output syntax chosen, the refusals and their codes, and
 * that nothing is written unless the result is valid.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SPEC_FORMATS, validate } from '../../src/index.js';
import { ROOT, runCli, SAMPLES, tempDirs } from '../helpers.js';
import { bom, lib } from '../author/merge-fixtures.js';

type Json = Record<string, unknown>;
const GENERATOR = path.join(ROOT, 'test/node_modules/@cyclonedx/cyclonedx-npm/bin/cyclonedx-npm-cli.js');
const newDir = tempDirs('bomwright-convert-');
const dir = newDir();
const at = (name: string) => path.join(dir, name);
const read = (name: string) => JSON.parse(readFileSync(at(name), 'utf8')) as Json;
const write = (name: string, value: unknown) => writeFileSync(at(name), `${JSON.stringify(value, null, 2)}\n`);
const convert = (...args: string[]) => runCli(['convert', ...args], { cwd: dir });
const VERSIONS = SPEC_FORMATS.filter((f) => f.family === 'cyclonedx').map((f) => f.specVersion);

async function expectValid(name: string, specVersion: string): Promise<void> {
  const text = readFileSync(at(name), 'utf8');
  expect((JSON.parse(text) as Json).specVersion).toBe(specVersion);
  const result = await validate(text);
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
}

describe('bomwright convert', () => {
  beforeAll(() => {
    for (const version of ['1.4', '1.6']) {
      const run = spawnSync(
        process.execPath,
        [
          GENERATOR,
          '--spec-version',
          version,
          '--package-lock-only',
          '--output-format',
          'JSON',
          '--output-file',
          at(`npm-${version}.json`),
        ],
        { cwd: ROOT, encoding: 'utf8' },
      );
      if (run.status !== 0) throw new Error(`cyclonedx-npm ${version}: ${run.stderr}`);
    }
  }, 120_000);

  it.each(['1.4', '1.6'])('the npm generator\u2019s %s BOM, converted to every version, validates', async (from) => {
    for (const to of VERSIONS) {
      const result = await convert(`npm-${from}.json`, '-o', `npm-${from}-to-${to}.json`, '--spec-version', to);
      expect(result.code, result.stderr).toBe(0);
      await expectValid(`npm-${from}-to-${to}.json`, to);
      expect(result.stdout).toMatch(
        new RegExp(`Converted npm-${from}\\.json \\(JSON ${from}\\) to npm-${from}-to-${to}\\.json \\(JSON ${to}\\)`),
      );
    }
  });

  it('prints one line per member dropped and per value converted, then the summary', async () => {
    const omnibor = ['gitoid:blob:sha1:261eeb9e9f8b2b4b0d119366dda99c6fd7d35c64'];
    write(
      'modern.json',
      bom({
        metadata: { tools: { components: [{ type: 'application', name: 'syft', version: '1' }] } },
        components: [lib('x', '1', { omniborId: omnibor })],
      }),
    );
    const result = await convert('modern.json', '-o', 'old.json', '--spec-version', '1.4');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      'dropped: /components/0/omniborId: CycloneDX 1.4 has no such member',
      'converted: /metadata/tools: {"components":[{"type":"application","name":"syft","version… → [{"name":"syft","version":"1"}]',
      'converted: /specVersion: 1.6 → 1.4',
      'Converted modern.json (JSON 1.6) to old.json (JSON 1.4): 1 dropped, 2 converted',
      '',
    ]);
    await expectValid('old.json', '1.4');
  });

  it('- reads standard input and writes standard output; what it says goes to stderr then', async () => {
    const input = readFileSync(path.join(SAMPLES, 'valid-full-1.4.json'), 'utf8');
    const result = await runCli(['convert', '-', '-o', '-', '--spec-version', '1.6'], { cwd: dir, input });
    expect(result.code, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout) as Json;
    expect(out.specVersion).toBe('1.6');
    expect((await validate(result.stdout)).valid).toBe(true);
    expect(result.stderr).toMatch(/^converted: \/metadata\/tools: /m);
    expect(result.stderr).toMatch(/Converted - \(JSON 1\.4\) to - \(JSON 1\.6\): 0 dropped, 3 converted\n$/);
  });

  it('without --spec-version, the input\u2019s version; the input\u2019s layout is kept, and in place is allowed', async () => {
    const document = bom({ components: [lib('x', '1')] }, '1.5');
    writeFileSync(at('tabs.json'), `${JSON.stringify(document, null, '\t')}\n`);
    const result = await convert('tabs.json', '-o', 'tabs.json');
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(at('tabs.json'), 'utf8')).toBe(`${JSON.stringify(document, null, '\t')}\n`);
    expect(result.stdout).toBe('Converted tabs.json (JSON 1.5) to tabs.json (JSON 1.5): 0 dropped, 0 converted\n');
  });

  it('reads CycloneDX XML, 1.0 and 1.1 upward only', async () => {
    const xml = path.join(SAMPLES, 'valid-full-1.2.xml');
    const up = await convert(xml, '-o', 'from-xml.json', '--spec-version', '1.6');
    expect(up.code, up.stderr).toBe(0);
    await expectValid('from-xml.json', '1.6');
    expect(up.stdout).toMatch(/\(XML 1\.2\) to from-xml\.json \(JSON 1\.6\)/);
    const old = path.join(SAMPLES, 'valid-full-1.1.xml');
    const refused = await convert(old, '-o', 'from-1.1.json');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'bomwright: E_CONVERT: CycloneDX 1.1 has no JSON form; choose the version to convert it up to with --spec-version\n',
    );
    expect(existsSync(at('from-1.1.json'))).toBe(false);
    const same = await convert(old, '-o', 'same-1.1.xml');
    expect(same.code).toBe(2);
    expect(same.stderr).toBe(
      'bomwright: E_CONVERT: CycloneDX 1.1 converts upward only; choose the version to convert it up to with --spec-version\n',
    );
    const upward = await convert(old, '-o', 'from-1.1.json', '--spec-version', '1.2');
    expect(upward.code, upward.stderr).toBe(0);
    expect(read('from-1.1.json').specVersion).toBe('1.2');
  });

  it('the output syntax: --to, else -o\u2019s extension; CBOM has no XML form (E_CONVERT)', async () => {
    const json = await convert(path.join(SAMPLES, 'valid-full-1.6.json'), '-o', 'named.xml', '--to', 'json');
    expect(json.code, json.stderr).toBe(0);
    expect(read('named.xml').specVersion).toBe('1.6');
    const cbom = await convert(path.join(SAMPLES, 'valid-full-1.4-cbom-1.0.json'), '-o', 'cbom.xml');
    expect(cbom.code).toBe(2);
    expect(cbom.stderr).toBe(
      'bomwright: E_CONVERT: CBOM 1.4-cbom-1.0 has no XML form; convert it to JSON, or to CycloneDX 1.6 or later (--spec-version 1.6), which has one\n',
    );
    expect(existsSync(at('cbom.xml'))).toBe(false);
    // As CycloneDX 1.6 (the version CBOM was upstreamed into), the same document has an XML form.
    const upstream = await convert(
      path.join(SAMPLES, 'valid-full-1.4-cbom-1.0.json'),
      '-o',
      'cbom-1.6.xml',
      '--spec-version',
      '1.6',
    );
    expect(upstream.code, upstream.stderr).toBe(0);
    expect(upstream.stdout).toMatch(/\(JSON 1\.4-cbom-1\.0\) to cbom-1\.6\.xml \(XML 1\.6\): \d+ dropped/);
    const back = await runCli(['validate', at('cbom-1.6.xml')]);
    expect(back.code, back.stdout).toBe(0);
    // Nothing converts to IBM's CBOM.
    writeFileSync(at('plain.json'), readFileSync(path.join(SAMPLES, 'valid-full-1.6.json')));
    const family = await convert(at('plain.json'), '-o', 'x.json', '--spec-version', '1.4-cbom-1.0');
    expect(family.code).toBe(2);
    expect(family.stderr).toMatch(/^bomwright: E_CONVERT: A CycloneDX 1\.6 document cannot be converted to CBOM/);
  });

  it('writes XML (-o\u2019s extension, or --to xml to stdout) that validates, and reads it back', async () => {
    const json = path.join(SAMPLES, 'valid-full-1.4.json');
    const written = await convert(json, '-o', 'full.xml', '--spec-version', '1.6');
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toMatch(/\(JSON 1\.4\) to full\.xml \(XML 1\.6\)/);
    const xml = readFileSync(at('full.xml'), 'utf8');
    expect(xml).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<bom xmlns="http:\/\/cyclonedx\.org\/schema\/bom\/1\.6"/,
    );
    expect((await validate(xml)).valid).toBe(true);
    const back = await convert('full.xml', '-o', 'back.json');
    expect(back.code, back.stderr).toBe(0);
    await expectValid('back.json', '1.6');
    const piped = await runCli(['convert', '-', '-o', '-', '--to', 'xml'], {
      cwd: dir,
      input: readFileSync(json, 'utf8'),
    });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toMatch(/<bom xmlns="http:\/\/cyclonedx\.org\/schema\/bom\/1\.4"/);
    expect(piped.stderr).toMatch(/to - \(XML 1\.4\)/);
  });

  it('signatures do not survive a change of syntax or version: each is listed', async () => {
    const signed = path.join(ROOT, 'test/xml/fixtures/signatures/bomwright-signed.xml');
    const result = await convert(signed, '-o', 'unsigned.json');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^dropped: \/bom\/Signature: an XML signature signs the input as written; sign the converted document$/m,
    );
    const jsf = bom({ components: [lib('x', '1')], signature: { algorithm: 'ES256', value: 'abc' } });
    write('jsf.json', jsf);
    const toXml = await convert('jsf.json', '-o', 'jsf.xml');
    expect(toXml.code, toXml.stderr).toBe(0);
    expect(toXml.stdout).toMatch(
      /^dropped: \/signature: the conversion changes what it signs; sign the converted document$/m,
    );
  });

  it('writes nothing when the result would be invalid (exit 1), and says why', async () => {
    const twice = bom({ components: [lib('x', '1'), lib('x', '1')] }, '1.6');
    write('twice.json', twice);
    writeFileSync(at('kept.json'), 'the old content\n');
    const result = await convert('twice.json', '-o', 'kept.json', '--spec-version', '1.5');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/refusing to write kept\.json: the converted BOM has \d+ errors?/);
    expect(readFileSync(at('kept.json'), 'utf8')).toBe('the old content\n');
  });

  it('refuses unreadable input with one line and its code (a document defect: exit 1)', async () => {
    writeFileSync(at('broken.json'), '{"bomFormat": ');
    const broken = await convert('broken.json', '-o', 'out.json');
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^bomwright: E_INPUT: broken\.json:1:\d+: .*\[json\/syntax\]\n$/);
    write('not-a-bom.json', { hello: 'world' });
    const other = await convert('not-a-bom.json', '-o', 'out.json');
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/^bomwright: E_INPUT: Cannot convert the document: /);
    expect(existsSync(at('out.json'))).toBe(false);
  });
});
