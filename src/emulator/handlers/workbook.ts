/**
 * Workbooks: range borders (named ranges, worksheet ranges, table columns share one range model, so a border set
 * through a name is the border of that address), table columns with $top/$skip/$select, chart points by index,
 * and sessions: `Workbook-Session-Id` decides whether a change is kept (persistent session), kept for the session
 * only (non-persistent), or not kept at all (no session).
 */
import type { Handler, HandlerContext } from '../context.js';
import { badRequest, ServiceFault } from '../faults.js';
import { applySelect, parseCount, parseCountFlag, parseFilter, parseOrderBy, parseSelect } from '../odata.js';
import type { Json, JsonRecord } from '../store.js';
import { collection, entity, list, noContent, truncate } from './common.js';
import { htmlColorHex } from './colors.js';

const SIDES = [
  'EdgeTop',
  'EdgeBottom',
  'EdgeLeft',
  'EdgeRight',
  'InsideVertical',
  'InsideHorizontal',
  'DiagonalDown',
  'DiagonalUp',
] as const;

const DEFAULT_BORDER = { color: '#000000', style: 'None', weight: 'Thin' } as const;
const PERSISTENT_SESSION_MS = 5 * 60_000;
const NON_PERSISTENT_SESSION_MS = 7 * 60_000;
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

const invalidArgument = (message: string): ServiceFault => new ServiceFault(400, 'InvalidArgument', message);
const itemNotFound = (message: string): ServiceFault => new ServiceFault(404, 'ItemNotFound', message);

function workbook(context: HandlerContext): JsonRecord {
  const principal = context.principal;
  const ownerId = principal.kind === 'user' ? principal.userId : undefined;
  let found: JsonRecord | undefined;
  if (context.params.item !== undefined) {
    found = context.tx.get('workbooks', context.params.item);
  } else {
    const wanted = context.params.itemPath!.replace(/^\/+/, '').toLowerCase();
    for (const candidate of context.store.all('workbooks'))
      if (String(candidate.path).toLowerCase() === wanted && candidate.ownerId === ownerId)
        found = context.tx.get('workbooks', String(candidate.id));
  }
  if (found === undefined || found.ownerId !== ownerId)
    throw new ServiceFault(404, 'itemNotFound', 'The resource could not be found.');
  return found;
}

function byIdOrName(items: readonly JsonRecord[], key: string, what: string): JsonRecord {
  const lower = key.toLowerCase();
  const found =
    items.find((item) => item.id === key) ?? items.find((item) => String(item.name).toLowerCase() === lower);
  if (found === undefined) throw itemNotFound(`The requested ${what} '${truncate(key, 80)}' was not found.`);
  return found;
}

function worksheet(book: JsonRecord, key: string): JsonRecord {
  return byIdOrName(list(book, 'worksheets'), key, 'worksheet');
}

function table(context: HandlerContext, book: JsonRecord): JsonRecord {
  const found = byIdOrName(list(book, 'tables'), context.params.table!, 'table');
  if (context.params.worksheet !== undefined && found.worksheetId !== worksheet(book, context.params.worksheet).id)
    throw itemNotFound(`The requested table '${truncate(context.params.table!, 80)}' is not on that worksheet.`);
  return found;
}

// Addresses

const CELL = /^([A-Z]{1,3})([1-9]\d{0,6})$/;

function columnNumber(letters: string): number {
  let n = 0;
  for (const c of letters) n = n * 26 + (c.charCodeAt(0) - 64);
  return n;
}

function columnLetters(n: number): string {
  let letters = '';
  for (let rest = n; rest > 0; rest = Math.floor((rest - 1) / 26))
    letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return letters;
}

