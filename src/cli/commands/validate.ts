import { BomwrightError } from '../../errors.js';
import { formatGithubFile, formatGithubSummary } from '../../format/github.js';
import { formatReports, OUTPUT_FORMATS, totals, type OutputFormat } from '../../format/index.js';
import { GraphBudget } from '../../format/html.js';
import { formatTextFile, formatTextSummary } from '../../format/text.js';
import { SIGNATURE_MODES, type SignatureMode } from '../../validate/index.js';
import { SPEC_FORMATS } from '../../formats/formats.js';
import { defineCommand, type CliContext } from '../command.js';
import { ONE_VALUE_PER_FLAG, restoreStdin, trustOptions } from '../options.js';
import { parseSize } from '../size.js';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE } from '../exit-codes.js';
import { defaultJobs } from '../../node/pool.js';
import {
  validateFiles,
  type ValidateFilesOptions,
  type ValidateFilesResult,
  type VersionRuleSource,
} from '../../node/validate-files.js';
import { createProgress, type Progress } from '../progress.js';
import { writeFileAtomic } from '../../node/write.js';
import { refuseOverwriting } from '../../node/paths.js';
import { filesOf } from '../../node/keys.js';
import { BUILTIN_PROFILE_NAMES, loadProfiles } from '../../node/profiles.js';
import { resolveShard, shardStamp, type Shard } from '../../node/shard.js';

/** What validateFiles needs from the command line, passed on as it is. */
type CheckOptions = Pick<
  ValidateFilesOptions,
  | 'cwd'
  | 'specVersion'
  | 'signatures'
  | 'maxSize'
  | 'trustPaths'
  | 'trustRootPaths'
  | 'requireTrusted'
  | 'allowUnverifiable'
  | 'allowExcludes'
  | 'jobs'
  | 'versionRule'
  | 'shard'
  | 'profiles'
>;

interface ValidateCommandOptions {
  paths: string[];
  check: CheckOptions;
  format: OutputFormat;
  output?: string;
  maxWarnings?: number;
  quiet: boolean;
  /** --progress / --no-progress; undefined lets the terminal and environment decide. */
  progress?: boolean;
  toolVersion: string;
  stdout: (text: string) => void;
  terminal: { stderr: NodeJS.WriteStream; stdoutIsTerminal: boolean; env: NodeJS.ProcessEnv };
}

/** --baseline FILE, --base-ref REV or --staged (the index against HEAD): at most one. */
function versionRuleSource(argv: {
  baseline?: string | undefined;
  baseRef?: string | undefined;
  staged?: boolean | undefined;
}): VersionRuleSource | undefined {
  const given = [argv.baseline, argv.baseRef, argv.staged || undefined].filter((o) => o !== undefined);
  if (given.length > 1) throw new BomwrightError('E_USAGE', 'Use only one of --baseline, --base-ref and --staged');
  if (argv.baseline !== undefined) return { baseline: argv.baseline };
  if (argv.baseRef !== undefined) return { baseRef: argv.baseRef };
  return argv.staged ? { staged: true } : undefined;
}

/** What a validate run reads from its command line: yargs' argv, or the fast path's (src/cli/fast.ts). */
interface ValidateArgv {
  paths: string[];
  format: OutputFormat;
  output?: string | undefined;
  maxWarnings?: number | undefined;
  quiet: boolean;
  specVersion?: string | undefined;
  signatures: SignatureMode;
  maxSize: string;
  jobs?: number | undefined;
  progress?: boolean | undefined;
  baseline?: string | undefined;
  baseRef?: string | undefined;
  staged?: boolean | undefined;
  profile?: string[] | undefined;
  shard?: string | undefined;
  trust: string[];
  trustRoot: string[];
  requireTrusted: boolean;
  allowUnverifiable: boolean;
  allowExcludes: string[];
}

/** The defaults of validate's own options, shared with the fast path so both read an omitted option alike. */
export const VALIDATE_DEFAULTS = { signatures: 'verify' as SignatureMode, maxSize: '512M' } as const;

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
        default: VALIDATE_DEFAULTS.signatures,
        describe: 'Check signatures, also require one, or ignore them entirely',
      })
      .option('max-size', {
        type: 'string',
        default: VALIDATE_DEFAULTS.maxSize as string,
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
      })
      .option('profile', {
        type: 'string',
        ...ONE_VALUE_PER_FLAG,
        describe: `Also check a compliance profile or policy (repeatable): ${BUILTIN_PROFILE_NAMES.join(', ')}, or a JSON file`,
      })
      .option('shard', {
        type: 'string',
        describe:
          'Check only shard I of N (e.g. 2/4), chosen by path; merge-reports joins the N reports. auto (or auto/N) reads I and N from the CI job (GitLab, CircleCI, Buildkite, Kubernetes Indexed Job)',
      }),
  handler: (argv, context) => validateWith(argv, context),
});

