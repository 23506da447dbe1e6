/** The profile format: the built-in profiles against its JSON Schema, and the parser's one-line refusals. */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { BUILTIN_PROFILE_NAMES, parseProfile, resolveProfile, type ProfileSpec } from '../../../src/index.js';
import { pageWith } from '../../docs.js';
import { ROOT } from '../../helpers.js';

const schema = JSON.parse(readFileSync(path.join(ROOT, 'schema/profile.schema.json'), 'utf8')) as object;
const ajv = new Ajv({ allErrors: true, strict: false });
const validateSchema = ajv.compile(schema);

const files = readdirSync(path.join(ROOT, 'profiles')).filter((f) => f.endsWith('.json'));

const minimal = (requirement: Record<string, unknown> = {}) => ({
  name: 'acme',
  requirements: [
    {
      id: 'r',
      level: 'MUST',
      clause: '1',
      message: 'Falls short',
      hint: 'fix it',
      check: { present: 'name' },
      ...requirement,
    },
  ],
});

describe('the profile format', () => {
  it('ships exactly the built-in profiles, each valid against schema/profile.schema.json', () => {
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual([...BUILTIN_PROFILE_NAMES].sort());
    for (const file of files) {
      const value = JSON.parse(readFileSync(path.join(ROOT, 'profiles', file), 'utf8')) as { name: string };
      expect(validateSchema(value), `${file}: ${JSON.stringify(validateSchema.errors?.slice(0, 3))}`).toBe(true);
      expect(value.name).toBe(file.replace(/\.json$/, ''));
      expect(() => parseProfile(value, file)).not.toThrow();
    }
  });

  it('names every requirement with its source clause, a message and a hint', () => {
    for (const file of files) {
      const spec = parseProfile(JSON.parse(readFileSync(path.join(ROOT, 'profiles', file), 'utf8')), file);
      expect(spec.source?.url, file).toMatch(/^https:\/\//);
      for (const r of spec.requirements) {
        expect(r.clause.length, `${file} ${r.id}`).toBeGreaterThan(0);
        expect(r.message, `${file} ${r.id}`).toMatch(/^[A-Z][^.]*[^.\s]$/);
        expect(r.hint, `${file} ${r.id}`).toMatch(/^[a-z]/);
      }
    }
  });

  const refused: [string, unknown, string][] = [
    ['not an object', [], 'Profile p.json: is not a JSON object'],
    ['a bad name', { ...minimal(), name: 'Acme Policy' }, 'Profile p.json: name: "Acme Policy" must be lower case'],
    [
      'an unknown member',
      { ...minimal(), requirement: [] },
      'unknown member "requirement" (did you mean "requirements"?)',
    ],
    ['no requirements', { name: 'acme', requirements: [] }, 'Profile p.json: requirements: must not be empty'],
    ['a bad level', minimal({ level: 'MAY' }), 'requirements[0].level: must be "MUST" or "SHOULD"'],
    ['an unknown check', minimal({ check: { presence: 'name' } }), 'names no check ("presence")'],
    ['a near check', minimal({ check: { presnt: 'name' } }), '(did you mean "present"?)'],
    [
      'a bad pattern',
      minimal({ check: { matches: 'name', pattern: '(' } }),
      'requirements[0].check.pattern: is not a pattern that runs in linear time (RE2 syntax: no lookaround, no backreferences): missing closing ): `(`',
    ],
    [
      'a lookahead',
      minimal({ check: { matches: 'name', pattern: '^(?=a)a' } }),
      'requirements[0].check.pattern: is not a pattern that runs in linear time (RE2 syntax: no lookaround, no backreferences): invalid or unsupported Perl syntax: `(?=`',
    ],
    [
      'a backreference',
      minimal({ check: { matches: 'name', pattern: '^(a)\\1$' } }),
      'requirements[0].check.pattern: is not a pattern that runs in linear time (RE2 syntax: no lookaround, no backreferences): invalid escape sequence: `\\1`',
    ],
    [
      'a weak hash',
      minimal({ check: { hashAtLeast: 'hashes', alg: 'SHA-1' } }),
      '"SHA-1" is not an algorithm to require',
    ],
    ['a bad purl', minimal({ check: { deny: [{ purl: 'npm/lodash' }] } }), 'is not a purl pattern'],
    ['a purl with a version', minimal({ check: { deny: [{ purl: 'pkg:npm/lodash@1' }] } }), 'is not a purl pattern'],
    ['a multi-line hint', minimal({ hint: 'a\nb' }), 'requirements[0].hint: must be one line'],
    ['drop without extends', { ...minimal(), drop: ['r'] }, '"drop" and "relevel" need "extends"'],
    [
      'a duplicate id',
      { name: 'acme', requirements: [minimal().requirements[0], minimal().requirements[0]] },
      'requirement "r" is defined twice',
    ],
    ['a bad appliesTo', minimal({ appliesTo: 'services' }), 'must be "document", "primary", "components"'],
    [
      'an unknown licence id',
      minimal({ check: { licencesDenied: ['MIT', 'GPL-3.0-onyl'] } }),
      'requirements[0].check.licencesDenied[1]: "GPL-3.0-onyl" is not an SPDX licence id (did you mean "GPL-3.0-only"?)',
    ],
    [
      'a malformed expression',
      minimal({ check: { licencesAllowed: ['MIT OR'] } }),
      'requirements[0].check.licencesAllowed[0]: "MIT OR" is not a valid SPDX licence expression',
    ],
    [
      'an expression where one licence is listed',
      minimal({ check: { licencesAllowed: ['MIT OR Apache-2.0'] } }),
      '"MIT OR Apache-2.0" is an expression: list one licence per entry',
    ],
    [
      'an unknown exception',
      minimal({ check: { licencesDenied: ['GPL-2.0-only WITH Classpath-exception-2'] } }),
      '"Classpath-exception-2" is not an SPDX exception id (did you mean "Classpath-exception-2.0"?)',
    ],
    [
      'a malformed range',
      minimal({ check: { deny: [{ purl: 'pkg:npm/lodash', versions: '<<4.x.y' }] } }),
      'requirements[0].check.deny[0].versions: "<<4.x.y" is not a semver range',
    ],
  ];

  it('loads licence lists of ids in any case, with + and WITH, and LicenseRef-; and ranges that parse', () => {
    for (const entry of [
      'gpl-3.0-only',
      'GPL-2.0',
      'GPL-2.0+',
      'GPL-2.0-only WITH Classpath-exception-2.0',
      'LicenseRef-acme-1',
    ])
      expect(() => parseProfile(minimal({ check: { licencesDenied: [entry] } }), 'p.json'), entry).not.toThrow();
    expect(() =>
      parseProfile(minimal({ check: { deny: [{ purl: 'pkg:npm/lodash', versions: '>=4.0.0 <4.17.21' }] } }), 'p.json'),
    ).not.toThrow();
  });

  for (const [what, value, message] of refused) {
    it(`refuses ${what} in one line, as the schema does`, () => {
      expect(() => parseProfile(value, 'p.json')).toThrow(message);
      try {
        parseProfile(value, 'p.json');
      } catch (error) {
        expect((error as { code: string }).code).toBe('E_USAGE');
        expect((error as Error).message).not.toContain('\n');
      }
      if (
        what !== 'drop without extends' &&
        what !== 'a duplicate id' &&
        what !== 'a bad pattern' &&
        what !== 'a lookahead' &&
        what !== 'a backreference' &&
        what !== 'no requirements' &&
        // The schema knows the shape, not SPDX's lists or the range syntax.
        !/licence|expression|exception|range/.test(what)
      )
        expect(validateSchema(value), what).toBe(false);
    });
  }

  it('applies extends: drop, relevel, and replace by id; refuses a loop and an unknown id', () => {
    const base = parseProfile(
      {
        name: 'base',
        requirements: ['a', 'b', 'c'].map((id) => ({ ...minimal().requirements[0], id })),
      },
      'base.json',
    );
    const child = parseProfile(
      {
        name: 'child',
        extends: 'base',
        drop: ['a'],
        relevel: { b: 'SHOULD' },
        requirements: [{ ...minimal().requirements[0], id: 'c', hint: 'other' }],
      },
      'child.json',
    );
    const load = (name: string): ProfileSpec => (name === 'base' ? base : child);
    const resolved = resolveProfile(child, load);
    expect(resolved.requirements.map((r) => [r.id, r.level, r.hint])).toEqual([
      ['b', 'SHOULD', 'fix it'],
      ['c', 'MUST', 'other'],
    ]);
    const looping = parseProfile({ ...minimal(), name: 'base', extends: 'child' }, 'base.json');
    expect(() => resolveProfile(child, (n) => (n === 'base' ? looping : child))).toThrow(
      'Profile child extends itself (child → base → child)',
    );
    const typo = parseProfile({ name: 'child', extends: 'base', drop: ['bb'] }, 'child.json');
    expect(() => resolveProfile(typo, load)).toThrow('Profile child: base has no requirement "bb" (did you mean "b"?)');
  });
});

describe('the profiles page', () => {
  it('shows a complete policy that parses, extends ntia-2021 and judges documents as it says', async () => {
    const page = pageWith('"name": "acme"').text;
    const block = [...page.matchAll(/^```json\n([\s\S]*?)^```$/gm)]
      .map((m) => m[1]!)
      .find((b) => b.includes('"name": "acme"'));
    expect(block).toBeDefined();
    const value = JSON.parse(block!) as unknown;
    expect(validateSchema(value), JSON.stringify(validateSchema.errors?.slice(0, 3))).toBe(true);
    const { loadProfiles } = await import('../../../src/index.js');
    const base = loadProfiles(['ntia-2021'])[0]!;
    const policy = resolveProfile(parseProfile(value, 'README'), () =>
      parseProfile(JSON.parse(readFileSync(path.join(ROOT, 'profiles/ntia-2021.json'), 'utf8')), 'ntia-2021'),
    );
    expect(policy.requirements.map((r) => r.id)).toEqual([
      ...base.requirements.map((r) => r.id).filter((id) => id !== 'component.identifier'),
      'licence.allowed',
      'licence.denied',
      'component.denied',
      'supplier.commercial',
      'library.hash',
    ]);
    expect(policy.requirements.find((r) => r.id === 'timestamp')?.level).toBe('SHOULD');
    const { evaluateProfiles } = await import('../../../src/validate/profiles/evaluate.js');
    const lodash = {
      type: 'library',
      name: 'lodash',
      version: '4.17.20',
      purl: 'pkg:npm/lodash@4.17.20',
      licenses: [{ expression: 'MIT OR AGPL-3.0-only' }],
      hashes: [{ alg: 'SHA-1', content: 'ab' }],
    };
    const found = evaluateProfiles({ bomFormat: 'CycloneDX', specVersion: '1.6', components: [lodash] }, [policy])
      .diagnostics.map((d) => d.ruleId)
      .filter((id) => !id.startsWith('profile/acme/component.') || id === 'profile/acme/component.denied');
    expect(found.sort()).toEqual([
      'profile/acme/component.denied',
      'profile/acme/dependency-relationship',
      'profile/acme/library.hash',
      'profile/acme/sbom-author',
      'profile/acme/timestamp',
    ]);
  });
});
