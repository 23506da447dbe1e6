import { diffDocuments } from '../../compare/diff.js';
import { formatDiff } from '../../format/diff.js';
import { describeProblems, loadJsonFile } from '../../node/documents.js';
import { defineCommand } from '../command.js';
import { BomwrightError } from '../../errors.js';
import { routeDocument } from '../../formats/route.js';
import { EXIT_INVALID, EXIT_OK } from '../exit-codes.js';

/** A BOM to compare: anything else (unreadable, not JSON, not a BOM) is trouble, exit 2, as for diff(1). */
function load(file: string): unknown {
  const loaded = loadJsonFile(file);
  if ('problems' in loaded) throw new BomwrightError('E_READ', describeProblems(file, loaded.problems).message);
  const route = routeDocument(loaded.value);
  if (route.format === undefined)
    throw new BomwrightError('E_READ', `${file}: ${route.diagnostics[0]?.message ?? 'not a BOM'}`);
  return loaded.value;
}

/** Exit 0 when the documents are the same, 1 when they differ, 2 when they cannot be compared, like diff(1). */
export const diffCommand = defineCommand({
  command: 'diff <old> <new>',
  describe: 'Components, services, dependencies and metadata added, removed and changed (exit 1 when they differ)',
  builder: (y) =>
    y
      .positional('old', { type: 'string', demandOption: true })
      .positional('new', { type: 'string', demandOption: true })
      .option('format', { alias: 'f', choices: ['text', 'json'] as const, default: 'text' as const }),
  handler: (argv, context) => {
    const diff = diffDocuments(load(argv.old), load(argv.new));
    context.stdout(formatDiff(argv.format, diff));
    return diff.identical ? EXIT_OK : EXIT_INVALID;
  },
});
