/**
 * The one form of XML Signature bomwright reads and writes on CycloneDX XML: the enveloped signature CycloneDX
 * CLI writes (.NET SignedXml): one <Signature> in the XMLDSig namespace, the last child of the root, with one
 * Reference to the whole document (URI=""), the enveloped-signature transform and canonical XML 1.0 without
 * comments (exclusive canonicalization also read). This module parses that form strictly; anything else is a
 * problem, reported before any cryptography.
 */
import { createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import type { XmlDomElement as Element } from '@xmldom/xmldom/lib/index.js';
import type { JsfAlgorithm } from '../jsf/algorithms.js';

export const XMLDSIG = 'http://www.w3.org/2000/09/xmldsig#';
const DSIG11 = 'http://www.w3.org/2009/xmldsig11#';
export const C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
export const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
export const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';

/** Digest methods accepted (SHA-1 is not). */
export const DIGEST_METHODS: Readonly<Record<string, 'sha256' | 'sha384' | 'sha512'>> = {
  [SHA256]: 'sha256',
  'http://www.w3.org/2001/04/xmldsig-more#sha384': 'sha384',
  'http://www.w3.org/2001/04/xmlenc#sha512': 'sha512',
};

const MORE = 'http://www.w3.org/2001/04/xmldsig-more#';
const MGF1 = 'http://www.w3.org/2007/05/xmldsig-more#';
const EDDSA = 'http://www.w3.org/2021/04/xmldsig-more#';

/** Signature methods (RFC 6931, RFC 9231) by the JSF name of the same algorithm; HMAC has none on purpose. */
export const SIGNATURE_METHODS: Readonly<Partial<Record<JsfAlgorithm, string>>> = {
  RS256: `${MORE}rsa-sha256`,
  RS384: `${MORE}rsa-sha384`,
  RS512: `${MORE}rsa-sha512`,
  PS256: `${MGF1}sha256-rsa-MGF1`,
  PS384: `${MGF1}sha384-rsa-MGF1`,
  PS512: `${MGF1}sha512-rsa-MGF1`,
  ES256: `${MORE}ecdsa-sha256`,
  ES384: `${MORE}ecdsa-sha384`,
  ES512: `${MORE}ecdsa-sha512`,
  Ed25519: `${EDDSA}eddsa-ed25519`,
  Ed448: `${EDDSA}eddsa-ed448`,
};

const BY_METHOD = new Map(Object.entries(SIGNATURE_METHODS).map(([name, uri]) => [uri, name as JsfAlgorithm]));

/** The JSF name of an accepted signature method, or why the method is refused. */
function methodAlgorithm(uri: string): { algorithm: JsfAlgorithm } | { problem: string } {
  const algorithm = BY_METHOD.get(uri);
  if (algorithm !== undefined) return { algorithm };
  const shown = clip(uri);
  if (/hmac/i.test(uri))
    return {
      problem: `SignatureMethod ${shown} is an HMAC: a shared secret does not say who signed, and bomwright accepts no HMAC XML signature`,
    };
  if (/sha1$/i.test(uri)) return { problem: `SignatureMethod ${shown} uses SHA-1, which is not accepted` };
  return {
    problem: `SignatureMethod ${shown} is not accepted (RSA, RSA-PSS or ECDSA with SHA-256/384/512, Ed25519, Ed448)`,
  };
}

const CURVES: Record<string, string> = {
  'urn:oid:1.2.840.10045.3.1.7': 'P-256',
  'urn:oid:1.3.132.0.34': 'P-384',
  'urn:oid:1.3.132.0.35': 'P-521',
};
const CURVE_OIDS: Record<string, string> = Object.fromEntries(Object.entries(CURVES).map(([k, v]) => [v, k]));

/** A certificate named in X509Data rather than carried (XMLDSig §4.5.4): a hint, never key material. */
export type CertificateName =
  | { kind: 'subject'; name: string }
  | { kind: 'issuerSerial'; issuer: string; serial: bigint }
  | { kind: 'ski'; ski: Buffer };

export interface ParsedXmlSignature {
  element: Element;
  method?: string;
  algorithm?: JsfAlgorithm;
  keyName?: string;
  keyValue?: KeyObject;
  certificates?: X509Certificate[];
  /** X509SubjectName, X509IssuerSerial and X509SKI entries; only consulted when no certificate is carried. */
  certificateNames?: CertificateName[];
  problems: string[];
}

function clip(text: string, max = 100): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

const NODE_NAMES: Record<number, string> = { 4: 'a CDATA section', 7: 'a processing instruction', 8: 'a comment' };

/**
 * The element children of a signature element, in the XMLDSig namespace (or `extra`), or problems: signed
 * values are read as one text node each, so a comment, CDATA or markup where a reader might stop reading is
 * refused rather than read one way by one parser and another way by the next.
 */
function childrenOf(element: Element, problems: string[], extra?: string): Element[] {
  const found: Element[] = [];
  for (let node = element.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType === 1) {
      const child = node as Element;
      if (child.namespaceURI !== XMLDSIG && child.namespaceURI !== extra)
        problems.push(`<${child.nodeName}> inside <${element.localName}> is not part of an XML signature`);
      else found.push(child);
    } else if (node.nodeType === 3) {
      if (!/^[\t\n\r ]*$/.test(node.nodeValue ?? ''))
        problems.push(`<${element.localName}> holds text where only elements belong`);
    } else problems.push(`<${element.localName}> holds ${NODE_NAMES[node.nodeType] ?? 'an unexpected node'}`);
  }
  return found;
}

