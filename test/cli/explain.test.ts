import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { findRule, nearestRules } from '../../src/cli/commands/explain.js';
import { formatRuleList, formatRulePage } from '../../src/format/explain.js';
import { RULE_IDS, RULES, type RuleId } from '../../src/index.js';
import { ROOT, runCli } from '../helpers.js';

const page = (id: string) => readFileSync(path.join(ROOT, 'docs/rules', `${id}.md`), 'utf8');

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main({ argv, cwd: ROOT, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('bomwright explain', () => {
  it('prints the page of a rule, as it is in docs/rules (the built CLI carries it)', async () => {
    const result = await runCli(['explain', 'json/duplicate-key']);
    expect(result).toEqual({ code: 0, stdout: page('json/duplicate-key'), stderr: '' });
  });

  it.each(RULE_IDS)('prints the page of %s', async (id) => {
    expect(await run('explain', id)).toEqual({ code: 0, stdout: page(id), stderr: '' });
  });

  it('takes an id in any case, and with spaces around it', () => {
    expect(findRule('JSON/Duplicate-Key')).toBe('json/duplicate-key');
    expect(findRule(' bom/version ')).toBe('bom/version');
  });

  it('lists every rule with its severity and short description when no rule is named', async () => {
    const result = await runCli(['explain']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    for (const [i, id] of RULE_IDS.entries()) {
      const [name, severity, ...rest] = lines[i]!.split(/ {2,}/);
      expect([name, severity, rest.join('  ')]).toEqual([id, RULES[id].severity, RULES[id].description]);
    }
    expect(lines.slice(RULE_IDS.length, RULE_IDS.length + 3)).toEqual([
      '',
      'Run "bomwright explain RULE-ID" for a rule\'s page.',
      '',
    ]);
    // Then the built-in profiles, whose requirements are rules too.
    expect(lines[RULE_IDS.length + 3]).toBe('Profile requirements (validate --profile):');
  });

  it('gives JSON with --format json: the registry entry, the address and the page', async () => {
    const one = JSON.parse((await run('explain', 'signature/untrusted', '--format', 'json')).stdout);
    expect(one).toEqual({
      id: 'signature/untrusted',
      ...RULES['signature/untrusted'],
      url: 'https://github.com/bomwright/bomwright/blob/main/docs/rules/signature/untrusted.md',
      markdown: page('signature/untrusted'),
    });
    const all = JSON.parse((await run('explain', '-f', 'json')).stdout) as { id: RuleId; url: string }[];
    expect(all.map((r) => r.id)).toEqual(RULE_IDS);
    expect(all[0]).toEqual({ id: RULE_IDS[0], ...RULES[RULE_IDS[0]!], url: expect.stringMatching(/read\/empty\.md$/) });
    expect(formatRuleList('json')).toBe(JSON.stringify(all, null, 2) + '\n');
    expect(formatRulePage('bom/version', 'text')).toBe(page('bom/version'));
  });

  it('refuses an unknown rule as a usage error (exit 2) that names the nearest rules', async () => {
    const result = await runCli(['explain', 'json/duplicate-keys']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(
      'bomwright: E_USAGE: Unknown rule "json/duplicate-keys"; did you mean json/duplicate-key?',
    );
    expect((await run('explain', 'duplicate')).stderr).toMatch(
      /^bomwright: E_USAGE: Unknown rule "duplicate"; did you mean json\/duplicate-key or ref\/duplicate-bom-ref\?\n/,
    );
    expect((await run('explain', 'no-such-thing-at-all')).stderr).toMatch(
      /^bomwright: E_USAGE: Unknown rule "no-such-thing-at-all"; run "bomwright explain" to list the rules\n/,
    );
  });

  it('suggests by edit distance to the id or to its name, or by the part typed', () => {
    expect(nearestRules('sigature/untrusted')).toEqual(['signature/untrusted']);
    expect(nearestRules('lone-surogate')).toEqual(['json/lone-surrogate']);
    expect(nearestRules('surrogate')).toEqual(['json/lone-surrogate']);
    expect(nearestRules('bom/versions')).toEqual(['bom/version']);
    expect(nearestRules('version-rules')).toEqual(['bom/version-rule', 'bom/version']);
    expect(nearestRules('schema/typo')).toEqual(['schema/type']);
    expect(nearestRules('xyzzy')).toEqual([]);
    expect(nearestRules('schema')).toHaveLength(3);
    // A hostile argument stays one bounded line.
    expect(() => findRule('x'.repeat(10_000))).toThrow(/^Unknown rule "x{80}…"; run "bomwright explain"/);
  });
});
