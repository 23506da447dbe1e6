import { normalizeDocument } from '../../author/normalize.js';
import { BomwrightError } from '../../errors.js';
import type { Syntax } from '../../document/syntax.js';
import { editSyntax, loadEditable, writeEditable } from '../../node/documents.js';
import { EXIT_INVALID, EXIT_OK } from '../exit-codes.js';
import { defineCommand } from '../command.js';
import { rewriteOptions } from '../options.js';
import { warnDropped } from '../xml-resign.js';
import { isOwnStream } from '../../node/write.js';

interface NormalizeCommandOptions {
  file: string;
  output?: string;
  to?: Syntax;
  /** Only say whether the file is normalized (exit 1 when it is not). */
  check: boolean;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export const normalizeCommand = defineCommand({
  command: 'normalize <file>',
  describe: 'Rewrite with a deterministic member and array order (signatures stay valid)',
  builder: (y) =>
    rewriteOptions(y.positional('file', { type: 'string', demandOption: true })).option('check', {
      type: 'boolean',
      default: false,
      describe: 'Only say whether the file is normalized (exit 1 when not)',
    }),
  handler: (argv, context) =>
    runNormalize({
      file: argv.file,
      output: argv.output,
      to: argv.to,
      check: argv.check,
      stdout: context.stdout,
      stderr: context.stderr,
    }),
});

async function runNormalize(options: NormalizeCommandOptions): Promise<number> {
  const document = await loadEditable(options.file);
  const normalized = normalizeDocument(document.value);
  // Normalized means: same data, same member and array order (in XML, the same element order).
  const same = JSON.stringify(normalized) === JSON.stringify(document.value);
  if (options.check) {
    options.stdout(`${options.file}: ${same ? 'normalized' : 'not normalized (run: bomwright normalize FILE)'}\n`);
    return same ? EXIT_OK : EXIT_INVALID;
  }
  const syntax = editSyntax(document, { output: options.output, to: options.to });
  // JSF signs member content, which normalizing keeps; an XML signature signs the text, which reordering breaks.
  if (document.source.xmlSigned && !(same && syntax === 'xml'))
    throw new BomwrightError(
      'E_USAGE',
      `${options.file} carries an XML signature, which ${same ? 'writing it as JSON' : 'reordering its elements'} would invalidate: normalize before signing`,
    );
  // Normalizing is a full rewrite (layout included), not an edit kept in the source's layout; an XML document
  // already normalized keeps its text (and its signature).
  const target = writeEditable(document, normalized, {
    output: options.output,
    to: options.to,
    fresh: !(same && document.source.syntax === 'xml'),
    onDrop: warnDropped(options.stderr),
  });
  // The document itself may be going to stdout (-o /dev/stdout): the status line must not join it.
  (isOwnStream(target) ? options.stderr : options.stdout)(`Normalized ${target}\n`);
  return EXIT_OK;
}
