/**
 * The shortcuts that keep profiles cheap on large BOMs give the answers of the plain way: URL verdicts remembered
 * per scheme and authority, members read before the own-member test, unresolved refs found while the dependency
 * graph is built.
 */
import { describe, expect, it } from 'vitest';
import { parseProfile, resolveProfile, type Profile } from '../../../src/index.js';
import { evaluateProfiles, isAbsoluteUrl } from '../../../src/validate/profiles/evaluate.js';

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function policy(check: unknown, appliesTo = 'components'): Profile {
  const spec = parseProfile(
    {
      name: 'acme',
      requirements: [
        { id: 'rule', level: 'MUST', clause: 'Acme 1', message: 'Falls short', hint: 'fix it', appliesTo, check },
      ],
    },
    'acme.json',
  );
  return resolveProfile(spec, () => {
    throw new Error('no base');
  });
}

function unmet(p: Profile, document: Doc): string[] {
  return evaluateProfiles(document, [p]).diagnostics.map((d) => d.pointer);
}

const doc = (...components: Doc[]): Doc => ({ bomFormat: 'CycloneDX', specVersion: '1.6', components });

/** The verdict without the remembered authorities: the URL parser on the whole text. */
function parsedWhole(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed.length > 4000) return false;
  try {
    return new URL(trimmed).host !== '';
  } catch {
    return false;
  }
}

describe('URL verdicts remembered per scheme and authority', () => {
  const schemes = ['http', 'https', 'HTTPS', 'git+https', 'file', 'ftp', 'mailto', 'urn', 'x-y.z+1', '1http', ''];
  const authorities = [
    'example.com',
    'user:pw@host',
    '@',
    'host:80',
    'host:65535',
    'host:65536',
    'host:8x',
    '[::1]',
    '[::1',
    '1.2.3.255',
    '1.2.3.256',
    'xn--a',
    'xn--bcher-kva.example',
    'ex%41mple.com',
    'ex%zzmple',
    'C:',
    'C|',
    'a<b',
    'a^b',
    '',
    '%00',
    'münchen.de',
    'a\\b',
    'a\tb',
    'a b',
  ];
  const rests = ['', '/', '/path?q#f', '?x', '#y', '/a b', '/\\x', '//double', '/%zz', '\t/x'];
  const separators = ['://', ':/', ':', ':\\\\', '://\\', ':///'];

  it('gives the parser’s verdict on the whole text, for the first URL of an authority and the ones after it', () => {
    const urls = schemes.flatMap((s) =>
      authorities.flatMap((a) => separators.flatMap((sep) => rests.map((r) => `${s}${sep}${a}${r}`))),
    );
    // Twice, the second time in reverse: each authority is met first with another path, query or fragment.
    for (const url of [...urls, ...urls.reverse()]) {
      expect(isAbsoluteUrl(url), url).toBe(parsedWhole(url));
      expect(isAbsoluteUrl(` ${url}\n`), url).toBe(parsedWhole(` ${url}\n`));
    }
  });

  it('refuses a port one past the largest after accepting the largest on the same host', () => {
    expect(isAbsoluteUrl('https://acme.example:65535/a')).toBe(true);
    expect(isAbsoluteUrl('https://acme.example:65535/b')).toBe(true);
    expect(isAbsoluteUrl('https://acme.example:65536/a')).toBe(false);
    expect(isAbsoluteUrl('https://acme.example:65536/b')).toBe(false);
  });

  it('measures the 4000-character limit on the whole URL, not on its authority', () => {
    const at = (length: number) => `https://acme.example/${'a'.repeat(length - 'https://acme.example/'.length)}`;
    expect(isAbsoluteUrl(at(4000))).toBe(true);
    expect(isAbsoluteUrl(at(4001))).toBe(false);
    expect(isAbsoluteUrl(`  ${at(4000)}  `)).toBe(true);
  });

  it('judges each component’s URL in a profile check, hosts shared or not', () => {
    const p = policy({ url: 'externalReferences.url' });
    const component = (url: string) => ({ name: 'x', externalReferences: [{ type: 'vcs', url }] });
    expect(
      unmet(
        p,
        doc(
          component('https://acme.example/a'),
          component('https://acme.example:99999/a'),
          component('https://acme.example/b'),
          component('https://acme.example:99999/b'),
          component('git+https://github.com/acme/x.git'),
          component('not a url'),
        ),
      ),
    ).toEqual(['/components/1', '/components/3', '/components/5']);
  });
});

