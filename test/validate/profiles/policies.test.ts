/**
 * Organisation policies in the profile format: licence allow and deny lists read as SPDX expressions, components
 * denied by purl pattern or name and semver range, members required under a condition, hash strength.
 */
import { describe, expect, it } from 'vitest';
import { parseProfile, resolveProfile, type Profile } from '../../../src/index.js';
import { evaluateProfiles } from '../../../src/validate/profiles/evaluate.js';

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function policy(check: unknown, extra: Record<string, unknown> = {}): Profile {
  const spec = parseProfile(
    {
      name: 'acme',
      requirements: [
        {
          id: 'rule',
          level: 'MUST',
          clause: 'Acme policy 1',
          message: 'Falls short',
          hint: 'fix it',
          appliesTo: 'components',
          check,
          ...extra,
        },
      ],
    },
    'acme.json',
  );
  return resolveProfile(spec, () => {
    throw new Error('no base');
  });
}

function doc(...components: Doc[]): Doc {
  return { bomFormat: 'CycloneDX', specVersion: '1.6', components };
}

function verdicts(p: Profile, ...components: Doc[]): string[] {
  return evaluateProfiles(doc(...components), [p]).diagnostics.map((d) => `${d.pointer} ${d.message}`);
}

const licensed = (...licenses: Doc[]) => ({ type: 'library', name: 'x', version: '1.0.0', licenses });

describe('licence allow lists', () => {
  const allow = policy({ licencesAllowed: ['MIT', 'Apache-2.0', 'GPL-2.0-only'] });

  it('pass an OR expression with one allowed side, and fail an AND with one side not allowed', () => {
    expect(verdicts(allow, licensed({ expression: 'MIT OR GPL-3.0-only' }))).toEqual([]);
    expect(verdicts(allow, licensed({ expression: 'MIT AND GPL-3.0-only' }))).toEqual([
      '/components/0/licenses/0 Falls short (MIT AND GPL-3.0-only is not allowed); fix it',
    ]);
    expect(verdicts(allow, licensed({ expression: '(MIT OR GPL-3.0-only) AND Apache-2.0' }))).toEqual([]);
  });

  it('read ids case-insensitively, and an exception on an allowed licence as allowed', () => {
    expect(verdicts(policy({ licencesAllowed: ['mit'] }), licensed({ license: { id: 'MIT' } }))).toEqual([]);
    expect(verdicts(allow, licensed({ expression: 'GPL-2.0-only WITH Classpath-exception-2.0' }))).toEqual([]);
  });

  it('check every entry, and refuse what cannot be read as SPDX', () => {
    expect(verdicts(allow, licensed({ license: { id: 'MIT' } }, { license: { id: 'BSD-3-Clause' } }))).toEqual([
      '/components/0/licenses/1 Falls short (BSD-3-Clause is not allowed); fix it',
    ]);
    expect(verdicts(allow, licensed({ expression: 'MIT OR' }))).toEqual([
      '/components/0/licenses/0 Falls short (its licence cannot be read as SPDX); fix it',
    ]);
    expect(verdicts(allow, licensed({ expression: `${'('.repeat(40)}MIT${')'.repeat(40)}` }))).toHaveLength(1);
  });

  it('leave a component without licences to a requirement of its own', () => {
    expect(verdicts(allow, { type: 'library', name: 'x' })).toEqual([]);
  });
});

describe('licence deny lists', () => {
  const deny = policy({ licencesDenied: ['GPL-3.0-only', 'AGPL-3.0-only'] });

  it('pass a choice that avoids the denied licence and fail one that forces it', () => {
    expect(verdicts(deny, licensed({ expression: 'MIT OR GPL-3.0-only' }))).toEqual([]);
    expect(verdicts(deny, licensed({ expression: 'MIT AND GPL-3.0-only' }))).toEqual([
      '/components/0/licenses/0 Falls short (MIT AND GPL-3.0-only is denied); fix it',
    ]);
    expect(verdicts(deny, licensed({ license: { id: 'AGPL-3.0-only' } }))).toHaveLength(1);
    expect(verdicts(deny, licensed({ license: { id: 'GPL-2.0-only' } }))).toEqual([]);
  });

  it('deny a licence with an exception where the list names the licence', () => {
    expect(verdicts(deny, licensed({ expression: 'GPL-3.0-only WITH GCC-exception-3.1' }))).toHaveLength(1);
  });
});

