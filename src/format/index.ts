import { formatGithub } from './github.js';
import { formatJson } from './json.js';
import { formatHtml } from './html.js';
import { formatJunit } from './junit.js';
import type { FileReport, ReportOptions } from './report.js';
import { formatSarif } from './sarif.js';
import { formatText } from './text.js';

export const OUTPUT_FORMATS = ['text', 'json', 'sarif', 'junit', 'github', 'html'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function formatReports(format: OutputFormat, reports: readonly FileReport[], options: ReportOptions): string {
  switch (format) {
    case 'text':
      return formatText(reports, options);
    case 'json':
      return formatJson(reports, options);
    case 'sarif':
      return formatSarif(reports, options);
    case 'junit':
      return formatJunit(reports, options);
    case 'github':
      return formatGithub(reports, options);
    case 'html':
      return formatHtml(reports, options);
  }
}

export type { FileReport, ReportOptions, ShardStamp } from './report.js';
export { totals } from './report.js';
