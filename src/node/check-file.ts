import { describeError, isBomwrightError } from '../errors.js';
import type { TrustStore } from '../jsf/trust.js';
import type { Profile } from '../validate/profiles/model.js';
import {
  RereadableSource,
  tooLargeResult,
  validate,
  type SignatureMode,
  type ValidateOptions,
  type ValidationResult,
} from '../validate/index.js';
import { statSync } from 'node:fs';
import path from 'node:path';
import { loadBaselineFile } from './documents.js';
import { gitShow, type Commit } from './git.js';
import { STDIN } from './discover.js';
import { ioError, looksLikeBom, readDocumentText, readInput } from './files.js';

/** One input to check: an absolute path (or `-`), and whether it was named rather than found. */
export interface CheckJob {
  source: string;
  explicit: boolean;
}

/** Everything a worker thread needs to check files the way the main thread would: plain data only. */
export interface CheckSettings {
  specVersion?: string;
  signatures: SignatureMode;
  maxSize: number;
  trustPaths: string[];
  trustRootPaths: string[];
  requireTrusted: boolean;
  allowUnverifiable?: boolean;
  allowExcludes: string[];
  /** Also compute each result's details (signatures, version verdict, dependency graph) for rich reports. */
  details?: boolean;
  /** Profiles to check, resolved (their `extends` applied) in the main thread. */
  profiles?: Profile[];
  /** The version rule against a previous release: a baseline file, a git revision, or HEAD for staged files. */
  versionRule?:
    | { mode: 'file'; baseline: string }
    | { mode: 'ref'; commit: Commit; root: string; previous?: Record<string, string> }
    | { mode: 'staged'; head: Commit | undefined; root: string; previous?: Record<string, string> };
}

export type CheckOutcome =
  { kind: 'skipped' } | { kind: 'result'; result: ValidationResult } | { kind: 'failure'; failure: string };

/**
 * Reads and validates one file. Per-file problems never throw: an unreadable file is a `failure` (exit 2), a
 * file found by searching that is not a BOM is `skipped`, everything else is a result.
 */
export async function checkFile(job: CheckJob, settings: CheckSettings, trust: TrustStore): Promise<CheckOutcome> {
  try {
    if (settings.versionRule?.mode === 'staged') {
      // Pre-commit: what is about to be committed (the index), not the working tree.
      const staged = gitShow('index', job.source, settings.versionRule.root);
      if (staged === undefined) return { kind: 'skipped' };
      if (!job.explicit && !looksLikeBom(staged)) return { kind: 'skipped' };
      return { kind: 'result', result: await validate(staged, validateOptions(settings, trust, job.source)) };
    }
    if (job.source === STDIN) {
      const { bytes, size } = await readInput(job.source, settings.maxSize);
      if (bytes === undefined) return { kind: 'result', result: tooLargeResult(size, settings.maxSize) };
      return { kind: 'result', result: await validate(bytes, validateOptions(settings, trust)) };
    }
    const size = fileSize(job.source);
    if (size > settings.maxSize) return { kind: 'result', result: tooLargeResult(size, settings.maxSize) };
    // The first read is handed over once; a second one (positions for diagnostics) goes back to the file.
    let first: ReturnType<typeof readDocumentText> | undefined = readDocumentText(job.source, settings.maxSize);
    if (!job.explicit && !first.looksLikeBom) return { kind: 'skipped' };
    const source = new RereadableSource(() => {
      const read = first ?? readDocumentText(job.source, settings.maxSize);
      first = undefined;
      return read.decoded;
    });
    return { kind: 'result', result: await validate(source, validateOptions(settings, trust, job.source)) };
  } catch (error) {
    if (isBomwrightError(error) && (error.code === 'E_READ' || error.code === 'E_NOT_FOUND'))
      return { kind: 'failure', failure: describeError(error) };
    // Anything else is a bug or an environment problem; it fails this file, not the run.
    return {
      kind: 'failure',
      failure: describeError(
        isBomwrightError(error)
          ? error
          : new Error(`internal failure on this file: ${(error as Error)?.message ?? String(error)}`),
      ),
    };
  }
}

function validateOptions(settings: CheckSettings, trust: TrustStore, file?: string): ValidateOptions {
  const baseline = file === undefined ? undefined : fetchBaseline(file, settings);
  return {
    ...(baseline === undefined ? {} : { baseline }),
    ...(settings.specVersion ? { specVersion: settings.specVersion } : {}),
    signatures: settings.signatures,
    maxSize: settings.maxSize,
    trust,
    requireTrusted: settings.requireTrusted,
    allowUnverifiable: settings.allowUnverifiable === true,
    allowExcludes: settings.allowExcludes,
    ...(settings.details === true ? { details: true } : {}),
    ...(settings.profiles === undefined ? {} : { profiles: settings.profiles }),
  };
}

/**
 * The previous release of `file` for the version rule: the baseline file, the file at a git revision, or at HEAD
 * for staged files. Undefined when there is none (a new file).
 */
function fetchBaseline(file: string, settings: CheckSettings): ValidateOptions['baseline'] {
  const rule = settings.versionRule;
  if (rule === undefined) return undefined;
  if (rule.mode === 'file')
    return { document: loadBaselineFile(rule.baseline), name: rule.baseline, adoptWith: `--baseline ${rule.baseline}` };
  const commit = rule.mode === 'ref' ? rule.commit : rule.head;
  // A repository without commits: every staged file is new.
  if (commit === undefined) return undefined;
  // A renamed file is compared with where it came from (git's rename detection, or its serial number).
  const from = rule.previous?.[file];
  const text = gitShow(commit, from ?? file, rule.root);
  if (text === undefined) return undefined;
  const name =
    from === undefined ? commit.name : `${commit.name}:${path.relative(rule.root, from).split(path.sep).join('/')}`;
  return { document: text, name, adoptWith: `--base-ref ${commit.name}` };
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch (error) {
    throw ioError(file, error);
  }
}
