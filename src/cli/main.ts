import { readFileSync } from 'node:fs';
import type { Argv } from 'yargs';
import yargs from 'yargs/yargs';
import { BomwrightError, describeError, isBomwrightError } from '../errors.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../format/index.js';
import { JSF_ALGORITHMS, type JsfAlgorithm } from '../jsf/algorithms.js';
import type { SignMode } from '../jsf/sign.js';
import { SPEC_FORMATS } from '../formats/formats.js';
import { DEFAULT_MAX_SIZE, type SignatureMode } from '../validate/index.js';
import { runBump } from './commands/bump.js';
import { runDiff } from './commands/diff.js';
import { runAdd, runSet, type AddKind } from './commands/edit.js';
import { runInit } from './commands/init.js';
import { runKeygen } from './commands/keygen.js';
import { runNormalize } from './commands/normalize.js';
import { runSign } from './commands/sign.js';
import { runValidate } from './commands/validate.js';
import { runVerify } from './commands/verify.js';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE } from './exit-codes.js';
import { loadTrustStore } from '../node/key-files.js';
import { defaultJobs } from '../node/pool.js';
import { parseSize } from '../node/size.js';

const STDIN_TOKEN = '\u0000-';

/** Options shared by validate and verify: where trust comes from and how strict to be about it. */
function trustOptions<T>(y: Argv<T>) {
  return y
    .option('trust', {
      type: 'string',
      array: true,
      default: [] as string[],
      describe:
        'Trusted keys: PEM, JWK, JWKS, certificates, hex secrets, or a folder of them (keyId = JWK kid or file name)',
    })
    .option('trust-root', {
      type: 'string',
      array: true,
      default: [] as string[],
      describe: 'Root certificates that certificatePath must chain to',
    })
    .option('require-trusted', {
      type: 'boolean',
      default: false,
      describe: 'Untrusted or unverifiable signatures are errors',
    })
    .option('allow-excludes', {
      type: 'string',
      array: true,
      default: [] as string[],
      describe: 'Top-level members a signature may leave unsigned (JSF excludes)',
    });
}

export interface CliIo {
  argv: string[];
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The terminal, for the progress bar; absent when embedded (no bar is drawn then). */
  stderrStream?: NodeJS.WriteStream;
  stdoutIsTerminal?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** A key passphrase from the environment variable named by --passphrase-env (never from the command line). */
function passphraseFrom(variable: unknown): string | undefined {
  if (variable === undefined) return undefined;
  const value = process.env[String(variable)];
  if (value === undefined) throw new BomwrightError('E_USAGE', `Environment variable ${String(variable)} is not set`);
  return value;
}

function jobs(value: unknown): number {
  if (value === undefined) return defaultJobs();
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw new BomwrightError('E_USAGE', '--jobs must be a whole number of at least 1');
  return value;
}

function toolVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * yargs renders the whole help text before it runs any command, in case the command's handler fails later
 * (~20 ms of text measuring, a sixth of a run). Commands here run after parsing, outside yargs, so that text is
 * never used. The hook is internal to yargs: if it is absent, nothing changes but the speed.
 */
function skipHelpPrerender(parser: object): void {
  type Internals = { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } };
  const usage = (parser as Internals).getInternalMethods?.().getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => undefined;
}

