/**
 * XML Signature verification on CycloneDX XML, as a fixed pipeline with the JSF verdicts: the document's
 * signatures are found (one, a child of the root, or the document is refused as wrapped), the signature is
 * parsed strictly (dsig.ts), the key is resolved (KeyInfo or the trust store), the signature method must be
 * one that key allows (the trusted key's own algorithm when it has one), and only then does xml-crypto
 * canonicalize, digest and check. Trust is the JSF trust: pinned keys, key names, certificate roots.
 */
import { createHash, type KeyObject, type X509Certificate } from 'node:crypto';
import type {
  XmlDomDocument as Document,
  XmlDomElement as Element,
  XmlDomNode as Node,
} from '@xmldom/xmldom/lib/index.js';
import type { SignedXml } from 'xml-crypto';
import { dsigLibrary } from './dsig-library.js';
import { algorithmInfo, type AlgorithmInfo } from '../jsf/algorithms.js';
import { keyMismatch, keyRefusal, sameKey, usableKey, type KeyMaterial } from '../jsf/keys.js';
import { signBytes } from '../jsf/sign.js';
import { EMPTY_TRUST, pinsOf, type TrustStore } from '../jsf/trust.js';
import { certificateTrust, checkBytes, namedKeys, pinTrust, type SignerReport } from '../jsf/verify.js';
import { lineColumn, scanXml } from './scan.js';
import {
  DIGEST_METHODS,
  distinguishedName,
  parseXmlSignature,
  subjectKeyIdentifier,
  XMLDSIG,
  type CertificateName,
  type ParsedXmlSignature,
} from './dsig.js';

interface XmlVerifyOptions {
  trust?: TrustStore;
  /** Clock for certificate validity. */
  now?: Date;
}

interface XmlSignatureReport extends SignerReport {
  /** 1-based position of the <Signature> start tag. */
  line?: number;
  column?: number;
}

type Outcome = Pick<SignerReport, 'verdict' | 'reason' | 'trust' | 'trustReason' | 'trustedBy'>;

/** xml-crypto's signature algorithm interface over node:crypto, for one algorithm (the key's). */
function algorithmClass(info: AlgorithmInfo, uri: string) {
  return class {
    getSignature(signedInfo: string | Buffer, privateKey: KeyObject): string {
      return signBytes(info, privateKey, Buffer.from(signedInfo)).toString('base64');
    }
    verifySignature(material: string, key: KeyObject, signatureValue: string): boolean {
      return checkBytes(info, key, Buffer.from(material, 'utf8'), Buffer.from(signatureValue, 'base64'));
    }
    getAlgorithmName(): string {
      return uri;
    }
  };
}

function hashClass(uri: string, hash: string) {
  return class {
    getHash(xml: string): string {
      return createHash(hash).update(xml, 'utf8').digest('base64');
    }
    getAlgorithmName(): string {
      return uri;
    }
  };
}

/** The accepted digests only: a document naming another finds none (and dsig.ts has refused it already). */
export function configure(signed: SignedXml, info: AlgorithmInfo, method: string): SignedXml {
  const target = signed as unknown as Record<string, unknown>;
  target.SignatureAlgorithms = { [method]: algorithmClass(info, method) };
  target.HashAlgorithms = Object.fromEntries(
    Object.entries(DIGEST_METHODS).map(([uri, hash]) => [uri, hashClass(uri, hash)]),
  );
  return signed;
}

/**
 * Parses XML for signature processing: the caller has refused DOCTYPEs (scanXml) and checked well-formedness;
 * whatever this parser still finds wrong refuses the document rather than being read a second way.
 */
export function parseDom(text: string): { document: Document } | { problem: string } {
  const errors: string[] = [];
  const record = (message: unknown) =>
    errors.push(
      String(message)
        .split('\n')[0]!
        .replace(/^\[xmldom \w+\]\s*/, ''),
    );
  const { DOMParser } = dsigLibrary();
  const document = new DOMParser({
    locator: {},
    errorHandler: { warning: () => {}, error: record, fatalError: record },
  }).parseFromString(text, 'text/xml');
  if (errors.length > 0 || document.documentElement === null)
    return { problem: `the XML cannot be read for signature checking: ${errors[0] ?? 'no root element'}` };
  return { document };
}

