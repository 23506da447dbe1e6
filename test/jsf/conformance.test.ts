/**
 * JSF interop with the reference implementation's vectors (cyberphone/openkeystore), read in place from
 * ../shared/conformance/jsf: every vector verifies under the generator's policy, trust follows the key source,
 * deterministic algorithms re-sign byte for byte, and randomized ones round-trip.
 */
import { X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  parseKeyMaterial,
  verify as verifyDocument,
  type JsfAlgorithm,
  type KeyMaterial,
  type SignOptions,
  type TrustStore,
  type VerifyOptions,
} from '../../src/index.js';
import { signObject } from '../../src/jsf/sign.js';
import { parseJsonText } from '../../src/json/parse.js';
import { ALLOW_EXCLUDES, ALLOW_EXTENSIONS, HAVE_VECTORS, JSF_DIR, KEYS, NOW, SIGNATURES } from './fixtures.js';

const readKey = (file: string) => readFileSync(path.join(KEYS, file), 'utf8');
const readVector = (file: string) => readFileSync(path.join(SIGNATURES, file), 'utf8');
const loadVector = (file: string) => JSON.parse(readVector(file)) as Record<string, unknown>;
const certificate = (file: string) => new X509Certificate(readFileSync(path.join(KEYS, file)));

function only(materials: KeyMaterial[]): KeyMaterial {
  expect(materials).toHaveLength(1);
  return materials[0]!;
}

/** The private key of a vector key name (p256, r2048, ed25519...) or the HMAC secret (a256...) with its keyId. */
function vectorKey(name: string): KeyMaterial {
  if (/^a\d+$/.test(name))
    return { ...only(parseKeyMaterial(readKey(`${name}bitkey.hex`), `${name}bitkey.hex`)), keyId: `${name}bitkey` };
  return only(parseKeyMaterial(readKey(`${name}privatekey.jwk`), `${name}privatekey.jwk`));
}

function vectorKeys(): KeyMaterial[] {
  const files = readdirSync(KEYS).sort();
  const jwks = files.filter((f) => f.endsWith('privatekey.jwk') && !/^x(25519|448)/.test(f));
  const secrets = files.filter((f) => /^a\d+bitkey\.hex$/.test(f));
  return [
    ...jwks.map((f) => only(parseKeyMaterial(readKey(f), f))),
    ...secrets.map((f) => ({ ...only(parseKeyMaterial(readKey(f), f)), keyId: f.replace(/\.hex$/, '') })),
  ];
}

interface Vector {
  file: string;
  /** Signers as `key#alg` in file-name order. */
  signers: { key: string; algorithm: string }[];
  variant: string;
  /** jwk, kid, imp, cer or jwk+kid. */
  keyKind: string;
  shape: 'single' | 'signers' | 'chain' | 'array';
}

function describeVector(file: string): Vector {
  const [names, variant] = file.replace(/\.(json|js)$/, '').split('@') as [string, string];
  const signers = names.split(',').map((s) => {
    const [key, alg] = s.split('#') as [string, string];
    const algorithm = { ed25519: 'Ed25519', ed448: 'Ed448' }[alg] ?? alg.toUpperCase();
    return { key, algorithm };
  });
  const parts = variant.split('-');
  const keyKind = parts[parts.length - 1]!;
  const shape = parts.includes('mult')
    ? 'signers'
    : parts.includes('chai')
      ? 'chain'
      : parts.includes('arr')
        ? 'array'
        : 'single';
  return { file, signers, variant, keyKind, shape };
}

const KEY_SOURCE: Record<string, string> = {
  jwk: 'publicKey',
  'jwk+kid': 'publicKey',
  kid: 'keyId',
  imp: 'implicit',
  cer: 'certificatePath',
};

function options(vector: Vector, trust: TrustStore, extra: Partial<VerifyOptions> = {}): VerifyOptions {
  return {
    ...(vector.variant === 'name-jwk' ? { property: 'authorizationSignature' } : {}),
    trust,
    allowExcludes: ALLOW_EXCLUDES,
    allowExtensions: ALLOW_EXTENSIONS,
    now: NOW,
    ...extra,
  };
}