/** The text of a value element: text nodes only. */
function textOf(element: Element, problems: string[]): string {
  let text = '';
  for (let node = element.firstChild; node !== null; node = node.nextSibling) {
    if (node.nodeType === 3) text += node.nodeValue ?? '';
    else {
      problems.push(
        `<${element.localName}> holds ${node.nodeType === 1 ? 'markup' : (NODE_NAMES[node.nodeType] ?? 'an unexpected node')}; only text is accepted`,
      );
      return '';
    }
  }
  return text;
}

/** Strict base64 (white space between groups allowed, as XML writers wrap lines). */
function base64Of(element: Element, problems: string[]): Buffer | undefined {
  const before = problems.length;
  const text = textOf(element, problems).replace(/[\t\n\r ]+/g, '');
  if (problems.length > before) return undefined;
  if (text.length === 0 || text.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) {
    problems.push(`<${element.localName}> is not base64`);
    return undefined;
  }
  return Buffer.from(text, 'base64');
}

/** Attributes other than namespace declarations and the ones allowed. */
function checkAttributes(element: Element, allowed: readonly string[], problems: string[]): void {
  for (let i = 0; i < element.attributes.length; i++) {
    const attribute = element.attributes.item(i)!;
    if (attribute.name === 'xmlns' || attribute.name.startsWith('xmlns:')) continue;
    if (!allowed.includes(attribute.name))
      problems.push(`<${element.localName}> has an attribute ${clip(attribute.name, 40)} that is not accepted`);
  }
}

/** Exactly these children, in this order (`?` optional); returns them by name. */
function sequence(parent: Element, names: readonly string[], problems: string[], extra?: string): Map<string, Element> {
  const children = childrenOf(parent, problems, extra);
  const found = new Map<string, Element>();
  let at = 0;
  for (const spec of names) {
    const name = spec.replace('?', '');
    const child = children[at];
    if (child !== undefined && child.localName === name) {
      found.set(name, child);
      at++;
    } else if (!spec.endsWith('?')) {
      problems.push(`<${parent.localName}> lacks <${name}>`);
      return found;
    }
  }
  const rest = children[at];
  if (rest !== undefined)
    problems.push(
      rest.localName === 'Reference'
        ? 'SignedInfo has more than one Reference: only one, to the whole document, is accepted'
        : `<${rest.localName}> inside <${parent.localName}> is not accepted`,
    );
  return found;
}

function algorithmOf(element: Element, problems: string[]): string {
  checkAttributes(element, ['Algorithm'], problems);
  if (!element.hasAttribute('Algorithm')) problems.push(`<${element.localName}> has no Algorithm`);
  if (childrenOf(element, problems).length > 0)
    problems.push(`<${element.localName}> has parameters, which are not accepted`);
  return element.getAttribute('Algorithm') ?? '';
}

