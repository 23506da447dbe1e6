import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bump, init, normalize, validate, verify, versionRule } from '../../src/index.js';
import { signDocument as sign } from '../../src/jsf/sign-document.js';
import { freshKeyTexts, HAVE_VECTORS, KEYS, SIGNATURES } from '../jsf/fixtures.js';
import { parseKeyMaterial } from '../../src/index.js';
import { minimalBom, SAMPLES } from '../helpers.js';

/** Rules at their boundaries, asserted through the library: rule id, severity, pointer, position. */
const findings = async (input: string | Uint8Array | object) =>
  (await validate(input)).diagnostics.map((d) => [d.ruleId, d.severity, d.pointer, d.line, d.column]);

describe('duplicate member names', () => {
  it('are found when the names hold escaped quotes and backslashes', async () => {
    const quoted = '{"a\\"b":1,"a\\"b":2}';
    expect(await findings(quoted)).toContainEqual([
      'json/duplicate-key',
      'error',
      '/a"b',
      1,
      quoted.lastIndexOf('"a') + 1,
    ]);
    const backslash = '{"a\\\\":1,"a\\\\":2}';
    expect(await findings(backslash)).toContainEqual([
      'json/duplicate-key',
      'error',
      '/a\\',
      1,
      backslash.lastIndexOf('"a') + 1,
    ]);
    // Different names that look alike once escapes are read are not duplicates.
    const distinct = await findings('{"a\\"b":1,"a\\\\b":2}');
    expect(distinct.filter(([rule]) => rule === 'json/duplicate-key')).toEqual([]);
  });
});

describe('text encoding at its boundaries', () => {
  const wrap = (bytes: number[]) =>
    Uint8Array.from([...Buffer.from('{"bomFormat":"x'), ...bytes, ...Buffer.from('"}')]);
  it.each([
    ['U+007F', [0x7f], true],
    ['a lone continuation byte', [0x80], false],
    ['U+0080', [0xc2, 0x80], true],
    ['an overlong two-byte form', [0xc1, 0xbf], false],
    ['U+0800', [0xe0, 0xa0, 0x80], true],
    ['an overlong three-byte form', [0xe0, 0x9f, 0xbf], false],
    ['U+D7FF', [0xed, 0x9f, 0xbf], true],
    ['an encoded surrogate', [0xed, 0xa0, 0x80], false],
    ['U+10FFFF', [0xf4, 0x8f, 0xbf, 0xbf], true],
    ['beyond U+10FFFF', [0xf4, 0x90, 0x80, 0x80], false],
    ['a byte never used in UTF-8', [0xf5, 0x80, 0x80, 0x80], false],
    ['a truncated sequence', [0xe2, 0x82], false],
  ])('%s is %s UTF-8', async (_name, bytes, valid) => {
    const rules = (await findings(wrap(bytes))).map(([rule]) => rule);
    expect(rules.includes('read/invalid-utf8')).toBe(!valid);
  });

  it('pairs a high surrogate only with the low surrogate right after it, and says where a lone one is', async () => {
    expect(await findings('{"bomFormat":"\\ud800x\\udc00"}')).toContainEqual([
      'json/lone-surrogate',
      'error',
      '/bomFormat',
      1,
      14,
    ]);
    const paired = await findings('{"bomFormat":"\\ud800\\udc00"}');
    expect(paired.filter(([rule]) => rule === 'json/lone-surrogate')).toEqual([]);
  });
});

describe('positions', () => {
  it('stay right after an array that ends in a number', async () => {
    const text = '{\n "bomFormat": "CycloneDX",\n "specVersion": "1.6",\n "x": [1, 22],\n "version": 0\n}';
    // The member name's position: line 5, column 2.
    expect(await findings(text)).toContainEqual(['bom/version', 'error', '/version', 5, 2]);
  });
});

