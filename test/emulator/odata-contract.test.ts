/**
 * The OData query options as the emulator parses them (odata.ts): what each accepts, the edge values on both sides,
 * and the exact 400 message for everything refused. Called directly: the handlers pass the raw option values.
 */
import { describe, expect, it } from 'vitest';
import { ServiceFault } from '../../src/emulator/faults.js';
import { applySelect, parseCount, parseEqualityFilter, parseExpand, parseSelect } from '../../src/emulator/odata.js';
import type { JsonRecord } from '../../src/emulator/store.js';

/** The 400 BadRequest message `run` throws; fails when it throws anything else or nothing. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceFault);
    expect((error as ServiceFault).status).toBe(400);
    expect((error as ServiceFault).code).toBe('BadRequest');
    return (error as ServiceFault).message;
  }
  throw new Error('nothing was refused');
}

describe('$top and $skip take a non-negative 32-bit integer', () => {
  it('reads 0 up to 2147483647, and nothing when the option is absent', () => {
    expect(parseCount('$top', undefined)).toBeUndefined();
    expect(parseCount('$top', '0')).toBe(0);
    expect(parseCount('$skip', '007')).toBe(7);
    expect(parseCount('$top', '2147483647')).toBe(2_147_483_647);
  });

  it('refuses 2147483648, eleven digits, signs, decimals, blanks and trailing text, naming the option', () => {
    expect(refusal(() => parseCount('$top', '2147483648'))).toBe(
      "Invalid value '2147483648' for query option $top: expected a non-negative 32-bit integer.",
    );
    expect(refusal(() => parseCount('$skip', '1a'))).toBe(
      "Invalid value '1a' for query option $skip: expected a non-negative 32-bit integer.",
    );
    for (const value of ['00000000001', '-1', '+1', '1.5', '', ' 1', '1 ', 'a1'])
      expect(
        refusal(() => parseCount('$top', value)),
        value,
      ).toMatch(/^Invalid value '.*' for query option \$top/);
  });
});

describe('$select names fields of the resource', () => {
  const fields = ['id', 'displayName', 'mail'];

  it('reads a comma-separated list, trimming blanks around names, and nothing when absent', () => {
    expect(parseSelect(undefined, fields, 'T')).toBeUndefined();
    expect(parseSelect('mail', fields, 'T')).toEqual(['mail']);
    expect(parseSelect(' displayName , mail ', fields, 'T')).toEqual(['displayName', 'mail']);
  });

  it('refuses an empty name anywhere in the list', () => {
    for (const value of ['', 'mail,', ',mail', 'mail,,id', 'mail, ,id'])
      expect(
        refusal(() => parseSelect(value, fields, 'T')),
        value,
      ).toBe('Invalid $select: empty property name.');
  });

  it('refuses a name the resource does not have, naming it and the type', () => {
    expect(refusal(() => parseSelect('mail,colour', fields, 'vendor.graph.user'))).toBe(
      "Could not find a property named 'colour' on type 'vendor.graph.user'.",
    );
    // Names are matched exactly, as the service does.
    expect(refusal(() => parseSelect('Mail', fields, 'T'))).toBe("Could not find a property named 'Mail' on type 'T'.");
  });

  it('keeps the selected fields, the @odata annotations and the fields always returned, and changes nothing', () => {
    const record: JsonRecord = Object.freeze({
      '@odata.type': '#t',
      id: '1',
      displayName: 'A',
      mail: 'a@x',
      other: 2,
    });
    expect(applySelect(record, undefined)).toBe(record);
    expect(applySelect(record, ['mail'])).toEqual({ '@odata.type': '#t', id: '1', mail: 'a@x' });
    expect(applySelect(record, ['mail'], [])).toEqual({ '@odata.type': '#t', mail: 'a@x' });
    expect(applySelect(record, ['mail'], ['displayName'])).toEqual({
      '@odata.type': '#t',
      displayName: 'A',
      mail: 'a@x',
    });
    expect(record).toEqual({ '@odata.type': '#t', id: '1', displayName: 'A', mail: 'a@x', other: 2 });
  });
});

describe('$expand names navigation properties, nested only through $expand', () => {
  const allowed = { owner: { manager: {} }, members: {} };
  /** Every name may be expanded inside every other, without end: only the depth limit stops a chain. */
  const endless: Record<string, Record<string, unknown>> = {};
  endless.a = endless;
  const chain = (levels: number): string => (levels === 1 ? 'a' : `a($expand=${chain(levels - 1)})`);

  it('reads a list of names with nested lists, trimming blanks, and nothing when absent', () => {
    expect(parseExpand(undefined, allowed, 'T')).toEqual([]);
    expect(parseExpand('members', allowed, 'T')).toEqual([{ name: 'members', expand: [] }]);
    expect(parseExpand(' owner , members ', allowed, 'T')).toEqual([
      { name: 'owner', expand: [] },
      { name: 'members', expand: [] },
    ]);
    expect(parseExpand('owner( $expand=manager ),members()', allowed, 'T')).toEqual([
      { name: 'owner', expand: [{ name: 'manager', expand: [] }] },
      { name: 'members', expand: [] },
    ]);
  });

  it('splits only at top-level commas: a nested list stays with its parent', () => {
    const tree = { a: { b: {}, c: {} }, d: {} };
    expect(parseExpand('a($expand=b,c),d', tree, 'T')).toEqual([
      {
        name: 'a',
        expand: [
          { name: 'b', expand: [] },
          { name: 'c', expand: [] },
        ],
      },
      { name: 'd', expand: [] },
    ]);
  });

  it('accepts five levels of nesting and refuses a sixth', () => {
    expect(parseExpand(chain(5), endless, 'T')).toHaveLength(1);
    expect(refusal(() => parseExpand(chain(6), endless, 'T'))).toBe('Invalid $expand: nested too deeply.');
  });

  it('refuses unbalanced parentheses, even when the count comes out even', () => {
    for (const value of ['owner(', 'owner)', 'owner($expand=manager', 'owner)(', ')owner('])
      expect(
        refusal(() => parseExpand(value, allowed, 'T')),
        value,
      ).toBe('Invalid $expand: unbalanced parentheses.');
  });

  it('refuses an item that is not a name with an optional parenthesised part', () => {
    for (const value of ['1owner', 'owner-x', 'owner()x', 'own er', ''])
      expect(
        refusal(() => parseExpand(value, allowed, 'T')),
        value,
      ).toBe(`Invalid $expand item '${value.trim()}'.`);
  });

  it('refuses names that are not navigation properties of the type, at every level', () => {
    expect(refusal(() => parseExpand('manager', allowed, 'vendor.graph.group'))).toBe(
      "Could not find a navigation property named 'manager' on type 'vendor.graph.group'.",
    );
    expect(refusal(() => parseExpand('owner($expand=members)', allowed, 'T'))).toBe(
      "Could not find a navigation property named 'members' on type 'owner'.",
    );
    expect(refusal(() => parseExpand('constructor', allowed, 'T'))).toMatch(/named 'constructor'/);
  });

  it('refuses any nested option other than $expand', () => {
    for (const inner of ['$select=id', 'x$expand=manager', '$expand=', '$top=1'])
      expect(
        refusal(() => parseExpand(`owner(${inner})`, allowed, 'T')),
        inner,
      ).toBe("Only $expand is supported inside $expand of 'owner'.");
  });
});

