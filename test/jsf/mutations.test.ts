/**
 * Must-fail and must-pass cases derived from the JSF vectors (upstream ships no negative vectors): tampering
 * with anything signed breaks a signature; re-serializing the same JSON data model does not.
 */
import { X509Certificate, verify as cryptoVerify, type JsonWebKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  canonicalize,
  parseKeyMaterial,
  verify as verifyDocument,
  type KeyMaterial,
  type SignerReport,
  type TrustStore,
  type VerifyOptions,
} from '../../src/index.js';
import { parseJsonText } from '../../src/json/parse.js';
import { ALLOW_EXCLUDES, ALLOW_EXTENSIONS, HAVE_VECTORS, KEYS, NOW, SIGNATURES } from './fixtures.js';

type Json = Record<string, unknown>;
type Core = Record<string, unknown> & { value: string; algorithm: string };

const readKey = (file: string) => readFileSync(path.join(KEYS, file), 'utf8');
const readVector = (file: string) => readFileSync(path.join(SIGNATURES, file), 'utf8');
const load = (file: string) => JSON.parse(readVector(file)) as Json;

function keyFile(file: string, keyId?: string): KeyMaterial {
  const [material] = parseKeyMaterial(readKey(file), file);
  return keyId === undefined ? material! : { ...material!, keyId };
}

function trustStore(): TrustStore {
  return {
    keys: [
      ...['p256', 'p256-2', 'p384', 'p521', 'r2048', 'ed25519', 'ed448'].map((k) => keyFile(`${k}privatekey.jwk`)),
      ...['a256', 'a384', 'a512'].map((k) => keyFile(`${k}bitkey.hex`, `${k}bitkey`)),
    ],
    roots: [new X509Certificate(readFileSync(path.join(KEYS, 'rootca.pem')))],
  };
}

function check(doc: unknown, extra: Partial<VerifyOptions> = {}): SignerReport[] {
  const { reports } = verifyDocument(doc, {
    trust: trustStore(),
    allowExcludes: ALLOW_EXCLUDES,
    allowExtensions: ALLOW_EXTENSIONS,
    now: NOW,
    ...extra,
  });
  expect(reports.length).toBeGreaterThan(0);
  return reports;
}

const verdicts = (doc: unknown, extra: Partial<VerifyOptions> = {}) => check(doc, extra).map((r) => r.verdict);

/** Checks the verdicts in order; the reasons go into the failure message. */
function expectVerdicts(doc: unknown, expected: string[], extra: Partial<VerifyOptions> = {}): SignerReport[] {
  const reports = check(doc, extra);
  expect(
    reports.map((r) => r.verdict),
    reports.map((r) => r.reason ?? '-').join(' | '),
  ).toEqual(expected);
  return reports;
}

const sig = (doc: Json) => doc.signature as Json;
const core = (doc: Json) => doc.signature as Core;
const signers = (doc: Json) => sig(doc).signers as Core[];
const chain = (doc: Json) => sig(doc).chain as Core[];

/** `value` with one bit of the decoded signature flipped, re-encoded as strict base64url. */
function flipBit(value: string, byte = 0): string {
  const bytes = Buffer.from(value, 'base64url');
  bytes[byte] = bytes[byte]! ^ 0x01;
  return bytes.toString('base64url');
}

/** Raw IEEE P1363 R‖S → ASN.1 DER SEQUENCE { INTEGER r, INTEGER s }. */
function rawToDer(raw: Buffer): Buffer {
  const integer = (bytes: Buffer) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++;
    let body = bytes.subarray(start);
    if (body[0]! & 0x80) body = Buffer.concat([Buffer.from([0]), body]);
    return Buffer.concat([Buffer.from([0x02, body.length]), body]);
  };
  const half = raw.length / 2;
  const content = Buffer.concat([integer(raw.subarray(0, half)), integer(raw.subarray(half))]);
  const length = content.length < 0x80 ? Buffer.from([content.length]) : Buffer.from([0x81, content.length]);
  return Buffer.concat([Buffer.from([0x30]), length, content]);
}

/** Recursively reverses the member order of every object (arrays keep their order). */
function reverseMembers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseMembers);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reverseMembers(v)]),
  );
}

