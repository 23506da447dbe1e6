/**
 * The one verdict on a document's signatures, shared by `validate`, `verify`, the library and the Action so they
 * can never disagree: signer reports (from verification) and the signed data become diagnostics under one
 * policy. A gate fails closed: a signature that cannot be checked is an error unless the caller relaxes that.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { BomwrightError } from '../errors.js';
import { parsePointer, toPointer } from '../json/pointer.js';
import { checkDepth } from '../json/walk.js';
import { findPlaces } from '../formats/signable.js';
import type { SignerReport } from './verify.js';

interface TrustPolicy {
  /** Valid signatures from keys that are not trusted are errors (else warnings). */
  requireTrusted?: boolean;
  /** Signatures that cannot be checked (no key for their keyId) are warnings (else errors). */
  allowUnverifiable?: boolean;
}

/** What a gate (`bomwright verify`) was asked; each flag undefined when not given. */
interface GateFlags {
  /** Keys or roots were given (`--trust`, `--trust-root`). */
  trustGiven: boolean;
  requireSignature?: boolean;
  allowUnsigned?: boolean;
  requireTrusted?: boolean;
  allowUntrusted?: boolean;
  allowUnverifiable?: boolean;
}

export interface GatePolicy extends TrustPolicy {
  /** A document without any signature fails. */
  requireSignature: boolean;
}

/**
 * A gate fails when nothing it trusts signed: no signature fails, and once keys are given, a valid signature from a
 * key they do not hold fails too (cosign and sigstore do the same). `--allow-unsigned` and `--allow-untrusted`
 * relax either; asking for both a requirement and its relaxation is a usage error rather than a silent choice.
 */
export function gatePolicy(flags: GateFlags): GatePolicy {
  if (flags.allowUnsigned === true && flags.requireSignature === true)
    throw new BomwrightError('E_USAGE', '--allow-unsigned contradicts --require-signature: give one of them');
  if (flags.allowUntrusted === true && flags.requireTrusted === true)
    throw new BomwrightError('E_USAGE', '--allow-untrusted contradicts --require-trusted: give one of them');
  return {
    requireSignature: flags.allowUnsigned !== true && flags.requireSignature !== false,
    requireTrusted:
      flags.requireTrusted === true ||
      (flags.trustGiven && flags.allowUntrusted !== true && flags.requireTrusted !== false),
    allowUnverifiable: flags.allowUnverifiable === true,
  };
}

/**
 * A gate's verdict on one document: its signatures' findings under the policy, and a missing signature. The
 * failure names the flag that would accept what failed, so a reader of the log knows it was the policy.
 */
export function gateVerdict(
  signatures: number,
  findings: readonly Diagnostic[],
  policy: GatePolicy,
): { ok: boolean; failure?: string } {
  if (policy.requireSignature && signatures === 0)
    return { ok: false, failure: 'the document has no signature (--allow-unsigned accepts unsigned documents)' };
  const errors = findings.filter((d) => d.severity === 'error');
  if (errors.length === 0) return { ok: true };
  if (errors.every((d) => d.ruleId === 'signature/untrusted'))
    return {
      ok: false,
      failure:
        "no trusted key signed it: pin the signer's key with --trust (or its root with --trust-root), or accept untrusted signatures with --allow-untrusted",
    };
  return { ok: false };
}

function describeSigner(report: SignerReport): string {
  return `${report.algorithm ?? 'signature'} (${report.keySource}${report.keyId === undefined ? '' : ` ${JSON.stringify(report.keyId)}`})`;
}