/** Reads a <Signature> element; every way it departs from the accepted form is a problem. */
export function parseXmlSignature(element: Element): ParsedXmlSignature {
  const problems: string[] = [];
  const parsed: ParsedXmlSignature = { element, problems };
  checkAttributes(element, ['Id'], problems);
  const parts = sequence(element, ['SignedInfo', 'SignatureValue', 'KeyInfo?'], problems);
  const signedInfo = parts.get('SignedInfo');
  if (signedInfo !== undefined) readSignedInfo(signedInfo, parsed);
  const value = parts.get('SignatureValue');
  if (value !== undefined) {
    checkAttributes(value, ['Id'], problems);
    base64Of(value, problems);
  }
  const keyInfo = parts.get('KeyInfo');
  if (keyInfo !== undefined) readKeyInfo(keyInfo, parsed);
  return parsed;
}

function readSignedInfo(signedInfo: Element, parsed: ParsedXmlSignature): void {
  const problems = parsed.problems;
  checkAttributes(signedInfo, ['Id'], problems);
  const parts = sequence(signedInfo, ['CanonicalizationMethod', 'SignatureMethod', 'Reference'], problems);
  const c14n = parts.get('CanonicalizationMethod');
  if (c14n !== undefined) {
    const algorithm = algorithmOf(c14n, problems);
    if (algorithm !== C14N && algorithm !== EXC_C14N)
      problems.push(
        `CanonicalizationMethod ${clip(algorithm)} is not accepted (canonical XML 1.0 or exclusive, without comments)`,
      );
  }
  const method = parts.get('SignatureMethod');
  if (method !== undefined) {
    parsed.method = algorithmOf(method, problems);
    const found = methodAlgorithm(parsed.method);
    if ('problem' in found) problems.push(found.problem);
    else parsed.algorithm = found.algorithm;
  }
  const reference = parts.get('Reference');
  if (reference !== undefined) readReference(reference, problems);
}

function readReference(reference: Element, problems: string[]): void {
  checkAttributes(reference, ['URI', 'Id'], problems);
  const uri = reference.getAttribute('URI');
  if (!reference.hasAttribute('URI') || uri !== '')
    problems.push(
      `the Reference points at ${reference.hasAttribute('URI') ? clip(uri ?? '') : 'nothing (no URI)'}, not at the whole document (URI=""): signature wrapping is refused`,
    );
  const parts = sequence(reference, ['Transforms?', 'DigestMethod', 'DigestValue'], problems);
  const transforms = parts.get('Transforms');
  let enveloped = 0;
  if (transforms !== undefined) {
    checkAttributes(transforms, [], problems);
    for (const transform of childrenOf(transforms, problems)) {
      if (transform.localName !== 'Transform') {
        problems.push(`<${transform.localName}> inside <Transforms> is not accepted`);
        continue;
      }
      const algorithm = algorithmOf(transform, problems);
      if (algorithm === ENVELOPED) enveloped++;
      else if (algorithm !== C14N && algorithm !== EXC_C14N)
        problems.push(
          `Transform ${clip(algorithm)} is not accepted (only enveloped-signature and canonical XML without comments)`,
        );
    }
  }
  if (enveloped !== 1)
    problems.push(
      enveloped === 0
        ? 'the Reference lacks the enveloped-signature transform'
        : 'the Reference names the enveloped-signature transform more than once',
    );
  const digestMethod = parts.get('DigestMethod');
  if (digestMethod !== undefined) {
    const algorithm = algorithmOf(digestMethod, problems);
    if (!Object.hasOwn(DIGEST_METHODS, algorithm))
      problems.push(`DigestMethod ${clip(algorithm)} is not accepted (SHA-256, SHA-384 or SHA-512)`);
  }
  const digestValue = parts.get('DigestValue');
  if (digestValue !== undefined) {
    checkAttributes(digestValue, [], problems);
    base64Of(digestValue, problems);
  }
}

