/**
 * `--profile NAME|FILE`: built-in profiles by name, a user's own profile or policy from a JSON file; `extends`
 * names a built-in profile or a file relative to the extending one. The I/O edge of src/validate/profiles.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { BomwrightError, describeError } from '../errors.js';
import { nearestNames } from '../nearest.js';
import { locatePointers, offsetsToPositions } from '../json/locate.js';
import { parseJsonText } from '../json/parse.js';
import { parseProfile, resolveProfile, type Profile, type ProfileSpec } from '../validate/profiles/model.js';
import { BUILTIN_PROFILE_NAMES, readBuiltinProfile } from './builtin-profiles.js';

export { BUILTIN_PROFILE_NAMES };

const MAX_PROFILE_SIZE = 1024 * 1024;

/** A reference is a file when it looks like one (a path separator or a .json ending); otherwise a built-in name. */
function isFileReference(reference: string): boolean {
  return /[\\/]/.test(reference) || reference.toLowerCase().endsWith('.json');
}

/** The profile's JSON value; a file that is not JSON is refused with the place where it stops being JSON. */
function parseText(text: string, origin: string): unknown {
  const parsed = parseJsonText(text);
  if ('value' in parsed) return parsed.value;
  const problem = parsed.diagnostics[0];
  const where = problem?.line === undefined ? '' : `:${problem.line}:${problem.column ?? 1}`;
  throw new BomwrightError(
    'E_USAGE',
    `Profile ${origin}${where} is not valid JSON: ${problem?.message ?? 'it does not parse'}`,
  );
}

/** `line:column` of a member of the profile's text, or of the nearest enclosing member it has (an absent one). */
function locator(text: string): (pointer: string) => string | undefined {
  return (pointer) => {
    const segments = pointer.split('/').slice(1);
    const candidates = segments.map((_, i) => `/${segments.slice(0, segments.length - i).join('/')}`);
    const offsets = locatePointers(text, candidates);
    for (const candidate of candidates) {
      const offset = offsets.get(candidate);
      if (offset === undefined) continue;
      const position = offsetsToPositions(text, [offset]).get(offset)!;
      return `${position.line}:${position.column}`;
    }
    return undefined;
  };
}

function parseSpec(text: string, origin: string): ProfileSpec {
  return parseProfile(parseText(text, origin), origin, locator(text));
}

interface Loaded {
  spec: ProfileSpec;
  /** The folder `extends` paths are relative to (none for built-in profiles). */
  dir?: string;
}

function loadReference(reference: string, cwd: string): Loaded {
  if (!isFileReference(reference)) {
    const text = readBuiltinProfile(reference);
    if (text === undefined) {
      const near = nearestNames(reference, BUILTIN_PROFILE_NAMES);
      const shown = JSON.stringify(reference.length > 80 ? `${reference.slice(0, 80)}…` : reference);
      throw new BomwrightError(
        'E_USAGE',
        `Unknown profile ${shown}; ${near.length > 0 ? `did you mean ${near.join(' or ')}? ` : ''}built-in profiles: ${BUILTIN_PROFILE_NAMES.join(', ')} (or give a file: ./policy.json)`,
      );
    }
    return { spec: parseSpec(text, reference) };
  }
  const file = path.resolve(cwd, reference);
  let text: string;
  try {
    const size = statSync(file).size;
    if (size > MAX_PROFILE_SIZE)
      throw new BomwrightError(
        'E_USAGE',
        `Profile ${reference} is ${size} bytes, over the limit of ${MAX_PROFILE_SIZE}`,
      );
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof BomwrightError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new BomwrightError(
      code === 'ENOENT' ? 'E_NOT_FOUND' : 'E_READ',
      code === 'ENOENT'
        ? `Profile file ${reference} does not exist`
        : `Cannot read profile ${reference}: ${describeError(error)}`,
    );
  }
  return { spec: parseSpec(text, reference), dir: path.dirname(file) };
}

/**
 * The profiles the references name, each with its `extends` chain applied, in the order given (a name given twice
 * counts once). Throws one line with a stable code for an unknown name, an unreadable file or a bad profile.
 */
export function loadProfiles(references: readonly string[], cwd = process.cwd()): Profile[] {
  const profiles: Profile[] = [];
  for (const reference of references) {
    const { spec, dir } = loadReference(reference.trim(), cwd);
    const dirs = new Map<ProfileSpec, string | undefined>([[spec, dir]]);
    const profile = resolveProfile(spec, (base, from) => {
      const fromDir = dirs.get(from);
      // A built-in profile extends built-in ones only; a file may extend a file next to it.
      if (fromDir === undefined && isFileReference(base))
        throw new BomwrightError('E_USAGE', `Profile ${from.name}: a built-in profile cannot extend a file`);
      const loaded = loadReference(base, fromDir ?? cwd);
      dirs.set(loaded.spec, loaded.dir);
      return loaded.spec;
    });
    const same = profiles.find((p) => p.name === profile.name);
    if (same !== undefined) {
      if (JSON.stringify(same) === JSON.stringify(profile)) continue;
      throw new BomwrightError('E_USAGE', `Two different profiles are named ${profile.name}; rename one`);
    }
    profiles.push(profile);
  }
  return profiles;
}
