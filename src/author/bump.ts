/**
 * The version rule: a document whose content changes gets the same serialNumber and the next version; one
 * whose content does not change keeps its version. Bumping produces the next version; contentChanged and
 * bumpDue check a document against its previous release.
 */
import { BomwrightError } from '../errors.js';
import { canonicalize } from '../jsf/jcs.js';
import { isoSeconds } from './document.js';
import { newSerialNumber, type RandomBytes } from './serial-number.js';
import { withoutSignatures } from './signatures.js';
import { checkDepth } from '../json/walk.js';
import { display, isRecord, setMember } from '../values.js';

export interface BumpOptions {
  /** The new metadata.timestamp (default: now). */
  now?: Date;
  /** Random bytes for a serial number, when the document has none (default: crypto.randomUUID). */
  random?: RandomBytes;
}

export interface BumpResult {
  document: Record<string, unknown>;
  /** The new version. */
  version: number;
  /** Pointers of every signature removed: none of them would verify after the bump. */
  removedSignatures: string[];
  /** The serial number added because the document had none (a bump continues one BOM, which needs an identity). */
  addedSerialNumber?: string;
}

/** The members before `version` and `metadata`, in schema order, for placing new members where readers expect them. */
const IDENTITY_ORDER = ['$schema', 'bomFormat', 'specVersion', 'serialNumber', 'version', 'metadata'];

/** A copy of `record` with `name` set; a new member goes right after the identity members that precede it. */
function withMember(record: Record<string, unknown>, name: string, value: unknown): Record<string, unknown> {
  if (Object.hasOwn(record, name)) return { ...record, [name]: value };
  const before = new Set(IDENTITY_ORDER.slice(0, IDENTITY_ORDER.indexOf(name)));
  const out: Record<string, unknown> = {};
  let placed = false;
  for (const key of Object.keys(record)) {
    if (!placed && !before.has(key)) {
      out[name] = value;
      placed = true;
    }
    Object.defineProperty(out, key, { value: record[key], enumerable: true, writable: true, configurable: true });
  }
  if (!placed) out[name] = value;
  return out;
}

function versionOf(document: Record<string, unknown>, what: string): number {
  const version = document.version ?? 1;
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1)
    throw new BomwrightError('E_INPUT', `The ${what} version ${display(version)} is not a positive integer`);
  return version;
}

/**
 * The next version of a document: version + 1 (a missing version counts as 1), a fresh metadata.timestamp, the
 * serialNumber kept (one is added when missing), and every signature removed, since none would verify.
 */
export function bumpDocument(document: unknown, options: BumpOptions = {}): BumpResult {
  if (!isRecord(document)) throw new BomwrightError('E_INPUT', 'Only a BOM object can be bumped');
  if (document.metadata !== undefined && !isRecord(document.metadata))
    throw new BomwrightError('E_INPUT', 'metadata is not an object');
  const version = versionOf(document, "document's") + 1;
  const { document: unsigned, removed } = withoutSignatures(document);
  let bumped = unsigned;
  let addedSerialNumber: string | undefined;
  if (bumped.serialNumber === undefined) {
    addedSerialNumber = newSerialNumber(options.random);
    bumped = withMember(bumped, 'serialNumber', addedSerialNumber);
  }
  bumped = withMember(bumped, 'version', version);
  const metadata = (bumped.metadata ?? {}) as Record<string, unknown>;
  const timestamp = isoSeconds(options.now ?? new Date());
  // The timestamp leads metadata in every schema version.
  const refreshed: Record<string, unknown> = { timestamp, ...metadata };
  refreshed.timestamp = timestamp;
  bumped = withMember(bumped, 'metadata', refreshed);
  return {
    document: bumped,
    version,
    removedSignatures: removed,
    ...(addedSerialNumber === undefined ? {} : { addedSerialNumber }),
  };
}

/** A copy-on-write view without `signature` members at any depth: unsigned subtrees are shared, not copied. */
function unsignedView(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  checkDepth(depth);
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const view = unsignedView(item, depth + 1);
      if (view !== item) (out ??= value.slice())[i] = view;
    }
    return out ?? value;
  }
  const record = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    const member = record[key];
    // canonicalize leaves out undefined members, so undefined is as good as deleting.
    const view = key === 'signature' ? undefined : unsignedView(member, depth + 1);
    if (view !== member) setMember((out ??= { ...record }), key, view);
  }
  return out ?? record;
}

/** The canonical content: no signatures, no metadata.timestamp, no version (the counter the rule is about). */
function contentKey(document: unknown): string {
  const view = unsignedView(document, 0);
  if (!isRecord(view)) return canonicalize(view);
  const metadata = isRecord(view.metadata) ? { ...view.metadata, timestamp: undefined } : view.metadata;
  return canonicalize({ ...view, version: undefined, metadata });
}

/**
 * Whether the content differs: signatures (at any depth), metadata.timestamp and the top-level version are
 * ignored, and so is member order (the comparison is on the JCS canonical form). Linear in the document size.
 */
export function contentChanged(baseline: unknown, current: unknown): boolean {
  return contentKey(baseline) !== contentKey(current);
}

export interface BumpVerdict {
  /** True when `current` breaks the version rule against `baseline`. */
  due: boolean;
  /** Why, in one line (several violations are joined with "; "). */
  reason: string;
}

/**
 * Checks the version rule of `current` against `baseline` (its previous release): changed content keeps the
 * serialNumber and has version baseline + 1; unchanged content keeps the version.
 */
export function bumpDue(baseline: unknown, current: unknown): BumpVerdict {
  if (!isRecord(baseline) || !isRecord(current))
    throw new BomwrightError('E_INPUT', 'The version rule compares two BOM objects');
  const problems: string[] = [];
  const baseSerial = baseline.serialNumber;
  if (baseSerial !== undefined && current.serialNumber !== baseSerial) {
    problems.push(
      current.serialNumber === undefined
        ? `serialNumber ${display(baseSerial)} was removed; a new version keeps it`
        : `serialNumber changed from ${display(baseSerial)} to ${display(current.serialNumber)}; a new version keeps it`,
    );
  }
  const was = baseline.version ?? 1;
  const now = current.version ?? 1;
  const valid = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;
  if (!valid(was) || !valid(now)) {
    problems.push(`version must be a positive integer (baseline ${display(was)}, current ${display(now)})`);
    return { due: true, reason: problems.join('; ') };
  }
  const changed = contentChanged(baseline, current);
  if (changed && now !== was + 1) {
    problems.push(
      now === was
        ? `content changed but version is still ${now}; expected ${was + 1} (run: bomwright bump FILE)`
        : `content changed and version is ${now}; expected ${was + 1} (baseline version ${was} + 1)`,
    );
  } else if (!changed && now !== was) {
    problems.push(`content is unchanged but version changed from ${was} to ${now}; expected ${was}`);
  }
  if (problems.length > 0) return { due: true, reason: problems.join('; ') };
  return {
    due: false,
    reason: changed
      ? `content changed and version went from ${was} to ${now}`
      : `content unchanged and version ${now} kept`,
  };
}