function readKeyInfo(keyInfo: Element, parsed: ParsedXmlSignature): void {
  const problems = parsed.problems;
  checkAttributes(keyInfo, ['Id'], problems);
  const children = childrenOf(keyInfo, problems);
  if (children.length === 0) problems.push('KeyInfo is empty');
  const seen = new Set<string>();
  const certificates: X509Certificate[] = [];
  const names: CertificateName[] = [];
  for (const child of children) {
    // XMLDSig allows several X509Data (one per certificate, say); one key name or key value.
    if (seen.has(child.localName) && child.localName !== 'X509Data') {
      problems.push(`KeyInfo holds more than one <${child.localName}>`);
      continue;
    }
    seen.add(child.localName);
    checkAttributes(child, [], problems);
    if (child.localName === 'KeyName') parsed.keyName = textOf(child, problems).trim();
    else if (child.localName === 'KeyValue') readKeyValue(child, parsed);
    else if (child.localName === 'X509Data') readX509Data(child, certificates, names, problems);
    else problems.push(`<${child.localName}> inside <KeyInfo> is not accepted (KeyName, KeyValue, X509Data)`);
  }
  if (certificates.length > 0) parsed.certificates = certificates;
  if (names.length > 0) parsed.certificateNames = names;
  if (seen.has('X509Data') && certificates.length === 0 && names.length === 0)
    problems.push('X509Data holds neither a certificate nor a certificate’s name');
}

/**
 * One X509Data: certificates, and the names of a certificate XMLDSig allows beside them (subject, issuer and
 * serial, subject key identifier) and CRLs. An empty name element (a signing template's leftover, as xmlsec1
 * leaves them) names nothing.
 */
function readX509Data(
  data: Element,
  certificates: X509Certificate[],
  names: CertificateName[],
  problems: string[],
): void {
  for (const entry of childrenOf(data, problems)) {
    const empty = entry.firstChild === null;
    checkAttributes(entry, [], problems);
    switch (entry.localName) {
      case 'X509Certificate': {
        const der = base64Of(entry, problems);
        if (der === undefined) break;
        try {
          certificates.push(new X509Certificate(der));
        } catch {
          problems.push('an X509Certificate is not a certificate');
        }
        break;
      }
      case 'X509SubjectName': {
        const name = textOf(entry, problems).trim();
        if (name !== '') names.push({ kind: 'subject', name });
        break;
      }
      case 'X509IssuerSerial': {
        if (empty) break;
        const parts = sequence(entry, ['X509IssuerName', 'X509SerialNumber'], problems);
        const issuer = parts.get('X509IssuerName');
        const serial = parts.get('X509SerialNumber');
        if (issuer === undefined || serial === undefined) break;
        const number = textOf(serial, problems).trim();
        if (!/^[0-9]+$/.test(number)) problems.push(`X509SerialNumber ${clip(number, 40)} is not a serial number`);
        else names.push({ kind: 'issuerSerial', issuer: textOf(issuer, problems).trim(), serial: BigInt(number) });
        break;
      }
      case 'X509SKI': {
        if (empty) break;
        const ski = base64Of(entry, problems);
        if (ski !== undefined) names.push({ kind: 'ski', ski });
        break;
      }
      case 'X509CRL':
        // Revocation lists are not consulted (as JSF's certificate paths, trust is the configured roots).
        base64Of(entry, problems);
        break;
      default:
        problems.push(
          `<${entry.localName}> inside <X509Data> is not accepted (X509Certificate, X509SubjectName, X509IssuerSerial, X509SKI, X509CRL)`,
        );
    }
  }
}

/** A distinguished name as a set of lower-cased `type=value` pairs (escapes undone), from RFC 4514 text or Node's subject form. */
export function distinguishedName(text: string, form: 'rfc4514' | 'node'): Set<string> {
  const pairs: string[] = [];
  // Node puts one attribute a line and escapes as RFC 4514 does; RFC 4514 separates them with commas.
  const separators = form === 'node' ? '\n' : ',;+';
  {
    let current = '';
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (c === '\\' && i + 1 < text.length) current += text[++i];
      else if (separators.includes(c)) {
        pairs.push(current);
        current = '';
      } else current += c;
    }
    pairs.push(current);
  }
  const TYPES: Record<string, string> = { e: 'emailaddress', email: 'emailaddress', s: 'st' };
  return new Set(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      const type = pair.slice(0, at).trim().toLowerCase();
      return `${TYPES[type] ?? type}=${pair
        .slice(at + 1)
        .trim()
        .toLowerCase()}`;
    }),
  );
}

