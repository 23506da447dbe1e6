import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, runCli, SAMPLES, tempDir } from '../helpers.js';

const SAMPLE = readFileSync(path.join(SAMPLES, 'valid-full-1.6.json'), 'utf8');

describe('init', () => {
  it('creates a valid document from flags or a package.json, and never overwrites', async () => {
    const dir = tempDir();
    const result = await runCli(
      ['init', '--name', 'robot-arm', '--component-version', '2.1.0', '--license', 'MIT', '-o', 'bom.json'],
      { cwd: dir },
    );
    expect(result.code).toBe(0);
    const bom = JSON.parse(readFileSync(path.join(dir, 'bom.json'), 'utf8'));
    expect(bom).toMatchObject({
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      version: 1,
      metadata: { component: { name: 'robot-arm', version: '2.1.0' } },
    });
    expect(bom.serialNumber).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await runCli(['validate', 'bom.json', '--max-warnings', '0'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['init', '--name', 'x', '-o', 'bom.json'], { cwd: dir })).code).toBe(2);
    writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: '@acme/widget', version: '1.0.0', license: 'Apache-2.0' }),
    );
    expect(
      (await runCli(['init', '--from', 'package.json', '--format', 'cbom', '-o', 'cbom.json'], { cwd: dir })).code,
    ).toBe(0);
    const cbom = JSON.parse(readFileSync(path.join(dir, 'cbom.json'), 'utf8'));
    expect(cbom).toMatchObject({ bomFormat: 'CBOM', specVersion: '1.4-cbom-1.0' });
    expect(cbom.metadata.component.purl).toBe('pkg:npm/%40acme/widget@1.0.0');
    expect((await runCli(['validate', 'cbom.json', '--max-warnings', '0'], { cwd: dir })).code).toBe(0);
  });
});

describe('add component --purl', () => {
  it('needs no --name: the purl gives name and version, and its other spellings are the same package', async () => {
    const dir = tempDir();
    expect(
      (await runCli(['init', '--name', 'app', '--component-version', '1.0.0', '-o', 'bom.json'], { cwd: dir })).code,
    ).toBe(0);
    const added = await runCli(['add', 'component', 'bom.json', '--purl', 'pkg:npm/left-pad@1.3.0'], { cwd: dir });
    expect([added.code, added.stderr]).toEqual([0, '']);
    const bom = JSON.parse(readFileSync(path.join(dir, 'bom.json'), 'utf8'));
    expect(bom.components).toEqual([
      {
        type: 'library',
        'bom-ref': 'pkg:npm/left-pad@1.3.0',
        name: 'left-pad',
        version: '1.3.0',
        purl: 'pkg:npm/left-pad@1.3.0',
      },
    ]);
    const again = await runCli(['add', 'component', 'bom.json', '--purl', 'pkg:NPM/left-pad@1.3.0'], { cwd: dir });
    expect([again.code, again.stderr]).toEqual([
      2,
      expect.stringContaining('is already in the document at /components/0'),
    ]);
    const contradicts = await runCli(
      ['add', 'component', 'bom.json', '--purl', 'pkg:npm/right-pad@1.0.0', '--name', 'left-pad'],
      { cwd: dir },
    );
    expect([contradicts.code, contradicts.stderr]).toEqual([
      2,
      'bomwright: E_USAGE: The name "left-pad" contradicts the purl pkg:npm/right-pad@1.0.0, which names "right-pad": give the purl alone, or ones that agree\n',
    ]);
  });
});

describe('bump', () => {
  it('increments the version, keeps the serial number and layout, and refreshes the timestamp', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'bom.json');
    writeFileSync(file, SAMPLE);
    const result = await runCli(['bump', 'bom.json'], { cwd: dir });
    expect(result.code).toBe(0);
    const before = JSON.parse(SAMPLE);
    const after = JSON.parse(readFileSync(file, 'utf8'));
    expect(after.version).toBe(before.version + 1);
    expect(after.serialNumber).toBe(before.serialNumber);
    expect(after.metadata.timestamp).not.toBe(before.metadata.timestamp);
    expect(readFileSync(file, 'utf8').split('\n')[1]).toMatch(/^ {2}"/);
  });

  it('never leaves signatures that no longer verify: refuse, re-sign with --key, or --drop-signatures', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'bom.json');
    writeFileSync(file, SAMPLE);
    await runCli(['keygen', '--out', 'k'], { cwd: dir });
    expect(
      (
        await runCli(['sign', 'bom.json', '--key', 'k.private.pem', '--target', 'components', '--target', 'root'], {
          cwd: dir,
        })
      ).code,
    ).toBe(0);
    const signed = readFileSync(file, 'utf8');
    const refused = await runCli(['bump', 'bom.json'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('re-sign with --key, or remove them with --drop-signatures');
    expect(readFileSync(file, 'utf8')).toBe(signed);
    const resigned = await runCli(['bump', 'bom.json', '--key', 'k.private.pem'], { cwd: dir });
    expect(resigned.code).toBe(0);
    expect(resigned.stdout).toContain('re-signed 5 objects');
    expect(
      (await runCli(['verify', 'bom.json', '--trust', 'k.public.jwk', '--require-trusted'], { cwd: dir })).code,
    ).toBe(0);
    const dropped = await runCli(['bump', 'bom.json', '--drop-signatures'], { cwd: dir });
    expect(dropped.code).toBe(0);
    expect(dropped.stderr).toContain('removed 5 signatures');
    expect(readFileSync(file, 'utf8')).not.toContain('"signature"');
  });

  it('--check says whether a bump is due against a baseline', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'old.json'), SAMPLE);
    writeFileSync(path.join(dir, 'same.json'), SAMPLE);
    writeFileSync(
      path.join(dir, 'edited.json'),
      SAMPLE.replace('"description": ', '"description": "changed" , "x-was": '),
    );
    const edited = JSON.parse(SAMPLE);
    edited.components[0].version = '9.9.9';
    writeFileSync(path.join(dir, 'edited.json'), JSON.stringify(edited, null, 2));
    expect((await runCli(['bump', 'same.json', '--check', '--baseline', 'old.json'], { cwd: dir })).code).toBe(0);
    const due = await runCli(['bump', 'edited.json', '--check', '--baseline', 'old.json'], { cwd: dir });
    expect(due.code).toBe(1);
    expect(due.stdout).toContain('content changed');
  });
});

