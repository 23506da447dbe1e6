/**
 * The GitHub Action's entry (action.yml runs it). It reads the INPUT_* variables the runner sets, validates
 * with the same engine as the CLI, and reports the GitHub way: annotations on the changed lines, outputs in
 * $GITHUB_OUTPUT, a summary table in $GITHUB_STEP_SUMMARY, and a SARIF file for code scanning.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { checkAll, defaultJobs } from '../node/pool.js';
import type { CheckSettings } from '../node/check-file.js';
import { changedLines, gitRoot, resolveCommit } from '../node/git.js';
import { resolveInputs } from '../node/discover.js';
import { loadTrustStore } from '../node/keys.js';
import { displayPath, repositoryRoot } from '../node/paths.js';
import { writeFileAtomic } from '../node/write.js';
import { describeError } from '../errors.js';
import { formatGithubFile } from '../format/github.js';
import { formatReports, totals, type FileReport } from '../format/index.js';
import type { SignatureMode } from '../validate/index.js';

type Env = NodeJS.ProcessEnv;

/** An input as the runner passes it (`INPUT_` + upper-cased name, hyphens kept). */
function input(env: Env, name: string, fallback = ''): string {
  return (env[`INPUT_${name.toUpperCase()}`] ?? '').trim() || fallback;
}

function list(value: string): string[] {
  return value
    .split(/[\n ]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function summaryTable(reports: readonly FileReport[]): string {
  const t = totals(reports);
  const rows = reports.map((r) => {
    const verdict = r.failure !== undefined ? '⚠️ unreadable' : r.result?.valid ? '✅ valid' : '❌ invalid';
    return `| \`${r.uri}\` | ${r.result?.formatId ?? ''} | ${verdict} | ${r.result?.errors ?? 0} | ${r.result?.warnings ?? 0} |`;
  });
  return [
    '### bomwright',
    '',
    `${t.files} document${t.files === 1 ? '' : 's'}: ${t.errors} error${t.errors === 1 ? '' : 's'}, ${t.warnings} warning${t.warnings === 1 ? '' : 's'}`,
    '',
    '| document | format | verdict | errors | warnings |',
    '|---|---|---|--:|--:|',
    ...rows,
    '',
  ].join('\n');
}

export async function runAction(env: Env, cwd: string, stdout: (text: string) => void): Promise<number> {
  const workspace = env.GITHUB_WORKSPACE ?? cwd;
  const paths = list(input(env, 'paths', '.'));
  const failOn = input(env, 'fail-on', 'error');
  if (!['error', 'warning', 'never'].includes(failOn))
    throw new Error(`fail-on must be error, warning or never, not ${JSON.stringify(failOn)}`);
  // On pull requests the base branch is the baseline of the version rule, unless base-ref says otherwise.
  const baseRef = input(env, 'base-ref', env.GITHUB_BASE_REF ? `origin/${env.GITHUB_BASE_REF}` : '');
  const root = baseRef ? gitRoot(workspace) : undefined;
  const base = baseRef ? resolveCommit(baseRef, root!) : undefined;
  const trustPaths = list(input(env, 'trust')).map((p) => path.resolve(workspace, p));
  const settings: CheckSettings = {
    signatures: input(env, 'signatures', 'verify') as SignatureMode,
    maxSize: 512 * 1024 * 1024,
    trustPaths,
    trustRootPaths: [],
    requireTrusted: false,
    allowExcludes: [],
    ...(base ? { versionRule: { mode: 'ref' as const, commit: base, root: root! } } : {}),
  };
  const trust = loadTrustStore(trustPaths, []);
  const inputs = await resolveInputs(paths, workspace);
  const repoRoot = repositoryRoot(workspace);
  const reports: FileReport[] = [];
  await checkAll(inputs, settings, trust, defaultJobs(), (index, outcome) => {
    if (outcome.kind === 'skipped') return;
    const source = inputs[index]!.source;
    reports.push({
      path: displayPath(source, workspace),
      uri: displayPath(source, repoRoot),
      ...(outcome.kind === 'result' ? { result: outcome.result } : { failure: outcome.failure }),
    });
  });
  reports.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));

  const options = { toolVersion: env.BOMWRIGHT_VERSION ?? 'action' };
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
    const lines = formatGithubFile(shown, options);
    if (lines.length > 0) stdout(lines.join('\n') + '\n');
  }
  const sarifFile = input(env, 'sarif-file', 'bomwright.sarif');
  const sarifPath = path.resolve(workspace, sarifFile);
  mkdirSync(path.dirname(sarifPath), { recursive: true });
  writeFileAtomic(sarifPath, formatReports('sarif', reports, options));
  const t = totals(reports);
  if (env.GITHUB_OUTPUT)
    appendFileSync(env.GITHUB_OUTPUT, `errors=${t.errors}\nwarnings=${t.warnings}\nsarif-file=${sarifPath}\n`);
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, summaryTable(reports));
  stdout(`bomwright: ${t.errors} errors, ${t.warnings} warnings in ${t.files} documents; SARIF: ${sarifFile}\n`);
  if (failOn === 'never') return 0;
  if (t.errors > 0 || t.failures > 0) return 1;
  return failOn === 'warning' && t.warnings > 0 ? 1 : 0;
}

// Run when executed by the runner (not when imported by tests).
if (
  process.argv[1] !== undefined &&
  path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)
) {
  runAction(process.env, process.cwd(), (text) => process.stdout.write(text)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stdout.write(
        `::error title=bomwright::${describeError(error).replaceAll('%', '%25').replaceAll('\n', '%0A')}\n`,
      );
      process.exitCode = 2;
    },
  );
}
