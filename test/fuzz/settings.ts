/**
 * How many cases each property runs: a bounded number inside `npm test`, more with `npm run fuzz`
 * (FUZZ_RUNS=N). A failing case prints its seed and path; replay it with FUZZ_SEED and FUZZ_PATH.
 */
import fc from 'fast-check';

const runs = Number(process.env.FUZZ_RUNS ?? '') || 0;

export function fuzzRuns(inTestSuite: number): number {
  return runs > 0 ? runs : inTestSuite;
}

export function fuzzParameters(inTestSuite: number): fc.Parameters<unknown> {
  const seed = process.env.FUZZ_SEED === undefined ? {} : { seed: Number(process.env.FUZZ_SEED) };
  const path = process.env.FUZZ_PATH === undefined ? {} : { path: process.env.FUZZ_PATH };
  // A case that hangs fails its property with its seed and path, well inside the runner's own timeout. It is a
  // guard against a hang, not a speed check: growth checks (test/**/scale*.test.ts and kin) judge speed.
  return { numRuns: fuzzRuns(inTestSuite), timeout: 30_000, ...seed, ...path };
}
