import { describeError, isBomwrightError } from '../errors.js';
import type { TrustStore } from '../jsf/trust.js';
import { RereadableSource, validate, type SignatureMode, type ValidationResult } from '../validate/index.js';
import { readFileSync, statSync } from 'node:fs';
import { bumpDue } from '../author/bump.js';
import { diffDocuments } from '../compare/diff.js';
import { locatePointers, offsetsToPositions } from '../json/locate.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { gitShow } from './git.js';
import { ioError, readDocumentText, readInput, STDIN } from './inputs.js';

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
  allowExcludes: string[];
  /** The version rule against a previous release: a baseline file, a git revision, or HEAD for staged files. */
  versionRule?:
    { mode: 'file'; baseline: string } | { mode: 'ref'; ref: string; root: string } | { mode: 'staged'; root: string };
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
      const staged = gitShow('', job.source, settings.versionRule.root);
      if (staged === undefined) return { kind: 'skipped' };
      if (!job.explicit && !staged.includes('"bomFormat"') && !staged.includes('"specVersion"'))
        return { kind: 'skipped' };
      const result = await validate(staged, validateOptions(settings, trust));
      return { kind: 'result', result: applyVersionRule(result, staged, job.source, settings) };
    }
    if (job.source === STDIN) {
      const { bytes, size } = await readInput(job.source, settings.maxSize);
      if (bytes === undefined) return { kind: 'result', result: tooLarge(size, settings.maxSize) };
      return { kind: 'result', result: await validate(bytes, validateOptions(settings, trust)) };
    }
    const size = fileSize(job.source);
    if (size > settings.maxSize) return { kind: 'result', result: tooLarge(size, settings.maxSize) };
    // The first read is handed over once; a second one (positions for diagnostics) goes back to the file.
    let first: ReturnType<typeof readDocumentText> | undefined = readDocumentText(job.source);
    if (!job.explicit && !first.looksLikeBom) return { kind: 'skipped' };
    const source = new RereadableSource(() => {
      const read = first ?? readDocumentText(job.source);
      first = undefined;
      return read.decoded;
    });
    const result = await validate(source, validateOptions(settings, trust));
    if (settings.versionRule === undefined) return { kind: 'result', result };
    return { kind: 'result', result: applyVersionRule(result, readFileSync(job.source, 'utf8'), job.source, settings) };
  } catch (error) {
    if (isBomwrightError(error) && error.code === 'E_READ') return { kind: 'failure', failure: describeError(error) };
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

/**
 * The version rule (spec: "increment by 1 when the document is modified"): compared with its previous release,
 * a changed document keeps its serialNumber and has version + 1; an unchanged one keeps its version. A file
 * without a previous release (new, or not valid JSON there) has nothing to compare with.
 */
function applyVersionRule(
  result: ValidationResult,
  currentText: string,
  file: string,
  settings: CheckSettings,
): ValidationResult {
  const rule = settings.versionRule!;
  const baselineText =
    rule.mode === 'file'
      ? readFileSync(rule.baseline, 'utf8')
      : gitShow(rule.mode === 'ref' ? rule.ref : 'HEAD', file, rule.root);
  if (baselineText === undefined) return result;
  let baseline: unknown;
  let current: unknown;
  try {
    baseline = JSON.parse(baselineText);
    current = JSON.parse(currentText);
  } catch {
    return result;
  }
  const verdict = bumpDue(baseline, current);
  if (!verdict.due) return result;
  const what = changeSummary(baseline, current);
  const offset = locatePointers(currentText, ['/version']).get('/version') ?? 0;
  const position = offsetsToPositions(currentText, [offset]).get(offset);
  const diagnostic: Diagnostic = {
    ruleId: 'bom/version-rule',
    severity: 'error',
    message: `${verdict.reason.replace(' (run: bomwright bump FILE)', '')}${what ? ` [changed: ${what}]` : ''} (compared with ${rule.mode === 'file' ? rule.baseline : rule.mode === 'ref' ? rule.ref : 'HEAD'}; fix: bomwright bump ${file})`,
    pointer: '/version',
    ...position,
  };
  return { ...result, diagnostics: [...result.diagnostics, diagnostic], errors: result.errors + 1, valid: false };
}

/** What changed, from `diff`, in a few words: "2 components added, 1 changed, metadata.supplier". */
function changeSummary(baseline: unknown, current: unknown): string {
  let diff: ReturnType<typeof diffDocuments>;
  try {
    diff = diffDocuments(baseline, current);
  } catch {
    return '';
  }
  const parts: string[] = [];
  for (const kind of ['components', 'services'] as const) {
    const d = diff[kind];
    const counts = [
      ['added', d.added.length],
      ['removed', d.removed.length],
      ['changed', d.changed.length],
    ].filter(([, n]) => n !== 0);
    if (counts.length > 0)
      parts.push(`${kind}: ${counts.map(([label, n]) => `${String(n)} ${String(label)}`).join(', ')}`);
  }
  const deps = diff.dependencies.added.length + diff.dependencies.removed.length + diff.dependencies.changed.length;
  if (deps > 0) parts.push(`${deps} dependency entr${deps === 1 ? 'y' : 'ies'}`);
  parts.push(...diff.metadata.members.filter((m) => m !== 'timestamp').map((m) => `metadata.${m}`));
  parts.push(...diff.document.map((c) => c.path).filter((p) => !['/version', '/serialNumber'].includes(p)));
  return parts.join('; ');
}

function validateOptions(settings: CheckSettings, trust: TrustStore) {
  return {
    ...(settings.specVersion ? { specVersion: settings.specVersion } : {}),
    signatures: settings.signatures,
    maxSize: settings.maxSize,
    trust,
    requireTrusted: settings.requireTrusted,
    allowExcludes: settings.allowExcludes,
  };
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch (error) {
    throw ioError(file, error);
  }
}

function tooLarge(size: number, maxSize: number): ValidationResult {
  return {
    diagnostics: [
      {
        ruleId: 'read/too-large',
        severity: 'error',
        message: `The file is ${size} bytes, over the --max-size limit of ${maxSize} bytes`,
        pointer: '',
      },
    ],
    errors: 1,
    warnings: 0,
    valid: false,
  };
}
