/**
 * Every module of src/ is mutated by one of the two StrykerJS configurations (stryker.config.json for the BOM side
 * and the edges, stryker.service.json for the service client, the emulator and the flows), so a new module cannot
 * slip past mutation testing unnoticed. The few left out are listed here, each with the reason no mutant there
 * could tell anything.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

const NOT_MUTATED: Record<string, string> = {
  'src/global.d.ts': 'declarations only: no code runs',
  'src/emulator/default-seed.ts': "data: the default tenant's records, pinned by the seed tests",
  'src/xml/engine-worker.ts': "a worker thread's two-line entry: the thread's logic is engine-thread.ts",
};

function mutatedBy(config: string): Set<string> {
  const { mutate } = JSON.parse(readFileSync(path.join(ROOT, config), 'utf8')) as { mutate: string[] };
  const include = mutate.filter((p) => !p.startsWith('!'));
  const ignore = mutate.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  return new Set(fg.sync(include, { cwd: ROOT, ignore }));
}

describe('mutation testing covers every module', () => {
  const core = mutatedBy('stryker.config.json');
  const service = mutatedBy('stryker.service.json');
  const modules = fg.sync('src/**/*.ts', { cwd: ROOT });

  it('each module of src/ is in exactly one configuration, or left out with its reason', () => {
    const nowhere = modules.filter((m) => !core.has(m) && !service.has(m) && !(m in NOT_MUTATED));
    const twice = modules.filter((m) => core.has(m) && service.has(m));
    const stale = Object.keys(NOT_MUTATED).filter((m) => !modules.includes(m) || core.has(m) || service.has(m));
    expect({ nowhere, twice, stale }).toEqual({ nowhere: [], twice: [], stale: [] });
    expect(modules.length).toBeGreaterThan(200);
  });

  it('the service client, the emulator and the flows are in the service run', () => {
    for (const folder of ['src/service/', 'src/emulator/', 'src/flows/'])
      expect([...service].filter((m) => m.startsWith(folder)).length, folder).toBeGreaterThan(5);
  });
});
