/** `bomwright diff`'s reports: `+`/`-`/`~` lines for people, the diff data as JSON for machines. */
import type { BomDiff, MemberChange } from '../compare/diff.js';
import { display } from '../values.js';

type DiffFormat = 'text' | 'json';

/** Characters of unchanged text shown on each side of a change in a string. */
const CONTEXT = 20;
const ITEM_LENGTH = 100;
const VALUE_LENGTH = 80;

const shown = (value: unknown) => (value === undefined ? '(none)' : display(value, VALUE_LENGTH)!);

/**
 * Two strings cut to the part that differs, with some unchanged text around it: `…the quick brown fox…` →
 * `…the quick red fox…`, so a change deep in a long description is visible.
 */
function focusStrings(a: string, b: string): [string, string] {
  // Short values are shown whole: cutting a few characters would hide more than it shows.
  if (a.length <= VALUE_LENGTH && b.length <= VALUE_LENGTH) return [a, b];
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix++;
  const cut = (text: string) => {
    const start = Math.max(0, prefix - CONTEXT);
    const end = Math.min(text.length, text.length - suffix + CONTEXT);
    const middle = text.slice(start, end);
    return `${start > 0 ? '…' : ''}${middle}${end < text.length ? '…' : ''}`;
  };
  return [cut(a), cut(b)];
}

/** What changed in one member: the differing part of two strings, the items of two arrays, else both values. */
function changeText(c: MemberChange): string {
  if (typeof c.old === 'string' && typeof c.new === 'string') {
    const [a, b] = focusStrings(c.old, c.new);
    return `${a} → ${b}`;
  }
  if (c.added !== undefined && c.removed !== undefined) {
    const items = [
      ...c.added.map((item) => `+${display(item, ITEM_LENGTH)!}`),
      ...c.removed.map((item) => `-${display(item, ITEM_LENGTH)!}`),
    ];
    return items.length === 0 ? 'same items, order changed' : items.join(' ');
  }
  return `${shown(c.old)} → ${shown(c.new)}`;
}

/** The diff as lines for people: `+` added, `-` removed, `~` changed, one change per line. */
export function formatDiffText(diff: BomDiff): string {
  if (diff.identical) return 'No differences\n';
  const lines: string[] = [];
  const change = (prefix: string, c: MemberChange) => `~ ${prefix}${c.path}: ${changeText(c)}`;
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
