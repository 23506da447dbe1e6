import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { validateFiles } from '../../src/index.js';
import { ROOT, SAMPLES } from '../helpers.js';

describe('validateFiles', () => {
  it('validates a folder in this thread from the sources, sorted by path', async () => {
    const { reports, workers } = await validateFiles(['samples'], { cwd: ROOT, jobs: 1 });
    expect(workers).toBe(0);
    expect(reports.length).toBeGreaterThan(50);
    expect(reports.map((r) => r.uri)).toEqual([...reports.map((r) => r.uri)].sort());
    expect(reports.find((r) => r.path === 'samples/valid-full-1.6.json')?.result?.valid).toBe(true);
  });

  it('uses worker threads from the built library, with the same reports', () => {
    // The published entry point, in a process of its own: workers need the built worker file.
    const script = `
      import { validateFiles } from 'bomwright';
      const pooled = await validateFiles([${JSON.stringify(SAMPLES)}], { jobs: 2 });
      const single = await validateFiles([${JSON.stringify(SAMPLES)}], { jobs: 1 });
      console.log(JSON.stringify({ workers: pooled.workers, same: JSON.stringify(pooled.reports) === JSON.stringify(single.reports), count: pooled.reports.length }));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout) as { workers: number; same: boolean; count: number };
    expect(result).toEqual({ workers: 2, same: true, count: expect.any(Number) });
    expect(result.count).toBeGreaterThan(50);
  });

  it('refuses to pass by validating nothing', async () => {
    await expect(validateFiles(['bench/peers'], { cwd: ROOT })).rejects.toMatchObject({ code: 'E_NO_MATCH' });
    await expect(validateFiles(['no-such-dir/*.json'], { cwd: ROOT })).rejects.toMatchObject({ code: 'E_NO_MATCH' });
  });

  it('a missing operand that names a built-in profile says to give it with --profile', async () => {
    for (const name of ['ntia-2021', 'cisa-2025', 'cisa-2026', 'bsi-2.0', 'bsi-2.1', 'cra'])
      await expect(validateFiles([name], { cwd: ROOT })).rejects.toMatchObject({
        code: 'E_NOT_FOUND',
        message: `No such file or directory: ${name}; ${name} is a built-in compliance profile: give it with --profile ${name}`,
      });
    await expect(validateFiles(['ntia-2022'], { cwd: ROOT })).rejects.toMatchObject({
      code: 'E_NOT_FOUND',
      message: 'No such file or directory: ntia-2022',
    });
  });
});
