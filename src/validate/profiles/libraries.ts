/**
 * The libraries profiles use, loaded on first use: a run without profiles pays nothing for them. The Action's
 * bundle replaces this module with one that carries them inside (src/build/action.ts).
 */
import { createRequire } from 'node:module';
import { makeProfileLibraries, type ProfileLibraries, type SpdxNode } from './library-api.js';

export type { ProfileLibraries, SpdxLeaf, SpdxNode, SpdxPair, LinearRegex } from './library-api.js';

let loaded: ProfileLibraries | undefined;

export function profileLibraries(): ProfileLibraries {
  if (loaded !== undefined) return loaded;
  const require = createRequire(import.meta.url);
  return (loaded = makeProfileLibraries({
    spdx: () => require('spdx-expression-parse') as (expression: string) => SpdxNode,
    // The lists spdx-expression-parse reads: an id it parses is an id these know.
    spdxLists: () => ({
      licences: require('spdx-license-ids') as string[],
      deprecated: require('spdx-license-ids/deprecated.json') as string[],
      exceptions: require('spdx-exceptions') as string[],
    }),
    PackageURL: () => (require('packageurl-js') as typeof import('packageurl-js')).PackageURL,
    semver: () => require('semver') as typeof import('semver'),
    pep440: () => require('@renovatebot/pep440') as typeof import('@renovatebot/pep440'),
    RE2JS: () => (require('re2js') as typeof import('re2js')).RE2JS,
  }));
}