/**
 * The target of a processing instruction anywhere in the document (the XML declaration aside), if any. Outside
 * the root some verifiers sign it and others do not; inside, xml-crypto's canonical form reads its data as text
 * where every other reader skips it, so `<name>a<?x b?></name>` would verify as the signed `<name>ab</name>`.
 */
export function processingInstruction(document: Document): string | undefined {
  const stack: Node[] = [];
  for (let node = document.firstChild; node !== null; node = node.nextSibling) stack.push(node);
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.nodeType === 7 && node.nodeName.toLowerCase() !== 'xml') return node.nodeName;
    if (node.nodeType === 1)
      for (let child = node.firstChild; child !== null; child = child.nextSibling) stack.push(child);
  }
  return undefined;
}

/** `/bom/Signature`, `/bom/components/component[2]/Signature`: where a signature stands, for reports. */
function pathOf(element: Element): string {
  const segments: string[] = [];
  for (let node: Element | null = element; node !== null;) {
    const parent: Node | null = node.parentNode;
    const name = node.nodeName;
    let index = 0;
    let count = 0;
    for (let sibling = parent?.firstChild ?? null; sibling !== null; sibling = sibling.nextSibling) {
      if (sibling.nodeType === 1 && sibling.nodeName === name) {
        count++;
        if (sibling === node) index = count;
      }
    }
    segments.push(count > 1 ? `${name}[${index}]` : name);
    node = parent !== null && parent.nodeType === 1 ? (parent as Element) : null;
  }
  return '/' + segments.reverse().join('/');
}

function position(element: Element): { line?: number; column?: number } {
  return element.lineNumber === undefined
    ? {}
    : { line: element.lineNumber, column: Math.max(1, element.columnNumber ?? 1) };
}

/** Every XML signature of a document read by {@link parseDom}, each with a report. */
export function verifyXmlDocument(
  document: Document,
  text: string,
  options: XmlVerifyOptions = {},
): XmlSignatureReport[] {
  const found = document.getElementsByTagNameNS(XMLDSIG, 'Signature');
  const signatures: Element[] = [];
  for (let i = 0; i < found.length; i++) signatures.push(found.item(i)!);
  const root = document.documentElement;
  if (root === null) return [];
  const instruction = processingInstruction(document);
  return signatures.map((element) => {
    const base: XmlSignatureReport = {
      pointer: pathOf(element),
      signedPointer: pathOf(root),
      shape: 'single',
      keySource: 'implicit',
      verdict: 'invalid',
      trust: 'untrusted',
      ...position(element),
    };
    const refuse = (reason: string): XmlSignatureReport => ({ ...base, reason });
    if (signatures.length > 1)
      return refuse(
        `the document holds ${signatures.length} XML signatures; one is accepted, over the whole document, as a child of the root (signature wrapping is refused)`,
      );
    if (element.parentNode !== root)
      return refuse(
        'the Signature is not a child of the root element; an enveloped signature of the whole document stands there (signature wrapping is refused)',
      );
    if (instruction !== undefined)
      return refuse(
        `the document holds a processing instruction (${JSON.stringify(instruction.slice(0, 40))}), which canonicalizers disagree on (outside the root: whether it is signed; inside: whether it is text)`,
      );
    const parsed = parseXmlSignature(element);
    const described: XmlSignatureReport = {
      ...base,
      ...(parsed.algorithm === undefined ? {} : { algorithm: parsed.algorithm }),
      keySource: parsed.certificates
        ? 'certificatePath'
        : parsed.keyValue
          ? 'publicKey'
          : parsed.keyName !== undefined || parsed.certificateNames !== undefined
            ? 'keyId'
            : 'implicit',
      ...(parsed.keyName !== undefined
        ? { keyId: parsed.keyName }
        : parsed.certificateNames !== undefined && parsed.certificates === undefined
          ? { keyId: describeName(parsed.certificateNames[0]!) }
          : {}),
      ...(parsed.certificates === undefined
        ? {}
        : { certificates: parsed.certificates.map((c) => c.subject.replaceAll('\n', ', ')) }),
    };
    if (parsed.problems.length > 0) return { ...described, reason: parsed.problems.join('; ') };
    return { ...described, ...judge(text, parsed, options) };
  });
}

