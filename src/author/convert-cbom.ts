/**
 * IBM's CBOM 1.4-cbom-1.0 as CycloneDX 1.6, the version its crypto model was upstreamed into (IBM's CBOM README
 * recommends 1.6). The two differ where the reference notes list (cbom.md §4): the format name and version, the
 * component type, enum spellings (camelCase to kebab-case), where the security levels sit, the certification level
 * as a list, renamed members, the detection context as component evidence, and `dependencyType` as 1.6's
 * `provides`. What 1.6 has no place for is dropped and listed: an algorithm's `variant` (1.6 names it by the
 * component's name and parameterSetIdentifier), certificate algorithms given as names (1.6 takes bom-refs), a
 * material's `secured` flag, IKEv2 transform types, the scanner and its confidence levels. The rest of a CBOM is
 * CycloneDX 1.4, which the ordinary version conversion takes from there. Pure: the input is never modified.
 */
import { isDateTime } from '../validate/rfc3339.js';
import { escapeSegment } from '../json/pointer.js';
import { isRecord, setMember } from '../values.js';
import type { ConvertedValue, DroppedMember } from './convert.js';

const CBOM_TARGET_SPEC_VERSION = '1.6';

const SCHEMA_1_6 = 'http://cyclonedx.org/schema/bom-1.6.schema.json';

const ASSET_TYPES: Record<string, string> = {
  algorithm: 'algorithm',
  certificate: 'certificate',
  relatedCryptoMaterial: 'related-crypto-material',
  protocol: 'protocol',
};
const PROPERTIES_OF_ASSET: Record<string, string> = {
  algorithmProperties: 'algorithm',
  certificateProperties: 'certificate',
  relatedCryptoMaterialProperties: 'related-crypto-material',
  protocolProperties: 'protocol',
};
const PRIMITIVES: Record<string, string> = {
  blockcipher: 'block-cipher',
  streamcipher: 'stream-cipher',
  keyagree: 'key-agree',
};
const EXECUTION_ENVIRONMENTS: Record<string, string> = {
  softwarePlainRam: 'software-plain-ram',
  softwareEncryptedRam: 'software-encrypted-ram',
  softwareTee: 'software-tee',
};
const MATERIAL_TYPES: Record<string, string> = {
  privateKey: 'private-key',
  publicKey: 'public-key',
  secretKey: 'secret-key',
  initializationVector: 'initialization-vector',
  sharedSecret: 'shared-secret',
  additionalData: 'additional-data',
};

/** A CBOM value in its 1.6 spelling: renamed where the table says so, else as it is (the 1.6 schema judges it). */
const spelled = (table: Record<string, string>, value: unknown): unknown =>
  typeof value === 'string' && Object.hasOwn(table, value) ? table[value] : value;

/** IBM's single certification level as 1.6's list: FIPS levels 1–4 and `none`/`other`/`unknown` as they are, EAL as CC-EAL. */
function certificationLevels(value: unknown): string[] | undefined {
  if (typeof value !== 'string') return undefined;
  if (/^(?:none|other|unknown|fips140-[23]-l[1-4])$/.test(value)) return [value];
  const eal = /^eal([1-7])$/.exec(value);
  return eal === null ? undefined : [`cc-eal${eal[1]}`];
}

class CbomConversion {
  readonly dropped: DroppedMember[] = [];
  readonly converted: ConvertedValue[] = [];

  drop(pointer: string, reason: string): void {
    this.dropped.push({ pointer, reason });
  }

  convert(pointer: string, from: unknown, to: unknown, movedTo?: string): void {
    this.converted.push(movedTo === undefined ? { pointer, from, to } : { pointer, from, to, movedTo });
  }

