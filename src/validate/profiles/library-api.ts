/**
 * What profiles ask of their libraries (a real SPDX expression parser, packageurl-js, semver, PEP 440, RE2), made from the
 * loaded modules. One place for both ways of loading them: on first use from node_modules (libraries.ts), and
 * bundled into the Action (src/build/action.ts).
 */
export interface SpdxLeaf {
  license: string;
  plus?: true;
  exception?: string;
}
export interface SpdxPair {
  left: SpdxNode;
  conjunction: 'and' | 'or';
  right: SpdxNode;
}
export type SpdxNode = SpdxLeaf | SpdxPair;

/** SPDX's own lists: current licence ids, deprecated ones (still valid in expressions) and exception ids. */
interface SpdxLists {
  licences: readonly string[];
  deprecated: readonly string[];
  exceptions: readonly string[];
}

/** A compiled pattern that matches in time linear in the text. */
export interface LinearRegex {
  test(text: string): boolean;
}

export interface ProfileLibraries {
  parseSpdx: (expression: string) => SpdxNode;
  spdxLists: () => SpdxLists;
  parsePurl: (purl: string) => { type: string; namespace?: string | null; name: string; version?: string | null };
  semver: () => typeof import('semver');
  pep440: () => typeof import('@renovatebot/pep440');
  /** Compiles RE2 syntax; throws (with the engine's reason) on what RE2 cannot run in linear time. */
  linearRegex: (pattern: string) => LinearRegex;
}

/** The modules, each loaded on its first use (semver and packageurl-js cost tens of milliseconds to load). */
interface ProfileModules {
  spdx: () => (expression: string) => SpdxNode;
  spdxLists: () => SpdxLists;
  PackageURL: () => typeof import('packageurl-js').PackageURL;
  semver: () => typeof import('semver');
  pep440: () => typeof import('@renovatebot/pep440');
  RE2JS: () => typeof import('re2js').RE2JS;
}

function once<T>(load: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= load());
}

export function makeProfileLibraries(loaders: ProfileModules): ProfileLibraries {
  const modules: ProfileModules = {
    spdx: once(loaders.spdx),
    spdxLists: once(loaders.spdxLists),
    PackageURL: once(loaders.PackageURL),
    semver: once(loaders.semver),
    pep440: once(loaders.pep440),
    RE2JS: once(loaders.RE2JS),
  };
  const compiled = new Map<string, LinearRegex>();
  return {
    parseSpdx: (expression) => modules.spdx()(expression),
    spdxLists: modules.spdxLists,
    parsePurl: (purl) => modules.PackageURL().fromString(purl),
    semver: modules.semver,
    pep440: modules.pep440,
    linearRegex: (pattern) => {
      let regex = compiled.get(pattern);
      if (regex === undefined) {
        regex = literalPattern(pattern);
        if (regex === undefined) {
          const re2 = modules.RE2JS().compile(pattern);
          regex = { test: (text) => re2.test(text) };
        }
        if (compiled.size > 1000) compiled.clear();
        compiled.set(pattern, regex);
      }
      return regex;
    },
  };
}

/** Characters that mean more than themselves in a pattern. */
const META = /[\\^$.|?*+()[\]{}]/;

/**
 * A pattern that is plain text, optionally anchored (`^urn:`, `-SNAPSHOT$`), as the string test it stands for:
 * the same answer as RE2's (without the multi-line flag `$` is the end of the text), without loading RE2.
 */
function literalPattern(pattern: string): LinearRegex | undefined {
  const start = pattern.startsWith('^');
  const end = pattern.endsWith('$') && pattern.length > (start ? 1 : 0);
  const text = pattern.slice(start ? 1 : 0, end ? -1 : undefined);
  if (META.test(text)) return undefined;
  if (start && end) return { test: (value) => value === text };
  if (start) return { test: (value) => value.startsWith(text) };
  if (end) return { test: (value) => value.endsWith(text) };
  return { test: (value) => value.includes(text) };
}
