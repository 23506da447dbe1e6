import { readFileSync } from 'node:fs';
import yargs from 'yargs/yargs';
import { BomwrightError, describeError, isBomwrightError } from '../errors.js';

const STDIN_TOKEN = '\u0000-';
import { OUTPUT_FORMATS, type OutputFormat } from '../format/index.js';
import { SPEC_FORMATS } from '../spec/formats.js';
import { DEFAULT_MAX_SIZE, type SignatureMode } from '../validate/index.js';
import { runValidate } from './commands/validate.js';
import { EXIT_OK, EXIT_USAGE } from './exit-codes.js';
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
        cwd: io.cwd,
        toolVersion: version,
        stdout: io.stdout,
      });
    }
    throw new BomwrightError('E_USAGE', `Unknown command ${JSON.stringify(String(command))}`);
  } catch (error) {
    const usage = isBomwrightError(error) && error.code === 'E_USAGE' ? '\nRun "bomwright --help" for usage.' : '';
    io.stderr(`bomwright: ${describeError(error)}${usage}\n`);
    return EXIT_USAGE;
  }
}

// The build's warm-up stores the code caches of the bundles this CLI loaded (see src/build/warm-up.ts).
export { writeCodeCaches } from '../runtime/code-cache.js';
