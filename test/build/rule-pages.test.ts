import { describe, expect, it } from 'vitest';
import { parseRulePage, plainText, projectUrls, renderRulePagesModule } from '../../src/build/rule-pages.js';

const urls = { homepage: 'https://github.com/o/n#readme', rulePages: 'https://github.com/o/n/blob/main/docs/rules/' };

describe('the rule pages build step', () => {
  it('derives the addresses from package.json "repository" and "homepage"', () => {
    const repository = { type: 'git', url: 'git+https://github.com/bomwright/bomwright.git' };
    expect(projectUrls({ repository, homepage: 'https://github.com/bomwright/bomwright#readme' })).toEqual({
      homepage: 'https://github.com/bomwright/bomwright#readme',
      rulePages: 'https://github.com/bomwright/bomwright/blob/main/docs/rules/',
    });
    expect(
      projectUrls({
        repository: { type: 'git', url: 'https://github.com/o/n.js' },
        homepage: 'https://github.com/o/n.js',
      }).rulePages,
    ).toBe('https://github.com/o/n.js/blob/main/docs/rules/');
  });

  it.each([
    [{ homepage: 'https://github.com/o/n' }, /"repository" must be/],
    [{ repository: 'o/n', homepage: 'https://github.com/o/n' }, /"repository" must be/],
    [
      { repository: { type: 'svn', url: 'https://github.com/o/n' }, homepage: 'https://github.com/o/n' },
      /"repository"/,
    ],
    [{ repository: { type: 'git', url: 'git+https://gitlab.com/o/n.git' }, homepage: 'x' }, /"repository"/],
    [{ repository: { type: 'git', url: 'git+https://github.com/o/n.git' } }, /"homepage" must be/],
    [{ repository: { type: 'git', url: 'git+https://github.com/o/n.git' }, homepage: 'https://n.dev' }, /"homepage"/],
  ])('refuses package.json fields it cannot derive them from: %j', (pkg, message) => {
    expect(() => projectUrls(pkg)).toThrow(message);
  });

  it('splits a page at its headings, not at # lines inside code blocks', () => {
    const page = parseRulePage(
      '# a/b\n\nSeverity: **error**\n\n## What it checks\n\nText.\n\n```sh\n# a comment\n## not a section\n```\n\n## Why\n\nBecause.\n',
    );
    expect(page).toEqual({
      title: 'a/b',
      preamble: 'Severity: **error**',
      sections: [
        { name: 'What it checks', body: 'Text.\n\n```sh\n# a comment\n## not a section\n```' },
        { name: 'Why', body: 'Because.' },
      ],
    });
  });

  it('turns markdown into plain text for SARIF text fields', () => {
    expect(plainText('A `version` is **not** a *string*;\nsee [the spec](https://example.com/s).')).toBe(
      'A version is not a string; see the spec.',
    );
  });

  it('writes a data module with every page, and refuses a page without "What it checks"', () => {
    const module = renderRulePagesModule(new Map([['a/b', '# a/b\n\n## What it checks\n\nThe `x`.\n']]), urls);
    expect(module).toContain(`export const RULE_PAGES_URL = "${urls.rulePages}";`);
    expect(module).toContain(`export const HOMEPAGE = "${urls.homepage}";`);
    expect(module).toContain('"a/b": {\n    markdown: "# a/b\\n\\n## What it checks\\n\\nThe `x`.\\n",');
    expect(module).toContain('summary: {"text":"The x.","markdown":"The `x`."}');
    expect(() => renderRulePagesModule(new Map([['a/b', '# a/b\n\n## Why\n\nNo.\n']]), urls)).toThrow(
      'docs/rules/a/b.md has no "## What it checks" section',
    );
  });
});
