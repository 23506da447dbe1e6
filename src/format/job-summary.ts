/** The GitHub Action's job summary: a markdown table of every document and its verdict. */
import { plural, totals, type FileReport } from './report.js';

/** Backticks and pipes would break out of a table cell. */
function cell(text: string): string {
  return text
    .replaceAll('|', '\\|')
    .replaceAll('`', "'")
    .replace(/[\r\n]+/g, ' ');
}

export function formatJobSummary(reports: readonly FileReport[]): string {
  const t = totals(reports);
  const rows = reports.map((r) => {
    const verdict = r.failure !== undefined ? '⚠️ unreadable' : r.result?.valid ? '✅ valid' : '❌ invalid';
    return `| \`${cell(r.uri)}\` | ${r.result?.formatId ?? ''} | ${verdict} | ${r.result?.errors ?? 0} | ${r.result?.warnings ?? 0} |`;
  });
  return [
    '### bomwright',
    '',
    `${plural(t.files, 'document')}: ${plural(t.errors, 'error')}, ${plural(t.warnings, 'warning')}`,
    '',
    '| document | format | verdict | errors | warnings |',
    '|---|---|---|--:|--:|',
    ...rows,
    '',
  ].join('\n');
}
