/**
 * The option groups several commands share, parsed in-process: names, aliases, types, defaults and help text.
 * The CLI tests reach them only through the built bundle, which mutation testing cannot see.
 */
import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import {
  componentVersionOptions,
  dropSignaturesOption,
  keyOptions,
  rewriteOptions,
  trustOptions,
} from '../../src/cli/options.js';

function parser(args: string[]) {
  const y = yargs(args).exitProcess(false).strict().version(false).help(false);
  return componentVersionOptions(
    dropSignaturesOption(rewriteOptions(keyOptions(trustOptions(y), 'The signing key (PEM or JWK)'))),
    'The component version to describe',
  );
}

describe('shared option groups', () => {
  it('default to no trust, not strict, nothing excluded, no key, in place, signatures kept', () => {
    const argv = parser([]).parseSync();
    expect(argv.trust).toEqual([]);
    expect(argv['trust-root']).toEqual([]);
    expect(argv['require-trusted']).toBe(false);
    expect(argv['allow-unverifiable']).toBe(false);
    expect(argv['allow-excludes']).toEqual([]);
    expect(argv.key).toBeUndefined();
    expect(argv['key-id']).toBeUndefined();
    expect(argv['passphrase-env']).toBeUndefined();
    expect(argv.output).toBeUndefined();
    expect(argv['drop-signatures']).toBe(false);
    expect(argv['component-version']).toBeUndefined();
    expect(argv.version).toBeUndefined();
  });

  it('keep values that look like numbers as strings', () => {
    const argv = parser([
      '--trust',
      '1',
      '--trust',
      '2',
      '--trust-root',
      '3',
      '--allow-excludes',
      '4',
      '-k',
      '5',
    ]).parseSync();
    expect(argv.trust).toEqual(['1', '2']);
    expect(argv['trust-root']).toEqual(['3']);
    expect(argv['allow-excludes']).toEqual(['4']);
    expect(argv.key).toBe('5');
    expect(argv._).toEqual([]);
    const more = parser(['--passphrase-env', '6', '-o', '7', '--version', '8']).parseSync();
    expect(more['passphrase-env']).toBe('6');
    expect(more.output).toBe('7');
    expect(more.version).toBe('8');
  });

  it('read repeated lists, flags, short aliases and string values', () => {
    const argv = parser([
      '--trust',
      'a.pem',
      '--trust',
      'keys/',
      '--trust-root',
      'root.pem',
      '--require-trusted',
      '--allow-unverifiable',
      '--allow-excludes',
      'meta',
      '--allow-excludes',
      'notes',
      '-k',
      'key.pem',
      '--key-id',
      '1',
      '--passphrase-env',
      'PASS',
      '-o',
      'out.json',
      '--drop-signatures',
      '--component-version',
      '2.0',
      '--version',
      '3',
    ]).parseSync();
    expect(argv.trust).toEqual(['a.pem', 'keys/']);
    expect(argv['trust-root']).toEqual(['root.pem']);
    expect(argv['require-trusted']).toBe(true);
    expect(argv['allow-unverifiable']).toBe(true);
    expect(argv['allow-excludes']).toEqual(['meta', 'notes']);
    expect(argv.key).toBe('key.pem');
    // Strings stay strings: a key id or version that looks like a number is not turned into one.
    expect(argv['key-id']).toBe('1');
    expect(argv['passphrase-env']).toBe('PASS');
    expect(argv.output).toBe('out.json');
    expect(argv['drop-signatures']).toBe(true);
    expect(argv['component-version']).toBe('2.0');
    expect(argv.version).toBe('3');
  });

  it('take one value per list flag: what follows is an operand again (the documents of `verify --trust k.pem bom.json`)', () => {
    const argv = trustOptions(
      yargs(['--trust', 'k.pem', 'bom.json', '--trust-root', 'r.pem', 'a.json', '--allow-excludes', 'meta', 'b.json'])
        .exitProcess(false)
        .version(false)
        .help(false),
    ).parseSync();
    expect(argv.trust).toEqual(['k.pem']);
    expect(argv['trust-root']).toEqual(['r.pem']);
    expect(argv['allow-excludes']).toEqual(['meta']);
    expect(argv._).toEqual(['bom.json', 'a.json', 'b.json']);
  });

  it.each(['--trust', '--trust-root', '--allow-excludes'])('want a value after %s', (flag) => {
    const run = () =>
      trustOptions(
        yargs([flag])
          .exitProcess(false)
          .version(false)
          .help(false)
          .fail((message) => {
            throw new Error(message);
          }),
      ).parseSync();
    expect(run).toThrow(/Not enough arguments following/);
  });

  it('describe every option in the help, with the texts a command passes in', async () => {
    const help = await parser([]).getHelp();
    for (const text of [
      '--trust ',
      "Trusted keys: PEM, JWK, JWKS, certificates, hex secrets, or a folder of them (keyId: a key's kid, else its file name)",
      '--trust-root',
      'Root certificates that certificatePath must chain to',
      '--require-trusted',
      'Valid signatures from keys that are not trusted are errors (else warnings)',
      '--allow-unverifiable',
      'Signatures that cannot be checked (no key for their keyId) are warnings, not errors',
      '--allow-excludes',
      'Top-level members a signature may leave unsigned (JSF excludes)',
      '-k, --key',
      'The signing key (PEM or JWK)',
      '--key-id',
      'JWKS entry to use, and the keyId to write',
      '--passphrase-env',
      'Name of the environment variable that holds the key passphrase',
      '-o, --output',
      'Write here instead of in place',
      '--drop-signatures',
      'Remove the signatures the edit invalidates',
      '--component-version',
      'The component version to describe',
      'The same as --component-version',
    ])
      expect(help.replace(/\s+/g, ' ')).toContain(text);
  });

  it('take the output and drop-signatures texts a command gives instead of the defaults', async () => {
    const y = yargs([]).exitProcess(false).version(false).help(false);
    const help = (
      await dropSignaturesOption(rewriteOptions(y, 'Write the bumped document here'), 'Drop them').getHelp()
    ).replace(/\s+/g, ' ');
    expect(help).toContain('Write the bumped document here');
    expect(help).toContain('Drop them');
    expect(help).not.toContain('Write here instead of in place');
  });
});
