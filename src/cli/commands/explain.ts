import { RULE_IDS, RULES, type RuleId } from '../../diagnostics/rules.js';
import { BomwrightError } from '../../errors.js';
import {
  EXPLAIN_FORMATS,
  formatProfilePage,
  formatProfileRulePage,
  formatRuleList,
  formatRulePage,
  type ExplainFormat,
} from '../../format/explain.js';
import { defineCommand } from '../command.js';
import { didYouMean, editDistance, nearestNames } from '../../nearest.js';
import { BUILTIN_PROFILE_NAMES, loadProfiles } from '../../node/profiles.js';
import type { Profile } from '../../validate/profiles/model.js';
import { profileRules, type ProfileRuleInfo } from '../../format/profiles.js';
import { EXIT_OK } from '../exit-codes.js';
import { ONE_VALUE_PER_FLAG } from '../options.js';

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

/**
 * A profile requirement's page, `profile/<name>/<id>`: from a built-in profile, or from the files given with
 * --profile. Unknown names and ids suggest the nearest.
 */
/** A profile by name: from the files given with --profile, else a built-in one (unknown names suggest the nearest). */
function profileNamed(name: string, files: readonly string[], cwd: string): Profile {
  return loadProfiles(files, cwd).find((p) => p.name === name) ?? loadProfiles([name], cwd)[0]!;
}

function profileRulePage(typed: string, files: readonly string[], cwd: string): ProfileRuleInfo {
  const match = /^profile\/([^/]+)\/(.+)$/.exec(typed.trim());
  if (match === null) throw new BomwrightError('E_USAGE', `A profile rule reads profile/<profile>/<requirement>`);
  const [, name, id] = match as unknown as [string, string, string];
  const fromFiles = loadProfiles(files, cwd);
  const profile = fromFiles.find((p) => p.name === name) ?? loadProfiles([name], cwd)[0]!;
  const rules = profileRules([profile]);
  const rule = rules.find((r) => r.id === `profile/${name}/${id}`);
  if (rule === undefined) {
    const near = nearestNames(
      id,
      profile.requirements.map((r) => r.id),
    );
    throw new BomwrightError(
      'E_USAGE',
      `Profile ${name} has no requirement ${JSON.stringify(id.slice(0, 80))}${didYouMean(near.map((n) => `profile/${name}/${n}`))}`,
    );
  }
  return rule;
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
      })
      .option('profile', {
        type: 'string',
        ...ONE_VALUE_PER_FLAG,
        describe: 'Profile files whose requirements to explain too (built-in profiles need none)',
      }),
  handler: (argv, context) => {
    const whole = argv.rule === undefined ? null : /^profile\/([^/]+)\/?$/i.exec(argv.rule.trim());
    if (whole !== null) {
      context.stdout(formatProfilePage(profileNamed(whole[1]!, argv.profile ?? [], context.cwd), argv.format));
      return EXIT_OK;
    }
    if (argv.rule !== undefined && argv.rule.trim().toLowerCase().startsWith('profile/')) {
      context.stdout(formatProfileRulePage(profileRulePage(argv.rule, argv.profile ?? [], context.cwd), argv.format));
      return EXIT_OK;
    }
    if (argv.rule === undefined) {
      context.stdout(formatRuleList(argv.format));
      // The built-in profiles' requirements are rules too: name where to find them.
      if (argv.format === 'text')
        context.stdout(
          `\nProfile requirements (validate --profile):\n${loadProfiles(BUILTIN_PROFILE_NAMES)
            .map((p) => `  profile/${p.name}  ${p.requirements.length} requirements  ${p.title}`)
            .join('\n')}\nRun "bomwright explain profile/NAME" to list a profile's requirements.\n`,
        );
      return EXIT_OK;
    }
    context.stdout(formatRulePage(findRule(argv.rule), argv.format));
    return EXIT_OK;
  },
});
