import { diffDocuments, formatDiffText } from '../../compare/diff.js';
import { describeProblems, loadJsonFile } from '../../node/document-io.js';
import { EXIT_INVALID, EXIT_OK } from '../exit-codes.js';

export interface DiffCommandOptions {
  old: string;
  new: string;
  format: 'text' | 'json';
  stdout: (text: string) => void;
}

function load(file: string): unknown {
  const loaded = loadJsonFile(file);
  if ('problems' in loaded) throw describeProblems(file, loaded.problems);
  return loaded.value;
}

/** Exit 0 when the documents are the same, 1 when they differ: usable in scripts like diff(1). */
export function runDiff(options: DiffCommandOptions): number {
  const diff = diffDocuments(load(options.old), load(options.new));
  options.stdout(options.format === 'json' ? JSON.stringify(diff, null, 2) + '\n' : formatDiffText(diff));
  return diff.identical ? EXIT_OK : EXIT_INVALID;
}