describe('$filter takes equality clauses joined by and', () => {
  const fields = ['displayName', 'isDefault', 'description'];
  const records: JsonRecord[] = [
    { displayName: "O'Brien", isDefault: true, description: 'x' },
    { displayName: 'Plain', isDefault: false },
    { displayName: 'OBrien', isDefault: true, description: null },
  ];
  const names = (value: string): unknown[] =>
    records.filter(parseEqualityFilter(value, fields)!).map((record) => record.displayName);

  it('matches text (with doubled quotes), true, false and null (also a missing field)', () => {
    expect(parseEqualityFilter(undefined, fields)).toBeUndefined();
    expect(names("displayName eq 'O''Brien'")).toEqual(["O'Brien"]);
    expect(names("displayName eq 'Plain'")).toEqual(['Plain']);
    expect(names('isDefault eq true')).toEqual(["O'Brien", 'OBrien']);
    expect(names('isDefault eq false')).toEqual(['Plain']);
    expect(names('description eq null')).toEqual(['Plain', 'OBrien']);
    expect(names("displayName eq 'true'")).toEqual([]);
  });

  it('needs every clause to hold, and allows any blanks between the words', () => {
    expect(names("isDefault eq true and displayName eq 'OBrien'")).toEqual(['OBrien']);
    expect(names("  displayName   eq   'Plain'  AND   isDefault eq false  ")).toEqual(['Plain']);
    expect(names("displayName\teq\t'Plain'")).toEqual(['Plain']);
  });

  it('refuses anything else, quoting the whole filter', () => {
    for (const value of [
      "displayName ne 'x'",
      "1displayName eq 'x'",
      "displayName eq 'x' or isDefault eq true",
      "displayName eq 'x' junk",
      "displayName eq'x'",
      "displayNameeq 'x'",
      'isDefault eq True',
      "displayName eq 'unterminated",
    ])
      expect(
        refusal(() => parseEqualityFilter(value, fields)),
        value,
      ).toBe(`Unsupported $filter '${value}': only "property eq value" clauses joined by "and" are supported.`);
  });

  it('refuses a property the filter cannot test', () => {
    expect(refusal(() => parseEqualityFilter("isDefault eq true and mail eq 'a'", fields))).toBe(
      "Could not find a property named 'mail' for $filter.",
    );
  });
});