/** Representative vectors per algorithm family and shape. */
const SINGLE = [
  'p256#es256@jwk.json',
  'p384#es384@jwk.json',
  'p521#es512@jwk.json',
  'r2048#rs256@jwk.json',
  'r2048#ps256@jwk.json',
  'r2048#ps384@kid.json',
  'r2048#ps512@imp.json',
  'ed25519#ed25519@jwk.json',
  'ed448#ed448@kid.json',
  'a256#hs256@kid.json',
  'a384#hs384@imp.json',
  'a512#hs512@kid.json',
  'p256#es256@cer.json',
  'r2048#rs256@cer.json',
  'ed25519#ed25519@cer.json',
];
const MULTI = ['p256#es256,r2048#rs256@mult-jwk.json', 'p256#es256,ed25519#ed25519@mult-jwk.json'];
const CHAIN = [
  'p256#es256,r2048#rs256@chai-kid.json',
  'p256#es256,ed25519#ed25519@chai-jwk.json',
  'p256#es256,p384#es384@chai-jwk.json',
];
const ALL = [...SINGLE, ...MULTI, ...CHAIN];

describe.skipIf(!HAVE_VECTORS)('JSF must-fail mutations of the vectors', () => {
  it('starts from vectors that verify', () => {
    for (const file of ALL)
      expect(
        verdicts(load(file)).every((v) => v === 'valid'),
        file,
      ).toBe(true);
  });

  it.each(ALL)('%s: a changed signed value breaks every signer', (file) => {
    const doc = load(file);
    expect(doc.name).toBe('Joe');
    doc.name = 'Jane';
    const reports = check(doc);
    for (const report of reports) {
      expect(report.verdict).toBe('invalid');
      expect(report.reason).toMatch(/does not match/);
    }
    // Also a value change that keeps the type and length, and a new member.
    const other = load(file);
    other.id = 2200064;
    expect(verdicts(other).every((v) => v === 'invalid')).toBe(true);
    const added = load(file);
    added.extra = null;
    expect(verdicts(added).every((v) => v === 'invalid')).toBe(true);
  });

  it.each(SINGLE)('%s: a flipped bit in value is invalid', (file) => {
    for (const byte of [0, -1]) {
      const doc = load(file);
      const length = Buffer.from(core(doc).value, 'base64url').length;
      core(doc).value = flipBit(core(doc).value, byte < 0 ? length - 1 : byte);
      expectVerdicts(doc, ['invalid']);
    }
  });

  it.each(MULTI)('%s: a flipped bit breaks only that signer of a multi-signature', (file) => {
    const doc = load(file);
    signers(doc)[0]!.value = flipBit(signers(doc)[0]!.value);
    expectVerdicts(doc, ['invalid', 'valid']);
    const second = load(file);
    signers(second)[1]!.value = flipBit(signers(second)[1]!.value, 5);
    expectVerdicts(second, ['valid', 'invalid']);
  });

  it.each(CHAIN)('%s: a flipped bit in an earlier chain value breaks the later signers too', (file) => {
    const doc = load(file);
    chain(doc)[0]!.value = flipBit(chain(doc)[0]!.value);
    expectVerdicts(doc, ['invalid', 'invalid']);
    const last = load(file);
    chain(last)[1]!.value = flipBit(chain(last)[1]!.value, 3);
    expectVerdicts(last, ['valid', 'invalid']);
  });

  it.each([
    ['r2048#rs256@jwk.json', 'PS256'],
    ['r2048#rs256@jwk.json', 'RS384'],
    ['r2048#ps256@jwk.json', 'RS256'],
    ['r2048#ps256@jwk.json', 'PS512'],
    ['p256#es256@jwk.json', 'ES384'],
    ['p256#es256@jwk.json', 'es256'],
    ['p384#es384@jwk.json', 'ES256'],
    ['p521#es512@jwk.json', 'ES384'],
    ['ed25519#ed25519@jwk.json', 'Ed448'],
    ['ed448#ed448@jwk.json', 'Ed25519'],
    ['a256#hs256@kid.json', 'HS384'],
    ['a256#hs256@kid.json', 'RS256'],
    ['p256#es256@jwk.json', 'https://example.com/algorithms#es256'],
  ])('%s relabelled as %s is invalid', (file, algorithm) => {
    const doc = load(file);
    core(doc).algorithm = algorithm;
    expectVerdicts(doc, ['invalid']);
  });

  it.each(['ed25519#ed25519@jwk.json', 'ed448#ed448@jwk.json'])(
    '%s relabelled as "EdDSA" is invalid: EdDSA is not a JSF algorithm name',
    (file) => {
      const doc = load(file);
      core(doc).algorithm = 'EdDSA';
      const [report] = expectVerdicts(doc, ['invalid']);
      expect(report!.reason).toMatch(/EdDSA/);
      expect(report!.reason).toMatch(/not a JSF algorithm/);
    },
  );

  it.each(['p256#es256@jwk.json', 'p384#es384@jwk.json', 'p521#es512@jwk.json', 'p256#es256@cer.json'])(
    '%s: a DER-encoded ECDSA value is invalid, with a message about DER',
    (file) => {
      const doc = load(file);
      const raw = Buffer.from(core(doc).value, 'base64url');
      const der = rawToDer(raw);
      // The conversion is right: node:crypto accepts the DER form for the same signed bytes.
      const { value: _value, ...unsigned } = core(doc);
      const data = Buffer.from(canonicalize({ ...doc, signature: unsigned }), 'utf8');
      const { publicKey, certificatePath } = unsigned as { publicKey?: JsonWebKey; certificatePath?: string[] };
      const key = certificatePath
        ? new X509Certificate(Buffer.from(certificatePath[0]!, 'base64url')).publicKey
        : { key: publicKey!, format: 'jwk' as const };
      const hash = { ES256: 'sha256', ES384: 'sha384', ES512: 'sha512' }[core(doc).algorithm]!;
      expect(cryptoVerify(hash, data, key as never, der)).toBe(true);

      core(doc).value = der.toString('base64url');
      const [report] = expectVerdicts(doc, ['invalid']);
      expect(report!.reason).toMatch(/DER/);
    },
  );

  it.each(['p256#es256@jwk.json', 'ed25519#ed25519@jwk.json', 'r2048#rs256@jwk.json', 'a256#hs256@kid.json'])(
    '%s: a padded base64url value is invalid',
    (file) => {
      for (const padding of ['=', '==']) {
        const doc = load(file);
        core(doc).value += padding;
        const [report] = expectVerdicts(doc, ['invalid']);
        expect(report!.reason).toMatch(/base64url/);
      }
    },
  );

  it('standard-base64 characters (+ and /) in value are invalid', () => {
    let tested = 0;
    for (const file of SINGLE) {
      const doc = load(file);
      const value = core(doc).value;
      if (!/[-_]/.test(value)) continue;
      core(doc).value = value.replaceAll('-', '+').replaceAll('_', '/');
      const [report] = expectVerdicts(doc, ['invalid']);
      expect(report!.reason, file).toMatch(/base64url/);
      tested++;
    }
    expect(tested).toBeGreaterThanOrEqual(5);
  });

  it('other non-canonical encodings of value are invalid', () => {
    const file = 'ed25519#ed25519@jwk.json';
    const original = core(load(file)).value;
    // Ed25519: 64 bytes = 86 characters, the last one carrying 2 bits + 4 zero bits. Node decodes a last
    // character with non-zero spare bits to the same bytes; JSF's strict decoder must not.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const sameBytes = [...alphabet]
      .map((c) => original.slice(0, -1) + c)
      .filter((v) => v !== original && Buffer.from(v, 'base64url').equals(Buffer.from(original, 'base64url')));
    expect(sameBytes.length).toBeGreaterThan(0);
    for (const value of [
      sameBytes[0]!,
      `${original.slice(0, 40)}\n${original.slice(40)}`,
      `${original.slice(0, 40)} ${original.slice(40)}`,
      `${original.slice(0, 40)}.${original.slice(40)}`,
      original.slice(0, -1),
      '',
    ]) {
      const doc = load(file);
      core(doc).value = value;
      expectVerdicts(doc, ['invalid']);
    }
    for (const value of [undefined, 42, null, [original]]) {
      const doc = load(file);
      if (value === undefined) delete (core(doc) as Json).value;
      else (core(doc) as Json).value = value;
      expectVerdicts(doc, ['invalid']);
    }
  });

  it.each(CHAIN)('%s: reordered chain members are invalid', (file) => {
    const doc = load(file);
    sig(doc).chain = [...chain(doc)].reverse();
    const reports = check(doc);
    expect(reports.some((r) => r.verdict === 'invalid')).toBe(true);
    expect(reports[0]!.verdict).toBe('invalid');
  });

  it.each(CHAIN)('%s: dropping the first chain member invalidates the rest', (file) => {
    const doc = load(file);
    sig(doc).chain = chain(doc).slice(1);
    expectVerdicts(doc, ['invalid']);
  });

  it.each(CHAIN)('%s: dropping the last chain member leaves a valid shorter chain', (file) => {
    const doc = load(file);
    sig(doc).chain = chain(doc).slice(0, 1);
    expectVerdicts(doc, ['valid']);
  });

  it('an empty chain or signers array is invalid', () => {
    const doc = load(CHAIN[0]!);
    sig(doc).chain = [];
    expectVerdicts(doc, ['invalid']);
    const multi = load(MULTI[0]!);
    sig(multi).signers = [];
    expectVerdicts(multi, ['invalid']);
  });

  it('a signature with both signers and chain is invalid', () => {
    const doc = load(MULTI[0]!);
    sig(doc).chain = chain(load(CHAIN[0]!));
    expect(verdicts(doc).every((v) => v === 'invalid')).toBe(true);
  });

  it('a duplicate key in the document text is rejected before verification', () => {
    const text = readVector('p256#es256@jwk.json');
    // JSON.parse keeps the last duplicate: here the signed value, so a JSON.parse-only verifier says "valid"
    // while other parsers (and people) may see "Mallory".
    const tricked = text.replace('"name": "Joe",', '"name": "Mallory",\n  "name": "Joe",');
    expect(tricked).not.toBe(text);
    const parsed = parseJsonText(tricked);
    expect(parsed.diagnostics).toMatchObject([{ ruleId: 'json/duplicate-key', severity: 'error' }]);
    expect(parsed.diagnostics[0]!.message).toContain('name');
    expect(parsed.diagnostics[0]!.pointer).toMatch(/name$/);
    expect(verdicts(JSON.parse(tricked))).toEqual(['valid']);

    // Inside the signature object.
    const inSignature = text.replace('"algorithm": "ES256",', '"algorithm": "ES384",\n    "algorithm": "ES256",');
    expect(inSignature).not.toBe(text);
    expect(parseJsonText(inSignature).diagnostics).toMatchObject([{ ruleId: 'json/duplicate-key' }]);
    expect(parseJsonText(inSignature).diagnostics[0]!.pointer).toMatch(/signature\/algorithm$/);

    // The untouched vector has no diagnostics.
    expect(parseJsonText(text).diagnostics).toEqual([]);
  });

  it('an unknown member in a single signature object is invalid', () => {
    for (const file of ['p256#es256@jwk.json', 'a256#hs256@kid.json', 'ed25519#ed25519@cer.json']) {
      const doc = load(file);
      sig(doc).comment = 'hello';
      const [report] = expectVerdicts(doc, ['invalid']);
      expect(report!.reason).toMatch(/unknown member.*comment/);
    }
  });

  it('an unknown member in a signer or beside signers/chain is invalid', () => {
    const multi = load(MULTI[0]!);
    signers(multi)[1]!.comment = 'hello';
    const reports = expectVerdicts(multi, ['valid', 'invalid']);
    expect(reports[1]!.reason).toMatch(/comment/);

    const chained = load(CHAIN[0]!);
    chain(chained)[0]!.comment = 'hello';
    expect(verdicts(chained)[0]).toBe('invalid');

    for (const file of [MULTI[0]!, CHAIN[0]!]) {
      const doc = load(file);
      sig(doc).comment = 'hello';
      expectVerdicts(doc, ['invalid', 'invalid']);
    }
    // A core member at the outer level of signers is not a global option either.
    const outer = load(MULTI[0]!);
    sig(outer).algorithm = 'ES256';
    expect(verdicts(outer).every((v) => v === 'invalid')).toBe(true);
  });

  it('a signer carrying per-signer excludes or extensions is invalid', () => {
    const doc = load('p256#es256,p384#es384@mult-excl-jwk.json');
    const outer = sig(doc).excludes;
    delete sig(doc).excludes;
    signers(doc)[0]!.excludes = outer;
    expect(verdicts(doc)[0]).toBe('invalid');
  });

  describe('extensions', () => {
    const SINGLE_EXTS = 'p256#es256@exts-jwk.json';
    const MULTI_EXTS = 'p256#es256,p384#es384@mult-exts-jwk.json';
    const CHAIN_EXTS = 'p256#es256,r2048#rs256@chai-exts-kid.json';

    it('the extension vectors verify with the allow-list', () => {
      expectVerdicts(load(SINGLE_EXTS), ['valid']);
      expectVerdicts(load(MULTI_EXTS), ['valid', 'valid']);
      expectVerdicts(load(CHAIN_EXTS), ['valid', 'valid']);
    });

    it('a changed extension value is invalid', () => {
      const doc = load(SINGLE_EXTS);
      sig(doc).otherExt = 'Cooler Stuff';
      expectVerdicts(doc, ['invalid']);
      const nested = load(SINGLE_EXTS);
      (sig(nested)['https://example.com/extension'] as Json)['life-is-great'] = false;
      expectVerdicts(nested, ['invalid']);
      const removed = load(SINGLE_EXTS);
      delete sig(removed).otherExt;
      expectVerdicts(removed, ['invalid']);
      const multi = load(MULTI_EXTS);
      signers(multi)[1]!.otherExt = 'Other';
      expectVerdicts(multi, ['valid', 'invalid']);
      const chained = load(CHAIN_EXTS);
      chain(chained)[0]!.otherExt = 'Other';
      expectVerdicts(chained, ['invalid', 'invalid']);
    });

    it('a changed extensions list is invalid', () => {
      for (const file of [SINGLE_EXTS, MULTI_EXTS, CHAIN_EXTS]) {
        const reordered = load(file);
        sig(reordered).extensions = [...(sig(reordered).extensions as string[])].reverse();
        expect(
          verdicts(reordered).every((v) => v === 'invalid'),
          file,
        ).toBe(true);
        const dropped = load(file);
        sig(dropped).extensions = ['otherExt'];
        expect(
          verdicts(dropped).some((v) => v === 'invalid'),
          file,
        ).toBe(true);
        const duplicated = load(file);
        sig(duplicated).extensions = ['otherExt', 'otherExt', 'https://example.com/extension'];
        expect(
          verdicts(duplicated).every((v) => v === 'invalid'),
          file,
        ).toBe(true);
        const removed = load(file);
        delete sig(removed).extensions;
        expect(
          verdicts(removed).every((v) => v === 'invalid'),
          file,
        ).toBe(true);
      }
    });

    it('a member not listed in extensions is invalid', () => {
      const doc = load(SINGLE_EXTS);
      sig(doc).thirdExt = 1;
      expectVerdicts(doc, ['invalid']);
    });

    it('extensions are invalid unless every name is allowed', () => {
      const none = check(load(SINGLE_EXTS), { allowExtensions: undefined });
      expect(none).toMatchObject([{ verdict: 'invalid' }]);
      expect(none[0]!.reason).toMatch(/not allowed/);
      expectVerdicts(load(SINGLE_EXTS), ['invalid'], { allowExtensions: ['otherExt'] });
      expectVerdicts(load(MULTI_EXTS), ['invalid', 'invalid'], { allowExtensions: [] });
    });

    it('a reserved word cannot be an extension name', () => {
      const doc = load(SINGLE_EXTS);
      sig(doc).extensions = ['otherExt', 'https://example.com/extension', 'keyId'];
      expectVerdicts(doc, ['invalid'], { allowExtensions: [...ALLOW_EXTENSIONS, 'keyId'] });
    });
  });

  describe('excludes', () => {
    const SINGLE_EXCL = 'p256#es256@excl-jwk.json';
    const SINGLE_EXCL_KID = 'p256#es256@excl-kid.json';
    const MULTI_EXCL = 'p256#es256,p384#es384@mult-excl-jwk.json';
    const CHAIN_EXCL = 'p256#es256,r2048#rs256@chai-excl-kid.json';

    it('excludes present but not allowed is invalid', () => {
      for (const file of [SINGLE_EXCL, SINGLE_EXCL_KID, MULTI_EXCL, CHAIN_EXCL]) {
        const reports = check(load(file), { allowExcludes: undefined });
        expect(
          reports.map((r) => r.verdict),
          file,
        ).toEqual(reports.map(() => 'invalid'));
        expect(reports[0]!.reason).toMatch(/not allowed/);
        const other = check(load(file), { allowExcludes: ['somethingElse'] });
        expect(
          other.every((r) => r.verdict === 'invalid'),
          file,
        ).toBe(true);
      }
    });

    it('editing the excluded property keeps the signature valid', () => {
      for (const file of [SINGLE_EXCL, SINGLE_EXCL_KID, MULTI_EXCL, CHAIN_EXCL]) {
        const doc = load(file);
        expect(doc.myUnsignedData).toBe('something else');
        doc.myUnsignedData = { anything: ['goes', 1, null] };
        const reports = check(doc);
        expect(
          reports.map((r) => r.verdict),
          file,
        ).toEqual(reports.map(() => 'valid'));
      }
    });

    it('editing a signed property is still invalid', () => {
      for (const file of [SINGLE_EXCL, MULTI_EXCL, CHAIN_EXCL]) {
        const doc = load(file);
        doc.mySignedData = 'something changed';
        expect(
          verdicts(doc).every((v) => v === 'invalid'),
          file,
        ).toBe(true);
      }
    });

    it('removing the excludes list, or the excluded property, is invalid', () => {
      for (const file of [SINGLE_EXCL, MULTI_EXCL, CHAIN_EXCL]) {
        const noList = load(file);
        delete sig(noList).excludes;
        expect(
          verdicts(noList).every((v) => v === 'invalid'),
          file,
        ).toBe(true);
        const noProperty = load(file);
        delete noProperty.myUnsignedData;
        expect(
          verdicts(noProperty).every((v) => v === 'invalid'),
          file,
        ).toBe(true);
      }
    });

    it('excluding a signed property as well is invalid even when allowed', () => {
      const doc = load(SINGLE_EXCL);
      sig(doc).excludes = ['myUnsignedData', 'mySignedData'];
      expectVerdicts(doc, ['invalid'], { allowExcludes: ['myUnsignedData', 'mySignedData'] });
      const dup = load(SINGLE_EXCL);
      sig(dup).excludes = ['myUnsignedData', 'myUnsignedData'];
      expectVerdicts(dup, ['invalid']);
    });
  });

  describe('keys', () => {
    it('HMAC with a wrong secret is invalid', () => {
      const wrong = { keys: [keyFile('a384bitkey.hex', 'a256bitkey')], roots: [] };
      expectVerdicts(load('a256#hs256@kid.json'), ['invalid'], { trust: wrong });
      // Implicit key: every secret in the store is tried, none fits.
      const others = {
        keys: [keyFile('a384bitkey.hex'), keyFile('a512bitkey.hex'), keyFile('a128bitkey.hex')],
        roots: [],
      };
      const [report] = expectVerdicts(load('a256#hs256@imp.json'), ['invalid'], { trust: others });
      expect(report!.reason).toMatch(/does not match/);
    });

    it('an HMAC keyId naming an asymmetric key is invalid', () => {
      const store = { keys: [keyFile('p256privatekey.jwk', 'a256bitkey')], roots: [] };
      expectVerdicts(load('a256#hs256@kid.json'), ['invalid'], { trust: store });
    });

    it('a keyId that is not in the store is unverifiable', () => {
      for (const file of ['p256#es256@kid.json', 'a256#hs256@kid.json', 'r2048#ps384@kid.json']) {
        const store = trustStore();
        const doc = load(file);
        core(doc).keyId = 'example.com:unknown';
        // The keyId is signed, so the store's lookup fails before any crypto.
        const [report] = expectVerdicts(doc, ['unverifiable'], { trust: store });
        expect(report!.reason).toMatch(/example\.com:unknown/);
        expect(report!.trust).toBe('untrusted');
        expectVerdicts(load(file), ['unverifiable'], { trust: { keys: [], roots: [] } });
      }
    });

    it('a keyId that names another key of the right type is invalid', () => {
      const store = { keys: [keyFile('p256-2privatekey.jwk', 'example.com:p256')], roots: [] };
      expectVerdicts(load('p256#es256@kid.json'), ['invalid'], { trust: store });
    });

    it('an implicit key with no fitting key in the store is unverifiable', () => {
      const store = { keys: [keyFile('r2048privatekey.jwk')], roots: [] };
      expectVerdicts(load('p256#es256@imp.json'), ['unverifiable'], { trust: store });
    });

    it.each(['kid', 'alg', 'use', 'd'])('a publicKey JWK with an extra "%s" member is invalid', (member) => {
      const doc = load('p256#es256@jwk.json');
      (core(doc).publicKey as Json)[member] = member === 'd' ? 'AAAA' : 'example.com:p256';
      const [report] = expectVerdicts(doc, ['invalid']);
      expect(report!.reason).toContain(member);
    });

    it('a short (leading zero stripped) EC coordinate is invalid', () => {
      const doc = load('p521#es512@jwk.json');
      const jwk = core(doc).publicKey as Record<string, string>;
      const y = Buffer.from(jwk.y!, 'base64url');
      expect(y).toHaveLength(66);
      expect(y[0]).toBe(0);
      jwk.y = y.subarray(1).toString('base64url');
      const [report] = expectVerdicts(doc, ['invalid']);
      expect(report!.reason).toMatch(/66 bytes/);
    });

    it('an over-long (zero-padded) EC coordinate is invalid', () => {
      const doc = load('p256#es256@jwk.json');
      const jwk = core(doc).publicKey as Record<string, string>;
      jwk.x = Buffer.concat([Buffer.from([0]), Buffer.from(jwk.x!, 'base64url')]).toString('base64url');
      expectVerdicts(doc, ['invalid']);
    });

    it('an RSA modulus with a leading zero byte is invalid', () => {
      const doc = load('r2048#rs256@jwk.json');
      const jwk = core(doc).publicKey as Record<string, string>;
      jwk.n = Buffer.concat([Buffer.from([0]), Buffer.from(jwk.n!, 'base64url')]).toString('base64url');
      const [report] = expectVerdicts(doc, ['invalid']);
      expect(report!.reason).toMatch(/leading zero/);
    });

    it('another valid public key is invalid', () => {
      const doc = load('p256#es256@jwk.json');
      const otherKey = signers(load('p256#es256,p256-2#es256@mult-jwk.json'))[1]!.publicKey;
      expect(otherKey).not.toEqual(core(doc).publicKey);
      core(doc).publicKey = otherKey;
      expectVerdicts(doc, ['invalid']);
    });

    it('a publicKey whose curve does not match the algorithm is invalid', () => {
      const doc = load('p256#es256@jwk.json');
      (core(doc).publicKey as Json).crv = 'P-384';
      expectVerdicts(doc, ['invalid']);
      const okp = load('ed25519#ed25519@jwk.json');
      (core(okp).publicKey as Json).kty = 'EC';
      expectVerdicts(okp, ['invalid']);
    });

    it('a publicKey that disagrees with the certificate path is invalid', () => {
      const doc = load('p256#es256@cer.json');
      core(doc).publicKey = core(load('p256#es256@jwk.json')).publicKey;
      // The publicKey member is signed, so the value fails anyway; the point is that it is not accepted.
      expectVerdicts(doc, ['invalid']);
    });

    it('a certificate path with a swapped leaf is invalid', () => {
      const doc = load('p256#es256@cer.json');
      const other = core(load('p256#es256@cer.json')).certificatePath as string[];
      core(doc).certificatePath = [other[1]!, other[0]!];
      expectVerdicts(doc, ['invalid']);
      const bad = load('p256#es256@cer.json');
      core(bad).certificatePath = ['AAAA'];
      expectVerdicts(bad, ['invalid']);
    });
  });
});

