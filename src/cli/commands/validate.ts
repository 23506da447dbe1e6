import { BomwrightError } from '../../errors.js';
import { formatGithubFile, formatGithubSummary } from '../../format/github.js';
import { formatReports, OUTPUT_FORMATS, totals, type OutputFormat } from '../../format/index.js';
import { formatTextFile, formatTextSummary } from '../../format/text.js';
import { SIGNATURE_MODES, type SignatureMode } from '../../validate/index.js';
import { SPEC_FORMATS } from '../../formats/formats.js';
import { defineCommand } from '../command.js';
import { restoreStdin, trustOptions } from '../options.js';
import { parseSize } from '../size.js';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE } from '../exit-codes.js';
import { defaultJobs } from '../../node/pool.js';
import { validateFiles, type ValidateFilesResult } from '../../node/validate-files.js';
import { createProgress, type Progress } from '../progress.js';
import { writeFileAtomic } from '../../node/write.js';
import { refuseOverwriting } from '../../node/paths.js';
import { filesOf } from '../../node/keys.js';

export interface ValidateCommandOptions {
  paths: string[];
  format: OutputFormat;
  output?: string;
  maxWarnings?: number;
  quiet: boolean;
  specVersion?: string;
  signatures: SignatureMode;
  maxSize: number;
  trustPaths: string[];
  trustRootPaths: string[];
  requireTrusted: boolean;
  allowUnverifiable: boolean;
  allowExcludes: string[];
  /** Files checked at once (worker threads); 1 checks them one by one in this thread. */
  jobs: number;
  /** --progress / --no-progress; undefined lets the terminal and environment decide. */
  progress?: boolean;
  /** The version rule: --baseline FILE, --base-ref REV, or --staged (index against HEAD). */
  baseline?: string;
  baseRef?: string;
  staged?: boolean;
  cwd: string;
  toolVersion: string;
  stdout: (text: string) => void;
  terminal: { stderr: NodeJS.WriteStream; stdoutIsTerminal: boolean; env: NodeJS.ProcessEnv };
}

/** Formats whose reports can be written file by file as results arrive; the others are sorted by path. */
const STREAMED: ReadonlySet<OutputFormat> = new Set(['text', 'github']);

export const validateCommand = defineCommand({
  command: 'validate [paths..]',
  describe: 'Validate CycloneDX and CBOM documents (files, directories, glob patterns, - for stdin)',
  builder: (y) =>
    trustOptions(y)
      .positional('paths', {
        type: 'string',
        array: true,
        default: [] as string[],
        coerce: restoreStdin,
        describe: 'Files, directories, fast-glob patterns or - (default: .)',
      })
      .option('format', {
        alias: 'f',
        choices: OUTPUT_FORMATS,
        default: 'text' as OutputFormat,
        describe: 'Output format',
      })
      .option('output', {
        alias: 'o',
        type: 'string',
        describe: 'Write the report to this file instead of stdout',
      })
      .option('max-warnings', { type: 'number', describe: 'Exit 1 when there are more warnings than this' })
      .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: 'Report errors only' })
      .option('spec-version', {
        type: 'string',
        choices: SPEC_FORMATS.map((f) => f.specVersion),
        describe: 'Validate against this version whatever the documents say',
      })
      .option('signatures', {
        choices: SIGNATURE_MODES,
        default: 'verify' as SignatureMode,
        describe: 'Check signatures, also require one, or ignore them entirely',
      })
      .option('max-size', {
        type: 'string',
        default: '512M',
        describe: 'Refuse documents larger than this (bytes, or K/M/G)',
      })
      .option('jobs', {
        alias: 'j',
        type: 'number',
        describe: `Documents checked at once, in worker threads (default: the number of cores, ${defaultJobs()} here)`,
      })
      .option('progress', {
        type: 'boolean',
        describe: 'Show a progress bar on stderr (default: on a terminal, for long runs, outside CI)',
      })
      .option('baseline', {
        type: 'string',
        describe: 'Version rule: compare the document with this previous release',
      })
      .option('base-ref', {
        type: 'string',
        describe: 'Version rule: compare each document with its version at this git revision',
      })
      .option('staged', {
        type: 'boolean',
        describe: 'Check the staged BOM files (the index) against HEAD: for pre-commit hooks',
      }),
  handler: (argv, context) => {
    const maxWarnings = argv.maxWarnings;
    if (maxWarnings !== undefined && (!Number.isInteger(maxWarnings) || maxWarnings < 0)) {
      throw new BomwrightError('E_USAGE', '--max-warnings must be a whole number of at least 0');
    }
    return runValidate({
      paths: argv.paths,
      format: argv.format,
      output: argv.output,
      maxWarnings,
      quiet: argv.quiet,
      specVersion: argv.specVersion,
      signatures: argv.signatures,
      maxSize: parseSize(argv.maxSize),
      trustPaths: argv.trust,
      trustRootPaths: argv.trustRoot,
      requireTrusted: argv.requireTrusted,
      allowUnverifiable: argv.allowUnverifiable,
      allowExcludes: argv.allowExcludes,
      jobs: jobCount(argv.jobs),
      baseline: argv.baseline,
      baseRef: argv.baseRef,
      staged: argv.staged,
      progress: argv.progress,
      cwd: context.cwd,
      toolVersion: context.toolVersion,
      stdout: context.stdout,
      terminal: {
        stderr: context.stderrStream ?? process.stderr,
        stdoutIsTerminal: context.stdoutIsTerminal,
        env: context.env,
      },
    });
  },
});

