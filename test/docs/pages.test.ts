/**
 * The documentation as a whole: a short README that links a page per command, per profile, the library and the
 * emulator; every relative link and anchor resolves; each built-in profile's page lists its requirements as the
 * profile file has them (`UPDATE_PROFILE_PAGES=1 npx vitest run test/docs/pages.test.ts` rewrites those tables).
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { BUILTIN_PROFILE_NAMES, loadProfiles } from '../../src/index.js';
import { docPages } from '../docs.js';
import { ROOT } from '../helpers.js';

const pages = docPages();

/** GitHub's heading anchor: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

function withoutCode(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
}

describe('the README', () => {
  const readme = pages.find((page) => page.file === 'README.md')!.text;

  it('is short: at most 250 lines, and its first paragraph names both syntaxes', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    const intro = readme.split('\n\n')[1]!;
    expect(intro).toMatch(/CycloneDX JSON and XML/);
  });

  it('has an install section for users and the two-command quick start', () => {
    expect(readme).toMatch(/^## Install$/m);
    expect(readme).toContain('```sh\nnpm ci && npx bomwright validate samples\nnpm test\n```');
  });

  it('shows the same pre-commit configuration as the pre-commit page', () => {
    const config = (text: string) => /^```yaml\n(repos:\n[\s\S]*?)^```$/m.exec(text)?.[1];
    const hookPage = pages.find((page) => page.file === 'docs/pre-commit.md')!.text;
    expect(config(readme)).toBeDefined();
    expect(config(readme)).toBe(config(hookPage));
  });
});

describe('the pages', () => {
  it('every command has a page whose title names it', () => {
    const titles = pages.map((page) => page.text.split('\n', 1)[0]!);
    const missing = COMMANDS.map((c) => c.command.split(/\s/, 1)[0]!).filter(
      (name) => !titles.some((title) => title.startsWith('# ') && title.includes(`\`bomwright ${name}`)),
    );
    expect(missing).toEqual([]);
    expect(COMMANDS.length).toBeGreaterThanOrEqual(19);
  });

  it('every relative link names a file that exists, and every anchor a heading of that page', () => {
    const headings = new Map(
      pages.map((page) => [
        page.file,
        new Set([...withoutCode(page.text).matchAll(/^#{1,6} (.*)$/gm)].map((m) => anchor(m[1]!))),
      ]),
    );
    const broken: string[] = [];
    let checked = 0;
    for (const page of pages) {
      for (const [, target] of withoutCode(page.text).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z][a-z+.-]*:/i.test(target!)) continue;
        checked++;
        const [file, fragment] = target!.split('#', 2) as [string, string | undefined];
        const resolved =
          file === '' ? page.file : path.posix.normalize(path.posix.join(path.posix.dirname(page.file), file));
        if (!existsSync(path.join(ROOT, resolved))) broken.push(`${page.file}: ${target} (no ${resolved})`);
        else if (fragment !== undefined && statSync(path.join(ROOT, resolved)).isFile() && resolved.endsWith('.md')) {
          const known =
            headings.get(resolved) ??
            new Set(
              [...readFileSync(path.join(ROOT, resolved), 'utf8').matchAll(/^#{1,6} (.*)$/gm)].map((m) =>
                anchor(m[1]!),
              ),
            );
          if (!known.has(fragment)) broken.push(`${page.file}: ${target} (no heading #${fragment} in ${resolved})`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('the link checker itself: a missing file and a missing anchor are each told apart from good links', () => {
    expect(anchor('`bomwright convert IN -o OUT`')).toBe('bomwright-convert-in--o-out');
    expect(anchor('The emulator in your own tests')).toBe('the-emulator-in-your-own-tests');
    expect(anchor('Sharding: `validate --shard I/N`')).toBe('sharding-validate---shard-in');
  });
});

const START = '<!-- requirements:start -->';
const END = '<!-- requirements:end -->';

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/** The table of a profile's requirements (after `extends`), as its page shows it. */
function requirementsTable(name: string): string {
  const [profile] = loadProfiles([name]);
  const rows = profile!.requirements.map(
    (r) => `| \`${r.id}\` | ${r.level} | ${cell(r.clause)} | ${cell(r.message)} |`,
  );
  return [START, '| requirement | level | clause | unmet when |', '|---|---|---|---|', ...rows, END].join('\n');
}

describe.each(BUILTIN_PROFILE_NAMES.map((name) => [name]))('the page of the built-in profile %s', (name) => {
  const file = path.join(ROOT, 'docs/profiles', `${name}.md`);

  it('exists, is linked from the profiles page, and lists every requirement as the profile has it', () => {
    expect(existsSync(file), file).toBe(true);
    const text = readFileSync(file, 'utf8');
    const table = requirementsTable(name);
    const current = text.slice(text.indexOf(START), text.indexOf(END) + END.length);
    if (process.env.UPDATE_PROFILE_PAGES === '1' && current !== table) {
      writeFileSync(file, text.replace(current, table));
      return;
    }
    expect(current).toBe(table);
    const index = readFileSync(path.join(ROOT, 'docs/profiles/README.md'), 'utf8');
    expect(index).toContain(`](${name}.md)`);
  });
});
