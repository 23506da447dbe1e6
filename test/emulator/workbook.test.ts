import { describe, expect, it } from 'vitest';
import { useEmulator } from './harness.js';
import { BOOK, BOOK_BY_PATH } from './samples.js';

const api = useEmulator();
const NAMED = `${BOOK}/names/Header/range/format/borders/EdgeTop`;

async function session(persistChanges: boolean): Promise<string> {
  const created = await api.call('POST', `${BOOK}/createSession`, { body: { persistChanges } });
  expect(created.status, created.text).toBe(201);
  expect(created.body.persistChanges).toBe(persistChanges);
  return created.body.id as string;
}

describe('workbook range borders and sessions', () => {
  it('keeps a change only inside a persistent session; without a session the change is answered but not kept', async () => {
    const unsaved = await api.call('PATCH', NAMED, { body: { style: 'Dash', color: 'orange' } });
    expect(unsaved.status).toBe(200);
    expect(unsaved.body).toMatchObject({
      id: 'EdgeTop',
      sideIndex: 'EdgeTop',
      style: 'Dash',
      color: '#FFA500',
      weight: 'Thin',
    });
    expect((await api.call('GET', NAMED)).body).toMatchObject({ style: 'None', color: '#000000' });

    const temporary = await session(false);
    await api.call('PATCH', NAMED, { body: { style: 'Double' }, headers: { 'Workbook-Session-Id': temporary } });
    expect((await api.call('GET', NAMED, { headers: { 'Workbook-Session-Id': temporary } })).body.style).toBe('Double');
    expect((await api.call('GET', NAMED)).body.style).toBe('None');

    const persistent = await session(true);
    const kept = await api.call('PATCH', NAMED, {
      body: { color: '#00ff00' },
      headers: { 'Workbook-Session-Id': persistent },
    });
    expect(kept.body).toMatchObject({ color: '#00FF00', style: 'None', weight: 'Thin' });
    expect((await api.call('GET', NAMED)).body.color).toBe('#00FF00');
    expect(
      (await api.call('POST', `${BOOK}/closeSession`, { headers: { 'Workbook-Session-Id': persistent } })).status,
    ).toBe(204);
    expect((await api.call('GET', NAMED, { headers: { 'Workbook-Session-Id': persistent } })).status).toBe(404);
    expect((await api.call('GET', NAMED)).body.color).toBe('#00FF00');
  });

  it('keeps the properties a PATCH leaves out', async () => {
    const id = await session(true);
    const headers = { 'Workbook-Session-Id': id };
    const path = `${BOOK}/worksheets/Components/range(address='B3:C4')/format/borders/EdgeRight`;
    await api.call('PATCH', path, { body: { color: 'red', style: 'Continuous', weight: 'Thick' }, headers });
    const changed = await api.call('PATCH', path, { body: { weight: 'Hairline' }, headers });
    expect(changed.body).toMatchObject({ color: '#FF0000', style: 'Continuous', weight: 'Hairline' });
  });

  it('addresses one range through a name, an address (any spelling) or a table column, under items/{id} or root:/{path}:', async () => {
    const id = await session(true);
    const headers = { 'Workbook-Session-Id': id };
    // Header is Components!A1:F1; the license column of ComponentTable (A1:F5) is E1:E5.
    await api.call('PATCH', `${BOOK}/names/Header/range/format/borders/EdgeBottom`, {
      body: { color: 'navy' },
      headers,
    });
    const viaAddress = await api.call(
      'GET',
      `${BOOK_BY_PATH}/worksheets/components/range(address='$a$1:$F$1')/format/borders/EdgeBottom`,
    );
    expect(viaAddress.body.color).toBe('#000080');
    const viaSheetName = await api.call(
      'GET',
      `${BOOK}/worksheets/{00000000-0001-0000-0000-000000000000}/range(address='Components!A1:F1')/format/borders/EdgeBottom`,
    );
    expect(viaSheetName.body.color).toBe('#000080');
    await api.call('PATCH', `${BOOK_BY_PATH}/tables/ComponentTable/columns/license/range/format/borders/EdgeLeft`, {
      body: { style: 'Dot' },
      headers,
    });
    expect(
      (await api.call('GET', `${BOOK}/worksheets/Components/range(address='E1:E5')/format/borders/EdgeLeft`)).body
        .style,
    ).toBe('Dot');
    expect((await api.call('GET', `${BOOK}/tables/1/columns/5/range/format/borders/EdgeLeft`)).body.style).toBe('Dot');
  });

  it('validates color, style, weight, side and address', async () => {
    const cases: [string, unknown][] = [
      [NAMED, { color: '#12345' }],
      [NAMED, { color: 'FFA500' }],
      [NAMED, { color: 'not-a-colour' }],
      [NAMED, { style: 'Wavy' }],
      [NAMED, { weight: 'Heavy' }],
      [NAMED, { sideIndex: 'EdgeTop' }],
      [`${BOOK}/names/Header/range/format/borders/EdgeMiddle`, { style: 'Dot' }],
      [`${BOOK}/worksheets/Components/range(address='A0')/format/borders/EdgeTop`, { style: 'Dot' }],
      [`${BOOK}/worksheets/Components/range(address='Summary!A1')/format/borders/EdgeTop`, { style: 'Dot' }],
      [`${BOOK}/worksheets/Components/range(address='XFE1')/format/borders/EdgeTop`, { style: 'Dot' }],
    ];
    for (const [path, body] of cases) {
      const reply = await api.call('PATCH', path, { body });
      expect(reply.status, `${path} ${JSON.stringify(body)}`).toBe(400);
    }
  });

  it('answers 404 for an unknown workbook, name, worksheet, table, column or session', async () => {
    const paths = [
      '/me/drive/items/nope/workbook/names/Header/range/format/borders/EdgeTop',
      '/me/drive/root:/Documents/Other.xlsx:/workbook/names/Header/range/format/borders/EdgeTop',
      `${BOOK}/names/Footer/range/format/borders/EdgeTop`,
      `${BOOK}/worksheets/Nope/range(address='A1')/format/borders/EdgeTop`,
      `${BOOK}/tables/Nope/columns/license/range/format/borders/EdgeTop`,
      `${BOOK}/tables/ComponentTable/columns/colour/range/format/borders/EdgeTop`,
    ];
    for (const path of paths)
      expect((await api.call('PATCH', path, { body: { style: 'Dot' } })).status, path).toBe(404);
    const noSession = await api.call('PATCH', NAMED, {
      body: { style: 'Dot' },
      headers: { 'Workbook-Session-Id': 'session=forged' },
    });
    expect(noSession.status).toBe(404);
    const megan = await api.token({ user: 'megan@contoso.example' });
    expect((await api.call('GET', NAMED, { token: megan })).status).toBe(404);
  });
});

