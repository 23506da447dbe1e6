/** `bomwright import workbook`: a component inventory from a workbook table into a BOM, created or updated. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Argv } from 'yargs';
import { initDocument } from '../../author/init.js';
import { BomwrightError } from '../../errors.js';
import { IMPORT_FIELDS, importWorkbook, type ImportField } from '../../flows/workbook-import.js';
import type { CliCommand, CliContext } from '../command.js';
import { documentFlowOptions, runDocumentFlow, type FlowArgv } from '../document-flow.js';

interface ImportArgv extends FlowArgv {
  item?: string;
  path?: string;
  table: string;
  map?: string[];
  flag: boolean;
  specVersion?: string;
}

function parseMap(entries: readonly string[] = []): Record<string, ImportField> {
  const map: Record<string, ImportField> = {};
  for (const entry of entries) {
    const at = entry.lastIndexOf('=');
    const header = entry.slice(0, at).trim();
    const field = entry.slice(at + 1).trim();
    if (at <= 0 || !(IMPORT_FIELDS as readonly string[]).includes(field))
      throw new BomwrightError(
        'E_USAGE',
        `--map ${JSON.stringify(entry)}: write HEADER=FIELD, FIELD one of ${IMPORT_FIELDS.join(', ')}`,
      );
    map[header] = field as ImportField;
  }
  return map;
}

async function runImport(argv: ImportArgv, context: CliContext): Promise<number> {
  if ((argv.item === undefined) === (argv.path === undefined))
    throw new BomwrightError('E_USAGE', 'Name the workbook with --item ID or --path PATH (one of the two)');
  const map = parseMap(argv.map);
  // --spec-version shapes a new BOM only: with a BOM that exists it would be ignored, so it is refused.
  if (argv.specVersion !== undefined && argv.output !== undefined && existsSync(path.resolve(context.cwd, argv.output)))
    throw new BomwrightError(
      'E_USAGE',
      `--spec-version is for a new BOM, and ${argv.output} exists (it keeps its own spec version): drop --spec-version, or name a new file with -o`,
    );
  // -o names the BOM to update, or to create when it does not exist yet; without it the new BOM is printed.
  const flowArgv: FlowArgv = { ...argv, file: argv.output, output: undefined };
  return runDocumentFlow(
    flowArgv,
    context,
    async (document, api, dryRun) => {
      const result = await importWorkbook(document, api, {
        item: argv.item,
        itemPath: argv.path,
        table: argv.table,
        map,
        flag: argv.flag,
        dryRun,
      });
      const flagged = argv.flag ? (dryRun ? ' (would be flagged)' : ' (flagged)') : '';
      const lines = result.rejected.map(
        (row) => `row ${row.row} (${row.address}): ${row.problems.join('; ')}${flagged}`,
      );
      lines.push(
        `${result.added} component${result.added === 1 ? '' : 's'} added, ${result.updated} updated, ${result.unchanged} unchanged, ${result.rejected.length} row${result.rejected.length === 1 ? '' : 's'} rejected`,
      );
      // The summary goes where the document does not.
      return {
        document: result.document,
        calls: result.calls,
        lines,
        report: {
          added: result.added,
          updated: result.updated,
          unchanged: result.unchanged,
          rejected: result.rejected,
          flagged: result.flagged,
        },
      };
    },
    () => initDocument({ toolVersion: context.toolVersion, specVersion: argv.specVersion }),
  );
}

export const importCommand: CliCommand = {
  command: 'import',
  register(parser, context, done) {
    return parser.command(
      'import',
      'Create or update a BOM from records kept in the service: workbook (a component inventory table)',
      (y: Argv) =>
        y
          .version(false)
          .command(
            'workbook',
            'Components from a workbook table (columns name, version, type, purl, license, supplier, group, description)',
            (c) =>
              documentFlowOptions(c)
                .option('item', { type: 'string', describe: 'the workbook: its drive item id' })
                .option('path', { type: 'string', describe: 'the workbook: its path under the drive root' })
                .option('table', { type: 'string', demandOption: true, describe: 'the table: its name or id' })
                .option('map', { type: 'string', array: true, describe: 'HEADER=FIELD for other column headers' })
                .option('flag', {
                  type: 'boolean',
                  default: false,
                  describe: 'Give each rejected row a red, thick border in the workbook',
                })
                .option('spec-version', { type: 'string', describe: 'For a new BOM (default 1.6)' }),
            async (argv) => done(await runImport(argv as unknown as ImportArgv, context)),
          )
          .demandCommand(1, 'Name a source: workbook'),
    );
  },
};