function jobCount(value: number | undefined): number {
  if (value === undefined) return defaultJobs();
  if (!Number.isInteger(value) || value < 1)
    throw new BomwrightError('E_USAGE', '--jobs must be a whole number of at least 1');
  return value;
}

export async function runValidate(options: ValidateCommandOptions): Promise<number> {
  const rules = [options.baseline, options.baseRef, options.staged || undefined].filter((o) => o !== undefined);
  if (rules.length > 1) throw new BomwrightError('E_USAGE', 'Use only one of --baseline, --base-ref and --staged');
  const reportOptions = { quiet: options.quiet, toolVersion: options.toolVersion };
  const streaming = STREAMED.has(options.format) && options.output === undefined;
  let progress: Progress | undefined;
  let withErrors = 0;
  let result: ValidateFilesResult;
  try {
    result = await validateFiles(options.paths, {
      cwd: options.cwd,
      specVersion: options.specVersion,
      signatures: options.signatures,
      maxSize: options.maxSize,
      trustPaths: options.trustPaths,
      trustRootPaths: options.trustRootPaths,
      requireTrusted: options.requireTrusted,
      allowUnverifiable: options.allowUnverifiable,
      allowExcludes: options.allowExcludes,
      jobs: options.jobs,
      ...(options.baseline !== undefined
        ? { versionRule: { baseline: options.baseline } }
        : options.baseRef !== undefined
          ? { versionRule: { baseRef: options.baseRef } }
          : options.staged
            ? { versionRule: { staged: true } }
            : {}),
      onStart: (sources) => {
        if (options.output !== undefined) {
          refuseOverwriting(options.output, [
            ...sources.map((file) => ({ file, role: 'an input' })),
            ...[...options.trustPaths, ...options.trustRootPaths]
              .flatMap(filesOf)
              .map((file) => ({ file, role: 'a trust file' })),
            ...(options.baseline === undefined ? [] : [{ file: options.baseline, role: 'the baseline' }]),
          ]);
        }
        progress = createProgress({
          total: sources.length,
          ...(options.progress === undefined ? {} : { forced: options.progress }),
          quiet: options.quiet,
          env: options.terminal.env,
          stderr: options.terminal.stderr,
          stdoutIsTerminal: options.terminal.stdoutIsTerminal,
          stdout: options.stdout,
        });
      },
      onFile: (report) => {
        if (report !== undefined) {
          if (report.failure !== undefined || (report.result && !report.result.valid)) withErrors++;
          if (streaming) {
            const lines =
              options.format === 'text'
                ? formatTextFile(report, reportOptions)
                : formatGithubFile(report, reportOptions);
            if (lines.length > 0) progress?.print(lines.join('\n') + '\n');
          }
        }
        progress?.tick(withErrors);
      },
    });
  } finally {
    progress?.stop();
  }
  const found = result.reports;
  if (found.length === 0) {
    // Only for --staged: a commit without BOM changes has nothing to check, and the hook must let it through.
    if (!options.quiet) options.stdout('No staged BOM documents\n');
    return EXIT_OK;
  }
  if (streaming) {
    options.stdout(options.format === 'text' ? formatTextSummary(found, reportOptions) : formatGithubSummary(found));
  } else {
    const text = formatReports(options.format, found, reportOptions);
    if (options.output) writeFileAtomic(options.output, text);
    else options.stdout(text);
  }

  const t = totals(found);
  if (t.failures > 0) return EXIT_USAGE;
  if (t.errors > 0) return EXIT_INVALID;
  if (options.maxWarnings !== undefined && t.warnings > options.maxWarnings) return EXIT_INVALID;
  return EXIT_OK;
}