describe('table columns', () => {
  it('lists the columns in order, through either table path', async () => {
    const all = await api.call('GET', `${BOOK}/tables/ComponentTable/columns`);
    expect(all.body.value.map((c: { name: string }) => c.name)).toEqual([
      'name',
      'version',
      'type',
      'purl',
      'license',
      'supplier',
    ]);
    expect(all.body.value[0]).toEqual({
      id: '1',
      name: 'name',
      index: 0,
      values: [['name'], ['libfoo'], ['libbar'], ['tinyjson'], ['fastzip']],
    });
    const viaSheet = await api.call('GET', `${BOOK_BY_PATH}/worksheets/Components/tables/1/columns`);
    expect(viaSheet.body.value).toEqual(all.body.value);
    expect((await api.call('GET', `${BOOK}/worksheets/Summary/tables/1/columns`)).status).toBe(404);
  });

  it('honours $top, $skip and $select, and refuses unsupported options or bad values', async () => {
    const page = await api.call('GET', `${BOOK}/tables/ComponentTable/columns?$top=2&$skip=3&$select=name,index`);
    expect(page.body.value).toEqual([
      { name: 'purl', index: 3 },
      { name: 'license', index: 4 },
    ]);
    expect((await api.call('GET', `${BOOK}/tables/ComponentTable/columns?$skip=10`)).body.value).toEqual([]);
    for (const query of [
      '$top=-1',
      '$top=abc',
      '$skip=99999999999',
      '$select=colour',
      "$filter=name gt 'x'",
      '$orderby=colour',
      '$expand=values',
      '$top=1&$top=2',
    ]) {
      expect((await api.call('GET', `${BOOK}/tables/ComponentTable/columns?${query}`)).status, query).toBe(400);
    }
  });
});

describe('chart points', () => {
  const point = (index: string) =>
    `${BOOK}/worksheets/Summary/charts/LicenseChart/series/0/points/itemAt(index=${index})`;

  it('returns the point at a zero-based index', async () => {
    const reply = await api.call('GET', point('2'));
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: '2', value: 3 });
    expect(
      (
        await api.call(
          'GET',
          `${BOOK_BY_PATH}/worksheets/Summary/charts/licensechart/series/Licences/points/itemAt(index=0)`,
        )
      ).body.value,
    ).toBe(12);
  });

  it('answers 404 for an Int32 out of the series and 400 for what is not an Int32', async () => {
    for (const index of ['4', '-1', '2147483647', '-2147483648'])
      expect((await api.call('GET', point(index))).status, index).toBe(404);
    for (const index of ['2147483648', '-2147483649', '1.5', 'x', '', '99999999999']) {
      const reply = await api.call('GET', point(index));
      expect(reply.status, index).toBe(400);
      expect(reply.body.error.code).toBe('InvalidArgument');
    }
    expect(
      (await api.call('GET', `${BOOK}/worksheets/Components/charts/LicenseChart/series/0/points/itemAt(index=0)`))
        .status,
    ).toBe(404);
  });
});

describe('table range', () => {
  it("gives the table's worksheet and address, its size and position, by item or path and through its worksheet", async () => {
    for (const path of [
      `${BOOK}/tables/ComponentTable/range`,
      `${BOOK_BY_PATH}/worksheets/Components/tables/ComponentTable/range`,
    ]) {
      const reply = await api.call('GET', path);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({
        address: 'Components!A1:F5',
        rowCount: 5,
        columnCount: 6,
        rowIndex: 0,
        columnIndex: 0,
      });
    }
    const selected = await api.call('GET', `${BOOK}/tables/ComponentTable/range?$select=address`);
    expect(Object.keys(selected.body).filter((k) => !k.startsWith('@'))).toEqual(['address']);
    expect((await api.call('GET', `${BOOK}/tables/NoSuchTable/range`)).status).toBe(404);
    expect((await api.call('GET', `${BOOK}/worksheets/Summary/tables/ComponentTable/range`)).status).toBe(404);
  });
});
