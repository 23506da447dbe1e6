/**
 * Growth checks instead of absolute times: a busy two-core CI machine can make any fixed bound flaky, but not the
 * ratio of two sizes measured in the same run. Linear work grows about 4× from N to 4N, quadratic work 16×; the
 * check allows 8×. Each size is warmed up, then timed as the best of a few tries.
 */
import { expect } from 'vitest';

function bestOf(run: () => void, tries: number): number {
  let best = Infinity;
  for (let i = 0; i < tries; i++) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/**
 * Asserts that `work(4n)` takes less than `factor` times `work(n)`. `prepare(size)` builds the input (not timed)
 * and returns the work to time.
 */
export function expectLinear(prepare: (size: number) => () => void, n: number, factor = 8, tries = 3): void {
  const small = prepare(n);
  const large = prepare(4 * n);
  small();
  large();
  const ratio = bestOf(large, tries) / Math.max(bestOf(small, tries), 0.05);
  expect(ratio, `time(${4 * n}) / time(${n})`).toBeLessThan(factor);
}
