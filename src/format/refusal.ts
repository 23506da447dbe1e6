/**
 * A rewriting command's refusal (sign, bump, add, set on a document that is or would become invalid): the
 * errors, one line each, in the text format's shape, then one line saying what was refused.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { displayPointer, plural } from './report.js';

export function formatRefusal(
  file: string,
  diagnostics: readonly Diagnostic[],
  refused: (errors: string) => string,
): string {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const lines = errors.map((d) => {
    // Diagnostics of an edited (not yet written) document have no position: name the file alone.
    const where = d.line === undefined ? file : `${file}:${d.line}:${d.column ?? 1}`;
    return `${where}  error  ${d.message}${d.pointer ? ` at ${displayPointer(d.pointer)}` : ''}  ${d.ruleId}`;
  });
  lines.push(`bomwright: ${refused(plural(errors.length, 'error'))}`);
  return lines.join('\n') + '\n';
}
