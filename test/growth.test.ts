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
    expect(() => expectLinear(quadratic, 1_500)).toThrow(/time\(6000\) \/ time\(1500\)/);
  });
});
