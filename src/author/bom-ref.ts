/** Generated bom-refs: readable (the purl, or name@version) and unique across the whole document. */
import { forEachObject } from '../json/walk.js';

/** Every string bom-ref in the document, signatures excluded (they hold none). */
export function collectBomRefs(document: unknown): Set<string> {
  const refs = new Set<string>();
  forEachObject(
    document,
    (record) => {
      const ref = record['bom-ref'];
      if (typeof ref === 'string') refs.add(ref);
    },
    (key) => key === 'signature',
  );
  return refs;
}

/** The readable base of a bom-ref: the purl when there is one, else `name@version` (or the name alone). */
export function baseBomRef(fields: { purl?: string; name: string; version?: string }): string {
  if (fields.purl !== undefined && fields.purl !== '') return fields.purl;
  return fields.version === undefined || fields.version === '' ? fields.name : `${fields.name}@${fields.version}`;
}

/** `base`, or `base-2`, `base-3`… whichever is free first; the result is added to `taken`. */
export function uniqueBomRef(base: string, taken: Set<string>): string {
  let ref = base;
  for (let n = 2; taken.has(ref); n++) ref = `${base}-${n}`;
  taken.add(ref);
  return ref;
}