/** Runs validate for a command line already read (by yargs or by the fast path). */
export function validateWith(argv: ValidateArgv, context: CliContext): Promise<number> {
  const maxWarnings = argv.maxWarnings;
  if (maxWarnings !== undefined && (!Number.isInteger(maxWarnings) || maxWarnings < 0)) {
    throw new BomwrightError('E_USAGE', '--max-warnings must be a whole number of at least 0');
  }
  const versionRule = versionRuleSource(argv);
  const shard = argv.shard === undefined ? undefined : resolveShard(argv.shard, context.env);
  const profiles = argv.profile === undefined ? [] : loadProfiles(argv.profile, context.cwd);
  return runValidate({
    paths: argv.paths,
    check: {
      cwd: context.cwd,
      specVersion: argv.specVersion,
      signatures: argv.signatures,
      maxSize: parseSize(argv.maxSize),
      trustPaths: argv.trust,
      trustRootPaths: argv.trustRoot,
      requireTrusted: argv.requireTrusted,
      allowUnverifiable: argv.allowUnverifiable,
      allowExcludes: argv.allowExcludes,
      jobs: jobCount(argv.jobs),
      ...(versionRule === undefined ? {} : { versionRule }),
      ...(shard === undefined ? {} : { shard }),
      ...(profiles.length === 0 ? {} : { profiles }),
    },
    format: argv.format,
    output: argv.output,
    maxWarnings,
    quiet: argv.quiet,
    progress: argv.progress,
    toolVersion: context.toolVersion,
    stdout: context.stdout,
    terminal: {
      stderr: context.stderrStream ?? process.stderr,
      stdoutIsTerminal: context.stdoutIsTerminal,
      env: context.env,
    },
  });
}

function jobCount(value: number | undefined): number {
  if (value === undefined) return defaultJobs();
  if (!Number.isInteger(value) || value < 1)
    throw new BomwrightError('E_USAGE', '--jobs must be a whole number of at least 1');
  return value;
}

/**
 * What a shard's report is stamped with: the shard and a digest of what shapes the report, so that merge-reports
 * refuses shards of different runs. Not --jobs, --progress, --output or --max-warnings: they change no report.
 */
function stampOf(shard: Shard, options: ValidateCommandOptions) {
  const { cwd, jobs: _jobs, shard: _shard, ...check } = options.check;
  return shardStamp(shard, {
    cwd: cwd ?? process.cwd(),
    operands: options.paths,
    settings: { ...check, format: options.format, quiet: options.quiet, toolVersion: options.toolVersion },
  });
}

async function runValidate(options: ValidateCommandOptions): Promise<number> {
  const shard = options.check.shard;
  const reportOptions = {
    quiet: options.quiet,
    toolVersion: options.toolVersion,
    ...(shard === undefined ? {} : { shard: stampOf(shard, options) }),
    ...(options.maxWarnings === undefined ? {} : { maxWarnings: options.maxWarnings }),
    ...(options.check.profiles === undefined ? {} : { profiles: options.check.profiles }),
  };
  const rule = options.check.versionRule;
  const baselineFile = rule !== undefined && 'baseline' in rule ? rule.baseline : undefined;
  const streaming = STREAMED.has(options.format) && options.output === undefined;
  let progress: Progress | undefined;
  let withErrors = 0;
  // Graphs the html report could not embed are dropped as they arrive: memory stays near its budget.
  const graphs = options.format === 'html' ? new GraphBudget() : undefined;
  let result: ValidateFilesResult;
  try {
    result = await validateFiles(options.paths, {
      ...options.check,
      // Only the html report shows signatures, the version verdict and the graph: the others pay nothing for them.
      ...(options.format === 'html' ? { details: true } : {}),
      onStart: (sources, found) => {
        if (options.output !== undefined) {
          // Another shard's inputs too: running the shards one after another must not destroy one.
          refuseOverwriting(options.output, [
            ...found.map((file) => ({ file, role: 'an input' })),
            ...[...(options.check.trustPaths ?? []), ...(options.check.trustRootPaths ?? [])]
              .flatMap(filesOf)
              .map((file) => ({ file, role: 'a trust file' })),
            ...(baselineFile === undefined ? [] : [{ file: baselineFile, role: 'the baseline' }]),
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
          graphs?.add(report);
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
  if (found.length === 0 && shard === undefined) {
    // Only for --staged: a commit without BOM changes has nothing to check, and the hook must let it through.
    if (!options.quiet) options.stdout('No staged BOM documents\n');
    return EXIT_OK;
  }
  if (found.length === 0 && streaming) {
    // A shard no document fell to passes; its json, sarif or junit report is written below, to be merged.
    if (!options.quiet) options.stdout(`No BOM documents in shard ${shard!.index}/${shard!.count}\n`);
    return EXIT_OK;
  }
  if (streaming) {
    options.stdout(
      options.format === 'text' ? formatTextSummary(found, reportOptions) : formatGithubSummary(found, reportOptions),
    );
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
