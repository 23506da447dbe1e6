/**
 * What a finding says: licence expressions with their parentheses, why a licence entry is not valid, which part
 * of the primary component's dependencies is missing, and that a superseded profile is.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_PROFILE_NAMES, loadProfiles, parseProfile, resolveProfile } from '../../../src/index.js';
import { profileRuleMarkdown, profileRules } from '../../../src/format/profiles.js';
import { evaluateProfiles } from '../../../src/validate/profiles/evaluate.js';

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const messages = (document: Doc, profile: string, id: string) =>
  evaluateProfiles(document, loadProfiles([profile]))
    .diagnostics.filter((d) => d.ruleId === `profile/${profile}/${id}`)
    .map((d) => d.message);

function withLicences(...licenses: Doc[]): Doc {
  return {
    bomFormat: 'CycloneDX',
    specVersion: '1.5',
    components: [{ type: 'library', name: 'x', version: '1', licenses }],
  };
}

describe('licence messages', () => {
  const list = (check: Doc) =>
    resolveProfile(
      parseProfile(
        {
          name: 'acme',
          requirements: [
            {
              id: 'r',
              level: 'MUST',
              clause: 'c',
              message: 'Falls short',
              hint: 'fix it',
              appliesTo: 'components',
              check,
            },
          ],
        },
        'acme.json',
      ),
      () => {
        throw new Error('no base');
      },
    );

  it('keep the parentheses an expression needs, and add none it does not', () => {
    const say = (check: Doc, expression: string) =>
      evaluateProfiles(withLicences({ expression }), [list(check)]).diagnostics.map((d) => d.message);
    expect(say({ licencesDenied: ['GPL-3.0-only'] }, '(MIT OR GPL-3.0-only) AND GPL-3.0-only')).toEqual([
      'Falls short ((MIT OR GPL-3.0-only) AND GPL-3.0-only is denied); fix it',
    ]);
    expect(say({ licencesAllowed: ['Apache-2.0'] }, 'MIT OR (Apache-2.0 AND GPL-3.0-only)')).toEqual([
      'Falls short (MIT OR (Apache-2.0 AND GPL-3.0-only) is not allowed); fix it',
    ]);
    expect(say({ licencesAllowed: ['Apache-2.0'] }, 'MIT AND BSD-2-Clause AND ISC')).toEqual([
      'Falls short (MIT AND BSD-2-Clause AND ISC is not allowed); fix it',
    ]);
  });

  it('say why a licence is not valid: an id given as a name, a name that is no id, NOASSERTION, a bad expression', () => {
    const why = (entry: Doc) => messages(withLicences(entry), 'bsi-2.0', 'component.licence')[0];
    expect(why({ license: { name: 'MIT' } })).toContain(
      '("MIT" is given as a name; it is the SPDX id MIT: write it as license.id)',
    );
    expect(why({ license: { name: 'Acme Proprietary' } })).toContain(
      '(the name "Acme Proprietary" is neither an SPDX id nor a LicenseRef-…)',
    );
    expect(why({ license: { name: 'Apache-2' } })).toContain('(did you mean "Apache-2.0"?)');
    expect(why({ license: { id: 'NOASSERTION' } })).toContain('(NOASSERTION states no licence)');
    expect(why({ expression: 'MIT OR' })).toContain('(the expression "MIT OR" is not a valid SPDX licence expression)');
    expect(why({ license: { name: 'LicenseRef-acme' } })).toBeUndefined();
  });
});

describe('the primary component dependencies message', () => {
  const document = (primary: Doc): Doc => ({
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    metadata: { component: { type: 'application', name: 'app', version: '1', ...primary } },
    dependencies: [{ ref: 'app', dependsOn: [] }],
  });

  it('says what is missing: the bom-ref, or the dependencies under the bom-ref it has', () => {
    expect(messages(document({ 'bom-ref': 'app' }), 'ntia-2021', 'dependency-relationship')[0]).toContain(
      `(no dependencies[] entry for metadata.component's bom-ref "app" lists what it depends on, and no composition states its dependencies complete or unknown)`,
    );
    expect(messages(document({}), 'ntia-2021', 'dependency-relationship')[0]).toContain(
      '(metadata.component has no bom-ref)',
    );
  });
});

describe('superseded profiles', () => {
  it('say so in their verdict, without passing it on to a profile that extends them', () => {
    const [bsi20, bsi21] = loadProfiles(['bsi-2.0', 'bsi-2.1']);
    expect(bsi20!.superseded).toMatch(/^by BSI TR-03183-2 v2\.1\.0 \(2025-08-20, profile bsi-2\.1\)/);
    expect(bsi21!.superseded).toBeUndefined();
    const results = evaluateProfiles(withLicences(), [bsi20!, bsi21!]).results;
    expect(results.map((r) => r.superseded === undefined)).toEqual([false, true]);
  });
});

describe('requirement pages', () => {
  it('show an example made from the check that meets the requirement', () => {
    const without: string[] = [];
    for (const profile of loadProfiles(BUILTIN_PROFILE_NAMES)) {
      const rules = profileRules([profile]);
      for (const [i, requirement] of profile.requirements.entries()) {
        const example = rules[i]!.example;
        if (example === undefined) {
          without.push(`${profile.name}/${requirement.id}`);
          continue;
        }
        expect(profileRuleMarkdown(rules[i]!)).toContain(`## Example\n`);
        const members = JSON.parse(example) as Doc;
        const base: Doc = {
          bomFormat: 'CycloneDX',
          specVersion: '1.6',
          metadata: { component: { type: 'application', 'bom-ref': 'app', name: 'app' } },
        };
        const document =
          requirement.appliesTo.kind === 'document'
            ? { ...base, ...members, metadata: { ...base.metadata, ...members.metadata } }
            : requirement.appliesTo.kind === 'primary'
              ? { ...base, metadata: { component: { ...base.metadata.component, ...members } } }
              : { ...base, metadata: {}, components: [{ type: 'library', name: 'lib', ...members }] };
        const alone = { ...profile, requirements: [requirement] };
        expect(
          evaluateProfiles(document, [alone]).diagnostics.map((d) => d.message),
          `${profile.name}/${requirement.id}: ${example}`,
        ).toEqual([]);
      }
    }
    // Those met by what is absent or by the whole graph, which members alone cannot show: no vulnerabilities,
    // every ref resolving, every component reachable, declared licences valid only where there are some.
    expect(without).toEqual(
      ['bsi-2.0', 'bsi-2.1']
        .flatMap((p) => [`${p}/no-vulnerabilities`, `${p}/depth.broken-ref`, `${p}/depth.unreachable`])
        .concat('bsi-2.1/component.additional-licence'),
    );
  });
});
