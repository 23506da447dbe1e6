/** Option groups several commands share, defined once. */
import type { Argv } from 'yargs';
import { BomwrightError } from '../errors.js';
import { LICENSE_ACKNOWLEDGEMENTS } from '../author/licenses.js';
import { SYNTAXES } from '../document/syntax.js';

/**
 * yargs reads a lone `-` as an empty option; main.ts hands it over as this token, and operands that accept
 * standard input turn it back with {@link restoreStdin}.
 */
export const STDIN_TOKEN = '\u0000-';

export function restoreStdin(operands: readonly string[]): string[] {
  return operands.map((operand) => (operand === STDIN_TOKEN ? '-' : operand));
}

/**
 * A repeatable option that takes one value each time it is given. yargs' arrays are greedy by default, so
 * `--trust key.pem bom.json` would read the document as a second key; with one value per flag, what follows is an
 * operand again. Repeat the flag for more values.
 */
export const ONE_VALUE_PER_FLAG = { array: true, nargs: 1, requiresArg: true } as const;

/** Where trust comes from and how strict to be about it (validate, verify). */
export function trustOptions<T>(y: Argv<T>) {
  return trustSources(y).option('require-trusted', {
    type: 'boolean',
    default: false,
    describe: 'Valid signatures from keys that are not trusted are errors (else warnings)',
  });
}

/**
 * A gate's trust options (verify): with --trust, an untrusted signature fails unless --allow-untrusted, so
 * --require-trusted has no default of its own (it still makes the untrusted fail without --trust).
 */
export function gateTrustOptions<T>(y: Argv<T>) {
  return trustSources(y)
    .option('require-trusted', {
      type: 'boolean',
      describe: 'Valid signatures from keys that are not trusted fail, even without --trust (the default with --trust)',
    })
    .option('allow-untrusted', {
      type: 'boolean',
      default: false,
      describe: 'With --trust, valid signatures from keys it does not hold pass (with a warning)',
    });
}

function trustSources<T>(y: Argv<T>) {
  return y
    .option('trust', {
      type: 'string',
      ...ONE_VALUE_PER_FLAG,
      default: [] as string[],
      describe:
        "Trusted keys: PEM, JWK, JWKS, certificates, hex secrets, or a folder of them (keyId: a key's kid, else its file name)",
    })
    .option('trust-root', {
      type: 'string',
      ...ONE_VALUE_PER_FLAG,
      default: [] as string[],
      describe: 'Root certificates that certificatePath must chain to',
    })
    .option('allow-unverifiable', {
      type: 'boolean',
      default: false,
      describe: 'Signatures that cannot be checked (no key for their keyId) are warnings, not errors',
    })
    .option('allow-excludes', {
      type: 'string',
      ...ONE_VALUE_PER_FLAG,
      default: [] as string[],
      describe: 'Top-level members a signature may leave unsigned (JSF excludes)',
    });
}

/** A signing key (sign, bump). */
export function keyOptions<T>(y: Argv<T>, describeKey: string) {
  return y
    .option('key', { alias: 'k', type: 'string', describe: describeKey })
    .option('key-id', { type: 'string', describe: 'JWKS entry to use, and the keyId to write' })
    .option('passphrase-env', {
      type: 'string',
      describe: 'Name of the environment variable that holds the key passphrase',
    });
}

/** Commands that rewrite a document (add, set, bump, normalize, sign). */
export function rewriteOptions<T>(y: Argv<T>, describeOutput = 'Write here instead of in place') {
  return toOption(y.option('output', { alias: 'o', type: 'string', describe: describeOutput }));
}

/** Every command that writes a document: the syntax it writes. */
function toOption<T>(y: Argv<T>) {
  return y.option('to', {
    choices: SYNTAXES,
    describe: "The syntax to write (default: the output's extension, .json or .xml, else the input's, else json)",
  });
}

/** Edits that may invalidate signatures (add, set, bump). */
export function dropSignaturesOption<T>(y: Argv<T>, describe = 'Remove the signatures the edit invalidates') {
  return y.option('drop-signatures', { type: 'boolean', default: false, describe });
}

/** A key passphrase from the environment variable named by --passphrase-env (never from the command line). */
export function passphraseFrom(variable: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (variable === undefined) return undefined;
  const value = env[variable];
  if (value === undefined) throw new BomwrightError('E_USAGE', `Environment variable ${variable} is not set`);
  return value;
}

/**
 * `--version V` on a command that describes a component: the component's version, the same as
 * `--component-version V` (the spelling people reach for first).
 */
export function componentVersionOptions<T>(y: Argv<T>, describe: string) {
  return y
    .option('component-version', { type: 'string', describe })
    .option('version', { type: 'string', describe: 'The same as --component-version' });
}

/** The licence options of `init` and `add component`: SPDX ids or expressions, named licences, acknowledgement. */
export const LICENSE_OPTIONS = {
  license: {
    type: 'string',
    array: true,
    describe: 'SPDX ids or expressions (a near miss such as Apache2 is refused with the id)',
  },
  'license-name': { type: 'string', array: true, describe: 'A licence without an SPDX id, by name' },
  acknowledgement: {
    choices: LICENSE_ACKNOWLEDGEMENTS,
    describe: 'The licences are declared (by the component) or concluded (by you); CycloneDX 1.6+',
  },
} as const;

/** The component version from --component-version or --version; both with different values is a usage error. */
export function componentVersion(argv: {
  componentVersion?: string | undefined;
  version?: string | undefined;
}): string | undefined {
  const { componentVersion: long, version: short } = argv;
  if (short !== undefined && short === '')
    throw new BomwrightError(
      'E_USAGE',
      '--version needs a value here: the component version (or use --component-version)',
    );
  if (long !== undefined && short !== undefined && long !== short)
    throw new BomwrightError('E_USAGE', `--version ${short} and --component-version ${long} disagree; give one`);
  return long ?? short;
}
