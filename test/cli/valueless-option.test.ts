/**
 * An option that takes a value, given none (src/cli/usage.ts valuelessOption): yargs would read it as "" and apply
 * the default, so `--max-warnings` with no number would let every warning through.
 */
import { describe, expect, it } from 'vitest';
import { valuelessOption, type OptionTypes } from '../../src/cli/usage.js';

const TYPES: OptionTypes = {
  string: ['output', 'maxPageSize'],
  number: ['max-warnings'],
  array: ['trust'],
  choices: { format: ['text', 'json'] },
  alias: { output: ['o'], format: ['f'] },
};

describe('valuelessOption', () => {
  it.each([
    [['a.json', '--output'], '--output needs a value'],
    [['a.json', '-o'], '-o needs a value'],
    [['--max-warnings', '--strict', 'a.json'], '--max-warnings needs a value'],
    [['a.json', '--trust', '-o', 'x'], '--trust needs a value'],
    [['a.json', '-f'], '-f needs a value, one of text, json'],
    [['a.json', '--format'], '--format needs a value, one of text, json'],
    [['a.json', '--max-page-size'], '--max-page-size needs a value'],
  ])('%j: %s', (argv, line) => {
    expect(valuelessOption(argv, TYPES)).toBe(line);
  });

  it.each([
    [['a.json', '--output', 'x']],
    [['--output', '-']],
    [['--max-warnings', '-1']],
    [['--max-warnings', '-.5']],
    [['--output=']],
    [['a.json', '--quiet']],
    [['a.json', '-q']],
    [['--', '--output']],
    [['-1']],
    [[]],
  ])('%j: a value, a flag or an operand', (argv) => {
    expect(valuelessOption(argv, TYPES)).toBeUndefined();
  });
});
