/** import workbook through the library, against emulators over real HTTP: create, update, reject, flag. */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SEED, SEED_IDS } from '../../src/emulator/index.js';
import { initDocument } from '../../src/author/init.js';
import { commitChange } from '../../src/flows/change.js';
import { importWorkbook } from '../../src/flows/workbook-import.js';
import { createClient, type ServiceApi } from '../../src/service/index.js';
import { useEmulator, useService, type Body } from '../emulator/harness.js';

const { requests, service: client } = useService();
let service: ServiceApi;
beforeAll(() => {
  service = client();
});

const item = SEED_IDS.workbook;
const fresh = () => initDocument({ toolVersion: 'test', now: new Date('2026-01-01T00:00:00Z') });
const names = (doc: Body) => (doc.components ?? []).map((c: Body) => c.name);

describe('import workbook', () => {
  it('creates components from the rows, with SPDX licences, suppliers and their source; reports the rows it rejects', async () => {
    const result = await importWorkbook(fresh(), service, { item, table: 'ComponentTable' });
    const doc = result.document as Body;
    expect(names(doc)).toEqual(['libfoo', 'libbar', 'fastzip']);
    expect(doc.components[0]).toMatchObject({
      type: 'library',
      'bom-ref': 'pkg:npm/libfoo@2.3.0',
      name: 'libfoo',
      version: '2.3.0',
      purl: 'pkg:npm/libfoo@2.3.0',
      licenses: [{ license: { id: 'MIT' } }],
      supplier: { name: 'Foo Ltd' },
      properties: [
        { name: 'bomwright:source', value: `listTableColumns me/drive/items/${item}/workbook/tables/ComponentTable` },
      ],
    });
    expect(result.rejected).toEqual([
      { row: 4, address: 'A4:F4', problems: ['license "not a licence" is not an SPDX identifier or expression'] },
    ]);
    expect(result).toMatchObject({ added: 3, updated: 0, flagged: 0, calls: 2 });
    const committed = await commitChange(fresh(), result.document, { fresh: true });
    expect(committed).toMatchObject({ valid: true, version: 1 });
  });

  it('updates what it finds (by purl, then name and version), keeps the rest, and a second run changes nothing', async () => {
    const existing = {
      ...fresh(),
      components: [
        {
          type: 'library',
          'bom-ref': 'foo',
          name: 'libfoo',
          version: '2.2.0',
          purl: 'pkg:npm/libfoo@2.3.0',
          description: 'kept',
        },
        { type: 'library', 'bom-ref': 'bar', name: 'libbar', version: '1.0.4' },
        { type: 'framework', 'bom-ref': 'other', name: 'other' },
      ],
    };
    const result = await importWorkbook(existing, service, {
      itemPath: 'Documents/Inventory.xlsx',
      table: 'ComponentTable',
    });
    const doc = result.document as Body;
    expect(names(doc)).toEqual(['libfoo', 'libbar', 'other', 'fastzip']);
    expect(doc.components[0]).toMatchObject({
      'bom-ref': 'foo',
      version: '2.3.0',
      description: 'kept',
      supplier: { name: 'Foo Ltd' },
    });
    expect(doc.components[1]).toMatchObject({ 'bom-ref': 'bar', purl: 'pkg:npm/libbar@1.0.4' });
    expect(doc.components[2]).toEqual(existing.components[2]);
    expect(result).toMatchObject({ added: 1, updated: 2, unchanged: 0 });
    const first = await commitChange(existing, result.document);
    expect(first).toMatchObject({ changed: true, version: 2 });
    const again = await importWorkbook(first.document, service, {
      itemPath: 'Documents/Inventory.xlsx',
      table: 'ComponentTable',
    });
    // The second run says what it did: nothing updated, every row's component already as the row says.
    expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 3 });
    expect((await commitChange(first.document, again.document)).changed).toBe(false);
    // One component changed by hand since: that row updates it again, the others are unchanged.
    const edited = structuredClone(first.document) as Body;
    edited.components[1].version = '0.9';
    const third = await importWorkbook(edited, service, {
      itemPath: 'Documents/Inventory.xlsx',
      table: 'ComponentTable',
    });
    expect(third).toMatchObject({ added: 0, updated: 1, unchanged: 2 });
  });

  it('maps other headers to fields, and refuses a table without a name column', async () => {
    const result = await importWorkbook(fresh(), service, {
      item,
      table: 'ComponentTable',
      map: { supplier: 'description' },
    });
    expect((result.document as Body).components[0]).toMatchObject({ description: 'Foo Ltd' });
    expect((result.document as Body).components[0].supplier).toBeUndefined();
    await expect(
      importWorkbook(fresh(), service, { item, table: 'ComponentTable', map: { name: 'group' } }),
    ).rejects.toThrow(/has no name column .* map one with --map HEADER=name/);
  });

  it('flags each rejected row with a red, thick, continuous border inside a persistent session; a dry run does not', async () => {
    requests.length = 0;
    const dry = await importWorkbook(fresh(), service, { item, table: 'ComponentTable', flag: true, dryRun: true });
    expect(dry.flagged).toBe(0);
    expect(requests.filter((line) => !line.startsWith('GET '))).toEqual([]);
    const flagged = await importWorkbook(fresh(), service, { item, table: 'ComponentTable', flag: true });
    expect(flagged).toMatchObject({ flagged: 1, calls: 8 });
    for (const edge of ['EdgeTop', 'EdgeBottom', 'EdgeLeft', 'EdgeRight']) {
      const border = await service.workbook.getRangeBorder({
        item,
        worksheet: 'Components',
        address: 'A4:F4',
        sideIndex: edge,
      });
      expect(border, edge).toMatchObject({ color: '#FF0000', style: 'Continuous', weight: 'Thick' });
    }
    // Inside a session whose changes persist, closed afterwards.
    const writes = requests
      .filter((line) => !line.startsWith('GET '))
      .map((line) => line.split(' ').slice(0, 2).join(' '));
    expect(writes[0]).toMatch(/^POST .*\/createSession$/);
    expect(writes.at(-1)).toMatch(/^POST .*\/closeSession$/);
    expect(writes.filter((w) => w.startsWith('PATCH'))).toHaveLength(4);
  });
});

describe('import workbook: rows the schema refuses', () => {
  const seed = structuredClone(DEFAULT_SEED) as Body;
  const table = seed.workbooks[0].tables[0];
  table.columns[2].values[2] = ['gizmo'];
  const other = useEmulator({ seed });
  it('rejects a row whose component does not validate, naming the member, and keeps the others', async () => {
    const client = createClient({ baseUrl: other.emulator.url, getToken: () => other.token() });
    try {
      const result = await importWorkbook(fresh(), client, { item, table: 'ComponentTable' });
      expect(names(result.document)).toEqual(['libfoo', 'fastzip']);
      expect(result.rejected.map((r) => r.row)).toEqual([3, 4]);
      expect(result.rejected[0]!.problems.join(' ')).toMatch(/\/type/);
      expect((await commitChange(fresh(), result.document, { fresh: true })).valid).toBe(true);
    } finally {
      await client.close();
    }
  });
});