describe.skipIf(!HAVE_VECTORS)('JSF must-pass: changes that keep the JSON data model', () => {
  const HARMLESS = [
    'p256#es256@jwk.json',
    'p521#es512@kid.json',
    'r2048#rs256@jwk+kid.json',
    'r2048#ps256@jwk.json',
    'ed448#ed448@jwk.json',
    'a512#hs512@imp.json',
    'p256#es256@cer.json',
    ...MULTI,
    ...CHAIN,
  ];

  it.each(HARMLESS)('%s: reordered members (everywhere) still verify', (file) => {
    const doc = reverseMembers(load(file)) as Json;
    expect(Object.keys(doc)[0]).toBe('signature');
    expect(verdicts(doc).every((v) => v === 'valid')).toBe(true);
  });

  it.each(HARMLESS)('%s: re-indented with 4 spaces (and minified) still verifies', (file) => {
    for (const text of [JSON.stringify(load(file), null, 4), JSON.stringify(load(file))]) {
      const { value, diagnostics } = parseJsonText(text);
      expect(diagnostics).toEqual([]);
      expect(verdicts(value).every((v) => v === 'valid')).toBe(true);
    }
  });

  it.each(HARMLESS)('%s: 2200063 respelled as 2.200063e6 in the text still verifies', (file) => {
    const original = readVector(file);
    for (const spelling of ['2.200063e6', '2200063.0', '22000630E-1']) {
      const text = original.replace('2200063', spelling);
      expect(text).not.toBe(original);
      const { value, diagnostics } = parseJsonText(text);
      expect(diagnostics).toEqual([]);
      expect(
        verdicts(value).every((v) => v === 'valid'),
        spelling,
      ).toBe(true);
    }
  });

  it.each(HARMLESS)('%s: "Joe" re-escaped as "\\u004aoe" in the text still verifies', (file) => {
    const original = readVector(file);
    for (const spelling of ['"\\u004aoe"', '"\\u004Aoe"', '"J\\u006f\\u0065"']) {
      const text = original.replace('"Joe"', spelling);
      expect(text).not.toBe(original);
      const { value, diagnostics } = parseJsonText(text);
      expect(diagnostics).toEqual([]);
      expect(
        verdicts(value).every((v) => v === 'valid'),
        spelling,
      ).toBe(true);
    }
  });

  it('re-escaped member names and signature members still verify', () => {
    const original = readVector('p256#es256@jwk.json');
    const text = original.replace('"name"', '"n\\u0061me"').replace('"algorithm"', '"\\u0061lgorithm"');
    expect(text).not.toBe(original);
    expect(verdicts(parseJsonText(text).value)).toEqual(['valid']);
  });

  it.each([...MULTI, 'p256#es256,p384#es384@mult-excl-exts-jwk.json', 'p256#es256,r2048#rs256@mult-kid.json'])(
    '%s: swapping the two signers still verifies',
    (file) => {
      const doc = load(file);
      sig(doc).signers = [...signers(doc)].reverse();
      const reports = check(doc);
      expect(reports.map((r) => r.verdict)).toEqual(['valid', 'valid']);
      expect(reports.map((r) => r.algorithm)).toEqual(
        (load(file).signature as { signers: Core[] }).signers.map((s) => s.algorithm).reverse(),
      );
    },
  );

  it.each(MULTI)('%s: dropping a signer leaves the other valid', (file) => {
    const doc = load(file);
    sig(doc).signers = signers(doc).slice(1);
    expectVerdicts(doc, ['valid']);
  });

  it('the vector verifies in place under another, unsigned parent', () => {
    const doc = load('ed25519#ed25519@jwk.json');
    const { reports, signedObjects } = verifyDocument({ wrapper: [1, doc] }, { now: NOW });
    expect(signedObjects).toBe(1);
    expect(reports).toMatchObject([{ verdict: 'valid', pointer: '/wrapper/1/signature', signedPointer: '/wrapper/1' }]);
  });

  it('verification does not mutate the document', () => {
    for (const file of ['p256#es256,p384#es384@chai-excl-exts-jwk.json', 'p256#es256@excl-jwk.json']) {
      const doc = load(file);
      const before = JSON.stringify(doc);
      check(doc);
      expect(JSON.stringify(doc)).toBe(before);
    }
  });
});
