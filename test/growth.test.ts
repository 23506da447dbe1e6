import { describe, expect, it } from 'vitest';
import { expectLinear } from './growth.js';

describe('expectLinear', () => {
  it('passes linear work and fails quadratic work', () => {
    const linear = (n: number) => () => {
      let sum = 0;
      for (let i = 0; i < n * 1000; i++) sum += i;
      return sum;
    };
    const quadratic = (n: number) => () => {
      let sum = 0;
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) sum += i ^ j;
      return sum;
    };
    expect(() => expectLinear(linear, 20_000)).not.toThrow();
    // Retries only give noise more chances to pass quadratic work, so this side measures once, the best of five,
    // at a size where the small run takes milliseconds rather than a fraction of a scheduler slice.
    expect(() => expectLinear(quadratic, 3_000, 8, 5, 1)).toThrow(/time\(12000\) \/ time\(3000\)/);
  });
});