describe('licence lists read ids as SPDX means them', () => {
  const gpl2 = policy({ licencesDenied: ['GPL-2.0-only', 'GPL-2.0-or-later'] });

  it('deny the deprecated GPL-2.0 as GPL-2.0-only, GPL-2.0+ as -or-later, and leave GPL-2.1-like neighbours alone', () => {
    for (const id of ['GPL-2.0', 'gpl-2.0', 'GPL-2.0-only', 'GPL-2.0-or-later'])
      expect(verdicts(gpl2, licensed({ license: { id } })), id).toHaveLength(1);
    expect(verdicts(gpl2, licensed({ expression: 'GPL-2.0+' }))).toHaveLength(1);
    expect(verdicts(gpl2, licensed({ expression: 'MIT OR GPL-2.0' }))).toEqual([]);
    expect(verdicts(gpl2, licensed({ expression: 'MIT AND GPL-2.0' }))).toEqual([
      '/components/0/licenses/0 Falls short (MIT AND GPL-2.0 is denied); fix it',
    ]);
    for (const id of ['GPL-3.0', 'LGPL-2.0', 'LGPL-2.1-only', 'GPL-1.0-or-later'])
      expect(verdicts(gpl2, licensed({ license: { id } })), id).toEqual([]);
  });

  it('tell -only from -or-later: a list naming one lets the other through', () => {
    const only = policy({ licencesDenied: ['GPL-2.0-only'] });
    expect(verdicts(only, licensed({ license: { id: 'GPL-2.0' } }))).toHaveLength(1);
    expect(verdicts(only, licensed({ expression: 'GPL-2.0+' }))).toEqual([]);
    expect(verdicts(only, licensed({ license: { id: 'GPL-2.0-or-later' } }))).toEqual([]);
    const later = policy({ licencesDenied: ['GPL-2.0+'] });
    expect(verdicts(later, licensed({ license: { id: 'GPL-2.0-or-later' } }))).toHaveLength(1);
    expect(verdicts(later, licensed({ expression: 'GPL-2.0-only+' }))).toHaveLength(1);
    expect(verdicts(later, licensed({ license: { id: 'GPL-2.0-only' } }))).toEqual([]);
  });

  it('read a deprecated id in the list as what it means too', () => {
    const deprecated = policy({ licencesDenied: ['GPL-3.0', 'LGPL-2.1+'] });
    expect(verdicts(deprecated, licensed({ license: { id: 'GPL-3.0-only' } }))).toHaveLength(1);
    expect(verdicts(deprecated, licensed({ license: { id: 'LGPL-2.1-or-later' } }))).toHaveLength(1);
    expect(verdicts(deprecated, licensed({ license: { id: 'GPL-3.0-or-later' } }))).toEqual([]);
    expect(verdicts(deprecated, licensed({ license: { id: 'LGPL-2.1-only' } }))).toEqual([]);
  });

  it('read a deprecated X-with-Y-exception id as X-only WITH the exception', () => {
    const exact = policy({ licencesDenied: ['GPL-2.0-only WITH Classpath-exception-2.0'] });
    expect(verdicts(exact, licensed({ license: { id: 'GPL-2.0-with-classpath-exception' } }))).toHaveLength(1);
    expect(verdicts(exact, licensed({ license: { id: 'GPL-2.0-only' } }))).toEqual([]);
    const allow = policy({ licencesAllowed: ['GPL-3.0-only WITH GCC-exception-3.1'] });
    expect(verdicts(allow, licensed({ license: { id: 'GPL-3.0-with-GCC-exception' } }))).toEqual([]);
    expect(verdicts(allow, licensed({ license: { id: 'GPL-3.0-only' } }))).toHaveLength(1);
  });

  it('allow X+ where X is allowed (it offers X), and deny it where X is denied', () => {
    expect(verdicts(policy({ licencesAllowed: ['Apache-2.0'] }), licensed({ expression: 'Apache-2.0+' }))).toEqual([]);
    expect(verdicts(policy({ licencesDenied: ['Apache-2.0'] }), licensed({ expression: 'Apache-2.0+' }))).toHaveLength(
      1,
    );
    expect(verdicts(policy({ licencesAllowed: ['Apache-1.1'] }), licensed({ expression: 'Apache-2.0+' }))).toHaveLength(
      1,
    );
  });
});

