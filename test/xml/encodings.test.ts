/**
 * XML in every encoding XML 1.0 §4.3.3 requires a processor to read (issue 43): UTF-8 and UTF-16 in either byte
 * order, told by a byte-order mark or by the bytes of `<?`. One mark is the encoding's and no warning; a second
 * U+FEFF before the document is not well-formed. Each verdict is also compared with xmllint's where it is installed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/index.js';
import { runCli, tempDirs } from '../helpers.js';

const XMLLINT = '/usr/bin/xmllint';
const tempDir = tempDirs();

const body =
  '<bom xmlns="http://cyclonedx.org/schema/bom/1.6" version="1"><components><component type="library">' +
  '<name>caf\u00e9 \u{1F600}</name></component></components></bom>\n';
const declared = (encoding: string) => `<?xml version="1.0" encoding="${encoding}"?>\n${body}`;

const LE_MARK = [0xff, 0xfe];
const BE_MARK = [0xfe, 0xff];
const UTF8_MARK = [0xef, 0xbb, 0xbf];

function utf16(text: string, order: 'le' | 'be'): number[] {
  const bytes = [...Buffer.from(text, 'utf16le')];
  if (order === 'be') for (let i = 0; i < bytes.length; i += 2) [bytes[i], bytes[i + 1]] = [bytes[i + 1]!, bytes[i]!];
  return bytes;
}
const utf8 = (text: string) => [...Buffer.from(text, 'utf8')];

/** name, bytes, whether the document is read (valid, no warning): the verdict xmllint gives too. */
const CASES: [string, number[], boolean][] = [
  ['UTF-8, no mark', utf8(declared('UTF-8')), true],
  ['UTF-8, one mark', [...UTF8_MARK, ...utf8(declared('UTF-8'))], true],
  ['UTF-8, one mark, no declaration', [...UTF8_MARK, ...utf8(body)], true],
  ['UTF-8, two marks', [...UTF8_MARK, ...UTF8_MARK, ...utf8(declared('UTF-8'))], false],
  ['UTF-8, three marks', [...UTF8_MARK, ...UTF8_MARK, ...UTF8_MARK, ...utf8(declared('UTF-8'))], false],
  ['UTF-8, two marks, no declaration', [...UTF8_MARK, ...UTF8_MARK, ...utf8(body)], false],
  ['UTF-8 labelled UTF-16', utf8(declared('UTF-16')), false],
  ['UTF-8, one mark, then white space before the declaration', [...UTF8_MARK, 0x0a, ...utf8(declared('UTF-8'))], false],
  ...(['le', 'be'] as const).flatMap((order): [string, number[], boolean][] => {
    const mark = order === 'le' ? LE_MARK : BE_MARK;
    const name = `UTF-16${order.toUpperCase()}`;
    return [
      [`${name}, mark, declared UTF-16`, [...mark, ...utf16(declared('UTF-16'), order)], true],
      [`${name}, mark, declared ${name}`, [...mark, ...utf16(declared(name), order)], true],
      [`${name}, mark, no declaration`, [...mark, ...utf16(body, order)], true],
      [`${name}, mark, declared UTF-8`, [...mark, ...utf16(declared('UTF-8'), order)], true],
      [`${name}, no mark, declared UTF-16`, utf16(declared('UTF-16'), order), true],
      [`${name}, no mark, declared UTF-8`, utf16(declared('UTF-8'), order), true],
      [`${name}, no mark, no declaration`, utf16(body, order), false],
      [`${name}, two marks`, [...mark, ...mark, ...utf16(declared('UTF-16'), order)], false],
      [
        `${name}, mark, an unpaired surrogate`,
        [...mark, ...utf16(declared('UTF-16').replace('caf', '\uD800af'), order)],
        false,
      ],
    ];
  }),
];

