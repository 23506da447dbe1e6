/**
 * merge-reports: the json, sarif or junit reports of the shards of one `validate --shard I/N` run → the report
 * one unsharded run with the same options writes, byte for byte. Pure: texts in, text out.
 *
 * Nothing is regenerated: the tool, rules and every other part outside the documents are copied from the shards,
 * which must agree on them; the documents' parts (json documents, sarif results and notifications, junit test
 * cases) are copied as they are and put in validateFiles' order (compareUri); only counts are recomputed. A
 * report is hostile input: it is checked for the shape bomwright writes, and any other shape is refused with
 * one line naming the file.
 */
import { BomwrightError } from '../errors.js';
import { unescapeXml } from './junit.js';
import { compareUri, MAX_SHARDS, type ShardStamp } from './report.js';

export const MERGE_FORMATS = ['sarif', 'json', 'junit'] as const;
export type MergeFormat = (typeof MERGE_FORMATS)[number];

/** One shard's report: a name for messages (its file) and its text. */
export interface ReportText {
  name: string;
  text: string;
}

export interface MergeOptions {
  /** The format the reports must have (default: whatever the first one has; all must have the same). */
  format?: MergeFormat;
}

export interface MergeResult {
  format: MergeFormat;
  text: string;
  /** Documents in the merged report. */
  documents: number;
  /** The run's shard count. */
  shards: number;
}

/** The nesting bomwright's reports need (a SARIF result is 7 deep) with room to spare; deeper is not ours. */
const MAX_DEPTH = 32;

type Json = Record<string, unknown>;

/** A part of a report that belongs to one document, with that document's uri (the order key). */
interface Part {
  uri: string;
  /** A json document, a sarif result or notification (parsed), or a junit test case (its lines). */
  value: unknown;
  /** sarif: results and notifications are two lists, each in document order. */
  list?: 'results' | 'notifications';
  /** junit: the test case is a failure. */
  failed?: boolean;
}

/** One shard's report, taken apart. */
interface Taken {
  name: string;
  format: MergeFormat;
  stamp: ShardStamp;
  /** Documents this shard checked. */
  documents: number;
  /** Everything outside the documents' parts, counts and stamp, as text: every shard must have the same. */
  frame: string;
  parts: Part[];
  /** The parsed report (json, sarif) or its lines (junit), to rebuild the merged one from. */
  whole: unknown;
}

function refuse(name: string, message: string): never {
  throw new BomwrightError('E_MERGE', `${name}: ${message}`);
}

/**
 * Joins the reports of every shard of one run. Refused (E_MERGE, naming the file): a report that is not one of
 * bomwright's json, sarif or junit reports, or not a shard's (no stamp); a mix of formats; shards of different
 * runs (shard count, settings digest, tool or rules); a shard given twice or missing; a document in two shards.
 * No document in any shard is E_NO_MATCH, as for an unsharded run.
 */
export function mergeReports(inputs: readonly ReportText[], options: MergeOptions = {}): MergeResult {
  if (inputs.length === 0) throw new BomwrightError('E_USAGE', 'Name the shard reports to merge');
  const taken = inputs.map(take);
  const format = options.format ?? taken[0]!.format;
  for (const t of taken)
    if (t.format !== format) refuse(t.name, `is a ${t.format} report, not ${format}: merge the reports of one format`);
  checkOneRun(taken);
  const parts = mergeParts(taken);
  const documents = taken.reduce((sum, t) => sum + t.documents, 0);
  if (documents === 0) throw new BomwrightError('E_NO_MATCH', `No BOM documents in any of the ${taken.length} shards`);
  // Every shard has the same frame (checked): the first one's is copied.
  const first = taken[0]!;
  const text =
    format === 'json'
      ? buildJson(first.whole as Json, parts)
      : format === 'sarif'
        ? buildSarif(first.whole as Json, parts)
        : buildJunit(first.whole as string[], parts);
  return { format, text, documents, shards: first.stamp.count };
}

