/**
 * Hashes of a component's artefact written where compliance readers look for them: the component's own `hashes`
 * (CISA, NTIA's recommendation) and the `hashes` of its `distribution` external reference, the deployable file BSI
 * TR-03183-2 asks the SHA-512 of (component-level hashes do not count there). The hashing itself streams the file
 * (node/hash-files.ts); this edit takes its results.
 */
import { BomwrightError } from '../errors.js';
import { isRecord } from '../values.js';
import { arrayMember, runEdit, type EditOptions, type EditResult } from './edit.js';
import { parseSelector, selectComponents, allComponents, type SelectedComponent } from './select.js';
import { schemaPlace } from './schema-place.js';

/** CycloneDX hash algorithms that Node's crypto computes, and its name for each. */
export const HASH_ALGORITHMS: Readonly<Record<string, string>> = {
  MD5: 'md5',
  'SHA-1': 'sha1',
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
  'SHA3-256': 'sha3-256',
  'SHA3-384': 'sha3-384',
  'SHA3-512': 'sha3-512',
  'BLAKE2b-512': 'blake2b512',
};

/** SHA-256 for general use, SHA-512 for BSI TR-03183-2. */
export const DEFAULT_HASH_ALGORITHMS = ['SHA-256', 'SHA-512'] as const;

export const HASH_PLACES = ['component', 'distribution'] as const;
type HashPlace = (typeof HASH_PLACES)[number];

/** The property BSI TR-03183-2 names the component's file in. */
const FILENAME_PROPERTY = 'bsi:component:filename';

export interface Artefact {
  /** The file's name, without folders (what `bsi:component:filename` holds and distribution URLs end with). */
  fileName: string;
  hashes: readonly { alg: string; content: string }[];
}

export interface HashRequest {
  artefacts: readonly Artefact[];
  /**
   * Selectors for the components of one artefact. Without them each artefact goes to the components whose
   * `bsi:component:filename` property is its file name, or whose distribution URL ends with it.
   */
  components?: readonly string[];
  /** Where to write them (default both). */
  places?: readonly HashPlace[];
  /** The distribution URL for a component that has no distribution reference yet. */
  url?: string;
}

/** A distribution reference: where the deployable file comes from. */
const isDistribution = (reference: unknown): reference is Record<string, unknown> =>
  isRecord(reference) && (reference.type === 'distribution' || reference.type === 'distribution-intake');

/** The last path segment of a URL, decoded ('' when there is none). */
function lastSegment(url: string): string {
  const path = url.replace(/[?#].*$/s, '');
  const segment = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function fileNameOf(record: Record<string, unknown>): string | undefined {
  if (!Array.isArray(record.properties)) return undefined;
  const found = record.properties.find(
    (p) => isRecord(p) && p.name === FILENAME_PROPERTY && typeof p.value === 'string',
  );
  return isRecord(found) ? (found.value as string) : undefined;
}

function matchesFile(record: Record<string, unknown>, fileName: string): boolean {
  if (fileNameOf(record) === fileName) return true;
  return (
    Array.isArray(record.externalReferences) &&
    record.externalReferences.some(
      (r) => isDistribution(r) && typeof r.url === 'string' && lastSegment(r.url) === fileName,
    )
  );
}

/** Adds or replaces (same algorithm) each hash in `list`. */
function upsert(list: unknown[], hashes: readonly { alg: string; content: string }[]): void {
  for (const hash of hashes) {
    const at = list.findIndex((h) => isRecord(h) && h.alg === hash.alg);
    if (at === -1) list.push({ ...hash });
    else list[at] = { ...hash };
  }
}

/**
 * Writes each artefact's hashes into its components: `hashes`, and every distribution reference's `hashes` (one
 * is added with `url` where there is none; without a URL that is refused). A component without a
 * `bsi:component:filename` property gets the artefact's file name there (CycloneDX 1.3+, which has properties).
 */
export function addArtefactHashes(
  document: unknown,
  request: HashRequest,
  options: EditOptions = {},
): Promise<EditResult> {
  return runEdit(document, options, (original, format) => {
    const places = new Set(request.places ?? HASH_PLACES);
    for (const place of places)
      if (!(HASH_PLACES as readonly string[]).includes(place))
        throw new BomwrightError('E_USAGE', `Hashes go to ${HASH_PLACES.join(' or ')}, not ${JSON.stringify(place)}`);
    if (request.artefacts.length === 0) throw new BomwrightError('E_USAGE', 'Name the artefact files to hash');
    const plan: { target: SelectedComponent; artefact: Artefact }[] = [];
    if (request.components !== undefined && request.components.length > 0) {
      if (request.artefacts.length > 1)
        throw new BomwrightError(
          'E_USAGE',
          'With --component, give one file (its hashes go to every component selected); without, each file finds its component by name',
        );
      const selectors = request.components.map((text) => parseSelector(text, format));
      for (const target of selectComponents(original, selectors))
        plan.push({ target, artefact: request.artefacts[0]! });
    } else {
      const components = allComponents(original);
      const taken = new Map<string, string>();
      for (const artefact of request.artefacts) {
        const found = components.filter(({ record }) => matchesFile(record, artefact.fileName));
        if (found.length === 0)
          throw new BomwrightError(
            'E_USAGE',
            `${artefact.fileName} matches no component (by its ${FILENAME_PROPERTY} property or the end of its distribution URL); name the component with --component`,
          );
        for (const target of found) {
          const before = taken.get(target.pointer);
          if (before !== undefined)
            throw new BomwrightError('E_USAGE', `${before} and ${artefact.fileName} both match ${target.pointer}`);
          taken.set(target.pointer, artefact.fileName);
          plan.push({ target, artefact });
        }
      }
    }
    const properties = schemaPlace(format, ['components', '0', 'properties']) !== undefined;
    for (const { target } of plan) {
      const references = target.record.externalReferences;
      const hasDistribution = Array.isArray(references) && references.some(isDistribution);
      if (places.has('distribution') && !hasDistribution && request.url === undefined)
        throw new BomwrightError(
          'E_USAGE',
          `${target.pointer} has no distribution reference for the hashes: give --url (where the file is distributed from), or --in component`,
        );
    }
    return {
      pointer: plan.map((p) => p.target.pointer),
      components: plan.length,
      apply: (copy) => {
        for (const { target, artefact } of plan) {
          const record = resolve(copy, target.pointer);
          if (places.has('component')) upsert(arrayMember(record, 'hashes', `${target.pointer}/`), artefact.hashes);
          if (places.has('distribution')) {
            const references = arrayMember(record, 'externalReferences', `${target.pointer}/`);
            const distributions = references.filter(isDistribution);
            if (distributions.length === 0)
              references.push({
                type: 'distribution',
                url: request.url,
                hashes: artefact.hashes.map((h) => ({ ...h })),
              });
            for (const reference of distributions) upsert(arrayMember(reference, 'hashes', ''), artefact.hashes);
          }
          if (properties && fileNameOf(record) === undefined)
            arrayMember(record, 'properties', `${target.pointer}/`).push({
              name: FILENAME_PROPERTY,
              value: artefact.fileName,
            });
        }
      },
    };
  });
}

function resolve(copy: Record<string, unknown>, pointer: string): Record<string, unknown> {
  let node: unknown = copy;
  for (const segment of pointer.slice(1).split('/'))
    node = Array.isArray(node) ? node[Number(segment)] : isRecord(node) ? node[segment] : undefined;
  if (!isRecord(node)) throw new BomwrightError('E_INTERNAL', `${pointer} is not a component`);
  return node;
}