describe.skipIf(!HAVE_VECTORS)('JSF conformance vectors (cyberphone/openkeystore)', () => {
  const files = HAVE_VECTORS ? readdirSync(SIGNATURES).sort() : [];
  const jsonFiles = files.filter((f) => f.endsWith('.json'));
  const jsFiles = files.filter((f) => f.endsWith('.js'));
  const trust = (): TrustStore => ({ keys: vectorKeys(), roots: [certificate('rootca.pem')] });

  it('has 73 vectors: 67 JSON documents and 6 ECMAScript-mode .js files', () => {
    expect(files).toHaveLength(73);
    expect(jsonFiles).toHaveLength(67);
    expect(jsFiles).toHaveLength(6);
    expect(jsonFiles.length + jsFiles.length).toBe(files.length);
  });

  it('builds the trust store from the vector keys (x25519/x448 left out, HMAC keys by file name)', () => {
    const keys = vectorKeys();
    expect(keys.map((k) => k.keyId).sort()).toEqual([
      'a128bitkey',
      'a256bitkey',
      'a384bitkey',
      'a512bitkey',
      'example.com:ed25519',
      'example.com:ed448',
      'example.com:p256',
      'example.com:p256-2',
      'example.com:p384',
      'example.com:p521',
      'example.com:r2048',
    ]);
  });

  for (const file of jsFiles) {
    it(`${file} is an ECMAScript object literal, not JSON: reported as unsupported input`, () => {
      const text = readVector(file);
      expect(() => JSON.parse(text)).toThrow(SyntaxError);
      const { value, diagnostics } = parseJsonText(text);
      expect(value).toBeUndefined();
      expect(diagnostics.map((d) => d.ruleId)).toEqual(['json/syntax']);
    });
  }

  it('verifies all 67 JSON vectors and counts the 6 .js files as unsupported (73 in all)', () => {
    const store = trust();
    let verified = 0;
    let unsupported = 0;
    for (const file of files) {
      const text = readVector(file);
      const parsed = parseJsonText(text);
      if (parsed.value === undefined) {
        expect(file.endsWith('.js'), file).toBe(true);
        unsupported++;
        continue;
      }
      expect(parsed.diagnostics, file).toEqual([]);
      const { reports } = verifyDocument(parsed.value, options(describeVector(file), store));
      expect(reports.length, file).toBeGreaterThan(0);
      expect(
        reports.map((r) => r.verdict),
        file,
      ).toEqual(reports.map(() => 'valid'));
      verified++;
    }
    expect(verified).toBe(67);
    expect(unsupported).toBe(6);
    expect(verified + unsupported).toBe(73);
  });

  for (const file of jsonFiles) {
    const vector = describeVector(file);
    it(`${file}: valid (${vector.signers.map((s) => s.algorithm).join(', ')}; ${vector.shape}; ${vector.keyKind})`, () => {
      const { reports, signedObjects } = verifyDocument(loadVector(file), options(vector, trust()));
      expect(signedObjects).toBe(1);
      expect(reports).toHaveLength(vector.signers.length);
      for (const [i, report] of reports.entries()) {
        expect(report, `${file} signer ${i}: ${report.reason ?? ''}`).toMatchObject({
          verdict: 'valid',
          algorithm: vector.signers[i]!.algorithm,
          keySource: KEY_SOURCE[vector.keyKind],
          signedPointer: '',
        });
        expect(report.reason).toBeUndefined();
        if (vector.shape === 'signers' || vector.shape === 'chain') {
          expect(report.shape).toBe(vector.shape);
          expect(report.index).toBe(i);
          expect(report.pointer).toBe(`/signature/${vector.shape}/${i}`);
        } else if (vector.shape === 'single') {
          expect(report.shape).toBe('single');
          expect(report.pointer).toBe(vector.variant === 'name-jwk' ? '/authorizationSignature' : '/signature');
        }
        // The store holds every vector key and the root: every key source ends up trusted (jwk: pinned).
        expect(report.trust, `${file} signer ${i}: ${report.trustReason ?? ''}`).toBe('trusted');
      }
    });
  }

  it('@cer vectors chain to rootca.pem (trusted) and not to unknownca.pem (valid but untrusted)', () => {
    const cer = jsonFiles.filter((f) => f.endsWith('@cer.json'));
    expect(cer).toHaveLength(6);
    for (const file of cer) {
      const vector = describeVector(file);
      const trusted = verifyDocument(
        loadVector(file),
        options(vector, { keys: [], roots: [certificate('rootca.pem')] }),
      );
      expect(trusted.reports, file).toMatchObject([
        { verdict: 'valid', keySource: 'certificatePath', trust: 'trusted' },
      ]);
      const unknown = verifyDocument(
        loadVector(file),
        options(vector, { keys: [], roots: [certificate('unknownca.pem')] }),
      );
      expect(unknown.reports, file).toMatchObject([{ verdict: 'valid', trust: 'untrusted' }]);
      expect(unknown.reports[0]!.trustReason).toMatch(/trust root/);
      const none = verifyDocument(loadVector(file), options(vector, { keys: [], roots: [] }));
      expect(none.reports, file).toMatchObject([{ verdict: 'valid', trust: 'untrusted' }]);
    }
  });

  it('@cer trust depends on the clock: expired leaf certificates are valid but untrusted', () => {
    const vector = describeVector('p256#es256@cer.json');
    const store = { keys: [], roots: [certificate('rootca.pem')] };
    const later = verifyDocument(loadVector(vector.file), options(vector, store, { now: new Date('2035-01-01') }));
    expect(later.reports).toMatchObject([{ verdict: 'valid', trust: 'untrusted' }]);
    expect(later.reports[0]!.trustReason).toMatch(/not valid at/);
  });

  it('@kid and @imp vectors are trusted (the key came from the store) and unverifiable without it', () => {
    // Single, multi and chain vectors whose key information is keyId only or nothing (not jwk+kid).
    const selected = jsonFiles.filter((f) => /[@-](kid|imp)\.json$/.test(f));
    expect(selected.length).toBe(29);
    for (const file of selected) {
      const vector = describeVector(file);
      const { reports } = verifyDocument(loadVector(file), options(vector, trust()));
      expect(reports.length, file).toBe(vector.signers.length);
      for (const report of reports) {
        expect(report, file).toMatchObject({ verdict: 'valid', trust: 'trusted' });
        expect(report.trustReason).toMatch(/verified with/);
      }
      const empty = verifyDocument(loadVector(file), options(vector, { keys: [], roots: [] }));
      expect(
        empty.reports.map((r) => [r.verdict, r.trust]),
        file,
      ).toEqual(reports.map(() => ['unverifiable', 'untrusted']));
    }
  });

  it('@jwk vectors are valid but untrusted unless the embedded key is pinned', () => {
    const selected = jsonFiles.filter((f) => /[@-]jwk(\+kid)?\.json$/.test(f));
    expect(selected.length).toBeGreaterThan(20);
    for (const file of selected) {
      const vector = describeVector(file);
      const { reports } = verifyDocument(
        loadVector(file),
        options(vector, { keys: [], roots: [certificate('rootca.pem')] }),
      );
      expect(reports.length, file).toBe(vector.signers.length);
      for (const report of reports) {
        expect(report, file).toMatchObject({ verdict: 'valid', keySource: 'publicKey', trust: 'untrusted' });
        expect(report.trustReason).toMatch(/not in the trust store/);
      }
    }

    // Both ways for one vector: pinning the (public) key makes it trusted; another key does not.
    const vector = describeVector('ed25519#ed25519@jwk.json');
    const publicOnly = only(parseKeyMaterial(readKey('ed25519publickey.pem'), 'ed25519publickey.pem'));
    const pinned = verifyDocument(loadVector(vector.file), options(vector, { keys: [publicOnly], roots: [] }));
    expect(pinned.reports).toMatchObject([{ verdict: 'valid', trust: 'trusted' }]);
    const other = verifyDocument(loadVector(vector.file), options(vector, { keys: [vectorKey('ed448')], roots: [] }));
    expect(other.reports).toMatchObject([{ verdict: 'valid', trust: 'untrusted' }]);
  });

  it('pins a key through a certificate in the store', () => {
    const vector = describeVector('r2048#rs256@jwk.json');
    const certs = only(parseKeyMaterial(readKey('r2048certpath.pem'), 'r2048certpath.pem'));
    const { reports } = verifyDocument(
      loadVector(vector.file),
      options(vector, { keys: [{ ...certs, publicKey: undefined }], roots: [] }),
    );
    expect(reports).toMatchObject([{ verdict: 'valid', trust: 'trusted' }]);
  });

  it('verifies the two signers of a multi-signature independently of the store order', () => {
    const vector = describeVector('p256#es256,r2048#rs256@mult-kid.json');
    const keys = vectorKeys().reverse();
    const { reports } = verifyDocument(loadVector(vector.file), options(vector, { keys, roots: [] }));
    expect(reports.map((r) => [r.keyId, r.verdict])).toEqual([
      ['example.com:p256', 'valid'],
      ['example.com:r2048', 'valid'],
    ]);
  });
});

