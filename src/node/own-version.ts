/** bomwright's own version, for the library's calls that name bomwright in a document (metadata.tools). */
import { readFileSync } from 'node:fs';

let version: string | undefined;

/** The version in bomwright's package.json (beside src/ and dist/ alike), read once. */
export function ownVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;
  return version;
}
