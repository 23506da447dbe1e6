/** What the reports say about compliance profiles: one summary per profile over all documents, and rule entries. */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { profileIdentity, type ProfileIdentity, type ProfileResult } from '../validate/profiles/evaluate.js';
import {
  HASH_STRENGTH,
  type Check,
  type Path,
  type Paths,
  type Profile,
  type Requirement,
} from '../validate/profiles/model.js';
import type { FileReport } from './report.js';

interface ProfileSummary extends ProfileIdentity {
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
        ...profileIdentity(result),
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
  /** What is checked, and on what, in words (from the check itself). */
  counts: string;
  reading?: string;
  appliesTo: 'document' | 'primary' | 'components';
  /** A subject that meets it, made from the check (JSON), when one can be made. */
  example?: string;
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
      counts: describeRequirement(r),
      appliesTo: r.appliesTo.kind,
      ...(r.reading === undefined ? {} : { reading: r.reading }),
      ...exampleOf(r),
    })),
  );
}

const code = (path: Path) => `\`${path.join('.')}\``;
const codes = (paths: Paths) => paths.map(code).join(' (else ') + ')'.repeat(paths.length - 1);
const quoted = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(', ');

/** What a requirement checks, on what, and when, in words. */
function describeRequirement(r: Requirement): string {
  const on =
    r.appliesTo.kind === 'document'
      ? 'the document'
      : r.appliesTo.kind === 'primary'
        ? 'metadata.component'
        : `every component (metadata.component, components[] and nested ones)${r.appliesTo.types === undefined ? '' : ` of type ${r.appliesTo.types.join(' or ')}`}`;
  return `Checked on ${on}${r.when === undefined ? '' : `, where ${describeCheck(r.when)}`}: met when ${describeCheck(r.check)}.`;
}

/** A check in words: the members it reads (paths relative to the subject) and what they must hold. */
function describeCheck(check: Check): string {
  switch (check.kind) {
    case 'present':
      return `${codes(check.paths)} is present (not empty)`;
    case 'entity':
      return `${codes(check.paths)} names an entity by ${check.by.map((b) => (b === 'email' ? 'a contact e-mail' : b === 'url' ? 'a URL' : 'a name')).join(' or ')}${check.valid ? ' (a valid address or absolute URL)' : ''}`;
    case 'email':
      return `${codes(check.paths)} ${check.within ? 'contains' : 'is'} an e-mail address`;
    case 'url':
      return `${codes(check.paths)} is an absolute URL`;
    case 'timestamp':
      return `${codes(check.paths)} is an RFC 3339 date-time with an offset`;
    case 'in':
      return `${codes(check.paths)} is one of ${quoted(check.values)}${check.ignoreCase ? ' (any case)' : ''}`;
    case 'matches':
      return `${codes(check.paths)} matches the pattern ${JSON.stringify(check.pattern)}`;
    case 'some':
      return `some entry of ${codes(check.paths)} has ${describeCheck(check.where)}`;
    case 'every':
      return `every entry of ${code(check.path)}${check.of === undefined ? '' : ` where ${describeCheck(check.of)}`} has ${describeCheck(check.where)}${check.nonEmpty ? ', and there is at least one' : ''}`;
    case 'anyOf':
      return `any of: ${check.checks.map((c, i) => `(${i + 1}) ${describeCheck(c)}`).join('; ')}`;
    case 'allOf':
      return check.checks.map(describeCheck).join(', and ');
    case 'not':
      return `not (${describeCheck(check.check)})`;
    case 'licence-valid':
      return 'the licence entry is an SPDX id, a valid SPDX expression or a license.name starting LicenseRef- (NOASSERTION and NONE state nothing)';
    case 'licences-allowed':
      return `every licence entry can be met with only ${quoted(check.allow)} (an OR offers a choice; deprecated ids read as SPDX means them)`;
    case 'licences-denied':
      return `no licence entry forces one of ${quoted(check.deny)} (an OR offers a way around; deprecated ids read as SPDX means them)`;
    case 'hash-at-least':
      return `${codes(check.paths)} has a hash of ${check.alg}'s strength or more, with content`;
    case 'denied-components':
      return `the component is none of ${check.deny.map((d) => `${d.purl === undefined ? `name ${JSON.stringify(d.name)}` : `pkg:${d.purl.type}/${d.purl.namespace === undefined ? '' : `${d.purl.namespace}/`}${d.purl.name}`}${d.versions === undefined ? '' : ` ${d.versions}`}`).join(', ')}`;
    case 'spec-version-at-least':
      return `specVersion is ${check.version} or later`;
    case 'primary-dependencies':
      return `metadata.component has a bom-ref and a dependencies[] entry under it lists what it depends on${check.compositions.length === 0 ? '' : `, or a compositions[] entry with aggregate ${check.compositions.join(' or ')} lists that bom-ref in its dependencies`}`;
    case 'refs-resolve':
      return "every dependencies[].ref and dependsOn[] entry names a component's bom-ref";
    case 'reachable-from-primary':
      return "the component's bom-ref lies on a dependsOn path from metadata.component";
    case 'completeness':
      return 'a compositions[] entry has an aggregate other than not_specified and lists dependencies (or lists neither assemblies nor vulnerabilities)';
    case 'component-count':
      return `there are at least ${check.min} components`;
    case 'is-primary':
      return 'the component is metadata.component';
    case 'on-document':
      return `in the document, ${describeCheck(check.check)}`;
  }
}

