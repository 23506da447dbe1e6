/**
 * `validate --shard I/N`: which documents fall to shard I of N, so that N CI jobs check every document once.
 *
 * A document's shard is a function of its report `uri` alone (its path relative to the repository root, with
 * forward slashes): take the SHA-256 of the uri's UTF-8 bytes, read the first 6 bytes as an unsigned big-endian
 * integer h, and the shard is (h mod N) + 1. So the assignment is the same on every machine, for every spelling
 * of the operands and the working directory, and whatever other files exist: adding a file places that file and
 * moves no other. For example, with Python: `int(hashlib.sha256(uri.encode()).hexdigest()[:12], 16) % N + 1`.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { BomwrightError } from '../errors.js';
import { MAX_SHARDS, type ShardStamp } from '../format/report.js';
import { repositoryRoot, toPosix } from './paths.js';

/** Shard `index` of `count`, 1-based. */
export interface Shard {
  index: number;
  count: number;
}

/** `I/N` with 1 ≤ I ≤ N; `what` names the option or input in the one-line usage error. */
export function parseShard(text: string, what = '--shard'): Shard {
  // At most six digits: N ≤ MAX_SHARDS.
  const match = /^([1-9]\d{0,5})\/([1-9]\d{0,5})$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || index > count)
    throw new BomwrightError(
      'E_USAGE',
      `${what} must be I/N, shard I of N with 1 ≤ I ≤ N ≤ ${MAX_SHARDS} (e.g. 2/4), not ${JSON.stringify(text)}`,
    );
  return { index, count };
}

/** A CI system's variables for a parallel job's position: `base` is the index of the first job (0 or 1). */
interface ShardSource {
  system: string;
  index: string;
  total: string | undefined;
  base: 0 | 1;
}

/**
 * The systems `--shard auto` reads, as their documentation defines them. A Kubernetes Indexed Job has no variable
 * for the number of indexes (the Job's `completions`), so the user gives it: `--shard auto/N`.
 */
const SHARD_SOURCES: readonly ShardSource[] = [
  { system: 'GitLab CI', index: 'CI_NODE_INDEX', total: 'CI_NODE_TOTAL', base: 1 },
  { system: 'CircleCI', index: 'CIRCLE_NODE_INDEX', total: 'CIRCLE_NODE_TOTAL', base: 0 },
  { system: 'Buildkite', index: 'BUILDKITE_PARALLEL_JOB', total: 'BUILDKITE_PARALLEL_JOB_COUNT', base: 0 },
  { system: 'a Kubernetes Indexed Job', index: 'JOB_COMPLETION_INDEX', total: undefined, base: 0 },
];

/** An environment value in a message: quoted, and cut short, as the environment is not ours. */
function shown(value: string | undefined): string {
  const text = value ?? '';
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/** A whole number written in plain decimal digits (no sign, no exponent), or undefined. */
function wholeNumber(text: string | undefined): number | undefined {
  return text !== undefined && /^\d{1,6}$/.test(text) ? Number(text) : undefined;
}

/**
 * `--shard I/N`, or `auto` / `auto/N`: the job's position read from the environment of the CI system it runs in
 * (SHARD_SOURCES). With `auto/N`, N is the number of jobs: required for a Kubernetes Indexed Job, and checked
 * against the system's own total for the others. Every refusal is one line that names the variables.
 */
export function resolveShard(text: string, env: Readonly<Record<string, string | undefined>>, what = '--shard'): Shard {
  const auto = /^auto(?:\/(.*))?$/.exec(text);
  if (auto === null) return parseShard(text, what);
  let given: number | undefined;
  if (auto[1] !== undefined) {
    given = wholeNumber(auto[1]);
    if (given === undefined || given < 1 || given > MAX_SHARDS)
      throw new BomwrightError(
        'E_USAGE',
        `${what} auto/N needs N, the number of jobs, from 1 to ${MAX_SHARDS}, not ${shown(auto[1])}`,
      );
  }
  const found = SHARD_SOURCES.filter((source) => env[source.index] !== undefined && env[source.index] !== '');
  if (found.length === 0)
    throw new BomwrightError(
      'E_USAGE',
      `${what} ${text} found no parallel job in the environment (it reads ${SHARD_SOURCES.map((source) =>
        source.total === undefined ? source.index : `${source.index}/${source.total}`,
      ).join(', ')}): give ${what} I/N`,
    );
  if (found.length > 1)
    throw new BomwrightError(
      'E_USAGE',
      `${what} ${text} is ambiguous: ${found.map((source) => source.index).join(' and ')} are both set: give ${what} I/N`,
    );
  const source = found[0]!;
  const rawIndex = env[source.index];
  const position = wholeNumber(rawIndex);
  const rawTotal = source.total === undefined ? undefined : env[source.total];
  const total = source.total === undefined ? given : wholeNumber(rawTotal);
  if (total === undefined || total < 1 || total > MAX_SHARDS)
    throw new BomwrightError(
      'E_USAGE',
      source.total === undefined
        ? `${what} ${text}: ${source.index} is set (${source.system}) but the number of jobs is not: give ${what} auto/N, N = the Job's completions`
        : `${what} ${text}: ${source.total} (${source.system}) must be a whole number from 1 to ${MAX_SHARDS}, not ${shown(rawTotal)}`,
    );
  if (given !== undefined && given !== total)
    throw new BomwrightError('E_USAGE', `${what} ${text} disagrees with ${source.total} = ${total} (${source.system})`);
  const index = position === undefined ? undefined : position - source.base + 1;
  if (index === undefined || index < 1 || index > total)
    throw new BomwrightError(
      'E_USAGE',
      `${what} ${text}: ${source.index} (${source.system}, counted from ${source.base}) must be a whole number from ${source.base} to ${total - 1 + source.base}, not ${shown(rawIndex)}`,
    );
  return { index, count: total };
}

/** The shard (1 to count) a document falls to, from its report uri: see the module's comment. */
export function shardOf(uri: string, count: number): number {
  const digest = createHash('sha256').update(uri).digest();
  return (digest.readUIntBE(0, 6) % count) + 1;
}

/**
 * The stamp a shard's report carries: the shard, and a digest of the run's settings (the working directory
 * relative to the repository, the operands and whatever options shape the report, as the caller lists them), so
 * that merge-reports can tell the shards of one run from those of another. Machine-independent, like shardOf.
 */
export function shardStamp(
  shard: Shard,
  run: { cwd: string; operands: readonly string[]; settings: Readonly<Record<string, unknown>> },
): ShardStamp {
  const where = toPosix(path.relative(repositoryRoot(run.cwd), path.resolve(run.cwd)));
  const digest = createHash('sha256')
    .update(JSON.stringify([where, run.operands, run.settings]))
    .digest('hex');
  return { index: shard.index, count: shard.count, settings: digest.slice(0, 16) };
}