describe('normalize and diff', () => {
  it('normalize is deterministic, idempotent and --check tells', async () => {
    const dir = tempDir();
    const doc = JSON.parse(SAMPLE);
    doc.components.reverse();
    writeFileSync(path.join(dir, 'a.json'), JSON.stringify(doc, null, 2));
    writeFileSync(path.join(dir, 'b.json'), SAMPLE);
    expect((await runCli(['normalize', 'a.json', '--check'], { cwd: dir })).code).toBe(1);
    expect((await runCli(['normalize', 'a.json'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['normalize', 'b.json'], { cwd: dir })).code).toBe(0);
    expect(readFileSync(path.join(dir, 'a.json'), 'utf8')).toBe(readFileSync(path.join(dir, 'b.json'), 'utf8'));
    expect((await runCli(['normalize', 'a.json', '--check'], { cwd: dir })).code).toBe(0);
  });

  it('diff reports changes by bom-ref and exits 1 when documents differ', async () => {
    const dir = tempDir();
    const doc = JSON.parse(SAMPLE);
    const removed = doc.components.pop();
    doc.components[0].version = '0.0.1-changed';
    writeFileSync(path.join(dir, 'old.json'), SAMPLE);
    writeFileSync(path.join(dir, 'new.json'), JSON.stringify(doc));
    const text = await runCli(['diff', 'old.json', 'new.json'], { cwd: dir });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('- component');
    expect(text.stdout).toContain('0.0.1-changed');
    const json = await runCli(['diff', 'old.json', 'new.json', '--format', 'json'], { cwd: dir });
    const diff = JSON.parse(json.stdout);
    expect(diff.identical).toBe(false);
    expect(JSON.stringify(diff.components.removed)).toContain(removed.name);
    expect((await runCli(['diff', 'old.json', 'old.json'], { cwd: dir })).code).toBe(0);
  });
});

describe('the version rule in validate', () => {
  it('--baseline: a changed document must have version + 1 and keep its serial number', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'old.json'), SAMPLE);
    const doc = JSON.parse(SAMPLE);
    doc.components[0].version = '9.9.9';
    writeFileSync(path.join(dir, 'new.json'), JSON.stringify(doc, null, 2));
    const stale = await runCli(['validate', 'new.json', '--baseline', 'old.json'], { cwd: dir });
    expect(stale.code).toBe(1);
    expect(stale.stdout).toMatch(
      /new\.json:\d+:\d+  error  .*; run bomwright bump \(compared with old\.json\) .*bom\/version-rule/,
    );
    expect(stale.stdout).toContain('[changed: components: 1 changed]');
    expect((await runCli(['bump', 'new.json'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['validate', 'new.json', '--baseline', 'old.json'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['validate', 'old.json', '--baseline', 'old.json'], { cwd: dir })).code).toBe(0);
  });

  it('--staged in a real git repository: an edit without a bump fails with the hint, after bump it passes', async () => {
    const dir = tempDir();
    git(dir, 'init', '-q');
    writeFileSync(path.join(dir, 'bom.json'), SAMPLE);
    writeFileSync(path.join(dir, 'package.json'), '{"name": "not-a-bom"}');
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'first');
    expect((await runCli(['validate', '--staged'], { cwd: dir })).stdout).toBe('No staged BOM documents\n');
    const doc = JSON.parse(SAMPLE);
    doc.components[0].version = '9.9.9';
    writeFileSync(path.join(dir, 'bom.json'), JSON.stringify(doc, null, 2));
    git(dir, 'add', 'bom.json', 'package.json');
    const stale = await runCli(['validate', '--staged'], { cwd: dir });
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain('bom/version-rule');
    expect(stale.stdout).toContain('bomwright bump');
    expect((await runCli(['bump', 'bom.json'], { cwd: dir })).code).toBe(0);
    // Not staged yet: the hook checks the index, which still has the old version.
    expect((await runCli(['validate', '--staged'], { cwd: dir })).code).toBe(1);
    git(dir, 'add', 'bom.json');
    expect((await runCli(['validate', '--staged'], { cwd: dir })).code).toBe(0);
  });

  it('--base-ref compares each document with its version at a revision', async () => {
    const dir = tempDir();
    git(dir, 'init', '-q');
    writeFileSync(path.join(dir, 'bom.json'), SAMPLE);
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'first');
    const doc = JSON.parse(SAMPLE);
    doc.components[0].version = '9.9.9';
    writeFileSync(path.join(dir, 'bom.json'), JSON.stringify(doc, null, 2));
    expect((await runCli(['validate', 'bom.json', '--base-ref', 'HEAD'], { cwd: dir })).code).toBe(1);
    const unknown = await runCli(['validate', 'bom.json', '--base-ref', 'no-such-ref-xyz'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown git revision "no-such-ref-xyz"');
    // A file that did not exist at the revision is new: nothing to compare with.
    writeFileSync(path.join(dir, 'other.json'), SAMPLE);
    expect((await runCli(['validate', 'other.json', '--base-ref', 'HEAD'], { cwd: dir })).code).toBe(0);
  });
});

