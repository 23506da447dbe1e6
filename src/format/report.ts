import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { ValidationResult } from '../validate/index.js';
import type { Profile } from '../validate/profiles/model.js';

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
  /** The share of a sharded run this report covers; json, sarif and junit record it for merge-reports. */
  shard?: ShardStamp;
  /** --max-warnings: the reports say when the warnings exceed it, the reason the run fails. */
  maxWarnings?: number;
  /** The profiles the run checked (--profile): SARIF lists their requirements as rules. */
  profiles?: readonly Profile[];
}

/**
 * Which share of which run a report covers: shard `index` of `count` (1-based), and `settings`, a digest of
 * everything that shapes the report (operands, options, bomwright's version), so that merge-reports can refuse
 * shards of different runs.
 */
/** The most shards a run may have (a CI matrix has at most a few hundred jobs); stamps beyond it are not ours. */
export const MAX_SHARDS = 999_999;

export interface ShardStamp {
  index: number;
  count: number;
  settings: string;
}

/**
 * The order of documents in every report: by `uri`, UTF-16 code unit by code unit (JavaScript's `<`). One
 * comparator for validateFiles and merge-reports, so a merged report is in the order a single run writes.
 */
export function compareUri(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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

/** Why a run with no errors fails: `2 warnings exceed --max-warnings 1`; undefined when they do not. */
export function warningLimitReason(t: Totals, options: ReportOptions): string | undefined {
  if (options.maxWarnings === undefined || t.warnings <= options.maxWarnings) return undefined;
  return `${plural(t.warnings, 'warning')} ${t.warnings === 1 ? 'exceeds' : 'exceed'} --max-warnings ${options.maxWarnings}`;
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
