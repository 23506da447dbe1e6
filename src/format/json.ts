import { documentVerdicts, profileIdentities } from './profiles.js';
import { totals, visibleDiagnostics, warningLimitReason, type FileReport, type ReportOptions } from './report.js';

/** Machine-readable output; the shape is versioned by `reportVersion`. */
export function formatJson(reports: readonly FileReport[], options: ReportOptions): string {
  const t = totals(reports);
  const profiles = profileIdentities(reports, options.profiles);
  const out = {
    reportVersion: 1,
    tool: { name: 'bomwright', version: options.toolVersion },
    // A shard's report says which share of which run it is (merge-reports drops it again).
    ...(options.shard === undefined ? {} : { shard: { ...options.shard } }),
    summary: {
      documents: t.files,
      errors: t.errors,
      warnings: t.warnings,
      invalid: t.invalidFiles,
      unreadable: t.failures,
    },
    // --max-warnings and, when the warnings exceed it, the reason the run fails. Not in a shard's report: the
    // limit is for the whole run, and merge-reports judges the merged one.
    ...(options.maxWarnings === undefined || options.shard !== undefined
      ? {}
      : { maxWarnings: maxWarningsVerdict(options.maxWarnings, warningLimitReason(t, options)) }),
    // The profiles checked, each with the digest of its rules as applied (the same in every shard of a run).
    ...(profiles.length === 0 ? {} : { profiles }),
    documents: reports.map((report) => ({
      path: report.uri,
      ...(report.result?.formatId ? { format: report.result.formatId } : {}),
      valid: report.failure === undefined && (report.result?.valid ?? false),
      errors: report.result?.errors ?? 0,
      warnings: report.result?.warnings ?? 0,
      ...(report.failure !== undefined ? { failure: report.failure } : {}),
      // Each profile's verdict on this document.
      ...(profiles.length === 0 || report.result === undefined ? {} : { profiles: documentVerdicts(report) }),
      diagnostics: visibleDiagnostics(report, options),
    })),
  };
  return JSON.stringify(out, null, 2) + '\n';
}

function maxWarningsVerdict(limit: number, reason: string | undefined) {
  return { limit, exceeded: reason !== undefined, ...(reason === undefined ? {} : { reason }) };
}
