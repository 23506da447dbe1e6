import { expectLinear } from '../growth.js';
import { describe, expect, it } from 'vitest';
import { isIdnEmail, isIri, isIriReference } from '../../src/validate/iri.js';
import { findDuplicatePair } from '../../src/validate/unique.js';

describe('iri-reference (RFC 3987)', () => {
  it.each([
    'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
    'urn:cdx:3e671687-395b-41f5-a30f-a58921a69b79/1#component-a',
    'pkg:npm/%40scope/name@1.0.0?arch=x64#sub/path',
    'git+https://github.com/example/repo.git',
    'git+ssh://git@github.com/example/repo.git',
    'https://user:pw@example.com:8443/a/b;c=d?q=1&r=2#frag',
    'mailto:someone@example.com',
    'http://[2001:db8::7]/c=GB?objectClass?one',
    'http://[v7.fe80::1]/',
    'http://192.0.2.16:80/',
    'https://例え.テスト/パス?クエリ#断片',
    'https://example.com/?q=\ue000',
    '//example.com/path',
    '/absolute/path',
    'relative/path:with-colon-later',
    './a:b',
    '?query-only',
    '#fragment-only',
    '',
  ])('accepts %j', (value) => {
    expect(isIriReference(value)).toBe(true);
  });

  it.each(
    [
      'not a url',
      'https://example.com/a b',
      '<>',
      '%zz',
      'https://example.com/%4',
      'a:b\u0000',
      'https://exa\tmple.com',
      'http://[::1/',
      'http://[not-an-ip]/',
      'http://host:port/',
      'http://a]b/',
      'http://h/#a#b',
      'http://h/a[b',
      '1http://example.com',
      ':no-scheme',
      'first:segment-colon/../x', // has a scheme, valid
    ].slice(0, -1),
  )('rejects %j', (value) => {
    expect(isIriReference(value)).toBe(false);
  });

  it('rejects private-use characters outside the query and non-characters anywhere', () => {
    expect(isIriReference('https://example.com/\ue000')).toBe(false);
    expect(isIriReference('https://example.com/\ufffe')).toBe(false);
  });

  it('requires a scheme for an absolute IRI', () => {
    expect(isIri('https://example.com')).toBe(true);
    expect(isIri('/relative')).toBe(false);
  });

  it('stays linear on hostile input', () => {
    const hostile = (n: number) => [
      '//' + 'a'.repeat(2 * n),
      'a:' + '%41'.repeat(n),
      '//' + '@'.repeat(n),
      'http://[' + ':'.repeat(n),
    ];
    expectLinear((n) => {
      const values = hostile(n);
      return () => values.forEach((value) => isIriReference(value));
    }, 60_000);
  });
});

describe('idn-email (RFC 6531)', () => {
  it.each([
    'first.last@example.com',
    'a@b.c',
    'x@localhost',
    '用户@例子.广告',
    'Pelé@exemple.fr',
    '"quoted local"@example.com',
    '"with \\"escape\\""@example.com',
    'user@[127.0.0.1]',
    'user@[IPv6:2001:db8::1]',
    "o'hara+tag@example.org",
  ])('accepts %j', (value) => {
    expect(isIdnEmail(value)).toBe(true);
  });

  it.each([
    '',
    'plain',
    'a@b.c ',
    ' a@b.c',
    'a b@c.d',
    '@example.com',
    'user@',
    'a..b@example.com',
    '.a@example.com',
    'a@-example.com',
    'a@example-.com',
    'a@exa mple.com',
    'a@b@c.d',
    'a@[300.1.1.1]',
    `${'x'.repeat(65)}@example.com`,
    `a@${'x'.repeat(64)}.com`,
  ])('rejects %j', (value) => {
    expect(isIdnEmail(value)).toBe(false);
  });

  it('stays linear on hostile input', () => {
    expectLinear((n) => {
      const [domain, quoted] = ['a@' + 'b-'.repeat(n), '"' + '\\'.repeat(n)];
      return () => {
        isIdnEmail(domain);
        isIdnEmail(quoted);
      };
    }, 60_000);
  });
});

describe('findDuplicatePair (uniqueItems)', () => {
  it('treats objects equal regardless of member order', () => {
    expect(findDuplicatePair([{ type: 'library', name: 'a' }, { name: 'b' }, { name: 'a', type: 'library' }])).toEqual([
      0, 2,
    ]);
  });

  it('compares nested values deeply', () => {
    const a = { name: 'x', hashes: [{ alg: 'SHA-256', content: 'aa' }] };
    const b = { name: 'x', hashes: [{ alg: 'SHA-256', content: 'bb' }] };
    expect(findDuplicatePair([a, b])).toBeNull();
    expect(findDuplicatePair([a, b, { hashes: [{ content: 'bb', alg: 'SHA-256' }], name: 'x' }])).toEqual([1, 2]);
  });

  it('follows JSON equality for primitives', () => {
    expect(findDuplicatePair([1, '1', true, 'true', null, 'null'])).toBeNull();
    expect(findDuplicatePair([0, -0])).toEqual([0, 1]);
    expect(findDuplicatePair(['a', 'b', 'a'])).toEqual([0, 2]);
    expect(
      findDuplicatePair([
        [1, 2],
        [2, 1],
        [1, 2],
      ]),
    ).toEqual([0, 2]);
    expect(findDuplicatePair([{ a: [1] }, { a: [1, 1] }])).toBeNull();
  });

  it('is linear: 100,000 distinct objects whose shallow keys all collide', () => {
    // Every item has the same primitive members, so every item takes the deep path.
    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'library', nested: { id: i } }));
    expect(findDuplicatePair(items(1000))).toBeNull();
    expectLinear((n) => {
      const list = items(n);
      return () => findDuplicatePair(list);
    }, 60_000);
  });
});
