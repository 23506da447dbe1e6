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
