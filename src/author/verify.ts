/**
 * The library's `verify`: JSF signatures in a parsed JSON value, or XML signatures in CycloneDX XML given as bytes
 * or text. Both give one report per signer, with the same verdicts and trust.
 */
import { BomwrightError } from '../errors.js';
import { verifyDocument, type DocumentSignatures, type VerifyOptions } from '../jsf/verify.js';
import { verifyXmlText } from '../xml/signatures.js';
import { xmlText } from './sign.js';

/**
 * Reports on every signature of `document`: a parsed JSON value (JSF), or CycloneDX XML as bytes or text (an
 * enveloped XML Signature). XML that cannot be read (a DOCTYPE, broken markup) throws `E_INPUT`.
 */
export function verifyAny(document: unknown, options: VerifyOptions = {}): DocumentSignatures {
  const xml = xmlText(document);
  if (xml === undefined) return verifyDocument(document, options);
  const result = verifyXmlText(xml.replace(/^\uFEFF/, ''), {
    ...(options.trust === undefined ? {} : { trust: options.trust }),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  if ('problem' in result) {
    const where = result.line === undefined ? '' : ` at line ${result.line}, column ${result.column ?? 1}`;
    throw new BomwrightError('E_INPUT', `${result.problem}${where} [${result.ruleId}]`);
  }
  return { reports: result.reports, signedObjects: result.reports.length, holders: [] };
}
