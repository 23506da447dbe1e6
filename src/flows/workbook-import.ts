/**
 * `import workbook`: a component inventory kept in a workbook table (columns name, version, type, purl, license,
 * supplier, group, description; other headers mapped with `map`) into a BOM's components, created or updated
 * (matched by purl, then by name and version). A row that does not make a valid component is reported with its
 * sheet row and address and left out; with `flag`, its range gets a red, thick, continuous border in the workbook,
 * inside a persistent workbook session.
 */
import { collectBomRefs } from '../author/bom-ref.js';
import { documentFormat } from '../author/document.js';
import { buildComponent, type ComponentFields } from '../author/elements.js';
import { BomwrightError, isBomwrightError } from '../errors.js';
import type { ServiceApi } from '../service/api.js';
import type { WorkbookTableColumn } from '../service/resources.js';
import { validate } from '../validate/index.js';
import { isDeepStrictEqual } from 'node:util';
import { isRecord } from '../values.js';
import { editableCopy, recordSource } from './records.js';

export const IMPORT_FIELDS = [
  'name',
  'version',
  'type',
  'purl',
  'license',
  'supplier',
  'group',
  'description',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

export interface ImportWorkbookOptions {
  /** The workbook: its drive item id, or its path under the drive root. */
  item?: string;
  itemPath?: string;
  table: string;
  /** Column header → field, for headers other than the field names (matched without regard to case). */
  map?: Readonly<Record<string, ImportField>>;
  /** Give each rejected row's range a red, thick, continuous border (not in a dry run). */
  flag?: boolean;
  dryRun?: boolean;
  signal?: AbortSignal;
}

export interface RejectedRow {
  /** The row's number on the worksheet. */
  row: number;
  /** The row's range, e.g. `A4:F4`. */
  address: string;
  problems: string[];
}

export interface ImportWorkbookResult {
  document: Record<string, unknown>;
  added: number;
  /** Rows that changed the component they matched. */
  updated: number;
  /** Rows whose component already had every value they carry (a second run of the same table). */
  unchanged: number;
  rejected: RejectedRow[];
  /** Rows whose range was flagged in the workbook. */
  flagged: number;
  calls: number;
}

const FLAG_BORDER = { color: '#FF0000', style: 'Continuous', weight: 'Thick' } as const;
const EDGES = ['EdgeTop', 'EdgeBottom', 'EdgeLeft', 'EdgeRight'] as const;
const MAX_ROWS = 100_000;

interface TableShape {
  worksheet: string;
  firstColumn: string;
  lastColumn: string;
  headerRow: number;
}

/** `Sheet!A1:F5` (the sheet name quoted when it must be) as the table's worksheet, columns and header row. */
function tableShape(address: string): TableShape {
  const match = /^(?:'((?:[^']|'')+)'|([^!]+))!\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?$/i.exec(address);
  if (match === null)
    throw new BomwrightError(
      'E_RESPONSE_SHAPE',
      `The table's range ${JSON.stringify(address.slice(0, 80))} is not Sheet!A1:B2`,
    );
  return {
    worksheet: match[1] !== undefined ? match[1].replaceAll("''", "'") : match[2]!,
    firstColumn: match[3]!.toUpperCase(),
    lastColumn: (match[5] ?? match[3]!).toUpperCase(),
    headerRow: Number(match[4]),
  };
}

function cellText(value: unknown): string | undefined {
  const cell = Array.isArray(value) ? value[0] : value;
  if (cell === null || cell === undefined) return undefined;
  const text = String(cell).trim();
  return text === '' ? undefined : text;
}

/** The field each column feeds, by header (the mapping first, then the field names themselves). */
function fieldsOf(
  columns: readonly WorkbookTableColumn[],
  map: Readonly<Record<string, ImportField>>,
): (ImportField | undefined)[] {
  const mapped = new Map(Object.entries(map).map(([header, field]) => [header.trim().toLowerCase(), field]));
  return columns.map((column) => {
    const header = (column.name ?? cellText(Array.isArray(column.values) ? column.values[0] : undefined) ?? '')
      .trim()
      .toLowerCase();
    const field = mapped.get(header) ?? (header === 'licenses' ? 'license' : header);
    return (IMPORT_FIELDS as readonly string[]).includes(field) ? (field as ImportField) : undefined;
  });
}