describe.skipIf(!HAVE_VECTORS)('JSF deterministic re-signing reproduces the vectors byte for byte', () => {
  const files = HAVE_VECTORS ? readdirSync(SIGNATURES).sort() : [];
  const deterministic = ['Ed25519', 'Ed448', 'RS256', 'HS256', 'HS384', 'HS512'];
  const reproducible = files
    .filter((f) => f.endsWith('.json'))
    .map(describeVector)
    .filter(
      (v) =>
        v.shape === 'single' &&
        v.signers.length === 1 &&
        deterministic.includes(v.signers[0]!.algorithm) &&
        ['jwk', 'kid', 'imp', 'jwk+kid', 'cer'].includes(v.variant),
    );
  const data = () =>
    JSON.parse(readFileSync(path.join(JSF_DIR, 'data/datatobesigned.json'), 'utf8')) as Record<string, unknown>;

  it('finds the deterministic single-signature vectors', () => {
    expect(reproducible.map((v) => v.file)).toEqual([
      'a256#hs256@imp.json',
      'a256#hs256@kid.json',
      'a384#hs384@imp.json',
      'a384#hs384@kid.json',
      'a512#hs512@imp.json',
      'a512#hs512@kid.json',
      'ed25519#ed25519@cer.json',
      'ed25519#ed25519@imp.json',
      'ed25519#ed25519@jwk+kid.json',
      'ed25519#ed25519@jwk.json',
      'ed25519#ed25519@kid.json',
      'ed448#ed448@cer.json',
      'ed448#ed448@imp.json',
      'ed448#ed448@jwk+kid.json',
      'ed448#ed448@jwk.json',
      'ed448#ed448@kid.json',
      'r2048#rs256@cer.json',
      'r2048#rs256@imp.json',
      'r2048#rs256@jwk+kid.json',
      'r2048#rs256@jwk.json',
      'r2048#rs256@kid.json',
    ]);
  });

  for (const vector of reproducible) {
    it(`${vector.file}`, () => {
      const { key: keyName, algorithm } = vector.signers[0]!;
      const key = vectorKey(keyName);
      const signOptions: SignOptions = { key };
      if (algorithm === 'HS384' || algorithm === 'HS512') signOptions.algorithm = algorithm as JsfAlgorithm;
      switch (vector.variant) {
        case 'jwk':
          break;
        case 'kid':
          Object.assign(signOptions, { keyId: key.keyId, publicKey: false });
          break;
        case 'imp':
          signOptions.publicKey = false;
          break;
        case 'jwk+kid':
          Object.assign(signOptions, { keyId: key.keyId, publicKey: true });
          break;
        case 'cer':
          signOptions.certificatePath = only(
            parseKeyMaterial(readKey(`${keyName}certpath.pem`), `${keyName}certpath.pem`),
          ).certificates!;
          break;
      }
      const input = data();
      const signed = signObject(input, signOptions);
      expect(JSON.stringify(signed)).toBe(JSON.stringify(loadVector(vector.file)));
      // signObject works on a copy.
      expect(input).toEqual(data());
    });
  }

  // The chain's first (ES256) signer is randomized, so only the last element is re-created: sign the vector
  // with its first element kept, in chain mode. (chai-exts-kid is left out: signObject does not write
  // per-signer extension values.)
  it.each([
    ['p256#es256,r2048#rs256@chai-jwk.json', {}],
    ['p256#es256,r2048#rs256@chai-kid.json', { keyId: 'example.com:r2048', publicKey: false }],
    ['p256#es256,r2048#rs256@chai-excl-kid.json', { keyId: 'example.com:r2048', publicKey: false }],
  ] as [string, Partial<SignOptions>][])('%s: re-creates the RS256 chain element', (file, extra) => {
    const vector = loadVector(file);
    const signature = vector.signature as { chain: unknown[] };
    const firstOnly = { ...vector, signature: { ...signature, chain: [signature.chain[0]] } };
    const resigned = signObject(firstOnly, { key: vectorKey('r2048'), mode: 'chain', ...extra });
    expect(JSON.stringify(resigned)).toBe(JSON.stringify(vector));
  });
});

