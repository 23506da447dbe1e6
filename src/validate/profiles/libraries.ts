/**
 * The libraries profiles use (a real SPDX expression parser, packageurl-js, semver), loaded on first use: a run
 * without profiles pays nothing for them. The Action's bundle replaces this module with one that carries them
 * inside (src/build/action.ts).
 */
import { createRequire } from 'node:module';

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

export interface ProfileLibraries {
  parseSpdx: (expression: string) => SpdxNode;
  parsePurl: (purl: string) => { type: string; namespace?: string | null; name: string; version?: string | null };
  satisfies: (version: string, range: string) => boolean;
  validRange: (range: string) => string | null;
  validVersion: (version: string) => string | null;
}

let loaded: ProfileLibraries | undefined;

export function profileLibraries(): ProfileLibraries {
  if (loaded !== undefined) return loaded;
  const require = createRequire(import.meta.url);
  const { PackageURL } = require('packageurl-js') as typeof import('packageurl-js');
  const semver = require('semver') as typeof import('semver');
  loaded = {
    parseSpdx: require('spdx-expression-parse') as (expression: string) => SpdxNode,
    parsePurl: (purl) => PackageURL.fromString(purl),
    satisfies: (version, range) => semver.satisfies(version, range),
    validRange: (range) => semver.validRange(range),
    validVersion: (version) => semver.valid(version),
  };
  return loaded;
}
