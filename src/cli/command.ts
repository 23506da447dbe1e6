/**
 * A CLI command: a yargs command module (`command`, `describe`, `builder`, `handler`) whose argv is typed once,
 * by its builder, and whose handler gets the run's context and returns the exit code. main.ts registers a list
 * of these; a family of commands generated from a table plugs in the same way.
 */
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';

export interface CliContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The terminal, for the progress bar; absent when embedded (no bar is drawn then). */
  stderrStream?: NodeJS.WriteStream;
  stdoutIsTerminal: boolean;
  /** bomwright's own version, for reports and generated documents. */
  toolVersion: string;
}

interface CommandSpec<T> {
  command: string;
  describe: string;
  builder: (y: Argv) => Argv<T>;
  handler: (argv: ArgumentsCamelCase<T>, context: CliContext) => Promise<number> | number;
}

export interface CliCommand {
  readonly command: string;
  /** Adds the command to a parser; its handler reports the exit code through `done`. */
  register(parser: Argv, context: CliContext, done: (exitCode: number) => void): Argv;
}

export function defineCommand<T>(spec: CommandSpec<T>): CliCommand {
  return {
    command: spec.command,
    register(parser, context, done) {
      const module: CommandModule<object, T> = {
        command: spec.command,
        describe: spec.describe,
        // --version is bomwright's own version at the top level only: on a command it would silently print that
        // and exit 0 (`add component --version 1.3.0`). Commands with a component version take it as that.
        builder: (y) => spec.builder(y.version(false)),
        handler: async (argv) => done(await spec.handler(argv, context)),
      };
      return parser.command(module);
    },
  };
}