type Json = Record<string, unknown>;

/** What a check's example puts in a subject; undefined where none can be made (`not`, denied components). */
function exampleValue(check: Check): Json | undefined {
  const at = (path: Path, value: unknown): Json => {
    let node: unknown = value;
    for (let i = path.length - 1; i >= 0; i--) node = { [path[i]!]: node };
    return node as Json;
  };
  switch (check.kind) {
    case 'present':
      return at(check.paths[0]!, /version/i.test(check.paths[0]!.at(-1)!) ? '1.0.0' : 'example');
    case 'entity':
      return at(
        check.paths[0]!,
        check.by.includes('email')
          ? { name: 'Acme', contact: [{ email: 'sbom@acme.example' }] }
          : { name: 'Acme', url: ['https://acme.example'] },
      );
    case 'email':
      return at(check.paths[0]!, 'sbom@acme.example');
    case 'url':
      return at(check.paths[0]!, 'https://acme.example/download');
    case 'timestamp':
      return at(check.paths[0]!, '2026-07-29T10:00:00Z');
    case 'in':
      return at(check.paths[0]!, check.values[0]);
    case 'some': {
      const entry = exampleValue(check.where);
      return entry === undefined ? undefined : at(check.paths[0]!, [entry]);
    }
    case 'every': {
      const of = check.of === undefined ? {} : exampleValue(check.of);
      const where = exampleValue(check.where);
      return of === undefined || where === undefined ? undefined : at(check.path, [merge(of, where)]);
    }
    case 'anyOf':
      return check.checks.map(exampleValue).find((e) => e !== undefined);
    case 'allOf': {
      let all: Json = {};
      for (const c of check.checks) {
        const e = exampleValue(c);
        if (e === undefined) return undefined;
        all = merge(all, e);
      }
      return all;
    }
    case 'licence-valid':
      return { license: { id: 'MIT', acknowledgement: 'concluded' } };
    case 'licences-allowed':
      return { licenses: [{ license: { id: check.allow[0] } }] };
    case 'licences-denied':
      return { licenses: [{ license: { id: 'LicenseRef-example' } }] };
    case 'hash-at-least':
      return at(check.paths[0]!, [{ alg: check.alg, content: '0'.repeat(2 * (HASH_STRENGTH[check.alg]! / 8)) }]);
    case 'spec-version-at-least':
      return { specVersion: check.version };
    case 'primary-dependencies':
      return {
        metadata: { component: { type: 'application', 'bom-ref': 'app', name: 'app', version: '1.0.0' } },
        components: [{ type: 'library', 'bom-ref': 'lib', name: 'lib', version: '2.0.0' }],
        dependencies: [{ ref: 'app', dependsOn: ['lib'] }],
      };
    case 'completeness':
      return { compositions: [{ aggregate: 'complete', dependencies: ['app', 'lib'] }] };
    case 'component-count':
      return {
        components: Array.from({ length: Math.max(check.min, 1) }, (_, i) => ({ type: 'library', name: `lib${i}` })),
      };
    case 'on-document':
      return undefined;
    default:
      return undefined;
  }
}

