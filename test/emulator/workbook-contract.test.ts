/**
 * The workbook contract in detail: which range an address names (and the exact refusals), how a border PATCH is
 * kept or not by a session, when a session expires (5 minutes persistent, 7 not, counted from its last use),
 * table columns and ranges of any table, chart points by id or name, and the exact codes and messages of errors.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SEED, SEED_IDS } from '../../src/emulator/index.js';
import { normalizeColor } from '../../src/emulator/handlers/workbook.js';
import { useEmulator, type Harness, type Reply } from './harness.js';
import { BOOK, BOOK_BY_PATH } from './samples.js';

const U = SEED_IDS.users;
const PLAN = '/me/drive/items/ADELEPLANXLSX/workbook';
const PLAN_BY_PATH = '/me/drive/root:/Documents/Plan.xlsx:/workbook';

const column = (id: string, name: string, index: number): Record<string, unknown> => ({
  id,
  name,
  index,
  values: [[name], [`${name}-1`], [`${name}-2`]],
});

/** The default tenant plus Megan's own Inventory.xlsx at Adele's path, and a second book of Adele's, without borders. */
function tenant(): unknown {
  const seed = structuredClone(DEFAULT_SEED) as unknown as { workbooks: Record<string, unknown>[] };
  seed.workbooks.unshift({
    id: '00MEGANINVENTORY',
    ownerId: U.megan,
    name: 'Inventory.xlsx',
    path: 'Documents/Inventory.xlsx',
    worksheets: [{ id: 'ws-megan', name: 'Components' }],
    names: [{ name: 'Header', worksheetId: 'ws-megan', address: 'A1:B1' }],
    tables: [],
    charts: [],
    borders: {},
  });
  seed.workbooks.push({
    id: 'ADELEPLANXLSX',
    ownerId: U.adele,
    name: 'Plan.xlsx',
    path: 'Documents/Plan.xlsx',
    worksheets: [
      { id: 'ws-bom', name: 'Bill of materials' },
      { id: 'ws-plan', name: '2026Plan' },
      { id: 'ws-bob', name: "Bob's" },
    ],
    names: [{ name: 'Totals', worksheetId: 'ws-plan', address: '$B$3:$C$3' }],
    tables: [
      {
        id: '7',
        name: 'Parts',
        worksheetId: 'ws-bom',
        address: 'Y2:AB4',
        // Stored out of order: the list is by index.
        columns: [column('c2', 'qty', 2), column('c0', 'part', 0), column('c3', 'cost', 3), column('c1', 'maker', 1)],
      },
      { id: '8', name: 'Budget', worksheetId: 'ws-plan', address: 'B3:C4', columns: [column('b0', 'item', 0)] },
    ],
    charts: [
      {
        id: '{CHART-0002}',
        name: 'Costs',
        worksheetId: 'ws-bom',
        series: [{ id: 's0', name: 'Cost', points: [{ id: '0', value: 5 }] }],
      },
      {
        id: '{CHART-0003}',
        name: 'Spare',
        worksheetId: 'ws-bom',
        series: [{ id: 's9', name: 'Nothing', points: [] }],
      },
    ],
  });
  return seed;
}

const api = useEmulator();
const plan = useEmulator({ seed: tenant() });

const NAMED = `${BOOK}/names/Header/range/format/borders/EdgeTop`;
const rangeBorder = (address: string, side = 'EdgeTop'): string =>
  `${BOOK}/worksheets/Components/range(address='${address}')/format/borders/${side}`;

async function createSession(harness: Harness, persistChanges: boolean, book = BOOK): Promise<string> {
  const created = await harness.call('POST', `${book}/createSession`, { body: { persistChanges } });
  expect(created.status, created.text).toBe(201);
  return created.body.id as string;
}

function expectError(reply: Reply, status: number, code: string, message: string): void {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.body.error.code).toBe(code);
  expect(reply.body.error.message).toBe(message);
}

