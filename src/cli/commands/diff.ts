import { diffDocuments } from '../../compare/diff.js';
import { formatDiff } from '../../format/diff.js';
import { describeProblems, loadDocument } from '../../node/documents.js';
import { defineCommand } from '../command.js';
import { BomwrightError } from '../../errors.js';
import { routeDocument } from '../../formats/route.js';
import { syntaxNeutralModel } from '../../document/read.js';
import type { BomDocument } from '../../document/read.js';
import { EXIT_INVALID, EXIT_OK } from '../exit-codes.js';

/** A BOM to compare, in either syntax: anything else (unreadable, not a BOM) is trouble, exit 2, as for diff(1). */
async function load(file: string): Promise<BomDocument> {
  const loaded = await loadDocument(file);
  if ('problems' in loaded) throw new BomwrightError('E_READ', describeProblems(file, loaded.problems).message);
  const route = routeDocument(loaded.model);
  if (route.format === undefined)
    throw new BomwrightError('E_READ', `${file}: ${route.diagnostics[0]?.message ?? 'not a BOM'}`);
  return loaded;
}

/** Exit 0 when the documents are the same, 1 when they differ, 2 when they cannot be compared, like diff(1). */
export const diffCommand = defineCommand({
  command: 'diff <old> <new>',
  describe:
    'Components, services, dependencies and metadata added, removed and changed, JSON or XML on either side (exit 1 when they differ)',
  builder: (y) =>
    y
      .positional('old', { type: 'string', demandOption: true })
      .positional('new', { type: 'string', demandOption: true })
      .option('format', { alias: 'f', choices: ['text', 'json'] as const, default: 'text' as const }),
  handler: async (argv, context) => {
    const old = await load(argv.old);
    const current = await load(argv.new);
    // What only one syntax can say ($schema) is no difference between a JSON document and its XML twin.
    const across = old.syntax !== current.syntax;
    const diff = diffDocuments(
      across ? syntaxNeutralModel(old.model) : old.model,
      across ? syntaxNeutralModel(current.model) : current.model,
    );
    context.stdout(formatDiff(argv.format, diff));
    return diff.identical ? EXIT_OK : EXIT_INVALID;
  },
});