function merge(a: Json, b: Json): Json {
  const out: Json = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const before = out[key];
    out[key] =
      before !== null &&
      typeof before === 'object' &&
      !Array.isArray(before) &&
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value)
        ? merge(before as Json, value as Json)
        : value;
  }
  return out;
}

/** A passing example for the page: the members the check asks for, as JSON, where one can be made. */
function exampleOf(r: Requirement): { example?: string } {
  const value = exampleValue(r.check);
  return value === undefined || Object.keys(value).length === 0 ? {} : { example: JSON.stringify(value, null, 2) };
}

/** The rule's page text for a profile requirement: its source and clause, what counts, how it is read, how to fix it. */
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
    '## What counts',
    '',
    info.counts,
    ...(info.reading === undefined ? [] : ['', '## How the clause is read', '', info.reading]),
    ...(info.example === undefined
      ? []
      : [
          '',
          '## Example',
          '',
          `Members of ${info.appliesTo === 'document' ? 'the document' : info.appliesTo === 'primary' ? 'metadata.component' : 'a component'} that meet it:`,
          '',
          '```json',
          info.example,
          '```',
        ]),
    '',
    '## How to fix',
    '',
    `${info.hint.charAt(0).toUpperCase()}${info.hint.slice(1)}.`,
    ...(/\{(?:component|bom-ref|primary|at|ref)\}/.test(info.hint)
      ? [
          '',
          "Each finding prints the command filled in: {component} is a selector of the component that falls short (bom-ref=…), {bom-ref} its bom-ref, {primary} metadata.component's, {at} the member's place in it, {ref} the reference that names nothing.",
        ]
      : []),
    '',
  ].join('\n');
}

/** `explain profile/<name>`: the profile, which rules it applies (version, digest) and its requirements. */
export function profileMarkdown(profile: Profile): string {
  const width = Math.max(...profile.requirements.map((r) => r.id.length));
  return [
    `# ${profile.name}: ${profile.title}`,
    '',
    ...(profile.source === undefined
      ? []
      : [`Source: ${profile.source.title}${profile.source.url === undefined ? '' : ` (${profile.source.url})`}.`, '']),
    `Version ${profile.version ?? '(none)'}; rules applied: ${profile.digest}.`,
    ...(profile.superseded === undefined ? [] : ['', `Superseded ${profile.superseded}.`]),
    '',
    '## Requirements',
    '',
    ...profile.requirements.map((r) => `${r.id.padEnd(width)}  ${r.level.padEnd(6)}  ${r.clause}: ${r.message}`),
    '',
    `Run "bomwright explain profile/${profile.name}/REQUIREMENT" for a requirement's page.`,
    '',
  ].join('\n');
}

/** A profile as reports name it: which rules were applied (name, version, digest of the rules as applied). */
/** The profiles a run checked, from the profiles (every shard lists the same), else from the results. */
export function profileIdentities(reports: readonly FileReport[], profiles?: readonly Profile[]): ProfileIdentity[] {
  const from: readonly (Profile | ProfileResult)[] = profiles ?? [
    ...new Map(resultsOf(reports).map(({ result }) => [result.name, result])).values(),
  ];
  return from.map(profileIdentity);
}

/** One document's verdict on one profile: passed, and the requirements it leaves unmet by level. */
interface DocumentVerdict {
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