describe('members read before the own-member test', () => {
  it('never count an inherited member, present on the prototype only', () => {
    const p = policy({ present: 'name' });
    const inherited = Object.create({ name: 'from the prototype' }) as Doc;
    inherited.version = '1';
    expect(unmet(p, doc(inherited, { name: 'own' }))).toEqual(['/components/0']);
    const nested = policy({ present: 'supplier.name' });
    const supplier = Object.create({ name: 'from the prototype' }) as Doc;
    expect(unmet(nested, doc({ supplier }, { supplier: { name: 'own' } }))).toEqual(['/components/0']);
  });

  it('take the first path that is there, an own member holding undefined or null included', () => {
    const p = policy({ present: ['supplier.name', 'manufacturer.name'] });
    const good = { name: 'Acme' };
    expect(unmet(p, doc({ manufacturer: good }))).toEqual([]);
    // An own member holding undefined (a hand-built document) is there: as the last segment it decides, and
    // holds nothing; before it, the path goes no further and the next path is read.
    expect(unmet(p, doc({ supplier: { name: undefined }, manufacturer: good }))).toEqual(['/components/0']);
    expect(unmet(p, doc({ supplier: undefined, manufacturer: good }))).toEqual([]);
    // A supplier holding null, or one without a name, has no name: the manufacturer's is read.
    expect(unmet(p, doc({ supplier: null, manufacturer: good }))).toEqual([]);
    expect(unmet(p, doc({ supplier: {}, manufacturer: good }))).toEqual([]);
    expect(unmet(p, doc({ supplier: { name: '' }, manufacturer: good }))).toEqual(['/components/0']);
  });

  it('read members inside arrays entry by entry, absent or not', () => {
    const p = policy({ some: 'hashes', where: { allOf: [{ present: 'alg' }, { present: 'content' }] } });
    expect(unmet(p, doc({ hashes: [{ alg: 'SHA-256' }, { content: 'ab' }] }))).toEqual(['/components/0']);
    expect(unmet(p, doc({ hashes: [{ alg: 'SHA-256' }, { alg: 'SHA-256', content: 'ab' }] }))).toEqual([]);
    expect(unmet(p, doc({ hashes: [] }, { hashes: [[{ alg: 'MD5', content: 'ab' }]] }))).toEqual(['/components/0']);
  });
});

describe('unresolved refs found while the dependency graph is built', () => {
  const withDependencies = (dependencies: unknown[]): Doc => ({
    ...doc({ 'bom-ref': 'a', name: 'a' }, { 'bom-ref': 'b', name: 'b' }),
    metadata: { component: { 'bom-ref': 'app', name: 'app' } },
    dependencies,
  });
  const brokenRefs = (document: Doc) => {
    const { diagnostics, results } = evaluateProfiles(document, [policy({ refsResolve: true }, 'document')]);
    return { pointers: diagnostics.map((d) => `${d.pointer} ${d.value}`), unmet: results[0]!.requirements[0]!.unmet };
  };

  it('lists each ref and dependsOn entry that names no component, in document order', () => {
    const { pointers, unmet: count } = brokenRefs(
      withDependencies([
        { ref: 'app', dependsOn: ['a', 'ghost', 7, 'b', 'other'] },
        { ref: 7, dependsOn: ['ghost'] },
        'not an entry',
        { ref: 'missing' },
        { ref: 'a', dependsOn: 'not a list' },
      ]),
    );
    expect(pointers).toEqual([
      '/dependencies/0/dependsOn/1 "ghost"',
      '/dependencies/0/dependsOn/4 "other"',
      '/dependencies/1/dependsOn/0 "ghost"',
      '/dependencies/3/ref "missing"',
    ]);
    expect(count).toBe(4);
  });

  it('lists 100 and counts the rest, on both sides of the cap', () => {
    const ghosts = (n: number) => Array.from({ length: n }, (_, i) => `ghost-${i}`);
    const at100 = brokenRefs(withDependencies([{ ref: 'app', dependsOn: ghosts(100) }]));
    expect(at100.unmet).toBe(100);
    expect(at100.pointers).toHaveLength(100);
    const at101 = brokenRefs(withDependencies([{ ref: 'app', dependsOn: ghosts(101) }]));
    expect(at101.unmet).toBe(101);
    expect(at101.pointers).toHaveLength(100);
    expect(at101.pointers.at(-1)).toBe('/dependencies/0/dependsOn/99 "ghost-99"');
    const { diagnostics } = evaluateProfiles(withDependencies([{ ref: 'app', dependsOn: ghosts(101) }]), [
      policy({ refsResolve: true }, 'document'),
    ]);
    expect(diagnostics.at(-1)!.message).toBe('Falls short; fix it (and 1 more like it, not listed one by one)');
    expect(diagnostics.at(-2)!.message).toBe('Falls short; fix it');
  });

  it('finds components reachable over the same graph', () => {
    const p = policy({ reachableFromPrimary: true });
    const document = withDependencies([
      { ref: 'app', dependsOn: ['a'] },
      { ref: 'a', dependsOn: [] },
      { ref: 'b', dependsOn: ['a'] },
    ]);
    expect(unmet(p, document)).toEqual(['/components/1']);
  });
});
