/**
 * The rule pages, docs/rules/<id>.md, are the one source of each rule's documentation. This step copies them into
 * src/diagnostics/rule-pages.ts, a plain data module, so that SARIF (in the library, the CLI bundle and the
 * Action bundle) and `bomwright explain` carry the text without reading files at run time. The module is
 * committed, like the Action bundle: a test (test/docs/rule-pages.test.ts) fails when it differs from what this
 * step writes, so a page can never reach users in an old version.
 *
 *   npm run build:rule-pages   (from the package's root)
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const RULE_PAGES_DIR = 'docs/rules';
export const RULE_PAGES_MODULE = 'src/diagnostics/rule-pages.ts';

/** The sections every page has, in this order; `Options` follows them when options change the rule. */
export const PAGE_SECTIONS = ['What it checks', 'Why', 'Failing example', 'Passing example', 'How to fix'] as const;
export const OPTIONAL_SECTIONS = ['Options'] as const;

export interface ParsedRulePage {
  /** The `# title` line's text. */
  title: string;
  /** The text between the title and the first section. */
  preamble: string;
  /** Each `## name` section with its body (trimmed), in page order. */
  sections: { name: string; body: string }[];
}

/** A page split at its `#` and `##` headings (headings inside fenced code blocks are code, not headings). */
export function parseRulePage(markdown: string): ParsedRulePage {
  const lines = markdown.split('\n');
  let title = '';
  const preamble: string[] = [];
  const sections: { name: string; lines: string[] }[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    const marker = /^(```+|~~~+)/.exec(line)?.[1];
    if (marker !== undefined) {
      if (fence === undefined) fence = marker;
      else if (line.trim() === fence) fence = undefined;
    }
    const heading = fence === undefined && marker === undefined ? /^(#{1,2}) (.+)$/.exec(line) : null;
    if (heading?.[1] === '#' && title === '' && sections.length === 0) title = heading[2]!.trim();
    else if (heading?.[1] === '##') sections.push({ name: heading[2]!.trim(), lines: [] });
    else (sections.at(-1)?.lines ?? preamble).push(line);
  }
  return {
    title,
    preamble: preamble.join('\n').trim(),
    sections: sections.map((s) => ({ name: s.name, body: s.lines.join('\n').trim() })),
  };
}

function pagesUnder(dir: string, prefix: string): [string, string][] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry): [string, string][] => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return pagesUnder(full, `${prefix}${entry.name}/`);
    if (!entry.isFile() || !entry.name.endsWith('.md')) return [];
    return [[`${prefix}${entry.name.slice(0, -'.md'.length)}`, readFileSync(full, 'utf8')]];
  });
}

/** Every page under docs/rules by rule id (its path without `.md`), sorted; the index (README.md) is no page. */
export function readRulePages(root: string): Map<string, string> {
  const pages = pagesUnder(path.join(root, RULE_PAGES_DIR), '').filter(([id]) => id !== 'README');
  return new Map(pages.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export interface ProjectUrls {
  /** package.json "homepage". */
  homepage: string;
  /** Where the pages are published: a rule's page is this plus `<id>.md`. */
  rulePages: string;
}

/**
 * The project's addresses, from package.json's "repository" (a GitHub repository, as npm writes it:
 * `git+https://github.com/OWNER/NAME.git`) and "homepage"; the pages are read on the default branch, main.
 */
export function projectUrls(pkg: { repository?: unknown; homepage?: unknown }): ProjectUrls {
  const repository = pkg.repository as { type?: unknown; url?: unknown } | undefined;
  const match =
    typeof repository?.url === 'string'
      ? /^(?:git\+)?(https:\/\/github\.com\/[\w.-]+\/[\w.-]+?)(?:\.git)?$/.exec(repository.url)
      : null;
  if (repository?.type !== 'git' || match === null)
    throw new Error('package.json "repository" must be {"type":"git","url":"git+https://github.com/OWNER/NAME.git"}');
  const web = match[1]!;
  if (typeof pkg.homepage !== 'string' || !pkg.homepage.startsWith(web))
    throw new Error(`package.json "homepage" must be an address under ${web}`);
  return { homepage: pkg.homepage, rulePages: `${web}/blob/main/${RULE_PAGES_DIR}/` };
}

/** Markdown as plain text, for SARIF's `text` fields: code spans, emphasis and links lose their marks. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/\[([^\]]+)\]\([^)\s]+\)/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/(^|[^\w*])\*([^*\s][^*]*)\*/g, '$1$2')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/** The data module's source: the pages and the addresses, nothing else. */
export function renderRulePagesModule(pages: ReadonlyMap<string, string>, urls: ProjectUrls): string {
  const entries = [...pages].map(([id, markdown]) => {
    const checks = parseRulePage(markdown).sections.find((s) => s.name === PAGE_SECTIONS[0]);
    if (checks === undefined || checks.body === '')
      throw new Error(`${RULE_PAGES_DIR}/${id}.md has no "## ${PAGE_SECTIONS[0]}" section`);
    const summary = { text: plainText(checks.body), markdown: checks.body };
    return `  ${JSON.stringify(id)}: {\n    markdown: ${JSON.stringify(markdown)},\n    summary: ${JSON.stringify(summary)},\n  },`;
  });
  return [
    `// Generated by npm run build:rule-pages from ${RULE_PAGES_DIR}/ and package.json; do not edit.`,
    "import type { RuleId } from './rules.js';",
    '',
    '/** A rule\'s page: the whole markdown, and its "What it checks" section as markdown and as plain text. */',
    'export interface RulePage {',
    '  readonly markdown: string;',
    '  readonly summary: { readonly text: string; readonly markdown: string };',
    '}',
    '',
    '/** The project\'s home page (package.json "homepage"). */',
    `export const HOMEPAGE = ${JSON.stringify(urls.homepage)};`,
    '',
    '/** Where the rule pages are published (from package.json "repository"). */',
    `export const RULE_PAGES_URL = ${JSON.stringify(urls.rulePages)};`,
    '',
    "/** The address of a rule's page. */",
    'export function rulePageUrl(id: RuleId): string {',
    '  return `${RULE_PAGES_URL}${id}.md`;',
    '}',
    '',
    `/** Every rule's page, from ${RULE_PAGES_DIR}/<id>.md. */`,
    'export const RULE_PAGES: Readonly<Record<RuleId, RulePage>> = {',
    ...entries,
    '};',
    '',
  ].join('\n');
}

/** What the module should hold now, from the pages and package.json under `root`. */
export function expectedRulePagesModule(root: string): string {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
  return renderRulePagesModule(readRulePages(root), projectUrls(pkg));
}

// Run by npm (from the package's root), compiled on its own by esbuild: the rest of src/ need not compile, since a new
// rule without its page in the module is exactly what makes it fail.
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = process.cwd();
  writeFileSync(path.join(root, RULE_PAGES_MODULE), expectedRulePagesModule(root));
}
