/**
 * `setValue`, `addComposition`, `addProperty` over selections, `addArtefactHashes` and the licence acknowledgement
 * and author shorthands: through the library, on both sides of each boundary (the syntax-independent model; the
 * CLI tests run the same edits on JSON and XML files).
 */
import { describe, expect, it } from 'vitest';
import { addArtefactHashes, addComponent, addComposition, addProperty, setValue, validate } from '../../src/index.js';
import { minimalBom } from '../helpers.js';

type Doc = Record<string, unknown>;

function bom(specVersion = '1.6'): Doc {
  return minimalBom(specVersion, {
    metadata: { component: { type: 'application', 'bom-ref': 'app', name: 'app', version: '1.0.0' } },
    components: [
      {
        type: 'library',
        'bom-ref': 'a',
        name: 'a',
        version: '1.0.0',
        purl: 'pkg:npm/a@1.0.0',
        licenses: [{ license: { id: 'MIT' } }],
        externalReferences: [{ type: 'distribution', url: 'https://registry.example/a/-/a-1.0.0.tgz' }],
      },
      {
        type: 'framework',
        'bom-ref': 'b',
        name: 'b',
        version: '2.0.0',
        purl: 'pkg:maven/org.example/b@2.0.0?type=jar',
        supplier: { name: 'B Org' },
      },
    ],
  });
}

const components = (doc: Doc) => doc.components as Doc[];
const metadata = (doc: Doc) => doc.metadata as Doc;

async function rejects(run: () => Promise<unknown>, pattern: RegExp): Promise<void> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  expect((error as { code?: string }).code).toBe('E_USAGE');
  expect((error as Error).message).toMatch(pattern);
}

describe('setValue: any member of the document by pointer', () => {
  it('writes 1.6 members the older set refused (manufacturer, lifecycles); 1.5 has no manufacturer and says so', async () => {
    const set = await setValue(bom(), {
      pointer: '/metadata/manufacturer',
      value: 'ACME <sbom@acme.example> https://acme.example',
      text: true,
    });
    expect(set.applied).toBe(true);
    expect(metadata(set.document).manufacturer).toEqual({
      name: 'ACME',
      url: ['https://acme.example'],
      contact: [{ email: 'sbom@acme.example' }],
    });
    await rejects(
      () => setValue(bom('1.5'), { pointer: '/metadata/manufacturer', value: 'ACME', text: true }),
      /CycloneDX 1\.5 has no member "manufacturer" at \/metadata\/manufacturer \(did you mean "manufacture"\?\)/,
    );
    const lifecycles = await setValue(bom(), { pointer: '/metadata/lifecycles/-', value: 'build', text: true });
    expect(metadata(lifecycles.document).lifecycles).toEqual([{ phase: 'build' }]);
    const named = await setValue(bom(), { pointer: '/metadata/lifecycles', value: 'nightly', text: true });
    expect(metadata(named.document).lifecycles).toEqual([{ name: 'nightly' }]);
    // 1.4 has no lifecycles (1.5+): the nearest of 1.4's own members are offered.
    await rejects(
      () => setValue(bom('1.4'), { pointer: '/metadata/lifecycles', value: 'build', text: true }),
      /1\.4 has no member "lifecycles"/,
    );
  });

  it('reads text as the schema types the place: strings stay strings, numbers and booleans are parsed, now is a date-time', async () => {
    const version = await setValue(bom(), { pointer: '/metadata/component/version', value: '2.10', text: true });
    expect((metadata(version.document).component as Doc).version).toBe('2.10');
    const now = await setValue(bom(), {
      pointer: '/metadata/timestamp',
      value: 'now',
      text: true,
      now: new Date('2026-01-02T03:04:05.678Z'),
    });
    expect(metadata(now.document).timestamp).toBe('2026-01-02T03:04:05Z');
    const json = await setValue(bom(), {
      pointer: '/metadata/supplier',
      value: '{"name":"S","url":["https://s.example"]}',
      text: true,
    });
    expect(metadata(json.document).supplier).toEqual({ name: 'S', url: ['https://s.example'] });
    const person = await setValue(bom(), {
      pointer: '/metadata/authors/-',
      value: 'Jane Doe <jane@example.com>',
      text: true,
    });
    expect(metadata(person.document).authors).toEqual([{ name: 'Jane Doe', email: 'jane@example.com' }]);
  });

  it('refuses the members other commands own, naming them; a component version is an ordinary member', async () => {
    await rejects(
      () => setValue(bom(), { pointer: '/serialNumber', value: 'x' }),
      /bomwright bump FILE --baseline OLD/,
    );
    await rejects(() => setValue(bom(), { pointer: '/version', value: 2 }), /raised by bomwright bump/);
    await rejects(() => setValue(bom(), { pointer: '/specVersion', value: '1.5' }), /bomwright convert/);
    await rejects(() => setValue(bom(), { pointer: '/metadata/component/signature', value: {} }), /bomwright sign/);
    await rejects(() => setValue(bom(), { pointer: '/signature', remove: true }), /bomwright sign/);
    const component = await setValue(bom(), { pointer: '/version', value: '3.0.0', components: ['bom-ref=a'] });
    expect(components(component.document)[0]!.version).toBe('3.0.0');
    expect(component.document.version).toBe(1);
  });

  it('checks the value against the schema: an invalid one is not applied and the input is untouched', async () => {
    const input = bom();
    const before = structuredClone(input);
    const result = await setValue(input, { pointer: '/metadata/lifecycles', value: [{ phase: 'brewing' }] });
    expect(result.applied).toBe(false);
    expect(result.diagnostics.length).toBeGreaterThan(0);
    expect(input).toEqual(before);
    const valid = await setValue(input, { pointer: '/metadata/lifecycles', value: [{ phase: 'build' }] });
    expect(valid.applied).toBe(true);
  });

  it('removes a member', async () => {
    const withVulns = { ...bom(), vulnerabilities: [{ id: 'CVE-2024-0001' }] };
    const removed = await setValue(withVulns, { pointer: '/vulnerabilities', remove: true });
    expect(removed.document.vulnerabilities).toBeUndefined();
  });
});