/** Same shard count, settings and frame; each shard once; none missing. */
function checkOneRun(taken: readonly Taken[]): void {
  const [first, ...rest] = taken as [Taken, ...Taken[]];
  const label = (t: Taken) => `${t.stamp.index}/${t.stamp.count}`;
  for (const t of rest) {
    if (t.stamp.count !== first.stamp.count)
      refuse(t.name, `is shard ${label(t)} but ${first.name} is shard ${label(first)}: merge the shards of one run`);
    if (t.stamp.settings !== first.stamp.settings)
      refuse(
        t.name,
        `comes from another run than ${first.name} (other operands, options or bomwright version): run every shard with the same command`,
      );
    if (t.frame !== first.frame)
      refuse(t.name, `differs from ${first.name} outside its documents (tool, rules or report layout)`);
  }
  const byIndex = new Map<number, Taken>();
  for (const t of taken) {
    const other = byIndex.get(t.stamp.index);
    if (other !== undefined) refuse(t.name, `is shard ${label(t)}, and so is ${other.name}`);
    byIndex.set(t.stamp.index, t);
  }
  const count = first.stamp.count;
  const absent = count - byIndex.size;
  if (absent > 0) {
    // Named up to five, so a stamp claiming thousands of shards still makes one short line.
    const missing: string[] = [];
    for (let index = 1; index <= count && missing.length < 5; index++)
      if (!byIndex.has(index)) missing.push(`${index}/${count}`);
    const more = absent > missing.length ? ` and ${absent - missing.length} more` : '';
    const which = absent === 1 ? `shard ${missing[0]} is` : `shards ${missing.join(', ')}${more} are`;
    throw new BomwrightError('E_MERGE', `${which} missing: the merged report needs every shard's report`);
  }
}

/** Every shard's parts in validateFiles' order; a document in two shards is refused. */
function mergeParts(shards: readonly Taken[]): Part[] {
  const owner = new Map<string, string>();
  for (const t of shards) {
    for (const uri of new Set(t.parts.map((p) => p.uri))) {
      const other = owner.get(uri);
      if (other !== undefined) refuse(t.name, `has ${JSON.stringify(uri)}, and so has ${other}: the shards overlap`);
      owner.set(uri, t.name);
    }
  }
  // Stable: a document's parts keep their order, and they all come from one shard.
  return shards.flatMap((t) => t.parts).sort((a, b) => compareUri(a.uri, b.uri));
}

/** Which format a report is, and its parts. */
function take(input: ReportText): Taken {
  const { name, text } = input;
  if (text.startsWith('<?xml')) return takeJunit(name, text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    refuse(name, 'is neither JSON nor JUnit XML: not a json, sarif or junit report of bomwright validate');
  }
  checkDepth(name, value);
  if (isObject(value) && 'runs' in value) return takeSarif(name, value);
  if (isObject(value) && 'reportVersion' in value) return takeJson(name, value);
  return refuse(name, 'is not a json, sarif or junit report of bomwright validate');
}

// --- json ---------------------------------------------------------------------------------------------------

interface JsonDocument {
  path: string;
  valid: boolean;
  errors: number;
  warnings: number;
  failure?: string;
}

function takeJson(name: string, report: Json): Taken {
  if (report.reportVersion !== 1) refuse(name, `has reportVersion ${JSON.stringify(report.reportVersion)}, not 1`);
  const stamp = readStamp(name, report.shard);
  const documents = arrayAt(name, report, 'documents');
  for (const d of documents) checkJsonDocument(name, d);
  const docs = documents as JsonDocument[];
  const summary = report.summary;
  if (JSON.stringify(summary) !== JSON.stringify(jsonSummary(docs)))
    refuse(name, 'has a summary that does not match its documents');
  const frame = JSON.stringify(report, (key, value: unknown) =>
    value === report.shard || value === summary || value === documents ? undefined : value,
  );
  return {
    name,
    format: 'json',
    stamp,
    documents: docs.length,
    frame,
    parts: docs.map((d) => ({ uri: d.path, value: d })),
    whole: report,
  };
}

function checkJsonDocument(name: string, d: unknown): void {
  const ok =
    isObject(d) &&
    typeof d.path === 'string' &&
    typeof d.valid === 'boolean' &&
    isCount(d.errors) &&
    isCount(d.warnings) &&
    (d.failure === undefined || typeof d.failure === 'string') &&
    Array.isArray(d.diagnostics);
  if (!ok) refuse(name, 'has a document entry that is not one bomwright writes');
}

