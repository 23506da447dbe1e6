/**
 * Signing a whole document: the root and/or inner objects (components, services, a bom-ref, every signable
 * place of the spec version). Inner objects are signed first and the root last, so every signature verifies:
 * an outer signature covers the inner ones, values included.
 */
import { BomwrightError } from '../errors.js';
import { parsePointer, resolvePointer } from '../json/pointer.js';
import { findFormatBySpecVersion } from '../formats/formats.js';
import { findPlaces } from '../formats/signable.js';
import { unsafeSignedNumbers } from './judge.js';
import { applySignature, type SignOptions } from './sign.js';
import { isRecord } from '../values.js';

export interface DocumentSignOptions extends SignOptions {
  /** `root` (default), `components`, `services`, `all`, JSON pointers (`/components/0`), or bom-ref values. */
  targets?: readonly string[];
}

function depth(pointer: string): number {
  return pointer === '' ? 0 : pointer.split('/').length - 1;
}

/** Pointers of the objects to sign, innermost first, the root last. */
export function resolveTargets(document: Record<string, unknown>, targets: readonly string[]): string[] {
  const specVersion =
    typeof document.specVersion === 'string' && typeof document.bomFormat === 'string'
      ? document.specVersion
      : undefined;
  const patterns = specVersion === undefined ? [''] : (findFormatBySpecVersion(specVersion)?.signable ?? []);
  if (patterns.length === 0)
    throw new BomwrightError('E_USAGE', `CycloneDX ${specVersion} has no signatures; JSF signatures start with 1.4`);
  const chosen = new Set<string>();
  for (const target of targets) {
    if (target === 'root') chosen.add('');
    else if (target.startsWith('/')) {
      // A JSON pointer (used by bump to re-sign exactly what was signed before).
      if (!isRecord(resolvePointer(document, target)))
        throw new BomwrightError('E_USAGE', `${target} does not point to an object`);
      // In a BOM, only where the spec version allows a signature.
      if (specVersion !== undefined && !findPlaces(document, patterns).includes(target))
        throw new BomwrightError('E_USAGE', `CycloneDX ${specVersion} allows no signature at ${target}`);
      chosen.add(target);
    } else if (target === 'all') for (const p of findPlaces(document, patterns)) chosen.add(p);
    else if (target === 'components' || target === 'services') {
      const wanted = patterns.filter(
        (p) => p.startsWith(target) || (target === 'components' && p.startsWith('metadata/component')),
      );
      if (specVersion === undefined)
        throw new BomwrightError('E_USAGE', `--target ${target} needs a CycloneDX document`);
      for (const p of findPlaces(document, wanted)) chosen.add(p);
    } else {
      const matches = findPlaces(document, patterns).filter(
        (p) => (resolvePointer(document, p) as Record<string, unknown>)['bom-ref'] === target,
      );
      if (matches.length === 0)
        throw new BomwrightError('E_USAGE', `No signable element has bom-ref ${JSON.stringify(target)}`);
      for (const p of matches) chosen.add(p);
    }
  }
  return [...chosen].sort((a, b) => depth(b) - depth(a));
}

/** A signed copy of `document`; the input is never modified. */
export function signDocument(document: unknown, options: DocumentSignOptions): unknown {
  return signDocumentCounted(document, options).document;
}

/**
 * {@link signDocument}, also saying how many objects were signed. `perTarget` overrides the options for some
 * targets (by pointer), so re-signing keeps each signature's own shape and key information.
 */
export function signDocumentCounted(
  document: unknown,
  options: DocumentSignOptions,
  perTarget?: ReadonlyMap<string, Partial<SignOptions>>,
): { document: unknown; signed: number } {
  if (!isRecord(document)) throw new BomwrightError('E_USAGE', 'Only a JSON object can hold an enveloped signature');
  const property = options.property ?? 'signature';
  const copy = structuredClone(document);
  const targets = resolveTargets(copy, options.targets ?? ['root']);
  if (targets.length === 0)
    throw new BomwrightError('E_USAGE', `Nothing to sign: the document has no ${(options.targets ?? []).join(', ')}`);
  const chosen = new Set(targets);
  // A new inner signature changes what an outer signature covers: refuse rather than leave it broken.
  for (const target of targets) {
    const segments = parsePointer(target);
    for (let n = 0; n < segments.length; n++) {
      const ancestor = segments
        .slice(0, n)
        .reduce((p, s) => `${p}/${s.replaceAll('~', '~0').replaceAll('/', '~1')}`, '');
      const holder = resolvePointer(copy, ancestor);
      if (isRecord(holder) && holder[property] !== undefined && !chosen.has(ancestor)) {
        throw new BomwrightError(
          'E_USAGE',
          `Signing ${target} would invalidate the existing signature of ${ancestor === '' ? 'the document root' : ancestor}; sign it too (--target ${ancestor === '' ? 'root' : 'all'})`,
        );
      }
    }
  }
  // Adding a signer keeps the earlier ones, which cover the objects inside: those must not change. Sorted
  // pointers put an object's descendants right after it ('/' sorts before every other pointer character).
  if (options.mode === 'add' || options.mode === 'chain') {
    const sorted = [...targets].sort();
    for (let i = 0; i + 1 < sorted.length; i++) {
      const outer = sorted[i]!;
      const inside = sorted[i + 1]!;
      if (outer !== '' && !inside.startsWith(`${outer}/`)) continue;
      const holder = resolvePointer(copy, outer);
      if (isRecord(holder) && holder[property] !== undefined) {
        throw new BomwrightError(
          'E_USAGE',
          `Adding signers to ${outer === '' ? 'the document root' : outer} and to ${inside} inside it would invalidate its existing signers; add to the outer object alone`,
        );
      }
    }
  }
  const holders = targets.map((pointer) => {
    const record = resolvePointer(copy, pointer);
    if (!isRecord(record)) throw new BomwrightError('E_INTERNAL', `Target ${pointer} is not an object`);
    return { record, pointer };
  });
  // A signature cannot pin a number beyond 2^53 (validate reports signature/unsafe-number): refuse to make one.
  const unsafe = unsafeSignedNumbers(holders, property);
  if (unsafe.length > 0) {
    const more = unsafe.length > 1 ? ` (and ${unsafe.length - 1} more)` : '';
    throw new BomwrightError(
      'E_INPUT',
      `Cannot sign: the number at ${unsafe[0]!.pointer} is 2^53 or more${more}, and a signature cannot pin it (write it as a string, or correct it)`,
    );
  }
  for (const { record, pointer } of holders) applySignature(record, { ...options, ...perTarget?.get(pointer) });
  return { document: copy, signed: targets.length };
}
