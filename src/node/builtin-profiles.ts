/**
 * The built-in profiles, read from the package's profiles/ folder (data files, shipped with it). The Action's
 * bundle replaces this module with one that carries them inside (src/build/action.ts).
 */
import { readFileSync } from 'node:fs';

export const BUILTIN_PROFILE_NAMES = ['ntia-2021', 'cisa-2025', 'cisa-2026', 'bsi-2.0', 'bsi-2.1', 'cra'] as const;

/** The profile's JSON text, or undefined when there is no built-in profile of that name. */
export function readBuiltinProfile(name: string): string | undefined {
  if (!(BUILTIN_PROFILE_NAMES as readonly string[]).includes(name)) return undefined;
  return readFileSync(new URL(`../../profiles/${name}.json`, import.meta.url), 'utf8');
}
