/**
 * The version rule (spec: "increment by 1 when the document is modified"): compared with its previous release,
 * a document whose content changed keeps its serialNumber and has version = previous + 1; a document whose
 * content did not change keeps its version. One implementation serves validate (--baseline, --base-ref,
 * --staged), `bump --check`, the pre-commit hook and the Action; the edges only fetch the baseline.
 */
import { contentChanged } from '../compare/content.js';
import { diffDocuments } from '../compare/diff.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { decodedText, decodeJsonBytes } from '../json/decode.js';
import { roundedIntegerLiteral } from '../json/numbers.js';
import { parseJsonText } from '../json/parse.js';
import { display, isRecord, truncate } from '../values.js';
import { readDocument } from '../document/read.js';
import { syntaxOf, syntaxOfBytes } from '../document/syntax.js';

/** The previous release a document is compared with. */
export interface Baseline {
  /** Its parsed value, or its text or bytes (text that is not well-formed JSON has nothing to compare with). */
  document: unknown;
  /** How to name it in messages: a file, a git revision, `HEAD`. */
  name?: string;
  /** How `bomwright bump` fetches this baseline (`--baseline FILE`, `--base-ref REV`): the command a message names. */
  adoptWith?: string;
}

/**
 * The baseline's value; undefined when its text reads as no document (nothing to compare with). CycloneDX XML is
 * read into the same model as JSON, so either syntax compares with either.
 */
export function parsedBaseline(input: unknown): unknown {
  if (!(input instanceof Uint8Array) && typeof input !== 'string') return input;
  if ((input instanceof Uint8Array ? syntaxOfBytes(input) : syntaxOf(input)) === 'xml') {
    const read = readDocument(input);
    return read.ok ? read.document.model : undefined;
  }
  const decoded = input instanceof Uint8Array ? decodeJsonBytes(input) : decodedText(input);
  if (decoded.text === undefined) return undefined;
  const parsed = parseJsonText(decoded.text);
  return 'value' in parsed ? parsed.value : undefined;
}

/** The version of `document`: a missing one is 1 (the schema's default); its text when it only reads as an integer. */
function versionOf(document: Record<string, unknown>): { value: unknown; rounded?: string } {
  const rounded = roundedIntegerLiteral(document, 'version');
  return rounded === undefined ? { value: document.version ?? 1 } : { value: document.version, rounded };
}