describe('range addresses', () => {
  it('accepts cells, ranges, whole columns and whole rows, in any case, with $ anchors, spaces and the sheet name', async () => {
    for (const address of [
      'A1',
      ' b2 ',
      '$C$3:$D$4',
      'A:C',
      'AA:AB',
      '1:3',
      '1:300',
      '10:30',
      '1:9999999',
      'XFD1',
      'A1:XFD1048576',
      'Components!A1',
      "''Components''!A1:B2",
      'components!a1',
    ]) {
      const reply = await api.call('GET', rangeBorder(address));
      expect(reply.status, `${address}: ${reply.text}`).toBe(200);
    }
  });

  it('refuses what is not one cell, one range, whole columns or whole rows, naming the address', async () => {
    for (const address of [
      'A0',
      'A1:B2:C3',
      'A1:B',
      'A',
      '1',
      'A:1',
      'A:AAAA',
      '1A:B',
      '01:3',
      '1:3A',
      '1:10000000',
      'XFE1',
      'A1:XFE1',
      'A10000000',
      '',
    ]) {
      expectError(
        await api.call('GET', rangeBorder(address)),
        400,
        'InvalidArgument',
        `The argument is invalid or missing or has an incorrect format: address '${address}'.`,
      );
    }
  });

  it('refuses an address on another worksheet, and reads a quoted sheet name only when the whole name is quoted', async () => {
    for (const address of ['Summary!A1', "Comp''onents''!A1", "''Compo''nents!A1"]) {
      expectError(
        await api.call('GET', rangeBorder(address)),
        400,
        'InvalidArgument',
        `The address '${address.replaceAll("''", "'")}' names another worksheet.`,
      );
    }
  });

  it('names one range through an address with or without anchors, the sheet name, or a defined name', async () => {
    const id = await createSession(plan, true, PLAN);
    const headers = { 'Workbook-Session-Id': id };
    const patched = await plan.call('PATCH', `${PLAN}/names/totals/range/format/borders/EdgeBottom`, {
      body: { color: 'teal' },
      headers,
    });
    expect(patched.status, patched.text).toBe(200);
    for (const address of ['B3:C3', '$b$3:$c$3', "'2026Plan'!B3:C3".replaceAll("'", "''")]) {
      const reply = await plan.call(
        'GET',
        `${PLAN}/worksheets/2026Plan/range(address='${address}')/format/borders/EdgeBottom`,
      );
      expect(reply.body.color, address).toBe('#008080');
    }
    // A different range keeps its own border.
    const other = await plan.call(
      'GET',
      `${PLAN}/worksheets/2026Plan/range(address='B3:C4')/format/borders/EdgeBottom`,
    );
    expect(other.body.color).toBe('#000000');
  });
  it("reads a sheet name's doubled apostrophe as one, as Excel writes 'Bob''s'!A1", async () => {
    const id = await createSession(plan, true, PLAN);
    const headers = { 'Workbook-Session-Id': id };
    const at = (address: string): string =>
      `${PLAN}/worksheets/ws-bob/range(address='${address.replaceAll("'", "''")}')/format/borders/EdgeTop`;
    expect((await plan.call('PATCH', at('A1'), { body: { color: 'navy' }, headers })).status).toBe(200);
    expect((await plan.call('GET', at("'Bob''s'!A1"))).body.color).toBe('#000080');
    expectError(
      await plan.call('GET', at("'Bob''''s'!A1")),
      400,
      'InvalidArgument',
      "The address ''Bob''''s'!A1' names another worksheet.",
    );
  });
});

