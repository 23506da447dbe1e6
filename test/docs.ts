/**
 * The user documentation: the README and the pages under docs/ (the rule pages excepted: they are the rule registry's
 * source and have tests of their own, test/docs/rule-pages.test.ts). Tests that check what the documentation says
 * read it through here, so a section can move from one page to another without a test losing sight of it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './helpers.js';

export interface DocPage {
  /** The page's path from the repository root, with forward slashes: `README.md`, `docs/commands/merge.md`. */
  file: string;
  text: string;
}

function pagesUnder(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return relative === 'docs/rules' ? [] : pagesUnder(relative);
    return entry.name.endsWith('.md') ? [relative] : [];
  });
}

/** README.md first, then every page of docs/ but the rule pages, in a stable order. */
export function docPages(): DocPage[] {
  return ['README.md', ...pagesUnder('docs').sort()].map((file) => ({
    file,
    text: readFileSync(path.join(ROOT, file), 'utf8'),
  }));
}

/** The one page whose text contains `needle` (a test fails when a marker is found twice or not at all). */
export function pageWith(needle: string): DocPage {
  const found = docPages().filter((page) => page.text.includes(needle));
  if (found.length !== 1)
    throw new Error(
      `${found.length} documentation pages contain ${JSON.stringify(needle)}: ${found.map((p) => p.file)}`,
    );
  return found[0]!;
}