/** Checks the signature with one key: valid, the content changed (digest), or the signature value is wrong. */
function checkWith(
  text: string,
  parsed: ParsedXmlSignature,
  info: AlgorithmInfo,
  key: KeyObject,
): 'valid' | 'digest' | 'signature' | { error: string } {
  const signed = configure(
    new (dsigLibrary().SignedXml)({ publicCert: key as unknown as string, getCertFromKeyInfo: () => null }),
    info,
    parsed.method!,
  );
  try {
    signed.loadSignature(parsed.element as never);
    return signed.checkSignature(text) ? 'valid' : 'digest';
  } catch (error) {
    const message = (error as Error).message;
    if (message.startsWith('invalid signature: the signature value')) return 'signature';
    return { error: message.split('\n')[0]!.slice(0, 200) };
  }
}

function verdictOf(result: ReturnType<typeof checkWith>): Outcome | undefined {
  if (result === 'valid') return undefined;
  if (result === 'digest')
    return {
      verdict: 'invalid',
      reason: 'the document does not match the digest it was signed with (it was changed after signing)',
      trust: 'untrusted',
    };
  if (result === 'signature')
    return { verdict: 'invalid', reason: 'the signature does not match the signed data', trust: 'untrusted' };
  return { verdict: 'invalid', reason: `the signature cannot be checked: ${result.error}`, trust: 'untrusted' };
}

function judge(text: string, parsed: ParsedXmlSignature, options: XmlVerifyOptions): Outcome {
  const info = algorithmInfo(parsed.algorithm!)!;
  const store = options.trust ?? EMPTY_TRUST;
  const embedded = parsed.certificates?.[0]?.publicKey ?? parsed.keyValue;
  if (embedded !== undefined) {
    if (parsed.certificates && parsed.keyValue && !sameKey(parsed.certificates[0]!.publicKey, parsed.keyValue))
      return {
        verdict: 'invalid',
        reason: 'KeyValue is not the key of the first certificate in X509Data',
        trust: 'untrusted',
      };
    const mismatch = keyMismatch(info, embedded);
    if (mismatch) return { verdict: 'invalid', reason: mismatch, trust: 'untrusted' };
    const failed = verdictOf(checkWith(text, parsed, info, embedded));
    if (failed !== undefined) return failed;
    if (parsed.certificates) return certificateTrust(parsed.certificates, store, options.now ?? new Date());
    return pinTrust(info, pinsOf(store, embedded));
  }
  if (parsed.certificateNames !== undefined) {
    const named = namedCertificates(store, parsed.certificateNames);
    if (named.length > 0) return tryCertificates(text, parsed, info, named, store, options.now ?? new Date());
    if (parsed.keyName === undefined)
      return {
        verdict: 'unverifiable',
        reason: `X509Data names a certificate (${describeName(parsed.certificateNames[0]!)}) that the trust options do not hold (--trust, --trust-root)`,
        trust: 'untrusted',
      };
  }
  if (parsed.keyName !== undefined) {
    const named = namedKeys(store, parsed.keyName, 'KeyName', info);
    return Array.isArray(named) ? tryKeys(text, parsed, info, named) : named;
  }
  const candidates = store.keys.filter((k) => keyRefusal(info, k) === undefined);
  if (candidates.length === 0)
    return {
      verdict: 'unverifiable',
      reason: `the signature carries no key and no trusted key allows ${info.name} (--trust)`,
      trust: 'untrusted',
    };
  return tryKeys(text, parsed, info, candidates);
}

/** How a report shows a certificate's name. */
function describeName(name: CertificateName): string {
  if (name.kind === 'subject') return `X509SubjectName ${name.name.slice(0, 120)}`;
  if (name.kind === 'issuerSerial')
    return `X509IssuerSerial ${name.issuer.slice(0, 120)} ${String(name.serial).slice(0, 60)}`;
  return `X509SKI ${name.ski.toString('base64')}`;
}

