/**
 * Growth checks instead of absolute times: a busy two-core CI machine can make any fixed bound flaky, but not the
 * ratio of two sizes measured in the same run. Linear work grows about 4× from N to 4N, quadratic work 16×; the
 * check allows 8×. Each size is warmed up, then timed as the best of a few tries.
 *
 * Time is this process's CPU time (user and system, every thread: the work, its garbage collection and any worker
 * thread it starts), not the wall clock: on a machine running more processes than it has cores, the wall clock
 * also counts the moments the scheduler gave the core to someone else, which is noise that no ratio cancels.
 */
import { expect } from 'vitest';

/** Milliseconds of CPU this process has used: a clock that stops while the process waits for a core. */
export function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Sizes for correctness-at-scale checks. The mutation run (vitest.mutation.config.ts) runs the covering tests once
 * per mutant, so it shrinks them; growth checks keep their sizes, since those are what catch a mutant that makes
 * an operation quadratic.
 */
export function atScale(size: number): number {
  const factor = Number(process.env.BOMWRIGHT_TEST_SCALE ?? '1');
  return Math.max(1000, Math.round(size * (Number.isFinite(factor) && factor > 0 ? factor : 1)));
}

/** Best time of `small` and of `large`, timed alternately so that a burst of load from elsewhere hits both. */
function bestOfAlternating(small: () => void, large: () => void, tries: number): [number, number] {
  let bestSmall = Infinity;
  let bestLarge = Infinity;
  for (let i = 0; i < tries; i++) {
    let started = cpuNow();
    small();
    bestSmall = Math.min(bestSmall, cpuNow() - started);
    started = cpuNow();
    large();
    bestLarge = Math.min(bestLarge, cpuNow() - started);
  }
  return [bestSmall, bestLarge];
}

/**
 * Asserts that `work(4n)` takes less than `factor` times `work(n)`. `prepare(size)` builds the input (not timed)
 * and returns the work to time. Other test files run beside this one on the same two cores, so a ratio above the
 * factor is measured again, up to `attempts` times: noise rarely repeats, while quadratic work fails every time.
 */
export function expectLinear(
  prepare: (size: number) => () => void,
  n: number,
  factor = 8,
  tries = 3,
  attempts = 5,
): void {
  const small = prepare(n);
  const large = prepare(4 * n);
  small();
  large();
  let ratio = Infinity;
  for (let attempt = 0; attempt < attempts && ratio >= factor; attempt++) {
    const [smallTime, largeTime] = bestOfAlternating(small, large, tries);
    ratio = largeTime / Math.max(smallTime, 0.05);
  }
  expect(ratio, `time(${4 * n}) / time(${n})`).toBeLessThan(factor);
}

/** {@link expectLinear} for asynchronous work (a merge validates its result, which is asynchronous). */
export async function expectLinearAsync(
  prepare: (size: number) => () => Promise<unknown>,
  n: number,
  factor = 8,
  tries = 3,
  attempts = 5,
): Promise<void> {
  const small = prepare(n);
  const large = prepare(4 * n);
  await small();
  await large();
  const time = async (work: () => Promise<unknown>) => {
    const started = cpuNow();
    await work();
    return cpuNow() - started;
  };
  let ratio = Infinity;
  for (let attempt = 0; attempt < attempts && ratio >= factor; attempt++) {
    let bestSmall = Infinity;
    let bestLarge = Infinity;
    for (let i = 0; i < tries; i++) {
      bestSmall = Math.min(bestSmall, await time(small));
      bestLarge = Math.min(bestLarge, await time(large));
    }
    ratio = bestLarge / Math.max(bestSmall, 0.05);
  }
  expect(ratio, `time(${4 * n}) / time(${n})`).toBeLessThan(factor);
}
