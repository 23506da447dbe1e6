import { describe, expect, it } from 'vitest';
import { componentVersion, passphraseFrom, restoreStdin, STDIN_TOKEN } from '../../src/cli/options.js';
import { parseSize } from '../../src/cli/size.js';
import { expectErrorCode } from '../helpers.js';

const KIB = 1024;
const MIB = 1024 ** 2;
const GIB = 1024 ** 3;

function badSize(text: string): string {
  return `Invalid size ${JSON.stringify(text)}; use bytes or a K/M/G suffix, e.g. 512M`;
}

describe('parseSize', () => {
  it('reads a plain byte count, 1 being the smallest accepted', () => {
    expect(parseSize('1')).toBe(1);
    expect(parseSize('1048576')).toBe(1048576);
    expect(parseSize('10')).toBe(10);
  });

  it('refuses sizes below one byte with E_USAGE and says why', () => {
    for (const text of ['0', '0.5', '0.99', '0b', '0k', '0.0001k']) {
      const error = expectErrorCode(() => parseSize(text), 'E_USAGE');
      expect(error.message).toBe(`Invalid size ${JSON.stringify(text)}; it must be at least 1 byte`);
    }
  });

  it('reads every unit as a binary multiple, in any case', () => {
    const cases: [string, number][] = [
      ['b', 1],
      ['k', KIB],
      ['kb', KIB],
      ['kib', KIB],
      ['m', MIB],
      ['mb', MIB],
      ['mib', MIB],
      ['g', GIB],
      ['gb', GIB],
      ['gib', GIB],
    ];
    for (const [unit, factor] of cases) {
      expect(parseSize(`3${unit}`)).toBe(3 * factor);
      expect(parseSize(`3${unit.toUpperCase()}`)).toBe(3 * factor);
    }
    expect(parseSize('2KiB')).toBe(2 * KIB);
    expect(parseSize('512M')).toBe(512 * MIB);
    expect(parseSize('1g')).toBe(GIB);
  });

  it('multiplies fractions by the unit and rounds down to whole bytes', () => {
    expect(parseSize('1.5k')).toBe(1536);
    expect(parseSize('1.1k')).toBe(1126); // 1126.4
    expect(parseSize('0.5m')).toBe(MIB / 2);
    expect(parseSize('2.75')).toBe(2);
    expect(parseSize('1.999')).toBe(1);
    expect(parseSize('12.25g')).toBe(12.25 * GIB);
  });

  it('allows spaces around the number and before the unit', () => {
    expect(parseSize(' 512M')).toBe(512 * MIB);
    expect(parseSize('512M ')).toBe(512 * MIB);
    expect(parseSize('512 M')).toBe(512 * MIB);
    expect(parseSize('  512   mb  ')).toBe(512 * MIB);
    expect(parseSize('\t7\n')).toBe(7);
  });

  it('refuses malformed sizes and unknown units with E_USAGE and an example', () => {
    for (const text of [
      '',
      ' ',
      'M',
      'k1',
      '-1',
      '+1',
      '1.',
      '.5',
      '1..5',
      '1,5',
      '1 0',
      '1e3',
      '1t',
      '1kk',
      '1 k b',
      '1ki',
      '1mbb',
      'x1',
      '1x',
      '1k!',
      '1_000',
    ]) {
      const error = expectErrorCode(() => parseSize(text), 'E_USAGE');
      expect(error.message).toBe(badSize(text));
    }
  });
});

describe('restoreStdin', () => {
  it('turns the stdin token back into "-" and leaves other operands and the input unchanged', () => {
    expect(STDIN_TOKEN).toBe('\u0000-');
    const operands = ['a.json', '\u0000-', '-', '', '\u0000', 'x\u0000-'];
    const copy = [...operands];
    expect(restoreStdin(operands)).toEqual(['a.json', '-', '-', '', '\u0000', 'x\u0000-']);
    expect(operands).toEqual(copy);
    expect(restoreStdin([])).toEqual([]);
  });
});

describe('passphraseFrom', () => {
  it('is undefined when no variable is named, whatever the environment holds', () => {
    expect(passphraseFrom(undefined, { undefined: 'x' })).toBeUndefined();
  });

  it('returns the named variable, an empty value included', () => {
    expect(passphraseFrom('KEY_PASS', { KEY_PASS: 's3cret', OTHER: 'no' })).toBe('s3cret');
    expect(passphraseFrom('KEY_PASS', { KEY_PASS: '' })).toBe('');
  });

  it('refuses a named variable that is not set with E_USAGE naming it', () => {
    const error = expectErrorCode(() => passphraseFrom('KEY_PASS', { OTHER: 'x' }), 'E_USAGE');
    expect(error.message).toBe('Environment variable KEY_PASS is not set');
  });
});

describe('componentVersion', () => {
  it('takes either spelling, or neither', () => {
    expect(componentVersion({})).toBeUndefined();
    expect(componentVersion({ componentVersion: undefined, version: undefined })).toBeUndefined();
    expect(componentVersion({ componentVersion: '1.2.3' })).toBe('1.2.3');
    expect(componentVersion({ version: '4.5' })).toBe('4.5');
    expect(componentVersion({ componentVersion: '', version: undefined })).toBe('');
  });

  it('accepts both spellings when they agree', () => {
    expect(componentVersion({ componentVersion: '2.0', version: '2.0' })).toBe('2.0');
  });

  it('refuses both spellings with different values, naming each', () => {
    const error = expectErrorCode(() => componentVersion({ componentVersion: '1.0', version: '2.0' }), 'E_USAGE');
    expect(error.message).toBe('--version 2.0 and --component-version 1.0 disagree; give one');
    const empty = expectErrorCode(() => componentVersion({ componentVersion: '', version: '2.0' }), 'E_USAGE');
    expect(empty.message).toBe('--version 2.0 and --component-version  disagree; give one');
  });

  it('refuses an empty --version, even beside --component-version', () => {
    const message = '--version needs a value here: the component version (or use --component-version)';
    expect(expectErrorCode(() => componentVersion({ version: '' }), 'E_USAGE').message).toBe(message);
    expect(expectErrorCode(() => componentVersion({ componentVersion: '1.0', version: '' }), 'E_USAGE').message).toBe(
      message,
    );
    expect(expectErrorCode(() => componentVersion({ componentVersion: '', version: '' }), 'E_USAGE').message).toBe(
      message,
    );
  });
});