describe('denied components', () => {
  const deny = policy({
    deny: [
      { purl: 'pkg:npm/lodash', versions: '<4.17.21', reason: 'CVE-2021-23337' },
      { purl: 'pkg:maven/org.apache.logging.log4j/*', versions: '>=2.0.0 <2.17.1' },
      { name: 'left-pad' },
    ],
  });
  const npm = (name: string, version: string) => ({
    type: 'library',
    name,
    version,
    purl: `pkg:npm/${name}@${version}`,
  });

  it('match purls by type, namespace and name, and versions by semver range (both sides of the bound)', () => {
    expect(verdicts(deny, npm('lodash', '4.17.20'))).toEqual([
      '/components/0/version Falls short (version 4.17.20 is denied by pkg:npm/lodash <4.17.21: CVE-2021-23337); fix it',
    ]);
    expect(verdicts(deny, npm('lodash', '4.17.21'))).toEqual([]);
    expect(verdicts(deny, npm('lodash-es', '4.17.20'))).toEqual([]);
    expect(verdicts(deny, { ...npm('lodash', '4.17.20'), purl: 'pkg:pypi/lodash@4.17.20' })).toEqual([]);
  });

  it('read a * as any name in a namespace', () => {
    const log4j = (version: string) => ({
      type: 'library',
      name: 'log4j-core',
      version,
      purl: `pkg:maven/org.apache.logging.log4j/log4j-core@${version}`,
    });
    expect(verdicts(deny, log4j('2.14.1'))).toHaveLength(1);
    expect(verdicts(deny, log4j('2.17.1'))).toEqual([]);
    expect(verdicts(deny, log4j('1.2.17'))).toEqual([]);
  });

  it('deny by name without a range, and refuse a version that cannot be compared', () => {
    expect(verdicts(deny, { type: 'library', name: 'left-pad', version: '9' })).toEqual([
      '/components/0/name Falls short (denied by name left-pad); fix it',
    ]);
    expect(verdicts(deny, npm('lodash', 'latest'))).toEqual([
      '/components/0/purl Falls short (version "latest" cannot be compared with pkg:npm/lodash <4.17.21 (as a semver version), so it is refused); fix it',
    ]);
  });
});

describe('members required under a condition', () => {
  it('require a supplier only when the licence is not an open-source one', () => {
    const p = policy(
      { entity: 'supplier' },
      { when: { not: { licencesAllowed: ['MIT', 'Apache-2.0'] } }, at: 'supplier' },
    );
    expect(verdicts(p, licensed({ license: { id: 'MIT' } }))).toEqual([]);
    expect(verdicts(p, licensed({ license: { name: 'LicenseRef-acme-commercial' } }))).toEqual([
      '/components/0 Falls short; fix it',
    ]);
    expect(verdicts(p, { ...licensed({ license: { name: 'LicenseRef-acme' } }), supplier: { name: 'Acme' } })).toEqual(
      [],
    );
  });

  it('require a hash of at least SHA-256 for libraries only', () => {
    const p = policy({ hashAtLeast: 'hashes', alg: 'SHA-256' }, { appliesTo: { components: { type: ['library'] } } });
    const hashed = (type: string, alg: string, content = 'ab') => ({ type, name: 'x', hashes: [{ alg, content }] });
    expect(verdicts(p, hashed('library', 'SHA-1'))).toEqual(['/components/0 Falls short; fix it']);
    expect(verdicts(p, hashed('library', 'MD5'))).toHaveLength(1);
    expect(verdicts(p, hashed('library', 'SHA-256'))).toEqual([]);
    expect(verdicts(p, hashed('library', 'SHA3-512'))).toEqual([]);
    expect(verdicts(p, hashed('library', 'SHA-512', ' '))).toHaveLength(1);
    expect(verdicts(p, hashed('application', 'SHA-1'))).toEqual([]);
  });

  it('match a pattern in time linear in the text, where a backtracking engine would take years', () => {
    // (a+)+$ on "aaa…a!" backtracks 2^n ways in a JS RegExp; RE2 answers at once. The document is hostile: the
    // value is as long as a version may be.
    const nested = policy({ matches: 'version', pattern: '^(a+)+$' });
    const hostile = `${'a'.repeat(5000)}!`;
    // With a backtracking engine this line never returns and the test times out.
    expect(verdicts(nested, { type: 'library', name: 'x', version: hostile })).toHaveLength(1);
    expect(verdicts(nested, { type: 'library', name: 'x', version: 'aaaa' })).toEqual([]);
    const unicode = policy({ matches: 'name', pattern: '^\\p{Lu}\\p{Ll}+$' });
    expect(verdicts(unicode, { type: 'library', name: 'Émile', version: '1' })).toEqual([]);
    expect(verdicts(unicode, { type: 'library', name: 'émile', version: '1' })).toHaveLength(1);
  });

  it('match values with a pattern, and e-mail addresses and URLs for what they are', () => {
    const pattern = policy({ matches: 'version', pattern: '^\\d+\\.\\d+\\.\\d+$' });
    expect(verdicts(pattern, { type: 'library', name: 'x', version: '1.2.3' })).toEqual([]);
    expect(verdicts(pattern, { type: 'library', name: 'x', version: '1.2' })).toHaveLength(1);
    const contact = policy({ anyOf: [{ email: 'supplier.contact.email' }, { url: 'supplier.url' }] });
    expect(
      verdicts(contact, { type: 'library', name: 'x', supplier: { contact: [{ email: 'a@b.example' }] } }),
    ).toEqual([]);
    expect(verdicts(contact, { type: 'library', name: 'x', supplier: { contact: [{ email: 'a@' }] } })).toHaveLength(1);
    expect(verdicts(contact, { type: 'library', name: 'x', supplier: { url: ['https://b.example'] } })).toEqual([]);
    expect(verdicts(contact, { type: 'library', name: 'x', supplier: { url: ['b.example'] } })).toHaveLength(1);
  });
});