/** Runs the CLI and returns the exit code; never throws and never prints a stack trace. */
export async function main(io: CliIo): Promise<number> {
  const version = toolVersion();
  try {
    const parser = yargs(io.argv.map((arg) => (arg === '-' ? STDIN_TOKEN : arg)))
      .scriptName('bomwright')
      .usage('$0 <command> [options]')
      .version(version)
      .strict()
      .help()
      .alias('h', 'help')
      .demandCommand(1, 'Name a command, e.g. "bomwright validate samples"')
      .fail((message, error) => {
        if (error) throw error;
        throw new BomwrightError('E_USAGE', message);
      })
      .command(
        'validate [paths..]',
        'Validate CycloneDX and CBOM documents (files, directories, glob patterns, - for stdin)',
        (y) =>
          trustOptions(y)
            .positional('paths', {
              type: 'string',
              array: true,
              describe: 'Files, directories, fast-glob patterns or - (default: .)',
            })
            .option('format', {
              alias: 'f',
              choices: OUTPUT_FORMATS,
              default: 'text' as OutputFormat,
              describe: 'Output format',
            })
            .option('output', {
              alias: 'o',
              type: 'string',
              describe: 'Write the report to this file instead of stdout',
            })
            .option('max-warnings', { type: 'number', describe: 'Exit 1 when there are more warnings than this' })
            .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: 'Report errors only' })
            .option('spec-version', {
              type: 'string',
              choices: SPEC_FORMATS.map((f) => f.specVersion),
              describe: 'Validate against this version whatever the documents say',
            })
            .option('signatures', {
              choices: ['verify', 'require', 'ignore'] as const,
              default: 'verify' as SignatureMode,
              describe: 'Check signatures, also require one, or ignore them entirely',
            })
            .option('max-size', {
              type: 'string',
              default: '512M',
              describe: 'Refuse documents larger than this (bytes, or K/M/G)',
            })
            .option('jobs', {
              alias: 'j',
              type: 'number',
              describe: `Documents checked at once, in worker threads (default: the number of cores, ${defaultJobs()} here)`,
            })
            .option('progress', {
              type: 'boolean',
              describe: 'Show a progress bar on stderr (default: on a terminal, for long runs, outside CI)',
            })
            .option('baseline', {
              type: 'string',
              describe: 'Version rule: compare the document with this previous release',
            })
            .option('base-ref', {
              type: 'string',
              describe: 'Version rule: compare each document with its version at this git revision',
            })
            .option('staged', {
              type: 'boolean',
              describe: 'Check the staged BOM files (the index) against HEAD: for pre-commit hooks',
            }),
      )
      .command(
        'sign <file>',
        'Sign a document with JSF (root, inner objects, multi-signature or chain), in place',
        (y) =>
          y
            .positional('file', { type: 'string', demandOption: true, describe: 'The JSON document to sign' })
            .option('key', {
              alias: 'k',
              type: 'string',
              demandOption: true,
              describe:
                'Private key: PEM (PKCS#8, SEC1, PKCS#1), JWK, JWKS (choose with --key-id), or an HMAC secret (oct JWK or hex)',
            })
            .option('alg', { choices: JSF_ALGORITHMS, describe: 'Algorithm (default: follows from the key)' })
            .option('key-id', {
              type: 'string',
              describe: 'Write this keyId (instead of the public key, unless --public-key)',
            })
            .option('public-key', {
              type: 'boolean',
              describe: 'Embed the public key (the default without --key-id or --cert-chain)',
            })
            .option('cert-chain', {
              type: 'string',
              describe: 'PEM certificate path (leaf first) to embed as certificatePath',
            })
            .option('no-key-info', { type: 'boolean', default: false, describe: 'Embed no key information at all' })
            .option('target', {
              alias: 't',
              type: 'string',
              array: true,
              default: ['root'],
              describe:
                'What to sign: root, components, services, all, or a bom-ref (repeatable; inner objects first, root last)',
            })
            .option('add', { type: 'boolean', describe: 'Add a signer (make or extend "signers")' })
            .option('chain', { type: 'boolean', describe: 'Append to a signature chain (make or extend "chain")' })
            .option('output', {
              alias: 'o',
              type: 'string',
              describe: 'Write the signed document here instead of in place',
            })
            .option('property', { type: 'string', default: 'signature', describe: 'Signature member name' })
            .option('excludes', {
              type: 'string',
              array: true,
              default: [] as string[],
              describe: 'Top-level members to leave unsigned (single signatures)',
            })
            .option('passphrase-env', {
              type: 'string',
              describe: 'Name of the environment variable that holds the key passphrase',
            })
            .conflicts('add', 'chain'),
      )
      .command('verify <files..>', 'Verify every JSF signature in JSON documents, with trust', (y) =>
        trustOptions(
          y
            .positional('files', { type: 'string', array: true, demandOption: true, describe: 'Documents to verify' })
            .option('format', {
              alias: 'f',
              choices: ['text', 'json'] as const,
              default: 'text' as const,
              describe: 'Output format',
            })
            .option('require-signature', {
              type: 'boolean',
              default: false,
              describe: 'Documents without any signature fail',
            })
            .option('property', { type: 'string', default: 'signature', describe: 'Signature member name' })
            .option('allow-extensions', {
              type: 'string',
              array: true,
              default: [] as string[],
              describe: 'JSF extension names to accept (not in CycloneDX)',
            }),
        ),
      )
      .command(
        'init',
        'Create a new valid BOM (serial number, version 1, timestamp, tools, the described component)',
        (y) =>
          y
            .option('format', {
              choices: ['cyclonedx', 'cbom'] as const,
              describe: 'Document family (default cyclonedx)',
            })
            .option('spec-version', {
              type: 'string',
              choices: SPEC_FORMATS.map((f) => f.specVersion),
              describe: 'Default 1.6, or 1.4-cbom-1.0 for cbom',
            })
            .option('from', { type: 'string', describe: 'Describe the package of this package.json' })
            .option('name', { type: 'string', describe: 'Component name' })
            .option('component-version', { type: 'string', describe: 'Component version' })
            .option('type', { type: 'string', describe: 'Component type (default application)' })
            .option('purl', { type: 'string', describe: 'Package URL' })
            .option('license', { type: 'string', array: true, describe: 'SPDX ids or expressions' })
            .option('output', { alias: 'o', type: 'string', demandOption: true, describe: 'The file to create' })
            .option('force', { type: 'boolean', default: false, describe: 'Overwrite an existing file' }),
      )
      .command(
        'add <kind> <file>',
        'Add a component, service, dependency or property; refused if the document would become invalid',
        (y) =>
          y
            .positional('kind', {
              choices: ['component', 'service', 'dependency', 'property'] as const,
              demandOption: true,
            })
            .positional('file', { type: 'string', demandOption: true })
            .option('name', { type: 'string', describe: 'Component, service or property name' })
            .option('component-version', { type: 'string', describe: 'Component or service version' })
            .option('type', { type: 'string', describe: 'Component type (default library; crypto-asset in CBOM)' })
            .option('group', { type: 'string' })
            .option('purl', { type: 'string' })
            .option('bom-ref', { type: 'string', describe: 'Default: from the purl, else name@version, made unique' })
            .option('license', { type: 'string', array: true, describe: 'SPDX ids or expressions, or licence names' })
            .option('hash', { type: 'string', array: true, describe: 'ALG:CONTENT, e.g. SHA-256:ab12…' })
            .option('supplier', { type: 'string' })
            .option('author', { type: 'string', array: true })
            .option('property', { type: 'string', array: true, describe: 'name=value' })
            .option('crypto-properties', { type: 'string', describe: 'CBOM cryptoProperties as JSON' })
            .option('endpoint', { type: 'string', array: true, describe: 'Service endpoints' })
            .option('ref', { type: 'string', describe: 'Dependency: the bom-ref that depends' })
            .option('depends-on', { type: 'string', array: true })
            .option('provides', { type: 'string', array: true, describe: 'CycloneDX 1.6+' })
            .option('dependency-type', { choices: ['implements', 'uses'] as const, describe: 'CBOM only' })
            .option('value', { type: 'string', describe: 'Property value' })
            .option('target', {
              type: 'string',
              describe: 'Property: the bom-ref of the element (default: the document)',
            })
            .option('drop-signatures', {
              type: 'boolean',
              default: false,
              describe: 'Remove the signatures the edit invalidates',
            })
            .option('output', { alias: 'o', type: 'string', describe: 'Write here instead of in place' }),
      )
      .command(
        'set <file> <field> <value>',
        'Set metadata.<field> (supplier, manufacture, authors, licenses, component, timestamp, properties); JSON or text',
        (y) =>
          y
            .positional('file', { type: 'string', demandOption: true })
            .positional('field', { type: 'string', demandOption: true })
            .positional('value', { type: 'string', demandOption: true })
            .option('drop-signatures', {
              type: 'boolean',
              default: false,
              describe: 'Remove the signatures the edit invalidates',
            })
            .option('output', { alias: 'o', type: 'string', describe: 'Write here instead of in place' }),
      )
      .command('bump <file>', 'Increment the version (timestamp refreshed, serial number kept), in place', (y) =>
        y
          .positional('file', { type: 'string', demandOption: true })
          .option('key', { alias: 'k', type: 'string', describe: 'Re-sign what was signed with this key' })
          .option('key-id', { type: 'string', describe: 'Key id for --key (JWKS entry and keyId)' })
          .option('passphrase-env', { type: 'string', describe: 'Environment variable with the key passphrase' })
          .option('drop-signatures', {
            type: 'boolean',
            default: false,
            describe: 'Remove the signatures the bump invalidates',
          })
          .option('check', {
            type: 'boolean',
            default: false,
            describe: 'Only say whether a bump is due (exit 1 when it is)',
          })
          .option('baseline', { type: 'string', describe: 'With --check: the previous release' })
          .option('base-ref', {
            type: 'string',
            describe: 'With --check: the git revision of the previous release (default HEAD)',
          })
          .option('output', { alias: 'o', type: 'string', describe: 'Write here instead of in place' }),
      )
      .command('normalize <file>', 'Rewrite with a deterministic member and array order (signatures stay valid)', (y) =>
        y
          .positional('file', { type: 'string', demandOption: true })
          .option('check', {
            type: 'boolean',
            default: false,
            describe: 'Only say whether the file is normalized (exit 1 when not)',
          })
          .option('output', { alias: 'o', type: 'string', describe: 'Write here instead of in place' }),
      )
      .command(
        'diff <old> <new>',
        'Components, services, dependencies and metadata added, removed and changed (exit 1 when they differ)',
        (y) =>
          y
            .positional('old', { type: 'string', demandOption: true })
            .positional('new', { type: 'string', demandOption: true })
            .option('format', { alias: 'f', choices: ['text', 'json'] as const, default: 'text' as const }),
      )
      .command('keygen', 'Generate a signing key pair (private key mode 0600) or an HMAC secret', (y) =>
        y
          .option('alg', {
            choices: JSF_ALGORITHMS,
            default: 'ES256' as JsfAlgorithm,
            describe: 'Algorithm the key is for',
          })
          .option('out', {
            type: 'string',
            default: 'signing-key',
            describe:
              'Path prefix: writes PREFIX.private.pem, PREFIX.public.pem, PREFIX.public.jwk (or PREFIX.secret.jwk)',
          })
          .option('key-id', { type: 'string', describe: 'kid for the JWK (default: its RFC 7638 thumbprint)' })
          .option('force', { type: 'boolean', default: false, describe: 'Overwrite existing files' }),
      );
    skipHelpPrerender(parser);
    const argv = await parser.parseAsync();

    // --help and --version have printed already; yargs leaves the command unset then.
    if (argv.help || argv.version) return EXIT_OK;
    const command = argv._[0];
    if (command === 'validate') {
      const maxWarnings = argv['max-warnings'] as number | undefined;
      if (maxWarnings !== undefined && (!Number.isInteger(maxWarnings) || maxWarnings < 0)) {
        throw new BomwrightError('E_USAGE', '--max-warnings must be a whole number of at least 0');
      }
      const paths = ((argv.paths as string[] | undefined) ?? []).map((p) => (p === STDIN_TOKEN ? '-' : p));
      return await runValidate({
        paths,
        format: argv.format as OutputFormat,
        ...(argv.output === undefined ? {} : { output: argv.output as string }),
        ...(maxWarnings === undefined ? {} : { maxWarnings }),
        quiet: Boolean(argv.quiet),
        ...(argv['spec-version'] === undefined ? {} : { specVersion: argv['spec-version'] as string }),
        signatures: argv.signatures as SignatureMode,
        maxSize: parseSize(String(argv['max-size'] ?? DEFAULT_MAX_SIZE)),
        trustPaths: argv.trust as string[],
        trustRootPaths: argv['trust-root'] as string[],
        requireTrusted: Boolean(argv['require-trusted']),
        allowExcludes: argv['allow-excludes'] as string[],
        jobs: jobs(argv.jobs),
        ...(argv.baseline === undefined ? {} : { baseline: argv.baseline as string }),
        ...(argv['base-ref'] === undefined ? {} : { baseRef: argv['base-ref'] as string }),
        ...(argv.staged ? { staged: true } : {}),
        ...(argv.progress === undefined ? {} : { progress: Boolean(argv.progress) }),
        cwd: io.cwd,
        toolVersion: version,
        stdout: io.stdout,
        terminal: {
          stderr: io.stderrStream ?? process.stderr,
          stdoutIsTerminal: io.stdoutIsTerminal ?? false,
          env: io.env ?? process.env,
        },
      });
    }
    if (command === 'sign') {
      const passphrase = passphraseFrom(argv['passphrase-env']);
      const mode: SignMode = argv.add ? 'add' : argv.chain ? 'chain' : 'single';
      return await runSign({
        file: argv.file as string,
        key: argv.key as string,
        ...(argv.alg === undefined ? {} : { algorithm: argv.alg as JsfAlgorithm }),
        ...(argv['key-id'] === undefined ? {} : { keyId: argv['key-id'] as string }),
        ...(argv['public-key'] === undefined ? {} : { publicKey: Boolean(argv['public-key']) }),
        ...(argv['cert-chain'] === undefined ? {} : { certChain: argv['cert-chain'] as string }),
        noKeyInfo: Boolean(argv['no-key-info']),
        targets: argv.target as string[],
        mode,
        ...(argv.output === undefined ? {} : { output: argv.output as string }),
        property: argv.property as string,
        excludes: argv.excludes as string[],
        ...(passphrase === undefined ? {} : { passphrase }),
        stdout: io.stdout,
        stderr: io.stderr,
      });
    }
    if (command === 'verify') {
      return runVerify({
        files: (argv.files as string[]).map((f) => (f === STDIN_TOKEN ? '/dev/stdin' : f)),
        trust: loadTrustStore(argv.trust as string[], argv['trust-root'] as string[]),
        requireTrusted: Boolean(argv['require-trusted']),
        requireSignature: Boolean(argv['require-signature']),
        property: argv.property as string,
        allowExcludes: argv['allow-excludes'] as string[],
        allowExtensions: argv['allow-extensions'] as string[],
        format: argv.format as 'text' | 'json',
        cwd: io.cwd,
        stdout: io.stdout,
      });
    }
    if (command === 'init') {
      const component = {
        ...(argv.name === undefined ? {} : { name: argv.name as string }),
        ...(argv['component-version'] === undefined ? {} : { version: argv['component-version'] as string }),
        ...(argv.type === undefined ? {} : { type: argv.type as string }),
        ...(argv.purl === undefined ? {} : { purl: argv.purl as string }),
        ...(argv.license === undefined ? {} : { licenses: argv.license as string[] }),
      };
      return await runInit({
        ...(argv.format === undefined ? {} : { format: argv.format as 'cyclonedx' | 'cbom' }),
        ...(argv['spec-version'] === undefined ? {} : { specVersion: argv['spec-version'] as string }),
        ...(argv.from === undefined ? {} : { from: argv.from as string }),
        component,
        output: argv.output as string,
        force: Boolean(argv.force),
        toolVersion: version,
        stdout: io.stdout,
      });
    }
    if (command === 'add' || command === 'set') {
      const editOptions = {
        file: argv.file as string,
        ...(argv.output === undefined ? {} : { output: argv.output as string }),
        dropSignatures: Boolean(argv['drop-signatures']),
        stdout: io.stdout,
        stderr: io.stderr,
      };
      return command === 'add'
        ? await runAdd(argv.kind as AddKind, argv as Record<string, unknown>, editOptions)
        : await runSet(String(argv.field), String(argv.value), editOptions);
    }
    if (command === 'bump') {
      const passphrase = passphraseFrom(argv['passphrase-env']);
      return await runBump({
        file: argv.file as string,
        ...(argv.key === undefined ? {} : { key: argv.key as string }),
        ...(argv['key-id'] === undefined ? {} : { keyId: argv['key-id'] as string }),
        ...(passphrase === undefined ? {} : { passphrase }),
        dropSignatures: Boolean(argv['drop-signatures']),
        check: Boolean(argv.check),
        ...(argv.baseline === undefined ? {} : { baseline: argv.baseline as string }),
        ...(argv['base-ref'] === undefined ? {} : { baseRef: argv['base-ref'] as string }),
        ...(argv.output === undefined ? {} : { output: argv.output as string }),
        cwd: io.cwd,
        stdout: io.stdout,
        stderr: io.stderr,
      });
    }
    if (command === 'normalize') {
      return await runNormalize({
        file: argv.file as string,
        ...(argv.output === undefined ? {} : { output: argv.output as string }),
        check: Boolean(argv.check),
        stdout: io.stdout,
      });
    }
    if (command === 'diff') {
      return runDiff({
        old: argv.old as string,
        new: argv.new as string,
        format: argv.format as 'text' | 'json',
        stdout: io.stdout,
      });
    }
    if (command === 'keygen') {
      return await runKeygen({
        algorithm: argv.alg as JsfAlgorithm,
        out: argv.out as string,
        ...(argv['key-id'] === undefined ? {} : { keyId: argv['key-id'] as string }),
        force: Boolean(argv.force),
        stdout: io.stdout,
      });
    }
    throw new BomwrightError('E_USAGE', `Unknown command ${JSON.stringify(String(command))}`);
  } catch (error) {
    const usage = isBomwrightError(error) && error.code === 'E_USAGE' ? '\nRun "bomwright --help" for usage.' : '';
    io.stderr(`bomwright: ${describeError(error)}${usage}\n`);
    // A document that cannot be processed is a document defect (1); everything else is operational (2).
    return isBomwrightError(error) && error.code === 'E_INPUT' ? EXIT_INVALID : EXIT_USAGE;
  }
}

// The build's warm-up stores the code caches of the bundles this CLI loaded (see src/build/warm-up.ts).
export { writeCodeCaches } from '../runtime/code-cache.js';
