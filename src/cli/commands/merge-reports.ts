/**
 * `bomwright merge-reports`: the json, sarif or junit reports of the N jobs of a `validate --shard I/N` run →
 * the report one unsharded run writes (src/format/merge.ts). Exit 0 when merged; the documents' verdict is each
 * shard's exit code. Anything that cannot be merged exactly is refused: exit 2, one line naming the file.
 */
import { BomwrightError } from '../../errors.js';
import { MERGE_FORMATS, mergeReports, type MergeFormat } from '../../format/merge.js';
import { readFileOrFail } from '../../node/files.js';
import { refuseOverwriting } from '../../node/paths.js';
import { writeFileAtomic } from '../../node/write.js';
import { defineCommand } from '../command.js';
import { restoreStdin } from '../options.js';
import { EXIT_OK } from '../exit-codes.js';
import path from 'node:path';

/** Reports of thousands of documents are megabytes; this bounds what a hostile file may cost. */
const MAX_REPORT = 256 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function readReport(file: string, cwd: string): { name: string; text: string } {
  const bytes = readFileOrFail(path.resolve(cwd, file), MAX_REPORT);
  try {
    return { name: file, text: utf8.decode(bytes) };
  } catch {
    throw new BomwrightError('E_MERGE', `${file}: is not UTF-8 text, as bomwright writes its reports`);
  }
}

export const mergeReportsCommand = defineCommand({
  command: 'merge-reports [files..]',
  describe: 'Join the json, sarif or junit reports of validate --shard I/N runs into the report of one run',
  builder: (y) =>
    y
      .positional('files', {
        type: 'string',
        array: true,
        default: [] as string[],
        coerce: restoreStdin,
        describe: "Every shard's report (in any order)",
      })
      .option('format', {
        alias: 'f',
        choices: MERGE_FORMATS,
        describe: "The reports' format (default: the first report's; all must have it)",
      })
      .option('output', {
        alias: 'o',
        type: 'string',
        describe: 'Write the merged report to this file instead of stdout',
      }),
  handler: (argv, context) => {
    const files = argv.files;
    if (files.length === 0)
      throw new BomwrightError('E_USAGE', "Name every shard's report, e.g. bomwright merge-reports shards/*.sarif");
    // Each report is a file of its own, named in messages; standard input would be one unnamed report of N.
    if (files.includes('-')) throw new BomwrightError('E_USAGE', 'merge-reports reads files, not standard input (-)');
    const output = argv.output;
    if (output !== undefined)
      refuseOverwriting(
        path.resolve(context.cwd, output),
        files.map((file) => ({ file: path.resolve(context.cwd, file), role: 'a report to merge' })),
      );
    const format: MergeFormat | undefined = argv.format;
    const merged = mergeReports(
      files.map((file) => readReport(file, context.cwd)),
      format === undefined ? {} : { format },
    );
    if (output !== undefined) writeFileAtomic(path.resolve(context.cwd, output), merged.text);
    else context.stdout(merged.text);
    return EXIT_OK;
  },
});