describe('XML encodings', () => {
  it.each(CASES)('%s', async (_name, bytes, read) => {
    const result = await validate(Uint8Array.from(bytes));
    if (read) {
      expect(result.diagnostics).toEqual([]);
      expect(result).toMatchObject({ valid: true, syntax: 'xml' });
    } else {
      expect(result.valid).toBe(false);
      expect(result.diagnostics.map((d) => d.ruleId)).toEqual([
        expect.stringMatching(/^(xml\/syntax|read\/unsupported-encoding|read\/invalid-utf8|json\/syntax)$/),
      ]);
    }
  });

  it('a second mark is named as such, and one mark is no warning while JSON’s is', async () => {
    const two = await validate(Uint8Array.from([...UTF8_MARK, ...UTF8_MARK, ...utf8(body)]));
    expect(two.diagnostics).toMatchObject([
      { ruleId: 'xml/syntax', message: expect.stringMatching(/second byte-order mark/), line: 1, column: 1 },
    ]);
    const json = await validate(Uint8Array.from([...UTF8_MARK, ...utf8('{"bomFormat":"CycloneDX"}')]));
    expect(json.diagnostics.map((d) => d.ruleId)).toContain('read/byte-order-mark');
  });

  it('UTF-16 JSON is still refused: JSON must be UTF-8', async () => {
    const json = JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.6', version: 1 });
    const result = await validate(Uint8Array.from([...LE_MARK, ...utf16(json, 'le')]));
    expect(result.diagnostics).toMatchObject([
      { ruleId: 'read/unsupported-encoding', message: expect.stringMatching(/UTF-16.*must be UTF-8/) },
    ]);
  });

  it('the CLI reads UTF-16 files and a marked UTF-8 file without a warning (--max-warnings 0 passes)', async () => {
    const dir = tempDir();
    const files = {
      'le.xml': [...LE_MARK, ...utf16(declared('UTF-16'), 'le')],
      'be.xml': utf16(declared('UTF-16'), 'be'),
      'marked.xml': [...UTF8_MARK, ...utf8(declared('UTF-8'))],
    };
    for (const [name, bytes] of Object.entries(files)) writeFileSync(path.join(dir, name), Uint8Array.from(bytes));
    const run = await runCli(['validate', dir, '--max-warnings', '0', '--format', 'json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).summary).toMatchObject({ documents: 3, errors: 0, warnings: 0 });
  });

  it('sign refuses UTF-16 in one line (it writes UTF-8), and keeps a UTF-8 mark', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'le.xml'), Uint8Array.from([...LE_MARK, ...utf16(declared('UTF-16'), 'le')]));
    const keygen = await runCli(['keygen', '--alg', 'ES256', '--out', 'k'], { cwd: dir });
    expect(keygen.code).toBe(0);
    const refused = await runCli(['sign', 'le.xml', '--key', 'k.private.pem'], { cwd: dir });
    expect(refused.stderr).toMatch(/^bomwright: .*le\.xml is UTF-16LE: bomwright rewrites XML in UTF-8.*\n$/);
    expect(refused.code).toBe(1);
    writeFileSync(path.join(dir, 'marked.xml'), Uint8Array.from([...UTF8_MARK, ...utf8(declared('UTF-8'))]));
    const signed = await runCli(['sign', 'marked.xml', '--key', 'k.private.pem'], { cwd: dir });
    expect(signed.code).toBe(0);
    expect([...readFileSync(path.join(dir, 'marked.xml')).subarray(0, 4)]).toEqual([...UTF8_MARK, 0x3c]);
  });

  it.skipIf(!existsSync(XMLLINT))('each verdict is xmllint’s (skipped: /usr/bin/xmllint is not installed)', () => {
    const dir = tempDir();
    const disagreements: string[] = [];
    CASES.forEach(([name, bytes, read], i) => {
      const file = path.join(dir, `case-${i}.xml`);
      writeFileSync(file, Uint8Array.from(bytes));
      const xmllint = spawnSync(XMLLINT, ['--noout', '--nonet', file], { encoding: 'utf8' });
      if ((xmllint.status === 0) !== read) disagreements.push(`${name}: xmllint exit ${xmllint.status}`);
    });
    expect(disagreements).toEqual([]);
  });
});
