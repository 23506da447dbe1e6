/** `bomwright verify`'s reports: text for people, json for machines. Pure: verdicts in, text out. */
import type { SignerReport } from '../jsf/verify.js';
import { plural } from './report.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';

/** The verdict on one document's signatures. */
export interface VerifyFileReport {
  path: string;
  /** Why the file could not be checked at all (unreadable, duplicate keys...). */
  failure?: string;
  /** Operational (exit 2) rather than a document defect (exit 1). */
  operational?: boolean;
  signatures: SignerReport[];
  /** The verdict's findings beyond each signer's own (numbers a signature cannot pin). */
  problems?: Diagnostic[];
  ok: boolean;
}

export type VerifyFormat = 'text' | 'json';

function describeSigner(r: SignerReport): string {
  const key = `${r.keySource}${r.keyId === undefined ? '' : ` ${JSON.stringify(r.keyId)}`}`;
  const verdict =
    r.verdict === 'valid'
      ? `valid, ${r.trust}${r.trustReason ? ` (${r.trustReason})` : ''}`
      : `${r.verdict}: ${r.reason ?? ''}`;
  return `  ${r.pointer}  ${r.algorithm ?? '?'}  ${key}  ${verdict}`;
}

function formatVerifyText(reports: readonly VerifyFileReport[]): string {
  const lines: string[] = [];
  for (const v of reports) {
    lines.push(`${v.path}: ${v.ok ? 'OK' : 'FAILED'}${v.failure ? ` — ${v.failure}` : ''}`);
    lines.push(...v.signatures.map(describeSigner));
    lines.push(...(v.problems ?? []).map((d) => `  ${d.pointer}  ${d.severity}: ${d.message}  ${d.ruleId}`));
  }
  const all = reports.flatMap((v) => v.signatures);
  const valid = all.filter((r) => r.verdict === 'valid');
  const trusted = valid.filter((r) => r.trust === 'trusted').length;
  lines.push(
    `${plural(all.length, 'signature')} in ${plural(reports.length, 'document')}: ${valid.length} valid (${trusted} trusted), ${all.length - valid.length} not valid`,
  );
  return lines.join('\n') + '\n';
}

function formatVerifyJson(reports: readonly VerifyFileReport[]): string {
  return JSON.stringify({ reportVersion: 1, documents: reports }, null, 2) + '\n';
}

export function formatVerify(format: VerifyFormat, reports: readonly VerifyFileReport[]): string {
  return format === 'json' ? formatVerifyJson(reports) : formatVerifyText(reports);
}
