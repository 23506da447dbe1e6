import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { ValidationResult } from '../validate/index.js';

/** What every formatter receives: one entry per input, in a deterministic order. */
export interface FileReport {
  /** Path as shown to people (relative to the working directory), `<stdin>` for standard input. */
  path: string;
  /** Path relative to the repository root with forward slashes, for SARIF and GitHub annotations. */
  uri: string;
  result?: ValidationResult;
  /** An operational failure for this input (unreadable file...), one line with its code. */
  failure?: string;
}

export interface ReportOptions {
  /** Only errors: drop warnings from the output (they still count for --max-warnings). */
  quiet?: boolean;
  toolVersion: string;
}

export interface Totals {
  files: number;
  errors: number;
  warnings: number;
  invalidFiles: number;
  failures: number;
}

export function totals(reports: readonly FileReport[]): Totals {
  const t: Totals = { files: reports.length, errors: 0, warnings: 0, invalidFiles: 0, failures: 0 };
  for (const r of reports) {
    if (r.failure !== undefined) t.failures++;
    if (r.result) {
      t.errors += r.result.errors;
      t.warnings += r.result.warnings;
      if (!r.result.valid) t.invalidFiles++;
    }
  }
  return t;
}

export function visibleDiagnostics(report: FileReport, options: ReportOptions): Diagnostic[] {
  const all = report.result?.diagnostics ?? [];
  return options.quiet ? all.filter((d) => d.severity === 'error') : all;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Pointers for people: a hostile document can nest 500 levels, so long ones keep their start and end. */
export function displayPointer(pointer: string): string {
  return pointer.length <= 120 ? pointer : `${pointer.slice(0, 60)}…${pointer.slice(-50)}`;
}