function isVersion(version: { value: unknown; rounded?: string }): boolean {
  const { value } = version;
  return version.rounded === undefined && typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

function describeVersion({ value, rounded }: { value: unknown; rounded?: string }): string {
  if (rounded !== undefined) return `${truncate(rounded, 80)} (a fraction that only reads as ${String(value)})`;
  return `${display(value) ?? 'missing'}${typeof value === 'number' && Number.isInteger(value) && value >= 1 ? ' (beyond 2^53 - 1, where versions stop being exact)' : ''}`;
}

/**
 * The version rule's findings for `document` against `baseline` (both parsed BOM objects): none when the rule
 * holds. A baseline that is not a JSON object (a file that was not a BOM before) has nothing to compare with.
 */
export function versionRule(document: unknown, baseline: Baseline): Diagnostic[] {
  return checkVersionRule(document, parsedBaseline(baseline.document), baseline);
}

/** The version rule's findings and, for reports, what was compared and how it came out. */
export function versionRuleWithVerdict(
  document: unknown,
  baseline: Baseline,
): { diagnostics: Diagnostic[]; verdict: VersionVerdict } {
  const previous = parsedBaseline(baseline.document);
  const diagnostics = checkVersionRule(document, previous, baseline);
  const name = baseline.name === undefined ? {} : { baseline: truncate(baseline.name, 200) };
  if (!isRecord(previous) || !isRecord(document))
    return { diagnostics, verdict: { ...name, outcome: 'not-compared', changed: false, current: identity(document) } };
  const changed = contentChanged(previous, document);
  let diff: VersionVerdict['diff'];
  if (changed) {
    try {
      diff = summarizeDiff(diffDocuments(previous, document));
    } catch {
      // Too deep to compare member by member: the verdict stands without the summary.
    }
  }
  return {
    diagnostics,
    verdict: {
      ...name,
      outcome: diagnostics.length === 0 ? 'pass' : 'fail',
      changed,
      previous: identity(previous),
      current: identity(document),
      ...(diff === undefined ? {} : { diff }),
    },
  };
}

/** What the version rule compared and concluded, as plain data (a report shows it beside the findings). */
export interface VersionVerdict {
  /** The baseline's name (a file, a git revision). */
  baseline?: string;
  /** `not-compared`: the baseline is not a BOM (a new file, or not JSON then). */
  outcome: 'pass' | 'fail' | 'not-compared';
  /** Whether the content changed (signatures and metadata.timestamp aside). */
  changed: boolean;
  previous?: DocumentIdentity;
  current: DocumentIdentity;
  /** What changed, counted, with the first few labels of each kind; absent when nothing changed. */
  diff?: DiffSummary;
}

interface DocumentIdentity {
  version?: string;
  serialNumber?: string;
}

export interface ChangeCount {
  added: number;
  removed: number;
  changed: number;
  /** The first few labels (purl, bom-ref or name@version) of each, for people. */
  examples: { added: string[]; removed: string[]; changed: string[] };
}

interface DiffSummary {
  components: ChangeCount;
  services: ChangeCount;
  dependencies: ChangeCount;
  /** Changed members of metadata (timestamp included) and other top-level members (version, serialNumber…). */
  members: string[];
}

const EXAMPLES = 10;

function identity(document: unknown): DocumentIdentity {
  if (!isRecord(document)) return {};
  const out: DocumentIdentity = {};
  const version = display(document.version, 100);
  const serial = display(document.serialNumber, 100);
  if (version !== undefined) out.version = version;
  if (serial !== undefined) out.serialNumber = serial;
  return out;
}

function summarizeDiff(diff: ReturnType<typeof diffDocuments>): DiffSummary {
  const count = <A, R, C>(
    d: { added: A[]; removed: R[]; changed: C[] },
    label: (x: A | R | C) => string,
  ): ChangeCount => ({
    added: d.added.length,
    removed: d.removed.length,
    changed: d.changed.length,
    examples: {
      added: d.added.slice(0, EXAMPLES).map((x) => truncate(label(x), 200)),
      removed: d.removed.slice(0, EXAMPLES).map((x) => truncate(label(x), 200)),
      changed: d.changed.slice(0, EXAMPLES).map((x) => truncate(label(x), 200)),
    },
  });
  const members = [...diff.metadata.members.map((m) => `metadata.${m}`), ...diff.document.map((c) => c.path)].slice(
    0,
    50,
  );
  return {
    components: count(diff.components, (e) => e.label),
    services: count(diff.services, (e) => e.label),
    dependencies: count(diff.dependencies, (e) => e.ref),
    members: members.map((m) => truncate(m, 200)),
  };
}

function checkVersionRule(document: unknown, previous: unknown, baseline: Baseline): Diagnostic[] {
  if (!isRecord(previous) || !isRecord(document)) return [];
  const against = baseline.name === undefined ? '' : ` (compared with ${baseline.name})`;
  const finding = (message: string, pointer: string): Diagnostic => ({
    ruleId: 'bom/version-rule',
    severity: 'error',
    message: `${message}${against}`,
    pointer,
  });
  const diagnostics: Diagnostic[] = [];
  const serial = previous.serialNumber;
  if (serial !== undefined && document.serialNumber !== serial) {
    // A generator writes a new serialNumber (and version 1) on every run: one command makes such a document the
    // previous one's next release, and comparing versions of two different BOMs would only add noise.
    const adopt = `; to continue the previous BOM (a regenerated one), run bomwright bump FILE ${baseline.adoptWith ?? '--baseline PREVIOUS'}, which takes over its serialNumber and version`;
    diagnostics.push(
      finding(
        document.serialNumber === undefined
          ? `serialNumber ${display(serial)} was removed; a new version of a BOM keeps it${adopt}`
          : `serialNumber changed from ${display(serial)} to ${display(document.serialNumber)}; a new version of a BOM keeps it (a new serialNumber starts a new BOM at version 1)${adopt}`,
        document.serialNumber === undefined ? '' : '/serialNumber',
      ),
    );
    return diagnostics;
  }
  const wasVersion = versionOf(previous);
  const nowVersion = versionOf(document);
  if (!isVersion(wasVersion) || !isVersion(nowVersion)) {
    const which = !isVersion(nowVersion)
      ? `version ${describeVersion(nowVersion)}`
      : `the previous version ${describeVersion(wasVersion)}`;
    diagnostics.push(finding(`${which} is not a whole number from 1 to 2^53 - 1`, '/version'));
    return diagnostics;
  }
  const was = wasVersion.value as number;
  const now = nowVersion.value as number;
  const changed = contentChanged(previous, document);
  if (changed && now !== was + 1) {
    const what = changeSummary(previous, document);
    const detail = what === '' ? '' : ` [changed: ${what}]`;
    diagnostics.push(
      finding(
        now === was
          ? `content changed but version is still ${now}; expected ${was + 1}${detail}; run bomwright bump`
          : `content changed and version is ${now}; expected ${was + 1} (previous version ${was} + 1)${detail}`,
        '/version',
      ),
    );
  } else if (!changed && now !== was) {
    diagnostics.push(
      finding(
        `content is unchanged but version changed from ${was} to ${now}; expected ${was}: restore the version, a version without changes is not a new release`,
        '/version',
      ),
    );
  }
  return diagnostics;
}

/** What changed, from the diff, in a few words: "components: 2 added, 1 changed; metadata.supplier". */
function changeSummary(baseline: Record<string, unknown>, current: Record<string, unknown>): string {
  let diff: ReturnType<typeof diffDocuments>;
  try {
    diff = diffDocuments(baseline, current);
  } catch {
    return '';
  }
  const parts: string[] = [];
  for (const kind of ['components', 'services'] as const) {
    const d = diff[kind];
    const counts = (
      [
        ['added', d.added.length],
        ['removed', d.removed.length],
        ['changed', d.changed.length],
      ] as const
    ).filter(([, n]) => n !== 0);
    if (counts.length > 0) parts.push(`${kind}: ${counts.map(([label, n]) => `${n} ${label}`).join(', ')}`);
  }
  const deps = diff.dependencies.added.length + diff.dependencies.removed.length + diff.dependencies.changed.length;
  if (deps > 0) parts.push(`${deps} dependency entr${deps === 1 ? 'y' : 'ies'}`);
  parts.push(...diff.metadata.members.filter((m) => m !== 'timestamp').map((m) => `metadata.${m}`));
  parts.push(...diff.document.map((c) => c.path).filter((p) => p !== 'version' && p !== 'serialNumber'));
  return parts.join('; ');
}
