/**
 * The inputs' signatures, verified before the merge drops them (a merged BOM is a new document: no input signature
 * can hold for it). A merge that is signed afterwards vouches for its inputs, so an input whose signature is
 * invalid must not be merged silently, and one signed by a key nobody trusts must not be re-signed as trusted.
 */
import type { GatePolicy } from '../jsf/judge.js';
import type { TrustStore } from '../jsf/trust.js';
import { verifyDocument, type SignerReport } from '../jsf/verify.js';
import { verifyXmlText } from '../xml/signatures.js';

/**
 * `valid`: verified with a trusted key; `untrusted`: verified, but by a key the trust store does not hold;
 * `unverifiable`: no key to check it with; `invalid`: it does not match the signed data (or is malformed).
 */
export type InputSignatureStatus = 'valid' | 'untrusted' | 'unverifiable' | 'invalid';

export interface InputSignature {
  input: string;
  /** Pointer of the signature in the input. */
  pointer: string;
  status: InputSignatureStatus;
  /** Why it is not valid and trusted. */
  reason?: string;
}

interface SignatureCheckOptions {
  trust?: TrustStore;
  /** JSF `excludes` names accepted, as for verify. */
  allowExcludes?: readonly string[];
}

/**
 * Every signature of one input, with its verdict; none when the input is unsigned. An XML input's signatures are
 * in its text, not in the model: given `xml` (the text it was read from), they are verified as `verify` does.
 */
export function inputSignatures(
  document: unknown,
  input: string,
  options: SignatureCheckOptions,
  xml?: string,
): InputSignature[] {
  if (xml !== undefined) {
    const result = verifyXmlText(xml, options.trust === undefined ? {} : { trust: options.trust });
    if ('problem' in result) return [{ input, pointer: '/bom', status: 'invalid', reason: result.problem }];
    return verdicts(result.reports, input);
  }
  const { reports } = verifyDocument(document, {
    ...(options.trust === undefined ? {} : { trust: options.trust }),
    ...(options.allowExcludes === undefined ? {} : { allowExcludes: options.allowExcludes }),
    cyclonedx: true,
  });
  return verdicts(reports, input);
}

function verdicts(reports: readonly SignerReport[], input: string): InputSignature[] {
  return reports.map((report) => {
    const status: InputSignatureStatus =
      report.verdict === 'valid' ? (report.trust === 'trusted' ? 'valid' : 'untrusted') : report.verdict;
    const reason = status === 'valid' ? undefined : status === 'untrusted' ? report.trustReason : report.reason;
    return { input, pointer: report.pointer, status, ...(reason === undefined ? {} : { reason }) };
  });
}

/** How a signature is named in messages: `input#pointer (status: reason)`. */
export function describeInputSignature(signature: InputSignature): string {
  const status = signature.status === 'valid' ? 'valid, trusted' : signature.status;
  return `${signature.input}#${signature.pointer} (${status}${signature.reason === undefined ? '' : `: ${signature.reason}`})`;
}

/**
 * The input signatures that forbid the merge, by `verify`'s policy (jsf/judge.ts gatePolicy, from the same flags):
 * an invalid one always (a tampered input is not merged); one that cannot be checked unless allowed
 * (`--allow-unverifiable`); one from a key the trust store does not hold when trust is required (`--trust` given,
 * or `--require-trusted`) unless allowed (`--allow-untrusted`). Signing the result vouches for the inputs, so it
 * requires trust too, unless `--allow-untrusted`. Unsigned inputs are merged: most BOMs are unsigned.
 */
export function refusedSignatures(
  signatures: readonly InputSignature[],
  policy: Pick<GatePolicy, 'requireTrusted' | 'allowUnverifiable'> & { signing: boolean; allowUntrusted: boolean },
): InputSignature[] {
  const trustRequired = policy.requireTrusted === true || (policy.signing && !policy.allowUntrusted);
  return signatures.filter(
    (s) =>
      s.status === 'invalid' ||
      (s.status === 'unverifiable' && (policy.allowUnverifiable !== true || trustRequired)) ||
      (s.status === 'untrusted' && trustRequired),
  );
}
