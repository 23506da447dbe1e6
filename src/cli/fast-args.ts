/**
 * Recognises the command lines the fast path (fast.ts) answers without the command parser: `validate` with
 * operands and at most --format/-f, --quiet/-q and --progress/--no-progress, each at most once, and --profile
 * (repeatable, one value each), in yargs' plain spellings. Anything else (other options, `--opt=value`, `-`, `--`, a value that yargs could read
 * differently) is left to the full CLI, so its messages, suggestions and defaults stay the only ones. No imports:
 * the bin entry loads this before deciding which bundle to load.
 */

export interface FastValidateArgs {
  paths: string[];
  /** Not checked against the formats here: fast.ts does that, and leaves an unknown one to the full CLI. */
  format: string;
  quiet: boolean;
  progress: boolean | undefined;
  /** Absent when no --profile was given (the full CLI's argv has none either). */
  profile: string[] | undefined;
}

/** What yargs-parser would read as a number (it may turn such an operand into one). */
const NUMERIC = /^(?:0x[0-9a-f]+|[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?)$/i;
/** A value that yargs reads as the value of the boolean option before it. */
const BOOLEAN_WORD = /^(?:true|false)$/i;

export function fastValidateArgs(argv: readonly string[]): FastValidateArgs | undefined {
  if (argv[0] !== 'validate') return undefined;
  const paths: string[] = [];
  let format: string | undefined;
  let quiet: boolean | undefined;
  let progress: boolean | undefined;
  let profile: string[] | undefined;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--profile') {
      // One value per flag, as the full CLI reads it (`--profile ntia-2021 bom.json`: one profile, one operand).
      const value = argv[i + 1];
      if (value === undefined || value === '' || value.startsWith('-') || NUMERIC.test(value)) return undefined;
      (profile ??= []).push(value);
      i++;
      continue;
    }
    if (!arg.startsWith('-')) {
      if (arg === '' || NUMERIC.test(arg)) return undefined;
      paths.push(arg);
      continue;
    }
    if (arg === '--format' || arg === '-f') {
      const value = argv[i + 1];
      if (format !== undefined || value === undefined || value === '' || value.startsWith('-')) return undefined;
      format = value;
      i++;
      continue;
    }
    let flag: 'quiet' | 'progress' | 'no-progress';
    if (arg === '--quiet' || arg === '-q') flag = 'quiet';
    else if (arg === '--progress') flag = 'progress';
    else if (arg === '--no-progress') flag = 'no-progress';
    else return undefined;
    const next = argv[i + 1];
    if (next !== undefined && BOOLEAN_WORD.test(next)) return undefined;
    if (flag === 'quiet') {
      if (quiet !== undefined) return undefined;
      quiet = true;
    } else {
      if (progress !== undefined) return undefined;
      progress = flag === 'progress';
    }
  }
  return { paths, format: format ?? 'text', quiet: quiet ?? false, progress, profile };
}
