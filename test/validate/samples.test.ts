import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULE_IDS, RULES, SPEC_FORMATS, validate, type RuleId, type ValidationResult } from '../../src/index.js';
import { SAMPLES } from '../helpers.js';

/**
 * Every file in samples/ and what it demonstrates: `null` for a valid document (no diagnostics at all), otherwise
 * the one rule whose diagnostics it must produce, and nothing else. `invalid-*` files name an error rule,
 * `warning-*` files a warning rule. A sample without an entry here fails the suite.
 */
const EXPECTED: Record<string, RuleId | null> = {
  'valid-full-1.2.json': null,
  'valid-full-1.3.json': null,
  'valid-full-1.4.json': null,
  'valid-full-1.5.json': null,
  'valid-services-1.5.json': null,
  'valid-full-1.6.json': null,
  'valid-crypto-asset-1.6.json': null,
  'valid-bom-link-1.6.json': null,
  'valid-full-1.7.json': null,
  'valid-full-1.4-cbom-1.0.json': null,
  'valid-cyclonedx-format-1.4-cbom-1.0.json': null,

  'warning-byte-order-mark-1.6.json': 'read/byte-order-mark',
  'warning-serial-number-nil-1.6.json': 'bom/serial-number-nil',
  'warning-serial-number-variant-1.5.json': 'bom/serial-number-variant',

  'invalid-empty-1.6.json': 'read/empty',
  'invalid-utf8-1.6.json': 'read/invalid-utf8',
  'invalid-utf16-1.6.json': 'read/unsupported-encoding',
  'invalid-syntax-1.6.json': 'json/syntax',
  'invalid-duplicate-key-1.6.json': 'json/duplicate-key',
  'invalid-lone-surrogate-1.5.json': 'json/lone-surrogate',
  'invalid-too-deep-1.6.json': 'json/too-deep',
  'invalid-not-a-bom.json': 'bom/not-a-bom',
  'invalid-not-a-bom-envelope.json': 'bom/not-a-bom',
  'invalid-unsupported-version-2.0.json': 'bom/unsupported-version',
  'invalid-unsupported-version-number.json': 'bom/unsupported-version',
  'invalid-serial-number-1.6.json': 'bom/serial-number',
  'invalid-version-zero-1.6.json': 'bom/version',
  'invalid-version-fraction-1.3.json': 'bom/version',
  'invalid-version-negative-1.4-cbom-1.0.json': 'bom/version',
  'invalid-cbom-spec-version-form-1.4-cbom-1.0.json': 'cbom/spec-version',
  'invalid-cbom-spec-version-plain-1.4-cbom-1.0.json': 'cbom/spec-version',
  'invalid-cbom-schema-address-1.4-cbom-1.0.json': 'cbom/schema-address',
  'invalid-duplicate-bom-ref-1.6.json': 'ref/duplicate-bom-ref',
  'invalid-duplicate-bom-ref-1.4-cbom-1.0.json': 'ref/duplicate-bom-ref',
  'invalid-unresolved-ref-1.2.json': 'ref/unresolved',
  'invalid-unresolved-ref-1.5.json': 'ref/unresolved',
  'invalid-unresolved-ref-bom-link-1.6.json': 'ref/unresolved',
  'invalid-cbom-repeated-dependency-1.4-cbom-1.0.json': 'cbom/repeated-dependency',
  'invalid-type-1.4.json': 'schema/type',
  'invalid-required-version-1.4.json': 'schema/required',
  'invalid-required-name-1.7.json': 'schema/required',
  'invalid-additional-property-1.6.json': 'schema/additional-property',
  'invalid-additional-property-component-1.3.json': 'schema/additional-property',
  'invalid-additional-property-crypto-1.4-cbom-1.0.json': 'schema/additional-property',
  'invalid-additional-property-metadata-properties-1.4-cbom-1.0.json': 'schema/additional-property',
  'invalid-enum-1.5.json': 'schema/enum',
  'invalid-enum-license-1.6.json': 'schema/enum',
  'invalid-enum-asset-type-1.4-cbom-1.0.json': 'schema/enum',
  'invalid-format-date-time-1.6.json': 'schema/format',
  'invalid-format-idn-email-1.5.json': 'schema/format',
  'invalid-format-url-1.4.json': 'schema/format',
  'invalid-alternatives-url-1.6.json': 'schema/alternatives',
  'invalid-pattern-hash-1.4.json': 'schema/pattern',
  'invalid-unique-items-1.6.json': 'schema/unique-items',
  'invalid-bounds-1.6.json': 'schema/bounds',
  'invalid-bounds-1.4-cbom-1.0.json': 'schema/bounds',
  'invalid-other-1.7.json': 'schema/other',

  'invalid-signature-1.6.json': 'signature/invalid',
  'warning-signature-untrusted-1.6.json': 'signature/untrusted',
  'warning-signature-untrusted-chain-1.4.json': 'signature/untrusted',
  'warning-signature-untrusted-signers-1.4-cbom-1.0.json': 'signature/untrusted',
  'invalid-signature-unverifiable-1.6.json': 'signature/unverifiable',
  'invalid-signature-unsafe-number-1.6.json': 'signature/unsafe-number',
  'invalid-signature-misplaced-1.6.json': 'signature/misplaced',

  // CycloneDX XML: a valid document of every version, and one rule broken in each version.
  'valid-full-1.0.xml': null,
  'valid-full-1.1.xml': null,
  'valid-full-1.2.xml': null,
  'valid-full-1.3.xml': null,
  'valid-full-1.4.xml': null,
  'valid-full-1.5.xml': null,
  'valid-full-1.6.xml': null,
  'valid-full-1.7.xml': null,
  'invalid-required-1.0.xml': 'schema/required',
  'invalid-enum-1.1.xml': 'schema/enum',
  'invalid-unresolved-ref-1.2.xml': 'ref/unresolved',
  'invalid-serial-number-1.3.xml': 'bom/serial-number',
  'invalid-pattern-hash-1.4.xml': 'schema/pattern',
  'invalid-version-zero-1.5.xml': 'bom/version',
  'invalid-duplicate-bom-ref-1.6.xml': 'ref/duplicate-bom-ref',
  'invalid-other-1.7.xml': 'schema/other',
  'invalid-additional-property-1.6.xml': 'schema/additional-property',
  'warning-serial-number-nil-1.6.xml': 'bom/serial-number-nil',
  'warning-serial-number-variant-1.5.xml': 'bom/serial-number-variant',
  'invalid-syntax-1.6.xml': 'xml/syntax',
  'invalid-doctype-1.6.xml': 'xml/doctype',
  'invalid-too-deep-1.6.xml': 'xml/too-deep',
  'invalid-unsupported-version-2.0.xml': 'bom/unsupported-version',
  'invalid-not-a-bom.xml': 'bom/not-a-bom',
};

