/** Command-line operands → the files they name: files, directories, glob patterns, `-` for standard input. */
import { statSync } from 'node:fs';
import { loadFastGlob } from './fast-glob.js';
import path from 'node:path';
import { BomwrightError } from '../errors.js';
import { BUILTIN_PROFILE_NAMES } from './builtin-profiles.js';

export const STDIN = '-';

export interface Input {
  /** Absolute path, or `-` for standard input. */
  source: string;
  /** Named on the command line (as a file or `-`), rather than found in a directory or by a pattern. */
  explicit: boolean;
}

const IGNORED = ['**/node_modules/**', '**/.git/**'];

/**
 * Command-line operands → inputs: `-` (stdin), files, directories (their *.json and *.xml in any case, without node_modules and
 * .git) and fast-glob patterns. A missing path or a pattern that matches nothing is a usage error (exit 2),
 * so a typo in CI can never pass as "nothing to validate".
 */
export async function resolveInputs(
  operands: readonly string[],
  cwd: string,
  options: { keepRepeats?: boolean } = {},
): Promise<Input[]> {
  const inputs: Input[] = [];
  const seen = new Set<string>();
  const add = (source: string, explicit: boolean) => {
    // keepRepeats: a file named twice stays twice (merge says so); found again by a folder or pattern, it does not.
    if (seen.has(source) && !(explicit && options.keepRepeats === true)) return;
    seen.add(source);
    inputs.push({ source, explicit });
  };
  for (const operand of operands) {
    if (operand === STDIN) {
      add(STDIN, true);
      continue;
    }
    const absolute = path.resolve(cwd, operand);
    const stat = statOrUndefined(absolute);
    if (stat?.isDirectory()) {
      // The extension in any case: Windows tools write BOM.XML.
      for (const file of await glob(['**/*.{[jJ][sS][oO][nN],[xX][mM][lL]}'], absolute)) add(file, false);
    } else if (stat !== undefined) {
      add(absolute, true);
    } else {
      if (!loadFastGlob().isDynamicPattern(operand)) {
        throw new BomwrightError('E_NOT_FOUND', `No such file or directory: ${operand}${profileHint(operand)}`);
      }
      const files = await glob([operand], cwd);
      if (files.length === 0) throw new BomwrightError('E_NO_MATCH', `Pattern matched no files: ${operand}`);
      for (const file of files) add(file, false);
    }
  }
  return inputs;
}

/** `validate cisa-2025` (or `--profile ntia-2021 cisa-2025`) meant a profile: each --profile takes one name. */
function profileHint(operand: string): string {
  return (BUILTIN_PROFILE_NAMES as readonly string[]).includes(operand)
    ? `; ${operand} is a built-in compliance profile: give it with --profile ${operand}`
    : '';
}

async function glob(patterns: string[], cwd: string): Promise<string[]> {
  const files = await loadFastGlob()(patterns, {
    cwd,
    absolute: true,
    ignore: IGNORED,
    onlyFiles: true,
    dot: false,
    followSymbolicLinks: false,
  });
  return files.map((f) => path.normalize(f)).sort();
}

function statOrUndefined(file: string) {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}
