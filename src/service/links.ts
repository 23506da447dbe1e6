/**
 * A walk across links the service hands back (nextLinks of a collection, the pages of a delta round): bounded in
 * pages, and a link seen before in the same walk is a loop (the service would answer the same page again), so the
 * walk ends with E_LINK_LOOP instead of running forever. Links are remembered by digest, so memory stays small.
 */
import { createHash } from 'node:crypto';
import { ServiceError } from './errors.js';

/** Pages one walk follows at most, unless the caller says otherwise. */
export const DEFAULT_MAX_PAGES = 100_000;

export class LinkTrail {
  private readonly seen = new Set<string>();
  private pages = 1;
  /** The first page's URL, digested only once a link is followed (most collections fit in one page). */
  private first: string | undefined;

  /**
   * @param what names the walk in messages (`listPhoneMethods`, `the delta round`...).
   * @param first the URL of the first page, when known: a link back to it is a loop too.
   */
  constructor(
    private readonly what: string,
    private readonly maxPages = DEFAULT_MAX_PAGES,
    first?: string,
  ) {
    if (!Number.isInteger(maxPages) || maxPages < 1)
      throw new ServiceError('E_REQUEST_SHAPE', `maxPages must be a whole number of at least 1, not ${maxPages}`);
    this.first = first;
  }

  /** Called before following `link` to one more page; throws E_LINK_LOOP past the bound or on a repeated link. */
  follow(link: string): void {
    if (this.pages >= this.maxPages)
      throw new ServiceError(
        'E_LINK_LOOP',
        `${this.what}: stopped after ${this.maxPages} pages of @odata.nextLink (raise maxPages if the collection is really that long)`,
      );
    if (this.first !== undefined) {
      this.seen.add(digest(this.first));
      this.first = undefined;
    }
    const key = digest(link);
    if (this.seen.has(key))
      throw new ServiceError(
        'E_LINK_LOOP',
        `${this.what}: the service sent a link to a page already read (page ${this.pages + 1} would repeat one): a loop, stopped`,
      );
    this.seen.add(key);
    this.pages++;
  }
}

function digest(link: string): string {
  let normal = link;
  try {
    normal = new URL(link).href;
  } catch {
    // Not a URL: the origin check refuses it before it is followed; the text itself is the key.
  }
  return createHash('sha256').update(normal).digest('base64');
}
