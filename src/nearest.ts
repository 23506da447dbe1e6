/**
 * The names a user probably meant: the one nearest-name function behind every "did you mean" (commands,
 * options, choices, rule ids, service operations, SPDX licence ids).
 */

/** Longer input is cut before measuring: the table is quadratic in the lengths. */
const MAX_LENGTH = 64;

/**
 * Damerau-Levenshtein distance (optimal string alignment): insertions, deletions, substitutions and swaps of two
 * neighbours each count one (`valdate` → `validate` is 1, `Apache-20.` → `Apache-2.0` is 1).
 */
export function editDistance(a: string, b: string): number {
  const x = a.slice(0, MAX_LENGTH);
  const y = b.slice(0, MAX_LENGTH);
  const rows: number[][] = [Array.from({ length: y.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      row.push(best);
    }
    rows.push(row);
  }
  return rows[x.length]![y.length]!;
}

interface NearestOptions {
  /** How a name is compared: e.g. lower case without punctuation for SPDX ids. Default: lower case. */
  key?: (name: string) => string;
  /** At most this many names (default 3). */
  limit?: number;
  /** The most edits for a name of this length (default: a third of it, at least 1, at most 4). */
  maxEdits?: (length: number) => number;
  /** Whether a prefix either way is near (default true). */
  prefixes?: boolean;
}

const lower = (name: string) => name.toLowerCase();

/**
 * The candidates nearest to `typed` (those with the fewest edits, in candidate order) among those within a third of the
 * longer name's length (at least 1, at most 4 edits), or whose key starts with what was typed, or that it starts
 * with (`get-chart-point-at` → `get-chart-point`), when that part is at least 3 characters long (`--algorithm` → `--alg`). Exact key
 * matches come first with 0 edits (`apache-2.0` → `Apache-2.0`).
 */
export function nearestNames(typed: string, candidates: Iterable<string>, options: NearestOptions = {}): string[] {
  const key = options.key ?? lower;
  const wanted = key(typed.trim());
  if (wanted === '') return [];
  const scored: { name: string; edits: number }[] = [];
  const seen = new Set<string>();
  for (const name of candidates) {
    if (seen.has(name)) continue;
    seen.add(name);
    const own = key(name);
    if (own === '') continue;
    const edits = editDistance(wanted, own);
    const longer = Math.max(wanted.length, own.length);
    const limit = options.maxEdits?.(longer) ?? Math.min(4, Math.max(1, Math.floor(longer / 3)));
    const shorter = Math.min(wanted.length, own.length);
    const prefix = options.prefixes !== false && shorter >= 3 && (own.startsWith(wanted) || wanted.startsWith(own));
    if (edits <= limit || prefix) scored.push({ name, edits });
  }
  // Only the nearest: `Apache2` suggests Apache-2.0 (1 edit), not also Apache-1.0 (2 edits).
  const best = Math.min(...scored.map((s) => s.edits));
  return scored
    .filter((s) => s.edits === best)
    .sort((a, b) => a.edits - b.edits)
    .slice(0, options.limit ?? 3)
    .map((s) => s.name);
}

/** ` (did you mean a, b or c?)`, or nothing when no name is near. */
export function didYouMean(names: readonly string[], quote = (name: string) => name): string {
  if (names.length === 0) return '';
  const shown = names.map(quote);
  const list = shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)!}`;
  return ` (did you mean ${list}?)`;
}
