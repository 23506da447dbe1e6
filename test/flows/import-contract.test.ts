/**
 * The workbook import's contract, exactly: rows numbered and addressed from the table's own range (on a sheet whose
 * name must be quoted), headers mapped without regard to case, empty rows skipped, each rejection's reasons, the
 * row limit on both sides, and the refusals (code and message) with the input left unchanged.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SEED, SEED_IDS } from '../../src/emulator/index.js';
import { initDocument } from '../../src/author/init.js';
import { importWorkbook } from '../../src/flows/workbook-import.js';
import type { ServiceApi } from '../../src/service/index.js';
import { useService, type Body } from '../emulator/harness.js';

const column = (id: string, name: string | null, index: number, values: unknown[]): Body => ({
  id,
  name,
  index,
  values: values.map((v) => [v]),
});

// An apostrophe in the name: the range's address doubles it ('Bob''s release list'!C3:E7), as Excel writes it.
const SHEET = "Bob's release list";
const SHEET_ID = '{00000000-0003-0000-0000-000000000000}';
const seed = structuredClone(DEFAULT_SEED) as Body;
const book = seed.workbooks[0];
book.worksheets.push({ id: SHEET_ID, name: SHEET, position: 2 });
book.tables.push(
  {
    // Headers in other words and case; the table starts at C3, so its first row is sheet row 4, C4:E4.
    id: '2',
    name: 'Offset',
    worksheetId: SHEET_ID,
    address: 'C3:E7',
    columns: [
      column('1', ' Component ', 0, ['Component', 'alpha', '', '', 'gamma']),
      column('2', null, 1, ['Version', '1.0', '', '2.0', 'not-used']),
      column('3', 'LICENSES', 2, ['Licenses', 'MIT; Apache-2.0 ,', '  ', 'MIT', 'Nonsense Licence']),
    ],
  },
  {
    id: '3',
    name: 'Nameless',
    worksheetId: SHEET_ID,
    address: 'A10:B11',
    columns: [column('1', 'title', 0, ['title', 'x']), column('2', 'version', 1, ['version', '1'])],
  },
  {
    id: '4',
    name: 'BadPurl',
    worksheetId: SHEET_ID,
    address: 'A20:B21',
    columns: [column('1', 'name', 0, ['name', 'p']), column('2', 'purl', 1, ['purl', 'not a purl'])],
  },
  {
    id: '5',
    name: 'Full',
    worksheetId: SHEET_ID,
    address: 'A30:A100030',
    columns: [column('1', 'name', 0, ['name', ...new Array<string>(100_000).fill('')])],
  },
  {
    id: '6',
    name: 'Overfull',
    worksheetId: SHEET_ID,
    address: 'B30:B100031',
    columns: [column('1', 'name', 0, ['name', ...new Array<string>(100_001).fill('')])],
  },
);

const COMPONENTS_SHEET = '{00000000-0001-0000-0000-000000000000}';
book.tables.push(
  {
    // Every field, an unknown column, cells to trim, empty and null cells, an SPDX expression; columns AA to AI.
    id: '7',
    name: 'Complete',
    worksheetId: COMPONENTS_SHEET,
    address: 'AA40:AI44',
    columns: [
      column('1', 'name', 0, ['name', ' widget ', 'plain', '', 'gadget']),
      column('2', 'version', 1, ['version', '2.0', null, '', '1']),
      column('3', 'type', 2, ['type', 'framework', '', '', 'library']),
      column('4', 'purl', 3, ['purl', 'pkg:npm/widget@2.0', '', '', '']),
      column('5', 'license', 4, ['license', 'MIT OR Apache-2.0', ',', '', 'MIT,BSD-3-Clause']),
      column('6', 'supplier', 5, ['supplier', 'Widget Co', '', '', '']),
      column('7', 'group', 6, ['group', 'org.widget', '', '', '']),
      column('8', 'description', 7, ['description', 'A widget', null, '', '']),
      column('9', 'notes', 8, ['notes', 'ignored', '', 'only a note', '']),
    ],
  },
  {
    id: '8',
    name: 'BadType',
    worksheetId: COMPONENTS_SHEET,
    address: 'A50:D52',
    columns: [
      column('1', 'name', 0, ['name', 'g', 'h']),
      column('2', 'version', 1, ['version', '1', '1']),
      column('3', 'type', 2, ['type', 'gizmo', 'library']),
      column('4', 'description', 3, ['description', 'new', '']),
    ],
  },
);

const { requests, service: client } = useService({ seed });
let service: ServiceApi;
beforeAll(() => {
  service = client();
});

const item = SEED_IDS.workbook;
const fresh = () => initDocument({ toolVersion: 'test', now: new Date('2026-01-01T00:00:00Z') });
const map = { component: 'name', ' VERSION ': 'version' } as const;

describe('import workbook: the table and its rows', () => {
  it('numbers and addresses rows from the table range, maps headers, splits licences, skips empty rows', async () => {
    const original = fresh();
    const before = structuredClone(original);
    const result = await importWorkbook(original, service, { item, table: 'Offset', map });
    expect(original).toEqual(before);
    const components = (result.document as Body).components;
    expect(components).toHaveLength(1);
    expect(components[0]).toMatchObject({
      name: 'alpha',
      version: '1.0',
      licenses: [{ license: { id: 'MIT' } }, { license: { id: 'Apache-2.0' } }],
      properties: [
        { name: 'bomwright:source', value: `listTableColumns me/drive/items/${item}/workbook/tables/Offset` },
      ],
    });
    expect(result.rejected).toEqual([
      { row: 6, address: 'C6:E6', problems: ['no name'] },
      {
        row: 7,
        address: 'C7:E7',
        problems: ['license "Nonsense Licence" is not an SPDX identifier or expression'],
      },
    ]);
    expect(result).toMatchObject({ added: 1, updated: 0, flagged: 0, calls: 2 });
  });

  it('flags the rejected rows on the quoted sheet, through the item path, four edges each', async () => {
    requests.length = 0;
    const result = await importWorkbook(fresh(), service, {
      itemPath: 'Documents/Inventory.xlsx',
      table: 'Offset',
      map,
      flag: true,
    });
    expect(result).toMatchObject({ flagged: 2, calls: 2 + 2 + 8 });
    expect((result.document as Body).components[0].properties).toEqual([
      {
        name: 'bomwright:source',
        value: 'listTableColumns me/drive/root:/Documents/Inventory.xlsx:/workbook/tables/Offset',
      },
    ]);
    // Every request of the flow (before the checks below) names the workbook by its path.
    expect(requests).toHaveLength(12);
    expect(requests.filter((line) => line.includes('/root:/Documents/Inventory.xlsx:/'))).toHaveLength(12);
    for (const address of ['C6:E6', 'C7:E7'])
      for (const sideIndex of ['EdgeTop', 'EdgeBottom', 'EdgeLeft', 'EdgeRight'])
        expect(
          await service.workbook.getRangeBorder({ item, worksheet: SHEET, address, sideIndex }),
          `${address} ${sideIndex}`,
        ).toMatchObject({ color: '#FF0000', style: 'Continuous', weight: 'Thick' });
    const row4 = await service.workbook.getRangeBorder({
      item,
      worksheet: SHEET,
      address: 'C4:E4',
      sideIndex: 'EdgeTop',
    });
    expect(row4.color).not.toBe('#FF0000');
    expect(requests.filter((line) => line.startsWith('PATCH '))).toHaveLength(8);
  });

  it('does not open a session when no row is rejected, and flags a row whose purl is refused', async () => {
    requests.length = 0;
    const none = await importWorkbook(fresh(), service, {
      item,
      table: 'Nameless',
      map: { title: 'name' },
      flag: true,
    });
    expect(none).toMatchObject({ added: 1, rejected: [], flagged: 0, calls: 2 });
    expect(requests.filter((line) => !line.startsWith('GET '))).toEqual([]);
    const bad = await importWorkbook(fresh(), service, { item, table: 'BadPurl', flag: true, dryRun: false });
    expect(bad.rejected).toEqual([
      { row: 21, address: 'A21:B21', problems: [expect.stringMatching(/^"not a purl" is not a package URL \(/)] },
    ]);
    expect(bad.flagged).toBe(1);
  });

  it('leaves out components entirely when every row is rejected', async () => {
    const result = await importWorkbook(fresh(), service, { item, table: 'BadPurl' });
    expect('components' in result.document).toBe(false);
    expect(result).toMatchObject({ added: 0, updated: 0 });
  });

  it('reads 100000 rows and refuses 100001 as E_INPUT', async () => {
    const full = await importWorkbook(fresh(), service, { item, table: 'Full' });
    expect(full).toMatchObject({ added: 0, rejected: [] });
    await expect(importWorkbook(fresh(), service, { item, table: 'Overfull' })).rejects.toMatchObject({
      code: 'E_INPUT',
      message: 'Table Overfull has 100001 rows; at most 100000 are read',
    });
  });
});

describe('import workbook: fields', () => {
  it('builds each component from its row: every field, trimmed, empty and null cells left out, unknown columns ignored', async () => {
    const result = await importWorkbook(fresh(), service, { item, table: 'Complete' });
    expect(result).toMatchObject({ added: 3, updated: 0, rejected: [] });
    const [widget, plain, gadget] = (result.document as Body).components;
    expect(widget).toMatchObject({
      type: 'framework',
      supplier: { name: 'Widget Co' },
      group: 'org.widget',
      name: 'widget',
      version: '2.0',
      description: 'A widget',
      licenses: [{ expression: 'MIT OR Apache-2.0' }],
      purl: 'pkg:npm/widget@2.0',
    });
    expect(Object.keys(plain).sort()).toEqual(['bom-ref', 'name', 'properties', 'type']);
    expect(plain).toMatchObject({ type: 'library', name: 'plain' });
    expect(gadget.licenses).toEqual([{ license: { id: 'MIT' } }, { license: { id: 'BSD-3-Clause' } }]);
  });

  it('rejects a row the schema refuses, naming the member, and restores the component it had updated', async () => {
    const existing = { ...fresh(), components: [{ type: 'library', 'bom-ref': 'g', name: 'g', version: '1' }] };
    const before = structuredClone(existing);
    const result = await importWorkbook(existing, service, { item, table: 'BadType' });
    expect(existing).toEqual(before);
    const components = (result.document as Body).components;
    expect(components[0]).toEqual(before.components[0]);
    expect(components.map((c: Body) => c.name)).toEqual(['g', 'h']);
    expect(result.rejected).toHaveLength(1);
    expect(result.rejected[0]).toMatchObject({ row: 51, address: 'A51:D51' });
    expect(result.rejected[0]!.problems).toEqual([expect.stringMatching(/^\/type: ./)]);
    expect(result).toMatchObject({ added: 1, updated: 0 });

    const added = await importWorkbook(fresh(), service, { item, table: 'BadType' });
    expect((added.document as Body).components.map((c: Body) => c.name)).toEqual(['h']);
    expect(added).toMatchObject({ added: 1, updated: 0 });
  });
});

describe('import workbook: refusals', () => {
  it('needs exactly one of item and itemPath, and asks nothing of the service otherwise', async () => {
    requests.length = 0;
    const message = 'Name the workbook by its item id or by its path, one of the two';
    await expect(importWorkbook(fresh(), service, { table: 'Offset' })).rejects.toMatchObject({
      code: 'E_USAGE',
      message,
    });
    await expect(
      importWorkbook(fresh(), service, { item, itemPath: 'Documents/Inventory.xlsx', table: 'Offset' }),
    ).rejects.toMatchObject({ code: 'E_USAGE', message });
    expect(requests).toEqual([]);
  });

  it('refuses a table without a name column, listing its headers', async () => {
    await expect(importWorkbook(fresh(), service, { item, table: 'Nameless' })).rejects.toMatchObject({
      code: 'E_USAGE',
      message: 'Table Nameless has no name column (its headers: title, version); map one with --map HEADER=name',
    });
  });

  it('refuses components that are not an array, leaving the input unchanged', async () => {
    const broken = { ...fresh(), components: { not: 'a list' } };
    const before = structuredClone(broken);
    await expect(importWorkbook(broken, service, { item, table: 'ComponentTable' })).rejects.toMatchObject({
      code: 'E_INPUT',
      message: 'components is not an array',
    });
    expect(broken).toEqual(before);
  });
});
