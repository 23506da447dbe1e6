/**
 * The GitHub Action's entry (action.yml runs its committed bundle, action/dist/index.cjs). It reads the inputs
 * the runner passes as INPUT_* variables, validates with the same engine as the CLI (worker threads included:
 * the bundle is its own worker entry), and reports the GitHub way: annotations on the changed lines, outputs in
 * $GITHUB_OUTPUT, a summary table in $GITHUB_STEP_SUMMARY, a SARIF file for code scanning and, next to it, the html
 * report for people (to upload as an artifact; the summary links to the run's artifacts).
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { countBySeverity, type Diagnostic } from '../diagnostics/diagnostic.js';
import { BomwrightError, describeError, isBomwrightError } from '../errors.js';
import { formatGithubFile } from '../format/github.js';
import { GraphBudget } from '../format/html.js';
import { formatReports, totals } from '../format/index.js';
import { artifactsUrl, formatJobSummary, unannotatedNote, type Unannotated } from '../format/job-summary.js';
import { plural } from '../format/report.js';
import { neutralizeControls } from '../format/terminal.js';
import { changedLines, gitRoot, resolveCommit, type Commit } from '../node/git.js';
import { isPoolWorker, servePoolWorker } from '../node/pool-worker.js';
import { isXmlEngineThread, serveXmlEngine } from '../xml/engine-thread.js';
import { validateFiles } from '../node/validate-files.js';
import { loadProfiles } from '../node/profiles.js';
import { repositoryRoot } from '../node/paths.js';
import { parseShard, shardStamp } from '../node/shard.js';
import { writeFileAtomic } from '../node/write.js';
import { SIGNATURE_MODES, type SignatureMode } from '../validate/index.js';

type Env = NodeJS.ProcessEnv;

declare const __BOMWRIGHT_VERSION__: string | undefined;
const VERSION = typeof __BOMWRIGHT_VERSION__ === 'string' ? __BOMWRIGHT_VERSION__ : 'development';

const FAIL_ON = ['error', 'warning', 'never'] as const;
const BOOLEANS = ['true', 'false'] as const;

/** An input as the runner passes it (`INPUT_` + upper-cased name, hyphens kept). */
function input(env: Env, name: string, fallback = ''): string {
  return (env[`INPUT_${name.toUpperCase()}`] ?? '').trim() || fallback;
}

/** An input that must be one of `allowed`; anything else is a usage error naming them. */
function choice<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = input(env, name, fallback);
  if (!(allowed as readonly string[]).includes(value))
    throw new BomwrightError(
      'E_USAGE',
      `input ${name} must be ${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}, not ${JSON.stringify(value)}`,
    );
  return value as T;
}