/** `A1`, `A1:B2`, `A:C`, `1:3`, optionally `Sheet!…`, `$` anchors ignored: upper-case, anchors removed. */
function normalizeAddress(address: string, sheetName: string): string {
  let text = address.trim().replaceAll('$', '').toUpperCase();
  const bang = text.lastIndexOf('!');
  if (bang !== -1) {
    // A quoted sheet name doubles its apostrophes, as Excel writes it: 'Bob''s list'!A1.
    const sheet = text.slice(0, bang).replace(/^'(.*)'$/, (_, name: string) => name.replaceAll("''", "'"));
    if (sheet !== sheetName.toUpperCase())
      throw invalidArgument(`The address '${truncate(address, 60)}' names another worksheet.`);
    text = text.slice(bang + 1);
  }
  const parts = text.split(':');
  const valid =
    parts.length <= 2 &&
    (parts.every((p) => CELL.test(p)) ||
      (parts.length === 2 && parts.every((p) => /^[A-Z]{1,3}$/.test(p))) ||
      (parts.length === 2 && parts.every((p) => /^[1-9]\d{0,6}$/.test(p))));
  if (!valid || parts.some((p) => CELL.test(p) && columnNumber(CELL.exec(p)![1]!) > 16_384))
    throw invalidArgument(
      `The argument is invalid or missing or has an incorrect format: address '${truncate(address, 60)}'.`,
    );
  return text;
}

/** The range of a table column: the column's letter over the table's rows. */
function columnAddress(tableRecord: JsonRecord, column: JsonRecord): string {
  const [start, end] = String(tableRecord.address ?? 'A1:A1').split(':');
  const first = CELL.exec(start!)!;
  const last = CELL.exec(end ?? start!)!;
  const letter = columnLetters(columnNumber(first[1]!) + Number(column.index));
  return `${letter}${first[2]}:${letter}${last[2]}`;
}

/** The range a border path names, as `worksheetId!ADDRESS`. */
function rangeKey(context: HandlerContext, book: JsonRecord): string {
  const { params } = context;
  if (params.name !== undefined) {
    const named = byIdOrName(
      list(book, 'names').map((n) => ({ ...n, id: n.name ?? null })),
      params.name,
      'named item',
    );
    const sheet = worksheet(book, String(named.worksheetId));
    return `${String(sheet.id)}!${normalizeAddress(String(named.address), String(sheet.name))}`;
  }
  if (params.address !== undefined) {
    const sheet = worksheet(book, params.worksheet!);
    return `${String(sheet.id)}!${normalizeAddress(params.address, String(sheet.name))}`;
  }
  const tableRecord = table(context, book);
  const column = byIdOrName(list(tableRecord, 'columns'), params.column!, 'column');
  return `${String(tableRecord.worksheetId)}!${columnAddress(tableRecord, column)}`;
}

function side(context: HandlerContext): string {
  const wanted = context.params.sideIndex!.toLowerCase();
  const found = SIDES.find((s) => s.toLowerCase() === wanted);
  if (found === undefined)
    throw invalidArgument(
      `Invalid sideIndex '${truncate(context.params.sideIndex!, 40)}': expected one of ${SIDES.join(', ')}.`,
    );
  return found;
}

// Sessions

function session(context: HandlerContext, book: JsonRecord): JsonRecord | undefined {
  const id = context.header('workbook-session-id');
  if (id === undefined) return undefined;
  const found = context.tx.get('workbookSessions', id);
  if (
    found === undefined ||
    found.workbookId !== book.id ||
    Date.parse(String(found.expiresDateTime)) <= Date.parse(context.now)
  )
    throw new ServiceFault(
      404,
      'InvalidSessionNotFound',
      'The workbook session does not exist or has expired; create a new session.',
    );
  return found;
}

function touch(context: HandlerContext, found: JsonRecord): JsonRecord {
  const lifetime = found.persistChanges === true ? PERSISTENT_SESSION_MS : NON_PERSISTENT_SESSION_MS;
  const touched = { ...found, expiresDateTime: new Date(Date.parse(context.now) + lifetime).toISOString() };
  context.tx.put('workbookSessions', String(found.id), touched);
  return touched;
}

type Borders = Readonly<Record<string, Readonly<Record<string, JsonRecord>>>>;