/** The subject key identifier extension (2.5.29.14) of a certificate, read from its DER; undefined without one. */
export function subjectKeyIdentifier(certificate: X509Certificate): Buffer | undefined {
  const der = certificate.raw;
  const oid = Buffer.from([0x06, 0x03, 0x55, 0x1d, 0x0e]);
  for (let at = der.indexOf(oid); at !== -1; at = der.indexOf(oid, at + 1)) {
    let i = at + oid.length;
    if (der[i] === 0x01 && der[i + 1] === 0x01) i += 3; // critical: BOOLEAN
    // extnValue OCTET STRING holding the KeyIdentifier OCTET STRING (both short, under 128 bytes).
    if (der[i] !== 0x04 || der[i + 2] !== 0x04) continue;
    const length = der[i + 3]!;
    if (length >= 0x80 || der[i + 1] !== length + 2) continue;
    return Buffer.from(der.subarray(i + 4, i + 4 + length));
  }
  return undefined;
}

function readKeyValue(keyValue: Element, parsed: ParsedXmlSignature): void {
  const problems = parsed.problems;
  const [value, more] = childrenOf(keyValue, problems, DSIG11);
  if (value === undefined || more !== undefined) {
    problems.push('KeyValue must hold one key');
    return;
  }
  checkAttributes(value, [], problems);
  try {
    if (value.localName === 'RSAKeyValue' && value.namespaceURI === XMLDSIG) {
      const parts = sequence(value, ['Modulus', 'Exponent'], problems);
      const n = parts.get('Modulus');
      const e = parts.get('Exponent');
      const modulus = n === undefined ? undefined : base64Of(n, problems);
      const exponent = e === undefined ? undefined : base64Of(e, problems);
      if (modulus === undefined || exponent === undefined) return;
      parsed.keyValue = createPublicKey({
        key: { kty: 'RSA', n: modulus.toString('base64url'), e: exponent.toString('base64url') },
        format: 'jwk',
      });
    } else if (value.localName === 'ECKeyValue' && value.namespaceURI === DSIG11) {
      const parts = sequence(value, ['NamedCurve', 'PublicKey'], problems, DSIG11);
      const named = parts.get('NamedCurve');
      const point = parts.get('PublicKey');
      if (named === undefined || point === undefined) return;
      checkAttributes(named, ['URI'], problems);
      const curve = CURVES[named.getAttribute('URI') ?? ''];
      if (curve === undefined) {
        problems.push(`NamedCurve ${clip(named.getAttribute('URI') ?? '')} is not P-256, P-384 or P-521`);
        return;
      }
      const bytes = base64Of(point, problems);
      if (bytes === undefined) return;
      const size = (bytes.length - 1) / 2;
      if (bytes[0] !== 4 || !Number.isInteger(size)) {
        problems.push('ECKeyValue PublicKey is not an uncompressed point');
        return;
      }
      parsed.keyValue = createPublicKey({
        key: {
          kty: 'EC',
          crv: curve,
          x: bytes.subarray(1, 1 + size).toString('base64url'),
          y: bytes.subarray(1 + size).toString('base64url'),
        },
        format: 'jwk',
      });
    } else problems.push(`<${value.localName}> inside <KeyValue> is not accepted (RSAKeyValue, ECKeyValue)`);
  } catch {
    problems.push(`the ${value.localName} is not a valid key`);
  }
}

/** KeyInfo content for a key (.NET's RSAKeyValue, XMLDSig 1.1's ECKeyValue), for `--public-key`. */
export function keyValueXml(key: KeyObject): string | undefined {
  const jwk = key.export({ format: 'jwk' });
  const b64 = (value: string | undefined) => Buffer.from(value ?? '', 'base64url').toString('base64');
  if (jwk.kty === 'RSA')
    return `<KeyValue><RSAKeyValue><Modulus>${b64(jwk.n)}</Modulus><Exponent>${b64(jwk.e)}</Exponent></RSAKeyValue></KeyValue>`;
  if (jwk.kty === 'EC' && jwk.crv !== undefined && CURVE_OIDS[jwk.crv] !== undefined) {
    const point = Buffer.concat([
      Buffer.from([4]),
      Buffer.from(jwk.x ?? '', 'base64url'),
      Buffer.from(jwk.y ?? '', 'base64url'),
    ]);
    return `<KeyValue><dsig11:ECKeyValue xmlns:dsig11="${DSIG11}"><dsig11:NamedCurve URI="${CURVE_OIDS[jwk.crv]}"></dsig11:NamedCurve><dsig11:PublicKey>${point.toString('base64')}</dsig11:PublicKey></dsig11:ECKeyValue></KeyValue>`;
  }
  return undefined;
}
