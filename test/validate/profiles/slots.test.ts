/**
 * Components are checked on their members read once into slots; the document and the primary component by the
 * plain reading of each member. Both must give the same verdicts, on every kind of member a hand-built value may
 * hold. The dependency graph takes the rules' bom-ref set only when it is the components' own.
 */
import { describe, expect, it } from 'vitest';
import { parseProfile, resolveProfile, validate, type Profile } from '../../../src/index.js';
import { evaluateProfiles } from '../../../src/validate/profiles/evaluate.js';
import { indexDocument } from '../../../src/validate/document-index.js';

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function policy(check: unknown, appliesTo: unknown = 'components', when?: unknown): Profile {
  const requirement = {
    id: 'rule',
    level: 'MUST',
    clause: 'Acme 1',
    message: 'Falls short',
    hint: 'fix it',
    appliesTo,
  };
  const spec = parseProfile(
    { name: 'acme', requirements: [{ ...requirement, check, ...(when === undefined ? {} : { when }) }] },
    'acme.json',
  );
  return resolveProfile(spec, () => {
    throw new Error('no base');
  });
}

const inherited = (proto: Doc, own: Doc = {}): Doc => Object.assign(Object.create(proto) as Doc, own);

/** Components whose members are there, missing, inherited, undefined, null, empty, arrays, arrays in arrays. */
const COMPONENTS: Doc[] = [
  {},
  { name: '' },
  { name: 'x', version: '1' },
  { name: undefined },
  { name: null },
  { name: ['', 'x'] },
  { name: [['x']] },
  inherited({ name: 'from the prototype' }),
  inherited({ licenses: [{ license: { id: 'MIT' } }] }, { name: 'x' }),
  { supplier: undefined, manufacturer: { name: 'm' } },
  { supplier: null, manufacturer: { name: 'm' } },
  { supplier: [{ name: '' }, { name: 's' }] },
  { supplier: { name: 's', url: ['https://acme.example'] } },
  { supplier: { contact: [{ email: 'a@acme.example' }] } },
  { supplier: inherited({ name: 'from the prototype' }) },
  { hashes: [{ alg: 'SHA-256', content: 'ab' }] },
  { hashes: [[{ alg: 'SHA-512', content: 'ab' }]] },
  { hashes: [{ alg: 'MD5', content: 'ab' }, { alg: 'SHA-384' }] },
  { hashes: { alg: 'SHA-256', content: 'ab' } },
  { licenses: [] },
  { licenses: 'MIT' },
  { licenses: undefined },
  { licenses: [{ license: { id: 'MIT', acknowledgement: 'concluded' } }] },
  { licenses: [{ license: { id: 'NOASSERTION' } }, { expression: 'MIT OR Apache-2.0', acknowledgement: 'declared' }] },
  { licenses: [{ license: { name: 'LicenseRef-acme' } }, { license: { name: 'Acme' }, acknowledgement: 'concluded' }] },
  { licenses: [[{ license: { id: 'GPL-3.0-only' } }]] },
  { externalReferences: [{ type: 'vcs', url: 'https://acme.example/x.git' }] },
  { externalReferences: [{ type: 'distribution', url: 'not a url', hashes: [{ alg: 'SHA-512', content: 'ab' }] }] },
  { externalReferences: [{ type: 'website', url: 'x' }] },
  { a: { b: [1, 2] } },
  { a: [{ b: [] }, { b: [3] }] },
  { a: { b: undefined } },
  { a: inherited({ b: [1] }) },
  { authors: [{ name: 'Jane', email: 'jane@acme.example' }] },
  { authors: [], author: 'Jane <jane@acme.example>' },
  { author: 'Jane' },
  { type: 'library', purl: 'pkg:npm/lodash@4.17.20', timestamp: '2026-01-01T00:00:00Z' },
  { type: 'library', purl: 'pkg:npm/lodash@4.17.21', timestamp: '2026-01-01' },
  { type: 'application', name: 'lodash', version: '1.0.0', purl: 'not a purl' },
  { cpe: 'cpe:2.3:a:acme:x:1.0' },
  { purl: undefined, cpe: 'cpe:2.3:a:acme:x:1.0' },
];

