import type { RuleId, Severity } from './rules.js';

export type { Severity };

/** A requirement of a compliance profile or policy: `profile/<profile name>/<requirement id>`. */
type ProfileRuleId = `profile/${string}/${string}`;

/** One finding about one place in one document. */
export interface Diagnostic {
  /** Stable rule id, e.g. `json/duplicate-key`, or a profile's requirement, `profile/bsi-2.1/component.name`. */
  ruleId: RuleId | ProfileRuleId;
  severity: Severity;
  /** One line, no trailing period. */
  message: string;
  /** RFC 6901 JSON pointer to the offending value; `''` is the whole document. */
  pointer: string;
  /** 1-based line and column of the value (or member name) in the source text, when known. */
  line?: number;
  column?: number;
  /** The offending value as compact JSON, truncated. */
  value?: string;
  /**
   * Findings of the same rule in the same document that are not listed one by one (a profile lists at most 100
   * per requirement), carried by the last one listed. Every count (totals, --max-warnings, exit codes) adds them.
   */
  unlisted?: number;
}

/** How many findings a diagnostic stands for: itself and those it says are not listed. */
export function findingCount(diagnostic: Diagnostic): number {
  return 1 + (diagnostic.unlisted ?? 0);
}

export function countBySeverity(diagnostics: readonly Diagnostic[]): { errors: number; warnings: number } {
  let errors = 0;
  let warnings = 0;
  for (const d of diagnostics) {
    if (d.severity === 'error') errors += findingCount(d);
    else warnings += findingCount(d);
  }
  return { errors, warnings };
}