/** formatJson's summary, from its documents (a failure has no result: not invalid, no errors). */
function jsonSummary(docs: readonly JsonDocument[]) {
  let errors = 0;
  let warnings = 0;
  let invalid = 0;
  let unreadable = 0;
  for (const d of docs) {
    errors += d.errors;
    warnings += d.warnings;
    if (d.failure !== undefined) unreadable++;
    else if (!d.valid) invalid++;
  }
  return { documents: docs.length, errors, warnings, invalid, unreadable };
}

function buildJson(report: Json, parts: readonly Part[]): string {
  const docs = parts.map((p) => p.value as JsonDocument);
  // The first shard's report, in its own key order, without its stamp and with every shard's documents.
  const merged: Json = { ...report, summary: jsonSummary(docs), documents: docs };
  delete merged.shard;
  return JSON.stringify(merged, null, 2) + '\n';
}

// --- sarif --------------------------------------------------------------------------------------------------

function takeSarif(name: string, log: Json): Taken {
  const runs = arrayAt(name, log, 'runs');
  if (runs.length !== 1 || !isObject(runs[0])) refuse(name, 'does not hold exactly one SARIF run');
  const run = runs[0];
  const results = arrayAt(name, run, 'results');
  const invocations = arrayAt(name, run, 'invocations');
  if (invocations.length !== 1 || !isObject(invocations[0])) refuse(name, 'does not hold exactly one invocation');
  const invocation = invocations[0];
  const notifications = arrayAt(name, invocation, 'toolExecutionNotifications');
  if (invocation.executionSuccessful !== (notifications.length === 0))
    refuse(name, 'has an executionSuccessful that does not match its notifications');
  const properties = invocation.properties;
  const stamp = readStamp(name, isObject(properties) ? properties.shard : undefined);
  const documents = (properties as { shard: { documents?: unknown } }).shard.documents;
  if (!isCount(documents)) refuse(name, 'has a shard stamp without its number of documents');
  const parts: Part[] = [
    ...results.map((r) => ({ uri: sarifUri(name, r), value: r, list: 'results' as const })),
    ...notifications.map((n) => ({ uri: sarifUri(name, n), value: n, list: 'notifications' as const })),
  ];
  if (new Set(parts.map((p) => p.uri)).size > documents)
    refuse(name, `names more documents than its stamp says it checked (${documents})`);
  const frame = JSON.stringify(log, function (this: unknown, key, value: unknown) {
    if (this === invocation && key === 'executionSuccessful') return undefined;
    return value === results || value === notifications || value === stamp.source ? undefined : value;
  });
  return { name, format: 'sarif', stamp, documents, frame, parts, whole: log };
}

/** The document a result or notification is about: its artifact's URI, percent-decoded (formatSarif encodes). */
function sarifUri(name: string, entry: unknown): string {
  const uri = (entry as { locations?: { physicalLocation?: { artifactLocation?: { uri?: unknown } } }[] } | null)
    ?.locations?.[0]?.physicalLocation?.artifactLocation?.uri;
  if (typeof uri !== 'string') refuse(name, 'has a result or notification without an artifact URI');
  try {
    return decodeURIComponent(uri);
  } catch {
    return refuse(name, `has an artifact URI that is not percent-encoded text: ${JSON.stringify(uri)}`);
  }
}

function buildSarif(log: Json, parts: readonly Part[]): string {
  // The first shard's log (parsed for this merge alone) with every shard's results and notifications.
  const run = (log.runs as Json[])[0]!;
  const invocation = (run.invocations as Json[])[0]!;
  const notifications = parts.filter((p) => p.list === 'notifications').map((p) => p.value);
  run.results = parts.filter((p) => p.list === 'results').map((p) => p.value);
  invocation.executionSuccessful = notifications.length === 0;
  invocation.toolExecutionNotifications = notifications;
  const properties = invocation.properties as Json;
  delete properties.shard;
  if (Object.keys(properties).length === 0) delete invocation.properties;
  return JSON.stringify(log, null, 2) + '\n';
}

// --- junit --------------------------------------------------------------------------------------------------

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
const FOOTER = '\n  </testsuite>\n</testsuites>\n';
const CASE_START = '    <testcase ';
const COUNTS = / (tests|failures)="(\d+)"/g;

/**
 * formatJunit's layout, read line by line. Document text in it is escaped (no raw `<` or `"`), so a line that
 * starts with markup is markup: a test case runs from its `<testcase` line to the next one or the suite's end.
 */