const CHECKS: unknown[] = [
  { present: 'name' },
  { present: ['supplier.name', 'manufacturer.name'] },
  { present: 'a.b' },
  { entity: 'supplier' },
  { entity: ['supplier', 'manufacturer'], by: ['url', 'email'], valid: true },
  { email: 'authors.email' },
  { email: 'author', within: true },
  { url: 'externalReferences.url' },
  { timestamp: 'timestamp' },
  { in: 'type', values: ['library', 'framework'] },
  { in: ['licenses.license.acknowledgement', 'licenses.acknowledgement'], values: ['CONCLUDED'], ignoreCase: true },
  { matches: 'name', pattern: '^x' },
  { matches: 'purl', pattern: 'lodash@4\\.17\\.2[01]$' },
  { some: 'hashes', where: { allOf: [{ present: 'alg' }, { present: 'content' }] } },
  { some: 'externalReferences', where: { some: 'hashes', where: { in: 'alg', values: ['SHA-512'] } } },
  { hashAtLeast: 'hashes', alg: 'SHA-256' },
  { every: 'licenses', where: { licenceValid: true } },
  { every: 'licenses', nonEmpty: true, where: { licenceValid: true } },
  {
    every: 'licenses',
    of: { in: ['license.acknowledgement', 'acknowledgement'], values: ['concluded'] },
    nonEmpty: true,
    where: { licenceValid: true },
  },
  { every: 'a.b', nonEmpty: true, where: { not: { in: 'x', values: ['y'] } } },
  { every: 'externalReferences', of: { in: 'type', values: ['vcs', 'distribution'] }, where: { url: 'url' } },
  { anyOf: [{ present: 'purl' }, { present: 'cpe' }, { present: 'swid.tagId' }] },
  { present: ['purl', 'cpe'] },
  { allOf: [{ present: 'name' }, { not: { present: 'version' } }] },
  { not: { present: 'licenses' } },
  { licenceValid: true },
  { licencesAllowed: ['MIT', 'Apache-2.0'] },
  { licencesDenied: ['GPL-3.0-only'] },
  { deny: [{ purl: 'pkg:npm/lodash', versions: '<4.17.21' }, { name: 'lodash' }] },
];

