import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, OUTPUT_FORMATS, RULE_IDS, RULES, SPEC_FORMATS } from '../src/index.js';
import { ROOT } from './helpers.js';

const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

describe('README stays true', () => {
  it('has the two-command quick start', () => {
    expect(readme).toContain('```sh\nnpm ci && npx bomwright validate samples\nnpm test\n```');
  });

  it('lists every rule with a link to its page, its severity, description and hint, as the registry has them', () => {
    const rows = new Map<string, string[]>();
    for (const line of readme.split('\n')) {
      const match = /^\| \[`([a-z0-9-]+\/[a-z0-9-]+)`\]\(([^)]+)\) \| (.*) \|$/.exec(line);
      if (!match) continue;
      expect(match[2], match[1]).toBe(`docs/rules/${match[1]}.md`);
      expect(existsSync(path.join(ROOT, match[2]!)), match[2]).toBe(true);
      // The README may set code in backticks where the registry has plain text.
      rows.set(
        match[1]!,
        match[3]!.split(' | ').map((cell) => cell.replaceAll('\\|', '|').replaceAll('`', '')),
      );
    }
    for (const id of RULE_IDS) {
      const { severity, description, hint } = RULES[id];
      expect(description.length, id).toBeGreaterThan(10);
      expect(hint.length, id).toBeGreaterThan(10);
      expect(rows.get(id), id).toEqual([severity, description, hint].map((cell) => cell.replaceAll('`', '')));
    }
    expect([...rows.keys()].sort()).toEqual([...RULE_IDS].sort());
  });

  it('documents every output format, error code and supported version', () => {
    for (const format of OUTPUT_FORMATS) expect(readme).toContain(`\`${format}\``);
    for (const code of ERROR_CODES) expect(readme).toContain(`\`${code}\``);
    expect(readme).toContain('### `bomwright explain [RULE-ID]`');
    for (const format of SPEC_FORMATS) expect(readme).toContain(`\`${format.specVersion}\``);
  });
});

describe('pre-commit hook definition', () => {
  it('declares bomwright-validate running validate --staged', () => {
    const hooks = readFileSync(path.join(ROOT, '.pre-commit-hooks.yaml'), 'utf8');
    expect(hooks).toContain('- id: bomwright-validate');
    expect(hooks).toContain('entry: bomwright validate --staged');
    expect(hooks).toContain('pass_filenames: false');
  });
});