/** Rules no file content can trigger on its own, and why. Every other rule must have a sample. */
/**
 * Rules a sample cannot avoid besides its own: a valid signature (over an unsafe number, or at a place the
 * format does not allow) is also untrusted, as samples are validated without a trust store.
 */
const COMPANIONS: Record<string, RuleId[]> = {
  'invalid-signature-unsafe-number-1.6.json': ['signature/untrusted'],
  'invalid-signature-misplaced-1.6.json': ['signature/untrusted'],
};

const NOT_EXPRESSIBLE: Partial<Record<RuleId, string>> = {
  'read/too-large': 'depends on --max-size (default 512 MiB), not on what the file says',
  'signature/missing': 'only reported with --signatures require',
  'bom/version-rule': 'needs a previous release to compare with (--baseline, --base-ref or --staged)',
  'schema/const': 'the supported schemas use const only inside if-conditions, whose failures are not reported',
};

const CBOM_ASSET_TYPES = ['algorithm', 'certificate', 'relatedCryptoMaterial', 'protocol'];

const files = readdirSync(SAMPLES).sort();
const bytesOf = (file: string): Uint8Array => readFileSync(path.join(SAMPLES, file));

const results = new Map<string, Promise<ValidationResult>>();
function resultOf(file: string): Promise<ValidationResult> {
  let result = results.get(file);
  if (result === undefined) {
    result = validate(bytesOf(file));
    results.set(file, result);
  }
  return result;
}

function kindOf(file: string): 'valid' | 'warning' | 'invalid' {
  const kind = /^(valid|warning|invalid)-/.exec(file)?.[1];
  if (kind === undefined) throw new Error(`${file}: sample names start with valid-, warning- or invalid-`);
  return kind as 'valid' | 'warning' | 'invalid';
}

function summary(result: ValidationResult): string {
  return JSON.stringify(
    result.diagnostics.map((d) => `${d.severity} ${d.ruleId} ${d.pointer}: ${d.message}`),
    null,
    2,
  );
}

/** Components at any depth (metadata.component and nested components included). */
function allComponents(document: Record<string, unknown>): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const metadata = document.metadata as Record<string, unknown> | undefined;
  const pending: unknown[] = [metadata?.component, ...((document.components as unknown[] | undefined) ?? [])];
  while (pending.length > 0) {
    const component = pending.pop();
    if (component === null || typeof component !== 'object') continue;
    const record = component as Record<string, unknown>;
    found.push(record);
    pending.push(...((record.components as unknown[] | undefined) ?? []));
  }
  return found;
}

