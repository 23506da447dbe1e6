/**
 * Profile findings are listed at most 100 per requirement and document, but counted all: the summary line,
 * --max-warnings, the exit code, the json/SARIF/JUnit/html totals and the Action's outputs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAction } from '../../src/action/main.js';
import { validate } from '../../src/index.js';
import { loadProfiles } from '../../src/node/profiles.js';
import { runCli, tempDirs } from '../helpers.js';

const temp = tempDirs('bomwright-profile-counts-');

/** A BOM that meets every MUST of ntia-2021 and has `count` components without identifiers (SHOULD). */
function bom(count: number, missingVersion = 0) {
  return {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    version: 1,
    metadata: {
      timestamp: '2024-05-01T10:00:00Z',
      authors: [{ name: 'Jane Doe' }],
      component: {
        type: 'application',
        'bom-ref': 'app',
        name: 'app',
        version: '1.0.0',
        purl: 'pkg:npm/app@1.0.0',
        supplier: { name: 'Acme' },
      },
    },
    components: Array.from({ length: count }, (_, i) => ({
      type: 'library',
      'bom-ref': `c${i}`,
      name: `c${i}`,
      ...(i < missingVersion ? {} : { version: '1.0.0' }),
      supplier: { name: 'Acme' },
    })),
    dependencies: [{ ref: 'app', dependsOn: ['c0'] }],
  };
}

function write(value: unknown): string {
  const dir = temp();
  writeFileSync(path.join(dir, 'bom.json'), JSON.stringify(value, null, 2));
  return dir;
}

const ntia = loadProfiles(['ntia-2021']);

describe('profile findings over the listing cap', () => {
  it('count every finding in the library result, on both sides of the cap', async () => {
    for (const [count, listed, unlisted] of [
      [100, 100, undefined],
      [101, 100, 1],
      [3239, 100, 3139],
    ] as const) {
      const result = await validate(bom(count), { profiles: ntia });
      expect(result.warnings).toBe(count);
      expect(result.diagnostics).toHaveLength(listed);
      expect(result.diagnostics.at(-1)!.unlisted).toBe(unlisted);
      expect(result.profiles![0]!.requirements.find((r) => r.id === 'component.identifier')!.unmet).toBe(count);
    }
  });

  it('count errors over the cap too', async () => {
    const result = await validate(bom(150, 150), { profiles: ntia });
    expect([result.errors, result.warnings]).toEqual([150, 150]);
    expect(result.valid).toBe(false);
  });

  it('gate --max-warnings on every finding: 101 warnings exceed 100, 100 do not', async () => {
    const over = await runCli(['validate', 'bom.json', '--profile', 'ntia-2021', '--max-warnings', '100'], {
      cwd: write(bom(101)),
    });
    expect(over.code).toBe(1);
    expect(over.stdout).toContain('(and 1 more like it, not listed one by one)');
    expect(over.stdout).toContain(
      '0 errors, 101 warnings in 1 document (0 invalid): 101 warnings exceed --max-warnings 100\n',
    );
    const at = await runCli(['validate', 'bom.json', '--profile', 'ntia-2021', '--max-warnings', '100'], {
      cwd: write(bom(100)),
    });
    expect(at.code).toBe(0);
    expect(at.stdout).toContain('0 errors, 100 warnings in 1 document (0 invalid)\n');
  });

  it('put the whole count in the json, SARIF, JUnit and html reports', async () => {
    const dir = write(bom(250, 120));
    const run = (format: string) =>
      runCli(['validate', 'bom.json', '--profile', 'ntia-2021', '--format', format], { cwd: dir });
    const json = JSON.parse((await run('json')).stdout);
    expect(json.summary).toMatchObject({ errors: 120, warnings: 250 });
    expect(json.documents[0]).toMatchObject({ errors: 120, warnings: 250 });
    expect(json.documents[0].diagnostics).toHaveLength(200);

    const sarif = JSON.parse((await run('sarif')).stdout);
    // Findings, not the profile's verdict on the document (a result of kind fail).
    const results = (
      sarif.runs[0].results as { kind?: string; level: string; properties?: { unlisted?: number } }[]
    ).filter((r) => r.kind === undefined);
    const counted = (level: string) =>
      results.filter((r) => r.level === level).reduce((n, r) => n + 1 + (r.properties?.unlisted ?? 0), 0);
    expect([counted('error'), counted('warning')]).toEqual([120, 250]);

    const junit = (await run('junit')).stdout;
    expect(junit).toContain('<failure message="120 errors: ');

    const html = (await run('html')).stdout;
    expect(html).toContain('<strong class="bad">120</strong> errors');
    expect(html).toContain('<strong class="meh">250</strong> warnings');
    expect(html).toMatch(
      /<code>profile\/ntia-2021\/component\.identifier<\/code><\/td><td class="num">0<\/td><td class="num">250<\/td>/,
    );
  });

  it("count every finding in the Action's outputs", async () => {
    const dir = write(bom(130));
    const outputs = path.join(dir, 'outputs');
    writeFileSync(outputs, '');
    const code = await runAction(
      {
        GITHUB_WORKSPACE: dir,
        GITHUB_OUTPUT: outputs,
        INPUT_PATHS: 'bom.json',
        INPUT_PROFILE: 'ntia-2021',
        'INPUT_FAIL-ON': 'never',
      },
      dir,
      () => undefined,
    );
    expect(code).toBe(0);
    expect(readFileSync(outputs, 'utf8')).toMatch(/^errors=0\nwarnings=130\n/);
  });
});
