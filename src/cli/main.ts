import { readFileSync } from 'node:fs';
import yargs from 'yargs/yargs';
import { BomwrightError, describeError, isBomwrightError } from '../errors.js';

const STDIN_TOKEN = '\u0000-';
import { OUTPUT_FORMATS, type OutputFormat } from '../format/index.js';
import { SPEC_FORMATS } from '../spec/formats.js';
import { DEFAULT_MAX_SIZE, type SignatureMode } from '../validate/index.js';
import { runValidate } from './commands/validate.js';
import { EXIT_USAGE } from './exit-codes.js';
import { parseSize } from './size.js';

export interface CliIo {
  argv: string[];
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

function toolVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Runs the CLI and returns the exit code; never throws and never prints a stack trace. */
export async function main(io: CliIo): Promise<number> {
  let exitCode = 0;
  const version = toolVersion();
  try {
    // yargs-parser drops a bare "-"; carry it through as a token no real argument can contain (NUL).
    await yargs(io.argv.map((arg) => (arg === '-' ? STDIN_TOKEN : arg)))
      .scriptName('bomwright')
      .usage('$0 <command> [options]')
      .version(version)
      .strict()
      .help()
      .alias('h', 'help')
      .wrap(Math.min(110, process.stdout.columns || 100))
      .demandCommand(1, 'Name a command, e.g. "bomwright validate samples"')
      .fail((message, error) => {
        if (error) throw error;
        throw new BomwrightError('E_USAGE', message);
      })
      .command(
        'validate [paths..]',
        'Validate CycloneDX and CBOM documents (files, directories, glob patterns, - for stdin)',
        (y) =>
          y
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
            }),
        async (argv) => {
          const maxWarnings = argv['max-warnings'];
          if (maxWarnings !== undefined && (!Number.isInteger(maxWarnings) || maxWarnings < 0)) {
            throw new BomwrightError('E_USAGE', '--max-warnings must be a whole number of at least 0');
          }
          exitCode = await runValidate({
            paths: (argv.paths ?? []).map((p) => (p === STDIN_TOKEN ? '-' : p)),
            format: argv.format,
            ...(argv.output === undefined ? {} : { output: argv.output }),
            ...(maxWarnings === undefined ? {} : { maxWarnings }),
            quiet: argv.quiet,
            ...(argv['spec-version'] === undefined ? {} : { specVersion: argv['spec-version'] }),
            signatures: argv.signatures,
            maxSize: argv['max-size'] === undefined ? DEFAULT_MAX_SIZE : parseSize(argv['max-size']),
            cwd: io.cwd,
            toolVersion: version,
            stdout: io.stdout,
          });
        },
      )
      .parseAsync();
  } catch (error) {
    const usage = isBomwrightError(error) && error.code === 'E_USAGE' ? '\nRun "bomwright --help" for usage.' : '';
    io.stderr(`bomwright: ${describeError(error)}${usage}\n`);
    return EXIT_USAGE;
  }
  return exitCode;
}