describe('border answers', () => {
  it('answers the border with its context, the side spelt as defined whatever the case of the path', async () => {
    const reply = await api.call('GET', `${BOOK}/names/Header/range/format/borders/insidehorizontal`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      '@odata.context': `${api.emulator.url}/v1.0/$metadata#workbookRangeBorder`,
      id: 'InsideHorizontal',
      sideIndex: 'InsideHorizontal',
      color: '#000000',
      style: 'None',
      weight: 'Thin',
    });
    const patched = await api.call('PATCH', `${BOOK}/names/Header/range/format/borders/diagonalUP`, {
      body: { weight: 'Medium' },
    });
    expect(patched.body).toEqual({
      '@odata.context': `${api.emulator.url}/v1.0/$metadata#workbookRangeBorder`,
      id: 'DiagonalUp',
      sideIndex: 'DiagonalUp',
      color: '#000000',
      style: 'None',
      weight: 'Medium',
    });
  });

  it('gives a book that has no border yet the default border on every side', async () => {
    for (const side of ['EdgeTop', 'EdgeBottom', 'EdgeLeft', 'EdgeRight', 'DiagonalDown']) {
      const reply = await plan.call('GET', `${PLAN}/tables/Parts/columns/part/range/format/borders/${side}`);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ id: side, color: '#000000', style: 'None', weight: 'Thin' });
    }
  });

  it('refuses an unknown side, listing the sides', async () => {
    expectError(
      await api.call('PATCH', `${BOOK}/names/Header/range/format/borders/EdgeMiddle`, { body: { style: 'Dot' } }),
      400,
      'InvalidArgument',
      "Invalid sideIndex 'EdgeMiddle': expected one of EdgeTop, EdgeBottom, EdgeLeft, EdgeRight, InsideVertical, InsideHorizontal, DiagonalDown, DiagonalUp.",
    );
  });
});

describe('border colours', () => {
  it('takes #RRGGBB in any case and answers it upper-case, and HTML colour names in any case', () => {
    expect(normalizeColor('#a1b2c3')).toBe('#A1B2C3');
    expect(normalizeColor('#A1B2C3')).toBe('#A1B2C3');
    expect(normalizeColor('DarkSlateGray')).toBe('#2F4F4F');
    expect(normalizeColor('white')).toBe('#FFFFFF');
  });

  it('refuses anything else, naming the colour, and keeps the border as it was', async () => {
    const id = await createSession(api, true);
    const headers = { 'Workbook-Session-Id': id };
    const path = rangeBorder('G7:H8', 'EdgeLeft');
    await api.call('PATCH', path, { body: { color: '#102030', style: 'Dash', weight: 'Thick' }, headers });
    for (const color of ['x#aabbcc', '#aabbccdd', '#12345', 'FFA500', 'not-a-colour', '#GGGGGG', '']) {
      const reply = await api.call('PATCH', path, { body: { color, style: 'Double' }, headers });
      expectError(reply, 400, 'InvalidArgument', `Invalid color '${color}': expected #RRGGBB or an HTML color name.`);
    }
    for (const body of [{ style: 'Wavy' }, { weight: 'Heavy' }, { style: 'Dot', sideIndex: 'EdgeTop' }]) {
      const reply = await api.call('PATCH', path, { body, headers });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.error.code).toBe('BadRequest');
    }
    const after = await api.call('GET', path);
    expect(after.body).toMatchObject({ color: '#102030', style: 'Dash', weight: 'Thick' });
  });
});

