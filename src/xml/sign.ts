/**
 * Signs CycloneDX XML in the form CycloneDX CLI writes and reads (`cyclonedx sign bom`, `verify all`): an
 * enveloped <Signature> appended to the root, one Reference URI="" with the enveloped-signature transform,
 * canonical XML 1.0, SHA-256 digest, and no KeyInfo unless asked for. The signature is spliced into the
 * document's own text (nothing else is re-serialized) and checked with the public key before it is returned.
 */
import type { X509Certificate } from 'node:crypto';
import { BomwrightError } from '../errors.js';
import type { JsfAlgorithm } from '../jsf/algorithms.js';
import type { KeyMaterial } from '../jsf/keys.js';
import { resolveAlgorithm } from '../jsf/sign.js';
import { C14N, ENVELOPED, keyValueXml, SHA256, SIGNATURE_METHODS, XMLDSIG } from './dsig.js';
import { dsigLibrary } from './dsig-library.js';
import { scanXml } from './scan.js';
import { configure, parseDom, processingInstruction, verifyXmlDocument } from './signatures.js';

interface XmlSignOptions {
  key: KeyMaterial;
  /** Default: the key's own algorithm, else the one its type implies (RS256 for RSA, as CycloneDX CLI signs). */
  algorithm?: JsfAlgorithm;
  /** Embed the public key as KeyValue. */
  publicKey?: boolean;
  /** Embed a KeyName (how a verifier finds the key in its trust store). */
  keyId?: string;
  /** Embed these certificates (signer's first) as X509Data. */
  certificatePath?: readonly X509Certificate[];
}

function escapeText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function keyInfoContent(options: XmlSignOptions): string | null {
  const parts: string[] = [];
  if (options.keyId !== undefined) parts.push(`<KeyName>${escapeText(options.keyId)}</KeyName>`);
  if (options.publicKey === true) {
    const value = keyValueXml(options.key.publicKey!);
    if (value === undefined)
      throw new BomwrightError('E_KEY', `${options.key.source}: no XML KeyValue form for this key type`);
    parts.push(value);
  }
  if (options.certificatePath !== undefined && options.certificatePath.length > 0)
    parts.push(
      `<X509Data>${options.certificatePath.map((c) => `<X509Certificate>${c.raw.toString('base64')}</X509Certificate>`).join('')}</X509Data>`,
    );
  return parts.length === 0 ? null : parts.join('');
}

/**
 * The document without its XML signature (a child of the root), for re-signing; a signature anywhere else is
 * refused, as verification refuses it.
 */
function withoutSignature(text: string): { text: string; rootName: string } {
  const scanned = scanXml(text);
  if (!scanned.ok)
    throw new BomwrightError(
      'E_INPUT',
      `Cannot sign: ${scanned.message} [xml/${scanned.kind === 'syntax' ? 'syntax' : scanned.kind}]`,
    );
  const root = scanned.root;
  const own = root.children.filter((c) => c.local === 'Signature' && c.namespace === XMLDSIG);
  const stack = [...root.children];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.local === 'Signature' && node.namespace === XMLDSIG && node.parent !== root)
      throw new BomwrightError(
        'E_INPUT',
        'Cannot sign: the document holds an XML signature that is not a child of the root',
      );
    if (!(node.local === 'Signature' && node.namespace === XMLDSIG)) stack.push(...node.children);
  }
  if (own.length > 1)
    throw new BomwrightError('E_INPUT', 'Cannot sign: the document holds more than one XML signature');
  const existing = own[0];
  if (existing === undefined) return { text, rootName: root.name };
  const close = new RegExp(`</${existing.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\t\\n\\r ]*>`, 'g');
  close.lastIndex = existing.offset;
  const end = close.exec(text);
  if (end === null) throw new BomwrightError('E_INPUT', 'Cannot sign: the existing XML signature is an empty element');
  return { text: text.slice(0, existing.offset) + text.slice(end.index + end[0].length), rootName: root.name };
}

