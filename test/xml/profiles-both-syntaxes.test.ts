/**
 * One model, one verdict: every built-in compliance profile judges a real document and the same document written
 * in the other syntax alike, requirement by requirement (what the XML reader reads wrongly shows up here first:
 * licences read without their `license` wrapper fail every licence requirement, the old `<tools><tool>` form the
 * tool requirements).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/index.js';
import { BUILTIN_PROFILE_NAMES, loadProfiles } from '../../src/node/profiles.js';
import type { ProfileResult } from '../../src/validate/profiles/evaluate.js';
import { mapDocument } from '../../src/xml/model.js';
import { scanXml } from '../../src/xml/scan.js';
import { xmlSpecVersion } from '../../src/xml/versions.js';
import { writeXml } from '../../src/xml/write.js';
import { ROOT } from '../helpers.js';

const REAL = path.join(ROOT, 'test/fixtures/real');

/** Each profile's verdict, and how many subjects fall short of each requirement. */
function verdicts(results: readonly ProfileResult[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const result of results ?? [])
    out[result.name] = {
      passed: result.passed,
      unmet: Object.fromEntries(result.requirements.filter((r) => r.unmet > 0).map((r) => [r.id, r.unmet])),
    };
  return out;
}

function xmlToModel(text: string): Record<string, unknown> {
  const scanned = scanXml(text.replace(/^\uFEFF/, ''));
  if (!scanned.ok) throw new Error(scanned.message);
  return mapDocument(scanned.root, xmlSpecVersion(scanned.root.namespace)!).document;
}

describe('the built-in profiles on both syntaxes of one document', async () => {
  const profiles = await loadProfiles([...BUILTIN_PROFILE_NAMES]);

  it('judge a JSON document and its XML form alike', async () => {
    for (const file of readdirSync(REAL).filter((f) => f.endsWith('.json'))) {
      const json = readFileSync(path.join(REAL, file), 'utf8');
      const xml = writeXml(JSON.parse(json) as Record<string, unknown>);
      const fromJson = await validate(json, { profiles, signatures: 'ignore' });
      const fromXml = await validate(xml, { profiles, signatures: 'ignore' });
      expect(Object.keys(verdicts(fromJson.profiles)), file).toHaveLength(BUILTIN_PROFILE_NAMES.length);
      expect(verdicts(fromXml.profiles), file).toEqual(verdicts(fromJson.profiles));
    }
  });

  it('judge an XML document and its JSON form alike', async () => {
    for (const file of readdirSync(REAL).filter((f) => f.endsWith('.xml'))) {
      const xml = readFileSync(path.join(REAL, file), 'utf8');
      const json = JSON.stringify(xmlToModel(xml));
      const fromXml = await validate(xml, { profiles, signatures: 'ignore' });
      const fromJson = await validate(json, { profiles, signatures: 'ignore' });
      expect(Object.keys(verdicts(fromXml.profiles)), file).toHaveLength(BUILTIN_PROFILE_NAMES.length);
      expect(verdicts(fromJson.profiles), file).toEqual(verdicts(fromXml.profiles));
    }
  });

  it('read XML licences and the old tools form as JSON has them', async () => {
    const [cisa] = await loadProfiles(['cisa-2025']);
    const bom = (licences: string, tools: string) =>
      `<bom xmlns="http://cyclonedx.org/schema/bom/1.4" version="1"><metadata>${tools}</metadata><components><component type="library"><name>a</name><version>1</version>${licences}</component></components></bom>`;
    const unmet = async (text: string) =>
      Object.keys(
        (verdicts((await validate(text, { profiles: [cisa!] })).profiles)['cisa-2025'] as { unmet: object }).unmet,
      );
    const with_ = await unmet(
      bom('<licenses><license><id>MIT</id></license></licenses>', '<tools><tool><name>t</name></tool></tools>'),
    );
    expect(with_).not.toContain('component.license');
    expect(with_).not.toContain('tool-name');
    const without = await unmet(bom('', ''));
    expect(without).toContain('component.license');
    expect(without).toContain('tool-name');
  });
});