function sameName(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}

/** Whether `certificate` is the one `name` names. */
function names(name: CertificateName, certificate: X509Certificate): boolean {
  if (name.kind === 'subject')
    return sameName(distinguishedName(name.name, 'rfc4514'), distinguishedName(certificate.subject, 'node'));
  if (name.kind === 'issuerSerial')
    return (
      BigInt(`0x${certificate.serialNumber}`) === name.serial &&
      sameName(distinguishedName(name.issuer, 'rfc4514'), distinguishedName(certificate.issuer, 'node'))
    );
  const ski = subjectKeyIdentifier(certificate);
  return ski !== undefined && ski.equals(name.ski);
}

/** A certificate the trust options hold: a root, or a pinned entry's certificate. */
type HeldCertificate = { certificate: X509Certificate; pinnedBy?: KeyMaterial };

/** The certificates of the trust options that X509Data names: the key comes only from pinned material. */
function namedCertificates(store: TrustStore, wanted: readonly CertificateName[]): HeldCertificate[] {
  const held: HeldCertificate[] = [
    ...store.roots.map((certificate) => ({ certificate })),
    ...store.keys.flatMap((k) => (k.certificates ?? []).map((certificate) => ({ certificate, pinnedBy: k }))),
  ];
  return held.filter((h) => wanted.some((name) => names(name, h.certificate)));
}

function tryCertificates(
  text: string,
  parsed: ParsedXmlSignature,
  info: AlgorithmInfo,
  held: readonly HeldCertificate[],
  store: TrustStore,
  now: Date,
): Outcome {
  let last: Outcome | undefined;
  for (const { certificate, pinnedBy } of held) {
    const mismatch = keyMismatch(info, certificate.publicKey);
    if (mismatch) {
      last = {
        verdict: 'invalid',
        reason: `the named certificate's key does not fit: ${mismatch}`,
        trust: 'untrusted',
      };
      continue;
    }
    const result = checkWith(text, parsed, info, certificate.publicKey);
    if (result === 'valid')
      return pinnedBy === undefined ? certificateTrust([certificate], store, now) : pinTrust(info, [pinnedBy]);
    last = verdictOf(result);
    if (result !== 'signature') return last!;
  }
  return last!;
}

/** Trusted keys in turn; the digest does not depend on the key, so a changed document stops at the first. */
function tryKeys(text: string, parsed: ParsedXmlSignature, info: AlgorithmInfo, keys: readonly KeyMaterial[]): Outcome {
  let last: Outcome | undefined;
  for (const candidate of keys) {
    const result = checkWith(text, parsed, info, usableKey(candidate)!);
    if (result === 'valid')
      return { verdict: 'valid', trust: 'trusted', trustReason: `verified with ${candidate.source}`, trustedBy: 'key' };
    last = verdictOf(result);
    if (result !== 'signature') return last!;
  }
  return last!;
}

type XmlVerifyResult =
  | { reports: XmlSignatureReport[] }
  | { problem: string; ruleId: 'xml/doctype' | 'xml/too-deep' | 'xml/syntax'; line?: number; column?: number };

/**
 * Every XML signature of a document (decoded text, no byte-order mark). The document is read as the validator
 * reads it first: a DOCTYPE, excessive depth or broken markup refuse it before any signature is looked at.
 */
export function verifyXmlText(text: string, options: XmlVerifyOptions = {}): XmlVerifyResult {
  const scanned = scanXml(text);
  if (!scanned.ok)
    return {
      problem: scanned.message,
      ruleId: scanned.kind === 'doctype' ? 'xml/doctype' : scanned.kind === 'too-deep' ? 'xml/too-deep' : 'xml/syntax',
      ...lineColumn(text)(scanned.offset),
    };
  const dom = parseDom(text);
  if ('problem' in dom) return { problem: dom.problem, ruleId: 'xml/syntax' };
  return { reports: verifyXmlDocument(dom.document, text, options) };
}