describe.skipIf(!HAVE_VECTORS)('JSF sign → verify round trips with the vector keys (ECDSA, RSA-PSS)', () => {
  const RANDOMIZED: [JsfAlgorithm, string][] = [
    ['ES256', 'p256'],
    ['ES384', 'p384'],
    ['ES512', 'p521'],
    ['PS256', 'r2048'],
    ['PS384', 'r2048'],
    ['PS512', 'r2048'],
  ];
  const data = () =>
    JSON.parse(readFileSync(path.join(JSF_DIR, 'data/datatobesigned.json'), 'utf8')) as Record<string, unknown>;
  const store = (): TrustStore => ({ keys: vectorKeys(), roots: [certificate('rootca.pem')] });
  const LENGTHS: Record<string, number> = { ES256: 64, ES384: 96, ES512: 132, PS256: 256, PS384: 256, PS512: 256 };

  for (const [algorithm, keyName] of RANDOMIZED) {
    it(`${algorithm}: single signature with publicKey, keyId and implicit key`, () => {
      const key = vectorKey(keyName);
      for (const extra of [
        {},
        { keyId: key.keyId!, publicKey: false },
        { publicKey: false },
      ] as Partial<SignOptions>[]) {
        const signed = signObject(data(), { key, algorithm, ...extra });
        const core = signed.signature as Record<string, unknown>;
        expect(core.algorithm).toBe(algorithm);
        expect(Buffer.from(core.value as string, 'base64url')).toHaveLength(LENGTHS[algorithm]!);
        const { reports } = verifyDocument(signed, { trust: store(), now: NOW });
        expect(reports, JSON.stringify(extra)).toMatchObject([{ verdict: 'valid', algorithm, trust: 'trusted' }]);
      }
    });

    it(`${algorithm}: certificatePath from ${keyName}certificate-key.pem verifies as trusted with rootca`, () => {
      const key = only(parseKeyMaterial(readKey(`${keyName}certificate-key.pem`), `${keyName}certificate-key.pem`));
      const signed = signObject(data(), { key, algorithm, certificatePath: key.certificates! });
      const core = signed.signature as Record<string, unknown>;
      expect(core.publicKey).toBeUndefined();
      expect(core.certificatePath).toHaveLength(2);
      const { reports } = verifyDocument(signed, { trust: { keys: [], roots: [certificate('rootca.pem')] }, now: NOW });
      expect(reports).toMatchObject([{ verdict: 'valid', keySource: 'certificatePath', trust: 'trusted' }]);
      const untrusted = verifyDocument(signed, {
        trust: { keys: [], roots: [certificate('unknownca.pem')] },
        now: NOW,
      });
      expect(untrusted.reports).toMatchObject([{ verdict: 'valid', trust: 'untrusted' }]);
    });
  }

  it('signers (mode add): all six algorithms on one object, each verifying independently', () => {
    let doc = data();
    for (const [algorithm, keyName] of RANDOMIZED)
      doc = signObject(doc, { key: vectorKey(keyName), algorithm, mode: 'add' });
    const signers = (doc.signature as { signers: { algorithm: string }[] }).signers;
    expect(signers.map((s) => s.algorithm)).toEqual(RANDOMIZED.map(([a]) => a));
    const { reports } = verifyDocument(doc, { trust: store(), now: NOW });
    expect(reports.map((r) => [r.algorithm, r.shape, r.verdict, r.trust])).toEqual(
      RANDOMIZED.map(([a]) => [a, 'signers', 'valid', 'trusted']),
    );
  });

  it('chain (mode chain): all six algorithms, each covering the earlier signers', () => {
    let doc = data();
    for (const [algorithm, keyName] of RANDOMIZED)
      doc = signObject(doc, { key: vectorKey(keyName), algorithm, mode: 'chain', keyId: vectorKey(keyName).keyId! });
    const { reports } = verifyDocument(doc, { trust: store(), now: NOW });
    expect(reports.map((r) => [r.algorithm, r.shape, r.verdict])).toEqual(
      RANDOMIZED.map(([a]) => [a, 'chain', 'valid']),
    );
  });

  it.each([
    'p256#es256,p384#es384@chai-jwk.json',
    'p256#es256,p384#es384@mult-jwk.json',
    'p256#es256,p384#es384@chai-exts-jwk.json',
    'p256#es256,p384#es384@mult-exts-jwk.json',
    'p256#es256,p384#es384@chai-excl-jwk.json',
    'p256#es256,p384#es384@mult-excl-jwk.json',
    'p256#es256,p384#es384@chai-excl-exts-jwk.json',
    'p256#es256,p384#es384@mult-excl-exts-jwk.json',
  ])('extends the vector %s with a third signer', (file) => {
    // Extending keeps the first signer's global options (extensions, excludes); the new signer must sign
    // what a verifier reconstructs: no excludes array and no excluded property.
    const mode = file.includes('chai') ? 'chain' : 'add';
    const extended = signObject(loadVector(file), { key: vectorKey('p521'), mode });
    const { reports } = verifyDocument(extended, {
      trust: store(),
      now: NOW,
      allowExcludes: ALLOW_EXCLUDES,
      allowExtensions: ALLOW_EXTENSIONS,
    });
    expect(reports.map((r) => [r.algorithm, r.verdict, r.reason])).toEqual([
      ['ES256', 'valid', undefined],
      ['ES384', 'valid', undefined],
      ['ES512', 'valid', undefined],
    ]);
  });

  it('refuses keys that cannot make the requested signature', () => {
    const code = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as { code?: string }).code;
      }
      return 'no error';
    };
    const p256 = vectorKey('p256');
    expect(code(() => signObject(data(), { key: p256, algorithm: 'RS256' }))).toBe('E_KEY');
    expect(code(() => signObject(data(), { key: p256, algorithm: 'ES384' }))).toBe('E_KEY');
    expect(code(() => signObject(data(), { key: vectorKey('r2048'), algorithm: 'HS256' }))).toBe('E_KEY');
    expect(code(() => signObject(data(), { key: vectorKey('a256'), algorithm: 'ES256' }))).toBe('E_KEY');
    const publicOnly = only(parseKeyMaterial(readKey('p256publickey.pem'), 'p256publickey.pem'));
    expect(code(() => signObject(data(), { key: publicOnly }))).toBe('E_KEY');
    expect(code(() => signObject(data(), { key: vectorKey('a256'), publicKey: true }))).toBe('E_USAGE');
    expect(code(() => signObject(data(), { key: p256, algorithm: 'EdDSA' as JsfAlgorithm }))).toBe('E_USAGE');
    expect(code(() => signObject(data(), { key: p256, mode: 'add', excludes: ['name'] }))).toBe('E_USAGE');
    expect(code(() => signObject(data(), { key: p256, excludes: ['missing'] }))).toBe('E_USAGE');
    const single = signObject(data(), { key: p256 });
    expect(code(() => signObject(single, { key: p256, mode: 'chain' }))).toBe('E_USAGE');
  });

  it('signs with excludes and verifies with the same allow-list', () => {
    const doc: Record<string, unknown> = { ...data(), myUnsignedData: 'anything' };
    const signed = signObject(doc, { key: vectorKey('p256'), excludes: ['myUnsignedData'] });
    expect((signed.signature as { excludes: string[] }).excludes).toEqual(['myUnsignedData']);
    const ok = verifyDocument({ ...signed, myUnsignedData: 'changed' }, { allowExcludes: ALLOW_EXCLUDES, now: NOW });
    expect(ok.reports).toMatchObject([{ verdict: 'valid' }]);
  });
});