function borderOf(book: JsonRecord, sessionRecord: JsonRecord | undefined, key: string, sideIndex: string): JsonRecord {
  const overlay = (sessionRecord?.borders as Borders | undefined)?.[key]?.[sideIndex];
  const kept = (book.borders as Borders | undefined)?.[key]?.[sideIndex];
  return { ...DEFAULT_BORDER, ...(kept ?? {}), ...(overlay ?? {}) };
}

function withBorder(holder: JsonRecord, key: string, sideIndex: string, border: JsonRecord): JsonRecord {
  const borders = (holder.borders ?? {}) as Borders;
  return { ...holder, borders: { ...borders, [key]: { ...(borders[key] ?? {}), [sideIndex]: border } } };
}

function borderView(sideIndex: string, border: JsonRecord): JsonRecord {
  return {
    id: sideIndex,
    sideIndex,
    color: border.color ?? null,
    style: border.style ?? null,
    weight: border.weight ?? null,
  };
}

export function normalizeColor(color: string): string {
  if (/^#[0-9A-Fa-f]{6}$/.test(color)) return color.toUpperCase();
  const hex = htmlColorHex(color);
  if (hex === undefined)
    throw invalidArgument(`Invalid color '${truncate(color, 40)}': expected #RRGGBB or an HTML color name.`);
  return hex;
}

export const updateRangeBorder: Handler = (context) => {
  const book = workbook(context);
  const key = rangeKey(context, book);
  const sideIndex = side(context);
  const sessionRecord = session(context, book);
  const body = context.body as JsonRecord;
  const changes: Record<string, Json> = {};
  if (body.color !== undefined) changes.color = normalizeColor(String(body.color));
  if (body.style !== undefined) changes.style = body.style;
  if (body.weight !== undefined) changes.weight = body.weight;
  const border = { ...borderOf(book, sessionRecord, key, sideIndex), ...changes };
  if (sessionRecord !== undefined) {
    const touched = touch(context, sessionRecord);
    if (touched.persistChanges === true)
      context.tx.put('workbooks', String(book.id), withBorder(book, key, sideIndex, border));
    else context.tx.put('workbookSessions', String(touched.id), withBorder(touched, key, sideIndex, border));
  }
  return entity(context, 'workbookRangeBorder', borderView(sideIndex, border));
};

export const updateNamedRangeBorder = updateRangeBorder;
export const updateColumnRangeBorder = updateRangeBorder;

export const getRangeBorder: Handler = (context) => {
  const book = workbook(context);
  const key = rangeKey(context, book);
  const sideIndex = side(context);
  const sessionRecord = session(context, book);
  if (sessionRecord !== undefined) touch(context, sessionRecord);
  return entity(context, 'workbookRangeBorder', borderView(sideIndex, borderOf(book, sessionRecord, key, sideIndex)));
};

const COLUMN_FIELDS = ['id', 'name', 'index', 'values'];

const COLUMN_TYPE = 'vendor.graph.workbookTableColumn';

export const listTableColumns: Handler = (context) => {
  const book = workbook(context);
  const tableRecord = table(context, book);
  const sessionRecord = session(context, book);
  if (sessionRecord !== undefined) touch(context, sessionRecord);
  const query = context.query;
  const top = parseCount('$top', query.get('$top'));
  const skip = parseCount('$skip', query.get('$skip')) ?? 0;
  const select = parseSelect(query.get('$select'), COLUMN_FIELDS, COLUMN_TYPE);
  const filter = parseFilter(query.get('$filter'), { id: 'string', name: 'string', index: 'number' }, COLUMN_TYPE);
  const order = parseOrderBy(query.get('$orderby'), ['id', 'name', 'index'], COLUMN_TYPE);
  const count = parseCountFlag(query.get('$count'));
  const byIndex = [...list(tableRecord, 'columns')].sort((a, b) => Number(a.index) - Number(b.index));
  const matching = (filter === undefined ? byIndex : byIndex.filter(filter)).sort(order ?? (() => 0));
  const page = matching
    .slice(skip, top === undefined ? undefined : skip + top)
    .map((column) => applySelect(column, select, []));
  const result = collection(context, 'Collection(workbookTableColumn)', page);
  // OData puts the count of every match (before $skip and $top) ahead of the items.
  if (!count) return result;
  const { value, ...rest } = result.body as Record<string, unknown>;
  return { ...result, body: { ...rest, '@odata.count': matching.length, value } };
};

const RANGE_FIELDS = ['address', 'addressLocal', 'rowCount', 'columnCount', 'rowIndex', 'columnIndex'];

/** A table's range, as the service gives it: `Sheet!A1:F5`, with its size and zero-based position. */
export const getTableRange: Handler = (context) => {
  const book = workbook(context);
  const tableRecord = table(context, book);
  const sessionRecord = session(context, book);
  if (sessionRecord !== undefined) touch(context, sessionRecord);
  const sheet = worksheet(book, String(tableRecord.worksheetId));
  const [start, end] = String(tableRecord.address ?? 'A1:A1').split(':');
  const first = CELL.exec(start!)!;
  const last = CELL.exec(end ?? start!)!;
  const name = String(sheet.name);
  const quoted = /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `'${name.replaceAll("'", "''")}'`;
  const address = `${quoted}!${String(tableRecord.address)}`;
  const range: JsonRecord = {
    address,
    addressLocal: address,
    rowCount: Number(last[2]) - Number(first[2]) + 1,
    columnCount: columnNumber(last[1]!) - columnNumber(first[1]!) + 1,
    rowIndex: Number(first[2]) - 1,
    columnIndex: columnNumber(first[1]!) - 1,
  };
  const select = parseSelect(context.query.get('$select'), RANGE_FIELDS, 'vendor.graph.workbookRange');
  return entity(context, 'workbookRange', applySelect(range, select, []));
};

export const getChartPoint: Handler = (context) => {
  const book = workbook(context);
  const sheet = worksheet(book, context.params.worksheet!);
  const chart = list(book, 'charts').find(
    (c) =>
      c.worksheetId === sheet.id &&
      (c.id === context.params.chart || String(c.name).toLowerCase() === context.params.chart!.toLowerCase()),
  );
  if (chart === undefined)
    throw itemNotFound(`The requested chart '${truncate(context.params.chart!, 80)}' was not found.`);
  const series = byIdOrName(list(chart, 'series'), context.params.series!, 'series');
  const text = context.params.index!.trim();
  if (!/^-?\d{1,11}$/.test(text) || Number(text) < INT32_MIN || Number(text) > INT32_MAX)
    throw invalidArgument(
      `The argument is invalid or missing or has an incorrect format: index '${truncate(text, 20)}' is not an Int32.`,
    );
  const index = Number(text);
  const points = list(series, 'points');
  if (index < 0 || index >= points.length)
    throw itemNotFound(`The requested point at index ${index} does not exist; the series has ${points.length} points.`);
  const sessionRecord = session(context, book);
  if (sessionRecord !== undefined) touch(context, sessionRecord);
  return entity(context, 'workbookChartPoint', points[index]!);
};

export const createWorkbookSession: Handler = (context) => {
  const book = workbook(context);
  const persistChanges = (context.body as JsonRecord | undefined)?.persistChanges === true;
  const id = `session=${context.newId()}`;
  const lifetime = persistChanges ? PERSISTENT_SESSION_MS : NON_PERSISTENT_SESSION_MS;
  context.tx.put('workbookSessions', id, {
    id,
    workbookId: String(book.id),
    persistChanges,
    expiresDateTime: new Date(Date.parse(context.now) + lifetime).toISOString(),
    borders: {},
  });
  return entity(context, 'vendor.graph.workbookSessionInfo', { id, persistChanges }, 201);
};

export const closeWorkbookSession: Handler = (context) => {
  const book = workbook(context);
  if (context.header('workbook-session-id') === undefined)
    throw badRequest('Workbook-Session-Id is required to close a session.');
  const found = session(context, book)!;
  context.tx.remove('workbookSessions', String(found.id));
  return noContent;
};
