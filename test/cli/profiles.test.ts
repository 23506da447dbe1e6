/** `validate --profile` and `explain profile/…` through the built CLI: positions, summaries, reports, errors. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProfiles } from '../../src/node/profiles.js';
import { runCli, tempDirs } from '../helpers.js';

const temp = tempDirs('bomwright-profiles-');

const bom = {
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
  components: [{ type: 'library', 'bom-ref': 'lib', name: 'lib', version: '2.0.0', purl: 'pkg:npm/lib@2.0.0' }],
  dependencies: [{ ref: 'app', dependsOn: ['lib'] }],
};

function write(name: string, value: unknown): { dir: string; file: string } {
  const dir = temp();
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(value, null, 2));
  return { dir, file };
}

describe('validate --profile', () => {
  it('reports each unmet requirement with its position, and ends with one line per profile', async () => {
    const { dir } = write('bom.json', bom);
    const result = await runCli(['validate', 'bom.json', '--profile', 'ntia-2021', '--profile', 'cra'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      [
        'bom.json  (cyclonedx-1.6)',
        "  bom.json:24:5  error  The component names no supplier; add one with `bomwright set bom.json --component bom-ref=lib /supplier 'ACME <security@acme.example> https://acme.example'` (or /manufacturer, 1.6+; for metadata.component, metadata.supplier also names it) at /components/0  profile/ntia-2021/component.supplier",
        '',
        '1 error, 0 warnings in 1 document (1 invalid)',
        'ntia-2021: 1 of 8 requirements unmet in 2 components (0 of 1 document pass)',
        'cra: 0 of 2 requirements unmet in 2 components (1 of 1 document passes)',
        '',
      ].join('\n'),
    );
  });

  it('carries profile rules in SARIF, each naming its source clause', async () => {
    const { dir } = write('bom.json', bom);
    const result = await runCli(['validate', 'bom.json', '--profile', 'bsi-2.1', '--format', 'sarif'], { cwd: dir });
    const sarif = JSON.parse(result.stdout);
    const rules = sarif.runs[0].tool.driver.rules as {
      id: string;
      fullDescription: { text: string };
      helpUri?: string;
    }[];
    const hash = rules.find((r) => r.id === 'profile/bsi-2.1/component.deployable-hash')!;
    expect(hash.fullDescription.text).toBe(
      'The component has no SHA-512 hash of its deployable form (BSI TR-03183-2 Software Bill of Materials, version 2.1.0, 2025-08-20, 5.2.2 Hash value of the deployable component)',
    );
    expect(hash.helpUri).toBe('https://bsi.bund.de/dok/TR-03183-en');
    const results = sarif.runs[0].results as { ruleId: string; ruleIndex: number }[];
    const found = results.find((r) => r.ruleId === 'profile/bsi-2.1/component.deployable-hash')!;
    expect(rules[found.ruleIndex]!.id).toBe(found.ruleId);
    expect(results.find((r) => r.ruleId === 'profile/bsi-2.1/spec-version')).toBeUndefined();
  });

  it('puts a profile section in the html report and the verdicts in the json report', async () => {
    const { dir } = write('bom.json', bom);
    const html = await runCli(['validate', 'bom.json', '--profile', 'cisa-2025', '--format', 'html'], { cwd: dir });
    expect(html.stdout).toContain('<h2>Profiles</h2>');
    expect(html.stdout).toContain('<h3><code>cisa-2025</code> CISA minimum elements (2025 draft)</h3>');
    expect(html.stdout).toMatch(
      /<code>component\.hash<\/code>.*<span class="bad">fail<\/span><\/td><td><a href="#doc-1" data-to="doc-1"><code>bom\.json<\/code><\/a>: app@1\.0\.0 <code>\/metadata\/component<\/code>, lib@2\.0\.0 <code>\/components\/0<\/code><\/td>/,
    );
    const json = await runCli(['validate', 'bom.json', '--profile', 'cisa-2025', '--format', 'json'], { cwd: dir });
    const report = JSON.parse(json.stdout);
    expect(JSON.stringify(report)).toContain('profile/cisa-2025/tool-name');
  });

  it('gives each document a verdict per profile, naming the profile, its version and digest, in every report', async () => {
    const { dir } = write('bad.json', bom);
    // The same BOM with the supplier it lacks: it passes ntia-2021.
    writeFileSync(
      path.join(dir, 'good.json'),
      JSON.stringify({ ...bom, components: [{ ...bom.components[0], supplier: { name: 'Acme' } }] }),
    );
    const [ntia] = loadProfiles(['ntia-2021']);
    expect(ntia!.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const args = ['validate', 'bad.json', 'good.json', '--profile', 'ntia-2021', '--format'];

    const json = JSON.parse((await runCli([...args, 'json'], { cwd: dir })).stdout);
    expect(json.profiles).toEqual([
      {
        name: 'ntia-2021',
        title: ntia!.title,
        version: ntia!.version,
        digest: ntia!.digest,
        source: ntia!.source,
      },
    ]);
    expect(json.documents.map((d: { path: string; profiles: unknown }) => [d.path, d.profiles])).toEqual([
      ['bad.json', [{ name: 'ntia-2021', passed: false, unmet: { must: ['component.supplier'], should: [] } }]],
      ['good.json', [{ name: 'ntia-2021', passed: true, unmet: { must: [], should: [] } }]],
    ]);

    const sarif = JSON.parse((await runCli([...args, 'sarif'], { cwd: dir })).stdout);
    const run = sarif.runs[0];
    const verdicts = (run.results as Record<string, any>[]).filter((r) => r.ruleId === 'profile/ntia-2021'); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(verdicts.map((r) => [r.locations[0].physicalLocation.artifactLocation.uri, r.kind, r.level])).toEqual([
      ['bad.json', 'fail', 'error'],
      ['good.json', 'pass', 'none'],
    ]);
    expect(verdicts[0]!.message.text).toBe(
      `The document fails ntia-2021 ${ntia!.version} (${ntia!.digest}): 1 MUST requirement unmet (component.supplier)`,
    );
    expect(verdicts[1]!.properties).toMatchObject({ profile: 'ntia-2021', digest: ntia!.digest, passed: true });
    expect(run.tool.driver.rules[verdicts[0]!.ruleIndex].id).toBe('profile/ntia-2021');

    const junit = (await runCli([...args, 'junit'], { cwd: dir })).stdout;
    expect(junit).toContain(
      `<testcase classname="bomwright.profile.ntia-2021" name="bad.json">\n      <failure message="fails ntia-2021 ${ntia!.version} (${ntia!.digest}): 1 MUST requirement unmet: component.supplier" type="profile/ntia-2021"/>`,
    );
    expect(junit).toContain('<testcase classname="bomwright.profile.ntia-2021" name="good.json"/>');

    const html = (await runCli([...args, 'html'], { cwd: dir })).stdout;
    expect(html).toContain(
      '<tr><td><a href="#doc-1" data-to="doc-1"><code>bad.json</code></a></td><td><span class="bad">fail</span> <span class="muted">1 MUST requirement unmet</span></td></tr>',
    );
    expect(html).toContain(
      '<tr><td><a href="#doc-2" data-to="doc-2"><code>good.json</code></a></td><td><span class="good">pass</span></td></tr>',
    );
    expect(html).toContain(`rules applied: <code title="${ntia!.digest}">${ntia!.digest.slice(0, 19)}</code>`);
  });

  it('gives a profile a digest that follows its rules: the same rules, the same digest; one level changed, another', () => {
    const dir = temp();
    const rule = { id: 'r', level: 'MUST', clause: 'c', message: 'm', hint: 'h', check: { present: 'metadata' } };
    writeFileSync(path.join(dir, 'a.json'), JSON.stringify({ name: 'acme', requirements: [rule] }));
    writeFileSync(path.join(dir, 'b.json'), JSON.stringify({ name: 'acme', requirements: [rule] }, null, 4));
    writeFileSync(
      path.join(dir, 'c.json'),
      JSON.stringify({ name: 'acme', requirements: [{ ...rule, level: 'SHOULD' }] }),
    );
    const [a, b, c] = ['a', 'b', 'c'].map((n) => loadProfiles([`./${n}.json`], dir)[0]!.digest);
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });

  it('loads a policy file that extends a built-in profile, drops and re-levels requirements', async () => {
    const { dir } = write('bom.json', bom);
    writeFileSync(
      path.join(dir, 'policy.json'),
      JSON.stringify({
        name: 'acme',
        extends: 'ntia-2021',
        drop: ['timestamp'],
        relevel: { 'component.supplier': 'SHOULD' },
        requirements: [
          {
            id: 'licence',
            level: 'MUST',
            clause: 'Acme 4.1',
            message: 'The licence is not allowed',
            hint: 'use MIT or Apache-2.0',
            appliesTo: 'components',
            check: { licencesAllowed: ['MIT', 'Apache-2.0'] },
          },
        ],
      }),
    );
    const result = await runCli(['validate', 'bom.json', '--profile', './policy.json'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('warning  The component names no supplier');
    expect(result.stdout).toContain('profile/acme/component.supplier');
    expect(result.stdout).toMatch(/acme: 1 of 8 requirements unmet in 2 components \(1 of 1 document passes\)\n$/);
  });

  it('suggests the nearest name for an unknown profile, and names a bad file in one line', async () => {
    const unknown = await runCli(['validate', 'x.json', '--profile', 'bsi-21']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'bomwright: E_USAGE: Unknown profile "bsi-21"; did you mean bsi-2.1? built-in profiles: ntia-2021, cisa-2025, cisa-2026, bsi-2.0, bsi-2.1, cra (or give a file: ./policy.json)\n',
    );
    const { dir } = write('bad.json', { name: 'bad', requirements: [{ id: 'x' }] });
    const bad = await runCli(['validate', '.', '--profile', './bad.json'], { cwd: dir });
    expect(bad.stderr).toBe(
      'bomwright: E_USAGE: Profile ./bad.json:4:5: requirements[0].level: must be "MUST" or "SHOULD"\n',
    );
    expect(bad.code).toBe(2);
    const missing = await runCli(['validate', '.', '--profile', './none.json'], { cwd: dir });
    expect(missing.stderr).toBe('bomwright: E_NOT_FOUND: Profile file ./none.json does not exist\n');
    expect(missing.code).toBe(2);
  });

  it('refuses a policy naming an unknown licence id, a malformed expression or range, at its line and column', async () => {
    const rule = (check: unknown) => ({
      id: 'r',
      level: 'MUST',
      clause: 'Acme 1',
      message: 'Not allowed',
      hint: 'replace it',
      appliesTo: 'components',
      check,
    });
    const cases: [unknown, string][] = [
      [
        { licencesDenied: ['MIT', 'GPL-3.0-onyl'] },
        'Profile ./policy.json:14:11: requirements[0].check.licencesDenied[1]: "GPL-3.0-onyl" is not an SPDX licence id (did you mean "GPL-3.0-only"?); use an id of the SPDX licence list or LicenseRef-…',
      ],
      [
        { licencesDenied: ['MIT OR'] },
        'Profile ./policy.json:13:11: requirements[0].check.licencesDenied[0]: "MIT OR" is not a valid SPDX licence expression: list one licence per entry, such as "GPL-3.0-only" or "GPL-2.0-only WITH Classpath-exception-2.0"',
      ],
      [
        { deny: [{ purl: 'pkg:npm/lodash', versions: '<<4.x.y' }] },
        'Profile ./policy.json:15:13: requirements[0].check.deny[0].versions: "<<4.x.y" is not a semver range (such as "<4.17.21" or ">=1.0.0 <2.0.0")',
      ],
    ];
    for (const [check, message] of cases) {
      const { dir } = write('policy.json', { name: 'acme', requirements: [rule(check)] });
      writeFileSync(path.join(dir, 'bom.json'), JSON.stringify(bom));
      const result = await runCli(['validate', 'bom.json', '--profile', './policy.json'], { cwd: dir });
      expect(result.stderr).toBe(`bomwright: E_USAGE: ${message}\n`);
      expect(result.code).toBe(2);
    }
    const { dir } = write('bom.json', bom);
    writeFileSync(path.join(dir, 'policy.json'), '{"name": "acme",\n "requirements": [}');
    const result = await runCli(['validate', 'bom.json', '--profile', './policy.json'], { cwd: dir });
    expect(result.stderr).toMatch(/^bomwright: E_USAGE: Profile \.\/policy\.json:2:19 is not valid JSON: /);
    expect(result.code).toBe(2);
  });
});

describe('explain profile/…', () => {
  it("prints a requirement's page with its source and clause", async () => {
    const result = await runCli(['explain', 'profile/bsi-2.1/component.deployable-hash']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('# profile/bsi-2.1/component.deployable-hash');
    expect(result.stdout).toContain(
      'Profile: BSI TR-03183-2 v2.1.0. Source: BSI TR-03183-2 Software Bill of Materials, version 2.1.0, 2025-08-20 (https://bsi.bund.de/dok/TR-03183-en), clause 5.2.2 Hash value of the deployable component.',
    );
    expect(result.stdout).toContain(
      'Compute it from the deployable file with `bomwright hash bom.json --component {component} --url https://example.com/ARTEFACT ARTEFACT`',
    );
    expect(result.stdout).toContain('{component} is a selector of the component that falls short');
  });

  it("prints what counts, and how an ambiguous clause is read, on a requirement's page", async () => {
    const page = (await runCli(['explain', 'profile/ntia-2021/component.supplier'])).stdout;
    expect(page).toContain(
      '## What counts\n\nChecked on every component (metadata.component, components[] and nested ones): met when any of: (1) `supplier` names an entity by a name or a URL or a contact e-mail; (2) `manufacturer` names an entity by a name or a URL or a contact e-mail; (3) the component is metadata.component, and in the document, `metadata.supplier` names an entity by a name or a URL or a contact e-mail.\n',
    );
    expect(page).toContain('## How the clause is read\n\nThe supplier is the component');
    // A requirement whose clause is plain has no reading.
    expect((await runCli(['explain', 'profile/ntia-2021/component.name'])).stdout).not.toContain('## How the clause');
  });

  it("lists a profile's requirements, inherited ones too, with its version and digest; and the profiles", async () => {
    const [bsi] = loadProfiles(['bsi-2.1']);
    const page = await runCli(['explain', 'profile/bsi-2.1']);
    expect(page.code).toBe(0);
    expect(page.stdout).toContain(`Version ${bsi!.version}; rules applied: ${bsi!.digest}.`);
    const listed = page.stdout.split('\n').filter((l) => /^[a-z][a-z0-9.-]+ +(MUST|SHOULD) /.test(l));
    expect(listed.map((l) => l.split(' ')[0])).toEqual(bsi!.requirements.map((r) => r.id));
    expect((await runCli(['explain', 'profile/bsi-2.0'])).stdout).toContain('Superseded by BSI TR-03183-2 v2.1.0');
    const list = (await runCli(['explain'])).stdout;
    expect(list).toContain(`  profile/bsi-2.1  ${bsi!.requirements.length} requirements  ${bsi!.title}\n`);
  });

  it('suggests the nearest requirement', async () => {
    const result = await runCli(['explain', 'profile/ntia-2021/component.supplir']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'bomwright: E_USAGE: Profile ntia-2021 has no requirement "component.supplir" (did you mean profile/ntia-2021/component.supplier?)\n',
    );
  });
});
