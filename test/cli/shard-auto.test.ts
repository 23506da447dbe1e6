/**
 * `validate --shard auto`: the job's position from the CI system's environment, each system with its own base
 * (GitLab counts from 1; CircleCI, Buildkite and Kubernetes Indexed Jobs from 0), and one-line refusals.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { minimalBom, runCli, tempDirs } from '../helpers.js';

const temp = tempDirs('bomwright-shard-auto-');

/** Every variable `auto` reads, unset, so that the CI running these tests cannot leak its own into them. */
const CLEAN: NodeJS.ProcessEnv = {
  CI_NODE_INDEX: undefined,
  CI_NODE_TOTAL: undefined,
  CIRCLE_NODE_INDEX: undefined,
  CIRCLE_NODE_TOTAL: undefined,
  BUILDKITE_PARALLEL_JOB: undefined,
  BUILDKITE_PARALLEL_JOB_COUNT: undefined,
  JOB_COMPLETION_INDEX: undefined,
};

let dir = '';
beforeAll(() => {
  dir = temp();
  mkdirSync(path.join(dir, '.git'));
  mkdirSync(path.join(dir, 'sboms'));
  for (let i = 0; i < 12; i++) writeFileSync(path.join(dir, `sboms/bom-${i}.json`), JSON.stringify(minimalBom('1.6')));
});

async function shard(spec: string, env: NodeJS.ProcessEnv) {
  const run = await runCli(['validate', 'sboms', '--shard', spec, '-f', 'json'], {
    cwd: dir,
    env: { ...CLEAN, ...env },
  });
  return run;
}

async function paths(spec: string, env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const run = await shard(spec, env);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const report = JSON.parse(run.stdout) as { shard: { index: number; count: number }; documents: { path: string }[] };
  return [`${report.shard.index}/${report.shard.count}`, ...report.documents.map((document) => document.path)];
}

async function refusal(spec: string, env: NodeJS.ProcessEnv): Promise<string> {
  const run = await shard(spec, env);
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  // The message is the first line (usage errors may add a pointer to --help).
  return run.stderr.split('\n')[0]!;
}