/** What key information the document's XML signature carries, so a re-signature carries the same kind. */
export function xmlSignatureShape(
  input: string,
): { publicKey: boolean; keyName?: string; certificates: boolean } | undefined {
  const scanned = scanXml(input.replace(/^\uFEFF/, ''));
  if (!scanned.ok) return undefined;
  const signature = scanned.root.children.find((c) => c.local === 'Signature' && c.namespace === XMLDSIG);
  if (signature === undefined) return undefined;
  const keyInfo = signature.children.find((c) => c.local === 'KeyInfo' && c.namespace === XMLDSIG);
  const parts = keyInfo?.children.filter((c) => c.namespace === XMLDSIG) ?? [];
  const keyName = parts.find((c) => c.local === 'KeyName')?.text.trim();
  return {
    publicKey: parts.some((c) => c.local === 'KeyValue'),
    ...(keyName === undefined || keyName === '' ? {} : { keyName }),
    certificates: parts.some((c) => c.local === 'X509Data'),
  };
}

/** The document without its XML signature (an edit that invalidates it removes it); a byte-order mark is kept. */
export function removeXmlSignature(input: string): string {
  const bom = input.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
  return bom + withoutSignature(bom === '' ? input : input.slice(1)).text;
}

/** The signed document (decoded text in, text out) and the algorithm it was signed with. */
export function signXmlText(input: string, options: XmlSignOptions): { text: string; algorithm: JsfAlgorithm } {
  const info = resolveAlgorithm(options.key, options.algorithm);
  const method = SIGNATURE_METHODS[info.name];
  if (method === undefined || options.key.privateKey === undefined)
    throw new BomwrightError(
      'E_KEY',
      `Cannot sign XML with ${options.key.source}: XML signatures take an RSA, EC, Ed25519 or Ed448 private key, not ${info.name}`,
    );
  const bom = input.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
  const { text, rootName } = withoutSignature(bom === '' ? input : input.slice(1));
  const end = text.lastIndexOf(`</${rootName}`);
  if (end === -1)
    throw new BomwrightError(
      'E_INPUT',
      `Cannot sign: the root <${rootName}/> is an empty element; write it as <${rootName}></${rootName}>`,
    );
  const dom = parseDom(text);
  if ('problem' in dom) throw new BomwrightError('E_INPUT', `Cannot sign: ${dom.problem}`);
  const instruction = processingInstruction(dom.document);
  if (instruction !== undefined)
    throw new BomwrightError(
      'E_INPUT',
      `Cannot sign: the document holds a processing instruction (${JSON.stringify(instruction.slice(0, 40))}), which XML signature verifiers read differently; remove it`,
    );
  const keyInfo = keyInfoContent(options);
  const signer = configure(
    new (dsigLibrary().SignedXml)({
      privateKey: options.key.privateKey as unknown as string,
      canonicalizationAlgorithm: C14N,
      signatureAlgorithm: method as never,
      getKeyInfoContent: () => keyInfo,
    }),
    info,
    method,
  );
  signer.addReference({ xpath: '/*', transforms: [ENVELOPED], digestAlgorithm: SHA256, isEmptyUri: true });
  signer.computeSignature(text, { location: { reference: '/*', action: 'append' } });
  const signed = bom + text.slice(0, end) + signer.getSignatureXml() + text.slice(end);

  // What was written must verify, with the public key, by the same code that verifies documents.
  const written = parseDom(signed.replace(/^\uFEFF/, ''));
  const reports =
    'document' in written
      ? verifyXmlDocument(written.document, signed.replace(/^\uFEFF/, ''), {
          trust: {
            keys: [{ ...options.key, privateKey: undefined, keyId: options.keyId ?? options.key.keyId }],
            roots: [],
          },
        })
      : [];
  if (reports.length !== 1 || reports[0]!.verdict !== 'valid')
    throw new BomwrightError(
      'E_INTERNAL',
      `The XML signature just made does not verify: ${'problem' in written ? written.problem : (reports[0]?.reason ?? 'not found')}`,
    );
  return { text: signed, algorithm: info.name };
}
