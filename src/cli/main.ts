/**
 * The CLI: yargs set-up, the command list, exit codes and the one-line error path. Each command lives in
 * commands/<name>.ts as a command module with its argv typed by its builder.
 */
import yargs from 'yargs/yargs';
import { BomwrightError } from '../errors.js';
import type { CliCommand } from './command.js';
import { COMMANDS } from './commands/index.js';
import { EXIT_OK } from './exit-codes.js';
import { STDIN_TOKEN } from './options.js';
import { cliContext, reportFailure, toolVersion, type CliIo } from './run.js';
import { usageLine, valuelessOption, type OptionTypes, type ParserState } from './usage.js';

export type { CliIo } from './run.js';

/**
 * yargs renders the whole help text before it runs a command, in case the command fails validation later
 * (~20 ms of text measuring, a sixth of a run). Failures here never print help, so that text is never used.
 * The hook is internal to yargs: if it is absent, nothing changes but the speed.
 */
function skipHelpPrerender(parser: object): void {
  type Internals = { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } };
  const usage = (parser as Internals).getInternalMethods?.().getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => undefined;
}

type ParserInternals = {
  getOptions(): OptionTypes & {
    key: Record<string, unknown>;
    alias: Record<string, string[]>;
    choices: Record<string, unknown[]>;
  };
  getInternalMethods(): {
    getContext(): { commands: string[]; fullCommands: string[] };
    getCommandInstance(): { getCommands(): string[] };
  };
};

/**
 * What the parser knew when it failed. yargs runs a command's builder on the same instance, so at failure it
 * holds that command's options and subcommands.
 */
function parserState(parser: object, argv: readonly string[]): ParserState {
  const internals = parser as ParserInternals;
  const options = internals.getOptions();
  const context = internals.getInternalMethods().getContext();
  const names = new Set(Object.keys(options.key));
  for (const aliases of Object.values(options.alias)) for (const alias of aliases) names.add(alias);
  const signature = context.fullCommands.at(-1) ?? '';
  return {
    commands: context.commands,
    subcommands: internals.getInternalMethods().getCommandInstance().getCommands(),
    options: [...names],
    choices: options.choices,
    positionals: [...signature.matchAll(/[<[]([^\s<>[\].]+)/g)].map((m) => m[1]!),
    argv,
  };
}

function optionTypes(parser: object): OptionTypes {
  return (parser as ParserInternals).getOptions();
}

function helpCommand(parser: object): string {
  return ['bomwright', ...(parser as ParserInternals).getInternalMethods().getContext().commands].join(' ');
}

/**
 * Runs the CLI and returns the exit code; never throws and never prints a stack trace. `commands` is the
 * command list (a family generated from a table joins it the same way).
 */
export async function main(io: CliIo, commands: readonly CliCommand[] = COMMANDS): Promise<number> {
  const version = toolVersion();
  const context = cliContext(io, version);
  // --help and --version print and leave the command unrun: exit 0.
  let exitCode = EXIT_OK;
  const done = (code: number) => {
    exitCode = code;
  };
  try {
    // yargs reads a lone `-` (standard input) as an empty option name; commands turn the token back.
    let parser = yargs(io.argv.map((arg) => (arg === '-' ? STDIN_TOKEN : arg)))
      .scriptName('bomwright')
      .usage('$0 <command> [options]')
      .version(version)
      .strict()
      .help()
      .alias('h', 'help')
      .demandCommand(1, 'Name a command, e.g. "bomwright validate samples"')
      // Before yargs' own checks, so `-f` with no value is named as such rather than defaulted.
      .middleware(() => {
        const line = valuelessOption(io.argv, optionTypes(parser));
        if (line !== undefined) throw new BomwrightError('E_USAGE', `${line}; see "${helpCommand(parser)} --help"`);
      }, true)
      .fail((message, error) => {
        if (error) throw error;
        const line = usageLine(message, parserState(parser, io.argv));
        const hint = line.includes('did you mean') ? '' : `; see "${helpCommand(parser)} --help"`;
        throw new BomwrightError('E_USAGE', `${line}${hint}`);
      });
    for (const command of commands) parser = command.register(parser, context, done);
    skipHelpPrerender(parser);
    await parser.parseAsync();
    return exitCode;
  } catch (error) {
    return reportFailure(io, error);
  }
}

// The build's warm-up stores the code caches of the bundles this CLI loaded (see src/build/warm-up.ts).
export { writeCodeCaches } from '../runtime/code-cache.js';