describe('validate --shard auto', () => {
  it('reads GitLab (from 1), CircleCI, Buildkite and an Indexed Job (from 0) at both ends of the range', async () => {
    const expected = {
      first: await paths('1/3'),
      last: await paths('3/3'),
    };
    expect(expected.first[0]).toBe('1/3');
    expect(expected.last[0]).toBe('3/3');
    expect(expected.first.length + expected.last.length).toBeGreaterThan(2);

    expect(await paths('auto', { CI_NODE_INDEX: '1', CI_NODE_TOTAL: '3' })).toEqual(expected.first);
    expect(await paths('auto', { CI_NODE_INDEX: '3', CI_NODE_TOTAL: '3' })).toEqual(expected.last);
    expect(await paths('auto', { CIRCLE_NODE_INDEX: '0', CIRCLE_NODE_TOTAL: '3' })).toEqual(expected.first);
    expect(await paths('auto', { CIRCLE_NODE_INDEX: '2', CIRCLE_NODE_TOTAL: '3' })).toEqual(expected.last);
    expect(await paths('auto', { BUILDKITE_PARALLEL_JOB: '0', BUILDKITE_PARALLEL_JOB_COUNT: '3' })).toEqual(
      expected.first,
    );
    expect(await paths('auto', { BUILDKITE_PARALLEL_JOB: '2', BUILDKITE_PARALLEL_JOB_COUNT: '3' })).toEqual(
      expected.last,
    );
    expect(await paths('auto/3', { JOB_COMPLETION_INDEX: '0' })).toEqual(expected.first);
    expect(await paths('auto/3', { JOB_COMPLETION_INDEX: '2' })).toEqual(expected.last);
    // auto/N that agrees with the CI system's total.
    expect(await paths('auto/3', { CI_NODE_INDEX: '3', CI_NODE_TOTAL: '3' })).toEqual(expected.last);
  });

  it('refuses, in one line naming every variable it reads, when no CI job is found', async () => {
    const message = await refusal('auto', {});
    expect(message).toBe(
      'bomwright: E_USAGE: --shard auto found no parallel job in the environment (it reads CI_NODE_INDEX/CI_NODE_TOTAL, CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL, BUILDKITE_PARALLEL_JOB/BUILDKITE_PARALLEL_JOB_COUNT, JOB_COMPLETION_INDEX): give --shard I/N',
    );
    // GitLab sets CI_NODE_TOTAL=1 in a job without `parallel:`, and no index: that is not a parallel job.
    expect(await refusal('auto', { CI_NODE_TOTAL: '1' })).toBe(message);
    expect(await refusal('auto', { CI_NODE_INDEX: '' })).toBe(message);
  });

  it('refuses an index outside the system range, on both sides', async () => {
    expect(await refusal('auto', { CI_NODE_INDEX: '0', CI_NODE_TOTAL: '3' })).toBe(
      'bomwright: E_USAGE: --shard auto: CI_NODE_INDEX (GitLab CI, counted from 1) must be a whole number from 1 to 3, not "0"',
    );
    expect(await refusal('auto', { CI_NODE_INDEX: '4', CI_NODE_TOTAL: '3' })).toContain(
      'CI_NODE_INDEX (GitLab CI, counted from 1) must be a whole number from 1 to 3, not "4"',
    );
    expect(await refusal('auto', { CIRCLE_NODE_INDEX: '3', CIRCLE_NODE_TOTAL: '3' })).toContain(
      'CIRCLE_NODE_INDEX (CircleCI, counted from 0) must be a whole number from 0 to 2, not "3"',
    );
    expect(await refusal('auto', { BUILDKITE_PARALLEL_JOB: '3', BUILDKITE_PARALLEL_JOB_COUNT: '3' })).toContain(
      'BUILDKITE_PARALLEL_JOB (Buildkite, counted from 0) must be a whole number from 0 to 2, not "3"',
    );
    expect(await refusal('auto/3', { JOB_COMPLETION_INDEX: '3' })).toContain(
      'JOB_COMPLETION_INDEX (a Kubernetes Indexed Job, counted from 0) must be a whole number from 0 to 2, not "3"',
    );
    expect(await refusal('auto', { CIRCLE_NODE_INDEX: '-1', CIRCLE_NODE_TOTAL: '3' })).toContain('not "-1"');
    expect(await refusal('auto', { CIRCLE_NODE_INDEX: '1.0', CIRCLE_NODE_TOTAL: '3' })).toContain('not "1.0"');
    // A long value is cut short in the message: 40 characters, then an ellipsis.
    expect(await refusal('auto', { CIRCLE_NODE_INDEX: 'x'.repeat(41), CIRCLE_NODE_TOTAL: '3' })).toContain(
      `not "${'x'.repeat(40)}…"`,
    );
  });

  it('refuses a missing or bad total, a total that disagrees, and two systems at once', async () => {
    expect(await refusal('auto', { JOB_COMPLETION_INDEX: '0' })).toBe(
      "bomwright: E_USAGE: --shard auto: JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but the number of jobs is not: give --shard auto/N, N = the Job's completions",
    );
    expect(await refusal('auto', { CI_NODE_INDEX: '1' })).toBe(
      'bomwright: E_USAGE: --shard auto: CI_NODE_TOTAL (GitLab CI) must be a whole number from 1 to 999999, not ""',
    );
    expect(await refusal('auto', { CIRCLE_NODE_INDEX: '0', CIRCLE_NODE_TOTAL: '0' })).toContain(
      'CIRCLE_NODE_TOTAL (CircleCI) must be a whole number from 1 to 999999, not "0"',
    );
    expect(await refusal('auto/4', { CI_NODE_INDEX: '1', CI_NODE_TOTAL: '3' })).toBe(
      'bomwright: E_USAGE: --shard auto/4 disagrees with CI_NODE_TOTAL = 3 (GitLab CI)',
    );
    for (const bad of ['0', 'x', '', '1000000'])
      expect(await refusal(`auto/${bad}`, { JOB_COMPLETION_INDEX: '0' })).toBe(
        `bomwright: E_USAGE: --shard auto/N needs N, the number of jobs, from 1 to 999999, not ${JSON.stringify(bad)}`,
      );
    expect(await refusal('auto', { CI_NODE_INDEX: '1', CI_NODE_TOTAL: '2', JOB_COMPLETION_INDEX: '0' })).toBe(
      'bomwright: E_USAGE: --shard auto is ambiguous: CI_NODE_INDEX and JOB_COMPLETION_INDEX are both set: give --shard I/N',
    );
  });

  it('still takes I/N as before, and N = 1 of an Indexed Job checks everything', async () => {
    const all = await paths('1/1');
    expect(all).toHaveLength(13);
    expect(await paths('auto/1', { JOB_COMPLETION_INDEX: '0' })).toEqual(all);
  });
});
