import { BomwrightError } from '../../errors.js';
import { formatGithubFile, formatGithubSummary } from '../../format/github.js';
import { formatReports, totals, type FileReport, type OutputFormat } from '../../format/index.js';
import { formatTextFile, formatTextSummary } from '../../format/text.js';
import type { SignatureMode } from '../../validate/index.js';
import type { CheckSettings } from '../../node/check-file.js';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE } from '../exit-codes.js';
import { resolveInputs, STDIN } from '../../node/inputs.js';
import { loadTrustStore } from '../../node/key-files.js';
import { assertRevision, gitRoot, stagedJsonFiles } from '../../node/git.js';
import { displayPath, repositoryRoot } from '../../node/paths.js';
import { checkAll } from '../../node/pool.js';
import { createProgress } from '../progress.js';
import { writeFileAtomic } from '../../node/write.js';

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

export async function runValidate(options: ValidateCommandOptions): Promise<number> {
  if ([options.baseline, options.baseRef, options.staged || undefined].filter((o) => o !== undefined).length > 1) {
    throw new BomwrightError('E_USAGE', 'Use only one of --baseline, --base-ref and --staged');
  }
  const root = options.baseRef !== undefined || options.staged ? gitRoot(options.cwd) : undefined;
  if (options.baseRef !== undefined) assertRevision(options.baseRef, root!);
  // --staged checks exactly what is about to be committed: the staged BOM files, whatever the operands say.
  const inputs = options.staged
    ? stagedJsonFiles(root!).map((source) => ({ source, explicit: false }))
    : await resolveInputs(options.paths.length > 0 ? options.paths : ['.'], options.cwd);
  if (options.baseline !== undefined && inputs.length !== 1)
    throw new BomwrightError('E_USAGE', '--baseline compares one document; name exactly one file');
  // Trust material is checked up front, so a bad --trust path is one usage error, not one per file.
  const trust = loadTrustStore(options.trustPaths, options.trustRootPaths);
  const settings: CheckSettings = {
    ...(options.specVersion ? { specVersion: options.specVersion } : {}),
    signatures: options.signatures,
    maxSize: options.maxSize,
    trustPaths: options.trustPaths,
    trustRootPaths: options.trustRootPaths,
    requireTrusted: options.requireTrusted,
    allowExcludes: options.allowExcludes,
    ...(options.baseline !== undefined ? { versionRule: { mode: 'file' as const, baseline: options.baseline } } : {}),
    ...(options.baseRef !== undefined
      ? { versionRule: { mode: 'ref' as const, ref: options.baseRef, root: root! } }
      : {}),
    ...(options.staged ? { versionRule: { mode: 'staged' as const, root: root! } } : {}),
  };
  const repoRoot = repositoryRoot(options.cwd);
  const reportOptions = { quiet: options.quiet, toolVersion: options.toolVersion };
  const streaming = STREAMED.has(options.format) && options.output === undefined;
  const progress = createProgress({
    total: inputs.length,
    ...(options.progress === undefined ? {} : { forced: options.progress }),
    quiet: options.quiet,
    env: options.terminal.env,
    stderr: options.terminal.stderr,
    stdoutIsTerminal: options.terminal.stdoutIsTerminal,
    stdout: options.stdout,
  });

  const reports: (FileReport | undefined)[] = new Array(inputs.length);
  let withErrors = 0;
  try {
    await checkAll(inputs, settings, trust, options.jobs, (index, outcome) => {
      const source = inputs[index]!.source;
      if (outcome.kind !== 'skipped') {
        const isStdin = source === STDIN;
        const report: FileReport = {
          path: isStdin ? '<stdin>' : displayPath(source, options.cwd),
          uri: isStdin ? '<stdin>' : displayPath(source, repoRoot),
          ...(outcome.kind === 'result' ? { result: outcome.result } : { failure: outcome.failure }),
        };
        reports[index] = report;
        if (report.failure !== undefined || (report.result && !report.result.valid)) withErrors++;
        if (streaming) {
          const lines =
            options.format === 'text' ? formatTextFile(report, reportOptions) : formatGithubFile(report, reportOptions);
          if (lines.length > 0) progress.print(lines.join('\n') + '\n');
        }
      }
      progress.tick(withErrors);
    });
  } finally {
    progress.stop();
  }
  const found = reports.filter((r): r is FileReport => r !== undefined);
  if (found.length === 0 && options.staged) {
    // A commit without BOM changes has nothing to check: the hook must let it through.
    if (!options.quiet) options.stdout('No staged BOM documents\n');
    return EXIT_OK;
  }
  if (found.length === 0) {
    // Directories or patterns without a single BOM: a CI job must not pass by validating nothing.
    throw new BomwrightError('E_NO_MATCH', `No BOM documents found in ${options.paths.join(' ') || '.'}`);
  }

  if (streaming) {
    options.stdout(options.format === 'text' ? formatTextSummary(found, reportOptions) : formatGithubSummary(found));
  } else {
    // Deterministic whatever the completion order: sorted by path.
    const sorted = [...found].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
    const text = formatReports(options.format, sorted, reportOptions);
    if (options.output) writeFileAtomic(options.output, text);
    else options.stdout(text);
  }

  const t = totals(found);
  if (t.failures > 0) return EXIT_USAGE;
  if (t.errors > 0) return EXIT_INVALID;
  if (options.maxWarnings !== undefined && t.warnings > options.maxWarnings) return EXIT_INVALID;
  return EXIT_OK;
}
