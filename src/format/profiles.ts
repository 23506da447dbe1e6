/** What the reports say about compliance profiles: one summary per profile over all documents, and rule entries. */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { ProfileResult } from '../validate/profiles/evaluate.js';
import type { Profile } from '../validate/profiles/model.js';
import type { FileReport } from './report.js';

export interface ProfileSummary {
  name: string;
  title: string;
  version?: string;
  digest: string;
  superseded?: string;
  source?: { title: string; url?: string };
  /** Requirements of the profile, and those unmet in at least one document. */
  requirements: number;
  unmet: number;
  /** Components over all documents checked. */
  components: number;
  documents: number;
  passed: number;
  /** Per requirement: how many documents and subjects fall short, and where (the first few, per document). */
  rows: {
    id: string;
    level: 'MUST' | 'SHOULD';
    clause: string;
    message: string;
    unmet: number;
    documents: number;
    failing: { uri: string; pointers: string[]; subjects: string[]; more: number }[];
  }[];
}

function resultsOf(reports: readonly FileReport[]): { uri: string; result: ProfileResult }[] {
  return reports.flatMap((r) => (r.result?.profiles ?? []).map((result) => ({ uri: r.uri, result })));
}

/** Every profile's verdict over the whole run, in the order the profiles were given. */
export function profileSummaries(reports: readonly FileReport[]): ProfileSummary[] {
  const byName = new Map<string, ProfileSummary>();
  for (const { uri, result } of resultsOf(reports)) {
    let summary = byName.get(result.name);
    if (summary === undefined) {
      summary = {
        name: result.name,
        title: result.title,
        ...(result.version === undefined ? {} : { version: result.version }),
        digest: result.digest,
        ...(result.superseded === undefined ? {} : { superseded: result.superseded }),
        ...(result.source === undefined ? {} : { source: result.source }),
        requirements: result.requirements.length,
        unmet: 0,
        components: 0,
        documents: 0,
        passed: 0,
        rows: result.requirements.map((r) => ({
          id: r.id,
          level: r.level,
          clause: r.clause,
          message: r.message,
          unmet: 0,
          documents: 0,
          failing: [],
        })),
      };
      byName.set(result.name, summary);
    }
    summary.components += result.components;
    summary.documents++;
    if (result.passed) summary.passed++;
    for (const r of result.requirements) {
      const row = summary.rows.find((x) => x.id === r.id);
      if (row === undefined || r.unmet === 0) continue;
      row.unmet += r.unmet;
      row.documents++;
      row.failing.push({ uri, pointers: r.pointers, subjects: r.subjects, more: r.unmet - r.pointers.length });
    }
  }
  for (const summary of byName.values()) summary.unmet = summary.rows.filter((r) => r.unmet > 0).length;
  return [...byName.values()];
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `bsi-2.1: 3 of 27 requirements unmet in 212 components (0 of 1 documents pass)`, one per profile. */
export function profileSummaryLines(reports: readonly FileReport[]): string[] {
  return profileSummaries(reports).map(
    (s) =>
      `${s.name}: ${s.unmet} of ${count(s.requirements, 'requirement')} unmet in ${count(s.components, 'component')} (${s.passed} of ${count(s.documents, 'document')} ${s.passed === 1 ? 'passes' : 'pass'})${s.superseded === undefined ? '' : `; superseded ${s.superseded}`}`,
  );
}

export interface ProfileRuleInfo {
  id: Diagnostic['ruleId'];
  level: 'MUST' | 'SHOULD';
  clause: string;
  description: string;
  hint: string;
  profile: string;
  source?: { title: string; url?: string };
}

/** The rules of the profiles a run checks (from the profiles, so every shard of a run lists the same). */
export function profileRules(profiles: readonly Profile[]): ProfileRuleInfo[] {
  return profiles.flatMap((profile) =>
    profile.requirements.map((r) => ({
      id: `profile/${profile.name}/${r.id}` as const,
      level: r.level,
      clause: r.clause,
      description: r.message,
      hint: r.hint,
      profile: profile.title,
      ...(profile.source === undefined ? {} : { source: profile.source }),
    })),
  );
}

/** The rule's page text for a profile requirement: its source and clause, what it checks and how to fix it. */
export function profileRuleMarkdown(info: ProfileRuleInfo): string {
  const source = info.source === undefined ? info.profile : info.source.title;
  const link = info.source?.url === undefined ? '' : ` (${info.source.url})`;
  return [
    `# ${info.id}`,
    '',
    `Severity: **${info.level === 'MUST' ? 'error' : 'warning'}** (${info.level})`,
    '',
    `Profile: ${info.profile}. Source: ${source}${link}, clause ${info.clause}.`,
    '',
    '## What it checks',
    '',
    `${info.description}.`,
    '',
    '## How to fix',
    '',
    `${info.hint.charAt(0).toUpperCase()}${info.hint.slice(1)}.`,
    '',
  ].join('\n');
}

/** A profile as reports name it: which rules were applied (name, version, digest of the rules as applied). */
export interface ProfileIdentity {
  name: string;
  title: string;
  version?: string;
  digest: string;
  superseded?: string;
  source?: { title: string; url?: string };
}

/** The profiles a run checked, from the profiles (every shard lists the same), else from the results. */
export function profileIdentities(reports: readonly FileReport[], profiles?: readonly Profile[]): ProfileIdentity[] {
  const from: readonly (Profile | ProfileResult)[] = profiles ?? [
    ...new Map(resultsOf(reports).map(({ result }) => [result.name, result])).values(),
  ];
  return from.map((p) => ({
    name: p.name,
    title: p.title,
    ...(p.version === undefined ? {} : { version: p.version }),
    digest: p.digest,
    ...(p.superseded === undefined ? {} : { superseded: p.superseded }),
    ...(p.source === undefined ? {} : { source: p.source }),
  }));
}

/** One document's verdict on one profile: passed, and the requirements it leaves unmet by level. */
export interface DocumentVerdict {
  name: string;
  passed: boolean;
  /** Requirement ids unmet, MUST ones and SHOULD ones. */
  unmet: { must: string[]; should: string[] };
}

export function documentVerdicts(report: FileReport): DocumentVerdict[] {
  return (report.result?.profiles ?? []).map((p) => ({
    name: p.name,
    passed: p.passed,
    unmet: {
      must: p.requirements.filter((r) => r.unmet > 0 && r.level === 'MUST').map((r) => r.id),
      should: p.requirements.filter((r) => r.unmet > 0 && r.level === 'SHOULD').map((r) => r.id),
    },
  }));
}

/** `sha256:` digests are long: reports show the first 12 hex digits where space is short. */
export function shortDigest(digest: string): string {
  return digest.slice(0, 'sha256:'.length + 12);
}
