/**
 * Validating files: operands (files, directories, glob patterns, `-`) or the staged files of a git index →
 * one report per BOM, checked in a pool of worker threads. The CLI's `validate`, the GitHub Action and library
 * users share it; each then formats the reports its own way.
 */
import { BomwrightError } from '../errors.js';
import { compareUri, type FileReport } from '../format/report.js';
import type { SignatureMode } from '../validate/index.js';
import type { CheckJob, CheckSettings } from './check-file.js';
import type { Profile } from '../validate/profiles/model.js';
import { gitRoot, headCommit, previousPaths, resolveCommit, stagedJsonFiles } from './git.js';
import { resolveInputs, STDIN } from './discover.js';
import { loadTrustStore } from './keys.js';
import { displayPath, repositoryRoot } from './paths.js';
import { checkAll, defaultJobs } from './pool.js';
import { shardOf, type Shard } from './shard.js';

/** The version rule's baseline: a previous release's file, each file at a git revision, or HEAD for the index. */
export type VersionRuleSource = { baseline: string } | { baseRef: string } | { staged: true };

export interface ValidateFilesOptions {
  /** Where relative operands start and reports' paths are relative to (default: the process's). */
  cwd?: string;
  /** Validate against this specVersion whatever the documents say. */
  specVersion?: string;
  signatures?: SignatureMode;
  /** Byte limit per document (default 512 MiB). */
  maxSize?: number;
  /** Trusted keys, certificates or folders of them. */
  trustPaths?: readonly string[];
  /** Root certificates that certificatePath must chain to. */
  trustRootPaths?: readonly string[];
  requireTrusted?: boolean;
  /** Signatures that cannot be checked are warnings instead of errors. */
  allowUnverifiable?: boolean;
  allowExcludes?: readonly string[];
  /** Documents checked at once, in worker threads (default: the number of cores). */
  jobs?: number;
  versionRule?: VersionRuleSource;
  /** Also compute each result's `details` (signatures, version verdict, dependency graph), as the html report needs. */
  details?: boolean;
  /** Compliance profiles and policies to check each document against (see loadProfiles). */
  profiles?: readonly Profile[];
  /**
   * Check only the documents that fall to shard `index` of `count` (by their report uri, see shard.ts); the
   * others are not even read. A shard that no document falls to is not an error.
   */
  shard?: Shard;
  /**
   * Called once the inputs are known (absolute paths, `-` for standard input), before any is checked; `found`
   * also has the inputs of the other shards.
   */
  onStart?: (sources: readonly string[], found: readonly string[]) => void;
  /** Called as each input is done (in completion order); `report` is absent for skipped files (not BOMs). */
  onFile?: (report: FileReport | undefined) => void;
}

export interface ValidateFilesResult {
  /** One report per BOM, sorted by path. */
  reports: FileReport[];
  /** Worker threads used (0: checked in this thread). */
  workers: number;
}

const DEFAULT_MAX_SIZE = 512 * 1024 * 1024;

/**
 * Validates every BOM the operands name. A missing file or a pattern matching nothing is a usage error, and so
 * is finding no BOM at all (a CI job must not pass by validating nothing), except for staged files, where a
 * commit without BOM changes has nothing to check, and for a shard, which cannot know what the others found
 * (merge-reports refuses a run whose shards found nothing); a shard's operands must still name some file.
 */
