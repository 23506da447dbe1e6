/** The GitHub Action's job summary: a markdown table of every document and its verdict. */
import { plural, totals, type FileReport } from './report.js';
import { profileSummaries } from './profiles.js';

/** Backticks and pipes would break out of a table cell. */
function cell(text: string): string {
  return text
    .replaceAll('|', '\\|')
    .replaceAll('`', "'")
    .replace(/[\r\n]+/g, ' ');
}

/** Where the html report is: its file name, and the run's artifacts page (where an upload step puts it). */
interface HtmlReportLink {
  file: string;
  artifactsUrl?: string;
}

/** The address of a run's artifacts, from the runner's variables; undefined outside a workflow run. */
export function artifactsUrl(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: run } = env;
  if (!server || !repository || !run) return undefined;
  return `${server}/${repository}/actions/runs/${encodeURIComponent(run)}#artifacts`;
}

/** A document's findings on lines a pull request did not change: not annotated, so said elsewhere. */
export interface Unannotated {
  uri: string;
  errors: number;
  warnings: number;
  /** The lines, ascending, without repeats. */
  lines: readonly number[];
}

/** At most this many line numbers per document; the rest are counted. */
const SHOWN_LINES = 10;

function counted(errors: number, warnings: number): string {
  return [errors > 0 ? plural(errors, 'error') : '', warnings > 0 ? plural(warnings, 'warning') : '']
    .filter(Boolean)
    .join(' and ');
}

function lineList(lines: readonly number[]): string {
  const shown = lines.slice(0, SHOWN_LINES).map(String);
  const rest = lines.length - shown.length;
  if (rest > 0) shown.push(`${rest} more`);
  const text = shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)!}`;
  return `${lines.length === 1 ? 'line' : 'lines'} ${text}`;
}

/**
 * What the annotations leave out on a pull request: one headline (undefined when nothing was left out), then a
 * line per document with its counts and lines. `reports` names where the findings are.
 */
export function unannotatedNote(
  documents: readonly Unannotated[],
  reports: string,
): { headline: string; documents: string[] } | undefined {
  const errors = documents.reduce((sum, d) => sum + d.errors, 0);
  const warnings = documents.reduce((sum, d) => sum + d.warnings, 0);
  if (errors + warnings === 0) return undefined;
  const verb = errors + warnings === 1 ? 'is' : 'are';
  return {
    headline: `${counted(errors, warnings)} on unchanged lines ${verb} not annotated: see ${reports}`,
    documents: documents
      .filter((d) => d.errors + d.warnings > 0)
      .map((d) => `${d.uri}: ${counted(d.errors, d.warnings)}, ${lineList(d.lines)}`),
  };
}

/** One row per profile: how many requirements are unmet, over how many components, and how many documents pass. */
function profileTable(reports: readonly FileReport[]): string[] {
  const summaries = profileSummaries(reports);
  if (summaries.length === 0) return [];
  return [
    '| profile | unmet requirements | components | documents passing |',
    '|---|--:|--:|--:|',
    ...summaries.map(
      (s) =>
        `| ${s.passed === s.documents ? '✅' : '❌'} \`${cell(s.name)}\` ${cell(s.title)} | ${s.unmet} of ${s.requirements} | ${s.components} | ${s.passed} of ${s.documents} |`,
    ),
    '',
  ];
}

export function formatJobSummary(
  reports: readonly FileReport[],
  html?: HtmlReportLink,
  unannotated: readonly Unannotated[] = [],
): string {
  const t = totals(reports);
  const note = unannotatedNote(unannotated, 'the SARIF or html report');
  const rows = reports.map((r) => {
    const verdict = r.failure !== undefined ? '⚠️ unreadable' : r.result?.valid ? '✅ valid' : '❌ invalid';
    return `| \`${cell(r.uri)}\` | ${r.result?.formatId ?? ''} | ${verdict} | ${r.result?.errors ?? 0} | ${r.result?.warnings ?? 0} |`;
  });
  return [
    '### bomwright',
    '',
    `${plural(t.files, 'document')}: ${plural(t.errors, 'error')}, ${plural(t.warnings, 'warning')}`,
    '',
    ...(note === undefined
      ? []
      : [
          `${note.headline[0]!.toUpperCase()}${note.headline.slice(1)}.`,
          '',
          ...note.documents.map((d) => `- ${cell(d)}`),
          '',
        ]),
    '| document | format | verdict | errors | warnings |',
    '|---|---|---|--:|--:|',
    ...rows,
    '',
    ...profileTable(reports),
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
