import {
  displayPointer,
  plural,
  totals,
  visibleDiagnostics,
  warningLimitReason,
  type FileReport,
  type ReportOptions,
} from './report.js';
import { profileSummaryLines } from './profiles.js';

/** Human output, grouped by file: `file:line:col  severity  message  rule-id`, then a summary. */
export function formatText(reports: readonly FileReport[], options: ReportOptions): string {
  const lines: string[] = [];
  for (const report of reports) lines.push(...formatTextFile(report, options));
  return (lines.length === 0 ? '' : lines.join('\n') + '\n') + formatTextSummary(reports, options);
}

/** The closing summary line (empty with --quiet when all is well), then one line per profile. */
export function formatTextSummary(reports: readonly FileReport[], options: ReportOptions): string {
  const profiles = profileSummaryLines(reports);
  return totalsLine(reports, options) + (profiles.length === 0 ? '' : `${profiles.join('\n')}\n`);
}

function totalsLine(reports: readonly FileReport[], options: ReportOptions): string {
  const t = totals(reports);
  const problems = t.errors + (options.quiet ? 0 : t.warnings);
  // The warnings fail the run: say so, even with --quiet (an exit 1 without a word is a puzzle).
  const limit = warningLimitReason(t, options);
  const reason = limit === undefined ? '' : `: ${limit}`;
  if (problems === 0 && t.failures === 0) {
    if (options.quiet) return limit === undefined ? '' : `${limit}\n`;
    return `${plural(t.files, 'document')} valid${t.warnings ? `, ${plural(t.warnings, 'warning')}` : ''}\n`;
  }
  const parts = [plural(t.errors, 'error')];
  if (!options.quiet) parts.push(plural(t.warnings, 'warning'));
  if (t.failures) parts.push(`${plural(t.failures, 'input')} unreadable`);
  return `${parts.join(', ')} in ${t.files} ${t.files === 1 ? 'document' : 'documents'} (${t.invalidFiles} invalid)${reason}\n`;
}

/** One file's block (empty when the file has nothing to show), so results can stream as files finish. */
export function formatTextFile(report: FileReport, options: ReportOptions): string[] {
  const lines: string[] = [];
  if (report.failure !== undefined) {
    lines.push(`${report.path}: ${report.failure}`, '');
    return lines;
  }
  const diagnostics = visibleDiagnostics(report, options);
  if (diagnostics.length === 0) return lines;
  lines.push(report.path + (report.result?.formatId ? `  (${report.result.formatId})` : ''));
  for (const d of diagnostics) {
    const where = `${report.path}:${d.line ?? 1}:${d.column ?? 1}`;
    const at = d.pointer === '' ? '' : ` at ${displayPointer(d.pointer)}`;
    lines.push(`  ${where}  ${d.severity}  ${d.message}${at}  ${d.ruleId}`);
  }
  lines.push('');
  return lines;
}