describe('component selectors', () => {
  const refsOf = async (selectors: string[]) => {
    const result = await setValue(bom(), { pointer: '/description', value: 'x', components: selectors });
    const all = [metadata(result.document).component as Doc, ...components(result.document)];
    return all.filter((c) => c.description === 'x').map((c) => c['bom-ref']);
  };

  it('* is every component, metadata.component included', async () => {
    expect(await refsOf(['*'])).toEqual(['app', 'a', 'b']);
  });

  it('a purl pattern: * is any run of characters; without @ any version and qualifiers match, with @ the version must', async () => {
    expect(await refsOf(['pkg:npm/*'])).toEqual(['a']);
    expect(await refsOf(['pkg:maven/org.example/b'])).toEqual(['b']);
    expect(await refsOf(['pkg:npm/a@1.0.0'])).toEqual(['a']);
    await rejects(() => refsOf(['pkg:npm/a@1.0.1']), /No component matches "pkg:npm\/a@1\.0\.1"/);
  });

  it('PATH=VALUE, PATH and !PATH, all of several', async () => {
    expect(await refsOf(['type=library'])).toEqual(['a']);
    expect(await refsOf(['licenses.license.id=MIT'])).toEqual(['a']);
    expect(await refsOf(['supplier'])).toEqual(['b']);
    expect(await refsOf(['!supplier'])).toEqual(['app', 'a']);
    expect(await refsOf(['!supplier', 'version=1.*'])).toEqual(['app', 'a']);
    expect(await refsOf(['!supplier', 'type=application'])).toEqual(['app']);
  });

  it('a member path the version lacks is refused with the nearest, never silently matching nothing', async () => {
    await rejects(
      () => refsOf(['licences.license.id=MIT']),
      /no member "licences" at \/components\/N\/licences \(did you mean "licenses"\?\)/,
    );
  });
});

describe('licences, authors and suppliers from text', () => {
  it('--acknowledgement marks licences declared or concluded in 1.6+, on the license object or beside an expression', async () => {
    const added = await setValue(bom(), {
      pointer: '/licenses/-',
      value: 'MIT',
      text: true,
      acknowledgement: 'concluded',
      components: ['bom-ref=a'],
    });
    expect(components(added.document)[0]!.licenses).toEqual([
      { license: { id: 'MIT' } },
      { license: { id: 'MIT', acknowledgement: 'concluded' } },
    ]);
    const expression = await setValue(bom(), {
      pointer: '/licenses',
      value: 'MIT OR Apache-2.0',
      text: true,
      acknowledgement: 'declared',
      components: ['bom-ref=b'],
    });
    expect(components(expression.document)[1]!.licenses).toEqual([
      { expression: 'MIT OR Apache-2.0', acknowledgement: 'declared' },
    ]);
    await rejects(
      () =>
        setValue(bom('1.5'), {
          pointer: '/licenses',
          value: 'MIT',
          text: true,
          acknowledgement: 'concluded',
          components: ['*'],
        }),
      /CycloneDX 1\.5 has no licence acknowledgement/,
    );
  });

  it('add --author splits the address into email (1.6 authors[]), and keeps the text whole before 1.6', async () => {
    const v16 = await addComponent(bom(), {
      name: 'c',
      version: '1',
      authors: ['Jane Doe <jane@example.com>'],
      licenses: ['MIT'],
      licenseAcknowledgement: 'concluded',
    });
    const c16 = components(v16.document).at(-1)!;
    expect(c16.authors).toEqual([{ name: 'Jane Doe', email: 'jane@example.com' }]);
    expect(c16.licenses).toEqual([{ license: { id: 'MIT', acknowledgement: 'concluded' } }]);
    const v15 = await addComponent(bom('1.5'), { name: 'c', version: '1', authors: ['Jane Doe <jane@example.com>'] });
    expect(components(v15.document).at(-1)!.author).toBe('Jane Doe <jane@example.com>');
    const bare = await addComponent(bom(), {
      name: 'd',
      version: '1',
      authors: ['jane@example.com'],
      supplier: 'ACME <s@acme.example>',
    });
    expect(components(bare.document).at(-1)!.authors).toEqual([{ email: 'jane@example.com' }]);
    expect(components(bare.document).at(-1)!.supplier).toEqual({
      name: 'ACME',
      contact: [{ email: 's@acme.example' }],
    });
  });
});