function rowFields(cells: Partial<Record<ImportField, string>>): { fields?: ComponentFields; problems: string[] } {
  const problems: string[] = [];
  if (cells.name === undefined) problems.push('no name');
  const licenses = cells.license?.split(/\s*[;,]\s*/).filter((l) => l !== '');
  if (problems.length > 0) return { problems };
  return {
    problems,
    fields: {
      name: cells.name!,
      ...(cells.version === undefined ? {} : { version: cells.version }),
      ...(cells.type === undefined ? {} : { type: cells.type }),
      ...(cells.purl === undefined ? {} : { purl: cells.purl }),
      ...(cells.group === undefined ? {} : { group: cells.group }),
      ...(cells.description === undefined ? {} : { description: cells.description }),
      ...(cells.supplier === undefined ? {} : { supplier: cells.supplier }),
      ...(licenses === undefined || licenses.length === 0 ? {} : { licenses }),
    },
  };
}

/** Members a row sets on a component it updates (the bom-ref and everything else are kept). */
const ROW_MEMBERS = ['type', 'supplier', 'group', 'name', 'version', 'description', 'licenses', 'purl'];

/** The inventory of a workbook table in `document`'s components; the input is never modified. */
export async function importWorkbook(
  document: unknown,
  api: ServiceApi,
  options: ImportWorkbookOptions,
): Promise<ImportWorkbookResult> {
  if ((options.item === undefined) === (options.itemPath === undefined))
    throw new BomwrightError('E_USAGE', 'Name the workbook by its item id or by its path, one of the two');
  const copy = editableCopy(document);
  const { format } = documentFormat(copy);
  const where = options.item !== undefined ? { item: options.item } : { itemPath: options.itemPath! };
  const resource = `${options.item !== undefined ? `me/drive/items/${options.item}` : `me/drive/root:/${options.itemPath}:`}/workbook/tables/${options.table}`;
  let calls = 2;
  const [range, columns] = await Promise.all([
    api.workbook.getTableRange({ ...where, table: options.table, signal: options.signal }),
    api.workbook.listTableColumns({ ...where, table: options.table, signal: options.signal }).all(),
  ]);
  const shape = tableShape(range.address);
  const fields = fieldsOf(columns, options.map ?? {});
  if (!fields.includes('name'))
    throw new BomwrightError(
      'E_USAGE',
      `Table ${options.table} has no name column (its headers: ${columns.map((c) => c.name).join(', ')}); map one with --map HEADER=name`,
    );
  const rows = Math.max(0, ...columns.map((c) => (Array.isArray(c.values) ? c.values.length - 1 : 0)));
  if (rows > MAX_ROWS)
    throw new BomwrightError('E_INPUT', `Table ${options.table} has ${rows} rows; at most ${MAX_ROWS} are read`);

  const components = (copy.components ??= []) as unknown[];
  if (!Array.isArray(components)) throw new BomwrightError('E_INPUT', 'components is not an array');
  const byPurl = new Map<string, Record<string, unknown>>();
  const byNameVersion = new Map<string, Record<string, unknown>>();
  const key = (name: unknown, version: unknown) => `${String(name)}\u0000${String(version ?? '')}`;
  for (const component of components)
    if (isRecord(component)) {
      if (typeof component.purl === 'string') byPurl.set(component.purl, component);
      byNameVersion.set(key(component.name, component.version), component);
    }
  const taken = collectBomRefs(copy);
  const rejected: RejectedRow[] = [];
  /** The component each accepted row made or updated, with its row, for the validation pass. */
  const touched: {
    row: RejectedRow;
    component: Record<string, unknown>;
    before?: Record<string, unknown>;
    added: boolean;
  }[] = [];
  for (let i = 0; i < rows; i++) {
    const sheetRow = shape.headerRow + 1 + i;
    const row: RejectedRow = {
      row: sheetRow,
      address: `${shape.firstColumn}${sheetRow}:${shape.lastColumn}${sheetRow}`,
      problems: [],
    };
    const cells: Partial<Record<ImportField, string>> = {};
    columns.forEach((column, c) => {
      const field = fields[c];
      const value = Array.isArray(column.values) ? cellText(column.values[i + 1]) : undefined;
      if (field !== undefined && value !== undefined) cells[field] = value;
    });
    if (Object.keys(cells).length === 0) continue;
    const parsed = rowFields(cells);
    row.problems.push(...parsed.problems);
    let built: Record<string, unknown> | undefined;
    if (parsed.fields !== undefined) {
      try {
        built = buildComponent(parsed.fields, format, taken);
      } catch (error) {
        if (!isBomwrightError(error)) throw error;
        row.problems.push(error.message);
      }
      // An inventory names licences by SPDX id or expression; free text (a licence name) is refused here.
      const choices = (built?.licenses ?? []) as { license?: { name?: string } }[];
      choices.forEach((choice, k) => {
        if (choice.license?.name !== undefined)
          row.problems.push(
            `license ${JSON.stringify(parsed.fields!.licenses![k])} is not an SPDX identifier or expression`,
          );
      });
    }
    if (built === undefined || row.problems.length > 0) {
      rejected.push(row);
      continue;
    }
    const existing =
      (typeof built.purl === 'string' ? byPurl.get(built.purl) : undefined) ??
      byNameVersion.get(key(built.name, built.version));
    if (existing !== undefined) {
      const before = structuredClone(existing);
      for (const member of ROW_MEMBERS) if (built[member] !== undefined) existing[member] = built[member];
      recordSource(existing, 'listTableColumns', resource);
      touched.push({ row, component: existing, before, added: false });
    } else {
      recordSource(built, 'listTableColumns', resource);
      components.push(built);
      if (typeof built.purl === 'string') byPurl.set(built.purl, built);
      byNameVersion.set(key(built.name, built.version), built);
      touched.push({ row, component: built, added: true });
    }
  }
  // One validation of the whole result; the rows whose components it finds fault with are rejected too.
  const result = await validate(copy, { signatures: 'ignore' });
  if (!result.valid) {
    const indexOf = new Map(components.map((c, i) => [c, i]));
    for (const entry of touched) {
      const prefix = `/components/${indexOf.get(entry.component)}`;
      const faults = result.diagnostics.filter(
        (d) => d.severity === 'error' && (d.pointer === prefix || d.pointer.startsWith(`${prefix}/`)),
      );
      if (faults.length === 0) continue;
      entry.row.problems.push(
        ...faults.map((d) => `${d.pointer.slice(prefix.length) || 'the component'}: ${d.message}`),
      );
      rejected.push(entry.row);
      if (entry.added) components.splice(components.indexOf(entry.component), 1);
      else {
        // Back to what it was: members the row added (and its source) go too, not only the ones it changed.
        for (const member of Object.keys(entry.component))
          if (!Object.hasOwn(entry.before!, member)) delete entry.component[member];
        Object.assign(entry.component, entry.before);
      }
    }
  }
  rejected.sort((a, b) => a.row - b.row);
  const accepted = touched.filter((t) => t.row.problems.length === 0);
  if (components.length === 0) delete copy.components;
  let flagged = 0;
  if (options.flag === true && options.dryRun !== true && rejected.length > 0) {
    calls += 2;
    const session = await api.workbook.createWorkbookSession({
      ...where,
      body: { persistChanges: true },
      signal: options.signal,
    });
    try {
      for (const row of rejected) {
        for (const sideIndex of EDGES) {
          calls++;
          await api.workbook.updateRangeBorder({
            ...where,
            worksheet: shape.worksheet,
            address: row.address,
            sideIndex,
            body: FLAG_BORDER,
            workbookSessionId: session.id,
            signal: options.signal,
          });
        }
        flagged++;
      }
    } finally {
      await api.workbook.closeWorkbookSession({ ...where, workbookSessionId: session.id, signal: options.signal });
    }
  }
  return {
    document: copy,
    added: accepted.filter((t) => t.added).length,
    updated: accepted.filter((t) => !t.added && !isDeepStrictEqual(t.before, t.component)).length,
    unchanged: accepted.filter((t) => !t.added && isDeepStrictEqual(t.before, t.component)).length,
    rejected,
    flagged,
    calls,
  };
}