describe('rules fire only where they apply', () => {
  it('the repeated-dependency rule is CBOM-only', async () => {
    const dependencies = [
      { ref: 'a', dependsOn: [] },
      { ref: 'a', dependsOn: [] },
    ];
    const components = [{ type: 'library', name: 'a', version: '1', 'bom-ref': 'a' }];
    const cyclonedx = await validate(minimalBom('1.6', { components, dependencies }));
    expect(cyclonedx.diagnostics.map((d) => d.ruleId)).not.toContain('cbom/repeated-dependency');
  });

  it('uniqueItems compares items, not their concatenation', async () => {
    // "a1" + "23" and "a12" + "3" read the same run together; as items they differ.
    const apart = minimalBom('1.6', {
      components: [
        { type: 'library', name: 'a1', version: '23' },
        { type: 'library', name: 'a12', version: '3' },
      ],
    });
    expect((await validate(apart)).diagnostics).toEqual([]);
    const same = minimalBom('1.6', {
      components: [
        { type: 'library', name: 'x' },
        { type: 'library', name: 'x' },
      ],
    });
    expect((await validate(same)).diagnostics.map((d) => [d.ruleId, d.severity, d.pointer])).toEqual([
      ['schema/unique-items', 'error', '/components/1'],
    ]);
  });

  it('BOM-Links may carry versions of several digits', async () => {
    const link = 'urn:cdx:3e671687-395b-41f5-a30f-a58921a69b79/123#component-a';
    const doc = minimalBom('1.6', {
      components: [{ type: 'library', name: 'a', 'bom-ref': 'a' }],
      compositions: [{ aggregate: 'complete', assemblies: [link] }],
    });
    expect((await validate(doc)).diagnostics).toEqual([]);
  });
});

describe('the version rule at its edges', () => {
  const base = JSON.parse(readFileSync(path.join(SAMPLES, 'valid-full-1.6.json'), 'utf8')) as Record<string, unknown>;
  it.each([0, -1, 1.5])('version %s is never a valid next version', (version) => {
    expect(versionRule({ ...base, version }, { document: base }).map((d) => d.pointer)).toEqual(['/version']);
  });

  it('a bump that adds a serial number is not a changed serial number', () => {
    const { serialNumber: _s, ...unserialized } = base;
    const next = bump(unserialized).document;
    expect(next.serialNumber).toMatch(/^urn:uuid:/);
    expect(versionRule(next, { document: unserialized })).toEqual([]);
  });
});

describe("the caller's input is never changed", () => {
  it('by bump, normalize, sign, versionRule and validate', async () => {
    const pristine = init({ component: { name: 'demo', version: '1' }, toolVersion: 'test' });
    const text = JSON.stringify(pristine);
    const key = parseKeyMaterial(freshKeyTexts('ES256').privateKey, 'key')[0]!;
    bump(pristine);
    normalize(pristine);
    sign(pristine, { key, targets: ['root'] });
    versionRule(pristine, { document: pristine });
    await validate(pristine);
    expect(JSON.stringify(pristine)).toBe(text);
  });
});

describe.skipIf(!HAVE_VECTORS)('JSF certificate paths', () => {
  it('refuse a publicKey that is not the key of the first certificate', () => {
    const vector = JSON.parse(readFileSync(path.join(SIGNATURES, 'ed25519#ed25519@cer.json'), 'utf8')) as {
      signature: Record<string, unknown>;
    };
    const other = parseKeyMaterial(readFileSync(path.join(KEYS, 'ed448publickey.pem'), 'utf8'), 'other')[0]!;
    const own = parseKeyMaterial(readFileSync(path.join(KEYS, 'ed25519publickey.pem'), 'utf8'), 'own')[0]!;
    const jwk = (k: typeof other) => k.publicKey!.export({ format: 'jwk' });
    const mismatched = { ...vector, signature: { ...vector.signature, publicKey: jwk(other) } };
    expect(verify(mismatched).reports.map((r) => [r.verdict, r.reason])).toEqual([
      ['invalid', 'publicKey is not the key of the first certificate in certificatePath'],
    ]);
    // The same check passes its own key on to the signature check.
    const matched = { ...vector, signature: { ...vector.signature, publicKey: jwk(own) } };
    expect(verify(matched).reports[0]?.reason).not.toBe(
      'publicKey is not the key of the first certificate in certificatePath',
    );
  });

  it('"signature": null is no signed object', () => {
    expect(verify({ a: 1, signature: null }).reports).toEqual([]);
    expect(
      verify({ bomFormat: 'CycloneDX', signature: null }, { cyclonedx: true }).reports.map((r) => r.verdict),
    ).toEqual(['invalid']);
  });
});
