import { RULE_IDS, RULES, type RuleId } from '../../diagnostics/rules.js';
import { BomwrightError } from '../../errors.js';
import { EXPLAIN_FORMATS, formatRuleList, formatRulePage, type ExplainFormat } from '../../format/explain.js';
import { defineCommand } from '../command.js';
import { editDistance } from '../../nearest.js';
import { EXIT_OK } from '../exit-codes.js';

/**
 * The ids nearest to what was typed: a few edits away from the whole id or from its name after the slash
 * (`duplicate-keys`, `json/duplicate-keys`), or containing what was typed (`surrogate`) or containing the name
 * (`bom/versions`); at most three, fewest edits first.
 */
export function nearestRules(typed: string): RuleId[] {
  const text = typed.trim().toLowerCase().slice(0, 200);
  const limit = Math.max(2, Math.floor(text.length / 4));
  const scored = RULE_IDS.map((id) => {
    const name = id.slice(id.indexOf('/') + 1);
    const contains = text.length >= 3 && (id.includes(text) || text.includes(name));
    const edits = Math.min(editDistance(text, id), editDistance(text, name));
    return { id, edits, near: contains || edits <= limit };
  });
  return scored
    .filter((s) => s.near)
    .sort((a, b) => a.edits - b.edits)
    .slice(0, 3)
    .map((s) => s.id);
}

/** The rule a user named: its id exactly (in any case), or a usage error that suggests the nearest ids. */
export function findRule(typed: string): RuleId {
  const id = typed.trim().toLowerCase();
  if (Object.hasOwn(RULES, id)) return id as RuleId;
  const nearest = nearestRules(typed);
  const shown = JSON.stringify(typed.length > 80 ? `${typed.slice(0, 80)}…` : typed);
  const hint =
    nearest.length === 0
      ? 'run "bomwright explain" to list the rules'
      : `did you mean ${nearest.slice(0, -1).join(', ')}${nearest.length > 1 ? ' or ' : ''}${nearest.at(-1)!}?`;
  throw new BomwrightError('E_USAGE', `Unknown rule ${shown}; ${hint}`);
}

/** Prints a rule's page (docs/rules/<id>.md, carried in the build), or lists the rules. */
export const explainCommand = defineCommand({
  command: 'explain [rule]',
  describe: "Print a rule's page: what it checks, why, examples and how to fix (without a rule: list them)",
  builder: (y) =>
    y
      .positional('rule', { type: 'string', describe: 'A rule id, as reports show it, e.g. json/duplicate-key' })
      .option('format', {
        alias: 'f',
        choices: EXPLAIN_FORMATS,
        default: 'text' as ExplainFormat,
        describe: 'text: the page as markdown; json: the page and the rule registry entry',
      }),
  handler: (argv, context) => {
    context.stdout(
      argv.rule === undefined ? formatRuleList(argv.format) : formatRulePage(findRule(argv.rule), argv.format),
    );
    return EXIT_OK;
  },
});
