/** `bomwright explain`'s reports: a rule's page as written (markdown), or the list of rules; JSON for machines. */
import { RULE_IDS, RULES, type RuleId } from '../diagnostics/rules.js';
import { RULE_PAGES, rulePageUrl } from '../diagnostics/rule-pages.js';
import type { Profile } from '../validate/profiles/model.js';
import { profileMarkdown, profileRuleMarkdown, type ProfileRuleInfo } from './profiles.js';

export const EXPLAIN_FORMATS = ['text', 'json'] as const;
export type ExplainFormat = (typeof EXPLAIN_FORMATS)[number];

function entry(id: RuleId) {
  const { severity, description, hint } = RULES[id];
  return { id, severity, description, hint, url: rulePageUrl(id) };
}

/** The page as it is in docs/rules (the same bytes on a terminal and in a pipe), or it and the registry as JSON. */
export function formatRulePage(id: RuleId, format: ExplainFormat): string {
  const { markdown } = RULE_PAGES[id];
  if (format === 'json') return JSON.stringify({ ...entry(id), markdown }, null, 2) + '\n';
  return markdown.endsWith('\n') ? markdown : `${markdown}\n`;
}

/** Every rule: id, severity and short description, one per line, in registry order. */
export function formatRuleList(format: ExplainFormat): string {
  if (format === 'json') return JSON.stringify(RULE_IDS.map(entry), null, 2) + '\n';
  const width = Math.max(...RULE_IDS.map((id) => id.length));
  const lines = RULE_IDS.map((id) => `${id.padEnd(width)}  ${RULES[id].severity.padEnd(7)}  ${RULES[id].description}`);
  return `${lines.join('\n')}\n\nRun "bomwright explain RULE-ID" for a rule's page.\n`;
}

/** A profile's page: its source, version, digest and requirements; or its data as JSON. */
export function formatProfilePage(profile: Profile, format: ExplainFormat): string {
  const markdown = profileMarkdown(profile);
  if (format === 'text') return markdown;
  const { name, title, version, superseded, source, digest, requirements } = profile;
  return (
    JSON.stringify(
      {
        name,
        title,
        ...(version === undefined ? {} : { version }),
        digest,
        ...(superseded === undefined ? {} : { superseded }),
        ...(source === undefined ? {} : { source }),
        requirements: requirements.map((r) => ({
          id: `profile/${name}/${r.id}`,
          level: r.level,
          clause: r.clause,
          description: r.message,
        })),
        markdown,
      },
      null,
      2,
    ) + '\n'
  );
}

/** A profile requirement's page: its source and clause, what it checks, how to fix it; or that and its entry as JSON. */
export function formatProfileRulePage(rule: ProfileRuleInfo, format: ExplainFormat): string {
  const markdown = profileRuleMarkdown(rule);
  if (format === 'text') return markdown;
  const { id, level, clause, description, hint, profile, source, counts, reading, example } = rule;
  return (
    JSON.stringify(
      {
        id,
        severity: level === 'MUST' ? 'error' : 'warning',
        level,
        description,
        hint,
        profile,
        clause,
        counts,
        ...(reading === undefined ? {} : { reading }),
        ...(example === undefined ? {} : { example: JSON.parse(example) as unknown }),
        ...(source === undefined
          ? {}
          : { source: source.title, ...(source.url === undefined ? {} : { url: source.url }) }),
        markdown,
      },
      null,
      2,
    ) + '\n'
  );
}