describe('sessions', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('creates a session with a fresh id and says whether it persists; no body means not persistent', async () => {
    const reply = await api.call('POST', `${BOOK}/createSession`, { body: { persistChanges: true } });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      '@odata.context': `${api.emulator.url}/v1.0/$metadata#vendor.graph.workbookSessionInfo`,
      id: expect.stringMatching(/^session=[0-9a-f-]{36}$/),
      persistChanges: true,
    });
    const bare = await api.call('POST', `${BOOK}/createSession`, { rawBody: '' });
    expect(bare.status, bare.text).toBe(201);
    expect(bare.body.persistChanges).toBe(false);
    expect(bare.body.id).not.toBe(reply.body.id);
  });

  it('keeps a change of a non-persistent session for that session only, and of a persistent one in the book', async () => {
    const path = rangeBorder('K1', 'EdgeRight');
    const temporary = await createSession(api, false);
    const other = await createSession(api, false);
    await api.call('PATCH', path, { body: { style: 'Dot' }, headers: { 'Workbook-Session-Id': temporary } });
    expect((await api.call('GET', path, { headers: { 'Workbook-Session-Id': temporary } })).body.style).toBe('Dot');
    expect((await api.call('GET', path, { headers: { 'Workbook-Session-Id': other } })).body.style).toBe('None');
    expect((await api.call('GET', path)).body.style).toBe('None');
    // A later change of the same session keeps the earlier one.
    await api.call('PATCH', path, { body: { color: 'red' }, headers: { 'Workbook-Session-Id': temporary } });
    expect((await api.call('GET', path, { headers: { 'Workbook-Session-Id': temporary } })).body).toMatchObject({
      style: 'Dot',
      color: '#FF0000',
    });
    const persistent = await createSession(api, true);
    await api.call('PATCH', path, { body: { weight: 'Thick' }, headers: { 'Workbook-Session-Id': persistent } });
    expect((await api.call('GET', path)).body).toMatchObject({ style: 'None', weight: 'Thick', color: '#000000' });
  });

  it('refuses a session of another workbook or an unknown one with 404 InvalidSessionNotFound', async () => {
    const ofPlan = await createSession(plan, true, PLAN);
    const message = 'The workbook session does not exist or has expired; create a new session.';
    for (const id of [ofPlan, 'session=forged']) {
      const reply = await plan.call('PATCH', `${BOOK}/names/Header/range/format/borders/EdgeTop`, {
        body: { style: 'Dot' },
        headers: { 'Workbook-Session-Id': id },
      });
      expectError(reply, 404, 'InvalidSessionNotFound', message);
    }
    expect((await plan.call('GET', `${BOOK}/names/Header/range/format/borders/EdgeTop`)).body.style).toBe('None');
  });

  it('expires a persistent session 5 minutes and a non-persistent one 7 minutes after its last use', async () => {
    const t0 = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(t0);
    const persistent = await createSession(api, true);
    const temporary = await createSession(api, false);
    const use = (id: string): Promise<Reply> => api.call('GET', NAMED, { headers: { 'Workbook-Session-Id': id } });
    const minutes = (m: number): number => t0 + m * 60_000;

    vi.setSystemTime(minutes(5) - 1);
    expect((await use(persistent)).status).toBe(200);
    vi.setSystemTime(minutes(5) - 1 + 5 * 60_000);
    expectError(
      await use(persistent),
      404,
      'InvalidSessionNotFound',
      'The workbook session does not exist or has expired; create a new session.',
    );

    vi.setSystemTime(minutes(7) - 1);
    expect((await use(temporary)).status).toBe(200);
    vi.setSystemTime(minutes(14) - 2);
    expect((await use(temporary)).status).toBe(200);
    vi.setSystemTime(minutes(21) - 2);
    expect((await use(temporary)).status).toBe(404);
  });

  it('counts every read of the book as a use: borders, columns, the table range and chart points', async () => {
    const t0 = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(t0);
    const reads = [
      NAMED,
      `${BOOK}/tables/ComponentTable/columns`,
      `${BOOK}/tables/ComponentTable/range`,
      `${BOOK}/worksheets/Summary/charts/LicenseChart/series/0/points/itemAt(index=1)`,
    ];
    const sessions: string[] = [];
    for (let i = 0; i < reads.length; i++) sessions.push(await createSession(api, true));
    vi.setSystemTime(t0 + 4 * 60_000);
    for (const [i, path] of reads.entries()) {
      const reply = await api.call('GET', path, { headers: { 'Workbook-Session-Id': sessions[i]! } });
      expect(reply.status, `${path}: ${reply.text}`).toBe(200);
    }
    // Five minutes after creation, the session is alive only because the read renewed it.
    vi.setSystemTime(t0 + 8 * 60_000);
    for (const [i, path] of reads.entries()) {
      const reply = await api.call('GET', NAMED, { headers: { 'Workbook-Session-Id': sessions[i]! } });
      expect(reply.status, path).toBe(200);
    }
  });

  it('closes a session named in Workbook-Session-Id, and refuses a close without one', async () => {
    expectError(
      await api.call('POST', `${BOOK}/closeSession`),
      400,
      'BadRequest',
      'Workbook-Session-Id is required to close a session.',
    );
    const id = await createSession(api, false);
    const closed = await api.call('POST', `${BOOK}/closeSession`, { headers: { 'Workbook-Session-Id': id } });
    expect(closed.status).toBe(204);
    expect(closed.text).toBe('');
    expect((await api.call('POST', `${BOOK}/closeSession`, { headers: { 'Workbook-Session-Id': id } })).status).toBe(
      404,
    );
  });
});

