import { HOMEPAGE, RULE_PAGES, rulePageUrl } from '../diagnostics/rule-pages.js';
import { RULE_IDS, RULES } from '../diagnostics/rules.js';
import {
  documentVerdicts,
  profileIdentities,
  profileRuleMarkdown,
  profileRules,
  type ProfileRuleInfo,
} from './profiles.js';
import type { ProfileIdentity } from '../validate/profiles/evaluate.js';
import { totals, visibleDiagnostics, warningLimitReason, type FileReport, type ReportOptions } from './report.js';

const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/**
 * SARIF 2.1.0 for code scanning: repository-relative URIs against %SRCROOT% and the stable rule ids. Each rule
 * carries its page (docs/rules/<id>.md): the "What it checks" section as fullDescription, the whole page as help
 * (GitHub shows help.markdown beside the alert) and its address as helpUri.
 */
export function formatSarif(reports: readonly FileReport[], options: ReportOptions): string {
  const limit = warningLimitReason(totals(reports), options);
  const fromProfiles = profileRules(options.profiles ?? []);
  const identities = profileIdentities(reports, options.profiles);
  const ruleIndex = new Map<string, number>([
    ...RULE_IDS.map((id, index) => [id, index] as const),
    ...fromProfiles.map((rule, index) => [rule.id, RULE_IDS.length + index] as const),
    ...identities.map((p, index) => [`profile/${p.name}`, RULE_IDS.length + fromProfiles.length + index] as const),
  ]);
  const identityOf = new Map(identities.map((p) => [p.name, p]));
  const results: unknown[] = [];
  const notifications: unknown[] = [];
  for (const report of reports) {
    const artifactLocation = { uri: encodeUri(report.uri), uriBaseId: '%SRCROOT%' };
    if (report.failure !== undefined) {
      notifications.push({
        level: 'error',
        message: { text: `${report.uri}: ${report.failure}` },
        locations: [{ physicalLocation: { artifactLocation } }],
      });
      continue;
    }
    for (const d of visibleDiagnostics(report, options)) {
      const region = d.line === undefined ? undefined : { startLine: d.line, startColumn: d.column ?? 1 };
      results.push({
        ruleId: d.ruleId,
        ruleIndex: ruleIndex.get(d.ruleId),
        level: d.severity === 'error' ? 'error' : 'warning',
        message: { text: d.message + (d.value === undefined ? '' : ` (value: ${d.value})`) },
        locations: [
          {
            physicalLocation: { artifactLocation, ...(region ? { region } : {}) },
            ...(d.pointer === '' ? {} : { logicalLocations: [{ fullyQualifiedName: d.pointer, kind: 'member' }] }),
          },
        ],
        // Findings like this one left out of the list (a profile lists 100 per requirement): counted, not shown.
        ...(d.unlisted === undefined ? {} : { properties: { unlisted: d.unlisted } }),
      });
    }
    // Each profile's verdict on the document: a result of kind pass or fail, naming the rules applied.
    for (const verdict of documentVerdicts(report)) {
      const profile = identityOf.get(verdict.name);
      const named = `${verdict.name}${profile?.version === undefined ? '' : ` ${profile.version}`}${profile === undefined ? '' : ` (${profile.digest})`}`;
      const unmet = verdict.unmet.must;
      results.push({
        ruleId: `profile/${verdict.name}`,
        ruleIndex: ruleIndex.get(`profile/${verdict.name}`),
        kind: verdict.passed ? 'pass' : 'fail',
        level: verdict.passed ? 'none' : 'error',
        message: {
          text: verdict.passed
            ? `The document passes ${named}`
            : `The document fails ${named}: ${unmet.length} MUST requirement${unmet.length === 1 ? '' : 's'} unmet (${unmet.join(', ')})`,
        },
        locations: [{ physicalLocation: { artifactLocation } }],
        properties: {
          profile: verdict.name,
          ...(profile?.version === undefined ? {} : { version: profile.version }),
          ...(profile === undefined ? {} : { digest: profile.digest }),
          passed: verdict.passed,
          unmet: verdict.unmet,
        },
      });
    }
  }
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'bomwright',
            version: options.toolVersion,
            informationUri: HOMEPAGE,
            rules: [
              ...RULE_IDS.map((id) => ({
                id,
                shortDescription: { text: RULES[id].description },
                fullDescription: RULE_PAGES[id].summary,
                helpUri: rulePageUrl(id),
                help: { text: RULE_PAGES[id].markdown, markdown: RULE_PAGES[id].markdown },
                defaultConfiguration: { level: RULES[id].severity === 'error' ? 'error' : 'warning' },
              })),
              ...fromProfiles.map(profileSarifRule),
              ...identities.map(profileVerdictRule),
            ],
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The repository root' } } },
        results,
        invocations: [
          {
            executionSuccessful: notifications.length === 0,
            toolExecutionNotifications: notifications,
            // The warnings exceed --max-warnings: the run's exit code and why (not in a shard: the limit is the run's).
            ...(limit === undefined || options.shard !== undefined ? {} : { exitCode: 1, exitCodeDescription: limit }),
            // A shard's report says which share of which run it is, and how many documents it checked (clean
            // ones leave no result); merge-reports drops it again.
            ...(options.shard === undefined
              ? {}
              : { properties: { shard: { ...options.shard, documents: reports.length } } }),
          },
        ],
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}

/** A profile requirement as a SARIF rule: its page names the source and clause; helpUri is the source. */
function profileSarifRule(rule: ProfileRuleInfo) {
  const markdown = profileRuleMarkdown(rule);
  const source = rule.source?.title ?? rule.profile;
  return {
    id: rule.id,
    shortDescription: { text: rule.description },
    fullDescription: {
      text: `${rule.description} (${source}, ${rule.clause})`,
      markdown: `${rule.description} (${source}, ${rule.clause})`,
    },
    ...(rule.source?.url === undefined ? {} : { helpUri: rule.source.url }),
    help: { text: markdown, markdown },
    defaultConfiguration: { level: rule.level === 'MUST' ? 'error' : 'warning' },
    properties: { profile: rule.profile, clause: rule.clause, source },
  };
}

/** A profile as a whole as a SARIF rule: the verdict per document (passes when no MUST requirement is unmet). */
function profileVerdictRule(profile: ProfileIdentity) {
  const text = `The document passes ${profile.title} (no MUST requirement unmet)`;
  return {
    id: `profile/${profile.name}`,
    shortDescription: { text },
    fullDescription: { text: `${text}; the rules applied are those of ${profile.digest}` },
    ...(profile.source?.url === undefined ? {} : { helpUri: profile.source.url }),
    defaultConfiguration: { level: 'error' },
    properties: {
      profile: profile.name,
      ...(profile.version === undefined ? {} : { version: profile.version }),
      digest: profile.digest,
    },
  };
}

/** Relative URI reference: percent-encode what is not allowed in a path, keep the slashes. */
function encodeUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
