/**
 * Denied version ranges compared as each ecosystem orders versions (by the purl type), in the ecosystem's own
 * notation or as `vers:` ranges; both sides of each bound.
 */
import { describe, expect, it } from 'vitest';
import { parseProfile, resolveProfile, type Profile } from '../../../src/index.js';
import { evaluateProfiles } from '../../../src/validate/profiles/evaluate.js';

function policy(entry: Record<string, unknown>): Profile {
  const spec = parseProfile(
    {
      name: 'acme',
      requirements: [
        {
          id: 'denied',
          level: 'MUST',
          clause: 'Acme 5',
          message: 'Denied',
          hint: 'upgrade it',
          appliesTo: 'components',
          check: { deny: [entry] },
        },
      ],
    },
    'acme.json',
  );
  return resolveProfile(spec, () => {
    throw new Error('no base');
  });
}

/** The verdict on one component `pkg:TYPE/NAME@VERSION`: denied, let through, or refused as not comparable. */
function verdict(
  type: string,
  versions: string,
  version: string,
  // A Maven purl needs a namespace.
  name = type === 'maven' ? 'org.example/x' : 'x',
): 'denied' | 'passes' | 'refused' {
  const p = policy({ purl: `pkg:${type}/${name}`, versions });
  const found = evaluateProfiles(
    {
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      components: [{ type: 'library', name, version, purl: `pkg:${type}/${name}@${encodeURIComponent(version)}` }],
    },
    [p],
  ).diagnostics;
  if (found.length === 0) return 'passes';
  return found[0]!.message.includes('cannot be compared') ? 'refused' : 'denied';
}

/** Each version in `order` sorts before the next: a range `<v` denies those before v and none from v on. */
function expectOrder(type: string, order: readonly string[], range = (bound: string) => `<${bound}`) {
  for (let i = 0; i < order.length; i++) {
    const bound = order[i]!;
    for (let j = 0; j < order.length; j++)
      expect(verdict(type, range(bound), order[j]!), `${order[j]} < ${bound} (${type})`).toBe(
        j < i ? 'denied' : 'passes',
      );
  }
}

describe('versions by ecosystem', () => {
  it('Maven: qualifiers in their order, .Final as the release, trailing zeros ignored', () => {
    expect(verdict('maven', '<3.0.0', '3.4.1.Final', 'org.jboss.logging/jboss-logging')).toBe('passes');
    expect(verdict('maven', '<3.0.0', '2.9.9.Final', 'org.jboss.logging/jboss-logging')).toBe('denied');
    expectOrder('maven', [
      '1.0-alpha1',
      '1.0-beta-2',
      '1.0-M3',
      '1.0-RC1',
      '1.0-SNAPSHOT',
      '1.0',
      '1.0-sp1',
      '1.0.1',
      '1.1',
    ]);
    expect(verdict('maven', '<3.4.1', '3.4.1.Final')).toBe('passes');
    expect(verdict('maven', '<=3.4.1', '3.4.1.0.Final')).toBe('denied');
  });

  it("Maven's own intervals", () => {
    for (const [version, expected] of [
      ['0.9', 'passes'],
      ['1.0', 'denied'],
      ['1.9.9', 'denied'],
      ['2.0', 'passes'],
      ['3.0', 'denied'],
    ] as const)
      expect(verdict('maven', '[1.0,2.0),[3.0]', version), version).toBe(expected);
    expect(verdict('maven', '(,1.0]', '1.0')).toBe('denied');
    expect(verdict('maven', '(,1.0)', '1.0')).toBe('passes');
  });

  it('PyPI: PEP 440 order (in a vers range) and specifiers, whose <V leaves out pre-releases of V', () => {
    expectOrder('pypi', ['1.0.dev1', '1.0a1', '1.0b2', '1.0rc1', '1.0', '1.0.post1', '1.1'], (b) => `vers:pypi/<${b}`);
    expect(verdict('pypi', '<2.0', '2.0rc1')).toBe('passes');
    expect(verdict('pypi', 'vers:pypi/<2.0', '2.0rc1')).toBe('denied');
    expect(verdict('pypi', '<2.0', '1.9rc1')).toBe('denied');
    expect(verdict('pypi', '~=1.4', '1.4.5')).toBe('denied');
    expect(verdict('pypi', '~=1.4', '2.0')).toBe('passes');
    expect(verdict('pypi', '>=1.0,<2.0', '2.0')).toBe('passes');
    expect(verdict('pypi', '>=1.0,<2.0', '1.0')).toBe('denied');
    expect(verdict('pypi', '<2.0', 'not a version')).toBe('refused');
  });

  it('Debian: epochs, ~ before the release, revisions', () => {
    expectOrder('deb', ['1.0~rc1', '1.0', '1.0-1', '1.0-2', '1.0+dfsg-1', '1.0.1', '1:0.5']);
    expect(verdict('deb', '<1.0-10', '1.0-9')).toBe('denied');
  });

  it('RPM: rpmvercmp, ~ before and ^ after the release, epochs and releases', () => {
    expectOrder('rpm', ['1.0~rc1', '1.0', '1.0^git1', '1.0.1', '1.0.1-2.el8', '1.0.1-10.el8', '1:0.1']);
  });

  it('Alpine: pre- and post-release suffixes, letters, revisions', () => {
    expectOrder('apk', ['1.2.3_alpha1', '1.2.3_rc2', '1.2.3', '1.2.3-r1', '1.2.3_p1', '1.2.3a', '1.2.4']);
  });

  it('npm: semver ranges; generic for other types: numbers by value', () => {
    expect(verdict('npm', '^4.0.0 <4.17.21', '4.17.20')).toBe('denied');
    expect(verdict('npm', '^4.0.0 <4.17.21', '4.17.21')).toBe('passes');
    expect(verdict('npm', '<4.17.21', 'latest')).toBe('refused');
    expectOrder('github', ['2.9', '2.10', '2.10.1', '10']);
  });
});