describe('addComposition and addProperty over components', () => {
  it("states metadata.component's dependencies by default; again changes nothing; an unknown aggregate gets the nearest", async () => {
    const once = await addComposition(bom(), { aggregate: 'complete' });
    expect(once.document.compositions).toEqual([{ aggregate: 'complete', dependencies: ['app'] }]);
    const twice = await addComposition(once.document, { aggregate: 'complete' });
    expect(twice.document.compositions).toEqual([{ aggregate: 'complete', dependencies: ['app'] }]);
    const other = await addComposition(once.document, { aggregate: 'incomplete', dependencies: ['a'] });
    expect(other.document.compositions).toEqual([
      { aggregate: 'complete', dependencies: ['app'] },
      { aggregate: 'incomplete', dependencies: ['a'] },
    ]);
    await rejects(() => addComposition(bom(), { aggregate: 'compelte' }), /did you mean complete\?/);
    const rootless = bom();
    delete (metadata(rootless).component as Doc)['bom-ref'];
    await rejects(
      () => addComposition(rootless, { aggregate: 'complete' }),
      /metadata\.component, which has no bom-ref/,
    );
  });

  it('adds a property to each selected component that lacks that name and value', async () => {
    const once = await addProperty(bom(), { name: 'bsi:component:archive', value: 'archive', components: ['*'] });
    const count = (doc: Doc) =>
      [metadata(doc).component as Doc, ...components(doc)].map((c) => ((c.properties as unknown[]) ?? []).length);
    expect(count(once.document)).toEqual([1, 1, 1]);
    const twice = await addProperty(once.document, {
      name: 'bsi:component:archive',
      value: 'archive',
      components: ['*'],
    });
    expect(count(twice.document)).toEqual([1, 1, 1]);
  });
});

describe('addArtefactHashes', () => {
  const artefact = { fileName: 'a-1.0.0.tgz', hashes: [{ alg: 'SHA-512', content: 'ab'.repeat(64) }] };

  it('finds the component by the end of its distribution URL and writes both places and the file name', async () => {
    const result = await addArtefactHashes(bom(), { artefacts: [artefact] });
    const a = components(result.document)[0]!;
    expect(a.hashes).toEqual(artefact.hashes);
    expect((a.externalReferences as Doc[])[0]!.hashes).toEqual(artefact.hashes);
    expect(a.properties).toEqual([{ name: 'bsi:component:filename', value: 'a-1.0.0.tgz' }]);
    const report = await validate(result.document, { signatures: 'ignore' });
    expect(report.valid).toBe(true);
    // Again with a new build of the file: the hash is replaced, not added beside the old one.
    const rebuilt = await addArtefactHashes(result.document, {
      artefacts: [{ ...artefact, hashes: [{ alg: 'SHA-512', content: 'cd'.repeat(64) }] }],
    });
    expect(components(rebuilt.document)[0]!.hashes).toEqual([{ alg: 'SHA-512', content: 'cd'.repeat(64) }]);
  });

  it('a file that names no component is refused; a component without a distribution reference needs --url', async () => {
    await rejects(
      () => addArtefactHashes(bom(), { artefacts: [{ ...artefact, fileName: 'other.tgz' }] }),
      /other\.tgz matches no component/,
    );
    await rejects(
      () => addArtefactHashes(bom(), { artefacts: [artefact], components: ['bom-ref=b'] }),
      /\/components\/1 has no distribution reference for the hashes: give --url/,
    );
    const url = await addArtefactHashes(bom(), {
      artefacts: [artefact],
      components: ['bom-ref=b'],
      url: 'https://b.example/b.jar',
    });
    expect(components(url.document)[1]!.externalReferences).toEqual([
      { type: 'distribution', url: 'https://b.example/b.jar', hashes: artefact.hashes },
    ]);
    const only = await addArtefactHashes(bom(), {
      artefacts: [artefact],
      components: ['bom-ref=b'],
      places: ['component'],
    });
    expect(components(only.document)[1]!.externalReferences).toBeUndefined();
    expect(components(only.document)[1]!.hashes).toEqual(artefact.hashes);
  });
});