export async function validateFiles(
  operands: readonly string[],
  options: ValidateFilesOptions = {},
): Promise<ValidateFilesResult> {
  const cwd = options.cwd ?? process.cwd();
  const rule = options.versionRule;
  const shard = options.shard;
  if (shard !== undefined) refuseShardWith(rule, operands);
  const root = rule !== undefined && !('baseline' in rule) ? gitRoot(cwd) : undefined;
  // --staged checks exactly what is about to be committed: the staged BOM files, whatever the operands say.
  const found =
    rule !== undefined && 'staged' in rule
      ? stagedJsonFiles(root!).map((source) => ({ source, explicit: false }))
      : await resolveInputs(operands.length > 0 ? operands : ['.'], cwd);
  const repoRoot = repositoryRoot(cwd);
  const uriOf = (source: string) => (source === STDIN ? '<stdin>' : displayPath(source, repoRoot));
  // Chosen by path before anything is read: a shard never reads the other shards' files.
  const inputs =
    shard === undefined ? found : found.filter((input) => shardOf(uriOf(input.source), shard.count) === shard.index);
  if (rule !== undefined && 'baseline' in rule && inputs.length !== 1)
    throw new BomwrightError('E_USAGE', '--baseline compares one document; name exactly one file');
  const trustPaths = [...(options.trustPaths ?? [])];
  const trustRootPaths = [...(options.trustRootPaths ?? [])];
  // Trust material is checked up front, so a bad path is one usage error, not one per file.
  const trust = loadTrustStore(trustPaths, trustRootPaths);
  const settings: CheckSettings = {
    ...(options.specVersion ? { specVersion: options.specVersion } : {}),
    signatures: options.signatures ?? 'verify',
    maxSize: options.maxSize ?? DEFAULT_MAX_SIZE,
    trustPaths,
    trustRootPaths,
    requireTrusted: options.requireTrusted ?? false,
    allowUnverifiable: options.allowUnverifiable ?? false,
    allowExcludes: [...(options.allowExcludes ?? [])],
    ...(options.details === true ? { details: true } : {}),
    ...(options.profiles === undefined || options.profiles.length === 0 ? {} : { profiles: [...options.profiles] }),
    ...(rule === undefined ? {} : { versionRule: versionRuleSettings(rule, root, inputs) }),
  };
  options.onStart?.(
    inputs.map((input) => input.source),
    found.map((input) => input.source),
  );
  const reports: FileReport[] = [];
  const { workers } = await checkAll(inputs, settings, trust, options.jobs ?? defaultJobs(), (index, outcome) => {
    if (outcome.kind === 'skipped') {
      options.onFile?.(undefined);
      return;
    }
    const source = inputs[index]!.source;
    const isStdin = source === STDIN;
    const report: FileReport = {
      path: isStdin ? '<stdin>' : displayPath(source, cwd),
      uri: uriOf(source),
      ...(outcome.kind === 'result' ? { result: outcome.result } : { failure: outcome.failure }),
    };
    reports.push(report);
    options.onFile?.(report);
  });
  const nothingFound = shard === undefined ? reports.length === 0 : found.length === 0;
  if (nothingFound && !(rule !== undefined && 'staged' in rule)) {
    throw new BomwrightError('E_NO_MATCH', `No BOM documents found in ${operands.join(' ') || '.'}`);
  }
  // Deterministic whatever the completion order.
  reports.sort((a, b) => compareUri(a.uri, b.uri));
  return { reports, workers };
}

/** Where the version rule's baselines come from; for a git revision, with where renamed files came from. */
function versionRuleSettings(
  rule: VersionRuleSource,
  root: string | undefined,
  inputs: readonly CheckJob[],
): NonNullable<CheckSettings['versionRule']> {
  if ('baseline' in rule) return { mode: 'file', baseline: rule.baseline };
  const staged = 'staged' in rule;
  const commit = staged ? headCommit(root!) : resolveCommit(rule.baseRef, root!);
  const files = inputs.map((input) => input.source).filter((source) => source !== STDIN);
  const previous = commit === undefined ? undefined : Object.fromEntries(previousPaths(commit, root!, staged, files));
  const renamed = previous === undefined || Object.keys(previous).length === 0 ? {} : { previous };
  return staged
    ? { mode: 'staged', head: commit, root: root!, ...renamed }
    : { mode: 'ref', commit: commit!, root: root!, ...renamed };
}

/** Sharding splits many files found on disk; the version rule's one baseline, the index and stdin are not that. */
function refuseShardWith(rule: VersionRuleSource | undefined, operands: readonly string[]): void {
  if (rule !== undefined && 'staged' in rule)
    throw new BomwrightError('E_USAGE', '--shard cannot be used with --staged: a pre-commit check is one process');
  if (rule !== undefined && 'baseline' in rule)
    throw new BomwrightError('E_USAGE', '--shard cannot be used with --baseline, which compares one document');
  if (operands.includes(STDIN))
    throw new BomwrightError('E_USAGE', '--shard cannot take standard input (-): it has no path to be placed by');
}