  document(input: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(input)) setMember(out, key, input[key]);
    if (out.bomFormat !== 'CycloneDX') {
      this.convert('/bomFormat', out.bomFormat, 'CycloneDX');
      out.bomFormat = 'CycloneDX';
    }
    this.convert('/specVersion', out.specVersion, CBOM_TARGET_SPEC_VERSION);
    out.specVersion = CBOM_TARGET_SPEC_VERSION;
    if (out.$schema !== undefined) {
      this.convert('/$schema', out.$schema, SCHEMA_1_6);
      out.$schema = SCHEMA_1_6;
    }
    if (isRecord(out.metadata) && isRecord(out.metadata.component)) {
      const metadata: Record<string, unknown> = { ...out.metadata };
      metadata.component = this.component(out.metadata.component, '/metadata/component');
      out.metadata = metadata;
    }
    if (Array.isArray(out.components)) out.components = this.components(out.components, '/components');
    if (Array.isArray(out.dependencies)) out.dependencies = this.dependencies(out.dependencies);
    return out;
  }

  components(list: unknown[], at: string): unknown[] {
    return list.map((item, i) => (isRecord(item) ? this.component(item, `${at}/${i}`) : item));
  }

  component(input: Record<string, unknown>, at: string): Record<string, unknown> {
    let out: Record<string, unknown> | undefined;
    const edit = (): Record<string, unknown> => {
      if (out === undefined) {
        out = {};
        for (const key of Object.keys(input)) setMember(out, key, input[key]);
      }
      return out;
    };
    if (input.type === 'crypto-asset') {
      this.convert(`${at}/type`, 'crypto-asset', 'cryptographic-asset');
      edit().type = 'cryptographic-asset';
    }
    if (isRecord(input.cryptoProperties)) {
      const { properties, occurrences } = this.cryptoProperties(input.cryptoProperties, `${at}/cryptoProperties`);
      const component = edit();
      if (properties === undefined) delete component.cryptoProperties;
      else component.cryptoProperties = properties;
      if (occurrences.length > 0) {
        const evidence: Record<string, unknown> = isRecord(input.evidence) ? { ...input.evidence } : {};
        evidence.occurrences = [...(Array.isArray(evidence.occurrences) ? evidence.occurrences : []), ...occurrences];
        component.evidence = evidence;
      }
    }
    if (Array.isArray(input.components)) edit().components = this.components(input.components, `${at}/components`);
    return out ?? input;
  }

  /** The crypto properties in 1.6's shape (undefined: none can be written), and the detection contexts as occurrences. */
  cryptoProperties(
    input: Record<string, unknown>,
    at: string,
  ): { properties: Record<string, unknown> | undefined; occurrences: Record<string, unknown>[] } {
    const out: Record<string, unknown> = {};
    let assetType = spelled(ASSET_TYPES, input.assetType);
    if (input.assetType === undefined) {
      const stated = Object.keys(PROPERTIES_OF_ASSET).filter((key) => input[key] !== undefined);
      if (stated.length === 1) {
        assetType = PROPERTIES_OF_ASSET[stated[0]!];
        this.convert(`${at}/assetType`, undefined, assetType);
      }
    } else if (assetType !== input.assetType) this.convert(`${at}/assetType`, input.assetType, assetType);
    const occurrences = this.occurrences(input.detectionContext, `${at}/detectionContext`);
    if (assetType === undefined) {
      this.drop(at, '1.6 requires an assetType, and this CBOM states none nor one kind of properties to infer it from');
      return { properties: undefined, occurrences };
    }
    out.assetType = assetType;
    for (const key of Object.keys(input)) {
      const value = input[key];
      const where = `${at}/${escapeSegment(key)}`;
      switch (key) {
        case 'assetType':
        case 'detectionContext':
          break;
        case 'algorithmProperties':
          out.algorithmProperties = isRecord(value) ? this.algorithm(value, where) : value;
          break;
        case 'certificateProperties':
          out.certificateProperties = isRecord(value) ? this.certificate(value, where) : value;
          break;
        case 'relatedCryptoMaterialProperties':
          out.relatedCryptoMaterialProperties = isRecord(value) ? this.material(value, where) : value;
          break;
        case 'protocolProperties':
          out.protocolProperties = isRecord(value) ? this.protocol(value, where) : value;
          break;
        case 'classicalSecurityLevel':
        case 'nistQuantumSecurityLevel':
          break;
        case 'scanner':
        case 'confidenceLevels':
          this.drop(
            where,
            '1.6 has no place for it (the tool goes in metadata.tools, confidence in evidence.identity)',
          );
          break;
        default:
          // oid, and whatever the 1.6 schema judges in the conversion that follows.
          setMember(out, key, value);
      }
    }
    // After algorithmProperties, wherever the levels stood among the members: 1.6 keeps them there.
    for (const key of ['classicalSecurityLevel', 'nistQuantumSecurityLevel'] as const) {
      if (input[key] === undefined) continue;
      const where = `${at}/${key}`;
      if (assetType !== 'algorithm') {
        this.drop(where, '1.6 keeps security levels in algorithmProperties, and this asset is no algorithm');
        continue;
      }
      const algorithm = isRecord(out.algorithmProperties) ? out.algorithmProperties : {};
      algorithm[key] = input[key];
      out.algorithmProperties = algorithm;
      this.convert(where, input[key], input[key], `${at}/algorithmProperties/${key}`);
    }
    return { properties: out, occurrences };
  }

  algorithm(input: Record<string, unknown>, at: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(input)) {
      const value = input[key];
      const where = `${at}/${escapeSegment(key)}`;
      if (key === 'primitive') {
        out.primitive = spelled(PRIMITIVES, value);
        if (out.primitive !== value) this.convert(where, value, out.primitive);
      } else if (key === 'implementationLevel') {
        const to = spelled(EXECUTION_ENVIRONMENTS, value);
        out.executionEnvironment = to;
        this.convert(where, value, to, `${at}/executionEnvironment`);
      } else if (key === 'certificationLevel') {
        const levels = certificationLevels(value);
        if (levels === undefined) this.drop(where, `1.6 has no certification level ${JSON.stringify(value)}`);
        else {
          out.certificationLevel = levels;
          this.convert(where, value, levels);
        }
      } else if (key === 'variant')
        this.drop(where, "1.6 names an algorithm's variant by the component's name and its parameterSetIdentifier");
      else setMember(out, key, value);
    }
    return out;
  }

  certificate(input: Record<string, unknown>, at: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(input)) {
      const value = input[key];
      const where = `${at}/${escapeSegment(key)}`;
      if (key === 'certificateAlgorithm' || key === 'certificateSignatureAlgorithm')
        this.drop(where, "1.6 refers to the certificate's algorithms by bom-ref, not by name");
      else if (key === 'certificateExtensions') {
        out.certificateExtension = value;
        this.convert(where, value, value, `${at}/certificateExtension`);
      } else if (
        (key === 'notValidBefore' || key === 'notValidAfter') &&
        !(typeof value === 'string' && isDateTime(value))
      )
        this.drop(where, '1.6 takes an RFC 3339 date-time here');
      else setMember(out, key, value);
    }
    return out;
  }

  material(input: Record<string, unknown>, at: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(input)) {
      const value = input[key];
      const where = `${at}/${escapeSegment(key)}`;
      if (key === 'relatedCryptoMaterialType') {
        const to = spelled(MATERIAL_TYPES, value);
        out.type = to;
        this.convert(where, value, to, `${at}/type`);
      } else if (key === 'secured')
        this.drop(where, '1.6 says how material is secured (securedBy: a mechanism and an algorithm), not whether');
      else setMember(out, key, value);
    }
    return out;
  }

  protocol(input: Record<string, unknown>, at: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(input)) {
      const value = input[key];
      const where = `${at}/${escapeSegment(key)}`;
      if (key === 'tlsCipherSuites' && Array.isArray(value)) {
        const suites: Record<string, unknown>[] = [];
        value.forEach((suite, i) => {
          if (typeof suite === 'string' && suite !== '') suites.push({ name: suite });
          else this.drop(`${where}/${i}`, '1.6 takes a cipher suite by its name');
        });
        if (suites.length > 0) {
          out.cipherSuites = suites;
          this.convert(where, value, suites, `${at}/cipherSuites`);
          if (input.type === undefined) {
            out.type = 'tls';
            this.convert(`${at}/type`, undefined, 'tls');
          }
        }
      } else if (key === 'ikev2TransformTypes')
        this.drop(where, "1.6 lists IKEv2 transforms as references to algorithm components, which IBM's names are not");
      else setMember(out, key, value);
    }
    return out;
  }

  /** Each detection context as a 1.6 occurrence: its file, and the first line, offset and symbol it names. */
  occurrences(value: unknown, at: string): Record<string, unknown>[] {
    if (!Array.isArray(value)) return [];
    const found: Record<string, unknown>[] = [];
    value.forEach((context, i) => {
      const where = `${at}/${i}`;
      if (!isRecord(context) || typeof context.filePath !== 'string') {
        this.drop(where, '1.6 evidence needs a location, and this detection context names no file');
        return;
      }
      const occurrence: Record<string, unknown> = { location: context.filePath };
      const first = (list: unknown, test: (item: unknown) => boolean): unknown =>
        Array.isArray(list) ? list.find(test) : undefined;
      const wholeNumber = (item: unknown) => Number.isInteger(item) && (item as number) >= 0;
      const line = first(context.lineNumbers, wholeNumber);
      const offset = first(context.offsets, wholeNumber);
      const symbol = first(context.symbols, (item) => typeof item === 'string');
      if (line !== undefined) occurrence.line = line;
      if (offset !== undefined) occurrence.offset = offset;
      if (symbol !== undefined) occurrence.symbol = symbol;
      if (typeof context.additionalContext === 'string') occurrence.additionalContext = context.additionalContext;
      found.push(occurrence);
      this.convert(where, context, occurrence, '/evidence/occurrences');
    });
    return found;
  }

  /** `dependencyType: implements` entries as 1.6's `provides`, `uses` (or none) as `dependsOn`, one entry per ref. */
  dependencies(list: unknown[]): unknown[] {
    const out: unknown[] = [];
    const byRef = new Map<string, { entry: Record<string, unknown>; index: number }>();
    list.forEach((entry, i) => {
      if (!isRecord(entry) || typeof entry.ref !== 'string') {
        out.push(entry);
        return;
      }
      const member = entry.dependencyType === 'implements' ? 'provides' : 'dependsOn';
      let target = byRef.get(entry.ref);
      if (target === undefined) {
        const copy: Record<string, unknown> = {};
        for (const key of Object.keys(entry))
          if (key !== 'dependencyType' && key !== 'dependsOn') setMember(copy, key, entry[key]);
        target = { entry: copy, index: out.length };
        byRef.set(entry.ref, target);
        out.push(copy);
      } else this.convert(`/dependencies/${i}`, entry, undefined, `/dependencies/${target.index}`);
      const refs = [...new Set([...arrayOf(target.entry[member]), ...arrayOf(entry.dependsOn)])];
      if (refs.length > 0) target.entry[member] = refs;
      if (entry.dependencyType !== undefined)
        this.convert(`/dependencies/${i}/dependencyType`, entry.dependencyType, member);
    });
    return out;
  }
}

const arrayOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A CBOM 1.4-cbom-1.0 document as CycloneDX 1.6, with what was dropped and converted on the way. */
export function cbomAsCycloneDx(document: Record<string, unknown>): {
  document: Record<string, unknown>;
  dropped: DroppedMember[];
  converted: ConvertedValue[];
} {
  const conversion = new CbomConversion();
  const converted = conversion.document(document);
  return { document: converted, dropped: conversion.dropped, converted: conversion.converted };
}
