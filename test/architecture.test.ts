import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

/**
 * The house's floors, bottom first: a module may import its own folder and the floors below, never one above
 * or beside it, so no two folders import each other and the core never reaches for the edges.
 */
const FLOORS: readonly (readonly string[])[] = [
  ['errors.ts', 'values.ts', 'nearest.ts', 'global.d.ts', 'diagnostics', 'runtime'],
  ['json'],
  ['formats'],
  ['jsf'],
  ['compare'],
  ['xml'],
  ['document'],
  ['validate'],
  ['author'],
  ['format'],
  ['service'],
  ['flows'],
  ['node'],
  ['emulator'],
  ['cli'],
  ['action'],
  ['index.ts'],
  ['build'],
];

const SRC = path.join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The top-level room of a file: its folder under src/, or the file itself at the top. */
function room(file: string): string {
  return path.relative(SRC, file).split(path.sep)[0]!;
}

function floorOf(name: string): number {
  const floor = FLOORS.findIndex((names) => names.includes(name));
  if (floor === -1) throw new Error(`src/${name} is on no floor: add it to FLOORS in this test`);
  return floor;
}

const IMPORT = /(?:import|export)\s[^'";]*?from\s*'(\.[^']+)'|import\s*\(?\s*'(\.[^']+)'/g;

function arrows(): { from: string; to: string; file: string }[] {
  const found: { from: string; to: string; file: string }[] = [];
  for (const file of sourceFiles(SRC)) {
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2]!;
      const target = path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.ts'));
      if (!target.startsWith(SRC + path.sep)) continue;
      const from = room(file);
      const to = room(target);
      if (from !== to) found.push({ from, to, file: path.relative(ROOT, file) });
    }
  }
  return found;
}

describe('the layout of src/', () => {
  const all = arrows();

  it('reads a realistic number of imports between folders', () => {
    expect(all.length).toBeGreaterThan(50);
  });

  it('has every folder on a floor', () => {
    for (const name of readdirSync(SRC)) expect(() => floorOf(name), name).not.toThrow();
  });

  it('has no import that points up or sideways (so no cycle between folders)', () => {
    const upward = all
      .filter(({ from, to }) => floorOf(to) >= floorOf(from))
      .map(({ file, to }) => `${file} imports src/${to}`);
    expect(upward).toEqual([]);
  });
});