describe('workbooks by item id or path', () => {
  it('finds a book by path in any case and with extra slashes, only among the caller’s own books', async () => {
    for (const path of [
      '/me/drive/root:/documents/INVENTORY.xlsx:/workbook',
      '/me/drive/root:///Documents/Inventory.xlsx:/workbook',
    ]) {
      const reply = await plan.call('GET', `${path}/names/Header/range/format/borders/EdgeTop`);
      expect(reply.status, `${path}: ${reply.text}`).toBe(200);
    }
    // Megan has a book at the same path: each user gets their own (Header is A1:F1 in Adele's, A1:B1 in Megan's).
    const megan = await plan.token({ user: 'megan@contoso.example' });
    const session = await plan.call('POST', `${BOOK_BY_PATH}/createSession`, {
      body: { persistChanges: true },
      token: megan,
    });
    expect(session.status, session.text).toBe(201);
    const headers = { 'Workbook-Session-Id': session.body.id as string };
    await plan.call('PATCH', `${BOOK_BY_PATH}/names/Header/range/format/borders/EdgeTop`, {
      body: { color: 'gold' },
      headers,
      token: megan,
    });
    const mine = await plan.call(
      'GET',
      `/me/drive/items/00MEGANINVENTORY/workbook/worksheets/Components/range(address='A1:B1')/format/borders/EdgeTop`,
      { token: megan },
    );
    expect(mine.body.color).toBe('#FFD700');
    expect((await plan.call('GET', `${BOOK_BY_PATH}/names/Header/range/format/borders/EdgeTop`)).body.color).toBe(
      '#000000',
    );
  });

  it('answers 404 itemNotFound for a book that is not the caller’s, by id or by path, or that does not exist', async () => {
    const megan = await plan.token({ user: 'megan@contoso.example' });
    for (const [path, token] of [
      [`${PLAN}/names/Totals/range/format/borders/EdgeTop`, megan],
      [`${PLAN_BY_PATH}/tables/Parts/columns`, megan],
      ['/me/drive/items/nope/workbook/tables/Parts/columns', undefined],
      ['/me/drive/root:/Documents/Nope.xlsx:/workbook/tables/Parts/columns', undefined],
    ] as const) {
      const reply = await plan.call('GET', path, { token });
      expectError(reply, 404, 'itemNotFound', 'The resource could not be found.');
    }
  });

  it('names what it could not find inside a book: worksheet, named item, table, column', async () => {
    const cases: [string, string][] = [
      [
        `${BOOK}/worksheets/Nope/range(address='A1')/format/borders/EdgeTop`,
        "The requested worksheet 'Nope' was not found.",
      ],
      [`${BOOK}/names/Footer/range/format/borders/EdgeTop`, "The requested named item 'Footer' was not found."],
      [`${BOOK}/tables/Nope/columns`, "The requested table 'Nope' was not found."],
      [
        `${BOOK}/tables/ComponentTable/columns/colour/range/format/borders/EdgeTop`,
        "The requested column 'colour' was not found.",
      ],
      [
        `${BOOK}/worksheets/Summary/tables/ComponentTable/columns`,
        "The requested table 'ComponentTable' is not on that worksheet.",
      ],
      [
        `${BOOK}/worksheets/${'W'.repeat(100)}/tables/1/columns`,
        `The requested worksheet '${'W'.repeat(79)}…' was not found.`,
      ],
    ];
    for (const [path, message] of cases) expectError(await api.call('GET', path), 404, 'ItemNotFound', message);
  });
});

