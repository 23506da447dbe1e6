/**
 * What every way into the CLI shares (the full parser in main.ts and the fast path in fast.ts): the run's
 * context and the one-line error path with its exit code. No command parser here, so the fast path loads none.
 */
import { readFileSync } from 'node:fs';
import { describeError, isBomwrightError } from '../errors.js';
import { neutralizeControls } from '../format/terminal.js';
import type { CliContext } from './command.js';
import { EXIT_INVALID, EXIT_USAGE } from './exit-codes.js';

/** What the CLI needs from its process: arguments, working directory and output streams. */
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

export function toolVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export function cliContext(io: CliIo, version: string): CliContext {
  return {
    cwd: io.cwd,
    env: io.env ?? process.env,
    stdout: (text) => io.stdout(neutralizeControls(text)),
    stderr: (text) => io.stderr(neutralizeControls(text)),
    ...(io.stderrStream === undefined ? {} : { stderrStream: io.stderrStream }),
    stdoutIsTerminal: io.stdoutIsTerminal ?? false,
    toolVersion: version,
  };
}

/** Prints a failure as one line and returns its exit code. */
export function reportFailure(io: CliIo, error: unknown): number {
  // One line whatever the message holds: a second line would be read as a second error.
  io.stderr(neutralizeControls(`bomwright: ${describeError(error).replace(/\s*\n\s*/g, '; ')}\n`));
  // A document that cannot be processed is a document defect (1), and so is a change the service's records
  // refuse (E_REFUSED: an approval that was not delivered); a service (or the emulator) that answered with an error
  // or could not be reached is 1 too, whichever command called it; everything else is operational (2).
  return isBomwrightError(error) && EXIT_ONE.has(error.code) ? EXIT_INVALID : EXIT_USAGE;
}

const EXIT_ONE: ReadonlySet<string> = new Set([
  'E_INPUT',
  'E_REFUSED',
  'E_SERVICE',
  'E_NETWORK',
  'E_TIMEOUT',
  'E_ABORTED',
  'E_RETRY_EXHAUSTED',
  'E_REDIRECT',
  'E_RESPONSE_SHAPE',
  'E_FOREIGN_ORIGIN',
  'E_LINK_LOOP',
]);
