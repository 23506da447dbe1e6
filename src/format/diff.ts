/** `bomwright diff`'s reports: `+`/`-`/`~` lines for people, the diff data as JSON for machines. */
import type { BomDiff, MemberChange } from '../compare/diff.js';

export type DiffFormat = 'text' | 'json';

const shown = (value: string | undefined) => value ?? '(none)';

/** The diff as lines for people: `+` added, `-` removed, `~` changed, one change per line. */
export function formatDiffText(diff: BomDiff): string {
  if (diff.identical) return 'No differences\n';
  const lines: string[] = [];
  const change = (prefix: string, c: MemberChange) => `~ ${prefix}${c.path}: ${shown(c.old)} → ${shown(c.new)}`;
  for (const c of diff.document) lines.push(change('', c));
  for (const c of diff.metadata.changes) lines.push(change('', c));
  for (const [kind, elements] of [
    ['component', diff.components],
    ['service', diff.services],
  ] as const) {
    for (const e of elements.added) lines.push(`+ ${kind} ${e.label}`);
    for (const e of elements.removed) lines.push(`- ${kind} ${e.label}`);
    for (const e of elements.changed) for (const c of e.changes) lines.push(change(`${kind} ${e.label} `, c));
  }
  const label = (d: { ref: string; dependencyType?: string }) =>
    d.dependencyType === undefined ? d.ref : `${d.ref} (${d.dependencyType})`;
  for (const d of diff.dependencies.added)
    lines.push(`+ dependency ${label(d)}${d.dependsOn.length > 0 ? ` → ${d.dependsOn.join(', ')}` : ''}`);
  for (const d of diff.dependencies.removed) lines.push(`- dependency ${label(d)}`);
  for (const d of diff.dependencies.changed) {
    const parts = [...d.dependsOnAdded.map((r) => `+${r}`), ...d.dependsOnRemoved.map((r) => `-${r}`)];
    const provides = [...d.providesAdded.map((r) => `+${r}`), ...d.providesRemoved.map((r) => `-${r}`)];
    const text = [
      parts.length > 0 ? `dependsOn ${parts.join(' ')}` : '',
      provides.length > 0 ? `provides ${provides.join(' ')}` : '',
    ]
      .filter((t) => t !== '')
      .join('; ');
    lines.push(`~ dependency ${label(d)} ${text}`);
  }
  return lines.join('\n') + '\n';
}

export function formatDiff(format: DiffFormat, diff: BomDiff): string {
  return format === 'json' ? JSON.stringify(diff, null, 2) + '\n' : formatDiffText(diff);
}
