/**
 * Bumping: the next version of a document (the version rule itself is validate/version-rule.ts).
 */
import { contentChanged } from '../compare/content.js';
import { BomwrightError } from '../errors.js';
import { isoSeconds } from './document.js';
import { newSerialNumber, type RandomBytes } from './serial-number.js';
import { withoutSignatures } from './signatures.js';
import { display, isRecord } from '../values.js';

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
  if (typeof version !== 'number' || !Number.isSafeInteger(version + 1) || version < 1)
    throw new BomwrightError(
      'E_INPUT',
      `The ${what} version ${display(version)} is not a whole number from 1 to 2^53 - 2 (the largest that can still be bumped exactly)`,
    );
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

export interface AdoptResult extends BumpResult {
  /** Whether the content differs from the baseline's (signatures, metadata.timestamp and version aside). */
  changed: boolean;
  /** The document already was the baseline's next version (or the same one): it is returned as it was. */
  unchanged: boolean;
}

/**
 * Makes `document` the next release of `baseline`: a regenerated BOM (a generator writes a new serialNumber and
 * version 1 on every run) takes over the baseline's serialNumber, and its version becomes the baseline's + 1 when
 * the content changed, or the baseline's own version and timestamp when it did not. A document that already
 * follows the baseline is left as it is, so adopting twice changes nothing. Signatures are removed as by a bump.
 */
export function adoptBaseline(document: unknown, baseline: unknown, options: BumpOptions = {}): AdoptResult {
  if (!isRecord(document)) throw new BomwrightError('E_INPUT', 'Only a BOM object can be bumped');
  if (document.metadata !== undefined && !isRecord(document.metadata))
    throw new BomwrightError('E_INPUT', 'metadata is not an object');
  if (!isRecord(baseline)) throw new BomwrightError('E_INPUT', 'The baseline is not a CycloneDX JSON object');
  const serialNumber = baseline.serialNumber;
  if (typeof serialNumber !== 'string')
    throw new BomwrightError('E_INPUT', 'The baseline has no serialNumber to continue');
  const previous = versionOf(baseline, "baseline's");
  const withSerial = withMember(document, 'serialNumber', serialNumber);
  const changed = contentChanged(baseline, withSerial);
  const version = changed ? previous + 1 : previous;
  const previousTimestamp = isRecord(baseline.metadata) ? baseline.metadata.timestamp : undefined;
  if (
    document.serialNumber === serialNumber &&
    document.version === version &&
    (changed ||
      previousTimestamp === undefined ||
      (isRecord(document.metadata) && document.metadata.timestamp === previousTimestamp))
  )
    return { document, version, removedSignatures: [], changed, unchanged: true };
  const { document: unsigned, removed } = withoutSignatures(withSerial);
  let adopted = withMember(unsigned, 'version', version);
  // Unchanged content is the baseline's release itself, timestamp included; changed content is a new release now.
  const timestamp = changed ? isoSeconds(options.now ?? new Date()) : previousTimestamp;
  if (timestamp !== undefined) {
    const metadata = (adopted.metadata ?? {}) as Record<string, unknown>;
    const refreshed: Record<string, unknown> = { timestamp, ...metadata };
    refreshed.timestamp = timestamp;
    adopted = withMember(adopted, 'metadata', refreshed);
  }
  return { document: adopted, version, removedSignatures: removed, changed, unchanged: false };
}