describe('component checks on slots', () => {
  it('give every check the verdict the plain reading gives the same value as the primary component', () => {
    for (const check of CHECKS) {
      const onComponents = evaluateProfiles({ components: COMPONENTS }, [policy(check)]).diagnostics;
      const unmet = new Set(onComponents.map((d) => d.pointer.split('/')[2]));
      for (const [i, component] of COMPONENTS.entries()) {
        const asPrimary = evaluateProfiles({ metadata: { component } }, [policy(check, 'primary')]).diagnostics;
        expect(unmet.has(String(i)), `${JSON.stringify(check)} on component ${i}`).toBe(asPrimary.length > 0);
        // Where and why: the same explanation below the subject.
        const mine = onComponents.find((d) => d.pointer.split('/')[2] === String(i));
        if (mine !== undefined)
          expect(mine.pointer.replace(`/components/${i}`, '/metadata/component') + mine.message).toBe(
            asPrimary[0]!.pointer + asPrimary[0]!.message,
          );
      }
    }
  });

  it('apply a condition on the component read the same way', () => {
    const when = { anyOf: [{ present: 'licenses' }, { in: 'type', values: ['library'] }] };
    const check = { present: 'name' };
    const onComponents = evaluateProfiles({ components: COMPONENTS }, [policy(check, 'components', when)]);
    const expected = COMPONENTS.flatMap((component, i) =>
      evaluateProfiles({ metadata: { component } }, [policy(check, 'primary', when)]).diagnostics.length > 0
        ? [`/components/${i}`]
        : [],
    );
    expect(onComponents.diagnostics.map((d) => d.pointer)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(COMPONENTS.length);
  });

  it('read each component afresh: nested ones, the first and the last, members missing after ones that had them', () => {
    const p = policy({ present: 'name' });
    const document = {
      components: [
        { name: 'a', components: [{ version: '1' }, { name: 'b', components: [{}] }] },
        {},
        { name: 'c' },
        { version: '2' },
      ],
    };
    expect(evaluateProfiles(document, [p]).diagnostics.map((d) => d.pointer)).toEqual([
      '/components/0/components/0',
      '/components/0/components/1/components/0',
      '/components/1',
      '/components/3',
    ]);
  });

  it('count a component unreachable by its own bom-ref only, never an inherited one', () => {
    const p = policy({ reachableFromPrimary: true });
    const document = {
      metadata: { component: { 'bom-ref': 'app' } },
      components: [{ 'bom-ref': 'a' }, inherited({ 'bom-ref': 'a' }), { 'bom-ref': 'b' }, { 'bom-ref': 7 }],
      dependencies: [{ ref: 'app', dependsOn: ['a'] }],
    };
    const found = evaluateProfiles(document, [p]).diagnostics;
    expect(found.map((d) => d.pointer)).toEqual(['/components/1', '/components/2', '/components/3']);
    expect(found[0]!.message).toBe('Falls short (it has no bom-ref); fix it');
    expect(found[1]!.message).toBe('Falls short; fix it');
    // The primary component is where paths start: never unreachable, even without a bom-ref of its own.
    const primary = { ...document, metadata: { component: inherited({ 'bom-ref': 'app' }) } };
    expect(evaluateProfiles(primary, [p]).diagnostics.map((d) => d.pointer)).toEqual([
      '/components/0',
      '/components/1',
      '/components/2',
      '/components/3',
    ]);
  });
});

describe('the dependency graph', () => {
  const refsAndReach = (document: Doc, indexed: boolean) => {
    const profiles = [
      policy({ refsResolve: true }, 'document'),
      { ...policy({ reachableFromPrimary: true }), name: 'reach' },
      { ...policy({ primaryDependencies: {} }, 'document'), name: 'primary' },
    ];
    const index = indexed ? indexDocument(document) : undefined;
    return evaluateProfiles(document, profiles, index).diagnostics.map((d) => `${d.ruleId} ${d.pointer}`);
  };

  const documents: Doc[] = [
    // Every bom-ref a component's: the rules' set is taken.
    {
      metadata: { component: { 'bom-ref': 'app' } },
      components: [{ 'bom-ref': 'a' }, { 'bom-ref': 'b', components: [{ 'bom-ref': 'c' }] }],
      dependencies: [{ ref: 'app', dependsOn: ['a', 'ghost'] }, { ref: 'a', dependsOn: ['c'] }, { ref: 'nobody' }],
    },
    // A service's bom-ref resolves for the rules, not for profiles (they ask for components).
    {
      metadata: { component: { 'bom-ref': 'app' } },
      components: [{ 'bom-ref': 'a' }],
      services: [{ 'bom-ref': 's' }],
      dependencies: [
        { ref: 'app', dependsOn: ['a', 's'] },
        { ref: 's', dependsOn: ['a'] },
      ],
    },
    // A bom-ref defined twice, and one in a signature (which the rules' walk skips).
    {
      metadata: { component: { 'bom-ref': 'app' } },
      components: [{ 'bom-ref': 'a' }, { 'bom-ref': 'a' }, { 'bom-ref': 'b', signature: { 'bom-ref': 'z' } }],
      dependencies: [{ ref: 'app', dependsOn: ['b', 'z'] }],
    },
    // The primary component listed twice: both lists count; and not listed at all.
    {
      metadata: { component: { 'bom-ref': 'app' } },
      components: [{ 'bom-ref': 'a' }, { 'bom-ref': 'b' }],
      dependencies: [
        { ref: 'app', dependsOn: [] },
        { ref: 'app', dependsOn: ['b'] },
      ],
    },
    {
      metadata: { component: { 'bom-ref': 'app' } },
      components: [{ 'bom-ref': 'a' }, { 'bom-ref': 'b' }],
      dependencies: [{ ref: 'a', dependsOn: ['b'] }],
    },
    // An inherited member, and a bom-ref the rules' walk does not see (not enumerable): as many as the
    // components have, but not the same ones.
    {
      metadata: { component: { 'bom-ref': 'app' } },
      components: [{ 'bom-ref': 'a' }, Object.defineProperty({}, 'bom-ref', { value: 'hidden', enumerable: false })],
      services: [inherited({ 'bom-ref': 's' })],
      dependencies: [{ ref: 'app', dependsOn: ['a', 'hidden', 's'] }],
    },
    // A bom-ref spelled as a BOM-Link: a broken link for the rules, a component for profiles; a ghost in
    // provides, which profiles do not read.
    {
      metadata: { component: { 'bom-ref': 'app' } },
      components: [{ 'bom-ref': 'urn:cdx:f08a6ccd-4dce-4759-bd84-c626675d60a7/1#a' }, { 'bom-ref': 'b' }],
      dependencies: [
        { ref: 'app', dependsOn: ['urn:cdx:f08a6ccd-4dce-4759-bd84-c626675d60a7/1#a', 'urn:cdx:x/1#y'] },
        { ref: 'b', provides: ['ghost'] },
      ],
    },
    // An inherited member somewhere: the rules' walk says nothing about the refs.
    {
      metadata: { component: { 'bom-ref': 'app' } },
      components: [{ 'bom-ref': 'a' }, inherited({ 'bom-ref': 'x' })],
      services: [inherited({ 'bom-ref': 'ghost' })],
      dependencies: [{ ref: 'app', dependsOn: ['a', 'ghost', 'x'] }],
    },
  ];

  it('finds the same broken refs, reachable components and primary dependencies with the rules’ set or its own', () => {
    for (const document of documents) expect(refsAndReach(document, true)).toEqual(refsAndReach(document, false));
  });

  it('takes nothing from a walk that met inherited members', () => {
    expect(refsAndReach(documents[5]!, true)).toEqual(['profile/acme/rule /dependencies/0/dependsOn/2']);
  });

  it('reads a BOM-Link that is a component’s bom-ref as resolved, and never the provides lists', async () => {
    const document = { bomFormat: 'CycloneDX', specVersion: '1.6', ...documents[6]! };
    const result = await validate(document, { profiles: [policy({ refsResolve: true }, 'document')] });
    expect(result.diagnostics.filter((d) => d.ruleId === 'ref/unresolved').map((d) => d.pointer)).toEqual([
      '/dependencies/0/dependsOn/0',
      '/dependencies/0/dependsOn/1',
      '/dependencies/1/provides/0',
    ]);
    expect(result.diagnostics.filter((d) => d.ruleId === 'profile/acme/rule').map((d) => d.pointer)).toEqual([
      '/dependencies/0/dependsOn/1',
    ]);
  });

  it('reports a ref that names a service, not a component, as broken', () => {
    expect(refsAndReach(documents[1]!, true)).toEqual([
      'profile/acme/rule /dependencies/0/dependsOn/1',
      'profile/acme/rule /dependencies/1/ref',
    ]);
  });

  it('reaches over both entries of a primary component listed twice, and nothing from one not listed', () => {
    expect(refsAndReach(documents[3]!, true)).toEqual(['profile/reach/rule /components/0']);
    expect(refsAndReach(documents[4]!, true)).toEqual([
      'profile/reach/rule /components/0',
      'profile/reach/rule /components/1',
      'profile/primary/rule /dependencies',
    ]);
  });

  it('gives validate the same findings as the evaluator on its own', async () => {
    for (const document of documents) {
      const profiles = [
        policy({ refsResolve: true }, 'document'),
        { ...policy({ reachableFromPrimary: true }), name: 'reach' },
      ];
      const result = await validate({ bomFormat: 'CycloneDX', specVersion: '1.6', ...document }, { profiles });
      const own = evaluateProfiles({ bomFormat: 'CycloneDX', specVersion: '1.6', ...document }, profiles).diagnostics;
      expect(result.diagnostics.filter((d) => d.ruleId.startsWith('profile/'))).toEqual(own);
    }
  });
});

describe('places of profile findings', () => {
  it('point at the first of two root members of the same name, however far apart', async () => {
    const components = Array.from({ length: 300 }, (_, i) => ({ type: 'library', name: `c${i}`, version: '1' }));
    const head = {
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      metadata: { component: { 'bom-ref': 'app', name: 'app' } },
    };
    const body = JSON.stringify({ ...head, components }, null, 2).slice(0, -2);
    const text = `${body},\n  "dependencies": [],\n  "dependencies": []\n}`;
    const first = text.slice(0, text.indexOf('"dependencies"')).split('\n').length;
    const profiles = [
      policy({ primaryDependencies: {} }, 'document'),
      { ...policy({ present: 'supplier' }), name: 'n' },
    ];
    const found = (await validate(text, { profiles })).diagnostics.find((d) => d.ruleId === 'profile/acme/rule');
    expect(found).toMatchObject({ pointer: '/dependencies', line: first, column: 3 });
    // Once: the same place without the repeat.
    const once = `${body},\n  "dependencies": []\n}`;
    const only = (await validate(once, { profiles })).diagnostics.find((d) => d.ruleId === 'profile/acme/rule');
    expect(only).toMatchObject({ pointer: '/dependencies', line: first, column: 3 });
  });
});
