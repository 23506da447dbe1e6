/**
 * Time linear in the number of findings (issue 43): n invalid components, each one finding, in XML and in JSON.
 * Locating a finding once looked at every sibling of its element (XML) and gathering a nested validator's errors
 * copied every earlier one (JSON): 40,000 findings took 66 s and 6.5 s.
 */
import { describe, expect, it } from 'vitest';
import { validate, type ValidationResult } from '../../src/index.js';
import { expectLinearAsync } from '../growth.js';

const NS = 'http://cyclonedx.org/schema/bom/1.6';

const enumFindings = (result: ValidationResult) => result.diagnostics.filter((d) => d.ruleId === 'schema/enum').length;

function xmlWithBadTypes(n: number): string {
  return `<bom xmlns="${NS}" version="1"><components>${'<component type="x"><name>a</name></component>\n'.repeat(n)}</components></bom>`;
}

function jsonWithBadTypes(n: number): string {
  const components = Array.from({ length: n }, () => ({ type: 'x', name: 'a' }));
  return JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.6', version: 1, components });
}

describe('findings × 4 cost at most × 5 time', () => {
  it('XML: one finding per invalid component, each at its own place', async () => {
    const result = await validate(xmlWithBadTypes(3));
    expect(result.diagnostics.map((d) => [d.ruleId, d.pointer, d.line])).toEqual([
      ['schema/enum', '/bom/components/component[1]/@type', 1],
      ['schema/enum', '/bom/components/component[2]/@type', 2],
      ['schema/enum', '/bom/components/component[3]/@type', 3],
    ]);
    await expectLinearAsync(
      (n) => {
        const text = xmlWithBadTypes(n);
        return async () => expect(enumFindings(await validate(text))).toBe(n);
      },
      5_000,
      5,
    );
  }, 120_000);

  it('XML: a finding deep among same-name and foreign siblings is placed by its position among elements', async () => {
    const good = '<component type="library"><name>a</name></component>';
    const text =
      `<bom xmlns="${NS}" xmlns:x="urn:x" version="1"><components>${good}<x:note/>${good}` +
      `<component type="library"><name>b</name><components>${good}<x:component/><component type="y"><name>c</name></component>` +
      `</components></component></components></bom>`;
    const result = await validate(text);
    expect(result.diagnostics.map((d) => [d.ruleId, d.pointer])).toEqual([
      ['schema/enum', '/bom/components/component[3]/components/component[2]/@type'],
    ]);
  });

  it('XML: content judged again after an unexpected child, in every component at once', async () => {
    // Each component: an unknown child, then one out of order; the second is found by the check without the first.
    const text = (n: number) =>
      `<bom xmlns="${NS}" version="1"><components>${'<component type="library"><name>a</name><foo/><purl>p</purl><version>1</version></component>\n'.repeat(n)}</components></bom>`;
    const count = async (n: number) =>
      (await validate(text(n))).diagnostics.filter((d) => /<(foo|version)>/.test(d.message)).length;
    expect(await count(2)).toBe(4);
    await expectLinearAsync(
      (n) => {
        const input = text(n);
        return async () => expect((await validate(input)).diagnostics.length).toBe(2 * n);
      },
      2_000,
      5,
    );
  }, 120_000);

  it('JSON: one finding per invalid component', async () => {
    await expectLinearAsync(
      (n) => {
        const text = jsonWithBadTypes(n);
        return async () => expect(enumFindings(await validate(text))).toBe(n);
      },
      5_000,
      5,
    );
  }, 120_000);
});

/**
 * Many findings are described once per enumeration and wrong value (the nearest allowed value is an edit-distance
 * search): every finding of a document with thousands must read exactly as it does in a document with it alone.
 * The same wrong values recur in three enumerations, so a description kept for the wrong one shows.
 */
describe('many findings read as each one alone', () => {
  const types = ['libr4ry', 'libary', 'x', 'library', 'framwork', 'sha256'];
  const algs = ['sha256', 'SHA-256', 'x', 'libr4ry', 'SHA256', 'md5'];
  const refs = ['vcs', 'x', 'websit', 'sha256', 'libr4ry'];
  const component = (i: number) => ({
    type: types[i % types.length]!,
    name: `c${i}`,
    alg: algs[Math.floor(i / types.length) % algs.length]!,
    ref: refs[i % refs.length]!,
  });
  type Component = ReturnType<typeof component>;
  const json = (components: readonly Component[]) =>
    JSON.stringify(
      {
        bomFormat: 'CycloneDX',
        specVersion: '1.6',
        version: 1,
        components: components.map((c) => ({
          type: c.type,
          name: c.name,
          hashes: [{ alg: c.alg, content: 'a'.repeat(64) }],
          externalReferences: [{ type: c.ref, url: 'https://example.com' }],
        })),
      },
      null,
      2,
    );
  const xml = (components: readonly Component[]) =>
    `<bom xmlns="${NS}" version="1"><components>\n` +
    components
      .map(
        (c) =>
          `<component type="${c.type}"><name>${c.name}</name><hashes><hash alg="${c.alg}">${'a'.repeat(64)}</hash></hashes>` +
          `<externalReferences><reference type="${c.ref}"><url>https://example.com</url></reference></externalReferences></component>\n`,
      )
      .join('') +
    `</components></bom>`;
  // What a finding says, apart from where it is.
  const said = (d: ValidationResult['diagnostics'][number]) => [d.ruleId, d.severity, d.message, d.value ?? null];
  const place = (pointer: string) =>
    pointer.replace(/^\/components\/\d+|^\/bom\/components\/component(?:\[\d+\])?/, '');

  for (const [syntax, write] of [
    ['JSON', json],
    ['XML', xml],
  ] as const) {
    it(`${syntax}: each of ${syntax === 'JSON' ? 2000 : 600} components' findings as in a document of its own`, async () => {
      const components = Array.from({ length: syntax === 'JSON' ? 2000 : 600 }, (_, i) => component(i));
      const whole = await validate(write(components));
      // Each distinct component (180 of them) once, alone: what its findings say there.
      const alone = new Map<string, string>();
      for (const c of components) {
        const key = JSON.stringify({ ...c, name: '' });
        if (alone.has(key)) continue;
        const own = await validate(write([{ ...c, name: 'c0' }]));
        alone.set(key, JSON.stringify(own.diagnostics.map((d) => [place(d.pointer), ...said(d)])));
      }
      const byComponent = new Map<number, unknown[]>();
      for (const d of whole.diagnostics) {
        const index = /^\/components\/(\d+)|^\/bom\/components\/component\[(\d+)\]/.exec(d.pointer);
        expect(index, d.pointer).not.toBeNull();
        const i = index![1] === undefined ? Number(index![2]) - 1 : Number(index![1]);
        byComponent.set(i, [...(byComponent.get(i) ?? []), [place(d.pointer), ...said(d)]]);
      }
      let compared = 0;
      components.forEach((c, i) => {
        const expected = alone.get(JSON.stringify({ ...c, name: '' }));
        if (expected === undefined) return;
        expect(JSON.stringify(byComponent.get(i) ?? []), `component ${i}`).toBe(expected);
        compared++;
      });
      expect(compared).toBe(components.length);
      // Suggestions do occur, and differ by enumeration for one wrong value.
      expect(whole.diagnostics.some((d) => d.message.includes('(did you mean "library"?)'))).toBe(syntax === 'JSON');
      expect(whole.errors).toBeGreaterThan(components.length);
    }, 120_000);
  }
});