function takeJunit(name: string, text: string): Taken {
  function malformed(): never {
    return refuse(name, 'is not JUnit XML as bomwright validate writes it');
  }
  const lines = text.split('\n');
  const [declaration, suites = '', suite = ''] = lines;
  if (
    declaration !== XML_DECLARATION ||
    !suites.startsWith('<testsuites ') ||
    !suite.startsWith('  <testsuite ') ||
    !text.endsWith(FOOTER)
  )
    malformed();
  // The stamp: formatJunit's properties block, exactly.
  const shard = /^ {6}<property name="bomwright\.shard" value="(\d+)\/(\d+)"\/>$/.exec(lines[4]!);
  const settings = /^ {6}<property name="bomwright\.settings" value="([^"]*)"\/>$/.exec(lines[5]!);
  if (lines[3] !== '    <properties>' || lines[6] !== '    </properties>' || shard === null || settings === null)
    notShard(name);
  const stamp = readStamp(name, { index: Number(shard[1]), count: Number(shard[2]), settings: settings[1] });
  const body = lines.slice(7, -3);
  if (body.length > 0 && !body[0]!.startsWith(CASE_START)) malformed();
  const cases: string[][] = [];
  for (const line of body) {
    if (line.startsWith(CASE_START)) cases.push([line]);
    else cases.at(-1)!.push(line);
  }
  const parts = cases.map((caseLines): Part => {
    const block = caseLines.join('\n');
    const match = /^ {4}<testcase classname="[^"]*" name="([^"]*)"/.exec(block);
    if (match === null) malformed();
    const uri = unescapeXml(match[1]!);
    if (uri.includes('\uFFFD'))
      refuse(
        name,
        `names a document with a character XML cannot carry (${JSON.stringify(uri)}), so its place is unknown: merge json or sarif reports instead`,
      );
    return { uri, value: caseLines, failed: block.includes('<failure ') };
  });
  const failures = parts.filter((p) => p.failed).length;
  for (const header of [suites, suite]) {
    const counts = Object.fromEntries([...header.matchAll(COUNTS)].map((m) => [m[1], Number(m[2])]));
    if (counts.tests !== cases.length || counts.failures !== failures)
      refuse(name, 'has tests or failures counts that do not match its test cases');
  }
  const frame = [declaration, suites.replace(COUNTS, ''), suite.replace(COUNTS, '')].join('\n');
  return { name, format: 'junit', stamp, documents: cases.length, frame, parts, whole: lines };
}

function buildJunit(lines: readonly string[], parts: readonly Part[]): string {
  const failures = parts.filter((p) => p.failed).length;
  const counted = (header: string) =>
    header.replace(
      COUNTS,
      (_, attribute: string) => ` ${attribute}="${attribute === 'tests' ? parts.length : failures}"`,
    );
  return (
    [lines[0]!, counted(lines[1]!), counted(lines[2]!), ...parts.flatMap((p) => p.value as string[])].join('\n') +
    FOOTER
  );
}

// --- shared -------------------------------------------------------------------------------------------------

/** A shard stamp as formatters write it; `source` is the parsed value, to leave it out of the frame. */
function readStamp(name: string, value: unknown): ShardStamp & { source: unknown } {
  if (!isObject(value)) notShard(name);
  const { index, count, settings } = value;
  const whole = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 1;
  if (
    !whole(index) ||
    !whole(count) ||
    index > count ||
    count > MAX_SHARDS ||
    typeof settings !== 'string' ||
    !/^[0-9a-f]{1,64}$/.test(settings)
  )
    refuse(name, 'has a shard stamp that is not one bomwright writes');
  return { index, count, settings, source: value };
}

function notShard(name: string): never {
  return refuse(name, 'is not a shard report (it has no shard stamp): merge the reports of validate --shard I/N runs');
}

function checkDepth(name: string, value: unknown): void {
  const stack: [unknown, number][] = [[value, 1]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, depth] = item;
    if (node === null || typeof node !== 'object') continue;
    if (depth > MAX_DEPTH) refuse(name, `nests deeper than ${MAX_DEPTH} levels, which no bomwright report does`);
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
}

function arrayAt(name: string, holder: Json, key: string): unknown[] {
  const value = holder[key];
  if (!Array.isArray(value)) refuse(name, `has no ${key} list where bomwright writes one`);
  return value;
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