describe('add and set', () => {
  it('edits in place, generates unique bom-refs, and refuses edits that would make the document invalid', async () => {
    const dir = tempDir();
    expect(
      (await runCli(['init', '--name', 'app', '--component-version', '1.0.0', '-o', 'bom.json'], { cwd: dir })).code,
    ).toBe(0);
    const add = await runCli(
      [
        'add',
        'component',
        'bom.json',
        '--name',
        'lodash',
        '--component-version',
        '4.17.21',
        '--purl',
        'pkg:npm/lodash@4.17.21',
        '--license',
        'MIT',
        '--hash',
        `SHA-256:${'a'.repeat(64)}`,
        '--property',
        'team=core',
      ],
      { cwd: dir },
    );
    expect(add.code).toBe(0);
    expect(add.stdout).toBe(`Added the component (bom-ref pkg:npm/lodash@4.17.21) in bom.json\n`);
    const twice = await runCli(
      [
        'add',
        'component',
        'bom.json',
        '--name',
        'lodash',
        '--component-version',
        '4.17.21',
        '--purl',
        'pkg:npm/lodash@4.17.21',
        // A duplicate is refused unless asked for; asked for, it still gets a unique bom-ref.
        '--allow-duplicate',
      ],
      { cwd: dir },
    );
    expect(twice.stdout).toContain('(bom-ref pkg:npm/lodash@4.17.21-2)');
    expect(
      (
        await runCli(
          [
            'add',
            'dependency',
            'bom.json',
            '--ref',
            'pkg:npm/lodash@4.17.21',
            '--depends-on',
            'pkg:npm/lodash@4.17.21-2',
          ],
          { cwd: dir },
        )
      ).code,
    ).toBe(0);
    expect((await runCli(['add', 'property', 'bom.json', '--name', 'build', '--value', '42'], { cwd: dir })).code).toBe(
      0,
    );
    expect((await runCli(['set', 'bom.json', 'metadata.supplier', '{"name": "Acme"}'], { cwd: dir })).code).toBe(0);

    const before = readFileSync(path.join(dir, 'bom.json'), 'utf8');
    const refused = await runCli(['add', 'dependency', 'bom.json', '--ref', 'nowhere'], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^bom\.json {2}error {2}Reference "nowhere" does not match any bom-ref/m);
    expect(refused.stderr).toContain('ref/unresolved');
    expect(refused.stderr).toContain('nothing was written');
    const badField = await runCli(['set', 'bom.json', 'metadata.colour', 'red'], { cwd: dir });
    expect(badField.code).toBe(2);
    expect(readFileSync(path.join(dir, 'bom.json'), 'utf8')).toBe(before);

    const bom = JSON.parse(before);
    expect(bom.components.map((c: { 'bom-ref': string }) => c['bom-ref'])).toEqual([
      'pkg:npm/lodash@4.17.21',
      'pkg:npm/lodash@4.17.21-2',
    ]);
    expect(bom.metadata.supplier).toEqual({ name: 'Acme' });
    expect((await runCli(['validate', 'bom.json', '--max-warnings', '0'], { cwd: dir })).code).toBe(0);
  });

  it('refuses to edit a signed object unless told to drop the stale signatures', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'bom.json'), SAMPLE);
    await runCli(['keygen', '--out', 'k'], { cwd: dir });
    await runCli(['sign', 'bom.json', '--key', 'k.private.pem'], { cwd: dir });
    const refused = await runCli(['set', 'bom.json', 'metadata.supplier', '{"name": "Acme"}'], { cwd: dir });
    expect(refused.code).toBe(2);
    const dropped = await runCli(['set', 'bom.json', 'metadata.supplier', '{"name": "Acme"}', '--drop-signatures'], {
      cwd: dir,
    });
    expect(dropped.code).toBe(0);
    expect(dropped.stderr).toContain('removed 1 signature(s)');
  });
});