describe('vers ranges', () => {
  it('contain as the spec says: between a lower and the next upper bound, or past the outer ones', () => {
    const range = 'vers:npm/>=1.0.0|<2.0.0|>=3.0.0';
    for (const [version, expected] of [
      ['0.9.0', 'passes'],
      ['1.0.0', 'denied'],
      ['1.9.9', 'denied'],
      ['2.0.0', 'passes'],
      ['2.9.9', 'passes'],
      ['3.0.0', 'denied'],
    ] as const)
      expect(verdict('npm', range, version), version).toBe(expected);
  });

  it('read = and != first, and the scheme the range names', () => {
    expect(verdict('maven', 'vers:maven/>=2.0.0|<2.17.1|!=2.3.2', '2.3.2.Final')).toBe('passes');
    expect(verdict('maven', 'vers:maven/>=2.0.0|<2.17.1|!=2.3.2', '2.14.1')).toBe('denied');
    expect(verdict('deb', 'vers:deb/1.2.3-1', '1.2.3-1')).toBe('denied');
    expect(verdict('deb', 'vers:deb/1.2.3-1', '1.2.3-2')).toBe('passes');
    expect(verdict('npm', 'vers:npm/*', '0.0.1')).toBe('denied');
  });

  it('are refused when they load if malformed', () => {
    for (const [range, message] of [
      ['vers:foo/<1', 'names the vers scheme "foo", which bomwright does not compare'],
      ['vers:npm/<1.0.0|<=1.0.0', 'names the version "1.0.0" twice'],
      ['vers:npm/<one', 'has "one", which is not a npm version'],
      ['vers:npm', 'is not a vers range'],
    ])
      expect(() => policy({ purl: 'pkg:npm/x', versions: range }), range).toThrow(message);
    expect(() => policy({ purl: 'pkg:maven/x', versions: '[1.0,2.0' })).toThrow('is not a Maven version range');
    expect(() => policy({ purl: 'pkg:pypi/x', versions: '>>1.0' })).toThrow('is not a PEP 440 version specifier');
    expect(() => policy({ name: 'x', versions: '<<4.x.y' })).toThrow('has a malformed comparator "<<4.x.y"');
  });
});
