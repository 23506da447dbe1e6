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