describe('table columns', () => {
  it('lists the columns by index whatever their stored order, with the collection context', async () => {
    const reply = await plan.call('GET', `${PLAN}/tables/Parts/columns`);
    expect(reply.status).toBe(200);
    expect(reply.body['@odata.context']).toBe(`${plan.emulator.url}/v1.0/$metadata#Collection(workbookTableColumn)`);
    expect(reply.body.value.map((c: { id: string }) => c.id)).toEqual(['c0', 'c1', 'c2', 'c3']);
    expect(reply.body.value[1]).toEqual({
      id: 'c1',
      name: 'maker',
      index: 1,
      values: [['maker'], ['maker-1'], ['maker-2']],
    });
  });

  it('pages with $skip then $top at the edges, and selects fields', async () => {
    const ids = async (query: string): Promise<string[]> => {
      const reply = await plan.call('GET', `${PLAN}/tables/Parts/columns?${query}`);
      expect(reply.status, `${query}: ${reply.text}`).toBe(200);
      return reply.body.value.map((c: { id?: string; name: string }) => c.id ?? c.name);
    };
    expect(await ids('$top=0')).toEqual([]);
    expect(await ids('$top=1')).toEqual(['c0']);
    expect(await ids('$top=4')).toEqual(['c0', 'c1', 'c2', 'c3']);
    expect(await ids('$top=5')).toEqual(['c0', 'c1', 'c2', 'c3']);
    expect(await ids('$skip=0')).toEqual(['c0', 'c1', 'c2', 'c3']);
    expect(await ids('$skip=3')).toEqual(['c3']);
    expect(await ids('$skip=4')).toEqual([]);
    expect(await ids('$skip=1&$top=2')).toEqual(['c1', 'c2']);
    expect(await ids('$top=2147483647&$skip=2')).toEqual(['c2', 'c3']);
    const selected = await plan.call('GET', `${PLAN}/tables/Parts/columns?$select=name&$top=2`);
    expect(selected.body.value).toEqual([{ name: 'part' }, { name: 'maker' }]);
  });

  it('refuses bad $top, $skip and $select values naming the option', async () => {
    const base = `${PLAN}/tables/Parts/columns`;
    expectError(
      await plan.call('GET', `${base}?$top=2147483648`),
      400,
      'BadRequest',
      "Invalid value '2147483648' for query option $top: expected a non-negative 32-bit integer.",
    );
    expectError(
      await plan.call('GET', `${base}?$skip=-1`),
      400,
      'BadRequest',
      "Invalid value '-1' for query option $skip: expected a non-negative 32-bit integer.",
    );
    expectError(
      await plan.call('GET', `${base}?$select=name,colour`),
      400,
      'BadRequest',
      "Could not find a property named 'colour' on type 'vendor.graph.workbookTableColumn'.",
    );
  });
});

describe('column ranges', () => {
  it('gives each column the range of its letter over the table rows, past Z', async () => {
    const id = await createSession(plan, true, PLAN);
    const headers = { 'Workbook-Session-Id': id };
    // Parts is Y2:AB4: part is Y, maker Z, qty AA, cost AB.
    const letters: [string, string][] = [
      ['part', 'Y'],
      ['maker', 'Z'],
      ['qty', 'AA'],
      ['cost', 'AB'],
    ];
    for (const [name, letter] of letters) {
      const patched = await plan.call(
        'PATCH',
        `${PLAN_BY_PATH}/tables/Parts/columns/${name}/range/format/borders/EdgeLeft`,
        {
          body: { style: 'DashDot', color: '#0000FF' },
          headers,
        },
      );
      expect(patched.status, patched.text).toBe(200);
      const viaAddress = await plan.call(
        'GET',
        `${PLAN}/worksheets/ws-bom/range(address='${letter}2:${letter}4')/format/borders/EdgeLeft`,
      );
      expect(viaAddress.body.style, name).toBe('DashDot');
    }
    const outside = await plan.call('GET', `${PLAN}/worksheets/ws-bom/range(address='Y1:Y4')/format/borders/EdgeLeft`);
    expect(outside.body.style).toBe('None');
  });
});

