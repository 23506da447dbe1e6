import { countBySeverity } from '../diagnostics/diagnostic.js';
import { documentVerdicts, profileIdentities } from './profiles.js';
import {
  displayPointer,
  totals,
  visibleDiagnostics,
  warningLimitReason,
  type FileReport,
  type ReportOptions,
} from './report.js';

/** JUnit XML: one test case per document; errors (and unreadable inputs) are failures. */
export function formatJunit(reports: readonly FileReport[], options: ReportOptions): string {
  const cases: string[] = [];
  let failures = 0;
  const identityOf = new Map(profileIdentities(reports, options.profiles).map((p) => [p.name, p]));
  for (const report of reports) {
    const name = escapeXml(report.uri);
    const diagnostics = visibleDiagnostics(report, options);
    const errors = diagnostics.filter((d) => d.severity === 'error');
    // Capped profile findings count whole: the listed ones and those they say are left out.
    const errorCount = countBySeverity(errors).errors;
    const lines = diagnostics.map(
      (d) =>
        `${report.uri}:${d.line ?? 1}:${d.column ?? 1} ${d.severity} ${d.message}${d.pointer ? ` at ${displayPointer(d.pointer)}` : ''} [${d.ruleId}]`,
    );
    if (report.failure !== undefined) {
      failures++;
      cases.push(
        `    <testcase classname="bomwright.validate" name="${name}">\n      <failure message="${escapeXml(report.failure)}" type="io"/>\n    </testcase>`,
      );
    } else if (errors.length > 0) {
      failures++;
      const message = `${errorCount} error${errorCount === 1 ? '' : 's'}: ${errors[0]!.message}`;
      cases.push(
        `    <testcase classname="bomwright.validate" name="${name}">\n      <failure message="${escapeXml(message)}" type="${escapeXml(errors[0]!.ruleId)}">${escapeXml(lines.join('\n'))}</failure>\n    </testcase>`,
      );
    } else if (lines.length > 0) {
      cases.push(
        `    <testcase classname="bomwright.validate" name="${name}">\n      <system-out>${escapeXml(lines.join('\n'))}</system-out>\n    </testcase>`,
      );
    } else {
      cases.push(`    <testcase classname="bomwright.validate" name="${name}"/>`);
    }
    // Each profile's verdict on the document: one test case each, failed when a MUST requirement is unmet.
    for (const verdict of documentVerdicts(report)) {
      const profile = identityOf.get(verdict.name);
      const classname = `bomwright.profile.${escapeXml(verdict.name)}`;
      if (verdict.passed) {
        cases.push(`    <testcase classname="${classname}" name="${name}"/>`);
        continue;
      }
      failures++;
      const named = `${verdict.name}${profile?.version === undefined ? '' : ` ${profile.version}`}${profile === undefined ? '' : ` (${profile.digest})`}`;
      const unmet = verdict.unmet.must;
      cases.push(
        `    <testcase classname="${classname}" name="${name}">\n      <failure message="${escapeXml(`fails ${named}: ${unmet.length} MUST requirement${unmet.length === 1 ? '' : 's'} unmet: ${unmet.join(', ')}`)}" type="profile/${escapeXml(verdict.name)}"/>\n    </testcase>`,
      );
    }
  }
  // --max-warnings is a check of the whole run: one more test case, failed when the warnings exceed it.
  const limit = warningLimitReason(totals(reports), options);
  if (options.maxWarnings !== undefined && options.shard === undefined) {
    const name = `--max-warnings ${options.maxWarnings}`;
    if (limit !== undefined) failures++;
    cases.push(
      limit === undefined
        ? `    <testcase classname="bomwright.validate" name="${name}"/>`
        : `    <testcase classname="bomwright.validate" name="${name}">\n      <failure message="${escapeXml(limit)}" type="max-warnings"/>\n    </testcase>`,
    );
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="bomwright" tests="${cases.length}" failures="${failures}">`,
    `  <testsuite name="bomwright validate" tests="${cases.length}" failures="${failures}" errors="0" skipped="0">`,
    ...shardProperties(options),
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** A shard's report says which share of which run it is (merge-reports drops it again). No user text here. */
function shardProperties(options: ReportOptions): string[] {
  const shard = options.shard;
  if (shard === undefined) return [];
  return [
    '    <properties>',
    `      <property name="bomwright.shard" value="${shard.index}/${shard.count}"/>`,
    `      <property name="bomwright.settings" value="${escapeXml(shard.settings)}"/>`,
    '    </properties>',
  ];
}

/** XML 1.0 text: escape markup and drop characters XML cannot carry at all. */
function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/**
 * escapeXml undone, for merge-reports' ordering by name. Characters XML cannot carry were replaced by U+FFFD and
 * stay so: the caller must not rely on such names.
 */
export function unescapeXml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot);/g, (_, name: string) => XML_ENTITIES[name]!);
}

const XML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"' };
