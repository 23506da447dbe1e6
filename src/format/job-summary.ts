/** The GitHub Action's job summary: a markdown table of every document and its verdict. */
import { plural, totals, type FileReport } from './report.js';

/** Backticks and pipes would break out of a table cell. */
function cell(text: string): string {
  return text
    .replaceAll('|', '\\|')
    .replaceAll('`', "'")
    .replace(/[\r\n]+/g, ' ');
}

/** Where the html report is: its file name, and the run's artifacts page (where an upload step puts it). */
export interface HtmlReportLink {
  file: string;
  artifactsUrl?: string;
}

/** The address of a run's artifacts, from the runner's variables; undefined outside a workflow run. */
export function artifactsUrl(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: run } = env;
  if (!server || !repository || !run) return undefined;
  return `${server}/${repository}/actions/runs/${encodeURIComponent(run)}#artifacts`;
}

export function formatJobSummary(reports: readonly FileReport[], html?: HtmlReportLink): string {
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
    ...(html === undefined
      ? []
      : [
          `The full report, with each document's findings, signatures, version rule and dependency graph, is \`${cell(html.file)}\`` +
            (html.artifactsUrl === undefined
              ? '.'
              : ` among [this run's artifacts](${html.artifactsUrl.replaceAll(')', '%29')}) once uploaded.`),
          '',
        ]),
  ].join('\n');
}
