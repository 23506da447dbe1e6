/**
 * The inputs' signatures, verified before the merge drops them (a merged BOM is a new document: no input signature
 * can hold for it). A merge that is signed afterwards vouches for its inputs, so an input whose signature is
 * invalid must not be merged silently, and one signed by a key nobody trusts must not be re-signed as trusted.
 */
import type { TrustStore } from '../jsf/trust.js';
import { verifyDocument } from '../jsf/verify.js';

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

/** Every signature of one input, with its verdict; none when the input is unsigned. */
export function inputSignatures(document: unknown, input: string, options: SignatureCheckOptions): InputSignature[] {
  const { reports } = verifyDocument(document, {
    ...(options.trust === undefined ? {} : { trust: options.trust }),
    ...(options.allowExcludes === undefined ? {} : { allowExcludes: options.allowExcludes }),
    cyclonedx: true,
  });
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
 * The input signatures that forbid the merge: invalid ones always (a tampered input is not merged); when the result
 * is to be signed, also those not verified with a trusted key, unless the caller allows them (as verify does).
 */
export function refusedSignatures(
  signatures: readonly InputSignature[],
  options: { signing: boolean; allowUntrusted: boolean },
): InputSignature[] {
  return signatures.filter(
    (s) => s.status === 'invalid' || (options.signing && !options.allowUntrusted && s.status !== 'valid'),
  );
}