describe('table ranges', () => {
  it('quotes a sheet name that is not a plain identifier and gives the size and zero-based position', async () => {
    const parts = await plan.call('GET', `${PLAN}/tables/Parts/range`);
    expect(parts.status, parts.text).toBe(200);
    expect(parts.body).toEqual({
      '@odata.context': `${plan.emulator.url}/v1.0/$metadata#workbookRange`,
      address: "'Bill of materials'!Y2:AB4",
      addressLocal: "'Bill of materials'!Y2:AB4",
      rowCount: 3,
      columnCount: 4,
      rowIndex: 1,
      columnIndex: 24,
    });
    const budget = await plan.call('GET', `${PLAN}/worksheets/2026Plan/tables/Budget/range?$select=address,rowIndex`);
    expect(budget.body).toEqual({
      '@odata.context': `${plan.emulator.url}/v1.0/$metadata#workbookRange`,
      address: "'2026Plan'!B3:C4",
      rowIndex: 2,
    });
    expectError(
      await plan.call('GET', `${PLAN}/tables/Parts/range?$select=values`),
      400,
      'BadRequest',
      "Could not find a property named 'values' on type 'vendor.graph.workbookRange'.",
    );
  });
});

describe('chart points', () => {
  const point = (chart: string, series: string, index: string, book = BOOK, sheet = 'Summary'): string =>
    `${book}/worksheets/${sheet}/charts/${chart}/series/${series}/points/itemAt(index=${index})`;

  it('finds the chart by id or by name in any case, and the series by id or name', async () => {
    for (const path of [
      point('{CHART-0001}', '0', '3'),
      point('licensechart', 'licences', '3'),
      point('LICENSECHART', '0', '%203%20'),
    ]) {
      const reply = await api.call('GET', path);
      expect(reply.status, `${path}: ${reply.text}`).toBe(200);
      expect(reply.body).toEqual({
        '@odata.context': `${api.emulator.url}/v1.0/$metadata#workbookChartPoint`,
        id: '3',
        value: 1,
      });
    }
  });

  it('names the chart, the series or the point it could not find', async () => {
    expectError(
      await plan.call('GET', point('Nope', 's0', '0', PLAN, 'Bill of materials')),
      404,
      'ItemNotFound',
      "The requested chart 'Nope' was not found.",
    );
    expectError(
      await api.call('GET', point('LicenseChart', '0', '0', BOOK, 'Components')),
      404,
      'ItemNotFound',
      "The requested chart 'LicenseChart' was not found.",
    );
    expectError(
      await plan.call('GET', point('Costs', 'Price', '0', PLAN, 'ws-bom')),
      404,
      'ItemNotFound',
      "The requested series 'Price' was not found.",
    );
    expectError(
      await plan.call('GET', point('Spare', 's9', '0', PLAN, 'ws-bom')),
      404,
      'ItemNotFound',
      'The requested point at index 0 does not exist; the series has 0 points.',
    );
    for (const index of ['4', '2147483647']) {
      expectError(
        await api.call('GET', point('LicenseChart', '0', index)),
        404,
        'ItemNotFound',
        `The requested point at index ${index} does not exist; the series has 4 points.`,
      );
    }
    expectError(
      await api.call('GET', point('LicenseChart', '0', '-2147483648')),
      404,
      'ItemNotFound',
      'The requested point at index -2147483648 does not exist; the series has 4 points.',
    );
  });

  it('refuses an index that is not an Int32, quoting it', async () => {
    for (const index of ['2147483648', '-2147483649', '1.5', '0x1', '99999999999', '123456789012']) {
      expectError(
        await api.call('GET', point('LicenseChart', '0', index)),
        400,
        'InvalidArgument',
        `The argument is invalid or missing or has an incorrect format: index '${index}' is not an Int32.`,
      );
    }
  });
});