function list(value: string): string[] {
  return value
    .split(/[\n ]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

export async function runAction(env: Env, cwd: string, stdout: (text: string) => void): Promise<number> {
  const workspace = env.GITHUB_WORKSPACE ?? cwd;
  const paths = list(input(env, 'paths', '.'));
  const failOn = choice(env, 'fail-on', FAIL_ON, 'error');
  const signatures: SignatureMode = choice(env, 'signatures', SIGNATURE_MODES, 'verify');
  const requireTrusted = choice(env, 'require-trusted', BOOLEANS, 'false') === 'true';
  const allowUnverifiable = choice(env, 'allow-unverifiable', BOOLEANS, 'false') === 'true';
  // On pull requests the base branch is the baseline of the version rule, unless base-ref says otherwise.
  const baseRef = input(env, 'base-ref', env.GITHUB_BASE_REF ? `origin/${env.GITHUB_BASE_REF}` : '');
  const root = baseRef ? gitRoot(workspace) : undefined;
  const base = baseRef ? baseCommit(baseRef, root!) : undefined;
  const trustPaths = list(input(env, 'trust')).map((p) => path.resolve(workspace, p));
  const sarifFile = input(env, 'sarif-file', 'bomwright.sarif');
  // The html report goes next to the SARIF file unless named.
  const htmlFile = input(env, 'html-file', path.join(path.dirname(sarifFile), 'bomwright.html'));
  const shardInput = input(env, 'shard');
  const shard = shardInput ? parseShard(shardInput, 'input shard') : undefined;
  // Built-in profile names, or profile files relative to the workspace.
  const profiles = loadProfiles(list(input(env, 'profile')), workspace);

  const graphs = new GraphBudget();
  const { reports, workers } = await validateFiles(paths, {
    cwd: workspace,
    signatures,
    trustPaths,
    requireTrusted,
    allowUnverifiable,
    ...(baseRef ? { versionRule: { baseRef } } : {}),
    details: true,
    ...(profiles.length === 0 ? {} : { profiles }),
    onFile: (report) => report && graphs.add(report),
    ...(shard === undefined ? {} : { shard }),
  });
  const repoRoot = repositoryRoot(workspace);
  // A shard's SARIF is stamped for `bomwright merge-reports`, with a digest of what shapes it.
  const stamp =
    shard === undefined
      ? undefined
      : shardStamp(shard, {
          cwd: workspace,
          operands: paths,
          settings: {
            action: true,
            signatures,
            trust: list(input(env, 'trust')),
            requireTrusted,
            allowUnverifiable,
            baseRef,
            profiles,
            toolVersion: VERSION,
          },
        });
  const options = {
    toolVersion: VERSION,
    ...(stamp === undefined ? {} : { shard: stamp }),
    ...(profiles.length === 0 ? {} : { profiles }),
  };
  const unannotated: Unannotated[] = [];
  for (const report of reports) {
    // Annotations only where the pull request changed something: the rest was there before.
    const changed = base ? changedLines(path.join(repoRoot, report.uri), base, repoRoot) : undefined;
    // The version rule speaks of the whole document, wherever its line is.
    const keep = (d: { line?: number; ruleId: string }) =>
      d.line === undefined || d.ruleId === 'bom/version-rule' || changed!.has(d.line);
    const shown =
      changed === undefined || report.result === undefined
        ? report
        : { ...report, result: { ...report.result, diagnostics: report.result.diagnostics.filter(keep) } };
    if (shown !== report)
      unannotated.push(
        leftOut(
          report.uri,
          report.result!.diagnostics.filter((d) => !keep(d)),
        ),
      );
    const lines = formatGithubFile(shown, options);
    if (lines.length > 0) stdout(lines.join('\n') + '\n');
  }
  const sarifPath = path.resolve(workspace, sarifFile);
  mkdirSync(path.dirname(sarifPath), { recursive: true });
  writeFileAtomic(sarifPath, formatReports('sarif', reports, options));
  const htmlPath = path.resolve(workspace, htmlFile);
  mkdirSync(path.dirname(htmlPath), { recursive: true });
  writeFileAtomic(htmlPath, formatReports('html', reports, options));
  const t = totals(reports);
  if (env.GITHUB_OUTPUT)
    appendFileSync(
      env.GITHUB_OUTPUT,
      `errors=${t.errors}\nwarnings=${t.warnings}\nsarif-file=${sarifPath}\nhtml-file=${htmlPath}\n`,
    );
  if (env.GITHUB_STEP_SUMMARY) {
    const link = artifactsUrl(env);
    const shown = path.relative(workspace, htmlPath).split(path.sep).join('/');
    appendFileSync(
      env.GITHUB_STEP_SUMMARY,
      formatJobSummary(reports, { file: shown, ...(link === undefined ? {} : { artifactsUrl: link }) }, unannotated),
    );
  }
  const threads = workers > 0 ? ` (${plural(workers, 'worker thread')})` : '';
  // Files that could not be checked at all are said as such: they fail the run too.
  const unchecked = t.failures > 0 ? `, ${t.failures} not checked (see above)` : '';
  const share = shard === undefined ? '' : ` (shard ${shard.index}/${shard.count})`;
  const htmlShown = path.relative(workspace, htmlPath);
  stdout(
    `bomwright: ${plural(t.errors, 'error')}, ${plural(t.warnings, 'warning')} in ${plural(t.files, 'document')}${share}${unchecked}${threads}; SARIF: ${sarifFile}; html: ${htmlShown}\n`,
  );
  const note = unannotatedNote(unannotated, `the SARIF (${sarifFile}) or html (${htmlShown}) report`);
  if (note !== undefined)
    stdout([`bomwright: ${note.headline}`, ...note.documents.map((d) => `  ${d}`)].join('\n') + '\n');
  if (failOn === 'never') return 0;
  if (t.errors > 0 || t.failures > 0) return 1;
  return failOn === 'warning' && t.warnings > 0 ? 1 : 0;
}

/**
 * The base of a pull request. actions/checkout fetches one commit unless told otherwise, so a missing base is
 * almost always a shallow checkout: say how to fix it.
 */
function baseCommit(baseRef: string, root: string): Commit {
  try {
    return resolveCommit(baseRef, root);
  } catch (error) {
    if (!isBomwrightError(error)) throw error;
    throw new BomwrightError(
      'E_USAGE',
      `The base revision ${JSON.stringify(baseRef)} is not in this checkout: check out with fetch-depth: 0 (actions/checkout) so the base branch is there, or set base-ref`,
    );
  }
}

/** The findings a pull request's annotations leave out, counted, with their lines. */
function leftOut(uri: string, diagnostics: readonly Diagnostic[]): Unannotated {
  const lines = [...new Set(diagnostics.flatMap((d) => (d.line === undefined ? [] : [d.line])))].sort((a, b) => a - b);
  return {
    uri,
    ...countBySeverity(diagnostics),
    lines,
  };
}

/**
 * The pre-commit hook (`bomwright-validate`): `bomwright validate --staged` from this same committed bundle, so
 * pre-commit installs nothing (its `script` language runs action/pre-commit.cjs from the clone). It takes the
 * options a hook's `args:` would give validate; the report is validate's text report, the exit code validate's.
 */
export async function runPreCommit(
  args: readonly string[],
  cwd: string,
  stdout: (text: string) => void,
): Promise<number> {
  let parsed: ReturnType<typeof parseHookArgs>;
  try {
    parsed = parseHookArgs(args);
  } catch (error) {
    // node:util's messages name the option; ours is one line with a stable code.
    throw new BomwrightError('E_USAGE', `${(error as Error).message}; the hook takes ${HOOK_OPTIONS_TEXT}`);
  }
  const { values } = parsed;
  const signatures = values.signatures ?? 'verify';
  if (!(SIGNATURE_MODES as readonly string[]).includes(signatures))
    throw new BomwrightError(
      'E_USAGE',
      `--signatures must be ${SIGNATURE_MODES.join(', ')}, not ${JSON.stringify(signatures)}`,
    );
  const maxWarnings = values['max-warnings'] === undefined ? undefined : Number(values['max-warnings']);
  if (maxWarnings !== undefined && !(Number.isSafeInteger(maxWarnings) && maxWarnings >= 0))
    throw new BomwrightError(
      'E_USAGE',
      `--max-warnings must be a whole number from 0, not ${JSON.stringify(values['max-warnings'])}`,
    );
  const profiles = loadProfiles(values.profile ?? [], cwd);
  const { reports } = await validateFiles([], {
    cwd,
    versionRule: { staged: true },
    signatures: signatures as SignatureMode,
    trustPaths: (values.trust ?? []).map((p) => path.resolve(cwd, p)),
    trustRootPaths: (values['trust-root'] ?? []).map((p) => path.resolve(cwd, p)),
    requireTrusted: values['require-trusted'] === true,
    allowUnverifiable: values['allow-unverifiable'] === true,
    ...(profiles.length === 0 ? {} : { profiles }),
  });
  if (reports.length === 0) {
    stdout('No staged BOM documents\n');
    return 0;
  }
  stdout(
    formatReports('text', reports, {
      toolVersion: VERSION,
      ...(maxWarnings === undefined ? {} : { maxWarnings }),
      ...(profiles.length === 0 ? {} : { profiles }),
    }),
  );
  const t = totals(reports);
  if (t.failures > 0) return 2;
  if (t.errors > 0) return 1;
  return maxWarnings !== undefined && t.warnings > maxWarnings ? 1 : 0;
}

const HOOK_OPTIONS = {
  trust: { type: 'string', multiple: true },
  'trust-root': { type: 'string', multiple: true },
  'require-trusted': { type: 'boolean' },
  'allow-unverifiable': { type: 'boolean' },
  signatures: { type: 'string' },
  profile: { type: 'string', multiple: true },
  'max-warnings': { type: 'string' },
} as const;
const HOOK_OPTIONS_TEXT = Object.keys(HOOK_OPTIONS)
  .map((name) => `--${name}`)
  .join(', ');

function parseHookArgs(args: readonly string[]) {
  return parseArgs({ args: [...args], options: HOOK_OPTIONS, strict: true, allowPositionals: false });
}

/** One annotation line for the run's failure; exit 2, as for the CLI. */
function fail(error: unknown): void {
  process.stdout.write(
    `::error title=bomwright::${describeError(error).replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A')}\n`,
  );
  process.exitCode = 2;
}

// The bundle is also the pool's and the XML engine's worker entry; otherwise it runs when executed by the runner (not when imported).
if (isPoolWorker()) {
  servePoolWorker();
} else if (isXmlEngineThread()) {
  serveXmlEngine();
} else if (process.argv[1] !== undefined && /[\\/](?:index\.cjs|main\.js)$/.test(process.argv[1])) {
  // Workflow logs render escape sequences: document text must not recolour or rewrite them.
  runAction(process.env, process.cwd(), (text) => process.stdout.write(neutralizeControls(text))).then(
    (code) => (process.exitCode = code),
    fail,
  );
}
