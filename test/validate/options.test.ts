import { describe, expect, it } from 'vitest';
import { validate, type KeyMaterial, type TrustStore } from '../../src/index.js';
import { signDocument as sign } from '../../src/jsf/sign-document.js';
import { testKey } from '../author/fixtures.js';
import { minimalBom } from '../helpers.js';

function newKey(keyId?: string): KeyMaterial {
  const key = testKey();
  return keyId === undefined ? key : { ...key, keyId };
}
const trusting = (key: KeyMaterial): TrustStore => ({ keys: [key], roots: [] });
const rules = (result: { diagnostics: { ruleId: string; severity: string; pointer: string }[] }) =>
  result.diagnostics.map((d) => `${d.severity} ${d.ruleId} ${d.pointer}`);

const key = newKey();
type Bom = Record<string, unknown>;
const signed = sign(minimalBom('1.6', { components: [{ type: 'library', name: 'a', version: '1' }] }), { key }) as Bom;

describe('validate: size limit', () => {
  const text = JSON.stringify(minimalBom());
  it('reads a document of exactly --max-size and refuses one byte more, as text or bytes', async () => {
    expect((await validate(text, { maxSize: text.length })).valid).toBe(true);
    const bytes = new TextEncoder().encode(text);
    expect((await validate(bytes, { maxSize: bytes.byteLength })).valid).toBe(true);
    for (const input of [text, bytes]) {
      expect(await validate(input, { maxSize: text.length - 1 })).toStrictEqual({
        diagnostics: [
          {
            ruleId: 'read/too-large',
            severity: 'error',
            message: `The document is ${text.length} bytes, over the --max-size limit of ${text.length - 1} bytes`,
            pointer: '',
          },
        ],
        errors: 1,
        warnings: 0,
        valid: false,
      });
    }
  });

  it('does not limit a parsed value', async () => {
    expect((await validate(minimalBom(), { maxSize: 1 })).valid).toBe(true);
  });
});

describe('validate: text input', () => {
  it('reads text that starts with a byte-order mark', async () => {
    expect(await validate(`\ufeff${JSON.stringify(minimalBom())}`)).toMatchObject({
      formatId: 'cyclonedx-1.6',
      valid: true,
      diagnostics: [],
    });
  });

  it.each(['', ' \n\t', '\ufeff'])('calls %j empty', async (text) => {
    expect(await validate(text)).toEqual({
      diagnostics: [{ ruleId: 'read/empty', severity: 'error', message: 'The document is empty', pointer: '' }],
      errors: 1,
      warnings: 0,
      valid: false,
    });
  });

  it('sorts diagnostics by line, then column', async () => {
    const text = '{\n"bomFormat": "CycloneDX", "specVersion": "1.6",\n"version": 0, "serialNumber": "x", "extra": 1\n}';
    const positions = (await validate(text)).diagnostics.map((d) => [d.line, d.column]);
    expect(positions.length).toBeGreaterThanOrEqual(3);
    const sorted = [...positions].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
    expect(positions).toEqual(sorted);
    expect(new Set(positions.map(([line]) => line))).toEqual(new Set([3]));
  });
});

describe('validate: signature modes', () => {
  it('verify (the default) accepts an unsigned document and checks a signed one', async () => {
    expect((await validate(minimalBom())).valid).toBe(true);
    expect(rules(await validate(signed))).toEqual(['warning signature/untrusted /signature']);
  });

  it('require adds signature/missing to an unsigned document, and only to it', async () => {
    expect((await validate(minimalBom(), { signatures: 'require' })).diagnostics).toEqual([
      {
        ruleId: 'signature/missing',
        severity: 'error',
        message: 'The document is not signed (signatures are required)',
        pointer: '',
      },
    ]);
    expect(rules(await validate(signed, { signatures: 'require', trust: trusting(key) }))).toEqual([]);
  });

  it('ignore checks no signature, but a signature where the format allows none stays an error', async () => {
    const tampered = structuredClone(signed);
    (tampered.components as { name: string }[])[0]!.name = 'changed';
    expect(rules(await validate(tampered, { signatures: 'ignore' }))).toEqual([]);
    const garbage = { ...minimalBom(), signature: { algorithm: 'nope', value: 1, extra: true } };
    expect((await validate(garbage, { signatures: 'ignore' })).valid).toBe(true);
    expect((await validate(garbage)).valid).toBe(false);
    const misplaced = minimalBom('1.6', { metadata: { signature: { algorithm: 'ES256', value: 'x' } } });
    expect(rules(await validate(misplaced, { signatures: 'ignore' }))).toEqual([
      'error schema/additional-property /metadata/signature',
    ]);
  });

  it('skipSignatureVerification checks a signature against the schema only', async () => {
    const tampered = structuredClone(signed);
    (tampered.components as { name: string }[])[0]!.name = 'changed';
    expect(rules(await validate(tampered))).toEqual(['error signature/invalid /signature']);
    expect(rules(await validate(tampered, { skipSignatureVerification: true }))).toEqual([]);
  });
});

describe('validate: trust policy', () => {
  it('makes a valid signature from a trusted key clean, an untrusted one a warning, or an error when trust is required', async () => {
    expect(rules(await validate(signed, { trust: trusting(key) }))).toEqual([]);
    expect(rules(await validate(signed, { trust: trusting(newKey()) }))).toEqual([
      'warning signature/untrusted /signature',
    ]);
    expect(rules(await validate(signed, { requireTrusted: true }))).toEqual(['error signature/untrusted /signature']);
    expect(rules(await validate(signed, { requireTrusted: true, trust: trusting(key) }))).toEqual([]);
  });

  it('makes a signature without a usable key an error, or a warning when allowed, unless trust is required', async () => {
    const byKeyId = sign(minimalBom(), { key: newKey('kid-1'), publicKey: false, keyId: 'kid-1' }) as Bom;
    expect(rules(await validate(byKeyId))).toEqual(['error signature/unverifiable /signature']);
    expect(rules(await validate(byKeyId, { allowUnverifiable: true }))).toEqual([
      'warning signature/unverifiable /signature',
    ]);
    expect(rules(await validate(byKeyId, { allowUnverifiable: true, requireTrusted: true }))).toEqual([
      'error signature/unverifiable /signature',
    ]);
  });

  it('accepts excluded members only when the caller allows them', async () => {
    const excluding = sign(minimalBom('1.6', { metadata: { timestamp: '2026-01-01T00:00:00Z' } }), {
      key,
      excludes: ['metadata'],
    }) as Bom;
    expect(rules(await validate(excluding, { trust: trusting(key) }))).toEqual(['error signature/invalid /signature']);
    expect(rules(await validate(excluding, { trust: trusting(key), allowExcludes: ['metadata'] }))).toEqual([]);
  });
});
