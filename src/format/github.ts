import {
  displayPointer,
  plural,
  totals,
  visibleDiagnostics,
  warningLimitReason,
  type FileReport,
  type ReportOptions,
} from './report.js';

/** GitHub Actions workflow commands: each diagnostic becomes an annotation on its file and line. */
export function formatGithub(reports: readonly FileReport[], options: ReportOptions): string {
  const lines: string[] = [];
  for (const report of reports) lines.push(...formatGithubFile(report, options));
  return (lines.length === 0 ? '' : lines.join('\n') + '\n') + formatGithubSummary(reports, options);
}

export function formatGithubSummary(reports: readonly FileReport[], options?: ReportOptions): string {
  const t = totals(reports);
  const limit = options === undefined ? undefined : warningLimitReason(t, options);
  // The reason the job fails, as an error annotation on the run.
  const reason = limit === undefined ? '' : `::error title=bomwright::${escapeData(limit)}\n`;
  return `${reason}bomwright: ${plural(t.errors, 'error')}, ${plural(t.warnings, 'warning')} in ${plural(t.files, 'document')}\n`;
}

export function formatGithubFile(report: FileReport, options: ReportOptions): string[] {
  const file = escapeProperty(report.uri);
  if (report.failure !== undefined) return [`::error file=${file},title=bomwright::${escapeData(report.failure)}`];
  return visibleDiagnostics(report, options).map((d) => {
    const command = d.severity === 'error' ? 'error' : 'warning';
    const position = d.line === undefined ? '' : `,line=${d.line},col=${d.column ?? 1}`;
    const at = d.pointer === '' ? '' : ` at ${displayPointer(d.pointer)}`;
    return `::${command} file=${file}${position},title=${escapeProperty(d.ruleId)}::${escapeData(d.message + at)}`;
  });
}

function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}
