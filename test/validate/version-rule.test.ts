import { describe, expect, it } from 'vitest';
import { bump, validate, versionRule } from '../../src/index.js';
import { sampleBom } from '../author/fixtures.js';

const NOW = new Date('2026-06-07T08:09:10.500Z');
const base = sampleBom();
const changed = (version: unknown, serialNumber: unknown = base.serialNumber) => {
  const doc = sampleBom();
  (doc.components as Record<string, unknown>[])[0]!.version = '1.3.1';
  return { ...doc, version, serialNumber };
};
const messages = (document: unknown, baseline: unknown = base) =>
  versionRule(document, { document: baseline }).map((d) => d.message);

describe('versionRule', () => {
  it('holds for documents that follow it', () => {
    expect(versionRule(sampleBom(), { document: base })).toEqual([]);
    expect(versionRule(changed(4), { document: base })).toEqual([]);
    expect(versionRule(bump(changed(3), { now: NOW }).document, { document: base })).toEqual([]);
    const { version: _v, ...unversioned } = base;
    // A missing version is version 1.
    expect(versionRule(changed(2), { document: unversioned })).toEqual([]);
  });

  it('explains each violation, at the member it is about', () => {
    const stale = versionRule(changed(3), { document: base, name: 'HEAD' });
    expect(stale).toEqual([
      {
        ruleId: 'bom/version-rule',
        severity: 'error',
        message: expect.stringMatching(
          /^content changed but version is still 3; expected 4 \[changed: components: 1 changed\]; run bomwright bump \(compared with HEAD\)$/,
        ),
        pointer: '/version',
      },
    ]);
    expect(messages(changed(6))).toEqual([
      'content changed and version is 6; expected 4 (previous version 3 + 1) [changed: components: 1 changed]',
    ]);
    // An unnecessary bump is not fixed by bumping again.
    const unnecessary = messages({ ...sampleBom(), version: 4 });
    expect(unnecessary).toEqual([
      'content is unchanged but version changed from 3 to 4; expected 3: restore the version, a version without changes is not a new release',
    ]);
    expect(unnecessary[0]).not.toContain('bump');
    const other = 'urn:uuid:11111111-2222-4333-8444-555555555555';
    expect(versionRule(changed(4, other), { document: base })).toEqual([
      expect.objectContaining({
        pointer: '/serialNumber',
        message: `serialNumber changed from ${base.serialNumber as string} to ${other}; a new version of a BOM keeps it (a new serialNumber starts a new BOM at version 1); to continue the previous BOM (a regenerated one), run bomwright bump FILE --baseline PREVIOUS, which takes over its serialNumber and version`,
      }),
    ]);
    // One finding: versions of two different BOMs are not compared (a regenerated BOM is at 1 again).
    expect(messages(changed(3, other))).toHaveLength(1);
    expect(messages({ ...base, serialNumber: other, version: 1 })).toHaveLength(1);
    // The command named is the one that fetches the same baseline.
    expect(
      versionRule(changed(1, other), { document: base, name: 'old.json', adoptWith: '--baseline old.json' })[0]!
        .message,
    ).toContain('run bomwright bump FILE --baseline old.json, which takes over');
    expect(
      versionRule(changed(1, other), { document: base, name: 'main', adoptWith: '--base-ref main' })[0]!.message,
    ).toContain('run bomwright bump FILE --base-ref main, which takes over');
    const { serialNumber: _s, ...unserialized } = changed(4);
    expect(versionRule(unserialized, { document: base })).toEqual([
      expect.objectContaining({ pointer: '', message: expect.stringMatching(/^serialNumber urn:uuid:.* was removed/) }),
    ]);
  });

  it('names versions that are not whole numbers from 1 to 2^53 - 1', () => {
    expect(messages(changed('x'))).toEqual(['version x is not a whole number from 1 to 2^53 - 1']);
    expect(messages(changed(0))).toEqual(['version 0 is not a whole number from 1 to 2^53 - 1']);
    expect(messages(changed(2 ** 53))[0]).toMatch(/^version 9007199254740992 \(beyond 2\^53 - 1, .*\) is not/);
    expect(messages(changed(4), { ...base, version: -1 })).toEqual([
      'the previous version -1 is not a whole number from 1 to 2^53 - 1',
    ]);
  });

  it('has nothing to compare with when the previous release was not a BOM object', () => {
    expect(versionRule(changed(9), { document: [] })).toEqual([]);
    expect(versionRule(changed(9), { document: undefined })).toEqual([]);
  });

  it('is applied by validate, from a parsed value, text or bytes, with line and column', async () => {
    const text = JSON.stringify(changed(3), null, 2);
    for (const baseline of [base, JSON.stringify(base), new TextEncoder().encode(JSON.stringify(base))]) {
      const result = await validate(text, { baseline: { document: baseline, name: 'v3.json' } });
      const finding = result.diagnostics.find((d) => d.ruleId === 'bom/version-rule');
      expect(finding).toMatchObject({ pointer: '/version', severity: 'error' });
      expect(finding?.message).toContain('(compared with v3.json)');
      const line = text.split('\n').findIndex((l) => l.includes('"version": 3')) + 1;
      expect(finding?.line).toBe(line);
      expect(result.valid).toBe(false);
    }
    // A baseline that is not JSON has nothing to compare with.
    expect((await validate(text, { baseline: { document: '{oops' } })).valid).toBe(true);
    expect((await validate(text)).valid).toBe(true);
  });
});