describe('samples/', () => {
  it('has a table entry for every sample and a sample for every table entry', () => {
    expect(files).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(files)(
    '%s is named valid-, warning- or invalid-<feature>[-<version>].json|xml after a rule of that severity',
    (file) => {
      expect(file).toMatch(/^(valid|warning|invalid)-[a-z0-9][a-z0-9.-]*\.(json|xml)$/);
      const rule = EXPECTED[file];
      const kind = kindOf(file);
      if (kind === 'valid') expect(rule).toBeNull();
      else expect(rule && RULES[rule].severity).toBe(kind === 'warning' ? 'warning' : 'error');
    },
  );

  it.each(files)('%s produces exactly what its name says', async (file) => {
    const result = await resultOf(file);
    const expected = EXPECTED[file];
    const ruleIds = [...new Set(result.diagnostics.map((d) => d.ruleId))];
    switch (kindOf(file)) {
      case 'valid':
        expect(result.diagnostics, summary(result)).toEqual([]);
        expect(result.errors).toBe(0);
        expect(result.warnings).toBe(0);
        expect(result.valid).toBe(true);
        break;
      case 'warning':
        expect(result.errors, summary(result)).toBe(0);
        expect(result.warnings, summary(result)).toBeGreaterThan(0);
        expect(result.valid).toBe(true);
        expect(ruleIds, summary(result)).toEqual([expected]);
        expect(result.diagnostics.every((d) => d.severity === 'warning')).toBe(true);
        break;
      case 'invalid':
        expect(result.errors, summary(result)).toBeGreaterThan(0);
        expect(result.valid).toBe(false);
        expect(ruleIds.sort(), summary(result)).toEqual([expected, ...(COMPANIONS[file] ?? [])].sort());
        break;
    }
  });

  it('covers every rule a document can express', () => {
    const covered = new Set(Object.values(EXPECTED).filter((rule) => rule !== null));
    const missing = RULE_IDS.filter((rule) => !covered.has(rule) && NOT_EXPRESSIBLE[rule] === undefined);
    expect(missing).toEqual([]);
    for (const rule of Object.keys(NOT_EXPRESSIBLE) as RuleId[]) {
      expect(RULE_IDS).toContain(rule);
      expect(covered.has(rule), `${rule} has a sample; remove it from NOT_EXPRESSIBLE`).toBe(false);
    }
  });

  it('has a valid sample for every supported version, named after that version', async () => {
    const validFiles = files.filter((file) => kindOf(file) === 'valid' && file.endsWith('.json'));
    const covered = new Set<string>();
    for (const file of validFiles) {
      const { formatId } = await resultOf(file);
      const format = SPEC_FORMATS.find((f) => f.id === formatId);
      expect(format, `${file} was not routed to a supported format`).toBeDefined();
      expect(file.endsWith(`-${format!.specVersion}.json`), `${file} is a ${format!.specVersion} document`).toBe(true);
      covered.add(format!.id);
    }
    expect(SPEC_FORMATS.filter((f) => !covered.has(f.id)).map((f) => f.specVersion)).toEqual([]);
  });

  it('has a valid XML sample for every CycloneDX XML version, 1.0 to 1.7, read as XML of that version', async () => {
    const xmlFiles = files.filter((file) => kindOf(file) === 'valid' && file.endsWith('.xml'));
    const versions: string[] = [];
    for (const file of xmlFiles) {
      const result = await resultOf(file);
      expect(result.syntax).toBe('xml');
      const version = result.formatId!.replace('cyclonedx-', '');
      expect(file.endsWith(`-${version}.xml`), `${file} is a ${version} document`).toBe(true);
      versions.push(version);
    }
    expect(versions.sort()).toEqual(['1.0', '1.1', '1.2', '1.3', '1.4', '1.5', '1.6', '1.7']);
  });

  describe('valid 1.4-cbom-1.0 samples', () => {
    const cbomFormat = SPEC_FORMATS.find((f) => f.family === 'cbom')!;
    const documents = () =>
      files
        .filter((file) => kindOf(file) === 'valid' && file.endsWith(`-${cbomFormat.specVersion}.json`))
        .map((file) => JSON.parse(new TextDecoder().decode(bytesOf(file))) as Record<string, unknown>);

    it('contain crypto-asset components of every assetType', () => {
      const assetTypes = new Set<unknown>();
      for (const document of documents()) {
        for (const component of allComponents(document)) {
          const crypto = component.cryptoProperties as Record<string, unknown> | undefined;
          if (component.type === 'crypto-asset' && crypto !== undefined) assetTypes.add(crypto.assetType);
        }
      }
      expect([...assetTypes].sort()).toEqual([...CBOM_ASSET_TYPES].sort());
    });

    it('use every allowed bomFormat and both dependency types, for one ref as well', () => {
      const docs = documents();
      expect(new Set(docs.map((d) => d.bomFormat))).toEqual(new Set(cbomFormat.bomFormats));
      const entries = docs.flatMap((d) =>
        ((d.dependencies as Record<string, unknown>[] | undefined) ?? []).map((e) => ({
          key: JSON.stringify([d.serialNumber, e.ref]),
          type: e.dependencyType,
        })),
      );
      expect(new Set(entries.map((e) => e.type))).toEqual(new Set(['implements', 'uses']));
      const typesByRef = new Map<string, Set<unknown>>();
      for (const { key, type } of entries) typesByRef.set(key, (typesByRef.get(key) ?? new Set()).add(type));
      expect([...typesByRef.values()].some((types) => types.has('implements') && types.has('uses'))).toBe(true);
    });
  });
});
