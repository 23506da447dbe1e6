/** `validate --format html` through the built CLI: to stdout or -o, through worker threads, with a baseline. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { minimalBom, runCli, tempDir } from '../helpers.js';

const json = (value: unknown) => JSON.stringify(value, null, 2);

function bom(i: number): Record<string, unknown> {
  return minimalBom('1.6', {
    serialNumber: `urn:uuid:3e671687-395b-41f5-a30f-a58921a69b${String(i).padStart(2, '0')}`,
    components: [{ type: 'library', 'bom-ref': `lib-${i}`, name: `lib-${i}`, version: '1.0.0' }],
    dependencies: [{ ref: `lib-${i}`, dependsOn: i === 3 ? ['ghost'] : [] }],
  });
}

describe('validate --format html', () => {
  it('writes one page for many documents, the same whether checked in worker threads or not', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'boms'));
    for (let i = 0; i < 10; i++) writeFileSync(path.join(dir, `boms/bom-${i}.json`), json(bom(i)));
    const threads = await runCli(['validate', 'boms', '--format', 'html', '-o', 'pooled.html', '--jobs', '2'], {
      cwd: dir,
    });
    expect(threads.stderr).toBe('');
    expect(threads.code).toBe(1);
    expect(threads.stdout).toBe('');
    const one = await runCli(['validate', 'boms', '--format', 'html', '--jobs', '1'], { cwd: dir });
    expect(one.code).toBe(1);
    const page = readFileSync(path.join(dir, 'pooled.html'), 'utf8');
    expect(one.stdout).toBe(page);
    expect(page.startsWith('<!doctype html>')).toBe(true);
    // Every document's graph came back from its worker: ten data blocks, one missing reference marked.
    expect(page.match(/<script type="application\/json" id="graph-\d+">/g)).toHaveLength(10);
    expect(page).toContain('<code>boms/bom-3.json</code>');
    expect(page).toContain('data-rule="ref/unresolved"');
    expect(page).toContain('Dependency graph: 2 nodes, 1 dependency, 1 marked');
  });

  it('shows the version rule’s verdict against a baseline', async () => {
    const dir = tempDir();
    const before = bom(1);
    const after = { ...bom(1), components: [...(before.components as unknown[]), { type: 'library', name: 'new' }] };
    writeFileSync(path.join(dir, 'old.json'), json(before));
    writeFileSync(path.join(dir, 'bom.json'), json(after));
    const result = await runCli(['validate', 'bom.json', '--baseline', 'old.json', '--format', 'html'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('The version rule <span class="bad">broken</span> against <code>old.json</code>');
    expect(result.stdout).toMatch(/<tr><td>components<\/td><td class="num">1<\/td><td class="num">0<\/td>/);
  });
});
