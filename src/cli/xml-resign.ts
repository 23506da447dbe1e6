/**
 * What becomes of an XML signature when a command rewrites the document it covers: made again with the key
 * given (with the same kind of key information as before), or removed when asked to, never left stale.
 */
import type { X509Certificate } from 'node:crypto';
import type { Syntax } from '../document/syntax.js';
import type { DroppedMember } from '../document/write.js';
import type { KeyMaterial } from '../jsf/keys.js';
import { removeXmlSignature, signXmlText, xmlSignatureShape } from '../xml/sign.js';

interface XmlResign {
  key?: KeyMaterial;
  keyId?: string;
  certificatePath?: readonly X509Certificate[];
}

/**
 * The last step on the text written as XML: signed again with `resign.key` (a document that was signed, in the
 * form of its old signature), else its stale signature removed. `original` is the source text (its signature's
 * key information is copied); JSON output is left alone.
 */
export function xmlSignatureStep(
  original: string | undefined,
  resign: XmlResign,
): (text: string, syntax: Syntax) => string {
  return (text, syntax) => {
    if (syntax !== 'xml') return text;
    if (resign.key === undefined) return removeXmlSignature(text);
    const shape = original === undefined ? undefined : xmlSignatureShape(original);
    const keyId = resign.keyId ?? shape?.keyName;
    return signXmlText(text, {
      key: resign.key,
      publicKey: shape?.publicKey ?? (keyId === undefined && resign.certificatePath === undefined),
      ...(keyId === undefined ? {} : { keyId }),
      ...(resign.certificatePath === undefined ? {} : { certificatePath: resign.certificatePath }),
    }).text;
  };
}

/** One warning line for each member the XML written cannot carry (the output is still written, without it). */
export function warnDropped(stderr: (text: string) => void): (dropped: DroppedMember) => void {
  return ({ pointer, reason }) => stderr(`bomwright: warning: dropped ${pointer || '/'}: ${reason}\n`);
}
