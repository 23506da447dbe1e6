/**
 * The fast path: `validate FILE…` with the common options, answered without yargs and without the modules of the
 * other commands (a bundle of its own, src/build/bundle.ts). A CLI run is mostly start-up, and most of start-up
 * was the full bundle's code and its module top-levels. The bin entry asks fast-args.ts first; this runs the same
 * handler with the same defaults as the full CLI, so output and exit codes are the same byte for byte.
 */
import { OUTPUT_FORMATS, type OutputFormat } from '../format/index.js';
import { VALIDATE_DEFAULTS, validateWith } from './commands/validate.js';
import type { FastValidateArgs } from './fast-args.js';
import { cliContext, reportFailure, toolVersion, type CliIo } from './run.js';

function isOutputFormat(value: string): value is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(value);
}

/** The exit code, or undefined when the full CLI must answer (an unknown format: its message names the choices). */
export async function validateFast(io: CliIo, args: FastValidateArgs): Promise<number | undefined> {
  const format = args.format;
  if (!isOutputFormat(format)) return undefined;
  const version = toolVersion();
  try {
    return await validateWith(
      {
        paths: args.paths,
        format,
        quiet: args.quiet,
        progress: args.progress,
        ...(args.profile === undefined ? {} : { profile: args.profile }),
        ...VALIDATE_DEFAULTS,
        trust: [],
        trustRoot: [],
        requireTrusted: false,
        allowUnverifiable: false,
        allowExcludes: [],
      },
      cliContext(io, version),
    );
  } catch (error) {
    return reportFailure(io, error);
  }
}

// The build's warm-up stores the code caches of the bundles this path loaded (see src/build/warm-up.ts).
export { writeCodeCaches } from '../runtime/code-cache.js';