/** Each signer's verdict under the policy, as diagnostics at its signature. */
export function judgeSignatures(reports: readonly SignerReport[], policy: TrustPolicy = {}): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const report of reports) {
    const what = describeSigner(report);
    if (report.verdict === 'invalid') {
      diagnostics.push({
        ruleId: 'signature/invalid',
        severity: 'error',
        message: `Invalid ${what}: ${report.reason ?? 'it does not verify'}`,
        pointer: report.pointer,
      });
    } else if (report.verdict === 'unverifiable') {
      diagnostics.push({
        ruleId: 'signature/unverifiable',
        severity: policy.allowUnverifiable === true && policy.requireTrusted !== true ? 'warning' : 'error',
        message: `Cannot verify ${what}: ${report.reason ?? 'no key'}`,
        pointer: report.pointer,
      });
    } else if (report.trust === 'untrusted') {
      diagnostics.push({
        ruleId: 'signature/untrusted',
        severity: policy.requireTrusted === true ? 'error' : 'warning',
        message: `Valid but untrusted ${what}: ${report.trustReason ?? 'key not trusted'}`,
        pointer: report.pointer,
      });
    }
  }
  return diagnostics;
}

/**
 * Signatures of a BOM where its format allows none (`/metadata/signature`, anywhere in 1.2 or 1.3): a valid
 * signature there vouches for nothing the format defines.
 */
export function misplacedSignatures(
  document: Record<string, unknown>,
  holders: readonly { pointer: string }[],
  signable: readonly string[],
  property = 'signature',
): Diagnostic[] {
  if (holders.length === 0) return [];
  // Only the places holders could be at are walked for (a 100,000-component BOM has as many places).
  const allowed = new Set(findPlaces(document, signable));
  return holders
    .filter(({ pointer }) => !allowed.has(pointer))
    .map(({ pointer }) => ({
      ruleId: 'signature/misplaced' as const,
      severity: 'error' as const,
      message:
        signable.length === 0
          ? 'A signature in a format without signatures (JSF signatures start with CycloneDX 1.4)'
          : `A signature where the format allows none`,
      pointer: `${pointer}/${property}`,
    }));
}

const LARGEST_EXACT = 2 ** 53;

/**
 * Numbers inside signed objects that a double cannot hold exactly (|n| ≥ 2^53): `9007199254740992`,
 * `…993` and `…992.4` parse to the same value, so a signature over one verifies for all of them. Each signed
 * object is searched once (objects inside a signed object are covered by its walk); signatures themselves are
 * not searched.
 */
export function unsafeSignedNumbers(
  signed: readonly { record: Record<string, unknown>; pointer: string }[],
  property = 'signature',
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const signedPointers = new Set(signed.map((s) => s.pointer));
  // Inside another signed object: its walk covers this one. Ancestors are found by cutting the pointer at each
  // "/", so this stays linear in the number of signed objects.
  const covered = (pointer: string): boolean => {
    if (pointer === '') return false;
    if (signedPointers.has('')) return true;
    for (let at = pointer.lastIndexOf('/'); at > 0; at = pointer.lastIndexOf('/', at - 1)) {
      if (signedPointers.has(pointer.slice(0, at))) return true;
    }
    return false;
  };
  // One shared path; a pointer is built only for what is reported.
  const path: (string | number)[] = [];
  const walk = (value: unknown, depth: number): void => {
    if (typeof value === 'number') {
      if (Math.abs(value) >= LARGEST_EXACT)
        diagnostics.push({
          ruleId: 'signature/unsafe-number',
          severity: 'error',
          message: `A number beyond 2^53 (read as ${value}): other numbers read the same, so the signature does not pin it`,
          pointer: toPointer(path),
        });
      return;
    }
    if (value === null || typeof value !== 'object') return;
    checkDepth(depth);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        walk(value[i], depth + 1);
        path.pop();
      }
      return;
    }
    for (const key of Object.keys(value)) {
      if (key === property) continue;
      path.push(key);
      walk((value as Record<string, unknown>)[key], depth + 1);
      path.pop();
    }
  };
  for (const { record, pointer } of signed) {
    if (covered(pointer)) continue;
    path.length = 0;
    path.push(...parsePointer(pointer));
    walk(record, 0);
  }
  return diagnostics;
}
